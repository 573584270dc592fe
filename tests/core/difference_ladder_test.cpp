// serialize_code_difference: a code sent as its difference from a baseline's code
// (delta compression). Golden vectors from tools/golden.py; an oracle in this file
// writes the ladder bit by bit from docs/wire_format.md; random pairs round trip at
// the bits the oracle predicts; hostile differences fail cleanly.

#include "test_util.hpp"

#include <netser/difference_ladder.hpp>

#include <random>
#include <vector>

using netser::errc;
using netser_test::hex;
using netser_test::read_hex;
using netser_test::reference_writer;
using netser_test::write_hex;

namespace {

int oracle_bits(std::uint64_t span) {
    int n = 0;
    for (; span != 0; span >>= 1) ++n;
    return n;
}

struct rung {
    std::uint64_t lo, hi;
};

// The rungs docs/wire_format.md describes: cut at max_code, then only as many as are
// each cheaper than the fallback (a flag per rung, then the code).
std::vector<rung> oracle_rungs(const std::vector<std::uint64_t>& limits, std::uint64_t max_code) {
    std::vector<rung> all;
    std::uint64_t lo = 1;
    for (std::uint64_t limit : limits) {
        if (lo > max_code) break;
        const std::uint64_t hi = limit < max_code ? limit : max_code;
        all.push_back({lo, hi});
        if (hi == max_code) break;
        lo = hi + 1;
    }
    const int code_bits = oracle_bits(max_code);
    for (std::size_t k = all.size() + 1; k-- > 0;) {
        bool cheaper = true;
        for (std::size_t j = 0; j < k; ++j)
            cheaper = cheaper && static_cast<int>(j) + 2 + oracle_bits(all[j].hi - all[j].lo) <
                                     static_cast<int>(k) + code_bits;
        if (cheaper) return {all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k)};
    }
    return {};
}

void oracle_put(reference_writer& ref, std::uint64_t code, std::uint64_t base, std::uint64_t max_code,
                const std::vector<std::uint64_t>& limits) {
    if (max_code == 1) return;
    const std::uint64_t m = code > base ? code - base : base - code;
    for (const rung& r : oracle_rungs(limits, max_code)) {
        if (m >= r.lo && m <= r.hi) {
            ref.put(1, 1);
            ref.put(code < base ? 1 : 0, 1);
            return ref.put(m - r.lo, oracle_bits(r.hi - r.lo));
        }
        ref.put(0, 1);
    }
    ref.put(code, oracle_bits(max_code));
}

const std::vector<std::uint64_t> default_limits{1, 16, 256, 4096};

netser::difference_ladder ladder_of(const std::vector<std::uint64_t>& limits) {
    netser::difference_ladder l;
    for (std::uint64_t x : limits) l.limit[l.rungs++] = x;
    return l;
}

std::string difference_hex(std::uint64_t code, std::uint64_t base, std::uint64_t max_code,
                           const netser::difference_ladder& ladder = netser::default_difference_ladder) {
    return write_hex([&](auto& s) {
        std::uint64_t c = code;
        return netser::serialize_code_difference(s, c, base, max_code, ladder);
    });
}

netser::error read_difference(std::string_view packet, std::uint64_t& code, std::uint64_t base,
                              std::uint64_t max_code, std::size_t* bits = nullptr) {
    return read_hex(
        packet, [&](auto& s) { return netser::serialize_code_difference(s, code, base, max_code); }, bits);
}

} // namespace

TEST_CASE("the default ladder is 1, 16, 256, 4096", "[difference]") {
    CHECK(netser::default_difference_ladder.rungs == 4);
    CHECK(netser::default_difference_ladder.limit[0] == 1);
    CHECK(netser::default_difference_ladder.limit[1] == 16);
    CHECK(netser::default_difference_ladder.limit[2] == 256);
    CHECK(netser::default_difference_ladder.limit[3] == 4096);
}

