// encodings/scalar.hpp: bool, integers and floats, with range / bits / quantize / common /
// finite. The family's tests, one file (tests/encodings/README.md has the whole table).
//
// Where each aspect is covered:
//   wire bits     here: golden hex and bit counts of bool, integers of every width, raw
//                 float / double, range, bits, quantize, common and finite ("... sends ...");
//                 tests/hostile/golden_test.cpp (every packet type, on every host).
//   model         here: "range, bits, bool and quantize codes match a model written from the
//                 annotations" (reference_writer); the round trips of every value of a range,
//                 of random values of every width, of quantize within half a step, of common.
//   bounds        here: "max_bits of scalar members is the sum of the annotations' widths...";
//                 tests/reflect/bounds_test.cpp (Scalars, Attributed); max_delta_bits:
//                 tests/delta/delta_golden_test.cpp.
//   hostile       here: every [hostile] case (codes above a range or max_int, common indices past
//                 the end, cut packets at every byte, NaN / infinities); tests/hostile/ranges_test.cpp,
//                 floats_test.cpp, truncation_test.cpp, bitflip_test.cpp.
//   compile-fail  tests/compile_fail/, one per mistake (reflect/netser/detail/struct_macros.hpp):
//                 bool_attribute range_on_bool.cpp; integer_attribute quantize_on_int.cpp,
//                 quantize_on_int_struct.cpp; range range_does_not_fit.cpp; bits bits_too_wide.cpp;
//                 common common_not_representable.cpp; float_attribute range_on_float.cpp;
//                 quantize_type quantize_on_double.cpp; quantize quantize_bad_parameters.cpp;
//                 long_double long_double_member.cpp; delta_ladder delta_ladder_not_increasing.cpp.

#include "reflect/test_types.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <variant>
#include <vector>

// ==========================================================================================
// From tests/reflect/integers_test.cpp
// ==========================================================================================
// encodings/scalar.hpp, integers and bools: default encodings (bool 1 bit, integers their full
// width in two's complement) and range over the whole 64-bit span.

