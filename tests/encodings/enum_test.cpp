// encodings/enum.hpp: described enums (v - smallest in bits_required(smallest, largest) bits)
// and undescribed enums with range / bits. The family's tests, one file
// (tests/encodings/README.md has the whole table).
//
// Where each aspect is covered:
//   wire bits     here: "described enums send v - smallest in bits_required(smallest, largest)
//                 bits", "a single-enumerator enum takes no bits..." (golden hex and bit counts).
//   model         here: "described enums: each enumerator is v - smallest in the width of the
//                 description's span" (codes from Boost.Describe's enumerators, not from netser);
//                 "described enums round-trip every enumerator".
//   bounds        here: max_bits in the model test and in "an undescribed enum with range rejects
//                 the codes above its range on read"; tests/reflect/bounds_test.cpp (Scalars).
//   hostile       here: gaps of a sparse enum, codes past a dense enum's end, 64-bit spans,
//                 "described enums: every code of the width reads as its enumerator or fails with
//                 invalid_value", "an undescribed enum with range rejects the codes above its range
//                 on read"; tests/hostile/ranges_test.cpp ("undeclared enum codes...").
//   compile-fail  tests/compile_fail/: enum_attribute described_enum_with_attribute.cpp;
//                 enum_undescribed enum_not_described.cpp. range / bits that do not fit an
//                 undescribed enum have no file of their own (range_does_not_fit.cpp and
//                 bits_too_wide.cpp show the same messages on integer members).

#include "reflect/test_types.hpp"

#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

// ==========================================================================================
// From tests/reflect/enums_test.cpp
// ==========================================================================================
// encodings/enum.hpp: described enums take bits_required(smallest, largest) bits, sent as
// v - smallest; a value that is not an enumerator (a gap of a sparse enum included)
// fails with invalid_value on write and on read. Undescribed enums need range or bits.

namespace enums {

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

} // namespace enums

// ==========================================================================================
// Written with tests/encodings/: the codes of described enums against a model computed from
// their enumerators (Boost.Describe), every code of the width read against that model, and
// the codes above an undescribed enum's range.
// ==========================================================================================

namespace enum_model {

using netser::errc;
using namespace reflect_test;

using netser_test::width_of;

/// The smallest and largest enumerators of a described enum, from its description.
template <class E>
struct enumerators {
    long long smallest = 0, largest = 0;
    std::vector<long long> values;
};
template <class E>
enumerators<E> enumerators_of() {
    enumerators<E> out;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>(
        [&](auto d) { out.values.push_back(static_cast<long long>(d.value)); });
    out.smallest = *std::min_element(out.values.begin(), out.values.end());
    out.largest = *std::max_element(out.values.begin(), out.values.end());
    return out;
}

// Spread out and signed: -300, 7, 1200 (span 1500: 11 bits, 3 valid codes of 2048).
enum class Spread : std::int16_t { low = -300, mid = 7, high = 1200 };
BOOST_DESCRIBE_ENUM(Spread, low, mid, high)

struct Holder {
    Spread spread = Spread::mid;
    Sparse sparse = Sparse::a;
    Weapon weapon = Weapon::none;
    bool operator==(const Holder&) const = default;
};
NETSER_STRUCT(Holder, spread, sparse, weapon)

// Not described: range(3, 7) sends v - 3 in 3 bits; codes 5, 6 and 7 are above the range.
enum class Level : std::uint8_t {};
struct Door {
    Level level = static_cast<Level>(3);
    bool open = false;
    bool operator==(const Door&) const = default;
};
NETSER_STRUCT(Door, (level, netser::range(3, 7)), open)

} // namespace enum_model

TEST_CASE("described enums: each enumerator is v - smallest in the width of the description's span",
          "[enums][model]") {
    using namespace enum_model;
    const auto spread = enumerators_of<Spread>();
    const auto sparse = enumerators_of<Sparse>();
    const auto weapon = enumerators_of<Weapon>();
    const int spread_bits = width_of(static_cast<std::uint64_t>(spread.largest - spread.smallest));
    const int sparse_bits = width_of(static_cast<std::uint64_t>(sparse.largest - sparse.smallest));
    const int weapon_bits = width_of(static_cast<std::uint64_t>(weapon.largest - weapon.smallest));
    CHECK(netser::max_bits<Holder>() == static_cast<std::size_t>(spread_bits + sparse_bits + weapon_bits));
    for (long long s : spread.values)
        for (long long p : sparse.values)
            for (long long w : weapon.values) {
                const Holder v{static_cast<Spread>(s), static_cast<Sparse>(p), static_cast<Weapon>(w)};
                reference_writer model;
                model.put(static_cast<std::uint64_t>(s - spread.smallest), spread_bits);
                model.put(static_cast<std::uint64_t>(p - sparse.smallest), sparse_bits);
                model.put(static_cast<std::uint64_t>(w - weapon.smallest), weapon_bits);
                const written out = write(v);
                CHECK(out.hex == hex(model.bytes()));
                CHECK(out.bits == model.bits());
                CHECK(round_trip(v) == v);
            }
}

TEST_CASE("described enums: every code of the width reads as its enumerator or fails with invalid_value",
          "[enums][model][hostile]") {
    using namespace enum_model;
    const auto spread = enumerators_of<Spread>();
    const int spread_bits = width_of(static_cast<std::uint64_t>(spread.largest - spread.smallest));
    std::size_t valid = 0;
    for (std::uint64_t code = 0; code < (std::uint64_t{1} << spread_bits); ++code) {
        reference_writer forged;
        forged.put(code, spread_bits);
        forged.put(0, 3 + 2); // sparse a, weapon none
        Holder h;
        const netser::error e = read_forged(forged, h);
        const long long value = spread.smallest + static_cast<long long>(code);
        const bool enumerator =
            std::find(spread.values.begin(), spread.values.end(), value) != spread.values.end();
        INFO("code " << code);
        if (enumerator) {
            ++valid;
            CHECK_FALSE(e);
            CHECK(static_cast<long long>(h.spread) == value);
        } else {
            CHECK(failure_of(e) == fail(errc::invalid_value, 0, "Holder.spread"));
        }
    }
    CHECK(valid == spread.values.size());
}

TEST_CASE("an undescribed enum with range rejects the codes above its range on read", "[enums][range][hostile]") {
    using namespace enum_model;
    constexpr int bits = width_of(7 - 3);
    STATIC_REQUIRE(netser::max_bits<Door>() == static_cast<std::size_t>(bits + 1));
    for (std::uint64_t code = 0; code < (std::uint64_t{1} << bits); ++code) {
        reference_writer forged;
        forged.put(code, bits);
        forged.put(1, 1);
        Door d;
        const netser::error e = read_forged(forged, d);
        INFO("code " << code);
        if (code <= 7 - 3) {
            CHECK_FALSE(e);
            CHECK(d == Door{static_cast<Level>(3 + code), true});
        } else {
            CHECK(failure_of(e) == fail(errc::out_of_range, 0, "Door.level"));
        }
    }
    CHECK(failure_of(write_error(Door{static_cast<Level>(2), false})) == fail(errc::out_of_range, 0, "Door.level"));
    CHECK(failure_of(write_error(Door{static_cast<Level>(8), false})) == fail(errc::out_of_range, 0, "Door.level"));
}
