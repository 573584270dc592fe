// encodings/container.hpp: std::string, std::array and C arrays, std::vector (vector<bool>
// too), maps and sets, with max_size / max_length / raw_bytes. The family's tests, one file
// (tests/encodings/README.md has the whole table).
//
// Where each aspect is covered:
//   wire bits     here: arrays without a count, vectors, vector<bool>, maps, sets, max_size,
//                 max_length (align, bytes) and raw_bytes (golden hex and bit counts).
//   model         here: "a vector, a string and an array write what a model of their annotations
//                 writes" (reference_writer); round trips of every count up to max_size and of
//                 every string length up to max_length.
//   bounds        here: "max_bits of containers is the largest count's elements plus the count,
//                 the string's align included"; tests/reflect/bounds_test.cpp (Containers);
//                 tests/hostile/bounded_memory_test.cpp and allocation_budget_test.cpp (memory).
//   hostile       here: counts above max_size, counts whose elements cannot fit (no allocation),
//                 duplicate keys, bad element codes, invalid UTF-8; tests/hostile/forged_counts_test.cpp,
//                 strings_test.cpp, hash_collision_test.cpp.
//   compile-fail  tests/compile_fail/: vector_max_size vector_without_max_size.cpp,
//                 class_vector_without_max_size.cpp; map_max_size map_without_max_size.cpp;
//                 string_max_length string_without_max_length.cpp,
//                 derived_string_without_max_length.cpp, string_elements_without_max_length.cpp;
//                 string_attribute max_size_on_string.cpp.

#include "reflect/test_types.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

// ==========================================================================================
// From tests/reflect/containers_test.cpp
// ==========================================================================================
// encodings/container.hpp, containers: std::array and C arrays (no count), std::vector (vector<bool>
// too), std::string, std::optional (presence bit), std::map / std::unordered_map
// (attributes on the mapped values), std::set (attributes on the keys). Element
// attributes, forged counts, duplicate keys, and no allocation for a count that
// cannot fit.

