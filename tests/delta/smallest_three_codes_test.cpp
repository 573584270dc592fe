// smallest_three_codes: a rotation held as its smallest-three codes (Fiedler's layout).
// The re-expression of a baseline with another largest component against float
// arithmetic, the plain and delta wires bit by bit, round trips with switches, the
// prediction across a switch, and hostile reads and writes.

#include <netser/netser.hpp>
#include <netser/predicted_delta_packet.hpp>
#include <netser/range_stream.hpp>

#include <catch2/catch.hpp>

#include "../core/hex.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <utility>
#include <vector>

namespace stc {

struct Codes {
    std::int32_t largest = 3;
    std::int32_t a = 255, b = 255, c = 255;
    bool operator==(const Codes&) const = default;
};
NETSER_STRUCT(Codes, largest, a, b, c)

inline constexpr netser::smallest_three_codes fiedler{511, netser::difference_ladder{{2, 4, 8, 32}, 4}};

struct Cube {
    Codes orientation;
    bool operator==(const Cube&) const = default;
};
NETSER_STRUCT(Cube, (orientation, fiedler, netser::predict_linear))

// Members too narrow for every code of [0, 511]: a prediction they cannot hold is not stored.
struct Narrow {
    std::uint8_t largest = 3, a = 0, b = 0, c = 0;
    bool operator==(const Narrow&) const = default;
};
NETSER_STRUCT(Narrow, largest, a, b, c)

struct NarrowCube {
    Narrow orientation;
    bool operator==(const NarrowCube&) const = default;
};
NETSER_STRUCT(NarrowCube, (orientation, netser::smallest_three_codes(511), netser::predict_linear))

} // namespace stc

namespace {

using netser::detail::smallest_three_fields;

// The codes of a unit quaternion with max_code m (code 0: -1/sqrt(2), m: +1/sqrt(2)).
smallest_three_fields quantized(std::array<double, 4> q, std::uint32_t largest, std::uint32_t m) {
    if (q[largest] < 0)
        for (double& v : q) v = -v;
    smallest_three_fields f{largest, {}};
    for (std::uint32_t i = 0, k = 0; i < 4; ++i) {
        if (i == largest) continue;
        const double x = (q[i] * std::sqrt(2.0) + 1.0) / 2.0 * m;
        f.codes[k++] = static_cast<std::uint32_t>(std::clamp(std::lround(x), 0L, static_cast<long>(m)));
    }
    return f;
}

// The quaternion fields stand for, in doubles.
std::array<double, 4> decoded(const smallest_three_fields& f, std::uint32_t m) {
    std::array<double, 4> q{};
    double sum = 0;
    for (std::uint32_t i = 0, k = 0; i < 4; ++i) {
        if (i == f.largest) continue;
        q[i] = (2.0 * f.codes[k++] / m - 1.0) / std::sqrt(2.0);
        sum += q[i] * q[i];
    }
    q[f.largest] = std::sqrt(std::max(0.0, 1.0 - sum));
    return q;
}

std::vector<std::byte> delta_bytes(const stc::Cube& now, const stc::Cube& base, std::size_t* bits = nullptr) {
    std::vector<std::byte> buffer(netser::max_delta_bytes<stc::Cube>());
    netser::write_stream w(buffer);
    REQUIRE(netser::serialize_delta(w, now, base));
    if (bits != nullptr) *bits = w.bits_processed();
    netser::measure_stream m;
    REQUIRE(netser::serialize_delta(m, now, base));
    CHECK(m.bits_processed() == w.bits_processed());
    CHECK(w.bits_processed() <= netser::max_delta_bits<stc::Cube>());
    const auto out = w.finish();
    return {out.begin(), out.end()};
}

// Fields {value, bits} written one after the other by the bit-packer, as bytes: the wire
// as the spec lays it out, independent of the codec.
std::vector<std::byte> fields_bytes(std::initializer_list<std::pair<std::uint32_t, int>> fields) {
    std::vector<std::byte> bytes(16);
    netser::write_stream w(bytes);
    for (auto [v, n] : fields) REQUIRE(netser::serialize_bits(w, v, n));
    const auto out = w.finish();
    return {out.begin(), out.end()};
}

stc::Cube cube_of(const smallest_three_fields& f) {
    return {{static_cast<std::int32_t>(f.largest), static_cast<std::int32_t>(f.codes[0]),
             static_cast<std::int32_t>(f.codes[1]), static_cast<std::int32_t>(f.codes[2])}};
}

} // namespace