namespace integers {

using netser::errc;
using namespace reflect_test;

namespace integers_test {

struct AllInts {
    std::int8_t a = 0;
    std::uint8_t b = 0;
    std::int16_t c = 0;
    std::uint16_t d = 0;
    std::int32_t e = 0;
    std::uint32_t f = 0;
    std::int64_t g = 0;
    std::uint64_t h = 0;
    bool operator==(const AllInts&) const = default;
};
NETSER_STRUCT(AllInts, a, b, c, d, e, f, g, h)

struct Flags {
    bool a = false, b = false, c = false;
    bool operator==(const Flags&) const = default;
};
NETSER_STRUCT(Flags, a, b, c)

struct Unaligned {
    bool flag = false;
    std::int16_t v = 0;
    bool operator==(const Unaligned&) const = default;
};
NETSER_STRUCT(Unaligned, flag, v)

struct Chars {
    char c = 0;
    signed char sc = 0;
    unsigned char uc = 0;
    char16_t c16 = 0;
    bool operator==(const Chars&) const = default;
};
NETSER_STRUCT(Chars, c, sc, uc, c16)

// The whole int64 range (64 bits) and the top half of the uint64 range (63 bits).
struct Wide {
    std::int64_t a = 0;
    std::uint64_t b = std::uint64_t{1} << 63;
    bool operator==(const Wide&) const = default;
};
NETSER_STRUCT(Wide,
    (a, netser::range(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max())),
    (b, netser::range(std::uint64_t{1} << 63, std::numeric_limits<std::uint64_t>::max())))

struct Small {
    std::int8_t v = 0;
    bool operator==(const Small&) const = default;
};
NETSER_STRUCT(Small, (v, netser::range(-100, 100)))

struct Degenerate {
    int constant = 7;
    bool after = false;
    bool operator==(const Degenerate&) const = default;
};
NETSER_STRUCT(Degenerate, (constant, netser::range(7, 7)), after)

template <class T>
T random_int(std::mt19937_64& rng) {
    using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    return static_cast<T>(std::uniform_int_distribution<W>(std::numeric_limits<T>::min(), std::numeric_limits<T>::max())(rng));
}

} // namespace integers_test

using namespace integers_test;

TEST_CASE("bool members take one bit each", "[integers][bool]") {
    CHECK(write(Flags{true, false, true}).hex == "05");
    CHECK(write(Flags{true, false, true}).bits == 3);
    for (int i = 0; i < 8; ++i) {
        const Flags v{(i & 1) != 0, (i & 2) != 0, (i & 4) != 0};
        CHECK(round_trip(v) == v);
    }
    Flags f;
    CHECK(failure_of(read_hex("", f)) == fail(errc::overflow, 0, "Flags.a"));
}

TEST_CASE("integers of every width default to their full width in two's complement", "[integers]") {
    const AllInts v{-1, 0x12, -2, 0x3456, -3, 0x789ABCDE, -4, 0x0123456789ABCDEF};
    CHECK(write(v).hex == "FF 12 FE FF 56 34 FD FF FF FF DE BC 9A 78 FC FF FF FF FF FF FF FF EF CD AB 89 67 45 23 01");
    CHECK(write(v).bits == 8 + 8 + 16 + 16 + 32 + 32 + 64 + 64);
    AllInts r;
    REQUIRE_FALSE(read_hex("FF 12 FE FF 56 34 FD FF FF FF DE BC 9A 78 FC FF FF FF FF FF FF FF EF CD AB 89 67 45 23 01", r));
    CHECK(r == v);
}

TEST_CASE("integers of every width round-trip their extremes and random values", "[integers]") {
    const AllInts lo{INT8_MIN, 0, INT16_MIN, 0, INT32_MIN, 0, INT64_MIN, 0};
    const AllInts hi{INT8_MAX, UINT8_MAX, INT16_MAX, UINT16_MAX, INT32_MAX, UINT32_MAX, INT64_MAX, UINT64_MAX};
    CHECK(round_trip(lo) == lo);
    CHECK(round_trip(hi) == hi);
    std::mt19937_64 rng(11);
    for (int i = 0; i < 500; ++i) {
        const AllInts v{random_int<std::int8_t>(rng),  random_int<std::uint8_t>(rng),  random_int<std::int16_t>(rng),
                        random_int<std::uint16_t>(rng), random_int<std::int32_t>(rng), random_int<std::uint32_t>(rng),
                        random_int<std::int64_t>(rng), random_int<std::uint64_t>(rng)};
        CHECK(round_trip(v) == v);
    }
}

TEST_CASE("an integer after a bool straddles the byte boundary LSB first", "[integers]") {
    // flag 1 in bit 0, then 0xFFFE in bits 1-16.
    CHECK(write(Unaligned{true, -2}).hex == "FD FF 01");
    CHECK(write(Unaligned{true, -2}).bits == 17);
    CHECK(round_trip(Unaligned{false, INT16_MIN}) == Unaligned{false, INT16_MIN});
}

TEST_CASE("character types are integers of their width", "[integers]") {
    const Chars v{'A', -2, 0xFE, u'\x1234'};
    CHECK(write(v).hex == "41 FE FE 34 12");
    CHECK(round_trip(v) == v);
}

TEST_CASE("range covers the whole 64-bit span of signed and unsigned types", "[integers][range]") {
    // a -1 -> code 2^63 - 1 in 64 bits; b 2^63 + 5 -> code 5 in 63 bits.
    const Wide v{-1, (std::uint64_t{1} << 63) + 5};
    CHECK(write(v).hex == "FF FF FF FF FF FF FF 7F 05 00 00 00 00 00 00 00");
    CHECK(write(v).bits == 127);
    CHECK(round_trip(Wide{INT64_MIN, UINT64_MAX}) == Wide{INT64_MIN, UINT64_MAX});
    CHECK(round_trip(Wide{INT64_MAX, std::uint64_t{1} << 63}) == Wide{INT64_MAX, std::uint64_t{1} << 63});
    CHECK(failure_of(write_error(Wide{0, 5})) == fail(errc::out_of_range, 64, "Wide.b"));
}

TEST_CASE("range on an int8 rejects every code above its span", "[integers][range][hostile]") {
    CHECK(to_hex(Small{-37}) == "3F");
    for (int v = -100; v <= 100; ++v) CHECK(round_trip(Small{static_cast<std::int8_t>(v)}).v == v);
    for (unsigned code = 0; code < 256; ++code) {
        Small s;
        const std::byte packet[1] = {static_cast<std::byte>(code)};
        const netser::error e = read_bytes(packet, s);
        if (code <= 200) {
            CHECK_FALSE(e);
            CHECK(s.v == static_cast<int>(code) - 100);
        } else {
            CHECK(failure_of(e) == fail(errc::out_of_range, 0, "Small.v"));
        }
    }
    CHECK(failure_of(write_error(Small{-101})) == fail(errc::out_of_range, 0, "Small.v"));
}

TEST_CASE("a range with min == max takes no bits", "[integers][range]") {
    CHECK(write(Degenerate{7, true}).hex == "01");
    CHECK(write(Degenerate{7, true}).bits == 1);
    Degenerate d{0, false};
    REQUIRE_FALSE(read_hex("01", d));
    CHECK(d == Degenerate{7, true});
    CHECK(failure_of(write_error(Degenerate{8, true})) == fail(errc::out_of_range, 0, "Degenerate.constant"));
}

TEST_CASE("a truncated integer fails with overflow at its first bit", "[integers][hostile]") {
    const auto bytes = unhex("FF 12 FE FF 56 34 FD FF FF FF DE BC 9A 78 FC FF FF FF FF FF FF FF EF CD AB 89 67 45 23 01");
    const char* names[] = {"a", "b", "c", "c", "d", "d", "e", "e", "e", "e", "f", "f", "f", "f", "g",
                           "g", "g", "g", "g", "g", "g", "g", "h", "h", "h", "h", "h", "h", "h", "h"};
    const std::size_t starts[] = {0, 8, 16, 16, 32, 32, 48, 48, 48, 48, 80, 80, 80, 80, 112,
                                  112, 112, 112, 112, 112, 112, 112, 176, 176, 176, 176, 176, 176, 176, 176};
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        AllInts r;
        const netser::error e = read_bytes(std::span(bytes).first(n), r);
        INFO("packet cut to " << n << " bytes");
        CHECK(failure_of(e) == fail(errc::overflow, starts[n], std::string("AllInts.") + names[n]));
    }
}

} // namespace integers

