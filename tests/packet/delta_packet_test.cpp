// Delta packets (delta_packet.hpp): the golden packet derived by hand (CRC computed
// with Python's zlib.crc32 from the documented layout), staged reading, a baseline the
// reader no longer has, plain and delta packets never taken for each other, and hostile
// bytes (every truncation, every flip, flips behind a patched CRC); the baseline
// fingerprint (a golden packet against the initial baseline, a stale baseline refused).

#include "core/test_util.hpp"

#include <netser/netser.hpp>
#include <netser/sequence.hpp>

#include <boost/crc.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

using netser::errc;
using netser_test::hex;
using netser_test::unhex;

namespace dp {

struct Ping {
    std::uint16_t sequence = 0;
    bool reply = false;
};
NETSER_STRUCT(Ping, (sequence, netser::range(0, 1000)), reply)

struct Cube {
    std::uint16_t x = 0, y = 0;
    bool moving = false;
    bool operator==(const Cube&) const = default;
};
NETSER_STRUCT(Cube, (x, netser::range(0, 4095)), (y, netser::range(0, 4095)), moving)

struct Scene {
    std::array<Cube, 64> cubes{};
};
NETSER_STRUCT(Scene, cubes)

} // namespace dp

namespace {

const netser::packet_options id_1234{.protocol_id = 0x12345678u};

// A reader's store of snapshots by sequence number.
struct store {
    std::map<std::uint16_t, dp::Scene> snapshots;
    const dp::Scene* operator()(std::uint16_t sequence) const {
        const auto it = snapshots.find(sequence);
        return it == snapshots.end() ? nullptr : &it->second;
    }
};

dp::Scene scene(std::uint32_t seed) {
    dp::Scene s;
    for (std::size_t i = 0; i < s.cubes.size(); ++i)
        s.cubes[i] = {static_cast<std::uint16_t>((i * 37 + seed) % 4096), static_cast<std::uint16_t>(i * 64),
                      (i + seed) % 5 == 0};
    return s;
}

std::vector<std::byte> delta_packet(const dp::Scene& now, const dp::Scene& base, netser::delta_header h) {
    std::vector<std::byte> buffer(netser::max_delta_packet_bytes<dp::Scene>());
    const auto r = netser::write_delta_packet(std::span<std::byte>(buffer), h, now, base);
    REQUIRE_FALSE(r.error);
    return {r.bytes.begin(), r.bytes.end()};
}

} // namespace

TEST_CASE("a delta packet's golden bytes", "[packet][delta]") {
    // Ping{678, true} against Ping{677, true}, sequence 5, baseline 4, protocol id 0x12345678
    // (docs/wire_format.md, "Delta packets"; derived with Python's zlib.crc32, as
    // tools/golden.py's delta packet model does):
    // header 05 00 04 00, then the baseline fingerprint: the baseline's plain encoding is
    // 677 in 10 bits and 1, 11 bits: A5 06; zlib.crc32(bytes([11, 0, 0, 0, 0xA5, 0x06]))
    // = 0xE116BCF9 -> F9 BC 16 E1. Delta: 1 (changed), sequence 1 + difference +1 (1, 0),
    // reply 0: 1 1 1 0 0 -> 07 (5 bits); the payload took 64 + 5 = 69 bits: 3 zero bits,
    // then end_of_packet_magic ^ 69 = 0x4724C6B1 -> B1 C6 24 47. The CRC covers the delta
    // protocol id 0x12345678 ^ check_magic("netser delta packet") (0xA5FE0D30) = 0xB7CA5B48
    // as 4 little-endian bytes, then the bytes after the CRC field: 0x1A50F2AB.
    constexpr const char* golden = "AB F2 50 1A 05 00 04 00 F9 BC 16 E1 07 B1 C6 24 47";
    CHECK(netser::delta_packet_salt == 0xA5FE0D30u);
    std::array<std::byte, 32> buffer{};
    const dp::Ping base{677, true}, now{678, true};
    CHECK(netser::baseline_fingerprint(base) == 0xE116BCF9u);
    const auto w = netser::write_delta_packet(std::span<std::byte>(buffer), {5, 4}, now, base, id_1234);
    REQUIRE_FALSE(w.error);
    CHECK(hex(w.bytes) == golden);
    // The vector form writes the same bytes.
    std::vector<std::byte> grown;
    const auto v = netser::write_delta_packet(grown, {5, 4}, now, base, id_1234);
    REQUIRE_FALSE(v.error);
    CHECK(hex(grown) == golden);

    const auto bytes = unhex(golden);
    netser::delta_packet_reader<dp::Ping> reader(bytes, id_1234);
    REQUIRE_FALSE(reader.error());
    CHECK(reader.header().sequence == 5);
    CHECK(reader.header().baseline == 4);
    CHECK(reader.baseline_fingerprint() == 0xE116BCF9u);
    dp::Ping out{};
    REQUIRE_FALSE(reader.read(out, &base));
    CHECK(out.sequence == 678);
    CHECK(out.reply);
    CHECK(netser::max_delta_packet_bytes<dp::Ping>() == 8 + 8 + netser::max_delta_bytes<dp::Ping>());
    // Against another baseline under that number: baseline_mismatch at the fingerprint's
    // first bit, the message untouched.
    netser::delta_packet_reader<dp::Ping> stale(bytes, id_1234);
    const dp::Ping other{676, true};
    dp::Ping untouched{1, false};
    const netser::error e = stale.read(untouched, &other);
    CHECK(e.code == errc::baseline_mismatch);
    CHECK(e.bit == 64);
    CHECK((untouched.sequence == 1 && !untouched.reply));
}

