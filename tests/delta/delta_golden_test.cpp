// serialize_delta's wire, one golden vector per family, each derived by hand from
// docs/wire_format.md ("Delta") in the comment above it (the element lists by
// tools/golden.py, an independent Python model). Each vector is written, measured and
// read back against its baseline.

#include "delta/delta_types.hpp"

using namespace delta_test;

namespace {

// Writes obj against base (checking the bytes), reads them back against base and checks
// that the reader holds what it would from a plain read of obj.
template <class T>
void check_delta_golden(const T& obj, const T& base, std::string_view golden, std::size_t golden_bits) {
    const T out = golden_round_trip(obj, base, golden, golden_bits);
    CHECK(plain_hex(out) == plain_hex(received(obj)));
}

const Small small_base{false, 3, 0.f, Weapon::pistol};

} // namespace

TEST_CASE("an unchanged struct costs one bit, however large", "[delta][golden]") {
    check_delta_golden(small_base, small_base, "00", 1);
    Outer o{small_base, small_base};
    check_delta_golden(o, o, "00", 1);
    const Codes40 c{};
    check_delta_golden(c, c, "00", 1);
}

TEST_CASE("changed members send their differences of codes, unchanged ones one bit", "[delta][golden]") {
    // 1 struct changed; flag: 1 (a changed bool is the other one: no more bits);
    // level: 0; x: 1, code 22 against 20 in [0, 40] (rungs [1,1] and [2,16] kept): flag 0,
    // flag 1, sign 0, 0 in 4 bits; weapon: 1, code 3 against 1 in [0, 3] (rung [1,1] only):
    // flag 0, then 3 in 2 bits.
    // 1 1 0 1 0 1 0 0 | 0 0 0 1 0 1 1 -> 2B 68, 15 bits.
    check_delta_golden(Small{true, 3, 1.f, Weapon::rocket}, small_base, "2B 68", 15);
}

TEST_CASE("an unchanged nested struct costs one bit", "[delta][golden]") {
    // 1 outer changed; a: 0; b: 1; b.flag 0; b.level 1, 4 against 3 in [0, 15]: 1, sign 0;
    // b.x 0; b.weapon 0. 1 0 1 0 1 1 0 0 | 0 -> 35 00, 9 bits.
    Outer base{small_base, small_base};
    Outer obj = base;
    obj.b.level = 4;
    check_delta_golden(obj, base, "35 00", 9);
}

TEST_CASE("an array sends a changed bit per element or the indices of the changed ones, whichever is smaller",
          "[delta][golden]") {
    // delta_array_bits (tools/golden.py): indices would take 12 bits, the bits 8.
    Codes8 base{{10, 20, 30, 40, 50, 60, 70, 80}};
    Codes8 obj = base;
    obj.v[1] = 21;
    obj.v[6] = 300;
    check_delta_golden(obj, base, "33 48 D5 00", 25);
    // delta_array_indices: 2 of 40 changed; indices 3 and 30 and the end 40 are shorter.
    Codes40 base40;
    base40.v.fill(100);
    Codes40 obj40 = base40;
    obj40.v[3] = 99;
    obj40.v[30] = 1000;
    check_delta_golden(obj40, base40, "D7 B1 81 3E 09", 36);
}

TEST_CASE("a vector sends its count when it changed, the elements both have as changes, the rest whole",
          "[delta][golden]") {
    // 1 1; count changed: 0, then 4 in [0, 8] (4 bits); 3 elements in both, none changed
    // (an end index would take 4 bits): 0, 0 0 0; element 3 whole: 4 in 7 bits.
    // 1 1 0 0 0 1 0 0 | 0 0 0 0 0 1 0 0 | 0 0 -> 23 20 00, 18 bits.
    check_delta_golden(Bytes{{1, 2, 3, 4}}, Bytes{{1, 2, 3}}, "23 20 00", 18);
    // 1 1; 0, 3 in 4 bits; 3 in both, element 2 changed (indices: 4 + 1 bits, not fewer
    // than 3): 0, 0 0 1, then 9 against 3 in [0, 100] (rungs [1,1], [2,16]): 0 1 0, 4 in 4.
    // 1 1 0 1 1 0 0 0 | 0 0 1 0 1 0 0 0 | 1 0 -> 1B 14 01, 18 bits.
    check_delta_golden(Bytes{{1, 2, 9}}, Bytes{{1, 2, 3, 4}}, "1B 14 01", 18);
}

TEST_CASE("an optional sends its presence, then a change when the baseline has a value, else the value",
          "[delta][golden]") {
    // 1 1 1 (present), no baseline value: 5 in 6 bits. 1 1 1 1 0 1 0 0 | 0 -> 2F 00.
    check_delta_golden(Target{5}, Target{}, "2F 00", 9);
    // 1 1 1, 6 against 5 in [0, 63]: 1 0. -> 0F, 5 bits.
    check_delta_golden(Target{6}, Target{5}, "0F", 5);
    // 1 1 0 (absent). -> 03, 3 bits.
    check_delta_golden(Target{}, Target{5}, "03", 3);
}