namespace containers {

using netser::errc;
using namespace reflect_test;

namespace containers_test {

struct Fixed {
    std::array<std::uint8_t, 3> bytes{};
    std::int16_t pair[2] = {};
    bool operator==(const Fixed&) const = default;
};
NETSER_STRUCT(Fixed, bytes, pair)

struct Grid {
    std::array<int, 4> cells{};          // range applies to each cell: 2 bits each
    Unit units[2];                       // described structs in a C array
    std::array<std::array<bool, 2>, 2> nested{};
    bool operator==(const Grid&) const = default;
};
NETSER_STRUCT(Grid, (cells, netser::range(0, 3)), units, nested)

struct Inventory {
    std::vector<std::uint16_t> items;
    bool operator==(const Inventory&) const = default;
};
NETSER_STRUCT(Inventory, (items, netser::max_size(8), netser::range(0, 1023)))

// Codes with no value in them: 201..255 for a level, 101..127 for a gain.
struct Levels {
    std::vector<std::uint8_t> levels; // a 4-bit count, then 8 bits each
    std::vector<float> gains;         // a 4-bit count, then 7 bits each
    bool operator==(const Levels&) const = default;
};
NETSER_STRUCT(Levels, (levels, netser::max_size(8), netser::range(0, 200)),
              (gains, netser::max_size(8), netser::quantize(0.f, 1.f, 0.01f)))

struct Bits {
    std::vector<bool> flags;
    bool operator==(const Bits&) const = default;
};
NETSER_STRUCT(Bits, (flags, netser::max_size(10)))

struct Scores {
    std::map<std::uint8_t, std::int16_t> by_id;
    bool operator==(const Scores&) const = default;
};
NETSER_STRUCT(Scores, (by_id, netser::max_size(4), netser::range(-10, 10)))

struct Lookup {
    std::unordered_map<std::uint8_t, std::uint8_t> table;
    bool operator==(const Lookup&) const = default;
};
NETSER_STRUCT(Lookup, (table, netser::max_size(1), netser::range(0, 7)))

struct BigLookup {
    std::unordered_map<std::uint16_t, Unit> table;
    bool operator==(const BigLookup&) const = default;
};
NETSER_STRUCT(BigLookup, (table, netser::max_size(64)))

struct HashTags {
    std::unordered_set<std::uint16_t> ids;
    bool operator==(const HashTags&) const = default;
};
NETSER_STRUCT(HashTags, (ids, netser::max_size(4), netser::range(0, 1000)))

struct Tags {
    std::set<std::uint16_t> ids;
    bool operator==(const Tags&) const = default;
};
NETSER_STRUCT(Tags, (ids, netser::max_size(4), netser::range(0, 1000)))

using counted_map = std::map<std::uint8_t, std::uint8_t, std::less<std::uint8_t>,
                             counting_allocator<std::pair<const std::uint8_t, std::uint8_t>>>;
struct CountedMap {
    counted_map m;
};
NETSER_STRUCT(CountedMap, (m, netser::max_size(1000)))

struct CountedSet {
    std::set<std::uint32_t, std::less<std::uint32_t>, counting_allocator<std::uint32_t>> s;
};
NETSER_STRUCT(CountedSet, (s, netser::max_size(100000)))

struct CountedBits {
    std::vector<bool, counting_allocator<bool>> flags;
};
NETSER_STRUCT(CountedBits, (flags, netser::max_size(5000)))

// A class with a map's member types and its own serialize: netser must not take it for a
// std::map (the standard ones are recognised by their members and their names).
namespace lookalike {
template <class K, class V>
struct map {
    using key_type = K;
    using mapped_type = V;
    std::uint8_t only = 0;
};
template <netser::stream S, class K, class V>
bool serialize(S& s, map<K, V>& m) {
    return netser::serialize_bits(s, m.only, 3);
}
} // namespace lookalike

struct Lookalike {
    lookalike::map<int, int> m;
};
NETSER_STRUCT(Lookalike, m)

struct no_op_delete {
    void operator()(int* p) const noexcept { delete p; }
};

} // namespace containers_test

using namespace containers_test;

// --- which types are the standard containers ------------------------------------

TEST_CASE("the standard holders and associative containers are recognised by members and name, and only they",
          "[containers][map][set]") {
    using netser::detail::is_map;
    using netser::detail::is_set;
    using netser::detail::is_unique_ptr;
    using netser::detail::names_std_template;
    CHECK(is_unique_ptr<std::unique_ptr<int>>::value);
    CHECK(is_unique_ptr<std::unique_ptr<Unit>>::value);
    CHECK_FALSE(is_unique_ptr<std::unique_ptr<int, no_op_delete>>::value); // a reader could not fill it
    CHECK_FALSE(is_unique_ptr<std::shared_ptr<int>>::value);
    CHECK_FALSE(is_unique_ptr<int>::value);
    CHECK(is_map<std::map<int, int>>::value);
    CHECK(is_map<counted_map>::value);
    CHECK(is_map<std::unordered_map<std::uint8_t, Unit>>::value);
    CHECK_FALSE(is_map<std::multimap<int, int>>::value);
    CHECK_FALSE(is_map<lookalike::map<int, int>>::value);
    CHECK_FALSE(is_map<std::set<int>>::value);
    CHECK(is_set<std::set<std::uint16_t>>::value);
    CHECK_FALSE(is_set<std::multiset<int>>::value);
    CHECK(is_set<std::unordered_set<int>>::value);
    CHECK_FALSE(is_set<std::unordered_multiset<int>>::value);
    CHECK_FALSE(is_set<std::map<int, int>>::value);
    // The names other standard libraries give them (libstdc++'s debug mode, libc++).
    CHECK(names_std_template("std::__debug::map<int, int>", "map"));
    CHECK(names_std_template("std::__1::unique_ptr<int>", "unique_ptr"));
    CHECK_FALSE(names_std_template("std::multimap<int, int>", "map"));
    CHECK_FALSE(names_std_template("stdx::map<int, int>", "map"));
    CHECK_FALSE(names_std_template("std::mapping<int>", "map"));
    CHECK_FALSE(names_std_template("std::__detail", "map"));
    // The lookalike goes through its own serialize: 3 bits.
    Lookalike l;
    l.m.only = 5;
    CHECK(write(l).bits == 3);
    CHECK(write(l).hex == "05");
}

// --- arrays -------------------------------------------------------------------

TEST_CASE("std::array and C arrays send their elements without a count", "[containers][array]") {
    const Fixed v{{1, 2, 3}, {-1, 2}};
    CHECK(write(v).hex == "01 02 03 FF FF 02 00");
    CHECK(write(v).bits == 56);
    CHECK(round_trip(v) == v);
}

TEST_CASE("attributes on an array apply to each element, nested arrays included", "[containers][array]") {
    Grid g;
    g.cells = {0, 1, 2, 3};
    g.units[0] = {10, true};
    g.units[1] = {100, false};
    g.nested = {{{true, false}, {false, true}}};
    // cells 0..3 in 2 bits each -> E4; units: 10 + alive, 100 + dead; nested 1, 0, 0, 1.
    CHECK(write(g).hex == "E4 8A 64 09");
    CHECK(write(g).bits == 8 + 16 + 4);
    CHECK(round_trip(g) == g);
    g.cells[2] = 4;
    CHECK(failure_of(write_error(g)) == fail(errc::out_of_range, 4, "Grid.cells[2]"));
    g.cells[2] = 2;
    g.units[1].hull = 101;
    CHECK(failure_of(write_error(g)) == fail(errc::out_of_range, 16, "Grid.units[1].hull"));
}

// --- vector -------------------------------------------------------------------

TEST_CASE("a vector sends its count in [0, max_size] and its elements with the element attributes", "[containers][vector]") {
    // count 2 in 4 bits; 1 and 1023 in 10 bits each.
    CHECK(write(Inventory{{1, 1023}}).hex == "12 C0 FF");
    CHECK(write(Inventory{{1, 1023}}).bits == 24);
    Inventory inv;
    REQUIRE_FALSE(read_hex("12 C0 FF", inv));
    CHECK(inv == Inventory{{1, 1023}});
    std::mt19937 rng(31);
    for (int i = 0; i < 200; ++i) {
        Inventory v;
        v.items.resize(std::uniform_int_distribution<std::size_t>(0, 8)(rng));
        for (auto& x : v.items) x = static_cast<std::uint16_t>(std::uniform_int_distribution<int>(0, 1023)(rng));
        CHECK(write(v).bits == 4 + 10 * v.items.size());
        CHECK(round_trip(v) == v);
    }
}

TEST_CASE("reading a vector into one that holds elements leaves exactly the packet's elements", "[containers][vector]") {
    Inventory longer{{5, 6, 7, 8}}; // shrinks: the old elements past the count go
    REQUIRE_FALSE(read_hex("12 C0 FF", longer));
    CHECK(longer == Inventory{{1, 1023}});
    Inventory shorter{{9}}; // grows: the old element is overwritten, the new one read
    REQUIRE_FALSE(read_hex("12 C0 FF", shorter));
    CHECK(shorter == Inventory{{1, 1023}});
    std::mt19937 rng(33);
    Inventory reused; // one object read into again and again, as a receive loop does
    for (int i = 0; i < 100; ++i) {
        Inventory v;
        v.items.resize(std::uniform_int_distribution<std::size_t>(0, 8)(rng));
        for (auto& x : v.items) x = static_cast<std::uint16_t>(std::uniform_int_distribution<int>(0, 1023)(rng));
        REQUIRE_FALSE(read_hex(write(v).hex, reused));
        CHECK(reused == v);
    }
}

TEST_CASE("a vector rejects an element outside the element range and a count above max_size", "[containers][vector][hostile]") {
    CHECK(failure_of(write_error(Inventory{{1, 1024}})) == fail(errc::out_of_range, 14, "Inventory.items[1]"));
    CHECK(failure_of(write_error(Inventory{std::vector<std::uint16_t>(9)})) ==
          fail(errc::too_large, 0, "Inventory.items"));
    Inventory inv;
    reference_writer forged;
    forged.put(9, 4);
    put_zeros(forged, 90);
    CHECK(failure_of(read_forged(forged, inv)) == fail(errc::too_large, 0, "Inventory.items"));
    CHECK(inv.items.capacity() == 0);
    reference_writer short_packet; // count 8 needs 80 bits; 12 are left
    short_packet.put(8, 4);
    short_packet.put(0, 12);
    CHECK(failure_of(read_forged(short_packet, inv)) == fail(errc::overflow, 0, "Inventory.items"));
    CHECK(inv.items.capacity() == 0);
}

// A bad element of a vector of values (integers, quantized floats) is reported by its
// index at its own bit, the elements before it kept, at every index; a buffer that ends
// inside the vector fails at the first element that does not fit.
TEST_CASE("a vector of values reports its bad element by index at its own bit", "[containers][vector][hostile]") {
    const float half = round_trip(Levels{{}, {0.5f}}).gains[0]; // what code 50 reads as
    for (std::size_t k = 0; k < 8; ++k) {
        const std::string index = "[" + std::to_string(k) + "]";
        Levels bad_level{std::vector<std::uint8_t>(8, 7), {}};
        bad_level.levels[k] = 201;
        CHECK(failure_of(write_error(bad_level)) == fail(errc::out_of_range, 4 + 8 * k, "Levels.levels" + index));
        Levels bad_gain{{}, std::vector<float>(8, 0.5f)};
        bad_gain.gains[k] = std::numeric_limits<float>::quiet_NaN(); // (out of range is clamped)
        CHECK(failure_of(write_error(bad_gain)) == fail(errc::invalid_value, 8 + 7 * k, "Levels.gains" + index));

        reference_writer levels; // count 8, code 201 at element k
        levels.put(8, 4);
        for (std::size_t i = 0; i < 8; ++i) levels.put(i == k ? 201 : 7, 8);
        levels.put(0, 4);
        Levels read_levels;
        CHECK(failure_of(read_forged(levels, read_levels)) == fail(errc::out_of_range, 4 + 8 * k, "Levels.levels" + index));
        REQUIRE(read_levels.levels.size() == 8);
        for (std::size_t i = 0; i < k; ++i) CHECK(read_levels.levels[i] == 7);

        reference_writer gains; // no levels, count 8, code 127 at element k
        gains.put(0, 4);
        gains.put(8, 4);
        for (std::size_t i = 0; i < 8; ++i) gains.put(i == k ? 127 : 50, 7);
        Levels read_gains;
        CHECK(failure_of(read_forged(gains, read_gains)) == fail(errc::out_of_range, 8 + 7 * k, "Levels.gains" + index));
        REQUIRE(read_gains.gains.size() == 8);
        for (std::size_t i = 0; i < k; ++i) CHECK(read_gains.gains[i] == half);
    }
    // A buffer that ends inside the vector (32 bits): the elements that fit are written
    // one by one, and the first that does not is the overflow.
    const Levels full{std::vector<std::uint8_t>(8, 7), {}};
    std::array<std::byte, 4> buffer{};
    netser::write_stream w(buffer.data(), buffer.size());
    CHECK_FALSE(netser::serialize(w, full));
    CHECK(failure_of(w.error()) == fail(errc::overflow, 28, "Levels.levels[3]"));
    // A growing stream makes the room for all of it, and a reader reads it back.
    std::mt19937 rng(34);
    for (int i = 0; i < 200; ++i) {
        Levels v;
        v.levels.resize(std::uniform_int_distribution<std::size_t>(0, 8)(rng));
        for (auto& x : v.levels) x = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 200)(rng));
        v.gains.resize(std::uniform_int_distribution<std::size_t>(0, 8)(rng));
        for (auto& g : v.gains) g = static_cast<float>(std::uniform_int_distribution<int>(0, 100)(rng)) / 100.f;
        std::vector<std::byte> grown;
        netser::vector_write_stream vw(grown, 64);
        REQUIRE(netser::serialize(vw, v));
        CHECK(vw.bits_processed() == write(v).bits);
        const auto bytes = vw.finish();
        Levels back;
        REQUIRE_FALSE(read_bytes(bytes, back));
        CHECK(back == round_trip(v));
    }
}

