// encodings/scalar.hpp, floats: raw float (32 bits) and double (64 bits), bit-exact; quantized
// floats (the attribute itself is in attributes_test.cpp); common on floats.

#include "reflect/test_types.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <variant>
#include <vector>

using netser::errc;
using namespace reflect_test;

namespace floats_test {

struct Raw {
    float f = 0;
    double d = 0;
};
NETSER_STRUCT(Raw, f, d)

struct UnalignedRaw {
    bool flag = false;
    float f = 0;
    double d = 0;
};
NETSER_STRUCT(UnalignedRaw, flag, f, d)

struct Position {
    float x = 0;
    float y = 0;
};
NETSER_STRUCT(Position, (x, netser::quantize(-2000.f, 2000.f, 0.1f)), (y, netser::quantize(-1000.f, 1000.f, 0.01f)))

/// Raw floats in every container: each element goes through its own code path.
struct FloatShapes {
    float f = 0;
    double d = 0;
    std::array<float, 3> a{};
    std::vector<double> v;
    std::optional<float> o;
    std::variant<float, double> x;
};
NETSER_STRUCT(FloatShapes, f, d, a, (v, netser::max_size(4)), o, x)

/// Every float and double of s set to the float bits fb or the double bits db.
FloatShapes shapes_of(std::uint32_t fb, std::uint64_t db, bool double_alternative) {
    const float f = std::bit_cast<float>(fb);
    const double d = std::bit_cast<double>(db);
    FloatShapes s{f, d, {f, f, f}, {d, d}, f, {}};
    if (double_alternative) s.x = d;
    else s.x = f;
    return s;
}

} // namespace floats_test

using namespace floats_test;

TEST_CASE("float and double members are sent as their raw IEEE bits", "[floats]") {
    // 1.0f = 0x3F800000; 1/3 = 0x3FD5555555555555.
    CHECK(write(Raw{1.f, 1.0 / 3.0}).hex == "00 00 80 3F 55 55 55 55 55 55 D5 3F");
    CHECK(write(Raw{1.f, 1.0 / 3.0}).bits == 96);
    Raw r;
    REQUIRE_FALSE(read_hex("00 00 80 3F 55 55 55 55 55 55 D5 3F", r));
    CHECK(r.f == 1.f);
    CHECK(r.d == 1.0 / 3.0);
}

TEST_CASE("raw floats after a bool are shifted by one bit", "[floats]") {
    // flag 1 in bit 0; -0.0f (sign bit only) in bits 1-32; -2.0 (0xC000000000000000) in bits 33-96.
    CHECK(write(UnalignedRaw{true, -0.f, -2.0}).hex == "01 00 00 00 01 00 00 00 00 00 00 80 01");
    CHECK(write(UnalignedRaw{true, -0.f, -2.0}).bits == 97);
}

TEST_CASE("raw floats round-trip bit-exactly, NaN payloads and infinities included", "[floats]") {
    const std::uint32_t floats[] = {0x7FC00001u, 0x7F800001u, 0x7F800000u, 0xFF800000u, 0x80000000u, 0x00000001u};
    const std::uint64_t doubles[] = {0x7FF8000000000001u, 0x7FF0000000000001u, 0xFFF0000000000000u,
                                     0x8000000000000000u, 0x0000000000000001u, 0x0000000089ABCDEFu};
    for (std::size_t i = 0; i < 6; ++i) {
        const UnalignedRaw v{true, std::bit_cast<float>(floats[i]), std::bit_cast<double>(doubles[i])};
        const UnalignedRaw r = round_trip(v);
        CHECK(std::bit_cast<std::uint32_t>(r.f) == floats[i]);
        CHECK(std::bit_cast<std::uint64_t>(r.d) == doubles[i]);
    }
    std::mt19937 rng(21);
    for (int i = 0; i < 500; ++i) {
        const auto fbits = static_cast<std::uint32_t>(rng());
        const auto dbits = (std::uint64_t{rng()} << 32) | rng();
        const Raw r = round_trip(Raw{std::bit_cast<float>(fbits), std::bit_cast<double>(dbits)});
        CHECK(std::bit_cast<std::uint32_t>(r.f) == fbits);
        CHECK(std::bit_cast<std::uint64_t>(r.d) == dbits);
    }
}

