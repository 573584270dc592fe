#include "change_counter.hpp"

#include <algorithm>
#include <cstdint>

namespace snapshot {

namespace {

// The fields of a DeltaCube's wire: interacting (1), x (16), y (16), z (14), then smallest
// three: the largest component's index (2) and three 9-bit codes (delta_types.hpp checks
// the total).
struct cube_fields {
    std::uint32_t x = 0, y = 0, z = 0, largest = 0, a = 0, b = 0, c = 0;
};

template <class Code>
bool read_fields(const Code& code, cube_fields& f) {
    netser::read_stream r(code);
    std::uint32_t interacting = 0;
    return netser::serialize_bits(r, interacting, 1) && netser::serialize_bits(r, f.x, 16) &&
           netser::serialize_bits(r, f.y, 16) && netser::serialize_bits(r, f.z, 14) &&
           netser::serialize_bits(r, f.largest, 2) && netser::serialize_bits(r, f.a, 9) &&
           netser::serialize_bits(r, f.b, 9) && netser::serialize_bits(r, f.c, 9);
}

double share(std::size_t part, std::size_t whole) noexcept {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

} // namespace

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
    for (std::size_t i = 0; i < frame.size(); ++i) {
        if (i < before.size() && frame[i] == before[i]) continue;
        ++changed;
        cube_fields now, then;
        if (i >= before.size() || !read_fields(frame[i], now) || !read_fields(before[i], then)) continue;
        if (now.x != then.x || now.y != then.y || now.z != then.z) {
            ++position_changes_;
            if (now.z != then.z) ++z_changes_;
        }
        if (now.largest != then.largest || now.a != then.a || now.b != then.b || now.c != then.c) {
            ++rotation_changes_;
            if (now.largest != then.largest) ++largest_switches_;
        }
    }
    ++frames_;
    total_ += changed;
    last_ = changed;
    min_ = std::min(min_, changed);
    max_ = std::max(max_, changed);
    return true;
}

double change_counter::mean() const noexcept { return share(total_, frames_); }

double change_counter::z_share() const noexcept { return share(z_changes_, position_changes_); }

double change_counter::largest_switch_share() const noexcept { return share(largest_switches_, rotation_changes_); }

} // namespace snapshot
