// netser itself, and the reference row every other library shares: the codes alone.

#include "codec.hpp"

#include <cstring>

namespace netser_peers {

double message_slots::mean_bytes() const noexcept {
    std::size_t total = 0;
    for (std::size_t size : sizes_) total += size;
    return static_cast<double>(total) / static_cast<double>(sizes_.size());
}

namespace {

// NETSER_STRUCT descriptions through bare streams (no packet CRC: no other library has one).
class netser_codec final : public codec_of<netser_codec> {
public:
    std::size_t write_one(const S94R& s, std::span<std::byte> out) noexcept {
        netser::write_stream w(out);
        if (!netser::serialize(w, s)) return 0;
        return w.finish().size();
    }
    bool read_one(std::span<const std::byte> in, S94R& s) noexcept {
        netser::read_stream r(in);
        return netser::serialize(r, s);
    }
    std::size_t write_snapshot(const Snapshot& in, std::span<std::byte> out) override {
        netser::write_stream w(out);
        if (!netser::serialize(w, in)) return 0;
        return w.finish().size();
    }
    bool read_snapshot(std::span<const std::byte> in, Snapshot& out) override {
        netser::read_stream r(in);
        return netser::serialize(r, out);
    }
};

// The quantization every other library does, and a memcpy of the codes: no format at
// all (host byte order, no framing, no checks but the codes' ranges).
class codes_codec final : public codec_of<codes_codec> {
public:
    std::size_t write_one(const S94R& s, std::span<std::byte> out) noexcept {
        const S94Codes k = to_codes(s);
        if (out.size() < sizeof k) return 0;
        std::memcpy(out.data(), &k, sizeof k);
        return sizeof k;
    }
    bool read_one(std::span<const std::byte> in, S94R& s) noexcept {
        S94Codes k;
        if (in.size() != sizeof k) return false;
        std::memcpy(&k, in.data(), sizeof k);
        return from_codes(k, s);
    }
    std::size_t write_snapshot(const Snapshot& in, std::span<std::byte> out) override {
        const std::size_t size = in.cubes.size() * sizeof(CubeCodes);
        if (out.size() < size) return 0;
        std::byte* at = out.data();
        for (const CubeState& c : in.cubes) {
            const CubeCodes k = to_codes(c);
            std::memcpy(at, &k, sizeof k);
            at += sizeof k;
        }
        return size;
    }
    bool read_snapshot(std::span<const std::byte> in, Snapshot& out) override {
        if (in.size() % sizeof(CubeCodes) != 0) return false;
        return decode_cubes(in.size() / sizeof(CubeCodes), out, [&](std::size_t i) {
            CubeCodes k;
            std::memcpy(&k, in.data() + i * sizeof k, sizeof k);
            return k;
        });
    }
};

} // namespace

std::vector<named_codec> netser_codecs() {
    std::vector<named_codec> v;
    v.push_back({"netser", "netser", std::make_unique<netser_codec>()});
    v.push_back({"codes_memcpy", "codes only (memcpy)", std::make_unique<codes_codec>()});
    return v;
}

} // namespace netser_peers
