// What the threads share, and the sums of their reports.

#include "demo.hpp"

#include <algorithm>
#include <cmath>

namespace snapshot {

std::size_t options::snapshots() const noexcept {
    const double n = std::round(seconds * static_cast<double>(snapshots_per_second));
    return n < 1.0 ? 1 : static_cast<std::size_t>(n);
}

void truth_history::put(std::uint16_t sequence, const DeltaSnapshot& held, const std::vector<CubeState>& cubes) {
    const std::lock_guard lock(mutex_);
    frame& f = frames_[sequence % depth];
    f.valid = true;
    f.sequence = sequence;
    f.held = held;
    f.cubes = cubes;
}

bool truth_history::get(std::uint16_t sequence, DeltaSnapshot& held, std::vector<CubeState>& cubes) const {
    const std::lock_guard lock(mutex_);
    const frame& f = frames_[sequence % depth];
    if (!f.valid || f.sequence != sequence) return false;
    held = f.held;
    cubes = f.cubes;
    return true;
}

bool truth_history::get(std::uint16_t sequence, DeltaSnapshot& held) const {
    const std::lock_guard lock(mutex_);
    const frame& f = frames_[sequence % depth];
    if (!f.valid || f.sequence != sequence) return false;
    held = f.held;
    return true;
}

void packet_pool::put(std::span<const std::byte> packet) {
    const std::lock_guard lock(mutex_);
    packets_[count_ % depth].assign(packet.begin(), packet.end());
    ++count_;
}

bool packet_pool::sample(std::uint32_t pick, std::vector<std::byte>& out) const {
    const std::lock_guard lock(mutex_);
    if (count_ == 0) return false;
    out = packets_[pick % std::min(count_, depth)];
    return true;
}

void stage_stats::add(std::size_t snapshot_bytes, std::size_t snapshot_packets, std::size_t snapshot_cube_bits,
                      std::size_t snapshot_largest_packet) noexcept {
    ++snapshots;
    last_bytes = snapshot_bytes;
    packets += snapshot_packets;
    bytes += snapshot_bytes;
    cube_bits += snapshot_cube_bits;
    min_bytes = std::min(min_bytes, snapshot_bytes);
    max_bytes = std::max(max_bytes, snapshot_bytes);
    largest_packet = std::max(largest_packet, snapshot_largest_packet);
}

double stage_stats::mean_bytes() const noexcept {
    return snapshots == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(snapshots);
}

double stage_stats::kbps() const noexcept {
    return mean_bytes() * 8.0 * static_cast<double>(snapshots_per_second) / 1000.0;
}

std::size_t client_report::hostile_rejected_total() const noexcept {
    std::size_t n = 0;
    for (const auto& [code, count] : hostile_rejected) n += count;
    return n;
}

const char* to_string(hostile_kind k) noexcept {
    switch (k) {
    case hostile_kind::random_bytes: return "random bytes";
    case hostile_kind::truncated: return "truncated copies";
    case hostile_kind::bit_flipped: return "bit-flipped copies";
    case hostile_kind::other_protocol: return "another protocol id";
    case hostile_kind::other_schema: return "an older schema";
    case hostile_kind::forged_crc: return "forged with a valid CRC";
    case hostile_kind::unknown_baseline: return "naming an unknown baseline";
    case hostile_kind::wrong_baseline: return "written against a wrong baseline";
    }
    return "?";
}

std::size_t hostile_report::total() const noexcept {
    std::size_t n = 0;
    for (std::size_t s : sent) n += s;
    return n;
}

} // namespace snapshot
