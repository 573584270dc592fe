#pragma once

// What goes over ENet, and the harness's view of what each client should hold.
//
// Server to client: World snapshots as netser delta packets. A late joiner's first one
// is written against the initial baseline (netser::initial_sequence: the start state
// both sides construct) and goes on the reliable channel, where ENet fragments it; the
// others are budgeted deltas against the client's newest acked snapshot, unreliable.
// Client to server: a hello (reliable) and acks (netser::ack_message), plain packets
// the server tells apart with netser::packet_kind_of.

#include "world.hpp"

#include <netser/acks.hpp>
#include <netser/sequence.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace session {

inline constexpr std::uint8_t reliable_channel = 0;
inline constexpr std::uint8_t unreliable_channel = 1;
inline constexpr std::size_t channel_count = 2;
/// Largest --budget: an unreliable packet ENet sends whole (its MTU is 1400 bytes);
/// a larger one ENet would fragment and send reliably.
inline constexpr std::size_t max_budget = 1200;
/// Snapshots each side keeps as baselines: about two seconds.
inline constexpr std::size_t ring_capacity = 64;

/// A client's first message: who it is and where it looks (its point of interest).
struct Hello {
    std::uint8_t client = 0;
    float x = 0.f, y = 0.f;
};
NETSER_STRUCT(Hello, (client, netser::range(0, 63)), (x, coordinate), (y, coordinate))

/// The harness's record, per client and sequence number, of what the server wrote:
/// what the client will hold after reading it, and whether that is the server's full
/// state. In one process, so every client can check what it decoded.
class Ledger {
public:
    struct expected {
        World held;
        bool full = false;
    };

    explicit Ledger(std::size_t clients) : by_client_(clients) {}
    std::size_t clients() const noexcept { return by_client_.size(); }

    void record(std::size_t client, std::uint16_t sequence, const World& held, bool full) {
        by_client_[client][sequence] = {held, full};
    }
    const expected* find(std::size_t client, std::uint16_t sequence) const {
        const auto& m = by_client_[client];
        const auto it = m.find(sequence);
        return it == m.end() ? nullptr : &it->second;
    }
    /// Forgets `sequence` and what is older: the client never accepts them again.
    void forget_through(std::size_t client, std::uint16_t sequence) {
        auto& m = by_client_[client];
        std::erase_if(m, [&](const auto& e) { return !netser::sequence_newer(e.first, sequence); });
    }

private:
    std::vector<std::map<std::uint16_t, expected>> by_client_;
};

} // namespace session
