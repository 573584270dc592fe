// Quantized floats: the formula of docs/wire_format.md (3.1) in float32 without FMA, clamping, the
// hostile cases, and bit-exact decodes. The oracle is a second implementation of
// the formula in this file that rounds each double-precision step to float32
// (which is exactly float32 arithmetic for + - * /); fixed vectors come from
// tools/golden.py and from the reference library's published conformance vectors.

#include "test_util.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <random>

using netser::errc;
using netser::quantization;
using netser_test::exact_block;
using netser_test::hex;
using netser_test::read_hex;
using netser_test::reference_writer;

static_assert(quantization::make(-1000.f, 1000.f, 0.01f).bits == 18);
static_assert(quantization::make(-1000.f, 1000.f, 0.01f).max_int == 200000);
static_assert(quantization::make(-1000.f, 1000.f, 0.01f).valid);
static_assert(quantization::make(0.f, 10.f, 0.01f).max_int == 1000);
static_assert(quantization::make(0.f, 10.f, 0.01f).bits == 10);
static_assert(quantization::make(-100.f, 100.f, 0.01f).bits == 15);
static_assert(quantization::make(-50.f, 50.f, 0.01f).bits == 14);
static_assert(quantization::make(-2000.f, 2000.f, 0.1f).bits == 16);
static_assert(quantization::make(0.f, 8388609.f, 1.f).max_int == 8388609);
static_assert(quantization::make(0.f, 8388609.f, 1.f).bits == 24);
static_assert(quantization::make(0.f, 16777215.f, 1.f).bits == 24);
static_assert(quantization::make(0.f, 1.f, 10.f).max_int == 1); // fewer than one step: one step
static_assert(quantization::make(0.f, 1.f, 10.f).bits == 1);
static_assert(quantization::make(0.f, 1e-38f, 1e30f).max_int == 1); // delta / resolution underflows to 0
static_assert(quantization::make(0.f, 4294967040.f, 1.f).bits == 32);
static_assert(!quantization::make(1.f, 1.f, 0.1f).valid);  // min == max
static_assert(!quantization::make(2.f, 1.f, 0.1f).valid);  // min > max
static_assert(!quantization::make(0.f, 1.f, 0.f).valid);   // resolution 0
static_assert(!quantization::make(0.f, 1.f, -1.f).valid);  // negative resolution
static_assert(!quantization::make(std::numeric_limits<float>::quiet_NaN(), 1.f, 0.1f).valid);
static_assert(!quantization::make(0.f, std::numeric_limits<float>::infinity(), 0.1f).valid);
static_assert(!quantization::make(0.f, 1.f, std::numeric_limits<float>::quiet_NaN()).valid);
static_assert(!quantization::make(-3e38f, 3e38f, 1.f).valid);       // delta overflows
static_assert(!quantization::make(0.f, 8589934592.f, 1.f).valid);   // 2^33 steps do not fit 32 bits

namespace {

// The formula of docs/wire_format.md (3.1), each step a double operation rounded to float32. The
// volatile store makes the rounding happen whatever the compiler (no FMA contraction
// across it, no x87 excess precision, no narrowing of the double operations).
float f32(double x) {
    volatile float rounded = static_cast<float>(x);
    return rounded;
}

std::uint32_t oracle_encode(float v, float min, float max, float res) {
    const float delta = f32(double{max} - double{min});
    const auto max_int = static_cast<std::uint32_t>(std::ceil(f32(double{delta} / double{res})));
    float n = f32(f32(double{v} - double{min}) / double{delta});
    n = n < 0.f ? 0.f : (n > 1.f ? 1.f : n);
    const float scaled = f32(double{n} * double{static_cast<float>(max_int)});
    const double code = std::floor(double{f32(double{scaled} + 0.5)});
    return code > max_int ? max_int : static_cast<std::uint32_t>(code);
}

float oracle_decode(std::uint32_t code, float min, float max, float res) {
    const float delta = f32(double{max} - double{min});
    const auto max_int = static_cast<std::uint32_t>(std::ceil(f32(double{delta} / double{res})));
    const float n = f32(double{static_cast<float>(code)} / double{static_cast<float>(max_int)});
    return f32(double{f32(double{n} * double{delta})} + double{min});
}

// The hex that writing `values` quantized produces (write and measure agree).
std::string quantized_hex(std::initializer_list<float> values, float min, float max, float res) {
    return netser_test::write_hex([&](auto& s) {
        for (float v : values)
            if (!netser::serialize_quantized(s, v, min, max, res)) return false;
        return true;
    });
}

std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }

