// Predicted delta packets (netser/predicted_delta_packet.hpp): golden bytes from the
// independent model (tools/golden.py), round trips through a baseline_ring with one, two
// and three baselines, and the staged refusals: a baseline the reader lacks, another
// value under a named sequence number, baselines out of order, a forged count, and a
// packet of another kind.

#include "session_types.hpp"

#include <netser/netser.hpp>
#include <netser/predicted_delta_packet.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace pp {

struct Track {
    std::uint16_t x = 0, y = 0;
    bool operator==(const Track&) const = default;
};
NETSER_STRUCT(Track, (x, netser::range(0, 1000), netser::predict_linear), (y, netser::range(0, 1000)))

const netser::packet_options id_1234{0x12345678u};

std::string hex(std::span<const std::byte> bytes) {
    std::string out;
    char b[4];
    for (std::byte x : bytes) {
        std::snprintf(b, sizeof b, out.empty() ? "%02X" : " %02X", static_cast<unsigned>(x));
        out += b;
    }
    return out;
}

using entry = netser::baseline_entry<Track>;

// A container of structs with flags (tools/golden.py SQUAD): a unit's flags (its bools
// moving and alive, after a leading 1) name the context of its changed bit in a
// range-coded body.
struct Unit {
    std::uint16_t x = 0;
    bool moving = false, alive = false;
    bool operator==(const Unit&) const = default;
};
NETSER_STRUCT(Unit, (x, netser::range(0, 1000), netser::predict_linear), moving, alive)

struct Squad {
    std::array<Unit, 16> units{};
    bool operator==(const Squad&) const = default;
};
NETSER_STRUCT(Squad, units)

// Unit i at sequence 8 is x = 100 + 50 i, moving when i % 4 = 0, alive when i % 3 != 2;
// the moving ones go 5 further per step of the sequence.
Squad squad_at(int sequence) {
    Squad s;
    for (std::size_t i = 0; i < s.units.size(); ++i) {
        const bool moving = i % 4 == 0;
        s.units[i] = {static_cast<std::uint16_t>(100 + 50 * static_cast<int>(i) + (moving ? 5 * (sequence - 8) : 0)),
                      moving, i % 3 != 2};
    }
    return s;
}

} // namespace pp

using pp::Track;

TEST_CASE("a predicted delta packet's golden bytes", "[session][prediction]") {
    // tools/golden.py --delta-packets (the model's own prediction, plain encodings and
    // CRCs). Three baselines 10 {500, 7}, 9 {490, 7}, 8 {480, 7}, sequence 16: x is
    // predicted 500 + 6 * 10 = 560 (the step from 8 to 9 predicted 9 to 10 exactly), sent
    // 530: a difference of -30. Header 10 00, count - 1 = 2 in 2 bits, then 10, 9, 8.
    CHECK(netser::predicted_delta_packet_salt == netser::check_magic("netser predicted delta packet"));
    netser::baseline_ring<Track> ring(16);
    ring.put(8, {480, 7});
    ring.put(9, {490, 7});
    ring.put(10, {500, 7});
    Track scratch;
    std::vector<std::byte> packet;
    const std::array<const pp::entry*, 3> three{ring.find(10), ring.find(9), ring.find(8)};
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 16, Track{530, 7}, three, scratch, pp::id_1234).error);
    CHECK(scratch == Track{560, 7});
    CHECK(pp::hex(packet) == "72 94 79 0B 10 00 2A 00 24 00 20 00 D8 17 B1 C3 CE 0D 00 85 C6 24 47");

    // Two baselines two apart: 20 over 2 steps, 6 ahead: 560 again; 561 is one step off.
    const std::array<const pp::entry*, 2> two{ring.find(10), ring.find(8)};
    std::array<std::byte, 64> buffer{};
    const auto w = netser::write_predicted_delta_packet(std::span<std::byte>(buffer), 16, Track{561, 8}, two, scratch,
                                                        pp::id_1234);
    REQUIRE_FALSE(w.error);
    CHECK(pp::hex(w.bytes) == "6E 56 5E AB 10 00 29 00 20 00 58 26 0E 6A DC 00 AD C6 24 47");

    Track got;
    netser::predicted_delta_header h;
    REQUIRE_FALSE(netser::read_predicted_delta_packet(packet, got, ring, scratch, &h, pp::id_1234));
    CHECK(got == Track{530, 7});
    CHECK(h.sequence == 16);
    CHECK(h.count == 3);
    CHECK(h.baselines == std::array<std::uint16_t, 3>{10, 9, 8});
    REQUIRE_FALSE(netser::read_predicted_delta_packet(w.bytes, got, ring, scratch, &h, pp::id_1234));
    CHECK(got == Track{561, 8});
}