// ==========================================================================================
// From tests/reflect/floats_test.cpp
// ==========================================================================================
// encodings/scalar.hpp, floats: raw float (32 bits) and double (64 bits), bit-exact; quantized
// floats (the attribute itself: the attributes_test.cpp section below); common on floats.

namespace floats {

using netser::errc;
using namespace reflect_test;

namespace floats_test {

struct Raw {
    float f = 0;
    double d = 0;
};
NETSER_STRUCT(Raw, f, d)

struct UnalignedRaw {
    bool flag = false;
    float f = 0;
    double d = 0;
};
NETSER_STRUCT(UnalignedRaw, flag, f, d)

struct Position {
    float x = 0;
    float y = 0;
};
NETSER_STRUCT(Position, (x, netser::quantize(-2000.f, 2000.f, 0.1f)), (y, netser::quantize(-1000.f, 1000.f, 0.01f)))

/// Raw floats in every container: each element goes through its own code path.
struct FloatShapes {
    float f = 0;
    double d = 0;
    std::array<float, 3> a{};
    std::vector<double> v;
    std::optional<float> o;
    std::variant<float, double> x;
};
NETSER_STRUCT(FloatShapes, f, d, a, (v, netser::max_size(4)), o, x)

/// Every float and double of s set to the float bits fb or the double bits db.
FloatShapes shapes_of(std::uint32_t fb, std::uint64_t db, bool double_alternative) {
    const float f = std::bit_cast<float>(fb);
    const double d = std::bit_cast<double>(db);
    FloatShapes s{f, d, {f, f, f}, {d, d}, f, {}};
    if (double_alternative) s.x = d;
    else s.x = f;
    return s;
}

} // namespace floats_test

using namespace floats_test;

TEST_CASE("float and double members are sent as their raw IEEE bits", "[floats]") {
    // 1.0f = 0x3F800000; 1/3 = 0x3FD5555555555555.
    CHECK(write(Raw{1.f, 1.0 / 3.0}).hex == "00 00 80 3F 55 55 55 55 55 55 D5 3F");
    CHECK(write(Raw{1.f, 1.0 / 3.0}).bits == 96);
    Raw r;
    REQUIRE_FALSE(read_hex("00 00 80 3F 55 55 55 55 55 55 D5 3F", r));
    CHECK(r.f == 1.f);
    CHECK(r.d == 1.0 / 3.0);
}

TEST_CASE("raw floats after a bool are shifted by one bit", "[floats]") {
    // flag 1 in bit 0; -0.0f (sign bit only) in bits 1-32; -2.0 (0xC000000000000000) in bits 33-96.
    CHECK(write(UnalignedRaw{true, -0.f, -2.0}).hex == "01 00 00 00 01 00 00 00 00 00 00 80 01");
    CHECK(write(UnalignedRaw{true, -0.f, -2.0}).bits == 97);
}

TEST_CASE("raw floats round-trip bit-exactly, NaN payloads and infinities included", "[floats]") {
    const std::uint32_t floats[] = {0x7FC00001u, 0x7F800001u, 0x7F800000u, 0xFF800000u, 0x80000000u, 0x00000001u};
    const std::uint64_t doubles[] = {0x7FF8000000000001u, 0x7FF0000000000001u, 0xFFF0000000000000u,
                                     0x8000000000000000u, 0x0000000000000001u, 0x0000000089ABCDEFu};
    for (std::size_t i = 0; i < 6; ++i) {
        const UnalignedRaw v{true, std::bit_cast<float>(floats[i]), std::bit_cast<double>(doubles[i])};
        const UnalignedRaw r = round_trip(v);
        CHECK(std::bit_cast<std::uint32_t>(r.f) == floats[i]);
        CHECK(std::bit_cast<std::uint64_t>(r.d) == doubles[i]);
    }
    std::mt19937 rng(21);
    for (int i = 0; i < 500; ++i) {
        const auto fbits = static_cast<std::uint32_t>(rng());
        const auto dbits = (std::uint64_t{rng()} << 32) | rng();
        const Raw r = round_trip(Raw{std::bit_cast<float>(fbits), std::bit_cast<double>(dbits)});
        CHECK(std::bit_cast<std::uint32_t>(r.f) == fbits);
        CHECK(std::bit_cast<std::uint64_t>(r.d) == dbits);
    }
}

TEST_CASE("raw floats in containers keep the sign of zero and NaN payloads, read fresh or over equal values",
          "[floats]") {
    // Pairs that compare equal with other bits (+0, -0) and the same bits that compare
    // unequal (a NaN), quiet and signalling NaNs of other payloads: whatever the reader held
    // before, it ends with the bits sent, and they write the same bytes again.
    struct pattern {
        std::uint32_t f;
        std::uint64_t d;
    };
    const pattern patterns[] = {{0x00000000u, 0x0000000000000000u}, {0x80000000u, 0x8000000000000000u},
                                {0x7FC00001u, 0x7FF8000000000001u}, {0x7FC00002u, 0x7FF8000000000002u},
                                {0xFFC00001u, 0xFFF8000000000001u}, {0x7F800001u, 0x7FF0000000000001u}};
    for (const pattern& sent : patterns) {
        for (const bool double_alternative : {false, true}) {
            const FloatShapes value = shapes_of(sent.f, sent.d, double_alternative);
            const written w = write(value);
            CHECK(to_hex(round_trip(value)) == w.hex);
            for (const pattern& held : patterns) {
                INFO(std::hex << "sent " << sent.f << " / " << sent.d << " over " << held.f << " / " << held.d);
                FloatShapes into = shapes_of(held.f, held.d, double_alternative);
                REQUIRE_FALSE(read_hex(w.hex, into));
                CHECK(std::bit_cast<std::uint32_t>(into.f) == sent.f);
                CHECK(std::bit_cast<std::uint64_t>(into.d) == sent.d);
                for (const float e : into.a) CHECK(std::bit_cast<std::uint32_t>(e) == sent.f);
                REQUIRE(into.v.size() == 2);
                for (const double e : into.v) CHECK(std::bit_cast<std::uint64_t>(e) == sent.d);
                REQUIRE(into.o.has_value());
                CHECK(std::bit_cast<std::uint32_t>(*into.o) == sent.f);
                if (double_alternative) CHECK(std::bit_cast<std::uint64_t>(std::get<double>(into.x)) == sent.d);
                else CHECK(std::bit_cast<std::uint32_t>(std::get<float>(into.x)) == sent.f);
                CHECK(to_hex(into) == w.hex);
            }
        }
    }
}

TEST_CASE("a truncated raw double fails with overflow at its first bit", "[floats][hostile]") {
    const auto bytes = unhex("01 00 00 00 01 00 00 00 00 00 00 80 01");
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        UnalignedRaw r;
        INFO("packet cut to " << n << " bytes");
        const netser::error e = read_bytes(std::span(bytes).first(n), r);
        const failure expected = n == 0   ? fail(errc::overflow, 0, "UnalignedRaw.flag")
                                 : n < 5 ? fail(errc::overflow, 1, "UnalignedRaw.f")
                                         : fail(errc::overflow, 33, "UnalignedRaw.d");
        CHECK(failure_of(e) == expected);
    }
}

