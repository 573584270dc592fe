// The primitives of primitives.hpp and bits_required.hpp: golden vectors (from
// tools/golden.py, listed in docs/wire_format.md), random round trips, and hostile
// packets. Quantized floats and relative indices have their own files.

#include "test_util.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using netser::errc;
using netser_test::check_golden;
using netser_test::exact_block;
using netser_test::hex;
using netser_test::low_mask;
using netser_test::read_hex;
using netser_test::reference_writer;
using netser_test::unhex;

namespace {

constexpr std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::uint64_t uint64_max = std::numeric_limits<std::uint64_t>::max();

// bits_required by counting, independent of the header's countl_zero.
int oracle_bits(std::uint64_t span) {
    int n = 0;
    for (; span != 0; span >>= 1) ++n;
    return n;
}

// Writes the bits of `ref` into an exactly sized block and reads it with `f`.
template <class F>
netser::error read_ref(const reference_writer& ref, F&& f) {
    return read_hex(hex(ref.bytes()), std::forward<F>(f));
}

std::vector<std::byte> random_bytes(std::mt19937_64& rng, std::size_t n) {
    std::vector<std::byte> out(n);
    for (auto& b : out) b = static_cast<std::byte>(rng() & 0xFFu);
    return out;
}

} // namespace

// --- bits_required ----------------------------------------------------------------

static_assert(netser::bits_required(0, 0) == 0);
static_assert(netser::bits_required(7, 7) == 0);
static_assert(netser::bits_required(0, 1) == 1);
static_assert(netser::bits_required(0, 2) == 2);
static_assert(netser::bits_required(0, 3) == 2);
static_assert(netser::bits_required(0, 7) == 3);
static_assert(netser::bits_required(0, 8) == 4);
static_assert(netser::bits_required(0, 255) == 8);
static_assert(netser::bits_required(0, 256) == 9);
static_assert(netser::bits_required(-100, 100) == 8);
static_assert(netser::bits_required(-1, 0) == 1);
static_assert(netser::bits_required(-5, -1) == 3);
static_assert(netser::bits_required(0, 1000) == 10);
static_assert(netser::bits_required(0, 200000) == 18);
static_assert(netser::bits_required(-2147483648LL, 2147483647LL) == 32);
static_assert(netser::bits_required(0, int64_max) == 63);
static_assert(netser::bits_required(int64_min, int64_max) == 64);
static_assert(netser::bits_required(int64_min, int64_min + 1) == 1);
static_assert(netser::bits_required(int64_min, -1) == 63);
static_assert(netser::bits_required_for_span(0) == 0);
static_assert(netser::bits_required_for_span(uint64_max) == 64);
static_assert(netser::bits_required_for_span(std::uint64_t{1} << 63) == 64);

TEST_CASE("bits_required is floor(log2(max - min)) + 1, and 0 for a single value", "[bits_required]") {
    std::mt19937_64 rng(31);
    for (int i = 0; i < 100000; ++i) {
        auto a = static_cast<std::int64_t>(rng() >> (rng() % 64));
        auto b = static_cast<std::int64_t>(rng() >> (rng() % 64));
        if (rng() % 2) a = -a;
        if (a > b) std::swap(a, b);
        const std::uint64_t span = static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a);
        REQUIRE(netser::bits_required(a, b) == oracle_bits(span));
    }
    for (int k = 0; k < 64; ++k) {
        const std::uint64_t p = std::uint64_t{1} << k;
        CHECK(netser::bits_required_for_span(p) == k + 1);
        CHECK(netser::bits_required_for_span(p - 1) == k);
    }
}

// --- serialize_bits ---------------------------------------------------------------

TEST_CASE("serialize_bits writes the golden vectors", "[primitives][bits]") {
    auto two = [](auto& s, std::uint32_t& a, std::uint32_t& b) {
        return netser::serialize_bits(s, a, 5) && netser::serialize_bits(s, b, 6);
    };
    check_golden("8D 06", two, 13u, 52u); // bits_book_example
    check_golden("", [](auto& s, std::uint64_t& v) { return netser::serialize_bits(s, v, 0); }, std::uint64_t{0});
    check_golden("01", [](auto& s, std::uint8_t& v) { return netser::serialize_bits(s, v, 1); }, std::uint8_t{1});
    check_golden("34 12", [](auto& s, std::uint16_t& v) { return netser::serialize_bits(s, v, 16); },
                 std::uint16_t{0x1234});
    check_golden("EF BE AD DE", [](auto& s, std::uint32_t& v) { return netser::serialize_bits(s, v, 32); },
                 std::uint32_t{0xDEADBEEF});
    check_golden("00 00 00 00 01", [](auto& s, std::uint64_t& v) { return netser::serialize_bits(s, v, 33); },
                 std::uint64_t{1} << 32);
    check_golden("F0 DE BC 9A 78 56 34 12",
                 [](auto& s, std::uint64_t& v) { return netser::serialize_bits(s, v, 64); },
                 std::uint64_t{0x123456789ABCDEF0});
    check_golden(
        "81 90 A1 B2 C3 D4 E5 F6 07",
        [](auto& s, std::uint8_t& a, std::uint64_t& b) {
            return netser::serialize_bits(s, a, 3) && netser::serialize_bits(s, b, 64);
        },
        std::uint8_t{1}, std::uint64_t{0xFEDCBA9876543210});
    check_golden(
        "FD EF FF FF",
        [](auto& s, std::uint8_t& a, std::uint16_t& b, bool& c, std::uint32_t& d, unsigned char& e) {
            return netser::serialize_bits(s, a, 3) && netser::serialize_bits(s, b, 9) &&
                   netser::serialize_bits(s, c, 1) && netser::serialize_bits(s, d, 18) &&
                   netser::serialize_bits(s, e, 1);
        },
        std::uint8_t{5}, std::uint16_t{0x1FF}, false, std::uint32_t{0x3FFFF}, static_cast<unsigned char>(1));
}