TEST_CASE("predicted delta packets round-trip a moving scene through a ring with one to three baselines",
          "[session][prediction]") {
    std::mt19937 rng(29);
    netser::baseline_ring<Track> ring(64);
    std::vector<Track> truth(40);
    // A track moving at a steady speed, and a y that jumps now and then.
    for (std::size_t n = 1; n < truth.size(); ++n) {
        const int x = 100 + static_cast<int>(n) * 17;
        truth[n] = {static_cast<std::uint16_t>(x), static_cast<std::uint16_t>(rng() % 8 == 0 ? rng() % 1001 : truth[n - 1].y)};
        ring.put(static_cast<std::uint16_t>(n), truth[n]);
    }
    Track scratch, got;
    std::size_t sizes[4] = {};
    for (std::size_t count = 1; count <= 3; ++count) {
        for (std::size_t n = 10; n < truth.size(); ++n) {
            std::array<const pp::entry*, 3> named{};
            for (std::size_t i = 0; i < count; ++i) named[i] = ring.find(static_cast<std::uint16_t>(n - 6 - i));
            std::vector<std::byte> packet;
            const auto sequence = static_cast<std::uint16_t>(n);
            const auto w = netser::write_predicted_delta_packet(
                packet, sequence, truth[n], std::span<const pp::entry* const>(named.data(), count), scratch);
            INFO("frame " << n << ", " << count << " baselines: " << netser::to_string(w.error.code) << " at "
                          << w.error.bit);
            REQUIRE_FALSE(w.error);
            sizes[count] += packet.size() - 2 * count; // less the header's sequence numbers
            got = {};
            REQUIRE_FALSE(netser::read_predicted_delta_packet(packet, got, ring, scratch));
            REQUIRE(got == truth[n]);
        }
    }
    INFO("bytes but the baselines' numbers, with 1, 2, 3 baselines: " << sizes[1] << " " << sizes[2] << " " << sizes[3]);
    CHECK(sizes[2] < sizes[1]); // steady motion: x is predicted exactly
    CHECK(sizes[3] < sizes[1]);
}

TEST_CASE("a predicted delta packet is refused untouched without its baselines or against other values",
          "[session][prediction]") {
    netser::baseline_ring<Track> writer(16), reader(16);
    for (std::uint16_t s = 1; s <= 3; ++s) {
        writer.put(s, {static_cast<std::uint16_t>(100 * s), 5});
        reader.put(s, {static_cast<std::uint16_t>(100 * s), 5});
    }
    Track scratch;
    std::vector<std::byte> packet;
    const std::array<const pp::entry*, 2> named{writer.find(3), writer.find(1)};
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 9, Track{700, 5}, named, scratch).error);

    const Track untouched{1, 2};
    Track got = untouched;
    netser::baseline_ring<Track> lacking(16);
    lacking.put(3, {300, 5});
    auto e = netser::read_predicted_delta_packet(packet, got, lacking, scratch);
    CHECK(e.code == netser::errc::missing_baseline);
    CHECK(got == untouched);

    netser::baseline_ring<Track> other(16);
    other.put(3, {300, 5});
    other.put(1, {101, 5}); // one code off in the older baseline
    e = netser::read_predicted_delta_packet(packet, got, other, scratch);
    CHECK(e.code == netser::errc::baseline_mismatch);
    CHECK(e.bit == 32 + 16 + 2 + 2 * 16); // the fingerprint field
    CHECK(got == untouched);

    // A delta packet reader and a plain reader refuse it: another protocol id.
    CHECK(netser::read_delta_packet(packet, got, reader).code == netser::errc::bad_crc);
    CHECK(netser::read_packet(packet, got).code == netser::errc::bad_crc);
    e = netser::read_predicted_delta_packet(packet, got, reader, scratch);
    CHECK_FALSE(e);
    CHECK(got == Track{700, 5});
}