TEST_CASE("serialize_code_difference writes the golden vectors", "[difference]") {
    // Codes of [0, 65535]: rungs [1,1] (2 bits), [2,16] (3 + 4), [17,256] (4 + 8),
    // [257,4096] (5 + 12), then 4 flags and 16 bits.
    CHECK(difference_hex(101, 100, 65535) == "01");       // difference_one: 1, sign 0
    CHECK(difference_hex(90, 100, 65535) == "46");        // difference_minus_ten: 0, 1, sign 1, 8 in 4
    CHECK(difference_hex(300, 10, 65535) == "28 04 00");  // difference_290: 0, 0, 0, 1, 0, 33 in 12
    CHECK(difference_hex(5000, 100, 65535) == "80 38 01"); // difference_fallback: 0 x 4, 5000 in 16
    CHECK(difference_hex(1, 0, 1).empty());                // difference_two_codes: implied
    // Codes of [0, 3]: only the first rung is cheaper than a flag + 2 bits.
    CHECK(difference_hex(3, 2, 3) == "01"); // difference_narrow_step
    CHECK(difference_hex(0, 2, 3) == "00"); // difference_narrow_jump: 0, then 0 in 2 bits
    // difference_custom_ladder: rungs [1,4] and [5,64] for codes of [0, 255]; 10 is 0, 1, 0, 5 in 6.
    CHECK(difference_hex(50, 40, 255, ladder_of({4, 64})) == "2A 00");
}

TEST_CASE("serialize_code_difference reads the golden vectors back", "[difference]") {
    struct golden {
        const char* hex;
        std::uint64_t code, base, max_code;
        std::size_t bits;
    };
    for (const golden& g : {golden{"01", 101, 100, 65535, 2}, golden{"46", 90, 100, 65535, 7},
                            golden{"28 04 00", 300, 10, 65535, 17}, golden{"80 38 01", 5000, 100, 65535, 20},
                            golden{"", 1, 0, 1, 0}, golden{"01", 3, 2, 3, 2}, golden{"00", 0, 2, 3, 3}}) {
        INFO(g.hex);
        std::uint64_t code = 12345;
        std::size_t bits = 0;
        CHECK_FALSE(read_difference(g.hex, code, g.base, g.max_code, &bits));
        CHECK(code == g.code);
        CHECK(bits == g.bits);
    }
}

TEST_CASE("random differences round trip in the bits the oracle writes", "[difference]") {
    std::mt19937_64 rng(2026);
    const std::vector<std::vector<std::uint64_t>> ladders{default_limits, {4, 64}, {1}, {2, 3, 5, 1000000}};
    const std::uint64_t maxes[] = {1, 2, 3, 7, 100, 1000, 65535, 65536, 1u << 20, ~std::uint64_t{0}};
    for (const auto& limits : ladders) {
        for (std::uint64_t max_code : maxes) {
            for (int i = 0; i < 300; ++i) {
                std::uint64_t base = max_code == ~std::uint64_t{0} ? rng() : rng() % (max_code + 1);
                std::uint64_t code = base;
                // Mostly small differences, sometimes anything.
                const std::uint64_t step = (i % 3 == 0) ? rng() : rng() % 5000 + 1;
                code = (i % 2 == 0 && base <= max_code - step) || base < step ? base + step : base - step;
                if (max_code != ~std::uint64_t{0} && code > max_code) code = rng() % (max_code + 1);
                if (code == base) continue;
                INFO("max " << max_code << " base " << base << " code " << code);
                reference_writer ref;
                oracle_put(ref, code, base, max_code, limits);
                const netser::difference_ladder ladder = ladder_of(limits);
                const std::string written = difference_hex(code, base, max_code, ladder);
                REQUIRE(written == hex(ref.bytes()));
                std::uint64_t back = 0;
                std::size_t bits = 0;
                const netser::error e = read_hex(
                    written, [&](auto& s) { return netser::serialize_code_difference(s, back, base, max_code, ladder); },
                    &bits);
                REQUIRE_FALSE(e);
                CHECK(back == code);
                CHECK(bits == ref.bits());
            }
        }
    }
}

