#pragma once

// What a cube looks like to delta compression: the state the client draws, without the
// velocity. Two snapshots of a cube are "the same" when these encode to the same bits
// (the codes netser sends), which is what Glenn Fiedler's "Snapshot Compression" counts
// and what its public challenge records (interacting, position, smallest-three codes).

#include "snapshot_types.hpp"

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

} // namespace snapshot