TEST_CASE("baselines out of order or too many fail the write with invalid_value at the header",
          "[session][prediction]") {
    netser::baseline_ring<Track> ring(16);
    for (std::uint16_t s = 1; s <= 5; ++s) ring.put(s, {static_cast<std::uint16_t>(s), 0});
    Track scratch;
    std::vector<std::byte> packet(3, std::byte{1});
    const auto write = [&](std::initializer_list<std::uint16_t> seqs, std::uint16_t sequence = 9) {
        std::vector<const pp::entry*> named;
        for (auto s : seqs) named.push_back(ring.find(s));
        return netser::write_predicted_delta_packet(packet, sequence, Track{}, named, scratch);
    };
    auto r = write({3, 4});
    CHECK(r.error.code == netser::errc::invalid_value);
    CHECK(r.error.bit == 32 + 18 + 16); // the second baseline is not older than the first
    CHECK(packet.empty());
    r = write({3, 3});
    CHECK(r.error.bit == 32 + 18 + 16);
    r = write({5, 3}, 5); // the newest baseline is not older than the packet
    CHECK(r.error.code == netser::errc::invalid_value);
    CHECK(r.error.bit == 32 + 18);
    r = write({});
    CHECK(r.error.code == netser::errc::invalid_value);
    r = write({5, 4, 3, 2});
    CHECK(r.error.code == netser::errc::invalid_value);
    std::vector<const pp::entry*> with_null{ring.find(5), nullptr};
    CHECK(netser::write_predicted_delta_packet(packet, 9, Track{}, with_null, scratch).error.code ==
          netser::errc::invalid_value);
    CHECK_FALSE(write({5, 2, 1}).error);
}

namespace {

// A packet with the given header fields and a CRC that matches, as a forger would make
// it: the body is one clear changed bit.
std::vector<std::byte> forged(std::uint16_t sequence, std::uint32_t count_field, std::initializer_list<std::uint16_t> seqs) {
    std::vector<std::byte> out;
    const auto written = netser::detail::write_framed(out, netser::detail::predicted_protocol_id_of<Track>({}), nullptr, [&](auto& w) {
        std::uint16_t s = sequence;
        std::uint32_t c = count_field, f = 0;
        bool changed = false;
        bool ok = netser::serialize_bits(w, s, 16) && netser::serialize_bits(w, c, 2);
        for (std::uint16_t b : seqs) ok = ok && netser::serialize_bits(w, b, 16);
        return ok && netser::serialize_bits(w, f, 32) && netser::serialize_bool(w, changed);
    });
    REQUIRE_FALSE(written.error);
    return out;
}

} // namespace

TEST_CASE("a forged header with baselines out of order or a count of four is refused before any lookup",
          "[session][prediction]") {
    netser::baseline_ring<Track> ring(16);
    Track scratch, got{3, 3};
    auto e = netser::read_predicted_delta_packet(forged(9, 1, {4, 5}), got, ring, scratch);
    CHECK(e.code == netser::errc::invalid_value);
    CHECK(e.bit == 32 + 18 + 16);
    e = netser::read_predicted_delta_packet(forged(9, 0, {9}), got, ring, scratch);
    CHECK(e.code == netser::errc::invalid_value);
    CHECK(e.bit == 32 + 18);
    e = netser::read_predicted_delta_packet(forged(9, 3, {8, 7, 6, 5}), got, ring, scratch);
    CHECK(e.code == netser::errc::out_of_range);
    CHECK(e.bit == 32 + 16);
    CHECK(got == Track{3, 3});
    // Well formed, against baselines the ring lacks.
    CHECK(netser::read_predicted_delta_packet(forged(9, 0, {8}), got, ring, scratch).code ==
          netser::errc::missing_baseline);
}

