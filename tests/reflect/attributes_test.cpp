// attributes.hpp: every member attribute, each with a golden vector derived by hand
// from the wire format, a random round trip and a hostile read.

#include "reflect/test_types.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

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

// max_size: count in [0, 5] (3 bits), then the elements.
struct Bag {
    std::vector<std::uint8_t> items;
    bool operator==(const Bag&) const = default;
};
NETSER_STRUCT(Bag, (items, netser::max_size(5)))

struct CountedBag {
    std::vector<std::uint8_t, counting_allocator<std::uint8_t>> items;
};
NETSER_STRUCT(CountedBag, (items, netser::max_size(1000)))

// max_length: length in [0, 5] (3 bits), align, the bytes.
struct Named {
    bool flag = false;
    std::string name;
    bool operator==(const Named&) const = default;
};
NETSER_STRUCT(Named, flag, (name, netser::max_length(5)))

// max_length on the elements of a vector of strings.
struct Words {
    std::vector<std::string> words;
    bool operator==(const Words&) const = default;
};
NETSER_STRUCT(Words, (words, netser::max_size(2), netser::max_length(3)))

// only_if: vx (14 bits) and note only when moving.
struct Mover {
    bool moving = false;
    float vx = 0;
    std::string note;
    bool operator==(const Mover&) const = default;
};
NETSER_STRUCT(Mover, moving,
    (vx, netser::quantize(-50.f, 50.f, 0.01f), netser::only_if(&Mover::moving)),
    (note, netser::max_length(3), netser::only_if(&Mover::moving)))

// only_if on members with default member initializers: a read resets them to those.
struct Lamp {
    bool lit = false;
    std::uint8_t brightness = 200;
    bool operator==(const Lamp&) const = default;
};
NETSER_STRUCT(Lamp, lit, (brightness, netser::only_if(&Lamp::lit)))

// skip: never sent, whatever its type (this string has no max_length).
struct Skipping {
    int a = 0;
    int cache = 0;
    std::string scratch;
    bool operator==(const Skipping&) const = default;
};
NETSER_STRUCT(Skipping, (a, netser::range(0, 7)), (cache, netser::skip), (scratch, netser::skip))

// finite: NaN and infinities refused on write and read.
struct Finite {
    float f = 0;
    double d = 0;
    float q = 0;
};
NETSER_STRUCT(Finite, (f, netser::finite), (d, netser::finite), (q, netser::quantize(0.f, 1.f, 0.5f), netser::finite))

// Strings are strict UTF-8 unless raw_bytes.
struct Texts {
    std::string text;
    std::string bytes;
    bool operator==(const Texts&) const = default;
};
NETSER_STRUCT(Texts, (text, netser::max_length(4)), (bytes, netser::max_length(4), netser::raw_bytes))

// sparse: the present slots as relative indices (the article's ladder) and values.
struct Slots {
    std::array<std::optional<std::uint8_t>, 10> fixed{};
    std::vector<std::optional<std::uint8_t>> grown;
    bool operator==(const Slots&) const = default;
};
NETSER_STRUCT(Slots,
    (fixed, netser::sparse, netser::range(0, 15)),
    (grown, netser::sparse, netser::max_size(6), netser::range(0, 15)))

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

// --- max_size -----------------------------------------------------------------

TEST_CASE("max_size sends the count in [0, N] and then the elements", "[attributes][max_size]") {
    CHECK(write(Bag{{0xAB, 0x01}}).hex == "5A 0D 00");
    CHECK(write(Bag{{0xAB, 0x01}}).bits == 3 + 16);
    CHECK(write(Bag{}).hex == "00");
    CHECK(write(Bag{}).bits == 3);
    Bag b;
    REQUIRE_FALSE(read_hex("5A 0D 00", b));
    CHECK(b == Bag{{0xAB, 0x01}});
}

TEST_CASE("max_size round-trips every count up to N", "[attributes][max_size]") {
    std::mt19937 rng(5);
    for (std::size_t n = 0; n <= 5; ++n)
        for (int i = 0; i < 50; ++i) {
            Bag v;
            for (std::size_t k = 0; k < n; ++k)
                v.items.push_back(static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 255)(rng)));
            CHECK(write(v).bits == 3 + 8 * n);
            CHECK(round_trip(v) == v);
        }
}

