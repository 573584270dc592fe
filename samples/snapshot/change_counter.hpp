#pragma once

// How many cubes change between a snapshot and the one `distance` frames earlier,
// judged on what is sent (DeltaCube's encoded bits): the measure of how much work a
// delta encoder has. Fed every frame of a run in order; the first frame fed is the
// baseline of the first comparison, so feed the initial state first. Also how hard the
// changes are: the share of changed positions whose z code changes (something moved
// vertically), and the share of changed orientations whose smallest-three largest
// component changes (a tumble, not a nudge).

#include "delta_types.hpp"

#include <array>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace snapshot {

class change_counter {
public:
    static constexpr std::size_t default_distance = 6; ///< Fiedler's: a tenth of a second at 60 Hz

    explicit change_counter(std::size_t distance = default_distance);

    /// Adds one frame. False when a cube does not encode (a NaN: quantized values
    /// outside their bounds are clamped, as the wire does); the frame is then not
    /// compared and not kept.
    bool add(std::span<const CubeState> cubes);

    /// Frames compared so far (each frame once `distance` frames precede it).
    std::size_t frames() const noexcept { return frames_; }
    /// Cubes that changed in the last frame compared (0 before the first comparison).
    std::size_t last() const noexcept { return last_; }
    double mean() const noexcept;
    std::size_t min() const noexcept { return frames_ == 0 ? 0 : min_; }
    std::size_t max() const noexcept { return max_; }
    std::size_t distance() const noexcept { return distance_; }

    /// Over every comparison: cubes whose position code changed, and of them those whose
    /// z code changed.
    std::size_t position_changes() const noexcept { return position_changes_; }
    std::size_t z_changes() const noexcept { return z_changes_; }
    /// Over every comparison: cubes whose orientation code changed, and of them those
    /// whose largest component (smallest-three's index) changed.
    std::size_t rotation_changes() const noexcept { return rotation_changes_; }
    std::size_t largest_switches() const noexcept { return largest_switches_; }
    /// z_changes / position_changes, largest_switches / rotation_changes (0 when none).
    double z_share() const noexcept;
    double largest_switch_share() const noexcept;

private:
    using code = std::array<std::byte, netser::max_bytes<DeltaCube>()>;

    std::size_t distance_;
    std::vector<std::vector<code>> ring_; ///< the last distance + 1 frames, encoded
    std::size_t added_ = 0;
    std::size_t frames_ = 0;
    std::size_t total_ = 0;
    std::size_t last_ = 0;
    std::size_t min_ = std::numeric_limits<std::size_t>::max();
    std::size_t max_ = 0;
    std::size_t position_changes_ = 0;
    std::size_t z_changes_ = 0;
    std::size_t rotation_changes_ = 0;
    std::size_t largest_switches_ = 0;
};

} // namespace snapshot