TEST_CASE("a range-coded predicted delta packet reads back, and refuses a bit-packed reader", "[session][prediction][range]") {
    netser::baseline_ring<Track> ring(16);
    ring.put(8, {480, 7});
    ring.put(9, {490, 7});
    ring.put(10, {500, 7});
    const std::array<const pp::entry*, 3> three{ring.find(10), ring.find(9), ring.find(8)};
    netser::packet_options range;
    range.range = &netser::default_range_prior();
    Track scratch, got;
    std::vector<std::byte> packet;
    auto w = netser::write_predicted_delta_packet(packet, 16, Track{530, 9}, three, scratch, range);
    REQUIRE_FALSE(w.error);
    CHECK(w.bytes.data() == packet.data());
    CHECK(w.bytes.size() == packet.size());
    REQUIRE_FALSE(netser::read_predicted_delta_packet(packet, got, ring, scratch, nullptr, range));
    CHECK(got == Track{530, 9});
    // The other coding: another protocol id.
    CHECK(netser::read_predicted_delta_packet(packet, got, ring, scratch).code == netser::errc::bad_crc);
    std::array<std::byte, 64> buffer{};
    const auto s = netser::write_predicted_delta_packet(std::span<std::byte>(buffer), 16, Track{530, 9}, three, scratch, range);
    REQUIRE_FALSE(s.error);
    CHECK(std::vector<std::byte>(s.bytes.begin(), s.bytes.end()) == packet);
}

TEST_CASE("a range-coded predicted packet's errors are at packet bits on both sides", "[session][prediction][range]") {
    netser::baseline_ring<Track> ring(16);
    ring.put(9, {490, 7});
    ring.put(10, {500, 7});
    const std::array<const pp::entry*, 2> two{ring.find(10), ring.find(9)};
    netser::packet_options range;
    range.range = &netser::default_range_prior();
    Track scratch, got;
    // A write: y = 1001 is out of its range; the body's logical bit plus the CRC and the
    // header (32 + 16 + 2 + 2 x 16 + 32 = 114 bits) padded to a byte, 15 bytes.
    std::vector<std::byte> packet;
    const auto bad = netser::write_predicted_delta_packet(packet, 12, Track{520, 1001}, two, scratch, range);
    REQUIRE(bad.error);
    netser::predicted_baseline(scratch, {2, 1, 0}, ring.find(10)->value, &ring.find(9)->value);
    std::vector<std::byte> body(64);
    netser::range_write_stream plain(body);
    const Track out_of_range{520, 1001};
    REQUIRE_FALSE(netser::serialize_delta(plain, out_of_range, scratch));
    CHECK(bad.error.code == plain.error().code);
    CHECK(bad.error.bit == 15 * 8 + plain.error().bit);
    // A read of a cut packet: read() returns the error, and error() tells the same one.
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 12, Track{523, 9}, two, scratch, range).error);
    packet.pop_back();
    const auto cut = std::span<const std::byte>(packet);
    // (A shorter packet has another CRC: recompute it as a forger would.)
    std::vector<std::byte> forged(cut.begin(), cut.end());
    const std::uint32_t crc = netser::detail::packet_crc(
        netser::detail::predicted_protocol_id_of<Track>(range), std::span<const std::byte>(forged).subspan(4));
    netser::detail::store_le32(forged.data(), crc);
    netser::predicted_delta_packet_reader<Track> reader(forged, range);
    REQUIRE_FALSE(reader.error());
    const netser::error e = reader.read(got, two, scratch);
    REQUIRE(e);
    CHECK(reader.error().code == e.code);
    CHECK(reader.error().bit == e.bit);
    CHECK(e.bit >= 15 * 8);
}

