#pragma once

// A client: its own ENet host, connected to the server at its join time, behind its own
// simulated path (the snapshot demo's delay_line, both ways). It reads each snapshot against its
// netser::baseline_ring, keeps what it decoded, acks it (netser::ack_window) and checks
// it bit for bit against what the server recorded it would hold (the Ledger).

#include "../snapshot/link.hpp"
#include "protocol.hpp"

#include <enet/enet.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>

namespace session {

using clock = snapshot::delay_line::clock;

struct client_config {
    std::size_t index = 0;
    double join_at = 0;           ///< seconds after the start
    double loss = 0;              ///< probability, each way, for unreliable packets
    std::chrono::milliseconds latency{0}; ///< one way
    float poi_x = 0.f, poi_y = 0.f;
    std::size_t budget = max_budget;
};

struct client_stats {
    bool connected = false;
    clock::time_point connected_at{};
    bool joined = false;              ///< accepted the late-join snapshot (reliable, against the initial baseline)
    std::size_t join_bytes = 0;
    std::size_t packets = 0, bytes = 0; ///< delivered (after the simulated loss)
    std::size_t over_budget = 0;        ///< unreliable packets larger than the budget
    std::size_t accepted = 0;
    std::size_t missing_baseline = 0, baseline_mismatch = 0; ///< refused packets, not errors
    std::size_t errors = 0;     ///< packets that failed to read otherwise
    std::size_t mismatches = 0; ///< accepted snapshots not bit for bit what the server recorded
    std::size_t full = 0;       ///< accepted snapshots that were the server's full state
    std::size_t lag = 0;        ///< most snapshots accepted in a row behind the full state
};

class Client {
public:
    Client(const client_config& config, const World& initial, Ledger& ledger);
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    /// Connects at its join time; then handles what ENet and the simulated path deliver.
    void service(clock::time_point start, clock::time_point now, const ENetAddress& server);

    const client_config& config() const noexcept { return config_; }
    const client_stats& stats() const noexcept { return stats_; }
    std::size_t dropped() const noexcept { return in_.dropped() + out_.dropped(); }

private:
    void read(std::span<const std::byte> bytes, std::uint8_t channel, clock::time_point now);
    template <class T>
    void send(const T& message, std::uint8_t channel, clock::time_point now);

    client_config config_;
    Ledger& ledger_;
    ENetHost* host_ = nullptr;
    ENetPeer* peer_ = nullptr;
    snapshot::delay_line in_, out_;
    netser::baseline_ring<World> ring_;
    netser::ack_window acks_;
    std::uint16_t newest_ = netser::initial_sequence;
    std::size_t behind_ = 0; // snapshots accepted in a row behind the full state
    World decoded_;
    client_stats stats_;
};

} // namespace session