TEMPLATE_TEST_CASE("serialize_bits round trips random values of every width that fits the type",
                   "[primitives][bits]", std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, unsigned long,
                   unsigned long long) {
    std::mt19937_64 rng(32);
    constexpr int digits = std::numeric_limits<TestType>::digits;
    for (int round = 0; round < 500; ++round) {
        reference_writer ref;
        std::vector<std::pair<TestType, int>> values;
        for (int i = 0; i < 20; ++i) {
            const int n = static_cast<int>(rng() % (digits + 1));
            const auto v = static_cast<TestType>(rng() & low_mask(n));
            values.emplace_back(v, n);
            ref.put(v, n);
        }
        std::vector<std::byte> buffer(200);
        netser::write_stream w(buffer.data(), buffer.size());
        for (auto [v, n] : values) REQUIRE(netser::serialize_bits(w, v, n));
        const auto packet = w.finish();
        REQUIRE(std::vector<std::byte>(packet.begin(), packet.end()) == ref.bytes());
        const exact_block block(packet);
        netser::read_stream r(block.span());
        for (const auto& [v, n] : values) {
            TestType got = 0;
            REQUIRE(netser::serialize_bits(r, got, n));
            CHECK(got == v);
        }
    }
}

TEST_CASE("serialize_bits refuses a value wider than its bits and widths outside 0..64", "[primitives][bits]") {
    std::array<std::byte, 16> buffer{};
    SECTION("a write of a value that needs more bits fails with out_of_range, keeping the earlier bytes") {
        netser::write_stream w(buffer);
        std::uint8_t prefix = 0xAB;
        std::uint32_t v = 8;
        REQUIRE(netser::serialize_bits(w, prefix, 8));
        CHECK_FALSE(netser::serialize_bits(w, v, 3));
        CHECK(w.error().code == errc::out_of_range);
        CHECK(w.error().bit == 8);
        CHECK(hex(w.finish()) == "AB");
    }
    SECTION("a non-zero value in zero bits fails") {
        netser::write_stream w(buffer);
        std::uint32_t v = 1;
        CHECK_FALSE(netser::serialize_bits(w, v, 0));
        CHECK(w.error().code == errc::out_of_range);
    }
    SECTION("a read that does not fit the type fails with out_of_range") {
        std::uint8_t v = 0;
        const auto e = read_hex("FF 01", [&](auto& s) { return netser::serialize_bits(s, v, 9); });
        CHECK(e.code == errc::out_of_range);
        CHECK(e.bit == 0);
        const auto ok = read_hex("FF 00", [&](auto& s) { return netser::serialize_bits(s, v, 9); });
        CHECK(ok.code == errc::none);
        CHECK(v == 0xFF);
    }
    SECTION("widths outside 0..64 fail with invalid_value on every stream") {
        std::uint64_t v = 0;
        netser::write_stream w(buffer);
        CHECK_FALSE(netser::serialize_bits(w, v, 65));
        CHECK(w.error().code == errc::invalid_value);
        netser::measure_stream m;
        CHECK_FALSE(netser::serialize_bits(m, v, -1));
        CHECK(m.error().code == errc::invalid_value);
        const auto e = read_hex("FF FF FF FF FF FF FF FF FF", [&](auto& s) { return netser::serialize_bits(s, v, 65); });
        CHECK(e.code == errc::invalid_value);
    }
}

// --- serialize_int ----------------------------------------------------------------

TEST_CASE("serialize_int writes the golden vectors", "[primitives][int]") {
    auto range = [](auto lo, auto hi) {
        return [lo, hi](auto& s, auto& v) { return netser::serialize_int(s, v, lo, hi); };
    };
    check_golden("3F", range(-100, 100), -37);
    check_golden("05", range(0, 7), 5);
    check_golden("08", range(0, 8), 8);
    check_golden("E8 03", range(0, 1000), 1000);
    check_golden("", range(7, 7), 7);
    check_golden("02", range(-5, -1), -3);
    check_golden(
        "00 FF",
        [](auto& s, std::int8_t& a, std::int8_t& b) {
            return netser::serialize_int(s, a, -128, 127) && netser::serialize_int(s, b, -128, 127);
        },
        std::int8_t{-128}, std::int8_t{127});
    check_golden("EB 32 A4 78", range(std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()),
                 std::int32_t{-123456789});
    check_golden("00 00 00 00 00 00 00 00", range(int64_min, int64_max), int64_min);
    check_golden("FF FF FF FF FF FF FF 7F", range(int64_min, int64_max), std::int64_t{-1});
    check_golden("00 00 00 00 00 00 00 80", range(int64_min, int64_max), std::int64_t{0});
    check_golden("FF FF FF FF FF FF FF FF", range(int64_min, int64_max), int64_max);
    check_golden("FF FF FF FF FF FF FF FF", range(std::uint64_t{0}, uint64_max), uint64_max);
    check_golden("05 00 00 00 00 00 00 00", range(std::uint64_t{1} << 63, uint64_max), (std::uint64_t{1} << 63) + 5);
    check_golden(
        "29 0A", [](auto& s, bool& b, int& v) { return netser::serialize_bool(s, b) && netser::serialize_int(s, v, -1000, 1000); },
        true, 300);
}

