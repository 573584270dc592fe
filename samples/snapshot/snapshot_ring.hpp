#pragma once

// The snapshots one side holds as delta baselines, by 16-bit wire sequence number: the
// initial state (sequence 0) always, and the last `depth` snapshots. The server keeps
// what it sent (as the client will decode it), the client what it rebuilt.

#include "delta_types.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace snapshot {

class snapshot_ring {
public:
    static constexpr std::size_t depth = 256; ///< a little over 4 s at 60 Hz

    explicit snapshot_ring(const DeltaSnapshot& initial) : initial_(initial), slots_(std::make_unique<slot[]>(depth)) {}

    /// Stores s as snapshot `sequence` (never 0), replacing the one depth sequences older.
    void put(std::uint16_t sequence, const DeltaSnapshot& s) {
        slot& x = slots_[sequence % depth];
        x.valid = true;
        x.sequence = sequence;
        x.snapshot = s;
    }

    /// The snapshot named `sequence`, or nullptr when it is not (or no longer) held.
    const DeltaSnapshot* find(std::uint16_t sequence) const noexcept {
        if (sequence == initial_sequence) return &initial_;
        const slot& x = slots_[sequence % depth];
        return x.valid && x.sequence == sequence ? &x.snapshot : nullptr;
    }

private:
    struct slot {
        bool valid = false;
        std::uint16_t sequence = 0;
        DeltaSnapshot snapshot;
    };
    DeltaSnapshot initial_;
    std::unique_ptr<slot[]> slots_; // 256 x 901 cubes: on the heap
};

} // namespace snapshot
