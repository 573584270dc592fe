// serialize_relative_index: the article's ladder of docs/wire_format.md (3.2). Golden vectors from
// tools/golden.py; an oracle in this file encodes the ladder bit by bit; random
// sparse index sets round trip; hostile ladders fail cleanly.

#include "test_util.hpp"

#include <array>
#include <random>
#include <set>

using netser::errc;
using netser_test::exact_block;
using netser_test::hex;
using netser_test::read_hex;
using netser_test::reference_writer;

namespace {

int oracle_bits(std::uint64_t span) {
    int n = 0;
    for (; span != 0; span >>= 1) ++n;
    return n;
}

// The ladder written from docs/wire_format.md (3.2), one flag at a time.
void oracle_put(reference_writer& ref, int previous, int current, int max) {
    const std::int64_t d = std::int64_t{current} - previous;
    if (d == 1) return ref.put(1, 1);
    ref.put(0, 1);
    constexpr std::array<std::array<std::int64_t, 2>, 5> rungs{{{2, 5}, {6, 13}, {14, 29}, {30, 61}, {62, 125}}};
    for (const auto& [lo, hi] : rungs) {
        if (d >= lo && d <= hi) {
            ref.put(1, 1);
            return ref.put(static_cast<std::uint64_t>(d - lo), oracle_bits(static_cast<std::uint64_t>(hi - lo)));
        }
        ref.put(0, 1);
    }
    ref.put(static_cast<std::uint64_t>(d - 126), oracle_bits(static_cast<std::uint64_t>(std::int64_t{max} + 1 - 126)));
}

// Writes `current` after previous = -1 with max 1000, the setting of the golden vectors.
std::string golden_from_start(int current, int max = 1000) {
    return netser_test::write_hex([&](auto& s) {
        int previous = -1, c = current;
        return netser::serialize_relative_index(s, previous, c, max);
    });
}

// Reads one relative index; returns the error.
netser::error read_one(const reference_writer& ref, int& previous, int& current, int max) {
    return read_hex(hex(ref.bytes()), [&](auto& s) { return netser::serialize_relative_index(s, previous, current, max); });
}

} // namespace

TEST_CASE("serialize_relative_index writes the golden vectors of every rung boundary", "[relative_index]") {
    // previous = -1, so d = current + 1; max = 1000, so the last rung is int [126, 1001].
    CHECK(golden_from_start(0) == "01");       // d = 1: flag 1
    CHECK(golden_from_start(1) == "02");       // d = 2: 0, 1, int [2,5] 0
    CHECK(golden_from_start(4) == "0E");       // d = 5
    CHECK(golden_from_start(5) == "04");       // d = 6: 0, 0, 1, int [6,13] 0
    CHECK(golden_from_start(12) == "3C");      // d = 13
    CHECK(golden_from_start(13) == "08");      // d = 14
    CHECK(golden_from_start(28) == "F8");      // d = 29
    CHECK(golden_from_start(29) == "10 00");   // d = 30
    CHECK(golden_from_start(60) == "F0 03");   // d = 61
    CHECK(golden_from_start(61) == "20 00");   // d = 62
    CHECK(golden_from_start(124) == "E0 0F");  // d = 125
    CHECK(golden_from_start(125) == "00 00");  // d = 126: six 0 flags, int [126, 1001] 0 in 10 bits
    CHECK(golden_from_start(499) == "80 5D");  // d = 500
    CHECK(golden_from_start(1000) == "C0 DA"); // d = 1001: the sentinel straight away
    CHECK(netser_test::write_hex([](auto& s) {
              int previous = 3, current = 5;
              return netser::serialize_relative_index(s, previous, current, 5);
          }) == "02"); // relative_small_max
    CHECK(golden_from_start(125, 125) == "00"); // last rung [126, 126]: 0 bits
}

TEST_CASE("serialize_relative_index writes a sparse index set ending with the sentinel as its golden vector",
          "[relative_index]") {
    const std::array<int, 7> indices{0, 2, 7, 20, 50, 200, 1000};
    const auto text = netser_test::write_hex([&](auto& s) {
        int previous = -1;
        for (int index : indices)
            if (!netser::serialize_relative_index(s, previous, index, 1000)) return false;
        return true;
    });
    CHECK(text == "C5 79 08 00 0C 00 51 01"); // relative_sequence
    std::vector<int> got;
    const auto e = read_hex(text, [&](auto& s) {
        int previous = -1, current = 0;
        do {
            if (!netser::serialize_relative_index(s, previous, current, 1000)) return false;
            got.push_back(current);
        } while (current != 1000);
        return true;
    });
    CHECK(e.code == errc::none);
    CHECK(got == std::vector<int>(indices.begin(), indices.end()));
}