TEMPLATE_TEST_CASE("serialize_int round trips random values in random ranges of every integer type",
                   "[primitives][int]", signed char, unsigned char, char, short, unsigned short, int, unsigned, long,
                   unsigned long, long long, unsigned long long, std::int8_t, std::uint8_t, std::int64_t,
                   std::uint64_t, wchar_t, char8_t, char16_t, char32_t, bool) {
    using T = TestType;
    using limits = std::numeric_limits<T>;
    std::mt19937_64 rng(33);
    auto random_t = [&] { return static_cast<T>(rng() >> (rng() % 64)); };
    for (int round = 0; round < 3000; ++round) {
        T lo = random_t(), hi = random_t();
        switch (round % 4) {
        case 0: lo = limits::min(); hi = limits::max(); break; // the full range
        case 1: if (hi < lo) std::swap(lo, hi); break;
        case 2: lo = limits::min(); break;
        default: hi = limits::max(); break;
        }
        if (hi < lo) std::swap(lo, hi);
        const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
        const std::uint64_t offset = span == uint64_max ? rng() : rng() % (span + 1);
        const T v = static_cast<T>(static_cast<std::uint64_t>(lo) + offset);
        INFO("round " << round);
        REQUIRE(lo <= v);
        REQUIRE(v <= hi);

        std::array<std::byte, 8> buffer{};
        netser::write_stream w(buffer);
        T written = v;
        REQUIRE(netser::serialize_int(w, written, lo, hi));
        CHECK(static_cast<int>(w.bits_processed()) == oracle_bits(span));
        const auto packet = w.finish();
        // The code on the wire is v - min, LSB first.
        reference_writer ref;
        ref.put(offset, oracle_bits(span));
        CHECK(std::vector<std::byte>(packet.begin(), packet.end()) == ref.bytes());

        const exact_block block(packet);
        netser::read_stream r(block.span());
        T got{};
        REQUIRE(netser::serialize_int(r, got, lo, hi));
        CHECK(got == v);
    }
}

TEMPLATE_TEST_CASE("serialize_int refuses to write a value outside its range, keeping the earlier bytes",
                   "[primitives][int]", std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                   std::uint32_t, std::int64_t, std::uint64_t) {
    using T = TestType;
    using limits = std::numeric_limits<T>;
    const T lo = static_cast<T>(limits::min() / 2 + 1);
    const T hi = static_cast<T>(limits::max() / 2);
    for (const T bad : {static_cast<T>(lo - 1), limits::min(), static_cast<T>(hi + 1), limits::max()}) {
        if (bad >= lo && bad <= hi) continue;
        std::array<std::byte, 16> buffer{};
        netser::write_stream w(buffer);
        std::uint16_t prefix = 0xBEEF;
        REQUIRE(netser::serialize_bits(w, prefix, 16));
        T v = bad;
        CHECK_FALSE(netser::serialize_int(w, v, lo, hi));
        CHECK(w.error().code == errc::out_of_range);
        CHECK(w.error().bit == 16);
        CHECK(w.bits_processed() == 16);
        CHECK(hex(w.finish()) == "EF BE");
        netser::measure_stream m;
        CHECK_FALSE(netser::serialize_int(m, v, lo, hi));
        CHECK(m.error().code == errc::out_of_range);
    }
}

TEST_CASE("serialize_int refuses to read a code above max - min", "[primitives][int]") {
    struct range {
        std::int64_t lo, hi;
    };
    for (const range rg : {range{0, 8}, range{-100, 100}, range{0, 2}, range{5, 1004}, range{-3, 1},
                           range{0, 2147483646}, range{int64_min, int64_max - 1}, range{0, 200000}}) {
        const std::int64_t lo = rg.lo, hi = rg.hi;
        const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
        const int bits = oracle_bits(span);
        REQUIRE(span < low_mask(bits)); // some codes are above the range
        for (const std::uint64_t code : {span + 1, low_mask(bits), span + 1 + (low_mask(bits) - span - 1) / 2}) {
            reference_writer ref;
            ref.put(1, 3); // some bits before it
            ref.put(code, bits);
            std::int64_t v = 0;
            INFO("range [" << lo << ", " << hi << "], code " << code);
            const auto e = read_ref(ref, [&](auto& s) {
                std::uint8_t first = 0;
                return netser::serialize_bits(s, first, 3) && netser::serialize_int(s, v, lo, hi);
            });
            CHECK(e.code == errc::out_of_range);
            CHECK(e.bit == 3);
        }
        // The largest legal code is accepted.
        reference_writer ref;
        ref.put(span, bits);
        std::int64_t v = 0;
        CHECK(read_ref(ref, [&](auto& s) { return netser::serialize_int(s, v, lo, hi); }).code == errc::none);
        CHECK(v == hi);
    }
}

TEST_CASE("serialize_int refuses a range that its type cannot hold or that is reversed", "[primitives][int]") {
    std::array<std::byte, 8> buffer{};
    SECTION("max above the type") {
        netser::write_stream w(buffer);
        std::uint8_t v = 1;
        CHECK_FALSE(netser::serialize_int(w, v, 0, 300));
        CHECK(w.error().code == errc::invalid_value);
    }
    SECTION("min below the type") {
        netser::write_stream w(buffer);
        unsigned v = 1;
        CHECK_FALSE(netser::serialize_int(w, v, -1, 10));
        CHECK(w.error().code == errc::invalid_value);
    }
    SECTION("min above max") {
        netser::write_stream w(buffer);
        int v = 1;
        CHECK_FALSE(netser::serialize_int(w, v, 10, 0));
        CHECK(w.error().code == errc::invalid_value);
    }
    SECTION("and on read") {
        std::int8_t v = 0;
        const auto e = read_hex("00", [&](auto& s) { return netser::serialize_int(s, v, 0, 1000); });
        CHECK(e.code == errc::invalid_value);
    }
}

TEST_CASE("serialize_int reads a single-value range from an empty packet", "[primitives][int]") {
    int v = 0;
    CHECK(read_hex("", [&](auto& s) { return netser::serialize_int(s, v, 42, 42); }).code == errc::none);
    CHECK(v == 42);
    CHECK(read_hex("", [&](auto& s) { return netser::serialize_int(s, v, 0, 1); }).code == errc::overflow);
}

