// encodings/sparse.hpp: netser::sparse arrays and vectors of optionals (the present slots as
// relative indices, then the end). The family's tests, one file; the model of this file
// (golden vectors, a model, bounds, hostile input) is the one the other families follow
// (tests/encodings/README.md has the whole table).
//
// Where each aspect is covered:
//   wire bits     here: the [golden] cases and "sparse sends the present slots as relative
//                 indices, then the end sentinel".
//   model         here: "sparse round trips random and clustered arrays and matches the model bit
//                 for bit" (model_packet), vectors of every size, slots of described structs.
//   bounds        here: "max_bits of a sparse member is an upper bound of any write", "without
//                 sparse each slot costs one presence bit"; tests/hostile/allocation_budget_test.cpp
//                 and bounded_memory_test.cpp (slots that take no bits).
//   hostile       here: every [hostile] case (indices past the end, rungs out of range, counts
//                 above max_size, truncation at every bit, bit flips, garbage);
//                 tests/hostile/ranges_test.cpp ("relative indices past the end...").
//   compile-fail  tests/compile_fail/: sparse sparse_on_plain_array.cpp. A sparse vector without
//                 max_size (vector_max_size) has no file of its own (vector_without_max_size.cpp
//                 shows the message on a plain vector).

#include "game/game_types.hpp"
#include "reflect/test_types.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

// ==========================================================================================
// From tests/game/sparse_test.cpp
// ==========================================================================================
// netser::sparse (encodings/sparse.hpp) over the
// relative index ladder of docs/wire_format.md (3.2). Golden vectors are derived by hand from the ladder;
// random tests compare against a model written from the same text (model_packet).

