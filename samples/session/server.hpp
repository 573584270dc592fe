#pragma once

// The server: one ENet host on 127.0.0.1. Every tick it steps the world and writes each
// client's snapshot: the late-join snapshot (reliable) until the client acked it, then
// a budgeted delta (netser::delta_budget, unreliable) against the newest snapshot that
// client acked, with the changes near that client's point of interest first. It keeps
// one netser::baseline_ring per client, of what that client will hold.

#include "protocol.hpp"

#include <netser/delta_budget.hpp>

#include <enet/enet.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace session {

inline constexpr float near_distance = 24.f; ///< metres

struct server_stats {
    std::size_t snapshots = 0, late_joins = 0, join_bytes_max = 0; ///< late joins: first snapshots (reliable)
    std::size_t deltas = 0, largest_delta = 0, over_budget = 0;    ///< budgeted packets (unreliable)
    std::size_t sent_changes = 0, deferred = 0; ///< changes sent and left for later, summed over packets
    /// Units in the deltas, near the client's point of interest (within near_distance)
    /// and the others, and how many of each the client holds behind the full state.
    std::size_t near = 0, near_behind = 0, far = 0, far_behind = 0;
    std::size_t acks = 0, foreign = 0, write_failures = 0; ///< foreign: no known kind, or did not read
};

class Server {
public:
    Server(std::uint32_t seed, std::size_t budget, Ledger& ledger);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    /// Where the clients connect: 127.0.0.1 and the port the system chose.
    ENetAddress address() const noexcept { return host_->address; }
    /// Handles what ENet received: connections, hellos and acks.
    void service();
    /// Steps the world and sends every joined client its snapshot.
    void tick();

    const server_stats& stats() const noexcept { return stats_; }

private:
    struct remote {
        remote(const World& initial, std::size_t budget, const Hello& h)
            : client(h.client), poi_x(h.x), poi_y(h.y), ring(ring_capacity, initial), budget(budget) {}
        std::size_t client;
        float poi_x, poi_y;
        netser::baseline_ring<World> ring;
        netser::delta_budget<&World::units, &World::players> budget;
        bool join_sent = false;
    };

    void receive(ENetPeer* peer, std::span<const std::byte> bytes);
    void send(remote& r, ENetPeer* peer, std::uint16_t sequence);

    Simulation world_;
    World initial_;
    std::size_t budget_;
    Ledger& ledger_;
    ENetHost* host_ = nullptr;
    std::vector<std::pair<ENetPeer*, std::unique_ptr<remote>>> remotes_;
    std::uint16_t sequence_ = netser::initial_sequence;
    std::vector<std::byte> packet_;
    std::vector<std::byte> join_packet_;
    World held_;
    server_stats stats_;
};

} // namespace session