TEST_CASE("raw floats in containers keep the sign of zero and NaN payloads, read fresh or over equal values",
          "[floats]") {
    // Pairs that compare equal with other bits (+0, -0) and the same bits that compare
    // unequal (a NaN), quiet and signalling NaNs of other payloads: whatever the reader held
    // before, it ends with the bits sent, and they write the same bytes again.
    struct pattern {
        std::uint32_t f;
        std::uint64_t d;
    };
    const pattern patterns[] = {{0x00000000u, 0x0000000000000000u}, {0x80000000u, 0x8000000000000000u},
                                {0x7FC00001u, 0x7FF8000000000001u}, {0x7FC00002u, 0x7FF8000000000002u},
                                {0xFFC00001u, 0xFFF8000000000001u}, {0x7F800001u, 0x7FF0000000000001u}};
    for (const pattern& sent : patterns) {
        for (const bool double_alternative : {false, true}) {
            const FloatShapes value = shapes_of(sent.f, sent.d, double_alternative);
            const written w = write(value);
            CHECK(to_hex(round_trip(value)) == w.hex);
            for (const pattern& held : patterns) {
                INFO(std::hex << "sent " << sent.f << " / " << sent.d << " over " << held.f << " / " << held.d);
                FloatShapes into = shapes_of(held.f, held.d, double_alternative);
                REQUIRE_FALSE(read_hex(w.hex, into));
                CHECK(std::bit_cast<std::uint32_t>(into.f) == sent.f);
                CHECK(std::bit_cast<std::uint64_t>(into.d) == sent.d);
                for (const float e : into.a) CHECK(std::bit_cast<std::uint32_t>(e) == sent.f);
                REQUIRE(into.v.size() == 2);
                for (const double e : into.v) CHECK(std::bit_cast<std::uint64_t>(e) == sent.d);
                REQUIRE(into.o.has_value());
                CHECK(std::bit_cast<std::uint32_t>(*into.o) == sent.f);
                if (double_alternative) CHECK(std::bit_cast<std::uint64_t>(std::get<double>(into.x)) == sent.d);
                else CHECK(std::bit_cast<std::uint32_t>(std::get<float>(into.x)) == sent.f);
                CHECK(to_hex(into) == w.hex);
            }
        }
    }
}

TEST_CASE("a truncated raw double fails with overflow at its first bit", "[floats][hostile]") {
    const auto bytes = unhex("01 00 00 00 01 00 00 00 00 00 00 80 01");
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        UnalignedRaw r;
        INFO("packet cut to " << n << " bytes");
        const netser::error e = read_bytes(std::span(bytes).first(n), r);
        const failure expected = n == 0   ? fail(errc::overflow, 0, "UnalignedRaw.flag")
                                 : n < 5 ? fail(errc::overflow, 1, "UnalignedRaw.f")
                                         : fail(errc::overflow, 33, "UnalignedRaw.d");
        CHECK(failure_of(e) == expected);
    }
}

TEST_CASE("quantize uses the article's 18 bits for [-1000, 1000] at 0.01", "[floats][quantize]") {
    // x: max_int ceil(4000 / 0.1) = 40000, 16 bits; y: max_int 200000, 18 bits.
    // x 0 -> code 20000 (0x4E20); y 0 -> code 100000 (0x186A0) in bits 16-33.
    CHECK(write(Position{0.f, 0.f}).hex == "20 4E A0 86 01");
    CHECK(write(Position{0.f, 0.f}).bits == 34);
    static_assert(netser::max_bits<Position>() == 16 + 18);
}

TEST_CASE("quantize clamps values outside its interval and keeps the ends exact", "[floats][quantize]") {
    const Position r = round_trip(Position{1e9f, -std::numeric_limits<float>::infinity()});
    CHECK(r.x == 2000.f);
    CHECK(r.y == -1000.f);
    const Position e = round_trip(Position{-2000.f, 1000.f});
    CHECK(e.x == -2000.f);
    CHECK(e.y == 1000.f);
}

TEST_CASE("quantize fails the write of a NaN with invalid_value", "[floats][quantize][hostile]") {
    CHECK(failure_of(write_error(Position{0.f, std::numeric_limits<float>::quiet_NaN()})) ==
          fail(errc::invalid_value, 16, "Position.y"));
}

TEST_CASE("quantize rejects every code above max_int", "[floats][quantize][hostile]") {
    for (std::uint64_t code : {40001u, 50000u, 65535u}) {
        reference_writer forged;
        forged.put(code, 16);
        forged.put(0, 18);
        Position p;
        CHECK(failure_of(read_forged(forged, p)) == fail(errc::out_of_range, 0, "Position.x"));
    }
    reference_writer forged;
    forged.put(40000, 16);
    forged.put(200001, 18);
    Position p;
    CHECK(failure_of(read_forged(forged, p)) == fail(errc::out_of_range, 16, "Position.y"));
}
