// Keyed deltas (docs/wire_format.md, "Keyed deltas"): one golden vector per form, each
// derived by tools/golden.py (an independent Python model written from the document, the
// delta_keyed_* and delta_sparse_slots rows of the "Delta" golden table) and spelled out
// bit by bit in the comment above it. Each vector is written, measured and read back
// against its baseline; a few hostile reads check the errors at the bits the document
// states (where it names none, the bits docs/schema.md, "By key", gives: the reference
// decoder's golden_deltas.json has the same packets).

#include "delta/delta_types.hpp"
#include "delta/keyed_types.hpp"

#include <netser/netser.hpp>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string_view>

using namespace keyed_golden;
using delta_test::delta_hex;
using delta_test::read_delta;

namespace {

// golden_round_trip, then the value read equals obj (the values here are their own
// received values).
template <class T>
void check_keyed_golden(const T& obj, const T& base, std::string_view golden, std::size_t golden_bits) {
    CHECK(delta_test::golden_round_trip(obj, base, golden, golden_bits) == obj);
}

// Reads a forged delta against base: the error's code, bit and path.
template <class T>
netser_test::failure keyed_failure(std::string_view packet, const T& base) {
    T out{};
    return netser_test::failure_of(read_delta(packet, out, base));
}

using netser::errc;
using netser_test::fail;

const Scores score_base{{{10, 50}, {20, 60}, {30, 70}}};
const Scores score_next{{{10, 51}, {25, 5}, {30, 70}}};

} // namespace

TEST_CASE("maps and unordered maps send their changed, removed and added entries by key code", "[delta][keyed][golden]") {
    // delta_keyed_map: 1 (struct), 1 (m); the baseline's 3 entries by key code, 10 20 30,
    // touched T T F: indices would take 1 + 1 + 4 bits, not fewer than 3, so changed bits:
    // 0; 10: 1, removed 0, 51 against 50: 1 0 (rung [1, 1], sign +); 20: 1, removed 1;
    // 30: 0; added count 1 in 4 bits: 1 0 0 0; key 25 in 16 bits; 5 in 7 bits.
    // 1 1 0 1 0 1 0 1 | 1 0 1 0 0 0 1 0 | 0 1 1 0 0 0 0 0 | 0 0 0 0 0 0 1 0 | 1 0 0 0 0
    // -> AB 45 06 40 01, 37 bits.
    check_keyed_golden(score_next, score_base, "AB 45 06 40 01", 37);
    // delta_keyed_unordered_map: the same bytes, whatever the buckets' order.
    const HashScores hash_base{{score_base.m.begin(), score_base.m.end()}};
    const HashScores hash_next{{score_next.m.begin(), score_next.m.end()}};
    check_keyed_golden(hash_next, hash_base, "AB 45 06 40 01", 37);
    // delta_keyed_map_unchanged: the struct's changed bit alone.
    check_keyed_golden(score_base, score_base, "00", 1);
}

TEST_CASE("a set sends its removed and added keys by key code", "[delta][keyed][golden]") {
    // delta_keyed_set: 1 1; the reference order by code: 5, 7, -1 (0xFFFF); 7 removed
    // (indices: 4 + 4 bits against 3): 0, 0 1 0 (a set's touched key has no body);
    // added count 1: 1 0 0 0; -2 as 0xFFFE in 16 bits.
    // 1 1 0 0 1 0 1 0 | 0 0 0 1 1 1 1 1 | 1 1 1 1 1 1 1 1 | 1 1 -> 53 F8 FF 03, 26 bits.
    check_keyed_golden(Tags{{-2, -1, 5}}, Tags{{-1, 5, 7}}, "53 F8 FF 03", 26);
}