TEST_CASE("a vector<bool> sends one bit per element", "[containers][vector]") {
    CHECK(write(Bits{{true, false, true}}).hex == "53");
    CHECK(write(Bits{{true, false, true}}).bits == 7);
    Bits b;
    REQUIRE_FALSE(read_hex("53", b));
    CHECK(b == Bits{{true, false, true}});
    std::mt19937 rng(32);
    for (int i = 0; i < 100; ++i) {
        Bits v;
        v.flags.resize(std::uniform_int_distribution<std::size_t>(0, 10)(rng));
        for (std::size_t k = 0; k < v.flags.size(); ++k) v.flags[k] = (rng() & 1u) != 0;
        CHECK(round_trip(v) == v);
    }
}

TEST_CASE("a vector<bool> rejects a count above max_size and one past the packet end", "[containers][vector][hostile]") {
    Bits b;
    CHECK(failure_of(read_hex("FB FF", b)) == fail(errc::too_large, 0, "Bits.flags"));
    CHECK(failure_of(read_hex("0A", b)) == fail(errc::overflow, 0, "Bits.flags"));
    CountedBits counted;
    allocated_elements = 0;
    reference_writer forged; // count 5000 then 100 bits
    forged.put(5000, 13);
    put_zeros(forged, 100);
    CHECK(failure_of(read_forged(forged, counted)) == fail(errc::overflow, 0, "CountedBits.flags"));
    CHECK(allocated_elements == 0);
}

