// encodings/struct.hpp, plain aggregates (no macro) through Boost.PFR: every field with its
// default encoding, fields named "field<i>" in error paths; attributes on an
// aggregate member apply to each of its fields.

#include "reflect/test_types.hpp"

#include <array>
#include <cstdint>
#include <random>

using netser::errc;
using namespace reflect_test;

namespace aggregate_test {

struct Plain {
    std::uint8_t a = 0;
    bool b = false;
    std::int16_t c = 0;
    bool operator==(const Plain&) const = default;
};

struct Gear {
    Plain plain;
    Weapon weapon = Weapon::none;
    Unit unit; // a described struct inside an aggregate
    bool operator==(const Gear&) const = default;
};

struct RGB {
    float r = 0, g = 0, b = 0;
    bool operator==(const RGB&) const = default;
};

struct Colored {
    RGB color;
    Plain plain; // no attributes: defaults
    bool operator==(const Colored&) const = default;
};
NETSER_STRUCT(Colored, (color, netser::quantize(0.f, 1.f, 0.125f)), plain)

} // namespace aggregate_test

using namespace aggregate_test;

TEST_CASE("a plain aggregate sends its fields in order with their default encodings", "[aggregate]") {
    // a 0x12 in 8 bits; b 1 bit; c -2 as 0xFFFE in 16 bits.
    CHECK(write(Plain{0x12, true, -2}).hex == "12 FD FF 01");
    CHECK(write(Plain{0x12, true, -2}).bits == 25);
    Plain p;
    REQUIRE_FALSE(read_hex("12 FD FF 01", p));
    CHECK(p == Plain{0x12, true, -2});
    static_assert(netser::max_bits<Plain>() == 25);
}

TEST_CASE("aggregates nest with described structs and enums both ways", "[aggregate]") {
    const Gear g{{1, false, 2}, Weapon::rifle, {50, false}};
    // plain 25 bits; weapon 2 bits; unit 7 + 1 bits.
    CHECK(write(g).bits == 25 + 2 + 8);
    CHECK(round_trip(g) == g);
    std::mt19937 rng(51);
    for (int i = 0; i < 200; ++i) {
        const Gear v{{static_cast<std::uint8_t>(rng()), (rng() & 1u) != 0, static_cast<std::int16_t>(rng())},
                     static_cast<Weapon>(rng() % 4),
                     {static_cast<std::uint8_t>(rng() % 101), (rng() & 1u) != 0}};
        CHECK(round_trip(v) == v);
    }
    static_assert(netser::max_bits<Gear>() == 35);
}

TEST_CASE("a failure inside an aggregate names the field by its index", "[aggregate][hostile]") {
    Gear g;
    reference_writer forged;
    forged.put(0, 25);
    forged.put(0, 2);
    forged.put(101, 7); // unit.hull 101 > 100
    forged.put(0, 1);
    const netser::error e = read_forged(forged, g);
    CHECK(e.code == errc::out_of_range);
    CHECK(e.bit == 27);
    CHECK(e.path() == "aggregate_test::Gear.field2.hull");
    CHECK(failure_of(read_hex("00 00 00", g)) == fail(errc::overflow, 9, "aggregate_test::Gear.field0.field2"));
    Gear bad = Gear{{}, static_cast<Weapon>(9), {}};
    CHECK(write_error(bad).path() == "aggregate_test::Gear.field1");
}

TEST_CASE("attributes on an aggregate member apply to each of its fields", "[aggregate][quantize]") {
    // r 0, g 0.5, b 1 -> codes 0, 4, 8 in 4 bits each; then plain's 25 bits from bit 12.
    const Colored c{{0.f, 0.5f, 1.f}, {0x12, true, -2}};
    CHECK(write(c).hex == "40 28 D1 FF 1F");
    CHECK(write(c).bits == 12 + 25);
    CHECK(round_trip(c) == c);
    Colored r;
    reference_writer forged;
    forged.put(0, 4);
    forged.put(9, 4); // g code 9 > max_int 8
    forged.put(0, 4 + 25);
    CHECK(failure_of(read_forged(forged, r)) == fail(errc::out_of_range, 4, "Colored.color.field1"));
}
