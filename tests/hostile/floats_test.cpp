// Every NaN and infinity class: raw floats and doubles travel bit-exact by default
// (signalling NaNs and payloads included, on every host); netser::finite refuses them
// on write and on read; a quantized float refuses NaN and clamps infinities.
#include "hostile/hostile_types.hpp"

#include <bit>
#include <cmath>

namespace hostile {

namespace {

struct float_class {
    const char* name;
    std::uint32_t f;
    std::uint64_t d;
    bool finite;
};

constexpr float_class classes[] = {
    {"+0", 0x00000000u, 0x0000000000000000ull, true},
    {"-0", 0x80000000u, 0x8000000000000000ull, true},
    {"smallest subnormal", 0x00000001u, 0x0000000000000001ull, true},
    {"largest subnormal", 0x007fffffu, 0x000fffffffffffffull, true},
    {"negative subnormal", 0x80000001u, 0x8000000000000001ull, true},
    {"smallest normal", 0x00800000u, 0x0010000000000000ull, true},
    {"largest finite", 0x7f7fffffu, 0x7fefffffffffffffull, true},
    {"lowest finite", 0xff7fffffu, 0xffefffffffffffffull, true},
    {"+infinity", 0x7f800000u, 0x7ff0000000000000ull, false},
    {"-infinity", 0xff800000u, 0xfff0000000000000ull, false},
    {"quiet NaN", 0x7fc00000u, 0x7ff8000000000000ull, false},
    {"negative quiet NaN", 0xffc00000u, 0xfff8000000000000ull, false},
    {"quiet NaN, all payload bits", 0x7fffffffu, 0x7fffffffffffffffull, false},
    {"signalling NaN, lowest payload", 0x7f800001u, 0x7ff0000000000001ull, false},
    {"signalling NaN, highest payload", 0x7fbfffffu, 0x7ff7ffffffffffffull, false},
    {"negative signalling NaN", 0xff800001u, 0xfff0000000000001ull, false},
    {"all ones", 0xffffffffu, 0xffffffffffffffffull, false},
};

} // namespace

TEST_CASE("raw floats and doubles travel bit-exact, whatever they hold", "[hostile][floats]") {
    for (const auto& c : classes) {
        INFO(c.name);
        const Floats value{std::bit_cast<float>(c.f), std::bit_cast<double>(c.d)};
        const packet p = write_value(value);
        REQUIRE(p.bits == 96);
        CHECK(netser_test::reference_read(p.bytes, 0, 32) == c.f); // the 32 IEEE bits, LSB first
        CHECK(netser_test::reference_read(p.bytes, 32, 64) == c.d);
        const auto r = read_value<Floats>(p.bytes);
        REQUIRE_FALSE(r.error);
        CHECK(std::bit_cast<std::uint32_t>(r.value.f) == c.f);
        CHECK(std::bit_cast<std::uint64_t>(r.value.d) == c.d);
        // And through a whole packet type.
        Extremes x;
        x.raw_f = value.f;
        x.raw_d = value.d;
        const auto e = read_value<Extremes>(write_value(x).bytes);
        REQUIRE_FALSE(e.error);
        CHECK(std::bit_cast<std::uint32_t>(e.value.raw_f) == c.f);
        CHECK(std::bit_cast<std::uint64_t>(e.value.raw_d) == c.d);
    }
}

TEST_CASE("a raw float read into a value that compares equal takes the packet's bits", "[hostile][floats]") {
    // Every class read over every other: -0 over +0 (equal, other bits), a NaN over the same
    // NaN (unequal, the same bits) and over NaNs of other payloads. A reader that assigned
    // only when the values compare unequal would keep the old bits.
    for (const auto& c : classes) {
        const Floats value{std::bit_cast<float>(c.f), std::bit_cast<double>(c.d)};
        const packet p = write_value(value);
        for (const auto& held : classes) {
            INFO(c.name << " read over " << held.name);
            Floats into{std::bit_cast<float>(held.f), std::bit_cast<double>(held.d)};
            netser::read_stream r{std::span<const std::byte>(p.bytes)};
            REQUIRE(netser::serialize(r, into));
            CHECK(std::bit_cast<std::uint32_t>(into.f) == c.f);
            CHECK(std::bit_cast<std::uint64_t>(into.d) == c.d);
            CHECK(write_value(into).bytes == p.bytes);
        }
    }
}

TEST_CASE("netser::finite refuses every NaN and infinity, on write and on read", "[hostile][floats]") {
    for (const auto& c : classes) {
        INFO(c.name);
        const FiniteFloats value{std::bit_cast<float>(c.f), std::bit_cast<double>(c.d)};
        // Forged: float first, then the double.
        const auto r = read_value<FiniteFloats>(forge().put(c.f, 32).put(0, 64).bytes());
        const auto rd = read_value<FiniteFloats>(forge().put(0, 32).put(c.d, 64).bytes());
        std::vector<std::byte> buffer(16);
        netser::write_stream w{std::span<std::byte>(buffer)};
        const bool written = netser::serialize(w, value);
        if (c.finite) {
            CHECK(written);
            REQUIRE_FALSE(r.error);
            REQUIRE_FALSE(rd.error);
            CHECK(std::bit_cast<std::uint32_t>(r.value.f) == c.f);
            CHECK(std::bit_cast<std::uint64_t>(rd.value.d) == c.d);
        } else {
            CHECK_FALSE(written);
            CHECK(w.error().code == netser::errc::invalid_value);
            CHECK(w.error().path() == "FiniteFloats.f");
            CHECK(r.error.code == netser::errc::invalid_value);
            CHECK(r.error.bit == 0);
            CHECK(r.error.path() == "FiniteFloats.f");
            CHECK(rd.error.code == netser::errc::invalid_value);
            CHECK(rd.error.bit == 32);
            CHECK(rd.error.path() == "FiniteFloats.d");
        }
    }
}

TEST_CASE("a quantized float refuses NaN and clamps infinities", "[hostile][floats]") {
    for (const auto& c : classes) {
        INFO(c.name);
        const float v = std::bit_cast<float>(c.f);
        std::vector<std::byte> buffer(8);
        netser::write_stream w{std::span<std::byte>(buffer)};
        const Quantized value{v};
        const bool written = netser::serialize(w, value);
        if (std::isnan(v)) {
            CHECK_FALSE(written);
            CHECK(w.error().code == netser::errc::invalid_value);
            continue;
        }
        REQUIRE(written);
        const auto r = read_value<Quantized>(w.finish());
        REQUIRE_FALSE(r.error);
        CHECK(r.value.q >= -10.f);
        CHECK(r.value.q <= 10.f);
        if (std::isinf(v)) CHECK(r.value.q == (v > 0 ? 10.f : -10.f));
    }
}

} // namespace hostile