TEST_CASE("quantize uses the article's 18 bits for [-1000, 1000] at 0.01", "[floats][quantize]") {
    // x: max_int ceil(4000 / 0.1) = 40000, 16 bits; y: max_int 200000, 18 bits.
    // x 0 -> code 20000 (0x4E20); y 0 -> code 100000 (0x186A0) in bits 16-33.
    CHECK(write(Position{0.f, 0.f}).hex == "20 4E A0 86 01");
    CHECK(write(Position{0.f, 0.f}).bits == 34);
    static_assert(netser::max_bits<Position>() == 16 + 18);
}

TEST_CASE("quantize clamps values outside its interval and keeps the ends exact", "[floats][quantize]") {
    const Position r = round_trip(Position{1e9f, -std::numeric_limits<float>::infinity()});
    CHECK(r.x == 2000.f);
    CHECK(r.y == -1000.f);
    const Position e = round_trip(Position{-2000.f, 1000.f});
    CHECK(e.x == -2000.f);
    CHECK(e.y == 1000.f);
}

TEST_CASE("quantize fails the write of a NaN with invalid_value", "[floats][quantize][hostile]") {
    CHECK(failure_of(write_error(Position{0.f, std::numeric_limits<float>::quiet_NaN()})) ==
          fail(errc::invalid_value, 16, "Position.y"));
}

TEST_CASE("quantize rejects every code above max_int", "[floats][quantize][hostile]") {
    for (std::uint64_t code : {40001u, 50000u, 65535u}) {
        reference_writer forged;
        forged.put(code, 16);
        forged.put(0, 18);
        Position p;
        CHECK(failure_of(read_forged(forged, p)) == fail(errc::out_of_range, 0, "Position.x"));
    }
    reference_writer forged;
    forged.put(40000, 16);
    forged.put(200001, 18);
    Position p;
    CHECK(failure_of(read_forged(forged, p)) == fail(errc::out_of_range, 16, "Position.y"));
}

} // namespace floats

// ==========================================================================================
// From tests/reflect/attributes_test.cpp (range, bits, quantize, common, finite)
// ==========================================================================================
// attributes.hpp: every member attribute, each with a golden vector derived by hand
// from the wire format, a random round trip and a hostile read.