TEST_CASE("a keyed vector sends its entries by key, then its order: kept, sorted or moves", "[delta][keyed][golden]") {
    const Units spawned{{{1, 10}, {2, 20}, {3, 30}}};
    // delta_keyed_vector_spawn_order: 2 erased, 4 appended. 1 1; the baseline's 1 2 3,
    // touched F T F: 0, 0 1 (removed 1) 0; added 1: 1 0 0 0; id 4 in 16 bits, 40 in 7;
    // the kept order (1 3, then 4) is the vector's: 0.
    // -> B3 20 00 40 01, 35 bits.
    check_keyed_golden(Units{{{1, 10}, {3, 30}, {4, 40}}}, spawned, "B3 20 00 40 01", 35);
    // delta_keyed_vector_sorted: 2 inserted between 1 and 3. 1 1; nothing touched (the end
    // index alone would take 4 bits, against 3): 0 0 0 0; added 1: 1 0 0 0; {2, 20};
    // the kept order 1 3 5 2 is not the vector's (moved: 1), which is sorted by id
    // (listed: 0). -> 43 08 00 50 02, 35 bits.
    check_keyed_golden(Units{{{1, 10}, {2, 20}, {3, 30}, {5, 50}}}, Units{{{1, 10}, {3, 30}, {5, 50}}},
                       "43 08 00 50 02", 35);
    // delta_keyed_vector_swap_remove: 2 removed by moving the last (4) into its place.
    // 1 1; touched F T F F: 0, 0 1 1 0 0; added 0: 0 0 0 0; order: the kept places of
    // 1 4 3 are 0 2 1: moved 1, not sorted 1; 4 moves (patience: 1 and 3 stay), count 1
    // in bits_required(0, 3) = 2 bits: 1 0; its position 1 as a relative index (d = 2,
    // max 3): 0 1 0 0; its place 2 as 3 - 1 - 2 = 0 in 2 bits: 0 0.
    // 1 1 0 0 1 1 0 0 | 0 0 0 0 1 1 1 0 | 0 1 0 0 0 0 -> 33 70 02, 22 bits.
    check_keyed_golden(Units{{{1, 10}, {4, 40}, {3, 30}}}, Units{{{1, 10}, {2, 20}, {3, 30}, {4, 40}}}, "33 70 02",
                       22);
}

TEST_CASE("a sparse array sends the slots that appeared, disappeared or changed", "[delta][keyed][golden]") {
    // delta_sparse_slots: slots 3 (gone), 5 (50 -> 55) and 6 (new) of 8 changed; indices
    // would take 4 + 4 + 1 + 4 bits: changed bits. 1 1; 0; 0 0 0 1 (slot 3: absent, 0)
    // 0 1 (slot 5: present 1, 55 against 50: 0 1, sign 0, 3 in 4 bits) 1 (slot 6: present
    // 1, no baseline value: 60 in 7 bits) 0.
    // 1 1 0 0 0 0 1 0 | 0 1 1 0 1 0 1 1 | 0 0 1 1 0 0 1 1 | 1 1 0 0 -> 43 D6 CC 03, 28 bits.
    Slots8 base;
    base.slots[1] = 10, base.slots[3] = 30, base.slots[5] = 50;
    Slots8 next;
    next.slots[1] = 10, next.slots[5] = 55, next.slots[6] = 60;
    check_keyed_golden(next, base, "43 D6 CC 03", 28);
}