TEST_CASE("serialize_relative_index writes what the ladder oracle writes for every distance", "[relative_index][long]") {
    for (const int max : {0, 1, 5, 60, 124, 125, 126, 127, 200, 1000, 4095, 70000}) {
        for (int previous = -1; previous < max && previous < 300; ++previous) {
            for (int current = previous + 1; current <= max; current += (current < previous + 300 ? 1 : 997)) {
                reference_writer ref;
                oracle_put(ref, previous, current, max);
                int p = previous, c = current;
                INFO("max " << max << ", previous " << previous << ", current " << current);
                REQUIRE(netser_test::write_hex([&](auto& s) {
                            int pp = p, cc = c;
                            return netser::serialize_relative_index(s, pp, cc, max);
                        }) == hex(ref.bytes()));
                int rp = previous, rc = -5;
                const auto e = read_one(ref, rp, rc, max);
                REQUIRE(e.code == errc::none);
                REQUIRE(rc == current);
                REQUIRE(rp == current);
            }
        }
    }
}

TEST_CASE("serialize_relative_index round trips random sparse index sets ending with the sentinel",
          "[relative_index][long]") {
    std::mt19937_64 rng(51);
    for (int round = 0; round < 2000; ++round) {
        const int max = static_cast<int>(1 + rng() % (round % 3 == 0 ? 100000 : 600));
        // Random density, from a few indices to nearly all.
        const auto keep_per_mille = rng() % 1001;
        std::vector<int> indices;
        for (int i = 0; i < max && indices.size() < 3000; ++i)
            if (rng() % 1000 < keep_per_mille) indices.push_back(i);
        indices.push_back(max); // the sentinel
        std::vector<std::byte> buffer(indices.size() * 4 + 8);
        netser::write_stream w(buffer.data(), buffer.size());
        netser::measure_stream m;
        reference_writer ref;
        int wp = -1, mp = -1, rp = -1;
        for (int index : indices) {
            int c = index;
            REQUIRE(netser::serialize_relative_index(w, wp, c, max));
            REQUIRE(netser::serialize_relative_index(m, mp, c, max));
            oracle_put(ref, rp, index, max);
            rp = index;
        }
        CHECK(m.bits_processed() == w.bits_processed());
        CHECK(w.bits_processed() == ref.bits());
        const auto packet = w.finish();
        REQUIRE(std::vector<std::byte>(packet.begin(), packet.end()) == ref.bytes());
        const exact_block block(packet);
        netser::read_stream r(block.span());
        std::vector<int> got;
        int previous = -1, current = 0;
        do {
            REQUIRE(netser::serialize_relative_index(r, previous, current, max));
            got.push_back(current);
        } while (current != max);
        CHECK(got == indices);
    }
}

TEST_CASE("serialize_relative_index refuses to read an index above max", "[relative_index]") {
    SECTION("a rung distance past max") {
        // max 3, previous -1: flag 0, flag 1, int [2,5] code 3 -> d = 5, index 4 > 3.
        reference_writer ref;
        ref.put(0, 1);
        ref.put(1, 1);
        ref.put(3, 2);
        int previous = -1, current = 0;
        const auto e = read_one(ref, previous, current, 3);
        CHECK(e.code == errc::out_of_range);
        CHECK(e.bit == 0);
        CHECK(previous == -1);
    }
    SECTION("a last-rung distance past max from a later previous") {
        // max 1000, previous 900: d = 126 + code; code 200 gives index 1225 > 1000.
        reference_writer ref;
        ref.put(0, 6);
        ref.put(200, 10);
        int previous = 900, current = 0;
        CHECK(read_one(ref, previous, current, 1000).code == errc::out_of_range);
    }
    SECTION("plus one past the sentinel cannot happen: previous must be below max") {
        reference_writer ref;
        ref.put(1, 1);
        int previous = 10, current = 0;
        const auto e = read_one(ref, previous, current, 10);
        CHECK(e.code == errc::invalid_value);
    }
}