TEST_CASE("smallest_three_codes: re-expression agrees with float arithmetic to a code", "[delta][quaternion]") {
    std::mt19937 rng(30);
    std::normal_distribution<double> n(0.0, 1.0);
    for (const std::uint32_t m : {511u, 510u, 1023u, 4094u}) {
        for (int i = 0; i < 3000; ++i) {
            std::array<double, 4> q{n(rng), n(rng), n(rng), n(rng)};
            const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            for (double& v : q) v /= norm;
            std::uint32_t largest = 0;
            for (std::uint32_t k = 1; k < 4; ++k)
                if (std::fabs(q[k]) > std::fabs(q[largest])) largest = k;
            const smallest_three_fields f = quantized(q, largest, m);
            CHECK(netser::detail::smallest_three_reexpress(f, largest, m) == f);
            for (std::uint32_t to = 0; to < 4; ++to) {
                if (to == largest) continue;
                // Only a component that can be the largest: |q[to]| <= 1/sqrt(2) always holds.
                const smallest_three_fields got = netser::detail::smallest_three_reexpress(f, to, m);
                const smallest_three_fields want = quantized(decoded(f, m), to, m);
                REQUIRE(got.largest == to);
                for (std::size_t k = 0; k < 3; ++k) {
                    const auto d = static_cast<long>(got.codes[k]) - static_cast<long>(want.codes[k]);
                    // The old largest may exceed 1/sqrt(2) and is clamped alike; one code
                    // of rounding either way (the float path rounds twice).
                    CHECK(std::labs(d) <= 1);
                }
            }
        }
    }
    // Exact values, worked by hand: max 511, largest w, codes (a, b, c) = (255, 256, 511):
    // D = -1, 1, 511; 2 * 511^2 - (1 + 1 + 261121) = 261119, isqrt 510 for w; to z (D 511,
    // positive): x, y, w = (-1 + 512) >> 1, (1 + 512) >> 1, (510 + 512) >> 1 = 255, 256, 511.
    const smallest_three_fields f{3, {255, 256, 511}};
    CHECK(netser::detail::smallest_three_reexpress(f, 2, 511) == smallest_three_fields{2, {255, 256, 511}});
    // To x (D -1, negative: all negated): y, z, w = (-1 + 512) >> 1, (-511 + 512) >> 1,
    // (-510 + 512) >> 1 = 255, 0, 1.
    CHECK(netser::detail::smallest_three_reexpress(f, 0, 511) == smallest_three_fields{0, {255, 0, 1}});
    CHECK(netser::detail::isqrt_floor(0) == 0);
    CHECK(netser::detail::isqrt_floor(261119) == 510);
    CHECK(netser::detail::isqrt_floor(std::uint64_t{1} << 62) == std::uint64_t{1} << 31);
    CHECK(netser::detail::isqrt_floor((std::uint64_t{1} << 62) - 1) == (std::uint64_t{1} << 31) - 1);
    CHECK(netser::detail::isqrt_floor(~std::uint64_t{0}) == 0xffffffffu);
}

TEST_CASE("smallest_three_codes: the plain and delta wires, bit by bit", "[delta][quaternion]") {
    // Plain: largest in 2 bits, then a, b, c in 9 bits each (29 bits).
    STATIC_REQUIRE(netser::max_bits<stc::Codes>() == 4 * 32); // the struct alone: plain int32s
    STATIC_REQUIRE(stc::fiedler.max_bits() == 29);
    const stc::Cube base{{3, 255, 256, 511}};
    {
        std::vector<std::byte> bytes(netser::max_bytes<stc::Cube>());
        netser::write_stream w(bytes);
        REQUIRE(netser::serialize(w, base));
        CHECK(w.bits_processed() == 29);
        const auto a = w.finish();
        CHECK(std::vector<std::byte>(a.begin(), a.end()) == fields_bytes({{3, 2}, {255, 9}, {256, 9}, {511, 9}}));
        CHECK(netser_test::hex(a) == "FF 03 F8 1F"); // tools/golden.py delta_smallest_three_codes_plain
    }
    // A switch to z whose codes are the re-expressed baseline's, then one code off:
    // struct changed 1, member changed 1, same largest 0, step (2 - 3 - 1) mod 4 = 2 in
    // 2 bits, then a clear flag, a clear flag, and for c (511 -> 509) a set flag and the
    // ladder's difference 2: rung [1, 2] (flag 1, sign 1, offset 1 in 1 bit).
    std::size_t bits = 0;
    const auto got = delta_bytes(stc::Cube{{2, 255, 256, 509}}, base, &bits);
    CHECK(bits == 11);
    CHECK(got == fields_bytes({{1, 1}, {1, 1}, {0, 1}, {2, 2}, {0, 1}, {0, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}}));
    CHECK(netser_test::hex(got) == "93 07"); // tools/golden.py delta_smallest_three_codes_switch
}