TEST_CASE("max_size rejects a count above N with too_large on read and write", "[attributes][max_size][hostile]") {
    Bag b;
    CHECK(failure_of(read_hex("06 00 00 00 00 00 00", b)) == fail(errc::too_large, 0, "Bag.items"));
    CHECK(failure_of(read_hex("07", b)) == fail(errc::too_large, 0, "Bag.items"));
    CHECK(failure_of(write_error(Bag{{1, 2, 3, 4, 5, 6}})) == fail(errc::too_large, 0, "Bag.items"));
}

TEST_CASE("max_size rejects a count whose elements cannot fit before allocating", "[attributes][max_size][hostile]") {
    Bag b;
    // Count 5 needs 40 more bits; 13 are left.
    CHECK(failure_of(read_hex("05 00", b)) == fail(errc::overflow, 0, "Bag.items"));
    CHECK(b.items.capacity() == 0);

    CountedBag counted;
    allocated_elements = 0;
    reference_writer forged; // count 1000 (of 1000), then 3 bytes
    forged.put(1000, 10);
    forged.put(0xABCDEF, 24);
    CHECK(failure_of(read_forged(forged, counted)) == fail(errc::overflow, 0, "CountedBag.items"));
    CHECK(counted.items.capacity() == 0);
    CHECK(allocated_elements == 0);

    reference_writer too_large; // count 1001
    too_large.put(1001, 10);
    too_large.put(0, 64);
    CHECK(failure_of(read_forged(too_large, counted)) == fail(errc::too_large, 0, "CountedBag.items"));
    CHECK(allocated_elements == 0);

    reference_writer fits; // count 3 with its 3 bytes: the allocator does count
    fits.put(3, 10);
    fits.put(0xABCDEF, 24);
    REQUIRE_FALSE(read_forged(fits, counted));
    CHECK(counted.items.size() == 3);
    CHECK(allocated_elements >= 3);
    CHECK(allocated_elements <= 1000 / 8);
}

// --- max_length ---------------------------------------------------------------

TEST_CASE("max_length sends the length in [0, N], aligns, then the bytes", "[attributes][max_length]") {
    // flag 1 in bit 0, length 4 in bits 1-3, padding, "test".
    CHECK(write(Named{true, "test"}).hex == "09 74 65 73 74");
    CHECK(write(Named{true, "test"}).bits == 40);
    CHECK(write(Named{false, ""}).hex == "00");
    CHECK(write(Named{false, ""}).bits == 8);
    Named n;
    REQUIRE_FALSE(read_hex("09 74 65 73 74", n));
    CHECK(n == Named{true, "test"});
}

TEST_CASE("max_length round-trips strings of every length up to N", "[attributes][max_length]") {
    std::mt19937 rng(6);
    for (std::size_t len = 0; len <= 5; ++len)
        for (int i = 0; i < 20; ++i) {
            Named v{i % 2 == 0, std::string(len, ' ')};
            for (char& c : v.name) c = static_cast<char>(std::uniform_int_distribution<int>(1, 127)(rng)); // text: no NUL
            CHECK(round_trip(v) == v);
        }
}

TEST_CASE("max_length rejects a length above N and a length past the end of the packet", "[attributes][max_length][hostile]") {
    Named n;
    CHECK(failure_of(read_hex("0D 74 65 73 74 74 74", n)) == fail(errc::too_large, 1, "Named.name"));
    CHECK(failure_of(read_hex("0B 74 65 73 74", n)) == fail(errc::overflow, 1, "Named.name"));
    CHECK(failure_of(read_hex("03", n)) == fail(errc::overflow, 1, "Named.name"));
    CHECK(failure_of(write_error(Named{true, "toolong"})) == fail(errc::too_large, 1, "Named.name"));
}

TEST_CASE("max_length on a vector of strings applies to each string", "[attributes][max_length]") {
    // count 2 in 2 bits; "ab": length 2 in 2 bits, align, 61 62; "c": length 1, align, 63.
    CHECK(write(Words{{"ab", "c"}}).hex == "0A 61 62 01 63");
    CHECK(round_trip(Words{{"abc", ""}}) == Words{{"abc", ""}});
    CHECK(failure_of(write_error(Words{{"ab", "long"}})) == fail(errc::too_large, 24, "Words.words[1]"));
}