struct params {
    float min, max, res;
};

constexpr std::array<params, 9> parameter_sets{{{-1000.f, 1000.f, 0.01f},
                                                {0.f, 10.f, 0.01f},
                                                {-100.f, 100.f, 0.01f},
                                                {-2000.f, 2000.f, 0.1f},
                                                {-50.f, 50.f, 0.01f},
                                                {0.f, 1.f, 0.001f},
                                                {-3.14159f, 3.14159f, 0.0001f},
                                                {10.f, 20.f, 0.25f},
                                                {-1.f, 1.f, 1e-6f}}};

} // namespace

TEST_CASE("serialize_quantized writes the golden vectors", "[quantized]") {
    CHECK(quantized_hex({0.f}, -1000.f, 1000.f, 0.01f) == "A0 86 01");       // code 100000
    CHECK(quantized_hex({-1000.f}, -1000.f, 1000.f, 0.01f) == "00 00 00");   // code 0
    CHECK(quantized_hex({1000.f}, -1000.f, 1000.f, 0.01f) == "40 0D 03");    // code 200000
    CHECK(quantized_hex({123.45f}, -1000.f, 1000.f, 0.01f) == "D9 B6 01");   // code 112345
    // In float32 (v - min) / delta * max_int is exactly 99998.5, which rounds up;
    // the same formula in double gives 99998.4999... and code 99998 (9E 86 01).
    CHECK(quantized_hex({-0.015f}, -1000.f, 1000.f, 0.01f) == "9F 86 01");
    CHECK(quantized_hex({5000.f}, -1000.f, 1000.f, 0.01f) == "40 0D 03");    // clamps to max
    CHECK(quantized_hex({-std::numeric_limits<float>::infinity()}, -1000.f, 1000.f, 0.01f) == "00 00 00");
    CHECK(quantized_hex({5.f}, 0.f, 10.f, 0.01f) == "F4 01");                // 10 bits
    CHECK(quantized_hex({1.5f, -2.25f, 0.1f}, -50.f, 50.f, 0.01f) == "1E D4 A9 24 39 01");
}

TEST_CASE("serialize_quantized decodes codes bit-exactly as the reference library does", "[quantized]") {
    struct vector {
        float min, max, res;
        const char* packet;
        std::uint32_t bits;
    };
    // The first ones are the reference library's conformance vectors; the last from tools/golden.py.
    const std::array<vector, 11> vectors{{{0.f, 10.f, 0.01f, "00 00", 0x00000000},
                                          {0.f, 10.f, 0.01f, "01 00", 0x3C23D70B},
                                          {0.f, 10.f, 0.01f, "F4 01", 0x40A00000},
                                          {0.f, 10.f, 0.01f, "E8 03", 0x41200000},
                                          {-100.f, 100.f, 0.01f, "80 01", 0xC2C051EC},
                                          {-100.f, 100.f, 0.01f, "6F 16", 0xC22A47AE},
                                          {-100.f, 100.f, 0.01f, "10 27", 0x00000000},
                                          {-100.f, 100.f, 0.01f, "20 4E", 0x42C80000},
                                          {0.f, 8388609.f, 1.f, "01 00 80", 0x4B000001},
                                          {0.f, 16777215.f, 1.f, "FF FF FF", 0x4B7FFFFF},
                                          {-1000.f, 1000.f, 0.01f, "D9 B6 01", 0x42F6E670}}};
    for (const auto& v : vectors) {
        float got = 0.f;
        std::size_t bits = 0;
        INFO(v.packet << " in [" << v.min << ", " << v.max << "] at " << v.res);
        const auto e = read_hex(v.packet, [&](auto& s) { return netser::serialize_quantized(s, got, v.min, v.max, v.res); },
                                &bits);
        CHECK(e.code == errc::none);
        CHECK(bits_of(got) == v.bits);
        CHECK(bits == static_cast<std::size_t>(quantization::make(v.min, v.max, v.res).bits));
    }
    // A one-bit field: [0, 1] at resolution 10 has a single step.
    float one = 0.f;
    CHECK(read_hex("01", [&](auto& s) { return netser::serialize_quantized(s, one, 0.f, 1.f, 10.f); }).code == errc::none);
    CHECK(one == 1.f);
}