// --- serialize_bool ---------------------------------------------------------------

TEST_CASE("serialize_bool is one bit", "[primitives][bool]") {
    check_golden(
        "05",
        [](auto& s, bool& a, bool& b, bool& c) {
            return netser::serialize_bool(s, a) && netser::serialize_bool(s, b) && netser::serialize_bool(s, c);
        },
        true, false, true);
    for (unsigned byte = 0; byte < 256; ++byte) {
        std::array<bool, 8> got{};
        const auto e = read_hex(hex(std::array{static_cast<std::byte>(byte)}), [&](auto& s) {
            for (auto& b : got)
                if (!netser::serialize_bool(s, b)) return false;
            return true;
        });
        REQUIRE(e.code == errc::none);
        for (unsigned i = 0; i < 8; ++i) CHECK(got[i] == (((byte >> i) & 1u) != 0));
    }
}

// --- serialize_float / serialize_double ------------------------------------------

TEST_CASE("serialize_float and serialize_double write their IEEE bits", "[primitives][float]") {
    auto one_float = [](auto& s, float& v) { return netser::serialize_float(s, v); };
    auto one_double = [](auto& s, double& v) { return netser::serialize_double(s, v); };
    check_golden("00 00 80 3F", one_float, 1.0f);
    check_golden("00 00 00 80", one_float, -0.0f);
    check_golden("00 00 80 7F", one_float, std::numeric_limits<float>::infinity());
    check_golden("01 00 C0 7F", one_float, std::bit_cast<float>(0x7FC00001u));
    check_golden("01 00 80 7F", one_float, std::bit_cast<float>(0x7F800001u));
    check_golden(
        "01 00 00 7F 00", [](auto& s, bool& b, float& v) { return netser::serialize_bool(s, b) && netser::serialize_float(s, v); },
        true, 1.0f);
    check_golden("55 55 55 55 55 55 D5 3F", one_double, 1.0 / 3.0);
    check_golden("00 00 00 00 00 00 00 80", one_double, -0.0);
    check_golden("01 00 00 00 00 00 F8 7F", one_double, std::bit_cast<double>(std::uint64_t{0x7FF8000000000001}));
    check_golden("EF CD AB 89 00 00 00 00", one_double, std::bit_cast<double>(std::uint64_t{0x0000000089ABCDEF}));
    check_golden(
        "00 00 00 00 00 00 00 80 01",
        [](auto& s, std::uint8_t& b, double& v) { return netser::serialize_bits(s, b, 1) && netser::serialize_double(s, v); },
        std::uint8_t{0}, -2.0);
}

TEST_CASE("serialize_float and serialize_double round trip every bit pattern exactly, NaN payloads included",
          "[primitives][float]") {
    std::mt19937_64 rng(34);
    for (int round = 0; round < 20000; ++round) {
        auto fbits = static_cast<std::uint32_t>(rng());
        std::uint64_t dbits = rng();
#if defined(__i386__) && !defined(__SSE2_MATH__)
        // x87: the compiler quiets a signaling NaN whenever a value passes through an
        // FPU register (in this test's code as anywhere), so only quiet NaNs here.
        if ((fbits & 0x7F800000u) == 0x7F800000u && (fbits & 0x007FFFFFu) != 0) fbits |= 0x00400000u;
        if ((dbits & 0x7FF0000000000000u) == 0x7FF0000000000000u && (dbits & 0x000FFFFFFFFFFFFFu) != 0)
            dbits |= 0x0008000000000000u;
#endif
        const int skew = static_cast<int>(rng() % 8);
        std::array<std::byte, 16> buffer{};
        netser::write_stream w(buffer);
        std::uint8_t pad = 0;
        // memcpy, not bit_cast: on x87 a double value may pass through an FPU register,
        // which quiets a signaling NaN before netser ever sees it.
        float f = 0.f;
        double d = 0.0;
        std::memcpy(&f, &fbits, sizeof f);
        std::memcpy(&d, &dbits, sizeof d);
        REQUIRE(netser::serialize_bits(w, pad, skew));
        REQUIRE(netser::serialize_float(w, f));
        REQUIRE(netser::serialize_double(w, d));
        const exact_block block(w.finish());
        netser::read_stream r(block.span());
        float f2 = 0.f;
        double d2 = 0.0;
        REQUIRE(netser::serialize_bits(r, pad, skew));
        REQUIRE(netser::serialize_float(r, f2));
        REQUIRE(netser::serialize_double(r, d2));
        std::uint32_t fbits2 = 0;
        std::uint64_t dbits2 = 0;
        std::memcpy(&fbits2, &f2, sizeof f2);
        std::memcpy(&dbits2, &d2, sizeof d2);
        CHECK(fbits2 == fbits);
        CHECK(dbits2 == dbits);
    }
}

// --- serialize_align --------------------------------------------------------------

TEST_CASE("serialize_align pads with zero bits to the next byte boundary", "[primitives][align]") {
    check_golden(
        "01 01",
        [](auto& s, std::uint8_t& a, std::uint8_t& b) {
            return netser::serialize_bits(s, a, 1) && netser::serialize_align(s) && netser::serialize_bits(s, b, 1);
        },
        std::uint8_t{1}, std::uint8_t{1});
    check_golden("05", [](auto& s, std::uint8_t& a) { return netser::serialize_bits(s, a, 3) && netser::serialize_align(s); },
                 std::uint8_t{5});
    check_golden("", [](auto& s) { return netser::serialize_align(s); });
    check_golden("AB", [](auto& s, std::uint8_t& a) { return netser::serialize_bits(s, a, 8) && netser::serialize_align(s); },
                 std::uint8_t{0xAB});
}

