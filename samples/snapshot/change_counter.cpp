#include "change_counter.hpp"

#include <algorithm>

namespace snapshot {

change_counter::change_counter(std::size_t distance)
    : distance_(std::max<std::size_t>(distance, 1)), ring_(distance_ + 1) {}

bool change_counter::add(std::span<const CubeState> cubes) {
    std::vector<code>& frame = ring_[added_ % ring_.size()];
    frame.assign(cubes.size(), code{});
    for (std::size_t i = 0; i < cubes.size(); ++i) {
        DeltaCube cube = to_delta(cubes[i]);
        netser::write_stream out(frame[i]); // zeroed: the bits after the last value stay 0
        if (!netser::serialize(out, cube)) return false;
        out.finish();
    }
    ++added_;
    if (added_ <= distance_) return true;

    const std::vector<code>& before = ring_[(added_ - 1 - distance_) % ring_.size()];
    std::size_t changed = 0;
    for (std::size_t i = 0; i < frame.size(); ++i)
        if (i >= before.size() || frame[i] != before[i]) ++changed;
    ++frames_;
    total_ += changed;
    last_ = changed;
    min_ = std::min(min_, changed);
    max_ = std::max(max_, changed);
    return true;
}

double change_counter::mean() const noexcept {
    return frames_ == 0 ? 0.0 : static_cast<double>(total_) / static_cast<double>(frames_);
}

} // namespace snapshot