namespace attributes_scalar {

using netser::errc;
using namespace reflect_test;

namespace attributes_test {

// range: hp (v - 0) in 7 bits, temp (v + 40) in 7 bits.
struct Ranged {
    int hp = 0;
    int temp = 0;
    bool operator==(const Ranged&) const = default;
};
NETSER_STRUCT(Ranged, (hp, netser::range(0, 100)), (temp, netser::range(-40, 50)))

// bits: u in 5 bits (unsigned), s in 4 bits (signed: [-8, 7], sent as v + 8).
struct Bits {
    std::uint32_t u = 0;
    std::int16_t s = 0;
    std::int16_t full = 0; // bits(16) on int16: the whole type
    bool operator==(const Bits&) const = default;
};
NETSER_STRUCT(Bits, (u, netser::bits(5)), (s, netser::bits(4)), (full, netser::bits(16)))

// quantize: a in [0, 10] at 0.01 (max_int 1000, 10 bits); b in [-1, 1] at 0.5 (max_int 4, 3 bits).
struct Quantized {
    float a = 0;
    float b = 0;
};
NETSER_STRUCT(Quantized, (a, netser::quantize(0.f, 10.f, 0.01f)), (b, netser::quantize(-1.f, 1.f, 0.5f)))

// quantize per component of a std::array (3 bits each) and a C array (4 bits each).
struct QArray {
    std::array<float, 3> pos{};
    float rgb[3] = {};
    bool operator==(const QArray&) const = default;
};
NETSER_STRUCT(QArray, (pos, netser::quantize(-1.f, 1.f, 0.5f)), (rgb, netser::quantize(0.f, 1.f, 0.125f)))

// quantize per component of a described vector struct, alone and in a vector.
struct Vec2f {
    float x = 0, y = 0;
    bool operator==(const Vec2f&) const = default;
};
NETSER_STRUCT(Vec2f, x, y)

struct Body {
    Vec2f velocity;
    std::vector<Vec2f> trail;
    bool operator==(const Body&) const = default;
};
NETSER_STRUCT(Body,
    (velocity, netser::quantize(-1.f, 1.f, 0.5f)),
    (trail, netser::max_size(3), netser::quantize(0.f, 4.f, 1.f)))

// common: hp (1 value: 0 index bits), kind (3 values: 2 index bits), speed (a float).
struct Common {
    int hp = 0;
    std::uint8_t kind = 0;
    float speed = 0;
    bool operator==(const Common&) const = default;
};
NETSER_STRUCT(Common,
    (hp, netser::range(0, 100), netser::common(100)),
    (kind, netser::common(1, 2, 3)),
    (speed, netser::common(0.f)))

// finite: NaN and infinities refused on write and read.
struct Finite {
    float f = 0;
    double d = 0;
    float q = 0;
};
NETSER_STRUCT(Finite, (f, netser::finite), (d, netser::finite), (q, netser::quantize(0.f, 1.f, 0.5f), netser::finite))

} // namespace attributes_test

using namespace attributes_test;

// --- range --------------------------------------------------------------------

TEST_CASE("range sends v - min in bits_required(min, max) bits", "[attributes][range]") {
    // hp 37 -> code 37 in bits 0-6; temp -3 -> code 37 in bits 7-13.
    CHECK(write(Ranged{37, -3}).hex == "A5 12");
    CHECK(write(Ranged{37, -3}).bits == 14);
    CHECK(to_hex(Ranged{100, 50}) == "64 2D");
    CHECK(to_hex(Ranged{0, -40}) == "00 00");
    Ranged r;
    REQUIRE_FALSE(read_hex("A5 12", r));
    CHECK(r == Ranged{37, -3});
}

TEST_CASE("range round-trips every value of its interval", "[attributes][range]") {
    std::mt19937 rng(1);
    for (int i = 0; i < 500; ++i) {
        const Ranged v{std::uniform_int_distribution<int>(0, 100)(rng), std::uniform_int_distribution<int>(-40, 50)(rng)};
        CHECK(write(v).bits == 14);
        CHECK(round_trip(v) == v);
    }
}

TEST_CASE("range rejects a code above max - min on read and a value outside on write", "[attributes][range][hostile]") {
    Ranged r;
    reference_writer hp_code;
    hp_code.put(101, 7);
    hp_code.put(0, 7);
    CHECK(failure_of(read_forged(hp_code, r)) == fail(errc::out_of_range, 0, "Ranged.hp"));

    reference_writer temp_code;
    temp_code.put(0, 7);
    temp_code.put(91, 7);
    CHECK(failure_of(read_forged(temp_code, r)) == fail(errc::out_of_range, 7, "Ranged.temp"));

    CHECK(failure_of(write_error(Ranged{101, 0})) == fail(errc::out_of_range, 0, "Ranged.hp"));
    CHECK(failure_of(write_error(Ranged{-1, 0})) == fail(errc::out_of_range, 0, "Ranged.hp"));
    CHECK(failure_of(write_error(Ranged{0, 51})) == fail(errc::out_of_range, 7, "Ranged.temp"));
    CHECK(failure_of(write_error(Ranged{0, -41})) == fail(errc::out_of_range, 7, "Ranged.temp"));
}

// --- bits ---------------------------------------------------------------------

TEST_CASE("bits sends unsigned values as they are and signed values offset by 2^(n-1)", "[attributes][bits]") {
    // u 13 in bits 0-4; s 7 -> code 15 in bits 5-8; full 0 -> code 0x8000 in bits 9-24.
    CHECK(write(Bits{13, 7, 0}).hex == "ED 01 00 01");
    CHECK(write(Bits{13, 7, 0}).bits == 25);
    // u 31; s -8 -> code 0; full -2 -> code 0x7FFE (an integer in [-2^15, 2^15 - 1]).
    CHECK(to_hex(Bits{31, -8, -2}) == "1F FC FF 00");
    Bits b;
    REQUIRE_FALSE(read_hex("1F FC FF 00", b));
    CHECK(b == Bits{31, -8, -2});
}

TEST_CASE("bits round-trips random values of its width", "[attributes][bits]") {
    std::mt19937 rng(2);
    for (int i = 0; i < 500; ++i) {
        const Bits v{std::uniform_int_distribution<std::uint32_t>(0, 31)(rng),
                     static_cast<std::int16_t>(std::uniform_int_distribution<int>(-8, 7)(rng)),
                     static_cast<std::int16_t>(std::uniform_int_distribution<int>(-32768, 32767)(rng))};
        CHECK(round_trip(v) == v);
    }
}

TEST_CASE("bits rejects values that need more bits and fails cleanly on a short packet", "[attributes][bits][hostile]") {
    CHECK(failure_of(write_error(Bits{32, 0, 0})) == fail(errc::out_of_range, 0, "Bits.u"));
    CHECK(failure_of(write_error(Bits{0, 8, 0})) == fail(errc::out_of_range, 5, "Bits.s"));
    CHECK(failure_of(write_error(Bits{0, -9, 0})) == fail(errc::out_of_range, 5, "Bits.s"));
    // Every code of n bits is a valid value, so the hostile read is a cut packet.
    Bits b;
    CHECK(failure_of(read_hex("ED", b)) == fail(errc::overflow, 5, "Bits.s"));
    CHECK(failure_of(read_hex("ED 01", b)) == fail(errc::overflow, 9, "Bits.full"));
}

// --- quantize -----------------------------------------------------------------

TEST_CASE("quantize sends the rounded step index in bits_required(0, max_int) bits", "[attributes][quantize]") {
    // a 5 -> code 500 of 1000 in bits 0-9; b 0.5 -> code 3 of 4 in bits 10-12.
    CHECK(write(Quantized{5.f, 0.5f}).hex == "F4 0D");
    CHECK(write(Quantized{5.f, 0.5f}).bits == 13);
    CHECK(to_hex(Quantized{10.f, -1.f}) == "E8 03");
    CHECK(to_hex(Quantized{-5.f, 1.f}) == "00 10");  // a clamps to min
    CHECK(to_hex(Quantized{12.f, -1.f}) == "E8 03"); // a clamps to max
    Quantized q;
    REQUIRE_FALSE(read_hex("F4 0D", q));
    CHECK(q.a == 5.f);
    CHECK(q.b == 0.5f);
}

TEST_CASE("quantize round-trips within half a step", "[attributes][quantize]") {
    std::mt19937 rng(3);
    for (int i = 0; i < 500; ++i) {
        const Quantized v{std::uniform_real_distribution<float>(0.f, 10.f)(rng),
                          std::uniform_real_distribution<float>(-1.f, 1.f)(rng)};
        const Quantized r = round_trip(v);
        CHECK(std::fabs(r.a - v.a) <= 0.00501f);
        CHECK(std::fabs(r.b - v.b) <= 0.25001f);
    }
}

TEST_CASE("quantize rejects a code above max_int on read and NaN on write", "[attributes][quantize][hostile]") {
    Quantized q;
    reference_writer a_code;
    a_code.put(1023, 10);
    a_code.put(0, 3);
    CHECK(failure_of(read_forged(a_code, q)) == fail(errc::out_of_range, 0, "Quantized.a"));
    reference_writer b_code;
    b_code.put(0, 10);
    b_code.put(5, 3);
    CHECK(failure_of(read_forged(b_code, q)) == fail(errc::out_of_range, 10, "Quantized.b"));
    CHECK(failure_of(write_error(Quantized{std::numeric_limits<float>::quiet_NaN(), 0.f})) ==
          fail(errc::invalid_value, 0, "Quantized.a"));
}

TEST_CASE("quantize applies to each element of a std::array and a C array of floats", "[attributes][quantize]") {
    // pos codes 0, 2, 4 (3 bits each), then rgb codes 0, 4, 8 (4 bits each).
    const QArray v{{-1.f, 0.f, 1.f}, {0.f, 0.5f, 1.f}};
    CHECK(write(v).hex == "10 81 10");
    CHECK(write(v).bits == 21);
    CHECK(round_trip(v) == v);

    QArray r;
    reference_writer forged;
    forged.put(0, 3);
    forged.put(5, 3); // pos[1]: code 5 > max_int 4
    forged.put(0, 3);
    forged.put(0, 12);
    CHECK(failure_of(read_forged(forged, r)) == fail(errc::out_of_range, 3, "QArray.pos[1]"));
    reference_writer rgb;
    rgb.put(0, 9 + 8);
    rgb.put(9, 4); // rgb[2]: code 9 > max_int 8
    CHECK(failure_of(read_forged(rgb, r)) == fail(errc::out_of_range, 17, "QArray.rgb[2]"));
}

TEST_CASE("quantize applies to each component of a described vector struct", "[attributes][quantize]") {
    // velocity codes 3, 1; trail count 2; trail codes 1, 2, 4, 0 (3 bits each).
    const Body v{{0.5f, -0.5f}, {{1.f, 2.f}, {4.f, 0.f}}};
    CHECK(write(v).hex == "8B 11 01");
    CHECK(write(v).bits == 20);
    CHECK(round_trip(v) == v);

    Body r;
    reference_writer y;
    y.put(0, 3);
    y.put(7, 3);
    y.put(0, 2);
    CHECK(failure_of(read_forged(y, r)) == fail(errc::out_of_range, 3, "Body.velocity.y"));
    reference_writer trail;
    trail.put(0, 6);
    trail.put(2, 2);
    trail.put(0, 6);
    trail.put(5, 3); // trail[1].x: code 5 > max_int 4
    trail.put(0, 3);
    CHECK(failure_of(read_forged(trail, r)) == fail(errc::out_of_range, 14, "Body.trail[1].x"));
}

// --- common -------------------------------------------------------------------

TEST_CASE("common sends a listed value as a set flag and its index", "[attributes][common]") {
    // hp: flag 1 (0 index bits); kind 3: flag 1, index 2 in 2 bits; speed 0: flag 1.
    CHECK(write(Common{100, 3, 0.f}).hex == "1B");
    CHECK(write(Common{100, 3, 0.f}).bits == 5);
    // hp 100 (1 bit), kind 1 (flag + index 0), speed 1.0 (flag 0 + 32 bits).
    CHECK(write(Common{100, 1, 1.f}).hex == "03 00 00 F0 07");
    CHECK(write(Common{100, 1, 1.f}).bits == 1 + 3 + 33);
    Common c;
    REQUIRE_FALSE(read_hex("1B", c));
    CHECK(c == Common{100, 3, 0.f});
}

TEST_CASE("common sends any other value as a clear flag and its normal encoding", "[attributes][common]") {
    // hp 37: flag 0 + 7 bits; kind 200: flag 0 + 8 bits; speed 1.0: flag 0 + 32 bits.
    CHECK(write(Common{37, 200, 1.f}).hex == "4A 90 01 00 00 FE 00");
    CHECK(write(Common{37, 200, 1.f}).bits == 8 + 9 + 33);
    Common c;
    REQUIRE_FALSE(read_hex("4A 90 01 00 00 FE 00", c));
    CHECK(c == Common{37, 200, 1.f});
}

TEST_CASE("common round-trips common and other values alike", "[attributes][common]") {
    std::mt19937 rng(4);
    for (int i = 0; i < 500; ++i) {
        const int pick = std::uniform_int_distribution<int>(0, 2)(rng);
        const Common v{pick == 0 ? 100 : std::uniform_int_distribution<int>(0, 100)(rng),
                       static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 255)(rng)),
                       pick == 1 ? 0.f : std::uniform_real_distribution<float>(-1e6f, 1e6f)(rng)};
        CHECK(round_trip(v) == v);
    }
}