// --- map, unordered_map -------------------------------------------------------

TEST_CASE("a map sends its count, then each key with the default encoding and each value with the attributes", "[containers][map]") {
    // count 2 in 3 bits; key 1 (8 bits), value -10 -> code 0 (5 bits); key 2, value 10 -> code 20.
    const Scores v{{{1, -10}, {2, 10}}};
    CHECK(write(v).hex == "0A 00 02 14");
    CHECK(write(v).bits == 3 + 2 * 13);
    Scores s;
    REQUIRE_FALSE(read_hex("0A 00 02 14", s));
    CHECK(s == v);
    std::mt19937 rng(33);
    for (int i = 0; i < 200; ++i) {
        Scores r;
        const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 4)(rng);
        while (r.by_id.size() < n)
            r.by_id[static_cast<std::uint8_t>(rng())] = static_cast<std::int16_t>(std::uniform_int_distribution<int>(-10, 10)(rng));
        CHECK(round_trip(r) == r);
    }
}

TEST_CASE("a map rejects a duplicate key, a bad value code and a count above max_size", "[containers][map][hostile]") {
    Scores s;
    CHECK(failure_of(read_hex("0A 00 01 00", s)) == fail(errc::invalid_value, 16, "Scores.by_id[1]"));
    reference_writer value;
    value.put(1, 3);
    value.put(7, 8);
    value.put(21, 5); // value code 21 > 20
    CHECK(failure_of(read_forged(value, s)) == fail(errc::out_of_range, 11, "Scores.by_id[0]"));
    CHECK(failure_of(read_hex("05 00 00 00 00 00 00 00 00", s)) == fail(errc::too_large, 0, "Scores.by_id"));
    CHECK(failure_of(write_error(Scores{{{1, 11}}})) == fail(errc::out_of_range, 11, "Scores.by_id[0]"));
    CHECK(failure_of(write_error(Scores{{{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}}})) ==
          fail(errc::too_large, 0, "Scores.by_id"));
}

