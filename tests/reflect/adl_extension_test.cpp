// encodings/user.hpp, the extension points: a user attribute (a type with serialize(stream,
// value) const and max_bits()) becomes the member's codec, and a user type with an
// ADL serialize(Stream&, T&) function (Glenn-style) is used wherever it appears, with
// netser_max_bits(const T*) giving its bound.

#include "reflect/test_types.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using netser::errc;
using namespace reflect_test;

namespace math {

// A third-party vector type: netser knows nothing about it but this function.
struct Vec3 {
    float x = 0, y = 0, z = 0;
    bool operator==(const Vec3&) const = default;
};

// Each component in [-100, 100] at 0.5: max_int 400, 9 bits.
template <class Stream>
bool serialize(Stream& s, Vec3& v) {
    return netser::serialize_quantized(s, v.x, -100.f, 100.f, 0.5f) &&
           netser::serialize_quantized(s, v.y, -100.f, 100.f, 0.5f) &&
           netser::serialize_quantized(s, v.z, -100.f, 100.f, 0.5f);
}

constexpr std::size_t netser_max_bits(const Vec3*) { return 3 * 9; }

// A user type with a serialize function and no stated bound.
struct Blob {
    std::uint8_t v = 0;
};
template <class Stream>
bool serialize(Stream& s, Blob& b) {
    return netser::serialize_bits(s, b.v, 8);
}

} // namespace math

namespace adl_test {

/// A user attribute: an angle in degrees sent as one of 256 steps.
struct angle256 {
    template <class S>
    bool serialize(S& s, float& v) const {
        std::uint8_t code = 0;
        if constexpr (!S::is_reading) {
            if (!(v >= 0.f && v < 360.f)) return s.fail(netser::errc::out_of_range, s.bits_processed());
            code = static_cast<std::uint8_t>(static_cast<unsigned>(std::lround(v * (256.f / 360.f))) & 255u);
        }
        if (!netser::serialize_bits(s, code, 8)) return false;
        if constexpr (S::is_reading) v = static_cast<float>(code) * (360.f / 256.f);
        return true;
    }
    static constexpr std::size_t max_bits() { return 8; }
};

struct Ship {
    float heading = 0;
    math::Vec3 pos;
    std::vector<math::Vec3> waypoints;
    bool operator==(const Ship&) const = default;
};
NETSER_STRUCT(Ship, (heading, angle256{}), pos, (waypoints, netser::max_size(2)))

// A user attribute on a container applies to each element.
struct Compass {
    std::vector<float> headings;
    bool operator==(const Compass&) const = default;
};
NETSER_STRUCT(Compass, (headings, netser::max_size(3), angle256{}))

struct WithBlob {
    math::Blob blob;
};
NETSER_STRUCT(WithBlob, blob)

} // namespace adl_test

using namespace adl_test;

namespace {
// The decoder computes code / 400 * 200 - 100 in float32: within a few ulps of the step.
bool close(const math::Vec3& a, const math::Vec3& b) {
    return std::fabs(a.x - b.x) <= 1e-4f && std::fabs(a.y - b.y) <= 1e-4f && std::fabs(a.z - b.z) <= 1e-4f;
}
} // namespace

TEST_CASE("a user attribute is the member's codec", "[extension][attribute]") {
    struct {
        float degrees;
        const char* hex;
    } const cases[] = {{0.f, "00"}, {90.f, "40"}, {180.f, "80"}, {358.6f, "FF"}, {359.5f, "00"}};
    for (const auto& c : cases) {
        const Ship s{c.degrees, {}, {}};
        const written w = write(s);
        CHECK(w.hex.substr(0, 2) == c.hex);
    }
    Ship s;
    REQUIRE_FALSE(read_hex("40 C8 58 02 08 32 32 64", s));
    CHECK(s.heading == 90.f);
    static_assert(netser::max_bits<Ship>() == 8 + 27 + 2 + 2 * 27);
}

TEST_CASE("a user attribute's failure gets the member path", "[extension][attribute][hostile]") {
    CHECK(failure_of(write_error(Ship{400.f, {}, {}})) == fail(errc::out_of_range, 0, "Ship.heading"));
    Ship s;
    CHECK(failure_of(read_hex("", s)) == fail(errc::overflow, 0, "Ship.heading"));
}

TEST_CASE("a type with an ADL serialize function is used as a member and as a vector element", "[extension][adl]") {
    // heading 64; pos codes 200, 300, 0 (9 bits each); count 1 in 2 bits; codes 400, 200, 200.
    const Ship s{90.f, {0.f, 50.f, -100.f}, {{100.f, 0.f, 0.f}}};
    CHECK(write(s).hex == "40 C8 58 02 08 32 32 64");
    CHECK(write(s).bits == 64);
    CHECK(round_trip(s) == s);
    std::mt19937 rng(61);
    for (int i = 0; i < 200; ++i) {
        auto step = [&] { return static_cast<float>(std::uniform_int_distribution<int>(-200, 200)(rng)) * 0.5f; };
        Ship v{static_cast<float>(rng() % 256) * (360.f / 256.f), {step(), step(), step()}, {}};
        v.waypoints.resize(rng() % 3);
        for (auto& w : v.waypoints) w = {step(), step(), step()};
        CHECK(write(v).bits == 8 + 27 + 2 + 27 * v.waypoints.size());
        const Ship r = round_trip(v);
        CHECK(r.heading == v.heading);
        CHECK(close(r.pos, v.pos));
        REQUIRE(r.waypoints.size() == v.waypoints.size());
        for (std::size_t k = 0; k < v.waypoints.size(); ++k) CHECK(close(r.waypoints[k], v.waypoints[k]));
    }
}

TEST_CASE("an ADL serialize function's failure gets the path of the member that holds it", "[extension][adl][hostile]") {
    Ship s;
    reference_writer forged;
    forged.put(0, 8);
    forged.put(0, 27);
    forged.put(2, 2);
    forged.put(0, 27);
    forged.put(401, 9); // waypoints[1].x code 401 > max_int 400
    forged.put(0, 18);
    CHECK(failure_of(read_forged(forged, s)) == fail(errc::out_of_range, 64, "Ship.waypoints[1]"));
    CHECK(failure_of(write_error(Ship{0.f, {std::nanf(""), 0.f, 0.f}, {}})) == fail(errc::invalid_value, 8, "Ship.pos"));
}

TEST_CASE("an ADL type without netser_max_bits still serializes", "[extension][adl]") {
    CHECK(write(WithBlob{{0x5A}}).hex == "5A");
    CHECK(round_trip(WithBlob{{0xC3}}).blob.v == 0xC3);
}

TEST_CASE("a user attribute on a container encodes each element", "[extension][attribute]") {
    // count 3 in 2 bits; 0, 90, 180 degrees -> 0x00, 0x40, 0x80.
    CHECK(write(Compass{{0.f, 90.f, 180.f}}).hex == "03 00 01 02");
    CHECK(write(Compass{{0.f, 90.f, 180.f}}).bits == 26);
    CHECK(round_trip(Compass{{45.f, 270.f}}) == Compass{{45.f, 270.f}});
    static_assert(netser::max_bits<Compass>() == 2 + 3 * 8);
    CHECK(failure_of(write_error(Compass{{0.f, 360.f}})) == fail(errc::out_of_range, 10, "Compass.headings[1]"));
}
