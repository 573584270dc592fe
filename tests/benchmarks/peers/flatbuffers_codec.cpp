// FlatBuffers (peers.fbs): one builder reused (Clear keeps its memory); the finished
// message is copied from the builder into the caller's buffer. A read verifies the
// buffer first (flatbuffers::Verifier), as anything read from the network must be.

#include "codec.hpp"

#include "peers_generated.h"

#include <flatbuffers/flatbuffers.h>

#include <cstring>
#include <string>
#include <type_traits>

namespace netser_peers {

namespace {

std::int16_t i16(std::int32_t v) noexcept { return static_cast<std::int16_t>(v); }
std::uint16_t u16(std::uint32_t v) noexcept { return static_cast<std::uint16_t>(v); }
std::uint8_t u8(std::uint32_t v) noexcept { return static_cast<std::uint8_t>(v); }

enum class shape { structs, tables };

template <shape Shape>
class flatbuffers_codec final : public codec_of<flatbuffers_codec<Shape>> {
public:
    std::size_t write_one(const S94R& s, std::span<std::byte> out) {
        const S94Codes k = to_codes(s);
        fbb_.Clear();
        if constexpr (Shape == shape::structs) {
            const fb::S94Struct fields(k.x, k.y, k.z, u8(k.health), k.alive, k.id);
            fbb_.Finish(fb::CreateS94Message(fbb_, &fields));
        } else {
            fbb_.Finish(fb::CreateS94(fbb_, k.x, k.y, k.z, u8(k.health), k.alive, k.id));
        }
        return copy_out(out);
    }
    bool read_one(std::span<const std::byte> in, S94R& s) {
        if constexpr (Shape == shape::structs) {
            const fb::S94Message* m = verified_root<fb::S94Message>(in);
            return m != nullptr && m->s94() != nullptr && from_codes(s94_codes_of(*m->s94()), s);
        } else {
            const fb::S94* m = verified_root<fb::S94>(in);
            return m != nullptr && from_codes(s94_codes_of(*m), s);
        }
    }

    std::size_t write_snapshot(const Snapshot& in, std::span<std::byte> out) override {
        fbb_.Clear();
        if constexpr (Shape == shape::structs) {
            fb::CubeStruct* cubes = nullptr;
            const auto vector = fbb_.CreateUninitializedVectorOfStructs(in.cubes.size(), &cubes);
            for (const CubeState& c : in.cubes) {
                const CubeCodes k = to_codes(c);
                *cubes++ = fb::CubeStruct(k.interacting, u8(k.largest), i16(k.x), i16(k.y), u16(k.z), i16(k.vx),
                                          i16(k.vy), i16(k.vz), i16(k.smallest[0]), i16(k.smallest[1]),
                                          i16(k.smallest[2]));
            }
            fbb_.Finish(fb::CreateSnapshotStructs(fbb_, vector));
        } else {
            offsets_.clear();
            for (const CubeState& c : in.cubes) {
                const CubeCodes k = to_codes(c);
                const fb::Velocity v(i16(k.vx), i16(k.vy), i16(k.vz));
                offsets_.push_back(fb::CreateCubeTable(fbb_, k.interacting, i16(k.x), i16(k.y), u16(k.z),
                                                       k.interacting ? &v : nullptr, u8(k.largest),
                                                       i16(k.smallest[0]), i16(k.smallest[1]),
                                                       i16(k.smallest[2])));
            }
            fbb_.Finish(fb::CreateSnapshotTables(fbb_, fbb_.CreateVector(offsets_)));
        }
        return copy_out(out);
    }

    bool read_snapshot(std::span<const std::byte> in, Snapshot& out) override {
        using Root = std::conditional_t<Shape == shape::structs, fb::SnapshotStructs, fb::SnapshotTables>;
        const Root* root = verified_root<Root>(in);
        if (root == nullptr || root->cubes() == nullptr) return false;
        const auto& cubes = *root->cubes();
        return decode_cubes(cubes.size(), out, [&](std::size_t i) {
            return cube_codes_of(*cubes.Get(static_cast<flatbuffers::uoffset_t>(i)));
        });
    }

private:
    // The root of a message that passed the verifier, else null.
    template <class Root>
    static const Root* verified_root(std::span<const std::byte> in) {
        const auto* data = reinterpret_cast<const std::uint8_t*>(in.data());
        flatbuffers::Verifier verifier(data, in.size());
        return verifier.VerifyBuffer<Root>(nullptr) ? flatbuffers::GetRoot<Root>(data) : nullptr;
    }

    std::size_t copy_out(std::span<std::byte> out) const {
        const std::size_t size = fbb_.GetSize();
        if (size > out.size()) return 0;
        std::memcpy(out.data(), fbb_.GetBufferPointer(), size);
        return size;
    }

    flatbuffers::FlatBufferBuilder fbb_{64 * 1024};
    std::vector<flatbuffers::Offset<fb::CubeTable>> offsets_;
};

} // namespace

std::vector<named_codec> flatbuffers_codecs() {
    std::vector<named_codec> v;
    v.push_back({"flatbuffers_structs", "FlatBuffers structs", std::make_unique<flatbuffers_codec<shape::structs>>()});
    v.push_back({"flatbuffers_tables", "FlatBuffers tables", std::make_unique<flatbuffers_codec<shape::tables>>()});
    return v;
}

std::string flatbuffers_version() {
    return version_string(FLATBUFFERS_VERSION_MAJOR, FLATBUFFERS_VERSION_MINOR, FLATBUFFERS_VERSION_REVISION);
}

} // namespace netser_peers
