// encodings/scalar.hpp, integers and bools: default encodings (bool 1 bit, integers their full
// width in two's complement) and range over the whole 64-bit span.

#include "reflect/test_types.hpp"

#include <cstdint>
#include <limits>
#include <random>

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