TEST_CASE("keyed deltas fail to read at the bits the wire format states", "[delta][keyed][hostile]") {
    // An added key the result already holds: 1 1, 0 (changed bits), 0 0 0 (nothing
    // touched), count 1 (bits 6..9), then key 20 at bit 10 and its value 0: invalid_value
    // at the added entry's first bit, with its index among the added.
    // 1 1 0 0 0 0 1 0 | 0 0 0 0 1 0 1 0 | 0 ... (33 bits) -> 43 50 00 00 00
    CHECK(keyed_failure("43 50 00 00 00", score_base) == fail(errc::invalid_value, 10, "Scores.m[0]"));
    // An added count that takes the set past max_size (3 kept, 6 added of 8), with the
    // bits for 6 keys behind it: too_large at the count (bit 6).
    // 1 1 0 0 0 0 0 1 | 1 0 ..., count 6 = 0 1 1 0 at bits 6..9, 102 zero bits after it.
    CHECK(keyed_failure("83 01 00 00 00 00 00 00 00 00 00 00 00 00", Tags{{-1, 5, 7}}) ==
          fail(errc::too_large, 6, "Tags.s"));
    // A move past the end: Units {1, 2, 3} unchanged but listed as moved: 1 1, 0 0 0 0,
    // count 0 (bits 6..9), order at bit 10: moved 1, listed 1, 1 move (2 bits), position
    // d = 1 (index 0), place code 3 (above n - 1 = 2): out_of_range at the move, bit 14.
    // 1 1 0 0 0 0 0 0 | 0 0 1 1 1 0 1 1 | 1 -> 03 DC 01
    CHECK(keyed_failure("03 DC 01", Units{{{1, 10}, {2, 20}, {3, 30}}}) ==
          fail(errc::out_of_range, 14, "Units.units"));
    // A move count above n (here n = 2, a count of 2 bits): 1 1, 0 0 0, count 0 (bits
    // 5..8), the order at bit 9: moved 1, listed 1, 3 moves: out_of_range at the order.
    // 1 1 0 0 0 0 0 0 | 0 1 1 1 1 -> 03 1E
    CHECK(keyed_failure("03 1E", Units{{{1, 10}, {2, 20}}}) == fail(errc::out_of_range, 9, "Units.units"));
    // A place moved twice: n = 3, the order at bit 10: 1 1, 2 moves (1 0); position 0
    // (d = 1), place code 0 (place 2); at bit 17, position 1, place 2 again.
    // 1 1 0 0 0 0 0 0 | 0 0 1 1 0 1 1 0 | 0 1 0 0 -> 03 6C 02
    CHECK(keyed_failure("03 6C 02", Units{{{1, 10}, {2, 20}, {3, 30}}}) ==
          fail(errc::invalid_value, 17, "Units.units"));
    // An added element whose key the baseline keeps: 1 1, 0 0 0 0, count 1, then at bit 10
    // id 2 and hp 0: invalid_value at the added element, [3] (3 kept, then it).
    // 1 1 0 0 0 0 1 0 | 0 0 0 1 0 ... (33 bits) -> 43 08 00 00 00
    CHECK(keyed_failure("43 08 00 00 00", Units{{{1, 10}, {2, 20}, {3, 30}}}) ==
          fail(errc::invalid_value, 10, "Units.units[3]"));
    // A changed key: 1 1, 0, 1 (entry 0 touched: its changed bit is bit 3), removed 0
    // (bit 4), id changed 1 and +1 (the id is a raw uint16: the difference of its code,
    // rung [1, 1]: flag 1, sign 0); hp unchanged 0; entries 1, 2: 0 0; count 0.
    // 1 1 0 1 0 1 1 0 | 0 0 0 0 0 0 0 -> 6B 00: invalid_value at the entry's body, its
    // removed bit (bit 4), after the changed bit that lists it.
    CHECK(keyed_failure("6B 00", Units{{{1, 10}, {2, 20}, {3, 30}}}) ==
          fail(errc::invalid_value, 4, "Units.units[0]"));
}

TEST_CASE("the keyed golden types hash their containers and the keyed attribute", "[delta][keyed][golden]") {
    // tools/golden_types.py (docs/wire_format.md, "Schema fingerprint"): an unordered_map
    // hashes as a map, netser::keyed(&Unit::id) as text("attr"), text("keyed"), text("id").
    CHECK(netser::schema_hash<keyed_golden::Scores>() == 0xCB91079Bu);
    CHECK(netser::schema_hash<keyed_golden::HashScores>() == 0x8F1BAC3Bu);
    CHECK(netser::schema_hash<keyed_golden::Tags>() == 0x6C8D67CFu);
    CHECK(netser::schema_hash<keyed_golden::Units>() == 0x1AE4FE37u);
    CHECK(netser::schema_hash<keyed_golden::Slots8>() == 0xD83732CCu);
}