TEST_CASE("serialize_align refuses non-zero padding with invalid_value", "[primitives][align]") {
    for (int used = 1; used < 8; ++used) {
        for (int pad_bit = used; pad_bit < 8; ++pad_bit) {
            const auto byte = static_cast<std::byte>(1u << pad_bit);
            std::uint8_t v = 0;
            INFO("after " << used << " bits, padding bit " << pad_bit << " set");
            const auto e = read_hex(hex(std::array{byte}), [&](auto& s) {
                return netser::serialize_bits(s, v, used) && netser::serialize_align(s);
            });
            CHECK(e.code == errc::invalid_value);
            CHECK(e.bit == static_cast<std::size_t>(used));
        }
    }
}

// --- serialize_bytes --------------------------------------------------------------

TEST_CASE("serialize_bytes aligns, then copies the bytes verbatim", "[primitives][bytes]") {
    using four = std::array<std::byte, 4>;
    using two = std::array<std::byte, 2>;
    using none = std::array<std::byte, 0>;
    check_golden("DE AD BE EF", [](auto& s, four& b) { return netser::serialize_bytes(s, std::span<std::byte>(b)); },
                 four{std::byte{0xDE}, std::byte{0xAD}, std::byte{0xBE}, std::byte{0xEF}});
    check_golden(
        "01 DE AD",
        [](auto& s, std::uint8_t& a, two& b) {
            return netser::serialize_bits(s, a, 1) && netser::serialize_bytes(s, std::span<std::byte>(b));
        },
        std::uint8_t{1}, two{std::byte{0xDE}, std::byte{0xAD}});
    check_golden(
        "05",
        [](auto& s, std::uint8_t& a, none& b) {
            return netser::serialize_bits(s, a, 3) && netser::serialize_bytes(s, std::span<std::byte>(b));
        },
        std::uint8_t{5}, none{});
}

TEST_CASE("serialize_bytes takes constant data when writing", "[primitives][bytes]") {
    const std::array<std::byte, 2> data{std::byte{0xDE}, std::byte{0xAD}};
    std::array<std::byte, 4> buffer{};
    netser::write_stream w(buffer);
    bool b = true;
    REQUIRE(netser::serialize_bool(w, b));
    REQUIRE(netser::serialize_bytes(w, std::span<const std::byte>(data)));
    CHECK(hex(w.finish()) == "01 DE AD");
    netser::measure_stream m;
    REQUIRE(netser::serialize_bytes(m, std::span<const std::byte>(data)));
    CHECK(m.bits_processed() == 16);
}

TEST_CASE("serialize_bytes round trips random blocks at random bit offsets", "[primitives][bytes]") {
    std::mt19937_64 rng(35);
    for (int round = 0; round < 3000; ++round) {
        const int skew = static_cast<int>(rng() % 20);
        auto block = random_bytes(rng, static_cast<std::size_t>(rng() % 40));
        std::vector<std::byte> buffer(64);
        netser::write_stream w(buffer.data(), buffer.size());
        std::uint32_t pre = static_cast<std::uint32_t>(rng() & low_mask(skew));
        REQUIRE(netser::serialize_bits(w, pre, skew));
        REQUIRE(netser::serialize_bytes(w, std::span<std::byte>(block)));
        reference_writer ref;
        ref.put(pre, skew);
        ref.align();
        ref.put_bytes(block);
        const auto packet = w.finish();
        REQUIRE(std::vector<std::byte>(packet.begin(), packet.end()) == ref.bytes());
        const exact_block in(packet);
        netser::read_stream r(in.span());
        std::vector<std::byte> got(block.size());
        std::uint32_t pre2 = 0;
        REQUIRE(netser::serialize_bits(r, pre2, skew));
        REQUIRE(netser::serialize_bytes(r, std::span<std::byte>(got)));
        CHECK(got == block);
        CHECK(r.bits_processed() == ref.bits());
    }
}

TEST_CASE("serialize_bytes refuses non-zero padding and a block past the end", "[primitives][bytes]") {
    std::array<std::byte, 2> got{};
    auto codec = [&](auto& s) {
        std::uint8_t pre = 0;
        return netser::serialize_bits(s, pre, 4) && netser::serialize_bytes(s, std::span<std::byte>(got));
    };
    CHECK(read_hex("0A AB CD", codec).code == errc::none);
    CHECK(got == std::array{std::byte{0xAB}, std::byte{0xCD}});
    const auto padding = read_hex("FA AB CD", codec);
    CHECK(padding.code == errc::invalid_value);
    CHECK(padding.bit == 4);
    const auto short_packet = read_hex("0A AB", codec);
    CHECK(short_packet.code == errc::overflow);
    CHECK(short_packet.bit == 4);
    // The align reaches the end exactly and nothing is left for the byte.
    std::array<std::byte, 1> one{};
    const auto at_end = read_hex("01", [&](auto& s) {
        std::uint8_t pre = 0;
        return netser::serialize_bits(s, pre, 1) && netser::serialize_bytes(s, std::span<std::byte>(one));
    });
    CHECK(at_end.code == errc::overflow);
    CHECK(at_end.bit == 1);
}

// --- serialize_string -------------------------------------------------------------

TEST_CASE("serialize_string writes the golden vectors", "[primitives][string]") {
    auto with_max = [](std::size_t max_length) {
        return [max_length](auto& s, std::string& v) { return netser::serialize_string(s, v, max_length); };
    };
    check_golden("06 67 6F 6C 64 65 6E", with_max(15), std::string("golden"));
    check_golden("00", with_max(15), std::string());
    check_golden("04 74 65 73 74", with_max(7), std::string("test"));
    check_golden("", with_max(0), std::string());
    check_golden(
        "05 68 69",
        [](auto& s, bool& b, std::string& v) { return netser::serialize_bool(s, b) && netser::serialize_string(s, v, 16); },
        true, std::string("hi"));
}

