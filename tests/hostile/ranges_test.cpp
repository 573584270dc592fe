// Codes above every range: integers (small, 32-bit and full 64-bit ranges), common
// indices, quantized floats, undeclared enum codes, variant indices past the end,
// relative indices past the end of a sparse array, duplicate keys, serialization check
// magics and padding, and every code of the rotation and direction encodings (which
// must all read as unit quaternions and unit vectors).
#include "hostile/hostile_types.hpp"

#include <cmath>

namespace hostile {

namespace {

using netser::errc;

template <class T>
void check_fails(std::vector<std::byte> bytes, errc code, std::size_t bit, std::string_view path) {
    const auto r = read_value<T>(bytes);
    INFO("error " << netser::to_string(r.error.code) << " at " << r.error.bit << " " << r.error.path());
    CHECK(r.error.code == code);
    CHECK(r.error.bit == bit);
    CHECK(r.error.path() == path);
}

const netser::quantization ranged_q = netser::quantization::make(-1.f, 1.f, 0.01f);

// Ranged field by field; each argument is the code sent.
forge ranged(std::uint64_t a, std::uint64_t b, std::uint64_t d, bool e_common, std::uint64_t e, std::uint64_t q) {
    forge f;
    f.put(a, 7).put(b, 4).put(d, 32).put(e_common ? 1 : 0, 1).put(e, e_common ? 2 : 10).put(q, ranged_q.bits);
    return f;
}

// Extremes field by field (64-bit codes for the four ranged members).
std::vector<std::byte> extremes(std::uint64_t full, std::uint64_t ufull, std::uint64_t almost, std::uint64_t upper) {
    return forge().put(full, 64).put(ufull, 64).put(almost, 64).put(upper, 64).put(0, 8).put(0, 32).put(0, 64)
        .put(0, 32).put(0, 64).bytes();
}

std::uint64_t grid(std::size_t i, int bits) {
    const std::uint64_t max = (std::uint64_t{1} << bits) - 1;
    const std::uint64_t points[] = {0, 1, max / 3, max / 2, max / 2 + 1, max - 1, max};
    return points[i];
}

} // namespace

TEST_CASE("the top code of every range reads; every code above it fails with out_of_range", "[hostile][ranges]") {
    REQUIRE(ranged_q.bits == 8);
    const auto top = read_value<Ranged>(ranged(100, 10, 0xfffffffe, true, 2, ranged_q.max_int).bytes());
    REQUIRE_FALSE(top.error);
    CHECK(top.value.a == 100);
    CHECK(top.value.b == 5);
    CHECK(top.value.c == 3);
    CHECK(top.value.d == 0xfffffffe);
    CHECK(top.value.e == 9);
    CHECK(top.value.q == 1.f);

    for (std::uint64_t a = 101; a < 128; ++a) check_fails<Ranged>(ranged(a, 0, 0, true, 0, 0).bytes(), errc::out_of_range, 0, "Ranged.a");
    for (std::uint64_t b = 11; b < 16; ++b) check_fails<Ranged>(ranged(0, b, 0, true, 0, 0).bytes(), errc::out_of_range, 7, "Ranged.b");
    check_fails<Ranged>(ranged(0, 0, 0xffffffff, true, 0, 0).bytes(), errc::out_of_range, 11, "Ranged.d");
    check_fails<Ranged>(ranged(0, 0, 0, true, 3, 0).bytes(), errc::out_of_range, 43, "Ranged.e"); // common index
    for (std::uint64_t e = 1001; e < 1024; ++e)
        check_fails<Ranged>(ranged(0, 0, 0, false, e, 0).bytes(), errc::out_of_range, 43, "Ranged.e");
    for (std::uint64_t q = ranged_q.max_int + 1; q < 256; ++q)
        check_fails<Ranged>(ranged(0, 0, 0, true, 0, q).bytes(), errc::out_of_range, 46, "Ranged.q");
}

TEST_CASE("full-width 64-bit ranges round trip their extremes", "[hostile][ranges]") {
    constexpr auto lo = std::numeric_limits<std::int64_t>::min();
    constexpr auto hi = std::numeric_limits<std::int64_t>::max();
    for (std::int64_t v : {lo, lo + 1, std::int64_t{-1}, std::int64_t{0}, std::int64_t{1}, hi - 1, hi}) {
        INFO("value " << v);
        Extremes x;
        x.full = v;
        x.ufull = static_cast<std::uint64_t>(v);
        x.almost = v == hi ? hi - 1 : v;
        x.upper = v < -1 ? -1 : v;
        const packet p = write_value(x);
        CHECK(p.bits == 4 * 64 + 8 + 32 + 64 + 32 + 64);
        // (v - min) modulo 2^64, least significant bit first.
        CHECK(netser_test::reference_read(p.bytes, 0, 64) == static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(lo));
        CHECK(netser_test::reference_read(p.bytes, 64, 64) == x.ufull);
        const auto r = read_value<Extremes>(p.bytes);
        REQUIRE_FALSE(r.error);
        CHECK(r.value.full == x.full);
        CHECK(r.value.ufull == x.ufull);
        CHECK(r.value.almost == x.almost);
        CHECK(r.value.upper == x.upper);
    }
    SECTION("the lowest and highest codes") {
        const auto r = read_value<Extremes>(extremes(UINT64_MAX, UINT64_MAX, UINT64_MAX - 1, std::uint64_t{1} << 63));
        REQUIRE_FALSE(r.error);
        CHECK(r.value.full == hi);
        CHECK(r.value.ufull == UINT64_MAX);
        CHECK(r.value.almost == hi - 1);
        CHECK(r.value.upper == hi);
        const auto z = read_value<Extremes>(extremes(0, 0, 0, 0));
        REQUIRE_FALSE(z.error);
        CHECK(z.value.full == lo);
        CHECK(z.value.almost == lo);
        CHECK(z.value.upper == -1);
    }
    SECTION("codes above a 64-bit range") {
        check_fails<Extremes>(extremes(0, 0, UINT64_MAX, 0), errc::out_of_range, 128, "Extremes.almost");
        for (std::uint64_t code : {(std::uint64_t{1} << 63) + 1, UINT64_MAX - 1, UINT64_MAX})
            check_fails<Extremes>(extremes(0, 0, 0, code), errc::out_of_range, 192, "Extremes.upper");
    }
    SECTION("values outside a 64-bit range fail the write") {
        std::vector<std::byte> buffer(64);
        Extremes x;
        x.almost = hi;
        netser::write_stream w{std::span<std::byte>(buffer)};
        CHECK_FALSE(netser::serialize(w, x));
        CHECK(w.error().code == errc::out_of_range);
        CHECK(w.error().path() == "Extremes.almost");
        Extremes y;
        y.upper = -2;
        netser::write_stream w2{std::span<std::byte>(buffer)};
        CHECK_FALSE(netser::serialize(w2, y));
        CHECK(w2.error().path() == "Extremes.upper");
    }
}

TEST_CASE("undeclared enum codes fail with invalid_value", "[hostile][ranges]") {
    for (std::uint64_t code = 0; code < 16; ++code) {
        INFO("code " << code);
        const auto r = read_value<Modes>(forge().put(code, 4).put(3, 2).bytes());
        if (code == 0 || code == 3 || code == 10) {
            REQUIRE_FALSE(r.error);
            CHECK(r.value.m == (code == 0 ? Mode::off : code == 3 ? Mode::low : Mode::high));
            CHECK(r.value.w == Weapon::rocket);
        } else {
            CHECK(r.error.code == errc::invalid_value);
            CHECK(r.error.bit == 0);
            CHECK(r.error.path() == "Modes.m");
        }
    }
    SECTION("Team's fourth code, inside a message") {
        const auto r = read_value<Envelope>(forge().put(1, 32).put(3, 3).put(5, 10).put(3, 2).bytes());
        CHECK(r.error.code == errc::invalid_value);
        CHECK(r.error.bit == 45);
        CHECK(r.error.path() == "Envelope.body.team");
    }
    SECTION("writing an undeclared value fails too") {
        std::vector<std::byte> buffer(8);
        netser::write_stream w{std::span<std::byte>(buffer)};
        const Modes undeclared{static_cast<Mode>(1), Weapon::none};
        CHECK_FALSE(netser::serialize(w, undeclared));
        CHECK(w.error().code == errc::invalid_value);
    }
}

TEST_CASE("variant indices past the end fail with invalid_value", "[hostile][ranges]") {
    for (std::uint64_t index = 5; index < 8; ++index)
        check_fails<Envelope>(forge().put(1, 32).put(index, 3).put(0, 64).bytes(), errc::invalid_value, 32, "Envelope.body");
    check_fails<Pick>(forge().put(3, 2).put(0, 64).bytes(), errc::invalid_value, 0, "Pick.p");
    for (std::uint64_t index = 0; index < 5; ++index) {
        INFO("index " << index);
        const auto r = read_value<Envelope>(forge().put(1, 32).put(index, 3).put(0, 64).put(0, 64).bytes());
        check_hostile_read(r, 21);
        if (!r.error) CHECK(r.value.body.index() == index);
    }
}

TEST_CASE("relative indices past the end of a sparse array fail with out_of_range", "[hostile][ranges]") {
    SECTION("an index past the last slot") {
        // d = 13 from -1 (rung [6, 13], code 7): index 12 of 10 slots.
        check_fails<SparseArray>(forge().put(0, 1).put(0, 1).put(1, 1).put(7, 3).bytes(), errc::out_of_range, 0, "SparseArray.a");
    }
    SECTION("no rung taken, in an array too short for the last one") {
        check_fails<SparseArray>(forge().put(0, 6).put(0, 16).bytes(), errc::out_of_range, 0, "SparseArray.a");
    }
    SECTION("a second index past the end") {
        // index 8 (d = 9), its value, then d = 5 (rung [2, 5], code 3): 13 > 10.
        const auto bytes = forge().put(0, 2).put(1, 1).put(3, 3).put(42, 8).put(0, 1).put(1, 1).put(3, 2).bytes();
        const auto r = read_value<SparseArray>(bytes);
        CHECK(r.error.code == errc::out_of_range);
        CHECK(r.error.bit == 6 + 8);
    }
    SECTION("the last rung's codes above the array") {
        for (std::uint64_t code = 76; code < 128; ++code)
            check_fails<Entities>(forge().put(0, 6).put(code, 7).put(0, 32).bytes(), errc::out_of_range, 0, "Entities.units");
    }
    SECTION("the end sentinel alone reads an empty array; a missing one is overflow") {
        const auto empty = read_value<SparseArray>(forge().put(0, 1).put(0, 1).put(1, 1).put(11 - 6, 3).bytes());
        REQUIRE_FALSE(empty.error);
        for (const auto& slot : empty.value.a) CHECK_FALSE(slot.has_value());
        // Index 0 and its value, then index 1 whose value is cut off.
        const auto open = read_value<SparseArray>(forge().put(1, 1).put(7, 8).put(1, 1).put(0, 6).bytes());
        CHECK(open.error.code == errc::overflow);
    }
}

TEST_CASE("a key sent twice fails with invalid_value", "[hostile][ranges]") {
    // Inventory: no names (3 bits), then stock: count 2, key 9 twice (value code 11 bits).
    const auto map_dup = read_value<Inventory>(forge().put(0, 3).put(2, 3).put(9, 8).put(1000, 11).put(9, 8).put(1001, 11)
                                                   .put(0, 64).put(0, 64).bytes());
    CHECK(map_dup.error.code == errc::invalid_value);
    CHECK(map_dup.error.bit == 3 + 3 + 19);
    CHECK(map_dup.error.path() == "Inventory.stock[1]");
    // Then ids: count 2, 4095 twice.
    const auto set_dup = read_value<Inventory>(forge().put(0, 3).put(0, 3).put(2, 3).put(4095, 12).put(4095, 12)
                                                   .put(0, 64).put(0, 64).bytes());
    CHECK(set_dup.error.code == errc::invalid_value);
    CHECK(set_dup.error.path() == "Inventory.ids[1]");
}

TEST_CASE("a wrong check magic fails with check_failed, non-zero padding before it with invalid_value", "[hostile][ranges]") {
    const std::uint64_t magic = netser::check_magic("checked b");
    const auto good = read_value<Checked>(forge().put(1, 1).align().put(magic, 32).put(2, 8).bytes());
    REQUIRE_FALSE(good.error);
    CHECK(good.value.a);
    CHECK(good.value.b == 2);
    check_fails<Checked>(forge().put(1, 1).align().put(magic ^ 1, 32).put(2, 8).bytes(), errc::check_failed, 1, "Checked.b");
    for (std::uint64_t pad = 1; pad < 128; ++pad)
        check_fails<Checked>(forge().put(1, 1).put(pad, 7).put(magic, 32).put(2, 8).bytes(), errc::invalid_value, 1, "Checked.b");
}

TEST_CASE("every code of the rotation encodings reads as a unit quaternion", "[hostile][ranges]") {
    SECTION("smallest_three(7)") {
        for (std::uint64_t largest = 0; largest < 4; ++largest)
            for (std::size_t a = 0; a < 7; ++a)
                for (std::size_t b = 0; b < 7; ++b)
                    for (std::size_t c = 0; c < 7; ++c) {
                        const auto bytes = forge().put(largest, 2).put(grid(a, 7), 7).put(grid(b, 7), 7).put(grid(c, 7), 7).bytes();
                        const auto r = read_value<OneRotation>(bytes);
                        REQUIRE_FALSE(r.error);
                        INFO(r.value.q.x << " " << r.value.q.y << " " << r.value.q.z << " " << r.value.q.w);
                        REQUIRE(unit_length(r.value.q));
                    }
    }
    SECTION("unit_quaternion(10)") {
        for (std::uint64_t negative = 0; negative < 2; ++negative)
            for (std::size_t a = 0; a < 7; ++a)
                for (std::size_t b = 0; b < 7; ++b)
                    for (std::size_t c = 0; c < 7; ++c) {
                        const auto bytes = forge().put(grid(a, 10), 10).put(grid(b, 10), 10).put(grid(c, 10), 10).put(negative, 1).bytes();
                        const auto r = read_value<BookRotation>(bytes);
                        REQUIRE_FALSE(r.error);
                        INFO(r.value.q.x << " " << r.value.q.y << " " << r.value.q.z << " " << r.value.q.w);
                        REQUIRE(unit_length(r.value.q));
                    }
    }
}

TEST_CASE("every code of unit_vector reads as a unit vector", "[hostile][ranges]") {
    for (std::size_t a = 0; a < 7; ++a)
        for (std::size_t b = 0; b < 7; ++b) {
            const auto r = read_value<Direction>(forge().put(grid(a, 11), 11).put(grid(b, 11), 11).bytes());
            REQUIRE_FALSE(r.error);
            double sum = 0;
            for (float c : r.value.n) {
                REQUIRE(std::isfinite(c));
                sum += double{c} * c;
            }
            INFO(r.value.n[0] << " " << r.value.n[1] << " " << r.value.n[2]);
            CHECK(std::fabs(sum - 1.0) < 1e-4);
            // A decoded direction writes back to the same codes.
            CHECK(write_value(r.value).bytes == write_value(read_value<Direction>(write_value(r.value).bytes).value).bytes);
        }
}

// KNOWN ISSUE, reported: marked [!mayfail] until the library fixes it. The fuzz target
// roundtrip_fuzz found it (write -> read -> write is not bit-exact for Body).
TEST_CASE("smallest_three and unit_quaternion re-encode a rotation they decoded bit for bit", "[hostile][ranges][!mayfail]") {
    auto round_trip_drifts = []<class T>(const T& v0) {
        const packet first = write_value(v0);
        const auto v1 = read_value<T>(first.bytes);
        REQUIRE_FALSE(v1.error);
        const packet second = write_value(v1.value);
        return second.bytes != first.bytes;
    };
    SECTION("smallest_three(7), a valid rotation whose two largest components are close") {
        // Written with largest = w (0.58399 > 0.58201); w rebuilt from the quantized
        // others comes out below y, so the second write picks y: C3 E8 70 then C1 E0 74.
        CHECK_FALSE(round_trip_drifts(OneRotation{{-0.17657721f, 0.582014263f, 0.537623346f, 0.583987176f}}));
    }
    SECTION("smallest_three(7), a decoded value (the fuzzer's input, Body.history[2])") {
        const auto decoded = read_value<OneRotation>(forge().put(3, 2).put(112, 7).put(117, 7).put(117, 7).bytes());
        REQUIRE_FALSE(decoded.error);
        CHECK_FALSE(round_trip_drifts(decoded.value));
    }
    SECTION("smallest_three(7), random unit quaternions") {
        rng r{77};
        int drifts = 0;
        for (int i = 0; i < 20000; ++i) drifts += round_trip_drifts(OneRotation{quat_value(r)}) ? 1 : 0;
        CHECK(drifts == 0); // about 1.5 % at 7 bits, 0.4 % at 9, 0.1 % at 15
    }
    SECTION("unit_quaternion(10): w slightly negative reads back as -0, which writes as positive") {
        // The sign bit flips: AE 9B 06 38 29 E6 01 then ... E6 00 (the writer tests w < 0).
        CHECK_FALSE(round_trip_drifts(BookRotation{{0.216268465f, -0.562298f, 0.798153043f, -0.000816107378f}}));
    }
}

} // namespace hostile
