// Baseline fingerprints (fingerprint.hpp) and the delta packet's fingerprint field
// (delta_packet.hpp): golden values derived with Python's zlib.crc32 from the
// documented definition, the same content giving the same fingerprint whatever object
// holds it, and wrong baselines refused with baseline_mismatch, never decoded.

#include "core/test_util.hpp"
#include "session/session_types.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

using netser::errc;
using namespace session_test;

TEST_CASE("a baseline fingerprint's golden value", "[session][fingerprint]") {
    // Ping{678, true}: 678 in 10 bits, then 1: bytes A6 06, 11 bits.
    // zlib.crc32(struct.pack('<I', 11) + bytes([0xA6, 0x06])) = 0xca3bef3a
    CHECK(netser::baseline_fingerprint(Ping{678, true}) == 0xca3bef3au);
    // Ping{0, false}: 11 zero bits: bytes 00 00.
    // zlib.crc32(struct.pack('<I', 11) + bytes(2)) = 0xdb055160
    CHECK(netser::baseline_fingerprint(Ping{0, false}) == 0xdb055160u);
}

TEST_CASE("a value without a plain encoding has no fingerprint, and no delta packet is written against it",
          "[session][fingerprint]") {
    const Ping bad{1001, false}; // above the range
    CHECK_FALSE(netser::baseline_fingerprint(bad).has_value());
    std::vector<std::byte> out;
    const auto r = netser::write_delta_packet(out, {2, 1}, Ping{5, false}, bad);
    CHECK(r.error.code == errc::invalid_value);
    CHECK(out.empty());
}

TEST_CASE("the same content in another object has the same fingerprint", "[session][fingerprint]") {
    Arena a;
    a.tick = 9;
    a.players = {{3, 10, 1}, {8, 20, 2}};
    for (std::uint16_t k = 0; k < 40; ++k) a.pickups[static_cast<std::uint16_t>(k * 977)] = static_cast<std::uint8_t>(k);
    a.flags[4] = 2;

    // The same entries inserted in reverse order into a table with another bucket count.
    Arena b = a;
    b.pickups = std::unordered_map<std::uint16_t, std::uint8_t>(1021);
    for (std::uint16_t k = 40; k-- > 0;) b.pickups[static_cast<std::uint16_t>(k * 977)] = static_cast<std::uint8_t>(k);
    REQUIRE(b == a);
    // Received through a plain packet: the reader's own table.
    std::vector<std::byte> packet;
    REQUIRE_FALSE(netser::write_packet(packet, a).error);
    Arena c;
    REQUIRE_FALSE(netser::read_packet(packet, c));

    const auto fa = netser::baseline_fingerprint(a);
    REQUIRE(fa.has_value());
    CHECK(netser::baseline_fingerprint(b) == fa);
    CHECK(netser::baseline_fingerprint(c) == fa);
    // And the plain bytes themselves are the same (hash tables go by key code).
    std::vector<std::byte> again;
    REQUIRE_FALSE(netser::write_packet(again, b).error);
    CHECK(again == packet);

    b.pickups[977] = 200; // one value: another baseline
    CHECK(netser::baseline_fingerprint(b) != fa);
}

namespace {

// A wrong baseline under the right sequence number: one cube one code step away
// (near), or a random scene (far).
Scene near_miss(const Scene& s, std::mt19937& rng) {
    Scene w = s;
    Cube& c = w.cubes[std::uniform_int_distribution<std::size_t>(0, cube_count - 1)(rng)];
    switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
    case 0: c.x = static_cast<std::uint16_t>(c.x == 4095 ? 4094 : c.x + 1); break;
    case 1: c.y = static_cast<std::uint16_t>(c.y == 0 ? 1 : c.y - 1); break;
    case 2: c.z = static_cast<std::uint16_t>(c.z == 1023 ? 1022 : c.z + 1); break;
    case 3: c.moving = !c.moving; break;
    default: w.frame ^= 1u; break;
    }
    return w;
}

} // namespace