TEST_CASE("serialize_relative_index refuses a last-rung code above its range", "[relative_index]") {
    // max 200: the last rung is int [126, 201], span 75 in 7 bits: codes 76..127 are forged.
    for (std::uint64_t code = 76; code < 128; ++code) {
        reference_writer ref;
        ref.put(1, 3); // some bits before it
        ref.put(0, 6);
        ref.put(code, 7);
        int previous = -1, current = 0;
        INFO("code " << code);
        const auto e = read_hex(hex(ref.bytes()), [&](auto& s) {
            std::uint8_t pre = 0;
            return netser::serialize_bits(s, pre, 3) && netser::serialize_relative_index(s, previous, current, 200);
        });
        CHECK(e.code == errc::out_of_range);
        CHECK(e.bit == 3);
    }
    // Code 75 is d = 201 = max + 1 from previous -1: the sentinel, accepted.
    reference_writer ref;
    ref.put(0, 6);
    ref.put(75, 7);
    int previous = -1, current = 0;
    CHECK(read_one(ref, previous, current, 200).code == errc::none);
    CHECK(current == 200);
}

TEST_CASE("serialize_relative_index refuses a ladder with no rung when max is small", "[relative_index]") {
    // max 100 < 125: a distance of 126 or more cannot exist, so six 0 flags are forged.
    reference_writer ref;
    ref.put(0, 6);
    ref.put(0, 8);
    int previous = -1, current = 0;
    CHECK(read_one(ref, previous, current, 100).code == errc::out_of_range);
}

TEST_CASE("serialize_relative_index refuses previous >= max, previous < -1 and a negative max", "[relative_index]") {
    std::array<std::byte, 8> buffer{};
    struct call {
        int previous, current, max;
    };
    for (const call c : {call{10, 11, 10}, call{11, 12, 10}, call{-2, 0, 10}, call{-1, 0, -1}}) {
        INFO("previous " << c.previous << ", current " << c.current << ", max " << c.max);
        netser::write_stream w(buffer);
        int p = c.previous, cur = c.current;
        CHECK_FALSE(netser::serialize_relative_index(w, p, cur, c.max));
        CHECK(w.error().code == errc::invalid_value);
        CHECK(w.bits_processed() == 0);
        int rp = c.previous, rc = 0;
        CHECK(read_hex("FF FF", [&](auto& s) { return netser::serialize_relative_index(s, rp, rc, c.max); }).code ==
              errc::invalid_value);
    }
}

TEST_CASE("serialize_relative_index refuses to write indices that do not increase or exceed max",
          "[relative_index]") {
    std::array<std::byte, 8> buffer{};
    struct call {
        int previous, current, max;
    };
    for (const call c : {call{5, 5, 10}, call{5, 3, 10}, call{-1, -1, 10}, call{5, 11, 10}, call{-1, 2000, 1000}}) {
        INFO("previous " << c.previous << ", current " << c.current << ", max " << c.max);
        netser::write_stream w(buffer);
        int p = c.previous, cur = c.current;
        CHECK_FALSE(netser::serialize_relative_index(w, p, cur, c.max));
        CHECK(w.error().code == errc::out_of_range);
        CHECK(p == c.previous);
        CHECK(w.bits_processed() == 0);
    }
}

TEST_CASE("serialize_relative_index truncated anywhere in its ladder fails with overflow at its first bit",
          "[relative_index]") {
    for (const int current : {0, 1, 5, 12, 28, 60, 124, 125, 999}) {
        reference_writer ref;
        ref.put(5, 3);
        oracle_put(ref, -1, current, 1000);
        const auto full = ref.bytes();
        for (std::size_t cut = 0; cut < full.size(); ++cut) {
            const exact_block packet(std::span<const std::byte>(full.data(), cut));
            netser::read_stream r(packet.span());
            std::uint8_t pre = 0;
            int previous = -1, got = 0;
            const bool pre_ok = netser::serialize_bits(r, pre, 3);
            INFO("current " << current << ", cut at byte " << cut);
            CHECK_FALSE((pre_ok && netser::serialize_relative_index(r, previous, got, 1000)));
            CHECK(r.error().code == errc::overflow);
            CHECK(r.error().bit == (pre_ok ? 3u : 0u));
            CHECK(previous == -1);
        }
    }
}