TEST_CASE("common rejects an index past the last value and the normal encoding's bad codes", "[attributes][common][hostile]") {
    Common c;
    reference_writer index;
    index.put(1, 1); // hp common
    index.put(1, 1); // kind common...
    index.put(3, 2); // ...index 3 of 3 values
    index.put(1, 1);
    CHECK(failure_of(read_forged(index, c)) == fail(errc::out_of_range, 1, "Common.kind"));

    // The failure is reported at the value's first bit: its flag.
    reference_writer plain;
    plain.put(0, 1);
    plain.put(127, 7); // hp code 127 > 100
    plain.put(0, 16);
    CHECK(failure_of(read_forged(plain, c)) == fail(errc::out_of_range, 0, "Common.hp"));
    CHECK(failure_of(write_error(Common{101, 1, 0.f})) == fail(errc::out_of_range, 0, "Common.hp"));
    CHECK(failure_of(read_hex("03", c)) == fail(errc::overflow, 4, "Common.speed"));
}

// --- finite -------------------------------------------------------------------

TEST_CASE("finite sends floats raw and refuses NaN and infinities both ways", "[attributes][finite]") {
    // f 1.0f, d 0.0, q 0.5 -> code 1 of 2 in 2 bits.
    CHECK(write(Finite{1.f, 0.0, 0.5f}).hex == "00 00 80 3F 00 00 00 00 00 00 00 00 01");
    CHECK(write(Finite{1.f, 0.0, 0.5f}).bits == 32 + 64 + 2);
    const float inf = std::numeric_limits<float>::infinity();
    CHECK(failure_of(write_error(Finite{inf, 0.0, 0.f})) == fail(errc::invalid_value, 0, "Finite.f"));
    CHECK(failure_of(write_error(Finite{0.f, std::nan(""), 0.f})) == fail(errc::invalid_value, 32, "Finite.d"));
    CHECK(failure_of(write_error(Finite{0.f, 0.0, std::nanf("")})) == fail(errc::invalid_value, 96, "Finite.q"));
    Finite f;
    CHECK(failure_of(read_hex("00 00 80 7F 00 00 00 00 00 00 00 00 00", f)) == fail(errc::invalid_value, 0, "Finite.f"));
    CHECK(failure_of(read_hex("00 00 80 3F 01 00 00 00 00 00 F8 7F 00", f)) == fail(errc::invalid_value, 32, "Finite.d"));
    std::mt19937 rng(8);
    for (int i = 0; i < 200; ++i) {
        const Finite v{std::uniform_real_distribution<float>(-1e30f, 1e30f)(rng),
                       std::uniform_real_distribution<double>(-1e300, 1e300)(rng), 1.f};
        const Finite r = round_trip(v);
        CHECK(r.f == v.f);
        CHECK(r.d == v.d);
        CHECK(r.q == 1.f);
    }
}

} // namespace attributes_scalar

