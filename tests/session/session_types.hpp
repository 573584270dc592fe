#pragma once

// Small worlds for the session tests (budgets, fingerprints, rings, acks, kinds): a
// cube array like the snapshot demo's, a keyed roster, a map, and a ping.

#include <netser/acks.hpp>
#include <netser/baseline_ring.hpp>
#include <netser/delta_budget.hpp>
#include <netser/netser.hpp>
#include <netser/packet_kind.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <unordered_map>
#include <vector>

namespace session_test {

struct Ping {
    std::uint16_t sequence = 0;
    bool reply = false;
    bool operator==(const Ping&) const = default;
};
NETSER_STRUCT(Ping, (sequence, netser::range(0, 1000)), reply)

/// 12 + 12 + 10 + 1 = 35 bits plain.
struct Cube {
    std::uint16_t x = 0, y = 0, z = 0;
    bool moving = false;
    bool operator==(const Cube&) const = default;
};
NETSER_STRUCT(Cube, (x, netser::range(0, 4095)), (y, netser::range(0, 4095)), (z, netser::range(0, 1023)), moving)

inline constexpr std::size_t cube_count = 901;

struct Scene {
    std::uint32_t frame = 0;
    std::array<Cube, cube_count> cubes{};
    bool operator==(const Scene&) const = default;
};
NETSER_STRUCT(Scene, frame, cubes)

struct Player {
    std::uint16_t id = 0;
    std::uint16_t score = 0;
    std::uint8_t team = 0;
    bool operator==(const Player&) const = default;
};
NETSER_STRUCT(Player, id, (score, netser::range(0, 9999)), (team, netser::range(0, 3)))

struct Arena {
    std::uint16_t tick = 0;
    std::vector<Player> players; // keyed by id: entities that come and go
    std::map<std::uint16_t, std::uint16_t> flags;
    std::unordered_map<std::uint16_t, std::uint8_t> pickups;
    std::vector<Cube> debris;   // by position
    bool operator==(const Arena&) const = default;
};
NETSER_STRUCT(Arena, tick,
    (players, netser::max_size(200), netser::keyed(&Player::id)),
    (flags, netser::max_size(64)),
    (pickups, netser::max_size(64)),
    (debris, netser::max_size(300)))

inline constexpr std::size_t budget_bytes = 1200;

/// A step of the world: n cubes (chosen by rng) move to random places.
inline void move_cubes(Scene& s, std::mt19937& rng, std::size_t n) {
    std::uniform_int_distribution<std::size_t> which(0, cube_count - 1);
    std::uniform_int_distribution<int> coord(0, 4095), height(0, 1023);
    for (std::size_t i = 0; i < n; ++i) {
        Cube& c = s.cubes[which(rng)];
        c = {static_cast<std::uint16_t>(coord(rng)), static_cast<std::uint16_t>(coord(rng)),
             static_cast<std::uint16_t>(height(rng)), !c.moving};
    }
}

/// A reader that holds what it decoded, by sequence number, and acks it.
template <class T>
struct reader_side {
    netser::baseline_ring<T> ring;
    netser::ack_window acks;
    explicit reader_side(std::size_t capacity, T initial = T{}) : ring(capacity, std::move(initial)) {}

    /// Reads a delta packet against the ring; on success stores and acks it.
    netser::error receive(std::span<const std::byte> packet, T& out) {
        netser::delta_header h;
        const netser::error e = netser::read_delta_packet(packet, out, ring, &h);
        if (!e) {
            ring.put(h.sequence, out);
            acks.accepted(h.sequence);
        }
        return e;
    }
};

} // namespace session_test
