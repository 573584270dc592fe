#pragma once

// --record FILE: the server's quantized states in the layout of the public
// snapshot-compression challenge of Glenn Fiedler's "Snapshot Compression": per frame,
// 901 records of eight little-endian int32 (orientation_largest, the three
// smallest-three codes a, b, c, position x, y, z codes, interacting), the first frame
// being the initial state. Positions are codes of 1/512 m: x and y from -32768 (-64 m),
// z from 0. tests/benchmarks/delta_recording reads it.

#include "delta_types.hpp"

#include <array>
#include <cstdint>
#include <fstream>
#include <string>

namespace snapshot {

/// The eight recorded integers of one cube, taken from its netser encoding.
std::array<std::int32_t, 8> recorded_codes(const DeltaCube& cube);

class recording_writer {
public:
    /// Opens path for writing; check ok().
    explicit recording_writer(const std::string& path);
    bool ok() const noexcept { return static_cast<bool>(out_); }
    /// Appends one frame of every cube.
    void write(const DeltaSnapshot& frame);
    std::size_t frames() const noexcept { return frames_; }

private:
    std::ofstream out_;
    std::size_t frames_ = 0;
};

} // namespace snapshot