namespace sparse_model {

using netser::errc;
using namespace game_test;

namespace sparse_test {

template <std::size_t N>
using nibbles = std::array<std::optional<std::uint8_t>, N>;

struct Slots400 {
    nibbles<400> slots;
};
NETSER_STRUCT(Slots400, (slots, netser::sparse, netser::range(0, 15)))

// The same member without netser::sparse: one presence bit per slot.
struct Dense400 {
    nibbles<400> slots;
};
NETSER_STRUCT(Dense400, (slots, netser::range(0, 15)))

struct Slots8 {
    std::uint8_t id = 0;
    nibbles<8> slots;
    bool last = false;
};
NETSER_STRUCT(Slots8, id, (slots, netser::sparse, netser::range(0, 15)), last)

struct Slots100 {
    nibbles<100> slots;
};
NETSER_STRUCT(Slots100, (slots, netser::sparse, netser::range(0, 15)))

struct Slots200 {
    nibbles<200> slots;
};
NETSER_STRUCT(Slots200, (slots, netser::sparse, netser::range(0, 15)))

struct SlotVec {
    std::vector<std::optional<std::uint16_t>> slots;
};
NETSER_STRUCT(SlotVec, (slots, netser::sparse, netser::max_size(20), netser::range(0, 1000)))

struct DenseVec {
    std::vector<std::optional<std::uint16_t>> slots;
};
NETSER_STRUCT(DenseVec, (slots, netser::max_size(20), netser::range(0, 1000)))

// Sparse described structs: the path of a failure names the slot and the member.
struct Entity {
    std::uint8_t hp = 0;
    bool alive = false;
    bool operator==(const Entity&) const = default;
};
NETSER_STRUCT(Entity, (hp, netser::range(0, 100)), alive)

struct Roster {
    std::array<std::optional<Entity>, 64> units;
};
NETSER_STRUCT(Roster, (units, netser::sparse))

// --- the model: docs/wire_format.md's ladder, one rung at a time --------------------------


void model_index(reference_writer& w, long d, long max) { model_relative_index(w, d, max); }

// The sparse encoding of `slots`, values in value_bits bits each.
template <class Slots>
void model_sparse(reference_writer& w, const Slots& slots, int value_bits) {
    const long n = static_cast<long>(slots.size());
    long previous = -1;
    for (long i = 0; i < n; ++i) {
        if (!slots[static_cast<std::size_t>(i)]) continue;
        model_index(w, i - previous, n);
        w.put(*slots[static_cast<std::size_t>(i)], value_bits);
        previous = i;
    }
    model_index(w, n - previous, n);
}

template <std::size_t N>
reference_writer model_packet(const nibbles<N>& slots) {
    reference_writer w;
    model_sparse(w, slots, 4);
    return w;
}

// [0, n): rng() is 64 bits wide, the remainder fits a 32-bit size_t.
std::size_t below(std::mt19937_64& rng, std::size_t n) { return static_cast<std::size_t>(rng() % n); }

// Random slots at density p, or clustered: runs of 1..20 present slots, gaps of 1..150.
template <std::size_t N>
nibbles<N> random_slots(std::mt19937_64& rng, double p, bool clustered) {
    nibbles<N> s;
    if (!clustered) {
        std::bernoulli_distribution present(p);
        for (auto& slot : s)
            if (present(rng)) slot = static_cast<std::uint8_t>(rng() % 16);
        return s;
    }
    std::size_t i = below(rng, 150);
    while (i < N) {
        const std::size_t run = 1 + below(rng, 20);
        for (std::size_t k = 0; k < run && i < N; ++k, ++i) s[i] = static_cast<std::uint8_t>(rng() % 16);
        i += 1 + below(rng, 150);
    }
    return s;
}

template <class T>
std::size_t present_count(const T& slots) {
    std::size_t n = 0;
    for (const auto& s : slots) n += s ? 1u : 0u;
    return n;
}

template <std::size_t N>
nibbles<N> garbage() {
    nibbles<N> s;
    for (auto& slot : s) slot = 7;
    return s;
}

} // namespace sparse_test

using namespace sparse_test;

// --- golden vectors -----------------------------------------------------------------------

// 400 slots, 4-bit values; one gap on every rung of the ladder:
//   index   0: d = 1   -> 1                                  then 5  (4 bits)   5 bits
//   index   3: d = 3   -> 0 1 + (3 - 2) in 2 bits             then 0             8 bits
//   index  13: d = 10  -> 0 0 1 + (10 - 6) in 3 bits          then 15           10 bits
//   index  33: d = 20  -> 0 0 0 1 + (20 - 14) in 4 bits       then 9            12 bits
//   index  73: d = 40  -> 0 0 0 0 1 + (40 - 30) in 5 bits     then 1            14 bits
//   index 173: d = 100 -> 0 0 0 0 0 1 + (100 - 62) in 6 bits  then 2            16 bits
//   index 373: d = 200 -> 0 0 0 0 0 0 + (200 - 126) in bits_required(126, 401) = 9
//                                                             then 12           19 bits
//   end   400: d = 27  -> 0 0 0 1 + (27 - 14) in 4 bits                          8 bits
// 92 bits in all.
TEST_CASE("sparse sends each present slot as its ladder index and value, then the end", "[game][sparse][golden]") {
    Slots400 in;
    const std::pair<std::size_t, std::uint8_t> present[] = {{0, 5}, {3, 0}, {13, 15}, {33, 9}, {73, 1}, {173, 2}, {373, 12}};
    for (const auto& [i, v] : present) in.slots[i] = v;
    const auto w = write(in);
    CHECK(w.hex == "CB 80 7C B4 84 2A 40 53 00 25 8C 0D");
    CHECK(w.bits == 92);

    Slots400 out{garbage<400>()}; // every slot present: the ones not sent must come back empty
    std::size_t bits = 0;
    REQUIRE_FALSE(read_hex(w.hex, out, &bits));
    CHECK(bits == 92);
    CHECK(out.slots == in.slots);
}

// No slot present: only the end, d = 401 -> six 0 flags + (401 - 126) = 275 in 9 bits.
TEST_CASE("sparse sends an empty array as the end index alone", "[game][sparse][golden]") {
    const auto w = write(Slots400{});
    CHECK(w.hex == "C0 44");
    CHECK(w.bits == 15);
    Slots400 out{garbage<400>()};
    REQUIRE_FALSE(read_hex("C0 44", out));
    CHECK(present_count(out.slots) == 0);
}

// id 0x2A; index 0: 1 + 3; index 7: d = 7 -> 0 0 1 + 1 in 3 bits, then 9; end d = 1 -> 1; last 1.
// From bit 8: 1 1100 001 100 1001 1 1 -> 87 C9 01.
TEST_CASE("sparse between other members ends with the sentinel before the next member", "[game][sparse][golden]") {
    Slots8 in{0x2A, {}, true};
    in.slots[0] = 3;
    in.slots[7] = 9;
    const auto w = write(in);
    CHECK(w.hex == "2A 87 C9 01");
    CHECK(w.bits == 25);
    Slots8 out{0, garbage<8>(), false};
    REQUIRE_FALSE(read_hex(w.hex, out));
    CHECK(out.id == 0x2A);
    CHECK(out.slots == in.slots);
    CHECK(out.last);
}

// A vector: its count in [0, 20] (5 bits), then the ladder with the vector's own size
// (10) as the end. 10 -> 01010; index 2: d = 3 -> 0 1 + 1, then 7 (10 bits); index 9:
// d = 7 -> 0 0 1 + 1 in 3 bits, then 1000; end d = 1 -> 1. 36 bits.
TEST_CASE("sparse on a vector sends its count, then the ladder up to its size", "[game][sparse][golden]") {
    SlotVec in;
    in.slots.resize(10);
    in.slots[2] = 7;
    in.slots[9] = 1000;
    const auto w = write(in);
    CHECK(w.hex == "CA 0E 60 D0 0F");
    CHECK(w.bits == 36);
    SlotVec out;
    out.slots.assign(20, std::uint16_t{5});
    REQUIRE_FALSE(read_hex(w.hex, out));
    CHECK(out.slots == in.slots);
}

TEST_CASE("sparse on an empty vector sends a zero count and the end", "[game][sparse][golden]") {
    const auto w = write(SlotVec{});
    CHECK(w.hex == "20"); // 00000, then d = 1 -> 1
    CHECK(w.bits == 6);
    SlotVec out;
    out.slots.assign(3, std::uint16_t{5});
    REQUIRE_FALSE(read_hex("20", out));
    CHECK(out.slots.empty());
}

// --- round trips ------------------------------------------------------------------------------

TEST_CASE("sparse round trips random and clustered arrays and matches the model bit for bit", "[game][sparse][random]") {
    std::mt19937_64 rng(23);
    for (const bool clustered : {false, true}) {
        for (const double p : {0.0, 0.005, 0.05, 0.3, 0.9, 1.0}) {
            for (int round = 0; round < 40; ++round) {
                const Slots400 in{random_slots<400>(rng, p, clustered)};
                INFO((clustered ? "clustered" : "random") << ", p = " << p << ", " << present_count(in.slots) << " present");
                const auto w = write(in);
                const auto model = model_packet(in.slots);
                CHECK(w.bits == model.bits());
                CHECK(w.hex == hex(model.bytes()));
                Slots400 out{garbage<400>()};
                std::size_t bits = 0;
                REQUIRE_FALSE(read_bytes(unhex(w.hex), out, &bits));
                CHECK(bits == w.bits);
                CHECK(out.slots == in.slots);
            }
        }
    }
}

TEST_CASE("sparse round trips vectors of every size up to max_size", "[game][sparse][random]") {
    std::mt19937_64 rng(29);
    for (std::size_t size = 0; size <= 20; ++size) {
        for (int round = 0; round < 30; ++round) {
            SlotVec in;
            in.slots.resize(size);
            for (auto& s : in.slots)
                if (rng() % 3 == 0) s = static_cast<std::uint16_t>(rng() % 1001);
            reference_writer model;
            model.put(size, 5);
            model_sparse(model, in.slots, 10);
            const auto w = write(in);
            CHECK(w.hex == hex(model.bytes()));
            SlotVec out;
            out.slots.assign(20, std::uint16_t{1});
            REQUIRE_FALSE(read_bytes(unhex(w.hex), out));
            CHECK(out.slots == in.slots);
        }
    }
}

TEST_CASE("sparse round trips slots of described structs", "[game][sparse][random]") {
    std::mt19937_64 rng(31);
    for (int round = 0; round < 200; ++round) {
        Roster in;
        for (auto& u : in.units)
            if (rng() % 4 == 0) u = Entity{static_cast<std::uint8_t>(rng() % 101), rng() % 2 == 0};
        const auto w = write(in);
        Roster out;
        for (auto& u : out.units) u = Entity{1, true};
        REQUIRE_FALSE(read_bytes(unhex(w.hex), out));
        CHECK(out.units == in.units);
    }
}

TEST_CASE("sparse slots 126 and more apart take the last rung", "[game][sparse][random]") {
    Slots400 in;
    in.slots[125] = 1;  // d = 126: 6 flags + 0 in 9 bits
    in.slots[251] = 2;  // d = 126
    in.slots[399] = 3;  // d = 148
    const auto w = write(in);
    CHECK(w.bits == 3 * (15 + 4) + 1); // the end: d = 1
    CHECK(w.hex == hex(model_packet(in.slots).bytes()));
}

// --- cost against the presence-bit encoding ------------------------------------------------------

TEST_CASE("without sparse each slot costs one presence bit", "[game][sparse][cost]") {
    std::mt19937_64 rng(37);
    for (const double p : {0.0, 0.01, 0.1, 0.5, 1.0}) {
        const Dense400 dense{random_slots<400>(rng, p, false)};
        const std::size_t k = present_count(dense.slots);
        INFO(k << " present");
        CHECK(measured_bits(dense) == 400 + 4 * k);
        const Slots400 sparse{dense.slots};
        if (k <= 40) CHECK(measured_bits(sparse) < measured_bits(dense));
        // Dense: every slot present costs 400 + 1600; sparse: d = 1 each, 400 * 5 + 1.
        if (k == 400) CHECK(measured_bits(sparse) == 400 * 5 + 1);
    }
    DenseVec dv;
    dv.slots.resize(12);
    dv.slots[3] = 9;
    CHECK(measured_bits(dv) == 5 + 12 + 10);
    SlotVec sv{dv.slots};
    // count 5 bits; index 3: d = 4 -> 0 1 + 2 bits, value 10 bits; end d = 9 -> 0 0 1 + 3 bits.
    CHECK(measured_bits(sv) == 5 + (4 + 10) + 6);
}

TEST_CASE("max_bits of a sparse member is an upper bound of any write", "[game][sparse][bounds]") {
    // (N + 1) ladder indices at their most (relative_index_max_bits(N)) plus N values.
    STATIC_REQUIRE(netser::relative_index_max_bits(400) == 15); // 6 flags + bits_required(126, 401)
    STATIC_REQUIRE(netser::max_bits<Slots400>() == 401 * 15 + 400 * 4);
    STATIC_REQUIRE(netser::relative_index_max_bits(20) == 8); // 0 0 0 1 + 4 bits for d = 21
    STATIC_REQUIRE(netser::max_bits<SlotVec>() == 5 + 21 * 8 + 20 * 10);
    STATIC_REQUIRE(netser::max_bits<Slots8>() == 8 + 9 * 6 + 8 * 4 + 1);

    std::mt19937_64 rng(41);
    std::size_t worst = 0;
    for (const double p : {0.0, 0.01, 0.1, 0.5, 1.0})
        for (int round = 0; round < 20; ++round) {
            const Slots400 in{random_slots<400>(rng, p, round % 2 == 0)};
            worst = std::max(worst, measured_bits(in));
        }
    // Gaps of exactly 126 are the dearest per slot: 15 + 4 bits.
    Slots400 gaps;
    for (std::size_t i = 125; i < 400; i += 126) gaps.slots[i] = 15;
    worst = std::max(worst, measured_bits(gaps));
    CHECK(worst <= netser::max_bits<Slots400>());
    SlotVec full;
    full.slots.assign(20, std::uint16_t{1000});
    CHECK(measured_bits(full) <= netser::max_bits<SlotVec>());
}

// --- hostile ------------------------------------------------------------------------------------

TEST_CASE("sparse fails a read whose index passes the end with out_of_range", "[game][sparse][hostile]") {
    // After id: 0 0 1 + 7 in 3 bits -> d = 13, index 12 of 8 slots.
    reference_writer forged;
    forged.put(0x2A, 8);
    forged.put(0b100, 3);
    forged.put(7, 3);
    Slots8 out;
    CHECK(failure_of(read_forged(forged, out)) == fail(errc::out_of_range, 8, "Slots8.slots"));

    // Slots 0..5 (d = 1 each, value 1), then d = 4 -> 9: past the end (8), after 38 bits.
    reference_writer late;
    late.put(0, 8);
    for (int i = 0; i < 6; ++i) {
        late.put(1, 1);
        late.put(1, 4);
    }
    late.put(0b10, 2);
    late.put(2, 2);
    Slots8 out2;
    CHECK(failure_of(read_forged(late, out2)) == fail(errc::out_of_range, 38, "Slots8.slots"));

    // One past the last slot is the end itself (index 8 = N): the read ends there.
    reference_writer end;
    end.put(0, 8);
    end.put(0b100, 3);
    end.put(3, 3); // d = 9 -> index 8
    end.put(1, 1); // last
    Slots8 out3{1, garbage<8>(), false};
    REQUIRE_FALSE(read_forged(end, out3));
    CHECK(present_count(out3.slots) == 0);
    CHECK(out3.last);
}

TEST_CASE("sparse fails a last-rung code above its range with out_of_range", "[game][sparse][hostile]") {
    // 200 slots: the last rung is [126, 201], 7 bits, codes 0..75.
    for (const std::uint64_t code : {76u, 100u, 127u}) {
        reference_writer forged;
        forged.put(0, 6);
        forged.put(code, 7);
        Slots200 out;
        INFO("code " << code);
        CHECK(failure_of(read_forged(forged, out)) == fail(errc::out_of_range, 0, "Slots200.slots"));
    }
    // Code 75 (d = 201) from previous = -1 is the end; from previous = 0 it is index 201.
    reference_writer end;
    end.put(0, 6);
    end.put(75, 7);
    Slots200 out{garbage<200>()};
    REQUIRE_FALSE(read_forged(end, out));
    CHECK(present_count(out.slots) == 0);

    reference_writer past;
    past.put(1, 1);
    past.put(4, 4);
    past.put(0, 6);
    past.put(75, 7);
    Slots200 out2;
    CHECK(failure_of(read_forged(past, out2)) == fail(errc::out_of_range, 5, "Slots200.slots"));
}

TEST_CASE("sparse fails a ladder that runs out of rungs below 126 slots with out_of_range", "[game][sparse][hostile]") {
    // 100 slots: no distance reaches the last rung, so six 0 flags are no index at all.
    reference_writer forged;
    forged.put(0, 6);
    forged.put(0, 8);
    Slots100 out;
    CHECK(failure_of(read_forged(forged, out)) == fail(errc::out_of_range, 0, "Slots100.slots"));
}

// Every distance is at least 1: a packet cannot make an index repeat or go back. A packet of
// one bits fills the slots in order and stops at the end without reading further.
TEST_CASE("sparse reads an all-ones packet as every slot in order and stops at the end", "[game][sparse][hostile]") {
    const std::vector<std::byte> ones(7, std::byte{0xFF}); // 8 + 8 * (1 + 4) + 1 + 1 = 50 bits
    Slots8 out;
    std::size_t bits = 0;
    REQUIRE_FALSE(read_bytes(ones, out, &bits));
    CHECK(bits == 50);
    CHECK(out.id == 0xFF);
    for (const auto& s : out.slots) CHECK(s == std::optional<std::uint8_t>(15));
    CHECK(out.last);
}

TEST_CASE("sparse fails an element that does not decode, naming its slot", "[game][sparse][hostile]") {
    // Index 2 (d = 3: 0 1 + 1), then hp code 127 > 100 at bit 4.
    reference_writer forged;
    forged.put(0b10, 2);
    forged.put(1, 2);
    forged.put(127, 7);
    forged.put(1, 1);
    Roster out;
    CHECK(failure_of(read_forged(forged, out)) == fail(errc::out_of_range, 4, "Roster.units[2].hp"));

    // SlotVec: count 10, index 2, value code 1001 > 1000.
    reference_writer vec;
    vec.put(10, 5);
    vec.put(0b10, 2);
    vec.put(1, 2);
    vec.put(1001, 10);
    SlotVec out2;
    CHECK(failure_of(read_forged(vec, out2)) == fail(errc::out_of_range, 9, "SlotVec.slots[2]"));
}

TEST_CASE("sparse fails a vector count above max_size with too_large before allocating", "[game][sparse][hostile]") {
    reference_writer forged;
    forged.put(31, 5);
    forged.put(1, 1);
    SlotVec out;
    CHECK(failure_of(read_forged(forged, out)) == fail(errc::too_large, 0, "SlotVec.slots"));
    CHECK(out.slots.capacity() <= 20);

    SlotVec big;
    big.slots.resize(21);
    CHECK(failure_of(write_error(big)) == fail(errc::too_large, 0, "SlotVec.slots"));
}

TEST_CASE("sparse fails the write of a value outside its range, naming its slot", "[game][sparse][hostile]") {
    Slots400 in;
    in.slots[3] = 1;
    in.slots[13] = 16; // range(0, 15)
    // index 3: 4 bits, value 4 bits; index 13: d = 10, 0 0 1 + 3 bits, then the value at bit 14.
    CHECK(failure_of(write_error(in)) == fail(errc::out_of_range, 14, "Slots400.slots[13]"));
}

TEST_CASE("a truncated sparse packet fails with overflow at every byte", "[game][sparse][hostile]") {
    const auto full = unhex("CB 80 7C B4 84 2A 40 53 00 25 8C 0D");
    for (std::size_t n = 0; n < full.size(); ++n) {
        Slots400 out{garbage<400>()};
        INFO("packet cut to " << n << " bytes");
        const auto e = read_bytes(std::span(full).first(n), out);
        CHECK(e.code == errc::overflow);
        CHECK(e.bit <= n * 8);
    }
}

// The first `keep` bits, zero up to the byte boundary: either the read fails inside the
// packet, or those zeros happen to finish a valid packet, which then writes back the same bytes.
TEST_CASE("a sparse packet cut at any bit fails cleanly or reads as the zero-padded packet", "[game][sparse][hostile]") {
    Slots8 in{0x2A, {}, true};
    in.slots[0] = 3;
    in.slots[2] = 4;
    in.slots[7] = 9;
    const auto w = write(in);
    REQUIRE(w.bits == 31);
    const auto full = unhex(w.hex);
    int failures = 0;
    for (std::size_t keep = 0; keep < w.bits; ++keep) {
        std::vector<std::byte> bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>((keep + 7) / 8));
        if (keep % 8 != 0) bytes.back() &= static_cast<std::byte>((1u << (keep % 8)) - 1u);
        Slots8 out;
        INFO("first " << keep << " bits");
        const auto e = read_bytes(bytes, out);
        if (e) {
            ++failures;
            CHECK(e.bit <= bytes.size() * 8);
        } else {
            CHECK(write(out).hex == hex(bytes));
        }
    }
    CHECK(failures == 30); // only the cut of the final bit (last = 1 -> 0) still reads
}