TEST_CASE("a variant sends its index, then a change of the same alternative or the other one whole",
          "[delta][golden]") {
    // 1 1, index 0 (1 bit), 8 against 7 in [0, 255]: 1 0. 1 1 0 1 0 -> 0B, 5 bits.
    check_delta_golden(Either{std::uint8_t{8}}, Either{std::uint8_t{7}}, "0B", 5);
    // 1 1, index 1, 300 in 16 bits: 7 + (300 << 3) = 0x967 -> 67 09 00, 19 bits.
    check_delta_golden(Either{std::uint16_t{300}}, Either{std::uint8_t{7}}, "67 09 00", 19);
}

TEST_CASE("a changed string is sent whole", "[delta][golden]") {
    // 1 1, length 5 in [0, 15], 2 bits of padding, the bytes. -> 17 61 6C 69 63 65.
    check_delta_golden(Name{"alice"}, Name{"bob"}, "17 61 6C 69 63 65", 48);
}

TEST_CASE("only_if members are sent against the baseline's value, and not at all when their flag is clear",
          "[delta][golden]") {
    // 1; moving 1; velocity 1, code 1100 against 1000 in [0, 2000] (rungs [1,1], [2,16],
    // [17,256] kept): 0 0 1, sign 0, 83 in 8 bits.
    // 1 1 1 0 0 1 0 1 | 1 0 0 1 0 1 0 -> A7 29, 15 bits.
    check_delta_golden(Mover{true, 1.f}, Mover{false, 0.f}, "A7 29", 15);
    // 1; moving 1; velocity not sent (the reader resets it). -> 03, 2 bits.
    check_delta_golden(Mover{false, 5.f}, Mover{true, 1.f}, "03", 2);
}

TEST_CASE("delta_ladder sets a member's rungs, delta_whole sends it whole, skip sends nothing", "[delta][golden]") {
    // 1; fine: 1, 503 against 500 with rungs [1,2] (1 bit) and [3,8] (3 bits): 0 1, sign 0,
    // 0 in 3; whole: 1, 600 in 10 bits; local: nothing.
    // 1 1 0 1 0 0 0 0 | 1 0 0 0 1 1 0 1 | 0 0 1 -> 0B B1 04, 19 bits.
    const Tuned base{500, 500, 7};
    const Tuned obj{503, 600, 9};
    CHECK(delta_hex(obj, base) == "0B B1 04");
    Tuned out{};
    REQUIRE_FALSE(read_delta("0B B1 04", out, base));
    CHECK(out.fine == 503);
    CHECK(out.whole == 600);
    CHECK(out.local == 7); // skipped: the baseline's value
}

TEST_CASE("a reader keeps every unchanged value of the baseline", "[delta]") {
    Outer base{Small{true, 9, -2.5f, Weapon::rifle}, small_base};
    Outer obj = base;
    obj.b.x = 3.f;
    const std::string packet = delta_hex(obj, base);
    Outer out{};
    REQUIRE_FALSE(read_delta(packet, out, base));
    CHECK(out.a.flag);
    CHECK(out.a.level == 9);
    CHECK(out.a.x == -2.5f);
    CHECK(out.a.weapon == Weapon::rifle);
    CHECK(out.b.x == 3.f);
    CHECK(out.b.weapon == Weapon::pistol);
}

TEST_CASE("max_delta_bits counts every changed bit and the worst difference", "[delta][bounds]") {
    // Small: 1 + flag (1) + level (1 + max(rung [1,1]: 2, fallback 1 + 4)) + x (1 + max(2, 7,
    // fallback 2 + 6)) + weapon (1 + max(2, 1 + 2)) = 1 + 1 + 6 + 9 + 4 = 21.
    CHECK(netser::max_delta_bits<Small>() == 21);
    CHECK(netser::max_delta_bytes<Small>() == 3);
    // Codes8: 1 + 1 (member) + 1 (mode) + 8 changed bits + 8 x 13 (rungs [1,1], [2,16],
    // [17,256] and the fallback: 3 + 10).
    CHECK(netser::max_delta_bits<Codes8>() == 1 + 1 + 1 + 8 + 8 * 13);
}

TEST_CASE("profile_delta attributes a delta's bits to members, the element list to its container",
          "[delta][profile]") {
    // delta_array_indices: 36 bits; the member v takes 35 (its changed bit, the list's bit,
    // the indices 4 + 8 + 6 and the bodies); the bodies are v[]: 99 against 100 (2 bits),
    // 1000 against 100 (3 flags and 10 bits).
    Codes40 base;
    base.v.fill(100);
    Codes40 obj = base;
    obj.v[3] = 99;
    obj.v[30] = 1000;
    netser::profile_stream p;
    REQUIRE(p.profile_delta(obj, base));
    const auto rows = p.rows();
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].path == "Codes40");
    CHECK(rows[0].mean == 36);
    CHECK(rows[1].path == "Codes40.v");
    CHECK(rows[1].mean == 35);
    CHECK(rows[2].path == "Codes40.v[]");
    CHECK(rows[2].mean == 15);
}