// ==========================================================================================
// Written with tests/encodings/: each code against a model written from the annotations
// (not from the encoder), and max_bits as the sum of the annotations' widths.
// ==========================================================================================

namespace scalar_model {

using netser::errc;
using namespace reflect_test;

using netser_test::width_of;

struct Annotated {
    int hp = 0;              // range(-20, 80): v + 20 in width_of(100) bits
    std::uint16_t id = 1000; // range(1000, 1999): v - 1000 in width_of(999) bits
    std::int32_t drift = 0;  // bits(11), signed: v + 2^10 in 11 bits
    std::uint8_t small = 0;  // bits(3), unsigned: v in 3 bits
    bool on = false;         // 1 bit
    float level = 0;         // quantize(-10, 10, 0.25): step index in width_of(80) bits
};
NETSER_STRUCT(Annotated,
    (hp, netser::range(-20, 80)),
    (id, netser::range(1000, 1999)),
    (drift, netser::bits(11)),
    (small, netser::bits(3)),
    on,
    (level, netser::quantize(-10.f, 10.f, 0.25f)))

constexpr std::size_t annotated_bits =
    static_cast<std::size_t>(width_of(80 - -20) + width_of(1999 - 1000) + 11 + 3 + 1 + width_of(80));

// A value whose level is exactly step `level_step`, so its code is known without rounding.
Annotated random_annotated(std::mt19937& rng, int& level_step) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    level_step = pick(0, 80);
    return Annotated{pick(-20, 80),
                     static_cast<std::uint16_t>(pick(1000, 1999)),
                     pick(-1024, 1023),
                     static_cast<std::uint8_t>(pick(0, 7)),
                     pick(0, 1) == 1,
                     -10.f + 0.25f * static_cast<float>(level_step)};
}