TEST_CASE("a difference that leaves the range or a code above it fails the read with out_of_range", "[difference]") {
    std::uint64_t code = 0;
    // Rung [2, 16], sign set (below), magnitude 2 + 8 = 10 from base 3: below 0.
    reference_writer below;
    below.put(0, 1);
    below.put(1, 1);
    below.put(1, 1);
    below.put(8, 4);
    netser::error e = read_difference(hex(below.bytes()), code, 3, 65535);
    CHECK(e.code == errc::out_of_range);
    CHECK(e.bit == 0);
    // Rung [17, 256], sign clear, magnitude 17 + 200 from base 65500: above 65535.
    reference_writer above;
    above.put(0, 1);
    above.put(0, 1);
    above.put(1, 1);
    above.put(0, 1);
    above.put(200, 8);
    e = read_difference(hex(above.bytes()), code, 65500, 65535);
    CHECK(e.code == errc::out_of_range);
    CHECK(e.bit == 0);
    // The fallback: a code above max_code (1000 is 10 bits, so 1023 exists).
    reference_writer big;
    for (int i = 0; i < 4; ++i) big.put(0, 1);
    big.put(1023, 10);
    e = read_difference(hex(big.bytes()), code, 5, 1000);
    CHECK(e.code == errc::out_of_range);
    // A rung's offset above its span (rung [257, 4096] spans 3839 in 12 bits).
    reference_writer offset;
    offset.put(0, 3);
    offset.put(1, 1);
    offset.put(0, 1);
    offset.put(4000, 12);
    e = read_difference(hex(offset.bytes()), code, 0, 65535);
    CHECK(e.code == errc::out_of_range);
}

TEST_CASE("a truncated difference fails with overflow at its first bit and reads nothing past the end",
          "[difference]") {
    const std::string full = difference_hex(5000, 100, 65535);
    reference_writer ref;
    oracle_put(ref, 5000, 100, 65535, default_limits);
    const std::vector<std::byte> bytes = ref.bytes();
    for (std::size_t keep = 0; keep < bytes.size(); ++keep) {
        std::uint64_t code = 0;
        const netser::error e =
            read_difference(hex({bytes.data(), keep}), code, 100, 65535);
        CHECK(e.code == errc::overflow);
        CHECK(e.bit == 0);
    }
    CHECK_FALSE(full.empty());
}

TEST_CASE("bad arguments fail with invalid_value or out_of_range, writing nothing", "[difference]") {
    std::vector<std::byte> buffer(16);
    {
        netser::write_stream w(buffer.data(), buffer.size());
        std::uint64_t code = 5;
        CHECK_FALSE(netser::serialize_code_difference(w, code, 2000, 1000)); // base above max_code
        CHECK(w.error().code == errc::invalid_value);
        CHECK(w.bits_processed() == 0);
    }
    {
        netser::write_stream w(buffer.data(), buffer.size());
        std::uint64_t code = 1001;
        CHECK_FALSE(netser::serialize_code_difference(w, code, 5, 1000)); // code above max_code
        CHECK(w.error().code == errc::out_of_range);
        CHECK(w.bits_processed() == 0);
    }
    {
        netser::write_stream w(buffer.data(), buffer.size());
        std::uint64_t code = 7;
        CHECK_FALSE(netser::serialize_code_difference(w, code, 5, 1000, ladder_of({16, 4}))); // not increasing
        CHECK(w.error().code == errc::invalid_value);
    }
    CHECK_FALSE(ladder_of({0}).valid());
    CHECK(ladder_of({1, 2, 3, 4}).valid());
}

TEST_CASE("a difference never takes more bits than the fallback", "[difference]") {
    // The kept rungs each cost less than as many flags as there are rungs plus the code.
    for (std::uint64_t max_code : {2ull, 3ull, 5ull, 15ull, 16ull, 17ull, 255ull, 65535ull}) {
        const auto rungs = oracle_rungs(default_limits, max_code);
        const int fallback = static_cast<int>(rungs.size()) + oracle_bits(max_code);
        for (std::uint64_t base = 0; base <= std::min<std::uint64_t>(max_code, 40); ++base) {
            for (std::uint64_t code = 0; code <= std::min<std::uint64_t>(max_code, 40); ++code) {
                if (code == base) continue;
                reference_writer ref;
                oracle_put(ref, code, base, max_code, default_limits);
                CHECK(static_cast<int>(ref.bits()) <= fallback);
                CHECK(difference_hex(code, base, max_code) == hex(ref.bytes()));
            }
        }
    }
}