TEST_CASE("serialize_quantized refuses to read a code above max_int", "[quantized]") {
    struct vector {
        float min, max, res;
        std::uint64_t code;
    };
    for (const auto& v : {vector{0.f, 10.f, 0.01f, 1001}, vector{0.f, 10.f, 0.01f, 1023},
                          vector{-100.f, 100.f, 0.01f, 20001}, vector{-100.f, 100.f, 0.01f, 32767},
                          vector{0.f, 8388609.f, 1.f, 8388610}, vector{-1000.f, 1000.f, 0.01f, 200001},
                          vector{-1000.f, 1000.f, 0.01f, 262143}}) {
        const auto q = quantization::make(v.min, v.max, v.res);
        reference_writer ref;
        ref.put(3, 2);
        ref.put(v.code, q.bits);
        float got = 7.f;
        INFO("code " << v.code);
        const auto e = read_hex(hex(ref.bytes()), [&](auto& s) {
            std::uint8_t pre = 0;
            return netser::serialize_bits(s, pre, 2) && netser::serialize_quantized(s, got, v.min, v.max, v.res);
        });
        CHECK(e.code == errc::out_of_range);
        CHECK(e.bit == 2);
        CHECK(got == 7.f);
    }
    float got = 0.f;
    CHECK(read_hex("FF", [&](auto& s) { return netser::serialize_quantized(s, got, 0.f, 10.f, 0.01f); }).code ==
          errc::overflow);
}

TEST_CASE("serialize_quantized refuses to write NaN with invalid_value, keeping the earlier bytes", "[quantized]") {
    for (const float nan : {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::signaling_NaN(), std::bit_cast<float>(0x7FC12345u)}) {
        std::array<std::byte, 8> buffer{};
        netser::write_stream w(buffer);
        std::uint8_t pre = 0x15;
        float v = nan;
        REQUIRE(netser::serialize_bits(w, pre, 5));
        CHECK_FALSE(netser::serialize_quantized(w, v, -1000.f, 1000.f, 0.01f));
        CHECK(w.error().code == errc::invalid_value);
        CHECK(w.error().bit == 5);
        CHECK(w.bits_processed() == 5);
        CHECK(hex(w.finish()) == "15");
        netser::measure_stream m;
        CHECK_FALSE(netser::serialize_quantized(m, v, -1000.f, 1000.f, 0.01f));
        CHECK(m.error().code == errc::invalid_value);
    }
}

TEST_CASE("serialize_quantized clamps values outside [min, max] and infinities", "[quantized]") {
    const auto q = quantization::make(-1000.f, 1000.f, 0.01f);
    CHECK(q.encode(1000.001f) == q.max_int);
    CHECK(q.encode(1e30f) == q.max_int);
    CHECK(q.encode(std::numeric_limits<float>::infinity()) == q.max_int);
    CHECK(q.encode(std::numeric_limits<float>::max()) == q.max_int);
    CHECK(q.encode(-1000.001f) == 0);
    CHECK(q.encode(-std::numeric_limits<float>::max()) == 0);
    CHECK(q.encode(-std::numeric_limits<float>::infinity()) == 0);
    float v = 12345.f;
    std::array<std::byte, 4> buffer{};
    netser::write_stream w(buffer);
    REQUIRE(netser::serialize_quantized(w, v, -1000.f, 1000.f, 0.01f));
    const exact_block packet(w.finish());
    netser::read_stream r(packet.span());
    float got = 0.f;
    REQUIRE(netser::serialize_quantized(r, got, -1000.f, 1000.f, 0.01f));
    CHECK(got == 1000.f);
}

TEST_CASE("serialize_quantized refuses invalid parameters with invalid_value on every stream", "[quantized]") {
    float v = 0.5f;
    std::array<std::byte, 8> buffer{};
    netser::write_stream w(buffer);
    CHECK_FALSE(netser::serialize_quantized(w, v, 1.f, 0.f, 0.1f));
    CHECK(w.error().code == errc::invalid_value);
    netser::measure_stream m;
    CHECK_FALSE(netser::serialize_quantized(m, v, 0.f, 1.f, 0.f));
    CHECK(m.error().code == errc::invalid_value);
    const auto e = read_hex("00 00 00 00 00",
                            [&](auto& s) { return netser::serialize_quantized(s, v, 0.f, 8589934592.f, 1.f); });
    CHECK(e.code == errc::invalid_value);
}

