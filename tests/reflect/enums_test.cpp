// encodings/enum.hpp: described enums take bits_required(smallest, largest) bits, sent as
// v - smallest; a value that is not an enumerator (a gap of a sparse enum included)
// fails with invalid_value on write and on read. Undescribed enums need range or bits.

#include "reflect/test_types.hpp"

#include <cstdint>
#include <limits>
#include <random>

using netser::errc;
using namespace reflect_test;

namespace enums_test {

// -2, 0, 1: span 3, 2 bits, codes 0, 2, 3 (code 1 is a gap).
enum class Tri : std::int8_t { lo = -2, mid = 0, hi = 1 };
BOOST_DESCRIBE_ENUM(Tri, lo, mid, hi)

BOOST_DEFINE_ENUM_CLASS(Only, one)

// Three dense enumerators in 2 bits: code 3 is past the end.
BOOST_DEFINE_ENUM_CLASS(Color, red, green, blue)

// The two ends of the uint64 range: 64 bits, codes 0 and 2^64 - 1 only.
enum class Ends : std::uint64_t { first = 0, last = std::numeric_limits<std::uint64_t>::max() };
BOOST_DESCRIBE_ENUM(Ends, first, last)

// The int64 range: 64 bits, zero -> code 2^63.
enum class Signed64 : std::int64_t {
    min = std::numeric_limits<std::int64_t>::min(),
    zero = 0,
    max = std::numeric_limits<std::int64_t>::max()
};
BOOST_DESCRIBE_ENUM(Signed64, min, zero, max)

// Not described: encoded through range or bits like its underlying integer.
enum class Opaque : std::uint8_t {};

struct Loadout {
    Weapon w = Weapon::none;
    Sparse s = Sparse::a;
    Tri g = Tri::mid;
    bool operator==(const Loadout&) const = default;
};
NETSER_STRUCT(Loadout, w, s, g)

struct Mixed {
    Only only = Only::one;
    Color color = Color::red;
    Ends ends = Ends::first;
    Signed64 s64 = Signed64::zero;
    Opaque ranged = static_cast<Opaque>(2);
    Opaque bitted{};
    bool operator==(const Mixed&) const = default;
};
NETSER_STRUCT(Mixed, only, color, ends, s64, (ranged, netser::range(2, 9)), (bitted, netser::bits(3)))

} // namespace enums_test

using namespace enums_test;

TEST_CASE("described enums send v - smallest in bits_required(smallest, largest) bits", "[enums]") {
    // w rocket = 3 (2 bits); s c = 9 -> code 6 (3 bits); g lo -> code 0 (2 bits).
    CHECK(write(Loadout{Weapon::rocket, Sparse::c, Tri::lo}).hex == "1B");
    CHECK(write(Loadout{Weapon::rocket, Sparse::c, Tri::lo}).bits == 7);
    // w pistol = 1; s b = 5 -> code 2; g hi = 1 -> code 3.
    CHECK(to_hex(Loadout{Weapon::pistol, Sparse::b, Tri::hi}) == "69");
    Loadout l;
    REQUIRE_FALSE(read_hex("69", l));
    CHECK(l == Loadout{Weapon::pistol, Sparse::b, Tri::hi});
}

TEST_CASE("described enums round-trip every enumerator", "[enums]") {
    for (Weapon w : {Weapon::none, Weapon::pistol, Weapon::rifle, Weapon::rocket})
        for (Sparse s : {Sparse::a, Sparse::b, Sparse::c})
            for (Tri g : {Tri::lo, Tri::mid, Tri::hi}) CHECK(round_trip(Loadout{w, s, g}) == Loadout{w, s, g});
}