TEST_CASE("serialize_raw_string round trips random strings, any bytes included", "[primitives][string]") {
    std::mt19937_64 rng(36);
    for (int round = 0; round < 3000; ++round) {
        const std::size_t max_length = static_cast<std::size_t>(rng() % 300);
        std::string text(static_cast<std::size_t>(rng() % (max_length + 1)), '\0');
        for (auto& c : text) c = static_cast<char>(rng() & 0xFFu); // NULs and bytes above 0x7F too
        const int skew = static_cast<int>(rng() % 9);
        std::vector<std::byte> buffer(400);
        netser::write_stream w(buffer.data(), buffer.size());
        std::uint16_t pre = 0;
        REQUIRE(netser::serialize_bits(w, pre, skew));
        REQUIRE(netser::serialize_raw_string(w, text, max_length));
        reference_writer ref;
        ref.put(0, skew);
        ref.put(text.size(), oracle_bits(max_length));
        ref.align();
        for (const char c : text) ref.put(static_cast<unsigned char>(c), 8);
        const auto packet = w.finish();
        REQUIRE(std::vector<std::byte>(packet.begin(), packet.end()) == ref.bytes());
        const exact_block in(packet);
        netser::read_stream r(in.span());
        std::string got = "previous contents";
        REQUIRE(netser::serialize_bits(r, pre, skew));
        REQUIRE(netser::serialize_raw_string(r, got, max_length));
        CHECK(got == text);
    }
}

TEST_CASE("serialize_string refuses to write a string longer than its maximum, writing nothing",
          "[primitives][string]") {
    std::array<std::byte, 32> buffer{};
    netser::write_stream w(buffer);
    std::uint8_t pre = 0x5;
    std::string text = "seventeen chars!!";
    REQUIRE(netser::serialize_bits(w, pre, 3));
    CHECK_FALSE(netser::serialize_string(w, text, 16));
    CHECK(w.error().code == errc::too_large);
    CHECK(w.error().bit == 3);
    CHECK(w.bits_processed() == 3);
    CHECK(hex(w.finish()) == "05");
    netser::measure_stream m;
    CHECK_FALSE(netser::serialize_string(m, text, 16));
    CHECK(m.error().code == errc::too_large);
}

TEST_CASE("serialize_string refuses a forged length above its maximum with too_large", "[primitives][string]") {
    // max length 10: 4 bits, so lengths 11..15 can be forged.
    for (unsigned length = 11; length < 16; ++length) {
        reference_writer ref;
        ref.put(length, 4);
        ref.align();
        for (unsigned i = 0; i < length; ++i) ref.put('a', 8);
        std::string got = "keep";
        const auto e = read_ref(ref, [&](auto& s) { return netser::serialize_string(s, got, 10); });
        CHECK(e.code == errc::too_large);
        CHECK(e.bit == 0);
        CHECK(got == "keep");
    }
    std::string got;
    CHECK(read_hex("0A 31 32 33 34 35 36 37 38 39 30", [&](auto& s) { return netser::serialize_string(s, got, 10); })
              .code == errc::none);
    CHECK(got == "1234567890");
}

TEST_CASE("serialize_string refuses a length larger than what is left with overflow, before allocating",
          "[primitives][string]") {
    SECTION("a few bytes short") {
        std::string got = "keep";
        const auto e = read_hex("06 67 6F 6C", [&](auto& s) { return netser::serialize_string(s, got, 15); });
        CHECK(e.code == errc::overflow);
        CHECK(e.bit == 0);
        CHECK(got == "keep");
    }
    SECTION("a huge length that resize() could not even allocate") {
        // max_length = SIZE_MAX: the length field is as wide as size_t; the forged length
        // is far above std::string::max_size(), so resizing first would throw.
        constexpr std::size_t huge = std::numeric_limits<std::size_t>::max();
        const int bits = std::numeric_limits<std::size_t>::digits;
        reference_writer ref;
        ref.put(huge - 1, bits);
        ref.align();
        ref.put(0x41, 8);
        std::string got = "keep";
        const auto capacity = got.capacity();
        const auto e = read_ref(ref, [&](auto& s) { return netser::serialize_string(s, got, huge); });
        CHECK(e.code == errc::overflow);
        CHECK(got == "keep");
        CHECK(got.capacity() == capacity);
    }
    SECTION("the align reaches the end") {
        std::string got;
        const auto e = read_hex("01", [&](auto& s) { return netser::serialize_string(s, got, 15); });
        CHECK(e.code == errc::overflow);
    }
}

TEST_CASE("serialize_string refuses non-zero padding", "[primitives][string]") {
    std::string got;
    CHECK(read_hex("01 41", [&](auto& s) { return netser::serialize_string(s, got, 15); }).code == errc::none);
    CHECK(got == "A");
    const auto e = read_hex("F1 41", [&](auto& s) { return netser::serialize_string(s, got, 15); });
    CHECK(e.code == errc::invalid_value);
    CHECK(e.bit == 0);
}

// --- serialize_check --------------------------------------------------------------

TEST_CASE("serialize_check aligns and writes its 32-bit magic", "[primitives][check]") {
    check_golden("78 56 34 12", [](auto& s) { return netser::serialize_check(s, 0x12345678u); });
    check_golden("05 78 56 34 12",
                 [](auto& s, std::uint8_t& a) { return netser::serialize_bits(s, a, 3) && netser::serialize_check(s, 0x12345678u); },
                 std::uint8_t{5});
}