TEST_CASE("a map rejects a count whose entries cannot fit before allocating", "[containers][map][hostile]") {
    CountedMap m;
    allocated_elements = 0;
    reference_writer forged; // count 1000 (16 bits each), then 5 bytes
    forged.put(1000, 10);
    forged.put(0, 40);
    CHECK(failure_of(read_forged(forged, m)) == fail(errc::overflow, 0, "CountedMap.m"));
    CHECK(m.m.empty());
    CHECK(allocated_elements == 0);
}

TEST_CASE("an unordered_map round-trips and applies the attributes to its values", "[containers][map]") {
    // count 1 in 1 bit; key 5 in 8 bits; value 7 in 3 bits.
    CHECK(write(Lookup{{{5, 7}}}).hex == "0B 0E");
    CHECK(write(Lookup{{{5, 7}}}).bits == 12);
    CHECK(failure_of(write_error(Lookup{{{5, 8}}})) == fail(errc::out_of_range, 9, "Lookup.table[0]"));
    BigLookup big;
    for (std::uint16_t k = 0; k < 64; ++k) big.table[static_cast<std::uint16_t>(k * 1000u)] = Unit{static_cast<std::uint8_t>(k), k % 3 == 0};
    CHECK(write(big).bits == 7 + 64 * (16 + 8));
    CHECK(round_trip(big) == big);
    BigLookup dup;
    reference_writer forged;
    forged.put(2, 7);
    forged.put(500, 16);
    forged.put(1, 8);
    forged.put(500, 16);
    forged.put(1, 8);
    CHECK(failure_of(read_forged(forged, dup)) == fail(errc::invalid_value, 31, "BigLookup.table[1]"));
}

