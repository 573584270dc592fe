#pragma once

// One library's way of writing and reading the two cases. A codec keeps its state
// (builders, parsed messages, scratch space) between calls, as a game reuses it from
// one packet to the next. Every write ends with the message in the caller's buffer.

#include "cases.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace netser_peers {

/// Bytes aligned to 8 (Cap'n Proto reads words in place).
class aligned_bytes {
public:
    explicit aligned_bytes(std::size_t size) : words_((size + 7) / 8) {}
    std::span<std::byte> bytes() noexcept { return std::as_writable_bytes(std::span(words_)); }
    std::span<const std::byte> bytes() const noexcept { return std::as_bytes(std::span(words_)); }

private:
    std::vector<std::uint64_t> words_;
};

/// s94_count messages of one S94 each, message i in slot i of one buffer.
class message_slots {
public:
    static constexpr std::size_t slot_bytes = 64;

    message_slots() : sizes_(s94_count) {}
    std::span<std::byte> slot(std::size_t i) noexcept { return buffer_.bytes().subspan(i * slot_bytes, slot_bytes); }
    std::span<const std::byte> message(std::size_t i) const noexcept {
        return buffer_.bytes().subspan(i * slot_bytes, sizes_[i]);
    }
    void set_size(std::size_t i, std::size_t size) noexcept { sizes_[i] = size; }
    /// The mean size of a message.
    double mean_bytes() const noexcept;

private:
    aligned_bytes buffer_{s94_count * slot_bytes};
    std::vector<std::size_t> sizes_;
};

class codec {
public:
    virtual ~codec() = default;
    /// Each S94 as a message of its own; false when one fails.
    virtual bool write_s94(std::span<const S94R> in, message_slots& out) = 0;
    virtual bool read_s94(const message_slots& in, std::span<S94R> out) = 0;
    /// The snapshot as one message in `out`: its size, 0 when it fails.
    virtual std::size_t write_snapshot(const Snapshot& in, std::span<std::byte> out) = 0;
    virtual bool read_snapshot(std::span<const std::byte> in, Snapshot& out) = 0;
};

/// The loops over the S94 messages, around Impl's write_one / read_one (inlined: no
/// virtual call per struct).
template <class Impl>
class codec_of : public codec {
public:
    bool write_s94(std::span<const S94R> in, message_slots& out) final {
        Impl& self = static_cast<Impl&>(*this);
        for (std::size_t i = 0; i < in.size(); ++i) {
            const std::size_t size = self.write_one(in[i], out.slot(i));
            if (size == 0) return false;
            out.set_size(i, size);
        }
        return true;
    }
    bool read_s94(const message_slots& in, std::span<S94R> out) final {
        Impl& self = static_cast<Impl&>(*this);
        bool ok = true;
        for (std::size_t i = 0; i < out.size(); ++i) ok &= self.read_one(in.message(i), out[i]);
        return ok;
    }
};

/// Resizes `out` to `count` cubes (a hostile count above cube_count fails) and reads
/// cube i from codes_of(i), called in order.
template <class CodesOf>
bool decode_cubes(std::size_t count, Snapshot& out, CodesOf codes_of) {
    if (count > cube_count) return false;
    out.cubes.resize(count);
    bool ok = true;
    for (std::size_t i = 0; i < count; ++i) ok &= from_codes(codes_of(i), out.cubes[i]);
    return ok;
}

// The codes from generated code whose accessors are the fields' names (protobuf,
// FlatBuffers); a FlatBuffers table has its velocity as a struct that may be absent.
template <class Message>
S94Codes s94_codes_of(const Message& m) {
    return {m.x(), m.y(), m.z(), m.health(), m.alive(), m.id()};
}

template <class Message>
CubeCodes cube_codes_of(const Message& m) {
    CubeCodes k;
    k.interacting = m.interacting();
    k.x = m.x();
    k.y = m.y();
    k.z = m.z();
    if constexpr (requires { m.velocity(); }) {
        if (const auto* v = m.velocity()) {
            k.vx = v->x();
            k.vy = v->y();
            k.vz = v->z();
        }
    } else {
        k.vx = m.vx();
        k.vy = m.vy();
        k.vz = m.vz();
    }
    k.largest = m.largest();
    k.smallest = {m.a(), m.b(), m.c()};
    return k;
}

/// A library's codec: `id` names its benchmarks (s94_write/<id>, ...), `label` its
/// row in the table. A library may offer several shapes.
struct named_codec {
    std::string_view id;
    std::string_view label;
    std::unique_ptr<codec> instance;
};

std::vector<named_codec> netser_codecs();
std::vector<named_codec> protobuf_codecs();
std::vector<named_codec> flatbuffers_codecs();
std::vector<named_codec> capnp_codecs();
std::vector<named_codec> cereal_codecs();
std::vector<named_codec> msgpack_codecs();

/// Library versions, for the report.
inline std::string version_string(int major, int minor, int patch) {
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}
std::string protobuf_version();
std::string flatbuffers_version();
std::string capnp_version();
std::string cereal_version();
std::string msgpack_version();

} // namespace netser_peers