TEST_CASE("a sparse enum rejects the codes of its gaps and past its end on read", "[enums][hostile]") {
    for (std::uint64_t code = 0; code < 8; ++code) {
        reference_writer forged;
        forged.put(0, 2);
        forged.put(code, 3);
        forged.put(2, 2);
        Loadout l;
        const netser::error e = read_forged(forged, l);
        INFO("code " << code);
        if (code == 0 || code == 2 || code == 6) {
            CHECK_FALSE(e);
            CHECK(static_cast<int>(l.s) == 3 + static_cast<int>(code));
        } else {
            CHECK(failure_of(e) == fail(errc::invalid_value, 2, "Loadout.s"));
        }
    }
    reference_writer tri_gap;
    tri_gap.put(0, 5);
    tri_gap.put(1, 2); // Tri code 1 = -1, not an enumerator
    Loadout l;
    CHECK(failure_of(read_forged(tri_gap, l)) == fail(errc::invalid_value, 5, "Loadout.g"));
}

TEST_CASE("a sparse enum rejects its gaps and values outside it on write", "[enums][hostile]") {
    for (int v : {4, 6, 7, 8, 2, 10, -3, 1000}) {
        INFO("value " << v);
        CHECK(failure_of(write_error(Loadout{Weapon::none, static_cast<Sparse>(v), Tri::mid})) ==
              fail(errc::invalid_value, 2, "Loadout.s"));
    }
    CHECK(failure_of(write_error(Loadout{static_cast<Weapon>(4), Sparse::a, Tri::mid})) ==
          fail(errc::invalid_value, 0, "Loadout.w"));
    CHECK(failure_of(write_error(Loadout{Weapon::none, Sparse::a, static_cast<Tri>(-1)})) ==
          fail(errc::invalid_value, 5, "Loadout.g"));
}

TEST_CASE("a single-enumerator enum takes no bits; a dense enum rejects codes past its end", "[enums][hostile]") {
    Mixed m;
    m.color = Color::blue;
    const written w = write(m);
    CHECK(w.bits == 0 + 2 + 64 + 64 + 3 + 3);
    // only: nothing; color 2; ends 0; s64 zero -> code 2^63; ranged 2 -> code 0; bitted 0.
    CHECK(w.hex == "02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 02");

    reference_writer forged;
    forged.put(3, 2); // Color code 3: past blue
    put_zeros(forged, 64 + 64 + 6);
    CHECK(failure_of(read_forged(forged, m)) == fail(errc::invalid_value, 0, "Mixed.color"));
}

TEST_CASE("64-bit enums use the whole span and reject the codes between their enumerators", "[enums][hostile]") {
    Mixed v;
    v.ends = Ends::last;
    v.s64 = Signed64::min;
    CHECK(round_trip(v) == v);
    v.s64 = Signed64::max;
    CHECK(round_trip(v) == v);

    reference_writer forged;
    forged.put(0, 2);
    forged.put(1, 64); // Ends code 1: between first and last
    put_zeros(forged, 64 + 6);
    Mixed m;
    CHECK(failure_of(read_forged(forged, m)) == fail(errc::invalid_value, 2, "Mixed.ends"));
    v.ends = static_cast<Ends>(5);
    CHECK(failure_of(write_error(v)) == fail(errc::invalid_value, 2, "Mixed.ends"));
}

TEST_CASE("undescribed enums are encoded by their range or bits attribute", "[enums]") {
    Mixed v;
    v.ranged = static_cast<Opaque>(9);
    v.bitted = static_cast<Opaque>(5);
    CHECK(round_trip(v) == v);
    v.ranged = static_cast<Opaque>(10);
    CHECK(failure_of(write_error(v)) == fail(errc::out_of_range, 130, "Mixed.ranged"));
    v.ranged = static_cast<Opaque>(2);
    v.bitted = static_cast<Opaque>(8);
    CHECK(failure_of(write_error(v)) == fail(errc::out_of_range, 133, "Mixed.bitted"));

    reference_writer forged;
    put_zeros(forged, 2 + 64);
    forged.put(std::uint64_t{1} << 63, 64);
    forged.put(0, 3 + 3);
    Mixed ok;
    REQUIRE_FALSE(read_forged(forged, ok));
    CHECK(ok.s64 == Signed64::zero);
    CHECK(ok.ranged == static_cast<Opaque>(2));
}