TEST_CASE("smallest_three_codes: random deltas with switches round trip", "[delta][quaternion]") {
    std::mt19937 rng(31);
    std::uniform_int_distribution<int> largest(0, 3), code(0, 511), small(-6, 6);
    std::size_t switches = 0, switch_bits = 0;
    for (int i = 0; i < 4000; ++i) {
        const stc::Cube base{{largest(rng), code(rng), code(rng), code(rng)}};
        stc::Cube now = base;
        if (i % 3 == 0) { // a nearby rotation re-expressed with another largest
            smallest_three_fields f{static_cast<std::uint32_t>(base.orientation.largest),
                                    {static_cast<std::uint32_t>(base.orientation.a),
                                     static_cast<std::uint32_t>(base.orientation.b),
                                     static_cast<std::uint32_t>(base.orientation.c)}};
            auto to = static_cast<std::uint32_t>(largest(rng));
            if (to == f.largest) to = (to + 1) & 3u;
            f = netser::detail::smallest_three_reexpress(f, to, 511);
            for (auto& c : f.codes) c = static_cast<std::uint32_t>(std::clamp(static_cast<int>(c) + small(rng), 0, 511));
            now = cube_of(f);
        } else if (i % 3 == 1) {
            now.orientation.a = std::clamp(now.orientation.a + small(rng), 0, 511);
        } else {
            now = {{largest(rng), code(rng), code(rng), code(rng)}};
        }
        std::size_t bits = 0;
        const auto bytes = delta_bytes(now, base, &bits);
        netser::read_stream r(bytes);
        stc::Cube out{{0, 1, 2, 3}};
        REQUIRE(netser::serialize_delta(r, out, base));
        REQUIRE(out == now);
        if (i % 3 == 0) {
            ++switches;
            switch_bits += bits;
        }
    }
    // A nearby rotation with another largest costs far less than the plain 29 bits plus
    // three flag bits that sending it whole took.
    CHECK(static_cast<double>(switch_bits) / static_cast<double>(switches) < 20.0);
}

TEST_CASE("smallest_three_codes: prediction re-expresses older baselines", "[delta][quaternion]") {
    // A rotation turning steadily while z overtakes w as the largest component.
    const auto at = [](double t) {
        std::array<double, 4> q{0.45, 0.45, 0.5 + t, 0.55 - t};
        const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (double& v : q) v /= norm;
        return quantized(q, std::fabs(q[2]) > std::fabs(q[3]) ? 2u : 3u, 511);
    };
    const smallest_three_fields f2 = at(0.0), f1 = at(0.02), f0 = at(0.04), want = at(0.06);
    REQUIRE(f1.largest == 3);
    REQUIRE(f0.largest == 2);
    const stc::Cube b0 = cube_of(f0), b1 = cube_of(f1), b2 = cube_of(f2);
    stc::Cube predicted;
    netser::predicted_baseline(predicted, netser::prediction_spacing{1, 1, 1}, b0, &b1, &b2);
    CHECK(predicted.orientation.largest == 2);
    CHECK(std::labs(predicted.orientation.a - static_cast<long>(want.codes[0])) <= 1);
    CHECK(std::labs(predicted.orientation.b - static_cast<long>(want.codes[1])) <= 1);
    const long miss = std::labs(predicted.orientation.c - static_cast<long>(want.codes[2]));
    CHECK(miss <= 1);
    // Extrapolating b1's codes as they are (w's code against z's) misses by more.
    CHECK(miss < std::labs(2L * b0.orientation.c - b1.orientation.c - static_cast<long>(want.codes[2])));
}

