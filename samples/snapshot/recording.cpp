#include "recording.hpp"

#include <stdexcept>

namespace snapshot {

std::array<std::int32_t, 8> recorded_codes(const DeltaCube& cube) {
    // DeltaCube's wire: interacting (1), x (16), y (16), z (14), then smallest three:
    // the largest component's index (2) and three 9-bit codes. Read back field by field.
    std::array<std::byte, netser::max_bytes<DeltaCube>()> bytes{};
    netser::write_stream w(bytes);
    if (!netser::serialize(w, cube)) throw std::runtime_error("a recorded cube does not encode");
    w.finish();
    netser::read_stream r(bytes);
    std::uint32_t interacting = 0, x = 0, y = 0, z = 0, largest = 0, a = 0, b = 0, c = 0;
    const bool read = netser::serialize_bits(r, interacting, 1) && netser::serialize_bits(r, x, 16) &&
                      netser::serialize_bits(r, y, 16) && netser::serialize_bits(r, z, 14) &&
                      netser::serialize_bits(r, largest, 2) && netser::serialize_bits(r, a, 9) &&
                      netser::serialize_bits(r, b, 9) && netser::serialize_bits(r, c, 9);
    if (!read) throw std::runtime_error("a recorded cube does not read back");
    const auto i = [](std::uint32_t v) { return static_cast<std::int32_t>(v); };
    return {i(largest), i(a), i(b), i(c), i(x) - 32768, i(y) - 32768, i(z), i(interacting)};
}

recording_writer::recording_writer(const std::string& path) : out_(path, std::ios::binary) {}

void recording_writer::write(const DeltaSnapshot& frame) {
    for (const DeltaCube& cube : frame.cubes) {
        for (const std::int32_t v : recorded_codes(cube)) {
            const auto u = static_cast<std::uint32_t>(v);
            const char le[4] = {static_cast<char>(u & 0xFFu), static_cast<char>((u >> 8) & 0xFFu),
                                static_cast<char>((u >> 16) & 0xFFu), static_cast<char>((u >> 24) & 0xFFu)};
            out_.write(le, 4);
        }
    }
    ++frames_;
}

} // namespace snapshot