// --- only_if ------------------------------------------------------------------

TEST_CASE("only_if sends the member only when the flag is true", "[attributes][only_if]") {
    CHECK(write(Mover{false, 3.f, "abc"}).hex == "00");
    CHECK(write(Mover{false, 3.f, "abc"}).bits == 1);
    // moving 1; vx 25 -> code 7500 of 10000 in 14 bits; note "ab": length 2, align, 61 62.
    CHECK(write(Mover{true, 25.f, "ab"}).hex == "99 3A 01 61 62");
    CHECK(write(Mover{true, 25.f, "ab"}).bits == 40);
    Mover m;
    REQUIRE_FALSE(read_hex("99 3A 01 61 62", m));
    CHECK(m == Mover{true, 25.f, "ab"});
}

TEST_CASE("only_if resets the member to its default when the flag read is false", "[attributes][only_if]") {
    Mover m{true, 7.f, "xyz"};
    std::size_t bits = 0;
    REQUIRE_FALSE(read_hex("00", m, &bits));
    CHECK(bits == 1);
    CHECK(m == Mover{false, 0.f, ""});
}

TEST_CASE("only_if resets the member to its default member initializer", "[attributes][only_if]") {
    Lamp l{true, 7};
    REQUIRE_FALSE(read_hex("00", l));
    CHECK(l == Lamp{false, 200});
    REQUIRE_FALSE(read_hex("0F 00", l)); // lit, then brightness 7 in 8 bits from bit 1
    CHECK(l == Lamp{true, 7});
}

TEST_CASE("only_if round-trips with the flag set and clear", "[attributes][only_if]") {
    std::mt19937 rng(7);
    for (int i = 0; i < 500; ++i) {
        Mover v;
        v.moving = i % 2 == 0;
        v.vx = std::uniform_real_distribution<float>(-50.f, 50.f)(rng);
        v.note = std::string(static_cast<std::size_t>(std::uniform_int_distribution<int>(0, 3)(rng)), 'n');
        const Mover r = round_trip(v);
        CHECK(r.moving == v.moving);
        if (v.moving) {
            CHECK(std::fabs(r.vx - v.vx) <= 0.00501f);
            CHECK(r.note == v.note);
        } else {
            CHECK(r.vx == 0.f);
            CHECK(r.note.empty());
        }
    }
}

TEST_CASE("only_if reads the member's hostile codes when the flag is set", "[attributes][only_if][hostile]") {
    Mover m;
    reference_writer forged;
    forged.put(1, 1);
    forged.put(16383, 14); // vx code > max_int 10000
    forged.put(0, 9);
    CHECK(failure_of(read_forged(forged, m)) == fail(errc::out_of_range, 1, "Mover.vx"));
    CHECK(failure_of(read_hex("01", m)) == fail(errc::overflow, 1, "Mover.vx"));
    // The flag clear: a bad value is never read, however the rest of the packet looks.
    CHECK_FALSE(read_hex("FE FF FF FF", m));
}

// --- skip ---------------------------------------------------------------------

TEST_CASE("skip never sends the member and leaves it untouched on read", "[attributes][skip]") {
    CHECK(write(Skipping{5, 99, "scratch"}).hex == "05");
    CHECK(write(Skipping{5, 99, "scratch"}).bits == 3);
    Skipping s{0, 42, "keep"};
    std::size_t bits = 0;
    REQUIRE_FALSE(read_hex("05", s, &bits));
    CHECK(bits == 3);
    CHECK(s == Skipping{5, 42, "keep"});
}