// --- set ----------------------------------------------------------------------

TEST_CASE("an unordered_set sends its count, then each key with the attributes, as a set does", "[containers][set]") {
    // count 1 in 3 bits; 1000 in 10 bits.
    CHECK(write(HashTags{{1000}}).hex == "41 1F");
    CHECK(write(HashTags{{1000}}).bits == 13);
    std::mt19937 rng(35);
    for (int i = 0; i < 200; ++i) {
        HashTags r;
        const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 4)(rng);
        while (r.ids.size() < n) r.ids.insert(static_cast<std::uint16_t>(std::uniform_int_distribution<int>(0, 1000)(rng)));
        CHECK(round_trip(r) == r);
    }
    HashTags dup;
    reference_writer forged; // count 2, key 500 twice
    forged.put(2, 3);
    forged.put(500, 10);
    forged.put(500, 10);
    CHECK(failure_of(read_forged(forged, dup)) == fail(errc::invalid_value, 13, "HashTags.ids[1]"));
    reference_writer high; // 1001 is past the range
    high.put(1, 3);
    high.put(1001, 10);
    CHECK(failure_of(read_forged(high, dup)).code == errc::out_of_range);
}

TEST_CASE("a set sends its count, then each key with the attributes", "[containers][set]") {
    // count 2 in 3 bits; 3 and 1000 in 10 bits each.
    CHECK(write(Tags{{3, 1000}}).hex == "1A 00 7D");
    CHECK(write(Tags{{3, 1000}}).bits == 23);
    Tags t;
    REQUIRE_FALSE(read_hex("1A 00 7D", t));
    CHECK(t == Tags{{3, 1000}});
    std::mt19937 rng(34);
    for (int i = 0; i < 200; ++i) {
        Tags r;
        const std::size_t n = std::uniform_int_distribution<std::size_t>(0, 4)(rng);
        while (r.ids.size() < n) r.ids.insert(static_cast<std::uint16_t>(std::uniform_int_distribution<int>(0, 1000)(rng)));
        CHECK(round_trip(r) == r);
    }
}

TEST_CASE("a set rejects a duplicate key, a key code out of range and a count above max_size", "[containers][set][hostile]") {
    Tags t;
    CHECK(failure_of(read_hex("1A 60 00", t)) == fail(errc::invalid_value, 13, "Tags.ids[1]"));
    reference_writer key;
    key.put(1, 3);
    key.put(1001, 10);
    CHECK(failure_of(read_forged(key, t)) == fail(errc::out_of_range, 3, "Tags.ids[0]"));
    CHECK(failure_of(read_hex("05 00 00 00 00 00 00", t)) == fail(errc::too_large, 0, "Tags.ids"));
    CHECK(failure_of(write_error(Tags{{3, 1001}})) == fail(errc::out_of_range, 13, "Tags.ids[1]"));

    CountedSet counted;
    allocated_elements = 0;
    reference_writer forged; // count 100000 (32 bits each), then 8 bytes
    forged.put(100000, 17);
    forged.put(0, 64);
    CHECK(failure_of(read_forged(forged, counted)) == fail(errc::overflow, 0, "CountedSet.s"));
    CHECK(allocated_elements == 0);
}

} // namespace containers

// ==========================================================================================
// From tests/reflect/attributes_test.cpp (max_size, max_length, raw_bytes)
// ==========================================================================================
// attributes.hpp: every member attribute, each with a golden vector derived by hand
// from the wire format, a random round trip and a hostile read.

namespace attributes_container {

using netser::errc;
using namespace reflect_test;

namespace attributes_test {

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

// Strings are strict UTF-8 unless raw_bytes.
struct Texts {
    std::string text;
    std::string bytes;
    bool operator==(const Texts&) const = default;
};
NETSER_STRUCT(Texts, (text, netser::max_length(4)), (bytes, netser::max_length(4), netser::raw_bytes))

} // namespace attributes_test

using namespace attributes_test;

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

} // namespace attributes_container

