// Cap'n Proto (peers.capnp): a MallocMessageBuilder over a reused, zeroed first segment
// (the form capnp's own header advises for many messages in a tight loop), written with
// writeMessage / writePackedMessage into the caller's buffer; read with
// FlatArrayMessageReader in place, or PackedMessageReader into reused scratch space.

#include "codec.hpp"

#include "peers.capnp.h"

#include <capnp/common.h>
#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/io.h>

#include <string>

namespace netser_peers {

namespace {

std::int16_t i16(std::int32_t v) noexcept { return static_cast<std::int16_t>(v); }
std::uint16_t u16(std::uint32_t v) noexcept { return static_cast<std::uint16_t>(v); }
std::uint8_t u8(std::uint32_t v) noexcept { return static_cast<std::uint8_t>(v); }

// Zeroed words (capnp::word cannot be copied, so not a vector of it).
class words {
public:
    explicit words(std::size_t n) : storage_(n) {}
    kj::ArrayPtr<capnp::word> get() noexcept {
        return kj::arrayPtr(reinterpret_cast<capnp::word*>(storage_.data()), storage_.size());
    }

private:
    std::vector<std::uint64_t> storage_;
};

enum class encoding { unpacked, packed };

template <encoding Encoding>
class capnp_codec final : public codec_of<capnp_codec<Encoding>> {
public:
    std::size_t write_one(const S94R& s, std::span<std::byte> out) {
        const S94Codes k = to_codes(s);
        capnp::MallocMessageBuilder message(s94_segment_.get());
        cp::S94::Builder m = message.initRoot<cp::S94>();
        m.setX(k.x);
        m.setY(k.y);
        m.setZ(k.z);
        m.setHealth(u8(k.health));
        m.setAlive(k.alive);
        m.setId(k.id);
        return write_out(message, out);
    }
    bool read_one(std::span<const std::byte> in, S94R& s) {
        return read_in<cp::S94>(in, s94_scratch_, [&](cp::S94::Reader m) {
            return from_codes(S94Codes{m.getX(), m.getY(), m.getZ(), m.getHealth(), m.getAlive(), m.getId()}, s);
        });
    }

    std::size_t write_snapshot(const Snapshot& in, std::span<std::byte> out) override {
        capnp::MallocMessageBuilder message(snapshot_segment_.get());
        auto cubes = message.initRoot<cp::Snapshot>().initCubes(static_cast<unsigned>(in.cubes.size()));
        for (unsigned i = 0; i < in.cubes.size(); ++i) {
            const CubeCodes k = to_codes(in.cubes[i]);
            cp::Cube::Builder m = cubes[i];
            m.setInteracting(k.interacting);
            m.setX(i16(k.x));
            m.setY(i16(k.y));
            m.setZ(u16(k.z));
            m.setVx(i16(k.vx)); // 0 unless interacting
            m.setVy(i16(k.vy));
            m.setVz(i16(k.vz));
            m.setLargest(u8(k.largest));
            m.setA(i16(k.smallest[0]));
            m.setB(i16(k.smallest[1]));
            m.setC(i16(k.smallest[2]));
        }
        return write_out(message, out);
    }
    bool read_snapshot(std::span<const std::byte> in, Snapshot& out) override {
        return read_in<cp::Snapshot>(in, snapshot_scratch_, [&](cp::Snapshot::Reader root) {
            const auto cubes = root.getCubes();
            return decode_cubes(cubes.size(), out, [&](std::size_t i) {
                const cp::Cube::Reader m = cubes[static_cast<unsigned>(i)];
                CubeCodes k;
                k.interacting = m.getInteracting();
                k.x = m.getX();
                k.y = m.getY();
                k.z = m.getZ();
                k.vx = m.getVx();
                k.vy = m.getVy();
                k.vz = m.getVz();
                k.largest = m.getLargest();
                k.smallest = {m.getA(), m.getB(), m.getC()};
                return k;
            });
        });
    }

private:
    static std::size_t write_out(capnp::MessageBuilder& message, std::span<std::byte> out) {
        try {
            kj::ArrayOutputStream stream(kj::arrayPtr(reinterpret_cast<kj::byte*>(out.data()), out.size()));
            if constexpr (Encoding == encoding::packed) capnp::writePackedMessage(stream, message);
            else capnp::writeMessage(stream, message);
            return stream.getArray().size();
        } catch (const kj::Exception&) { // the message does not fit
            return 0;
        }
    }

    // A malformed message throws kj::Exception, here or from the accessors in `extract`.
    template <class Root, class Extract>
    static bool read_in(std::span<const std::byte> in, words& scratch, Extract extract) {
        try {
            if constexpr (Encoding == encoding::packed) {
                kj::ArrayInputStream stream(kj::arrayPtr(reinterpret_cast<const kj::byte*>(in.data()), in.size()));
                capnp::PackedMessageReader reader(stream, capnp::ReaderOptions(),
                                                  scratch.get());
                return extract(reader.getRoot<Root>());
            } else {
                if (in.size() % sizeof(capnp::word) != 0) return false; // and aligned: aligned_bytes
                capnp::FlatArrayMessageReader reader(
                    kj::arrayPtr(reinterpret_cast<const capnp::word*>(in.data()), in.size() / sizeof(capnp::word)));
                return extract(reader.getRoot<Root>());
            }
        } catch (const kj::Exception&) {
            return false;
        }
    }

    // First segments: zeroed once, zeroed again by each builder's destructor.
    words s94_segment_{16}, snapshot_segment_{4096};
    words s94_scratch_{16}, snapshot_scratch_{4096};
};

} // namespace

std::vector<named_codec> capnp_codecs() {
    std::vector<named_codec> v;
    v.push_back({"capnp", "Cap'n Proto", std::make_unique<capnp_codec<encoding::unpacked>>()});
    v.push_back({"capnp_packed", "Cap'n Proto packed", std::make_unique<capnp_codec<encoding::packed>>()});
    return v;
}

std::string capnp_version() {
    return version_string(CAPNP_VERSION_MAJOR, CAPNP_VERSION_MINOR, CAPNP_VERSION_MICRO);
}

} // namespace netser_peers