TEST_CASE("a delta packet against the initial baseline: golden bytes", "[packet][delta]") {
    // Ping{1, false} against Ping{} (the initial baseline, sequence 0), sequence 1,
    // protocol id 0x12345678: header 01 00 00 00; the baseline's plain encoding is 11 zero
    // bits, 00 00: zlib.crc32(bytes([11, 0, 0, 0, 0, 0])) = 0xDB055160 -> 60 51 05 DB.
    // Delta: 1 (changed), sequence 1 + difference +1 (1, 0), reply 0: 07 (5 bits); 69
    // payload bits: end value 0x4724C6B1; the CRC over 0xB7CA5B48 and the bytes after the
    // CRC field: zlib.crc32(bytes.fromhex("485bcab7" "01000000" "605105db" "07" "b1c62447"))
    // = 0xE7048DF2.
    constexpr const char* golden = "F2 8D 04 E7 01 00 00 00 60 51 05 DB 07 B1 C6 24 47";
    const dp::Ping initial{}, now{1, false};
    CHECK(netser::baseline_fingerprint(initial) == 0xDB055160u);
    std::vector<std::byte> packet;
    REQUIRE_FALSE(netser::write_delta_packet(packet, {1, netser::initial_sequence}, now, initial, id_1234).error);
    CHECK(hex(packet) == golden);
    dp::Ping out{};
    netser::delta_header h{};
    REQUIRE_FALSE(netser::read_delta_packet(
        packet, out, [&](std::uint16_t s) { return s == netser::initial_sequence ? &initial : nullptr; }, &h, id_1234));
    CHECK(h.baseline == netser::initial_sequence);
    CHECK((out.sequence == 1 && !out.reply));
}

TEST_CASE("a baseline the reader no longer has fails with missing_baseline and leaves the message untouched",
          "[packet][delta]") {
    store reader_store;
    reader_store.snapshots[10] = scene(1);
    const dp::Scene now = scene(2);
    const auto packet = delta_packet(now, scene(1), {12, 11}); // names baseline 11
    dp::Scene out = scene(99);
    const dp::Scene before = out;
    netser::delta_header h{};
    const netser::error e = netser::read_delta_packet(packet, out, reader_store, &h);
    CHECK(e.code == errc::missing_baseline);
    CHECK(netser::to_string(e.code) == "missing_baseline");
    CHECK(h.sequence == 12);
    CHECK(h.baseline == 11);
    CHECK(out.cubes == before.cubes);
    // With the baseline, the same packet reads.
    reader_store.snapshots[11] = scene(1);
    REQUIRE_FALSE(netser::read_delta_packet(packet, out, reader_store));
    CHECK(out.cubes == now.cubes);
}

