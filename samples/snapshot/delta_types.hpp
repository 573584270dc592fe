#pragma once

// What the delta stream sends: the state the client draws (no velocity), as Glenn
// Fiedler's "Snapshot Compression" sends it: a flag, a position in 1/512 m and a
// smallest-three orientation of 9 bits per component. A whole snapshot is one
// DeltaSnapshot, sent as a budgeted delta packet against a snapshot the client has
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

/// A whole snapshot: every cube. The server writes it as one delta packet of at most
/// packet_budget bytes with netser::delta_budget against the newest snapshot the client
/// acknowledged: the changed cubes go by priority, the ones left out keep the baseline's
/// state on the client and go in later packets.
struct DeltaSnapshot {
    std::array<DeltaCube, cube_count> cubes;
};
NETSER_STRUCT(DeltaSnapshot, cubes)

/// The same cube with netser::predict_linear on its position and orientation: the server
/// also writes (and reads back, but does not send) each snapshot of these as a predicted,
/// range-coded delta packet against the snapshots the client acknowledged (stage 5).
struct PredictedCube {
    bool interacting = false;
    Position position;
    quat orientation;
};
NETSER_STRUCT(PredictedCube,
    interacting,
    (position, netser::predict_linear),
    (orientation, orientation_codec, netser::predict_linear))

struct PredictedSnapshot {
    std::array<PredictedCube, cube_count> cubes;
};
NETSER_STRUCT(PredictedSnapshot, cubes)

inline PredictedCube to_predicted(const DeltaCube& c) noexcept { return {c.interacting, c.position, c.orientation}; }

/// Snapshots each side keeps as baselines (netser::baseline_ring): a little over 4 s at 60 Hz.
inline constexpr std::size_t ring_capacity = 256;

/// Bit for bit: the client's cube equals the server's (floats compared as bits).
inline bool same_cube(const DeltaCube& a, const DeltaCube& b) noexcept {
    const auto bits = [](float f) { return std::bit_cast<std::uint32_t>(f); };
    return a.interacting == b.interacting && bits(a.position.x) == bits(b.position.x) &&
           bits(a.position.y) == bits(b.position.y) && bits(a.position.z) == bits(b.position.z) &&
           bits(a.orientation.x) == bits(b.orientation.x) && bits(a.orientation.y) == bits(b.orientation.y) &&
           bits(a.orientation.z) == bits(b.orientation.z) && bits(a.orientation.w) == bits(b.orientation.w);
}

/// Bit for bit: every cube.
inline bool same_snapshot(const DeltaSnapshot& a, const DeltaSnapshot& b) noexcept {
    for (std::size_t i = 0; i < cube_count; ++i)
        if (!same_cube(a.cubes[i], b.cubes[i])) return false;
    return true;
}

} // namespace snapshot