TEST_CASE("quantization encodes and decodes exactly as the float32 formula says", "[quantized]") {
    std::mt19937_64 rng(41);
    for (const auto& p : parameter_sets) {
        const auto q = quantization::make(p.min, p.max, p.res);
        REQUIRE(q.valid);
        INFO("[" << p.min << ", " << p.max << "] at " << p.res);
        CHECK(q.max_int == static_cast<std::uint32_t>(std::ceil(f32(double{f32(double{p.max} - double{p.min})} / double{p.res}))));
        std::uniform_real_distribution<float> in_range(p.min, p.max);
        std::uniform_real_distribution<float> wide(p.min - (p.max - p.min), p.max + (p.max - p.min));
        for (int i = 0; i < 20000; ++i) {
            const float v = i % 4 == 0 ? wide(rng) : in_range(rng);
            INFO("v = " << v << " (bits " << bits_of(v) << ")");
            REQUIRE(q.encode(v) == oracle_encode(v, p.min, p.max, p.res));
            const auto code = static_cast<std::uint32_t>(rng() % (std::uint64_t{q.max_int} + 1));
            REQUIRE(bits_of(q.decode(code)) == bits_of(oracle_decode(code, p.min, p.max, p.res)));
        }
        CHECK(q.decode(0) == p.min);
    }
}

TEST_CASE("a quantized value is within about resolution / 2 of what was written", "[quantized]") {
    std::mt19937_64 rng(42);
    for (const auto& p : parameter_sets) {
        const auto q = quantization::make(p.min, p.max, p.res);
        CHECK(q.max_error() <= p.res / 2.f * 1.0001f);
        // The rounding of the float32 steps adds a few ulps of the largest magnitude.
        const float ulps = 4.f * std::numeric_limits<float>::epsilon() * std::max(std::fabs(p.min), std::fabs(p.max));
        std::uniform_real_distribution<float> in_range(p.min, p.max);
        float worst = 0.f;
        for (int i = 0; i < 50000; ++i) {
            float v = in_range(rng);
            std::array<std::byte, 8> buffer{};
            netser::write_stream w(buffer);
            float written = v;
            REQUIRE(netser::serialize_quantized(w, written, p.min, p.max, p.res));
            REQUIRE(w.bits_processed() == static_cast<std::size_t>(q.bits));
            const exact_block packet(w.finish());
            netser::read_stream r(packet.span());
            float got = 0.f;
            REQUIRE(netser::serialize_quantized(r, got, p.min, p.max, p.res));
            REQUIRE(bits_of(got) == bits_of(q.decode(q.encode(v))));
            worst = std::max(worst, std::fabs(got - v));
        }
        INFO("[" << p.min << ", " << p.max << "] at " << p.res << ": worst error " << worst);
        CHECK(worst <= q.max_error() + ulps);
        CHECK(worst >= q.max_error() * 0.5f); // the test did sample between the steps
    }
}

TEST_CASE("a decoded value encodes back to its own code", "[quantized]") {
    for (const auto& p : {params{0.f, 10.f, 0.01f}, params{-100.f, 100.f, 0.01f}, params{-1000.f, 1000.f, 0.01f},
                          params{10.f, 20.f, 0.25f}}) {
        const auto q = quantization::make(p.min, p.max, p.res);
        for (std::uint32_t code = 0; code <= q.max_int; ++code) REQUIRE(q.encode(q.decode(code)) == code);
    }
}

TEST_CASE("serialize_quantized takes precomputed parameters", "[quantized]") {
    constexpr auto q = quantization::make(-1000.f, 1000.f, 0.01f);
    static_assert(q.valid && q.bits == 18);
    float v = 123.45f;
    const auto text = netser_test::write_hex([&](auto& s) { return netser::serialize_quantized(s, v, q); });
    CHECK(text == "D9 B6 01");
    float got = 0.f;
    CHECK(read_hex(text, [&](auto& s) { return netser::serialize_quantized(s, got, q); }).code == errc::none);
    CHECK(bits_of(got) == 0x42F6E670u);
    netser::quantization invalid{};
    CHECK(netser_test::read_hex("00", [&](auto& s) { return netser::serialize_quantized(s, got, invalid); }).code ==
          errc::invalid_value);
}

// docs/attributes.md: quantize counts both ends, so a span of a whole power of two in
// steps takes one bit more than the same span less one step.
TEST_CASE("a span of exactly 2^n steps takes n + 1 bits, one step less takes n", "[quantized]") {
    const auto full = netser::quantization::make(-2048.f, 2048.f, 1.f / 64);
    CHECK(full.max_int == 262144u); // 2^18: 262145 codes
    CHECK(full.bits == 19);
    const auto short_of = netser::quantization::make(-2048.f, 2048.f - 1.f / 64, 1.f / 64);
    CHECK(short_of.max_int == 262143u);
    CHECK(short_of.bits == 18);
}