TEST_CASE("a range-coded predicted delta packet's golden bytes", "[session][prediction][range]") {
    // tools/golden.py --delta-packets: its own model of the contexts (docs/wire_format.md
    // "Contexts": the root frame codes the struct's changed bit; frames x and y their
    // changed bit and difference calls) over tools/range_coder_reference.py's coder. The
    // header is the bit-packed one (98 bits, 6 zero bits), then the coder's bytes.
    CHECK(netser::range_coded_packet_salt == netser::check_magic("netser range-coded packet"));
    netser::baseline_ring<Track> ring(16);
    ring.put(8, {480, 7});
    ring.put(9, {490, 7});
    ring.put(10, {500, 7});
    const std::array<const pp::entry*, 3> three{ring.find(10), ring.find(9), ring.find(8)};
    const std::array<const pp::entry*, 2> two{ring.find(10), ring.find(8)};
    netser::packet_options range = pp::id_1234;
    range.range = &netser::default_range_prior();
    Track scratch, got;
    std::vector<std::byte> packet;
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 16, Track{530, 7}, three, scratch, range).error);
    CHECK(pp::hex(packet) == "41 46 18 F5 10 00 2A 00 24 00 20 00 D8 17 B1 C3 02 CC 34");
    REQUIRE_FALSE(netser::read_predicted_delta_packet(packet, got, ring, scratch, nullptr, range));
    CHECK(got == Track{530, 7});
    // y changes by +1: rung [1, 1] has no offset bits, a call of 0 bits codes nothing.
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 16, Track{561, 8}, two, scratch, range).error);
    CHECK(pp::hex(packet) == "43 2E CD 8E 10 00 29 00 20 00 58 26 0E 6A 00 EC");
    REQUIRE_FALSE(netser::read_predicted_delta_packet(packet, got, ring, scratch, nullptr, range));
    CHECK(got == Track{561, 8});

    // A trained prior with an entry for each slot the first packet's calls use (the
    // model's track_range_slots), model j of the k-th starting at p0 = 1000 + 1000 k +
    // 100 j, count min(k + j, 31): a slot derived otherwise here meets other models. The
    // prior's fingerprint goes into the CRC's protocol id.
    constexpr std::array<std::uint16_t, 8> slots{757, 2793, 2637, 684, 299, 606, 1563, 1560};
    std::array<netser::range_prior_entry, slots.size()> entries{};
    for (std::size_t k = 0; k < slots.size(); ++k) {
        entries[k].slot = slots[k];
        for (std::size_t j = 0; j < netser::range_models_per_context; ++j)
            entries[k].models[j] = static_cast<std::uint32_t>(1000 + 1000 * k + 100 * j) |
                                   static_cast<std::uint32_t>(k + j < 31 ? k + j : 31) << 16;
    }
    const netser::range_prior trained(entries);
    netser::packet_options with_trained = pp::id_1234;
    with_trained.range = &trained;
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 16, Track{530, 7}, three, scratch, with_trained).error);
    CHECK(pp::hex(packet) == "7E 88 54 51 10 00 2A 00 24 00 20 00 D8 17 B1 C3 02 19 4E FE");
    REQUIRE_FALSE(netser::read_predicted_delta_packet(packet, got, ring, scratch, nullptr, with_trained));
    CHECK(got == Track{530, 7});
    // A reader with the default prior refuses it by its CRC.
    CHECK(netser::read_predicted_delta_packet(packet, got, ring, scratch, nullptr, range).code == netser::errc::bad_crc);
}