TEST_CASE("skip round-trips the other members and never reads past them", "[attributes][skip][hostile]") {
    for (int a = 0; a <= 7; ++a) {
        const Skipping r = round_trip(Skipping{a, a * 10, "x"});
        CHECK(r == Skipping{a, 0, ""});
    }
    Skipping s{0, 42, "keep"};
    CHECK(failure_of(read_hex("", s)) == fail(errc::overflow, 0, "Skipping.a"));
    CHECK(s.cache == 42);
    CHECK(s.scratch == "keep");
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

// --- strict UTF-8 and raw_bytes -----------------------------------------------

TEST_CASE("a string must be valid UTF-8 unless it is raw_bytes", "[attributes][raw_bytes]") {
    // text "\u00e9" (C3 A9): length 2 in 3 bits, align, bytes; bytes FF: length 1, align, FF.
    const Texts v{"\xC3\xA9", "\xFF"};
    CHECK(write(v).hex == "02 C3 A9 01 FF");
    CHECK(write(v).bits == 40);
    CHECK(round_trip(v) == v);
    CHECK(round_trip(Texts{"\xF0\x9F\x98\x80", std::string("\x00\xC0\xAF\xED", 4)}) ==
          Texts{"\xF0\x9F\x98\x80", std::string("\x00\xC0\xAF\xED", 4)});
    for (const char* bad : {"\xFF", "\xC0\xAF", "\xED\xA0\x80", "\xC3", "\xF4\x90\x80\x80", "a\x80"}) {
        INFO("text " << hex(std::as_bytes(std::span(bad, std::strlen(bad)))));
        CHECK(failure_of(write_error(Texts{bad, ""})) == fail(errc::invalid_value, 0, "Texts.text"));
        reference_writer forged;
        forged.put(std::strlen(bad), 3);
        forged.align();
        for (const char* c = bad; *c != 0; ++c) forged.put(static_cast<unsigned char>(*c), 8);
        forged.put(0, 8);
        Texts t;
        CHECK(failure_of(read_forged(forged, t)) == fail(errc::invalid_value, 0, "Texts.text"));
    }
}

// --- sparse -------------------------------------------------------------------

TEST_CASE("sparse sends the present slots as relative indices, then the end sentinel", "[attributes][sparse]") {
    Slots v;
    v.fixed[0] = 5;
    v.fixed[3] = 15;
    // fixed: d 1 -> 1; 5; d 3 -> 0 1 + code 1 in 2 bits; 15; end d 7 -> 0 0 1 + code 1 in 3 bits.
    // grown: count 0 in 3 bits; end d 1 -> 1.
    CHECK(write(v).hex == "CB 9E 41");
    CHECK(write(v).bits == 19 + 3 + 1);
    Slots empty;
    // fixed: end d 11 -> 0 0 1 + code 5; grown: count 3; d 2 -> 0 1 00; 7; end d 2 -> 0 1 00.
    empty.grown = {std::nullopt, 7, std::nullopt};
    CHECK(write(empty).hex == "EC E4 04");
    CHECK(write(empty).bits == 6 + 15);
    Slots r;
    r.fixed[9] = 1; // reset by the read
    REQUIRE_FALSE(read_hex("CB 9E 41", r));
    CHECK(r == v);
    std::mt19937 rng(9);
    for (int i = 0; i < 300; ++i) {
        Slots x;
        for (auto& slot : x.fixed)
            if (rng() % 3 == 0) slot = static_cast<std::uint8_t>(rng() % 16);
        x.grown.resize(rng() % 7);
        for (auto& slot : x.grown)
            if (rng() % 2 == 0) slot = static_cast<std::uint8_t>(rng() % 16);
        CHECK(round_trip(x) == x);
    }
}

TEST_CASE("sparse rejects an index past the end and a bad value", "[attributes][sparse][hostile]") {
    Slots s;
    reference_writer past;
    past.put(0, 1);
    past.put(0, 1);
    past.put(1, 1);
    past.put(7, 3); // d 13 from -1: index 12 > 10
    past.put(0, 8);
    const netser::error e = read_forged(past, s);
    CHECK(e.code == errc::out_of_range);
    CHECK(e.bit == 0);
    CHECK(e.path().starts_with("Slots.fixed"));
    CHECK(failure_of(write_error(Slots{{std::optional<std::uint8_t>(16)}, {}})) ==
          fail(errc::out_of_range, 1, "Slots.fixed[0]"));
    reference_writer too_many;
    too_many.put(0, 1); // fixed: the end sentinel at once, d 11 -> 0 0 1 + code 5
    too_many.put(0, 1);
    too_many.put(1, 1);
    too_many.put(5, 3);
    too_many.put(7, 3); // grown: count 7 > 6
    too_many.put(0, 16);
    CHECK(failure_of(read_forged(too_many, s)) == fail(errc::too_large, 6, "Slots.grown"));
}