TEST_CASE("serialize_check fails with check_failed when the magic differs", "[primitives][check]") {
    auto codec = [](std::uint32_t magic) {
        return [magic](auto& s) {
            std::uint8_t a = 0;
            return netser::serialize_bits(s, a, 3) && netser::serialize_check(s, magic);
        };
    };
    CHECK(read_hex("05 78 56 34 12", codec(0x12345678u)).code == errc::none);
    for (int bit = 0; bit < 32; ++bit) {
        const auto e = read_hex("05 78 56 34 12", codec(0x12345678u ^ (1u << bit)));
        CHECK(e.code == errc::check_failed);
        CHECK(e.bit == 3);
    }
    CHECK(read_hex("05 78 56 34", codec(0x12345678u)).code == errc::overflow);
    CHECK(read_hex("85 78 56 34 12", codec(0x12345678u)).code == errc::invalid_value);
}

// --- a packet of every primitive, and every truncation of it ------------------------

namespace {

struct mixed {
    int health = -37;
    bool alive = true;
    float x = 123.45f;
    std::uint8_t tag = 0x2A;
    std::string name = "netser";
    float speed = -2.5f;
    std::int64_t big = -1;
    bool last = true;
};

constexpr const char* mixed_golden = "3F B3 6D 53 19 6E 65 74 73 65 72 00 00 20 C0 FF FF FF FF FF FF FF 7F 73 74 65 6E 01";

// Runs the packet's primitives; `starts` gets the first bit of each (and the end).
template <class S>
bool serialize_mixed(S& s, mixed& m, std::vector<std::size_t>* starts = nullptr) {
    auto mark = [&] {
        if (starts) starts->push_back(s.bits_processed());
        return true;
    };
    return mark() && netser::serialize_int(s, m.health, -100, 100) && mark() && netser::serialize_bool(s, m.alive) &&
           mark() && netser::serialize_quantized(s, m.x, -1000.f, 1000.f, 0.01f) && mark() &&
           netser::serialize_bits(s, m.tag, 7) && mark() && netser::serialize_string(s, m.name, 31) && mark() &&
           netser::serialize_float(s, m.speed) && mark() &&
           netser::serialize_int(s, m.big, int64_min, int64_max) && mark() && netser::serialize_check(s, 0x6E657473u) &&
           mark() && netser::serialize_bool(s, m.last) && mark();
}

} // namespace

TEST_CASE("a packet of many primitives writes its golden vector and reads back", "[primitives][packet]") {
    mixed in;
    std::array<std::byte, 64> buffer{};
    netser::write_stream w(buffer);
    REQUIRE(serialize_mixed(w, in));
    CHECK(w.bits_processed() == 217);
    CHECK(hex(w.finish()) == mixed_golden);
    netser::measure_stream m;
    REQUIRE(serialize_mixed(m, in));
    CHECK(m.bits_processed() == 217);

    mixed out{0, false, 0.f, 0, "", 0.f, 0, false};
    CHECK(read_hex(mixed_golden, [&](auto& s) { return serialize_mixed(s, out); }).code == errc::none);
    CHECK(out.health == -37);
    CHECK(out.alive);
    CHECK(std::fabs(out.x - 123.45f) <= 0.005f);
    CHECK(out.tag == 0x2A);
    CHECK(out.name == "netser");
    CHECK(out.speed == -2.5f);
    CHECK(out.big == -1);
    CHECK(out.last);
}

TEST_CASE("every truncation of a valid packet fails with overflow at the first value that does not fit",
          "[primitives][packet]") {
    const auto full = unhex(mixed_golden);
    std::vector<std::size_t> starts;
    {
        mixed m;
        netser::measure_stream ms;
        REQUIRE(serialize_mixed(ms, m, &starts));
    }
    for (std::size_t cut = 0; cut < full.size(); ++cut) {
        // The first value that ends past the cut.
        std::size_t expected = 0;
        for (std::size_t i = 0; i + 1 < starts.size(); ++i)
            if (starts[i + 1] > cut * 8) {
                expected = starts[i];
                break;
            }
        const exact_block packet(std::span<const std::byte>(full.data(), cut));
        netser::read_stream r(packet.data(), packet.size());
        mixed out;
        INFO("packet cut to " << cut << " bytes");
        CHECK_FALSE(serialize_mixed(r, out));
        CHECK(r.error().code == errc::overflow);
        CHECK(r.error().bit == expected);
    }
}

TEST_CASE("every bit-level truncation of a valid packet fails cleanly", "[primitives][packet]") {
    const auto full = unhex(mixed_golden);
    const std::size_t total_bits = 217;
    for (std::size_t keep = 0; keep < total_bits; ++keep) {
        // The first `keep` bits, in as many bytes as they need, later bits zero.
        std::vector<std::byte> bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>((keep + 7) / 8));
        if (keep % 8 != 0) bytes.back() &= static_cast<std::byte>((1u << (keep % 8)) - 1u);
        const exact_block packet(bytes);
        netser::read_stream r(packet.span());
        mixed out;
        INFO("first " << keep << " bits");
        CHECK_FALSE(serialize_mixed(r, out));
        CHECK(r.error());
        CHECK(r.error().bit <= packet.size() * 8);
        CHECK(r.bits_processed() <= packet.size() * 8);
    }
}