// Equal, the level within float rounding of the decoder's arithmetic (code / max_int * span + min).
bool same(const Annotated& a, const Annotated& b) {
    return a.hp == b.hp && a.id == b.id && a.drift == b.drift && a.small == b.small && a.on == b.on &&
           std::fabs(a.level - b.level) <= 1e-5f;
}

reference_writer model_of(const Annotated& v, int level_step) {
    reference_writer w;
    w.put(static_cast<std::uint64_t>(v.hp + 20), width_of(100));
    w.put(static_cast<std::uint64_t>(v.id - 1000), width_of(999));
    w.put(static_cast<std::uint64_t>(v.drift + 1024), 11);
    w.put(v.small, 3);
    w.put(v.on ? 1u : 0u, 1);
    w.put(static_cast<std::uint64_t>(level_step), width_of(80));
    return w;
}

} // namespace scalar_model

TEST_CASE("range, bits, bool and quantize codes match a model written from the annotations", "[scalar][model]") {
    using namespace scalar_model;
    std::mt19937 rng(20);
    for (int i = 0; i < 500; ++i) {
        int step = 0;
        const Annotated v = random_annotated(rng, step);
        const reference_writer model = model_of(v, step);
        const written w = write(v);
        INFO("hp " << v.hp << " id " << v.id << " drift " << v.drift << " small " << int{v.small} << " level step "
                   << step);
        CHECK(w.hex == hex(model.bytes()));
        CHECK(w.bits == model.bits());
        CHECK(same(round_trip(v), v));
        Annotated r;
        REQUIRE_FALSE(read_forged(model, r));
        CHECK(same(r, v));
    }
}

TEST_CASE("max_bits of scalar members is the sum of the annotations' widths, and every value takes it",
          "[scalar][bounds]") {
    using namespace scalar_model;
    STATIC_REQUIRE(netser::max_bits<Annotated>() == annotated_bits);
    CHECK(netser::max_bytes<Annotated>() == (annotated_bits + 7) / 8);
    // Fixed-width codes: the smallest and the largest values cost the same.
    CHECK(write(Annotated{-20, 1000, -1024, 0, false, -10.f}).bits == annotated_bits);
    CHECK(write(Annotated{80, 1999, 1023, 7, true, 10.f}).bits == annotated_bits);
    // One code past each annotation's top does not fit its width: it is refused, not wrapped.
    Annotated top{80, 1999, 1023, 7, true, 10.f};
    ++top.hp;
    CHECK(failure_of(write_error(top)) == fail(errc::out_of_range, 0, "Annotated.hp"));
    top = {80, 1999, 1023, 7, true, 10.f};
    ++top.id;
    CHECK(failure_of(write_error(top)) ==
          fail(errc::out_of_range, static_cast<std::size_t>(width_of(100)), "Annotated.id"));
    top = {80, 1999, 1023, 7, true, 10.f};
    ++top.drift;
    CHECK(failure_of(write_error(top)) ==
          fail(errc::out_of_range, static_cast<std::size_t>(width_of(100) + width_of(999)), "Annotated.drift"));
}