TEST_CASE("a delta packet read against a wrong baseline is refused, never decoded", "[session][fingerprint]") {
    std::mt19937 rng(29);
    Scene base;
    move_cubes(base, rng, 600);
    std::size_t refused = 0, silent = 0, decoded_without_fingerprint = 0;
    for (int round = 0; round < 300; ++round) {
        Scene now = base;
        now.frame = base.frame + 1;
        move_cubes(now, rng, 1 + static_cast<std::size_t>(round % 40));
        std::vector<std::byte> packet;
        REQUIRE_FALSE(netser::write_delta_packet(packet, {7, 6}, now, base).error);

        Scene wrong;
        if (round % 3 == 2) move_cubes(wrong, rng, 900); // far
        else wrong = near_miss(base, rng);                 // near
        REQUIRE_FALSE(wrong == base);

        Scene out;
        out.frame = 12345; // untouched on refusal
        const netser::error e = netser::read_delta_packet(packet, out, [&](std::uint16_t) { return &wrong; });
        if (e.code == errc::baseline_mismatch) {
            ++refused;
            CHECK(e.bit == 64);
            CHECK(out.frame == 12345);
        } else {
            ++silent;
        }
        // Without the fingerprint: the body read against the wrong baseline, with the
        // packet's own end check (the same number of bits), decodes silently or not.
        {
            netser::read_stream r(packet);
            std::uint64_t header = 0;
            Scene blind;
            const bool body = netser::serialize_bits(r, header, 64) && netser::serialize_bits(r, header, 32) &&
                              netser::serialize_delta(r, blind, wrong);
            const bool accepted = body &&
                                  netser::serialize_check(r, netser::end_of_packet_value(r.bits_processed() - 32)) &&
                                  r.bytes_processed() == packet.size();
            if (accepted) ++decoded_without_fingerprint;
        }
        // The right baseline in another object decodes it.
        const Scene copy = base;
        Scene good;
        REQUIRE_FALSE(netser::read_delta_packet(packet, good, [&](std::uint16_t) { return &copy; }));
        CHECK(good == now);
    }
    CHECK(refused == 300);
    CHECK(silent == 0);
    // What the fingerprint prevents: most near misses decode into wrong values unnoticed.
    WARN("without the fingerprint " << decoded_without_fingerprint << " of 300 wrong baselines decode silently");
    CHECK(decoded_without_fingerprint > 0);
}

TEST_CASE("the fingerprint costs 32 bits per delta packet", "[session][fingerprint]") {
    const Ping now{678, true}, base{677, true};
    std::vector<std::byte> packet;
    REQUIRE_FALSE(netser::write_delta_packet(packet, {5, 4}, now, base).error);
    netser::measure_stream m;
    REQUIRE(netser::serialize_delta(m, now, base));
    // CRC 4 bytes, header 2 + 2 + 4 bytes, the delta body padded, the end check 4 bytes.
    CHECK(netser::delta_header_bits == 64);
    CHECK(packet.size() == 4 + 8 + (m.bits_processed() + 7) / 8 + 4);
    CHECK(netser::max_delta_packet_bytes<Ping>() == 4 + 8 + netser::max_delta_bytes<Ping>() + 4);
}

TEST_CASE("a ring entry's stored fingerprint is the value's, and the packet checks it", "[session][fingerprint]") {
    netser::baseline_ring<Ping> ring(8, Ping{1, false});
    REQUIRE(ring.ok());
    CHECK(ring.initial().fingerprint == netser::baseline_fingerprint(Ping{1, false}));
    const auto* e = ring.put(3, Ping{40, true});
    REQUIRE(e != nullptr);
    CHECK(e->fingerprint == netser::baseline_fingerprint(Ping{40, true}));

    std::vector<std::byte> packet;
    REQUIRE_FALSE(netser::write_delta_packet(packet, 4, Ping{41, true}, *e).error);
    Ping out;
    netser::delta_header h;
    REQUIRE_FALSE(netser::read_delta_packet(packet, out, ring, &h));
    CHECK(out == Ping{41, true});
    CHECK(h.sequence == 4);
    CHECK(h.baseline == 3);

    // Slot 3 now holds snapshot 11 (3 + 8): the packet's baseline is missing.
    ring.put(11, Ping{40, true});
    CHECK(netser::read_delta_packet(packet, out, ring).code == errc::missing_baseline);
    // Sequence 3 again, 65536 sequence numbers later, with other content: a mismatch.
    ring.put(3, Ping{39, true});
    Ping untouched{7, false};
    const netser::error e2 = netser::read_delta_packet(packet, untouched, ring);
    CHECK(e2.code == errc::baseline_mismatch);
    CHECK(untouched == Ping{7, false});
}

namespace session_test {
struct Table {
    std::unordered_map<std::uint8_t, std::uint8_t> entries;
};
NETSER_STRUCT(Table, (entries, netser::max_size(4)))
} // namespace session_test

TEST_CASE("a hash table's plain encoding goes by key code: golden bytes", "[session][fingerprint]") {
    // count 2 in 3 bits (010), then key 1, value 2, key 3, value 1, 8 bits each:
    // 2 | 1 << 3 | 2 << 11 | 3 << 19 | 1 << 27 = 0x0818100A, 35 bits.
    for (std::size_t buckets : {1u, 2u, 7u, 64u}) {
        Table t;
        t.entries = std::unordered_map<std::uint8_t, std::uint8_t>(buckets);
        t.entries[3] = 1;
        t.entries[1] = 2;
        std::array<std::byte, 8> buffer{};
        netser::write_stream w(buffer);
        REQUIRE(netser::serialize(w, t));
        CHECK(netser_test::hex(w.finish()) == "0A 10 18 08 00");
    }
}