TEST_CASE("flipping any bit of a sparse packet reads cleanly or fails cleanly", "[game][sparse][hostile]") {
    const auto full = unhex("CB 80 7C B4 84 2A 40 53 00 25 8C 0D");
    int failures = 0;
    for (std::size_t bit = 0; bit < full.size() * 8; ++bit) {
        auto bytes = full;
        bytes[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        Slots400 out{garbage<400>()};
        if (read_bytes(bytes, out)) ++failures;
        else CHECK(present_count(out.slots) <= 92 / 5);
    }
    CHECK(failures > 0);
}

TEST_CASE("random garbage never crashes a sparse read", "[game][sparse][hostile]") {
    std::mt19937_64 rng(43);
    for (int round = 0; round < 5000; ++round) {
        std::vector<std::byte> bytes(rng() % 64);
        for (auto& b : bytes) b = static_cast<std::byte>(rng());
        Slots400 out{garbage<400>()};
        const auto e = read_bytes(bytes, out);
        if (e) continue;
        // A successful read consumed at least one bit per present slot plus its value.
        CHECK(present_count(out.slots) * 5 <= bytes.size() * 8);
        SlotVec v;
        (void)read_bytes(bytes, v);
        CHECK(v.slots.size() <= 20);
    }
}

} // namespace sparse_model

// ==========================================================================================
// From tests/reflect/attributes_test.cpp (sparse)
// ==========================================================================================
// attributes.hpp: every member attribute, each with a golden vector derived by hand
// from the wire format, a random round trip and a hostile read.

namespace attributes_sparse {

using netser::errc;
using namespace reflect_test;

namespace attributes_test {

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

} // namespace attributes_sparse
