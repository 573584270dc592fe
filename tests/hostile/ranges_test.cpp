// Codes above every range: integers (small, 32-bit and full 64-bit ranges), common
// indices, quantized floats, undeclared enum codes, variant indices past the end,
// relative indices past the end of a sparse array, duplicate keys, serialization check
// magics and padding, and the codes of the rotation and direction encodings (every code
// up to max_int = 2^bits - 2 must read as a unit quaternion or unit vector, and the
// rotations must write back to the same bits; the unused code 2^bits - 1 fails).
#include "hostile/hostile_types.hpp"

#include <bit>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>

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

// Seven codes of a unit component (max_int = 2^bits - 2): both ends, the middle (0)
// and their neighbours.
std::uint64_t grid(std::size_t i, int bits) {
    const std::uint64_t max = (std::uint64_t{1} << bits) - 2;
    const std::uint64_t points[] = {0, 1, max / 3, max / 2 - 1, max / 2, max - 1, max};
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
        CHECK(r.error.path() == "Envelope.body<Leave>.team");
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

TEST_CASE("every code up to max_int of the rotation encodings reads as a unit quaternion", "[hostile][ranges]") {
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

TEST_CASE("every code up to max_int of unit_vector reads as a unit vector", "[hostile][ranges]") {
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

// max_int = 2^bits - 2 (so that the middle code reads as exactly 0): the one code above
// it, all ones, fails the read with out_of_range at the value's first bit, in any field.
TEST_CASE("code 2^bits - 1 of the rotation and direction encodings fails with out_of_range", "[hostile][ranges]") {
    const std::uint64_t st = (1u << 7) - 1, uq = (1u << 10) - 1, uv = (1u << 11) - 1;
    for (std::size_t field = 0; field < 3; ++field) {
        INFO("field " << field);
        std::array<std::uint64_t, 3> codes{63, 63, 63}; // 0 in 7 bits
        codes[field] = st;
        check_fails<OneRotation>(forge().put(3, 2).put(codes[0], 7).put(codes[1], 7).put(codes[2], 7).bytes(),
                                 errc::out_of_range, 0, "OneRotation.q");
        codes = {511, 511, 511}; // 0 in 10 bits
        codes[field] = uq;
        check_fails<BookRotation>(forge().put(codes[0], 10).put(codes[1], 10).put(codes[2], 10).put(1, 1).bytes(),
                                  errc::out_of_range, 0, "BookRotation.q");
        if (field < 2) {
            std::array<std::uint64_t, 2> uv_codes{1023, 1023}; // 0 in 11 bits
            uv_codes[field] = uv;
            check_fails<Direction>(forge().put(uv_codes[0], 11).put(uv_codes[1], 11).bytes(), errc::out_of_range, 0,
                                   "Direction.n");
        }
    }
    // One below, max_int, reads: +b, +1 and +1.
    CHECK_FALSE(read_value<OneRotation>(forge().put(3, 2).put(st - 1, 7).put(63, 7).put(63, 7).bytes()).error);
    CHECK_FALSE(read_value<BookRotation>(forge().put(uq - 1, 10).put(511, 10).put(511, 10).put(0, 1).bytes()).error);
    CHECK_FALSE(read_value<Direction>(forge().put(uv - 1, 11).put(1023, 11).bytes()).error);
}

// --- write -> read -> write is bit-exact for the rotation encodings ------------------
//
// The writers send only fields that are a fixed point (docs/game_encodings.md): the
// rotation a reader makes of them writes back to the same bits, near ties included.
// The promise is for any finite input, so the inputs below need not be unit quaternions.

namespace {

// One quaternion through one codec, outside any struct: the bits it writes.
template <class Codec>
bool codec_write(const Codec& codec, Quat q, std::vector<std::byte>& out) {
    std::array<std::byte, 16> buffer{};
    netser::write_stream w(buffer);
    if (!codec.serialize(w, q)) return false;
    const auto bytes = w.finish();
    out.assign(bytes.begin(), bytes.end());
    return true;
}

template <class Codec>
bool codec_read(const Codec& codec, std::span<const std::byte> bytes, Quat& q) {
    netser::read_stream r(bytes);
    return codec.serialize(r, q) && r.bits_processed() == codec.max_bits();
}

std::string describe(const Quat& q) {
    std::ostringstream s;
    s << std::setprecision(9) << "(" << q.x << ", " << q.y << ", " << q.z << ", " << q.w << ")";
    return s.str();
}

// Counts the inputs whose bits do not survive read -> write; the first one is kept for the message.
struct drift_count {
    std::size_t checked = 0;
    std::size_t drifts = 0;
    std::string first;
};

// write(q) = b; read(b) = d; write(d) must be b again.
template <class Codec>
void check_rewrite(const Codec& codec, const Quat& q, drift_count& n) {
    std::vector<std::byte> first, second;
    Quat decoded;
    ++n.checked;
    if (codec_write(codec, q, first) && codec_read(codec, first, decoded) && codec_write(codec, decoded, second) &&
        second == first)
        return;
    if (n.drifts++ == 0) n.first = describe(q) + " read back as " + describe(decoded);
}

// Packet p (any bits, forged ones too): read(p) = d0, write(d0) = b, read(b) = d, and
// write(d) must be b. (p itself need not come back: a forged sum of squares above 1
// reads rescaled, which no writer sends.)
template <class Codec>
void check_packet(const Codec& codec, std::span<const std::byte> packet, drift_count& n) {
    Quat d0;
    if (!codec_read(codec, packet, d0)) {
        ++n.checked;
        ++n.drifts;
        if (n.first.empty()) n.first = "a packet does not read";
        return;
    }
    check_rewrite(codec, d0, n);
}

// The packet of the given fields (LSB first, in order).
std::vector<std::byte> fields(std::initializer_list<std::pair<std::uint64_t, int>> list) {
    std::array<std::byte, 16> buffer{};
    netser::write_stream w(buffer);
    for (const auto& [value, bits] : list) {
        std::uint64_t v = value;
        if (!w.process_bits(v, bits)) return {};
    }
    const auto bytes = w.finish();
    return {bytes.begin(), bytes.end()};
}

Quat from_array(const std::array<float, 4>& c) { return {c[0], c[1], c[2], c[3]}; }

// Unit quaternions from integers in [-range, range] (every step exactly rounded: the
// same values on every host). With range 1000 many have equal components.
Quat integer_quat(rng& r, std::int64_t range) {
    std::array<double, 4> c{};
    double sum = 0;
    do {
        sum = 0;
        for (double& v : c) {
            v = static_cast<double>(r.between(-range, range));
            sum += v * v;
        }
    } while (sum == 0);
    const double norm = std::sqrt(sum);
    return {static_cast<float>(c[0] / norm), static_cast<float>(c[1] / norm), static_cast<float>(c[2] / norm),
            static_cast<float>(c[3] / norm)};
}

// Near ties: 2, 3 or 4 components of one magnitude (every choice of them, every sign),
// the others 0 or a random value, then one component nudged by 0 to 4 ulps or by a
// fraction of a quantization step either way. Not all of unit length, which is fine.
std::vector<Quat> tie_cases(int bits, rng& r) {
    std::vector<Quat> out;
    const float step = 1.41421356f / static_cast<float>((std::uint64_t{1} << bits) - 2);
    for (unsigned mask = 0; mask < 16; ++mask) {
        const int k = std::popcount(mask);
        if (k < 2) continue;
        for (unsigned signs = 0; signs < 16; ++signs) {
            for (int rest = 0; rest < 2; ++rest) {
                std::array<float, 4> c{};
                const float other = rest == 0 ? 0.f : static_cast<float>(r.between(1, 1000)) / 4000.f;
                const float m = std::sqrt((1.f - static_cast<float>(4 - k) * other * other) / static_cast<float>(k));
                for (std::size_t i = 0; i < 4; ++i) {
                    c[i] = (mask >> i & 1u) != 0 ? m : other;
                    if ((signs >> i & 1u) != 0) c[i] = -c[i];
                }
                out.push_back(from_array(c));
                const auto nudged = [&](float by) {
                    std::array<float, 4> d = c;
                    const std::size_t i = static_cast<std::size_t>(std::countr_zero(mask));
                    d[i] = d[i] < 0.f ? d[i] - by : d[i] + by;
                    out.push_back(from_array(d));
                };
                for (int ulps = 1; ulps <= 4; ++ulps) {
                    nudged(static_cast<float>(ulps) * std::numeric_limits<float>::epsilon() * m);
                    nudged(-static_cast<float>(ulps) * std::numeric_limits<float>::epsilon() * m);
                }
                for (const float f : {0.125f, 0.25f, 0.5f, 1.f, 1.5f}) {
                    nudged(f * step);
                    nudged(-f * step);
                }
            }
        }
    }
    return out;
}

constexpr int random_per_bit_count = 200000;

} // namespace

TEST_CASE("smallest_three and unit_quaternion re-encode a rotation they decoded bit for bit", "[hostile][ranges][long]") {
    auto round_trip_drifts = []<class T>(const T& v0) {
        const packet first = write_value(v0);
        const auto v1 = read_value<T>(first.bytes);
        REQUIRE_FALSE(v1.error);
        const packet second = write_value(v1.value);
        return second.bytes != first.bytes;
    };
    SECTION("smallest_three(7), a valid rotation whose two largest components are close") {
        // w (0.58399) is the largest, but w rebuilt from y, z, x quantized comes out below
        // y: the plain fields C3 E8 70 are no fixed point, so the writer sends others.
        CHECK_FALSE(round_trip_drifts(OneRotation{{-0.17657721f, 0.582014263f, 0.537623346f, 0.583987176f}}));
    }
    SECTION("smallest_three(7), a decoded value (the fuzzer's input, Body.history[2])") {
        const auto decoded = read_value<OneRotation>(forge().put(3, 2).put(112, 7).put(117, 7).put(117, 7).bytes());
        REQUIRE_FALSE(decoded.error);
        CHECK_FALSE(round_trip_drifts(decoded.value));
    }
    SECTION("unit_quaternion(10): w slightly negative reads back as -0, which writes as negative") {
        CHECK_FALSE(round_trip_drifts(BookRotation{{0.216268465f, -0.562298f, 0.798153043f, -0.000816107378f}}));
    }
    SECTION("smallest_three, random rotations (200,000 at 7, 9, 10, 12, 15 and 32 bits, 25,000 at the others) and "
            "the near ties, at 2 to 32 bits") {
        for (const int bits : {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 23, 24, 25, 26, 28, 30, 32}) {
            const netser::smallest_three codec{bits};
            rng r{static_cast<std::uint64_t>(bits) * 7919u};
            drift_count random, ties;
            const int n = bits == 7 || bits == 9 || bits == 10 || bits == 12 || bits == 15 || bits == 32
                              ? random_per_bit_count
                              : random_per_bit_count / 8;
            for (int i = 0; i < n; ++i) check_rewrite(codec, integer_quat(r, i % 2 == 0 ? 1000 : 1 << 24), random);
            for (const Quat& q : tie_cases(bits, r)) check_rewrite(codec, q, ties);
            INFO(bits << " bits: " << random.drifts << " of " << random.checked << " random rotations drift, first "
                      << random.first << "; " << ties.drifts << " of " << ties.checked << " near ties, first " << ties.first);
            CHECK(random.checked == static_cast<std::size_t>(n));
            CHECK(ties.checked == 11 * 32 * 19); // 11 sets of 2 to 4 components, 16 signs, 2 others, 19 nudges
            CHECK(random.drifts == 0);
            CHECK(ties.drifts == 0);
        }
    }
    SECTION("unit_quaternion, random rotations (200,000 at 10 and 16 bits, 25,000 at the others), as many with w "
            "near 0, and the near ties, at 2 to 32 bits") {
        for (const int bits : {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 23, 24, 25, 28, 32}) {
            const netser::unit_quaternion codec{bits};
            rng r{static_cast<std::uint64_t>(bits) * 104729u};
            drift_count random, small_w, ties;
            const int n = bits == 10 || bits == 16 ? random_per_bit_count : random_per_bit_count / 8;
            for (int i = 0; i < n; ++i) {
                check_rewrite(codec, integer_quat(r, i % 2 == 0 ? 1000 : 1 << 24), random);
                // A unit quaternion with |w| <= 2^-10, either sign: x, y, z's squares may read above 1.
                const Quat v = integer_quat(r, 1 << 24);
                const double w = std::ldexp(static_cast<double>(r.between(-1024, 1024)), -20);
                const double xyz = std::sqrt((1 - w * w) / (double{v.x} * v.x + double{v.y} * v.y + double{v.z} * v.z));
                check_rewrite(codec,
                              Quat{static_cast<float>(v.x * xyz), static_cast<float>(v.y * xyz),
                                   static_cast<float>(v.z * xyz), static_cast<float>(w)},
                              small_w);
            }
            for (const Quat& q : tie_cases(bits, r)) check_rewrite(codec, q, ties);
            INFO(bits << " bits: " << random.drifts << " of " << random.checked << " random rotations drift, first "
                      << random.first << "; " << small_w.drifts << " with w near 0, first " << small_w.first << "; "
                      << ties.drifts << " of " << ties.checked << " near ties, first " << ties.first);
            CHECK(random.drifts == 0);
            CHECK(small_w.drifts == 0);
            CHECK(ties.drifts == 0);
        }
    }
}

TEST_CASE("every packet of the rotation encodings reads as a rotation that re-encodes bit for bit", "[hostile][ranges][long]") {
    // Every code in [0, max_int]: 2^bits - 1 of them (the one above fails, see above).
    SECTION("smallest_three, every packet at 2 to 5 bits, random ones at 6 to 32 (100,000 at 7, 15, 23, 31 bits)") {
        for (int bits = 2; bits <= 32; ++bits) {
            const netser::smallest_three codec{bits};
            drift_count n;
            const std::uint64_t codes = (std::uint64_t{1} << bits) - 1;
            if (bits <= 5) {
                for (std::uint64_t largest = 0; largest < 4; ++largest)
                    for (std::uint64_t a = 0; a < codes; ++a)
                        for (std::uint64_t b = 0; b < codes; ++b)
                            for (std::uint64_t c = 0; c < codes; ++c)
                                check_packet(codec, fields({{largest, 2}, {a, bits}, {b, bits}, {c, bits}}), n);
                CHECK(n.checked == 4 * codes * codes * codes);
            } else {
                rng r{static_cast<std::uint64_t>(bits)};
                const int count = bits % 8 == 7 ? 100000 : 10000;
                for (int i = 0; i < count; ++i)
                    check_packet(codec, fields({{r.below(4), 2}, {r.below(codes), bits}, {r.below(codes), bits},
                                                {r.below(codes), bits}}), n);
            }
            INFO(bits << " bits: " << n.drifts << " of " << n.checked << " packets, first " << n.first);
            CHECK(n.drifts == 0);
        }
    }
    SECTION("unit_quaternion, every packet at 2 to 5 bits, random ones at 6 to 32 (100,000 at 10, 18, 26 bits)") {
        for (int bits = 2; bits <= 32; ++bits) {
            const netser::unit_quaternion codec{bits};
            drift_count n;
            const std::uint64_t codes = (std::uint64_t{1} << bits) - 1;
            if (bits <= 5) {
                for (std::uint64_t sign = 0; sign < 2; ++sign)
                    for (std::uint64_t a = 0; a < codes; ++a)
                        for (std::uint64_t b = 0; b < codes; ++b)
                            for (std::uint64_t c = 0; c < codes; ++c)
                                check_packet(codec, fields({{a, bits}, {b, bits}, {c, bits}, {sign, 1}}), n);
                CHECK(n.checked == 2 * codes * codes * codes);
            } else {
                rng r{static_cast<std::uint64_t>(bits) + 100};
                const int count = bits % 8 == 2 ? 100000 : 10000;
                for (int i = 0; i < count; ++i)
                    check_packet(codec, fields({{r.below(codes), bits}, {r.below(codes), bits}, {r.below(codes), bits},
                                                {r.below(2), 1}}), n);
            }
            INFO(bits << " bits: " << n.drifts << " of " << n.checked << " packets, first " << n.first);
            CHECK(n.drifts == 0);
        }
    }
}

// The writers' last resort (a search that found no fixed point: not seen for any input in
// these tests) sends the codes of 0, with the largest component rebuilt (smallest_three)
// or w's sign (unit_quaternion); the promise rests on those fields being a fixed point.
// 0 is sent as the middle code max_int / 2 = 2^(bits-1) - 1, which reads as exactly 0.
// (The core's quantization gives that code up to 24 bits only: above, 0.5 * max_int + 0.5
// rounds up in float32 to the next code, which at 25 bits does not read as 0.)
TEST_CASE("the rotation encodings' fields of 0 are a fixed point at every bit count", "[hostile][ranges]") {
    for (int bits = 2; bits <= 32; ++bits) {
        const netser::quantization st = netser::smallest_three{bits}.params(), uq = netser::unit_quaternion{bits}.params();
        const std::uint64_t st_zero = (std::uint64_t{1} << (bits - 1)) - 1, uq_zero = st_zero;
        INFO(bits << " bits");
        CHECK(st.decode(static_cast<std::uint32_t>(st_zero)) == 0.f);
        CHECK(uq.decode(static_cast<std::uint32_t>(uq_zero)) == 0.f);
        CHECK(st.encode(0.f) == (bits <= 24 ? st_zero : st_zero + 1));
        CHECK((st.decode(static_cast<std::uint32_t>(st_zero + 1)) == 0.f) == (bits >= 26));
        for (std::uint64_t largest = 0; largest < 4; ++largest) {
            const auto p = fields({{largest, 2}, {st_zero, bits}, {st_zero, bits}, {st_zero, bits}});
            Quat d;
            REQUIRE(codec_read(netser::smallest_three{bits}, p, d));
            std::vector<std::byte> again;
            REQUIRE(codec_write(netser::smallest_three{bits}, d, again));
            INFO("smallest_three(" << bits << "), index " << largest << " read as " << describe(d));
            CHECK(again == p);
        }
        for (std::uint64_t sign = 0; sign < 2; ++sign) {
            const auto p = fields({{uq_zero, bits}, {uq_zero, bits}, {uq_zero, bits}, {sign, 1}});
            Quat d;
            REQUIRE(codec_read(netser::unit_quaternion{bits}, p, d));
            std::vector<std::byte> again;
            REQUIRE(codec_write(netser::unit_quaternion{bits}, d, again));
            INFO("unit_quaternion(" << bits << "), w sign " << sign << " read as " << describe(d));
            CHECK(again == p);
        }
    }
}

// 1 bit would leave max_int = 0: the encodings need 2 bits at least.
TEST_CASE("the rotation and direction encodings refuse 1 bit with invalid_value", "[hostile][ranges]") {
    const auto p = fields({{3, 2}, {0, 1}, {0, 1}, {0, 1}});
    Quat q;
    std::vector<std::byte> out;
    CHECK_FALSE(codec_read(netser::smallest_three{1}, p, q));
    CHECK_FALSE(codec_write(netser::smallest_three{1}, q, out));
    CHECK_FALSE(codec_read(netser::unit_quaternion{1}, p, q));
    CHECK_FALSE(codec_write(netser::unit_quaternion{1}, q, out));
    std::array<std::byte, 16> buffer{};
    netser::write_stream w(buffer);
    std::array<float, 3> v{0.f, 0.f, 1.f};
    CHECK_FALSE(netser::unit_vector{1}.serialize(w, v));
    CHECK(w.error().code == errc::invalid_value);
    CHECK(w.error().bit == 0);
}

TEST_CASE("the rotation writers re-encode any finite input's decode bit for bit", "[hostile][ranges]") {
    // Not unit length: 0, tiny, huge, subnormal, the largest float, one component only.
    const float big = std::numeric_limits<float>::max(), tiny = std::numeric_limits<float>::denorm_min();
    std::vector<Quat> inputs = {{0, 0, 0, 0},       {-0.f, -0.f, -0.f, -0.f}, {tiny, 0, 0, 0},  {tiny, tiny, tiny, tiny},
                                {big, big, big, big}, {-big, big, -big, big},   {5, 0, 0, 0},     {0, 0, 0, -3},
                                {1, 1, 1, 1},       {1e-30f, 2e-30f, 0, 0},   {2, 2, 0.1f, 0}, {0.7f, 0.7f, 0.7f, 0.1f}};
    rng r{99};
    for (int i = 0; i < 4000; ++i) {
        Quat q = integer_quat(r, 1000);
        const float scale = std::ldexp(1.f, static_cast<int>(r.between(-60, 60)));
        q = {q.x * scale, q.y * scale, q.z * scale, q.w * scale};
        inputs.push_back(q);
    }
    for (int bits = 2; bits <= 32; ++bits) {
        drift_count st, uq;
        for (const Quat& q : inputs) {
            check_rewrite(netser::smallest_three{bits}, q, st);
            check_rewrite(netser::unit_quaternion{bits}, q, uq);
        }
        INFO(bits << " bits: smallest_three " << st.drifts << ", first " << st.first << "; unit_quaternion "
                  << uq.drifts << ", first " << uq.first);
        CHECK(st.drifts == 0);
        CHECK(uq.drifts == 0);
    }
}

} // namespace hostile