TEST_CASE("flipping any bit of a valid packet reads cleanly or fails cleanly", "[primitives][packet]") {
    const auto full = unhex(mixed_golden);
    int failures = 0;
    for (std::size_t bit = 0; bit < full.size() * 8; ++bit) {
        auto bytes = full;
        bytes[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        const exact_block packet(bytes);
        netser::read_stream r(packet.span());
        mixed out;
        const bool ok = serialize_mixed(r, out);
        CHECK(ok == !r.error());
        if (!ok) ++failures;
    }
    CHECK(failures > 0); // e.g. every flip inside the check magic
}

TEST_CASE("random garbage packets never crash the reader", "[primitives][packet]") {
    std::mt19937_64 rng(37);
    for (int round = 0; round < 20000; ++round) {
        const exact_block packet(random_bytes(rng, static_cast<std::size_t>(rng() % 40)));
        netser::read_stream r(packet.span());
        mixed out;
        const bool ok = serialize_mixed(r, out);
        CHECK(ok == !r.error());
        CHECK(out.name.size() <= 31);
        CHECK(r.bits_processed() <= packet.size() * 8);
    }
}

TEST_CASE("the hostile packets of the wire format document fail as documented", "[primitives][hostile]") {
    struct hostile {
        const char* packet;
        errc code;
        std::size_t bit;
        bool (*read)(netser::read_stream&);
    };
    const std::array<hostile, 21> cases{{
        {"", errc::overflow, 0, [](netser::read_stream& s) { int v = 0; return netser::serialize_int(s, v, 0, 1); }},
        {"09", errc::out_of_range, 0, [](netser::read_stream& s) { int v = 0; return netser::serialize_int(s, v, 0, 8); }},
        {"7D", errc::out_of_range, 3,
         [](netser::read_stream& s) {
             int a = 0, b = 0;
             return netser::serialize_int(s, a, 0, 7) && netser::serialize_int(s, b, 0, 8);
         }},
        {"FF 01", errc::out_of_range, 0,
         [](netser::read_stream& s) { std::uint8_t v = 0; return netser::serialize_bits(s, v, 9); }},
        {"FF", errc::invalid_value, 1,
         [](netser::read_stream& s) { bool b = false; return netser::serialize_bool(s, b) && netser::serialize_align(s); }},
        {"FA AB CD", errc::invalid_value, 4,
         [](netser::read_stream& s) {
             std::uint8_t pre = 0;
             std::array<std::byte, 2> b{};
             return netser::serialize_bits(s, pre, 4) && netser::serialize_bytes(s, std::span<std::byte>(b));
         }},
        {"0A AB", errc::overflow, 4,
         [](netser::read_stream& s) {
             std::uint8_t pre = 0;
             std::array<std::byte, 2> b{};
             return netser::serialize_bits(s, pre, 4) && netser::serialize_bytes(s, std::span<std::byte>(b));
         }},
        {"01", errc::overflow, 1,
         [](netser::read_stream& s) {
             std::uint8_t pre = 0;
             std::array<std::byte, 1> b{};
             return netser::serialize_bits(s, pre, 1) && netser::serialize_bytes(s, std::span<std::byte>(b));
         }},
        {"0B", errc::too_large, 0,
         [](netser::read_stream& s) { std::string v; return netser::serialize_string(s, v, 10); }},
        {"F1 41", errc::invalid_value, 0,
         [](netser::read_stream& s) { std::string v; return netser::serialize_string(s, v, 15); }},
        {"06 67 6F 6C", errc::overflow, 0,
         [](netser::read_stream& s) { std::string v; return netser::serialize_string(s, v, 15); }},
        {"01 00", errc::invalid_value, 0,
         [](netser::read_stream& s) { std::string v; return netser::serialize_string(s, v, 15); }},
        {"01 80", errc::invalid_value, 0,
         [](netser::read_stream& s) { std::string v; return netser::serialize_string(s, v, 15); }},
        {"02 C0 80", errc::invalid_value, 0,
         [](netser::read_stream& s) { std::string v; return netser::serialize_string(s, v, 15); }},
        {"03 ED A0 80", errc::invalid_value, 0,
         [](netser::read_stream& s) { std::string v; return netser::serialize_string(s, v, 15); }},
        {"05 78 56 34 12", errc::check_failed, 3,
         [](netser::read_stream& s) {
             std::uint8_t pre = 0;
             return netser::serialize_bits(s, pre, 3) && netser::serialize_check(s, 0x12345679u);
         }},
        {"E9 03", errc::out_of_range, 0,
         [](netser::read_stream& s) { float v = 0.f; return netser::serialize_quantized(s, v, 0.f, 10.f, 0.01f); }},
        {"FF", errc::overflow, 0,
         [](netser::read_stream& s) { float v = 0.f; return netser::serialize_quantized(s, v, 0.f, 10.f, 0.01f); }},
        {"0E", errc::out_of_range, 0,
         [](netser::read_stream& s) { int p = -1, c = 0; return netser::serialize_relative_index(s, p, c, 3); }},
        {"00 13", errc::out_of_range, 0,
         [](netser::read_stream& s) { int p = -1, c = 0; return netser::serialize_relative_index(s, p, c, 200); }},
        {"00", errc::out_of_range, 0,
         [](netser::read_stream& s) { int p = -1, c = 0; return netser::serialize_relative_index(s, p, c, 100); }},
    }};
    for (const auto& h : cases) {
        INFO("packet " << h.packet << " (" << netser::to_string(h.code) << " expected)");
        const exact_block packet(unhex(h.packet));
        netser::read_stream r(packet.data(), packet.size());
        CHECK_FALSE(h.read(r));
        CHECK(r.error().code == h.code);
        CHECK(r.error().bit == h.bit);
    }
}

TEST_CASE("serialize_bytes takes mutable and const byte containers alike", "[primitives][bytes]") {
    std::vector<std::byte> mutable_bytes{std::byte{0x11}, std::byte{0x22}};
    const std::vector<std::byte> const_bytes{std::byte{0x33}};
    std::byte buffer[8]{};
    netser::write_stream w(buffer);
    REQUIRE(netser::serialize_bytes(w, mutable_bytes));
    REQUIRE(netser::serialize_bytes(w, const_bytes));
    const auto out = w.finish();
    REQUIRE(out.size() == 3);
    CHECK(out[0] == std::byte{0x11});
    CHECK(out[1] == std::byte{0x22});
    CHECK(out[2] == std::byte{0x33});
}