// ==========================================================================================
// Written with tests/encodings/: a vector, a string and an array against a model written
// from the annotations, and max_bits as the annotations' sum.
// ==========================================================================================

namespace container_model {

using netser::errc;
using namespace reflect_test;

using netser_test::width_of;

struct Cargo {
    std::vector<std::uint16_t> items;    // count in width_of(6) bits, each v in width_of(500)
    std::string label;                   // length in width_of(10) bits, align, the bytes
    std::array<std::int8_t, 3> trim{};   // no count, each v + 4 in width_of(7)
    bool operator==(const Cargo&) const = default;
};
NETSER_STRUCT(Cargo,
    (items, netser::max_size(6), netser::range(0, 500)),
    (label, netser::max_length(10)),
    (trim, netser::range(-4, 3)))

// The string's align can cost up to 7 bits.
constexpr std::size_t cargo_max_bits = static_cast<std::size_t>(width_of(6) + 6 * width_of(500)) +
                                       static_cast<std::size_t>(width_of(10) + 7 + 8 * 10) +
                                       static_cast<std::size_t>(3 * width_of(7));

reference_writer model_of(const Cargo& v) {
    reference_writer w;
    w.put(v.items.size(), width_of(6));
    for (std::uint16_t item : v.items) w.put(item, width_of(500));
    w.put(v.label.size(), width_of(10));
    w.align();
    for (char c : v.label) w.put(static_cast<unsigned char>(c), 8);
    for (std::int8_t t : v.trim) w.put(static_cast<std::uint64_t>(t + 4), width_of(7));
    return w;
}

Cargo random_cargo(std::mt19937& rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Cargo v;
    v.items.resize(static_cast<std::size_t>(pick(0, 6)));
    for (auto& item : v.items) item = static_cast<std::uint16_t>(pick(0, 500));
    v.label.resize(static_cast<std::size_t>(pick(0, 10)));
    for (char& c : v.label) c = static_cast<char>(pick(32, 126));
    for (auto& t : v.trim) t = static_cast<std::int8_t>(pick(-4, 3));
    return v;
}

} // namespace container_model

TEST_CASE("a vector, a string and an array write what a model of their annotations writes", "[containers][model]") {
    using namespace container_model;
    std::mt19937 rng(30);
    for (int i = 0; i < 500; ++i) {
        const Cargo v = random_cargo(rng);
        const reference_writer model = model_of(v);
        const written w = write(v);
        INFO("items " << v.items.size() << " label \"" << v.label << "\"");
        CHECK(w.hex == hex(model.bytes()));
        CHECK(w.bits == model.bits());
        CHECK(round_trip(v) == v);
        Cargo r;
        REQUIRE_FALSE(read_forged(model, r));
        CHECK(r == v);
    }
}

TEST_CASE("max_bits of containers is the largest count's elements plus the count, the string's align included",
          "[containers][bounds]") {
    using namespace container_model;
    STATIC_REQUIRE(netser::max_bits<Cargo>() == cargo_max_bits);
    std::mt19937 rng(31);
    for (int i = 0; i < 50; ++i) {
        Cargo full = random_cargo(rng);
        full.items.assign(6, static_cast<std::uint16_t>(std::uniform_int_distribution<int>(0, 500)(rng)));
        full.label.assign(10, 'x');
        const written w = write(full);
        // Only the align before the label's bytes falls short of the bound.
        CHECK(w.bits <= cargo_max_bits);
        CHECK(w.bits + 7 >= cargo_max_bits);
        CHECK(w.bits == model_of(full).bits());
    }
    // One element or one byte more than the annotation allows is refused.
    Cargo over;
    over.items.assign(7, 0);
    CHECK(failure_of(write_error(over)) == fail(errc::too_large, 0, "Cargo.items"));
    over.items.clear();
    over.label.assign(11, 'x');
    CHECK(failure_of(write_error(over)) ==
          fail(errc::too_large, static_cast<std::size_t>(width_of(6)), "Cargo.label"));
}
