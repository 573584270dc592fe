// MessagePack with msgpack-cxx: a struct is an array of its codes (the velocity's three
// only while interacting), written by msgpack's adaptors (pack / convert specialised for
// the codes, as its documentation shows for user types) into the caller's buffer, and
// read by unpacking into a reused zone, then converting. Integers take msgpack's shortest
// form (a fixint for -32..127).

#include "codec.hpp"

#include <msgpack.hpp>

#include <cstring>
#include <stdexcept>
#include <string>

namespace netser_peers {

namespace {

// A fixed span of memory as a msgpack output stream: writes past its end throw.
class span_writer {
public:
    explicit span_writer(std::span<std::byte> out) noexcept : out_(out) {}
    void write(const char* data, std::size_t size) {
        if (size > out_.size() - used_) throw std::length_error("message too large");
        std::memcpy(out_.data() + used_, data, size);
        used_ += size;
    }
    std::size_t used() const noexcept { return used_; }

private:
    std::span<std::byte> out_;
    std::size_t used_ = 0;
};

} // namespace

} // namespace netser_peers

namespace msgpack {
MSGPACK_API_VERSION_NAMESPACE(MSGPACK_DEFAULT_API_NS) {
namespace adaptor {

template <>
struct pack<netser_peers::S94Codes> {
    template <class Stream>
    packer<Stream>& operator()(packer<Stream>& o, const netser_peers::S94Codes& k) const {
        o.pack_array(6);
        o.pack(k.x).pack(k.y).pack(k.z).pack(k.health).pack(k.alive).pack(k.id);
        return o;
    }
};

template <>
struct convert<netser_peers::S94Codes> {
    const msgpack::object& operator()(const msgpack::object& o, netser_peers::S94Codes& k) const {
        if (o.type != msgpack::type::ARRAY || o.via.array.size != 6) throw msgpack::type_error();
        const msgpack::object* e = o.via.array.ptr;
        e[0].convert(k.x);
        e[1].convert(k.y);
        e[2].convert(k.z);
        e[3].convert(k.health);
        e[4].convert(k.alive);
        e[5].convert(k.id);
        return o;
    }
};

template <>
struct pack<netser_peers::CubeCodes> {
    template <class Stream>
    packer<Stream>& operator()(packer<Stream>& o, const netser_peers::CubeCodes& k) const {
        o.pack_array(k.interacting ? 11 : 8);
        o.pack(k.interacting).pack(k.x).pack(k.y).pack(k.z);
        if (k.interacting) o.pack(k.vx).pack(k.vy).pack(k.vz);
        o.pack(k.largest).pack(k.smallest[0]).pack(k.smallest[1]).pack(k.smallest[2]);
        return o;
    }
};

template <>
struct convert<netser_peers::CubeCodes> {
    const msgpack::object& operator()(const msgpack::object& o, netser_peers::CubeCodes& k) const {
        if (o.type != msgpack::type::ARRAY || o.via.array.size < 1) throw msgpack::type_error();
        const msgpack::object* e = o.via.array.ptr;
        e[0].convert(k.interacting);
        if (o.via.array.size != (k.interacting ? 11u : 8u)) throw msgpack::type_error();
        e[1].convert(k.x);
        e[2].convert(k.y);
        e[3].convert(k.z);
        if (k.interacting) {
            e[4].convert(k.vx);
            e[5].convert(k.vy);
            e[6].convert(k.vz);
            e += 3;
        }
        e[4].convert(k.largest);
        e[5].convert(k.smallest[0]);
        e[6].convert(k.smallest[1]);
        e[7].convert(k.smallest[2]);
        return o;
    }
};

} // namespace adaptor
} // MSGPACK_API_VERSION_NAMESPACE(MSGPACK_DEFAULT_API_NS)
} // namespace msgpack

namespace netser_peers {

namespace {

class msgpack_codec final : public codec_of<msgpack_codec> {
public:
    std::size_t write_one(const S94R& s, std::span<std::byte> out) {
        return write(out, [&](msgpack::packer<span_writer>& pk) { pk.pack(to_codes(s)); });
    }
    bool read_one(std::span<const std::byte> in, S94R& s) {
        return read(in, [&](const msgpack::object& o) {
            S94Codes k;
            o.convert(k);
            return from_codes(k, s);
        });
    }
    std::size_t write_snapshot(const Snapshot& in, std::span<std::byte> out) override {
        return write(out, [&](msgpack::packer<span_writer>& pk) {
            pk.pack_array(static_cast<std::uint32_t>(in.cubes.size()));
            for (const CubeState& c : in.cubes) pk.pack(to_codes(c));
        });
    }
    bool read_snapshot(std::span<const std::byte> in, Snapshot& out) override {
        return read(in, [&](const msgpack::object& o) {
            if (o.type != msgpack::type::ARRAY) return false;
            return decode_cubes(o.via.array.size, out, [&](std::size_t i) { return o.via.array.ptr[i].as<CubeCodes>(); });
        });
    }

private:
    template <class Pack>
    static std::size_t write(std::span<std::byte> out, Pack pack) {
        span_writer writer(out);
        msgpack::packer<span_writer> pk(writer);
        try {
            pack(pk);
        } catch (const std::length_error&) {
            return 0;
        }
        return writer.used();
    }

    // A malformed message throws (msgpack::unpack_error, msgpack::type_error, ...).
    template <class Extract>
    bool read(std::span<const std::byte> in, Extract extract) {
        zone_.clear();
        try {
            std::size_t offset = 0;
            const msgpack::object o =
                msgpack::unpack(zone_, reinterpret_cast<const char*>(in.data()), in.size(), offset);
            return offset == in.size() && extract(o);
        } catch (const std::exception&) {
            return false;
        }
    }

    msgpack::zone zone_;
};

} // namespace

std::vector<named_codec> msgpack_codecs() {
    std::vector<named_codec> v;
    v.push_back({"msgpack", "MessagePack", std::make_unique<msgpack_codec>()});
    return v;
}

std::string msgpack_version() { return MSGPACK_VERSION; }

} // namespace netser_peers