TEST_CASE("staged reading: the CRC and the header come before any lookup", "[packet][delta]") {
    const auto packet = delta_packet(scene(3), scene(4), {300, 299});
    auto damaged = packet;
    damaged[9] ^= std::byte{0x10};
    netser::delta_packet_reader<dp::Scene> reader(damaged);
    CHECK(reader.error().code == errc::bad_crc);
    dp::Scene out = scene(5);
    const dp::Scene base = scene(4);
    CHECK(reader.read(out, &base).code == errc::bad_crc);
    CHECK(out.cubes == scene(5).cubes); // nothing decoded
    // A second read of one packet is refused.
    netser::delta_packet_reader<dp::Scene> once(packet);
    REQUIRE_FALSE(once.read(out, &base));
    CHECK(once.read(out, &base).code == errc::invalid_value);
}

TEST_CASE("a plain packet is never read as a delta packet, nor a delta packet as a plain one", "[packet][delta]") {
    const dp::Scene s = scene(6);
    std::vector<std::byte> plain(netser::max_packet_bytes<dp::Scene>());
    const auto w = netser::write_packet(std::span<std::byte>(plain), s);
    REQUIRE_FALSE(w.error);
    netser::delta_packet_reader<dp::Scene> as_delta(w.bytes);
    CHECK(as_delta.error().code == errc::bad_crc);
    const auto delta = delta_packet(s, scene(7), {1, 0});
    dp::Scene out;
    CHECK(netser::read_packet(delta, out).code == errc::bad_crc);
}

TEST_CASE("every truncation and every single-bit flip of a delta packet is refused by its CRC", "[packet][delta]") {
    store reader_store;
    reader_store.snapshots[40] = scene(8);
    const auto packet = delta_packet(scene(9), scene(8), {41, 40});
    for (std::size_t n = 0; n < packet.size(); ++n) {
        const netser_test::exact_block cut(std::span<const std::byte>(packet).first(n));
        dp::Scene out;
        const netser::error e = netser::read_delta_packet(cut.span(), out, reader_store);
        CHECK((n < 4 ? e.code == errc::overflow : e.code == errc::bad_crc));
    }
    for (std::size_t bit = 0; bit < packet.size() * 8; ++bit) {
        auto flipped = packet;
        flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        const netser_test::exact_block block(flipped);
        dp::Scene out;
        CHECK(netser::read_delta_packet(block.span(), out, reader_store).code == errc::bad_crc);
    }
}

TEST_CASE("flips behind a patched CRC fail cleanly or name another baseline", "[packet][delta]") {
    // Anyone can compute the CRC: the decoder's own checks must hold.
    store reader_store;
    reader_store.snapshots[40] = scene(8);
    const auto packet = delta_packet(scene(9), scene(8), {41, 40});
    const std::uint32_t id = netser::schema_hash<dp::Scene>() ^ netser::delta_packet_salt;
    std::size_t refused = 0;
    for (std::size_t bit = 32; bit < packet.size() * 8; ++bit) {
        auto flipped = packet;
        flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        const unsigned char id_bytes[4] = {static_cast<unsigned char>(id), static_cast<unsigned char>(id >> 8),
                                           static_cast<unsigned char>(id >> 16), static_cast<unsigned char>(id >> 24)};
        boost::crc_32_type crc;
        crc.process_bytes(id_bytes, 4);
        crc.process_bytes(flipped.data() + 4, flipped.size() - 4);
        for (int i = 0; i < 4; ++i) flipped[static_cast<std::size_t>(i)] = static_cast<std::byte>(crc.checksum() >> (8 * i));
        const netser_test::exact_block block(flipped);
        dp::Scene out;
        netser::delta_header h{};
        const netser::error e = netser::read_delta_packet(block.span(), out, reader_store, &h);
        INFO("bit " << bit << ": " << netser::to_string(e.code));
        if (bit < 64) {
            // In the header: another sequence (read as usual) or another baseline (missing).
            CHECK((e.code == errc::none || e.code == errc::missing_baseline));
        } else if (bit < 96) {
            // The baseline fingerprint: not the reader's baseline 40's.
            CHECK(e.code == errc::baseline_mismatch);
            CHECK(e.bit == 64);
        } else if (e) {
            CHECK(e.code != errc::bad_crc);
            ++refused;
        } else {
            // A flip the delta absorbs (a changed bit, say) still reads values in range.
            for (const dp::Cube& c : out.cubes) CHECK((c.x <= 4095 && c.y <= 4095));
        }
    }
    CHECK(refused > 0);
}
