#pragma once

// What the delta stream sends: the state the client draws (no velocity), as Glenn
// Fiedler's "Snapshot Compression" sends it: a flag, a position in 1/512 m and a
// smallest-three orientation of 9 bits per component. A whole snapshot is one
// DeltaSnapshot, sent with netser::serialize_delta against a snapshot the client has
// acknowledged; netser derives the delta encoding from these descriptions alone.

#include "snapshot_types.hpp"

#include <array>
#include <bit>
#include <cstdint>

namespace snapshot {

struct DeltaCube {
    bool interacting = false;
    Position position;
    quat orientation;
};
NETSER_STRUCT(DeltaCube,
    interacting,
    position,
    (orientation, orientation_codec))

static_assert(netser::max_bits<DeltaCube>() == 1 + 16 + 16 + 14 + 2 + 3 * 9, "CubeState without the velocity");

inline DeltaCube to_delta(const CubeState& c) noexcept { return {c.interacting, c.position, c.orientation}; }

/// Most snapshots fit one packet; a burst of changes is cut into parts (at most 16),
/// each a whole DeltaSnapshot against the same baseline in which only its share of the
/// changed cubes differs from the baseline, so every part decodes on its own.
inline constexpr std::size_t max_parts = 16;

struct DeltaSnapshot {
    std::uint8_t part = 0;  ///< this packet's share, 0 .. parts - 1
    std::uint8_t parts = 1; ///< packets the snapshot was cut into
    std::array<DeltaCube, cube_count> cubes;
};
NETSER_STRUCT(DeltaSnapshot,
    (part, netser::range(0, max_parts - 1)),
    (parts, netser::range(1, max_parts)),
    cubes)

/// The client's acknowledgement: the newest snapshot it holds whole (its 16-bit
/// sequence number, as delta packets carry it). A plain netser packet.
struct Ack {
    std::uint16_t sequence = 0;
};
NETSER_STRUCT(Ack, sequence)

/// Sequence numbers on the wire: 1, 2, ... 65535, 1, ...; 0 names the initial state,
/// which both sides hold from the start (the scene is deterministic).
inline constexpr std::uint16_t initial_sequence = 0;
inline std::uint16_t wire_sequence(std::size_t snapshot) noexcept {
    return static_cast<std::uint16_t>(1 + snapshot % 65535);
}

/// Bit for bit: the client's cube equals the server's (floats compared as bits).
inline bool same_cube(const DeltaCube& a, const DeltaCube& b) noexcept {
    const auto bits = [](float f) { return std::bit_cast<std::uint32_t>(f); };
    return a.interacting == b.interacting && bits(a.position.x) == bits(b.position.x) &&
           bits(a.position.y) == bits(b.position.y) && bits(a.position.z) == bits(b.position.z) &&
           bits(a.orientation.x) == bits(b.orientation.x) && bits(a.orientation.y) == bits(b.orientation.y) &&
           bits(a.orientation.z) == bits(b.orientation.z) && bits(a.orientation.w) == bits(b.orientation.w);
}

} // namespace snapshot