TEST_CASE("a range-coded predicted packet names a container's changed elements by bits under their flags: golden bytes",
          "[session][prediction][range]") {
    // tools/golden.py --delta-packets (SQUAD): baselines 10 and 8, sequence 12; the moving
    // units (0, 4, 8, 12) are predicted 10 further than at 10. Sent: the prediction but
    // for unit 4 (x 318 for 320), 5 (x 347, alive) and 9 (x 556, moving). The flags of
    // units 0..5 in the prediction: 7, 5, 4, 5, 7, 4 (1, moving, alive).
    using pp::Squad;
    CHECK(netser::detail::element_flags(pp::squad_at(10).units[0]) == 0b111u);
    CHECK(netser::detail::element_flags(pp::squad_at(10).units[5]) == 0b100u);
    netser::baseline_ring<Squad> ring(16);
    ring.put(8, pp::squad_at(8));
    ring.put(10, pp::squad_at(10));
    const std::array<const netser::baseline_entry<Squad>*, 2> two{ring.find(10), ring.find(8)};
    Squad sent = pp::squad_at(12);
    sent.units[4] = {318, true, true};
    sent.units[5] = {347, false, true};
    sent.units[9] = {556, true, true};
    Squad scratch, got;
    std::vector<std::byte> packet;

    // Bit-packed: the indices of 3 changed units of 16 take 15 bits, fewer than 16 bits.
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 12, sent, two, scratch, pp::id_1234).error);
    CHECK(scratch == pp::squad_at(12));
    CHECK(pp::hex(packet) ==
          "AE 9F 3A BD 0C 00 29 00 20 00 4C 82 6F C2 DD 1B D8 A1 16 C5 00 76 C6 24 47");
    REQUIRE_FALSE(netser::read_predicted_delta_packet(packet, got, ring, scratch, nullptr, pp::id_1234));
    CHECK(got == sent);

    // Range-coded: a changed bit per unit (3 of 16 is not below 1 in 256), each coded under
    // the unit's flags in the prediction, which also key a changed unit's frame.
    netser::packet_options range = pp::id_1234;
    range.range = &netser::default_range_prior();
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 12, sent, two, scratch, range).error);
    CHECK(pp::hex(packet) == "3A 4A C6 62 0C 00 29 00 20 00 4C 82 6F C2 01 C1 AF F6 28 D2 40 00");
    got = {};
    REQUIRE_FALSE(netser::read_predicted_delta_packet(packet, got, ring, scratch, nullptr, range));
    CHECK(got == sent);
}

TEST_CASE("a range-coded packet names its prior: a reader with another prior refuses it by its CRC",
          "[session][prediction][range]") {
    netser::baseline_ring<Track> ring(16);
    ring.put(10, {500, 7});
    const std::array<const pp::entry*, 1> one{ring.find(10)};
    netser::range_statistics counts;
    for (int i = 0; i < 20; ++i) {
        std::array<std::byte, 64> b{};
        netser::range_write_stream w(b);
        w.set_statistics(&counts);
        const Track t{static_cast<std::uint16_t>(500 + i), 7};
        REQUIRE(netser::serialize(w, t));
        REQUIRE_FALSE(w.finish().empty());
    }
    const auto entries = netser::trained_prior_entries(counts);
    const netser::range_prior trained(entries);
    CHECK(netser::default_range_prior().fingerprint() == 0u);
    CHECK(trained.fingerprint() != 0u);
    netser::packet_options with_trained, with_default;
    with_trained.range = &trained;
    with_default.range = &netser::default_range_prior();
    Track scratch, got{1, 1};
    std::vector<std::byte> packet;
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 12, Track{510, 7}, one, scratch, with_trained).error);
    CHECK(netser::read_predicted_delta_packet(packet, got, ring, scratch, nullptr, with_default).code ==
          netser::errc::bad_crc);
    CHECK(got == Track{1, 1});
    REQUIRE_FALSE(netser::read_predicted_delta_packet(packet, got, ring, scratch, nullptr, with_trained));
    CHECK(got == Track{510, 7});
}