TEST_CASE("smallest_three_codes: a prediction the members cannot hold leaves the newest baseline", "[delta][quaternion]") {
    const stc::NarrowCube b0{{3, 100, 10, 250}}, b1{{3, 90, 10, 240}};
    stc::NarrowCube predicted;
    netser::predicted_baseline(predicted, netser::prediction_spacing{1, 1, 1}, b0, &b1);
    CHECK(predicted == b0); // a would be 110, c 260: nothing is stored, not a alone
    const stc::NarrowCube c0{{3, 100, 10, 200}}, c1{{3, 90, 10, 190}};
    netser::predicted_baseline(predicted, netser::prediction_spacing{1, 1, 1}, c0, &c1);
    CHECK(predicted == stc::NarrowCube{{3, 110, 10, 210}});
}

TEST_CASE("smallest_three_codes: hostile reads and bad values fail cleanly", "[delta][quaternion][hostile]") {
    const stc::Cube base{{3, 255, 256, 511}};
    // A step of 3 (no such component): out_of_range at the member's first bit.
    {
        const auto out = fields_bytes({{1, 1}, {1, 1}, {0, 1}, {3, 2}});
        netser::read_stream r(out);
        stc::Cube got;
        REQUIRE_FALSE(netser::serialize_delta(r, got, base));
        CHECK(r.error().code == netser::errc::out_of_range);
        CHECK(r.error().bit == 1);
    }
    // A plain read of codes within max_code; a code above it fails with out_of_range.
    {
        const auto out = fields_bytes({{0, 2}, {1, 9}, {2, 9}, {3, 9}});
        netser::read_stream r(out);
        stc::Codes got;
        REQUIRE(netser::smallest_three_codes(500).serialize(r, got));
        CHECK(got == stc::Codes{0, 1, 2, 3});
        // max_code 2: codes in 2 bits, and the code 3 is above it.
        const auto forged = fields_bytes({{0, 2}, {1, 2}, {3, 2}, {0, 2}});
        netser::read_stream high(forged);
        CHECK_FALSE(netser::smallest_three_codes(2).serialize(high, got));
        CHECK(high.error().code == netser::errc::out_of_range);
        CHECK(high.error().bit == 0);
    }
    // Writes of values outside their ranges fail and write nothing past the member.
    for (const stc::Cube bad : {stc::Cube{{4, 0, 0, 0}}, stc::Cube{{0, 512, 0, 0}}, stc::Cube{{0, 0, -1, 0}}}) {
        std::vector<std::byte> bytes(64);
        netser::write_stream w(bytes);
        CHECK_FALSE(netser::serialize(w, bad));
        CHECK(w.error().code == netser::errc::out_of_range);
        netser::write_stream d(bytes);
        CHECK_FALSE(netser::serialize_delta(d, bad, base));
        CHECK(d.error().code == netser::errc::out_of_range);
        netser::write_stream b(bytes);
        CHECK_FALSE(netser::serialize_delta(b, base, bad)); // a bad baseline
        CHECK(b.error().code == netser::errc::invalid_value);
    }
    // Truncation at every bit of a delta with a switch fails cleanly, bit-packed and
    // range-coded; every bit flip reads or fails cleanly.
    const stc::Cube now{{0, 10, 300, 400}};
    const auto bytes = delta_bytes(now, base);
    std::size_t bits = 0;
    (void)delta_bytes(now, base, &bits);
    for (std::size_t cut = 0; cut < bits; ++cut) {
        std::vector<std::byte> part(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut / 8));
        netser::read_stream r(part);
        stc::Cube got;
        CHECK_FALSE(netser::serialize_delta(r, got, base));
    }
    for (std::size_t bit = 0; bit < bytes.size() * 8; ++bit) {
        auto flipped = bytes;
        flipped[bit / 8] ^= std::byte{static_cast<unsigned char>(1u << (bit % 8))};
        netser::read_stream r(flipped);
        stc::Cube got;
        if (netser::serialize_delta(r, got, base)) {
            CHECK(got.orientation.largest >= 0);
            CHECK(got.orientation.largest <= 3);
            CHECK(got.orientation.a <= 511);
        } else {
            CHECK(r.error().code != netser::errc::none);
        }
    }
    std::vector<std::byte> buffer(256);
    netser::range_write_stream w(buffer);
    REQUIRE(netser::serialize_delta(w, now, base));
    const auto coded = w.finish();
    {
        netser::range_read_stream r(coded);
        stc::Cube got;
        REQUIRE(netser::serialize_delta(r, got, base));
        CHECK(got == now);
    }
}
