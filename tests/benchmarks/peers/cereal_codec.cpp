// cereal: the binary archive and the portable binary archive (a byte of byte order first,
// values swapped on a host of the other order) over a std::streambuf that writes into
// the caller's buffer (or reads the message in place), with save / load functions that
// write the velocity only while the cube is interacting.

#include "codec.hpp"

#include <cereal/archives/binary.hpp>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/cereal.hpp>
#include <cereal/version.hpp>

#include <istream>
#include <ostream>
#include <streambuf>
#include <string>

namespace netser_peers {

namespace {

std::int16_t i16(std::int32_t v) noexcept { return static_cast<std::int16_t>(v); }
std::uint16_t u16(std::uint32_t v) noexcept { return static_cast<std::uint16_t>(v); }
std::uint8_t u8(std::uint32_t v) noexcept { return static_cast<std::uint8_t>(v); }

// A fixed span of memory as a stream buffer: writes past its end fail (cereal throws).
class span_buffer : public std::streambuf {
public:
    void write_to(std::span<std::byte> out) noexcept {
        char* begin = reinterpret_cast<char*>(out.data());
        setp(begin, begin + out.size());
    }
    void read_from(std::span<const std::byte> in) noexcept {
        // std::streambuf's get area is char*; nothing writes through it.
        char* begin = const_cast<char*>(reinterpret_cast<const char*>(in.data()));
        setg(begin, begin, begin + in.size());
    }
    std::size_t written() const noexcept { return static_cast<std::size_t>(pptr() - pbase()); }
};

template <class Archive>
void save_codes(Archive& ar, const S94Codes& k) {
    ar(k.x, k.y, k.z, u8(k.health), k.alive, k.id);
}

template <class Archive>
void load_codes(Archive& ar, S94Codes& k) {
    std::uint8_t health = 0;
    ar(k.x, k.y, k.z, health, k.alive, k.id);
    k.health = health;
}

template <class Archive>
void save_codes(Archive& ar, const CubeCodes& k) {
    ar(k.interacting, i16(k.x), i16(k.y), u16(k.z));
    if (k.interacting) ar(i16(k.vx), i16(k.vy), i16(k.vz));
    ar(u8(k.largest), i16(k.smallest[0]), i16(k.smallest[1]), i16(k.smallest[2]));
}

template <class Archive>
void load_codes(Archive& ar, CubeCodes& k) {
    std::int16_t x = 0, y = 0;
    std::uint16_t z = 0;
    ar(k.interacting, x, y, z);
    k.x = x;
    k.y = y;
    k.z = z;
    if (k.interacting) {
        std::int16_t vx = 0, vy = 0, vz = 0;
        ar(vx, vy, vz);
        k.vx = vx;
        k.vy = vy;
        k.vz = vz;
    }
    std::uint8_t largest = 0;
    std::int16_t a = 0, b = 0, c = 0;
    ar(largest, a, b, c);
    k.largest = largest;
    k.smallest = {a, b, c};
}

template <class OutputArchive, class InputArchive>
class cereal_codec final : public codec_of<cereal_codec<OutputArchive, InputArchive>> {
public:
    std::size_t write_one(const S94R& s, std::span<std::byte> out) {
        return write(out, [&](OutputArchive& ar) { save_codes(ar, to_codes(s)); });
    }
    bool read_one(std::span<const std::byte> in, S94R& s) {
        return read(in, [&](InputArchive& ar) {
            S94Codes k;
            load_codes(ar, k);
            return from_codes(k, s);
        });
    }
    std::size_t write_snapshot(const Snapshot& in, std::span<std::byte> out) override {
        return write(out, [&](OutputArchive& ar) {
            ar(cereal::make_size_tag(static_cast<cereal::size_type>(in.cubes.size())));
            for (const CubeState& c : in.cubes) save_codes(ar, to_codes(c));
        });
    }
    bool read_snapshot(std::span<const std::byte> in, Snapshot& out) override {
        return read(in, [&](InputArchive& ar) {
            cereal::size_type count = 0;
            ar(cereal::make_size_tag(count));
            // Capped before the cast: a forged 64-bit count fails on a 32-bit host too.
            const std::size_t cubes = static_cast<std::size_t>(count <= cube_count ? count : cube_count + 1);
            return decode_cubes(cubes, out, [&](std::size_t) {
                CubeCodes k;
                load_codes(ar, k);
                return k;
            });
        });
    }

private:
    template <class Save>
    std::size_t write(std::span<std::byte> out, Save save) {
        buffer_.write_to(out);
        try {
            OutputArchive ar(output_);
            save(ar);
        } catch (const cereal::Exception&) { // the message does not fit
            return 0;
        }
        return buffer_.written();
    }

    template <class Load>
    bool read(std::span<const std::byte> in, Load load) {
        buffer_.read_from(in);
        try {
            InputArchive ar(input_);
            return load(ar);
        } catch (const cereal::Exception&) { // truncated
            return false;
        }
    }

    span_buffer buffer_;
    std::ostream output_{&buffer_};
    std::istream input_{&buffer_};
};

} // namespace

std::vector<named_codec> cereal_codecs() {
    std::vector<named_codec> v;
    v.push_back({"cereal_binary", "cereal binary",
                 std::make_unique<cereal_codec<cereal::BinaryOutputArchive, cereal::BinaryInputArchive>>()});
    v.push_back({"cereal_portable", "cereal portable binary",
                 std::make_unique<
                     cereal_codec<cereal::PortableBinaryOutputArchive, cereal::PortableBinaryInputArchive>>()});
    return v;
}

std::string cereal_version() {
    return version_string(CEREAL_VERSION_MAJOR, CEREAL_VERSION_MINOR, CEREAL_VERSION_PATCH);
}

} // namespace netser_peers
