// encodings/user.hpp: user attributes (a codec object on a member) and user types with an ADL
// serialize function, with their own serialize_delta or not. The family's tests, one file
// (tests/encodings/README.md has the whole table).
//
// Where each aspect is covered:
//   wire bits     here: "a user attribute is the member's codec", "a type with an ADL serialize
//                 function is used as a member...", the delta golden hex of "a user type's own
//                 serialize_delta is its whole delta" and "an attribute's unchanged() decides...";
//                 "a stated wire's fields go LSB first, in order" (wire(), netser_wire, and an
//                 attribute that wraps the member's own encoding).
//   model         here: "user codecs' bits go where a model of the member order and the vector
//                 count puts them" (reference_writer); random round trips of 8 + 27 + 2 + 27 n bits;
//                 tests/game/quaternion_test.cpp, unit_vector_test.cpp, linking_test.cpp (the
//                 user attributes netser ships, each against its own model).
//   bounds        here: max_bits from max_bits() and netser_max_bits(const T*) (Ship, Compass),
//                 from a stated wire, and from a wrapped encoding (max_bits(inner_max));
//                 "max_delta_bits of user codecs is their own bound, or a changed bit and their
//                 max_bits" (netser_max_delta_bits(const T*)).
//   hostile       here: a user attribute's and an ADL function's failures named by the member
//                 that holds them; codes above a stated wire's max_code (write and read), a
//                 stated wire cut at every byte; tests/reflect/error_path_test.cpp.
//   compile-fail  tests/compile_fail/: user_attribute user_attribute_without_codec.cpp,
//                 smallest_three_on_vec3.cpp; a shipped attribute without its header
//                 smallest_three_without_header.cpp, unit_vector_without_header.cpp; a user type
//                 without a bound under max_bits max_bits_unbounded.cpp; user_bits (a user
//                 attribute that states no bits, or a wire() that disagrees with its max_bits())
//                 user_attribute_without_bits.cpp, wire_not_max_bits.cpp; a user type's
//                 netser_wire() that disagrees with its bounds user_type_wire_not_max_bits.cpp.
//                 The schema tools
//                 decoding stated wires: tests/schema (Dash).

#include "delta/delta_types.hpp"
#include "reflect/test_types.hpp"
#include "schema/schema_types.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

// ==========================================================================================
// From tests/reflect/adl_extension_test.cpp
// ==========================================================================================
// encodings/user.hpp, the extension points: a user attribute (a type with serialize(stream,
// value) const and max_bits()) becomes the member's codec, and a user type with an
// ADL serialize(Stream&, T&) function (Glenn-style) is used wherever it appears, with
// netser_max_bits(const T*) giving its bound.

namespace adl_extension {

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

} // namespace adl_extension

// ==========================================================================================
// From tests/delta/user_codec_test.cpp
// ==========================================================================================
// User codecs under serialize_delta: a user type (ADL serialize) or attribute with its
// own serialize_delta is called for the value's whole delta; without one, a changed
// value is sent whole, and whether it changed is the attribute's unchanged() or whether
// the two write the same bits.

namespace user_delta {

using namespace delta_test;

namespace game {

// A user type with a plain codec (a 10-bit level) and its own delta: 1 bit when the
// level went up by one (the common case), else the changed bit and the 10 bits.
struct Level {
    std::uint16_t value = 0;
    bool operator==(const Level&) const = default;
};
template <class S>
bool serialize(S& s, Level& l) {
    return netser::serialize_int(s, l.value, 0, 1023);
}
template <class S>
bool serialize_delta(S& s, Level& l, const Level& base) {
    bool changed = l.value != base.value;
    if (!netser::serialize_bool(s, changed)) return false;
    if (!changed) {
        if constexpr (S::is_reading) l = base;
        return true;
    }
    bool up_one = l.value == base.value + 1;
    if (!netser::serialize_bool(s, up_one)) return false;
    if (up_one) {
        if constexpr (S::is_reading) l.value = static_cast<std::uint16_t>(base.value + 1);
        return true;
    }
    return serialize(s, l);
}
constexpr std::size_t netser_max_bits(const Level*) { return 10; }
constexpr std::size_t netser_max_delta_bits(const Level*) { return 12; }

// A user type without a delta and without a bound: compared with operator==.
struct Tag {
    std::uint8_t v = 0;
    bool operator==(const Tag&) const = default;
};
template <class S>
bool serialize(S& s, Tag& t) {
    return netser::serialize_bits(s, t.v, 8);
}

// An attribute that sends an int in 4 bits, whose unchanged() says "same quarter" (values
// 0..15 stand for quarters 0..3, 4 apart): its delta sends nothing finer.
struct quarters_t {
    template <class S>
    bool serialize(S& s, int& v) const {
        std::uint64_t q = static_cast<std::uint64_t>(v / 4);
        if (!s.process_bits(q, 2)) return false;
        if constexpr (S::is_reading) v = static_cast<int>(q) * 4;
        return true;
    }
    constexpr std::size_t max_bits() const { return 2; }
    bool unchanged(const int& v, const int& b) const { return v / 4 == b / 4; }
};
inline constexpr quarters_t quarters{};

struct Hero {
    Level level;
    Tag tag;
    int zone = 0;
};
NETSER_STRUCT(Hero, level, tag, (zone, quarters))

struct Aim {
    std::array<float, 3> dir{0.f, 0.f, 1.f};
};
NETSER_STRUCT(Aim, (dir, netser::unit_vector{12}))

} // namespace game

TEST_CASE("a user type's own serialize_delta is its whole delta", "[delta][user]") {
    using game::Hero;
    const Hero base{{7}, {1}, 4};
    // Hero changed (1); level: its own delta, changed (1), up one (1); tag 0; zone 0.
    // 1 1 1 0 0 -> 07, 5 bits.
    Hero up = base;
    up.level.value = 8;
    CHECK(delta_hex(up, base) == "07");
    Hero out{};
    REQUIRE_FALSE(read_delta("07", out, base));
    CHECK(out.level.value == 8);
    CHECK(out.tag.v == 1);
    CHECK(out.zone == 4);
    // level 20: 1, 1, 0, then 20 in 10 bits; the rest 0 0.
    Hero jump = base;
    jump.level.value = 20;
    netser_test::reference_writer ref;
    ref.put(1, 1);
    ref.put(1, 1);
    ref.put(0, 1);
    ref.put(20, 10);
    ref.put(0, 2);
    CHECK(delta_hex(jump, base) == netser_test::hex(ref.bytes()));
    // Tag states no bound, so Hero has none; Level's own: 12.
    CHECK(netser::detail::delta_value_bounds<netser::detail::no_attrs, game::Level>().max == 12);
}

TEST_CASE("a user type without a delta is compared with == and sent whole", "[delta][user]") {
    using game::Hero;
    const Hero base{{7}, {1}, 4};
    Hero t = base;
    t.tag.v = 200;
    // 1 (Hero), level 0, tag 1 + 200 in 8 bits, zone 0.
    netser_test::reference_writer ref;
    ref.put(1, 1);
    ref.put(0, 1);
    ref.put(1, 1);
    ref.put(200, 8);
    ref.put(0, 1);
    CHECK(delta_hex(t, base) == netser_test::hex(ref.bytes()));
}

TEST_CASE("an attribute's unchanged() decides, and a changed value goes whole", "[delta][user]") {
    using game::Hero;
    const Hero base{{7}, {1}, 4};
    Hero same_quarter = base;
    same_quarter.zone = 7; // quarter 1 as the baseline's 4
    CHECK(delta_hex(same_quarter, base) == "00");
    Hero other = base;
    other.zone = 13; // quarter 3: 1, level 0, tag 0, zone 1 + 3 in 2 bits
    CHECK(delta_hex(other, base) == "39");
    Hero out{};
    REQUIRE_FALSE(read_delta("39", out, base));
    CHECK(out.zone == 12);
}

TEST_CASE("attributes without unchanged() compare the bits they write", "[delta][user]") {
    using game::Aim;
    const Aim base = received(Aim{});
    // A direction a millionth away quantizes to the same bits: unchanged, 1 bit.
    Aim nudged = base;
    nudged.dir = {1e-6f, 0.f, 1.f};
    std::size_t bits = 0;
    CHECK(delta_hex(nudged, base, &bits) == "00");
    CHECK(bits == 1);
    // Another direction: the changed bits, then the plain 2 x 12 bits.
    Aim turned = base;
    turned.dir = {1.f, 0.f, 0.f};
    const std::string packet = delta_hex(turned, base, &bits);
    CHECK(bits == 2 + 24);
    Aim out{};
    REQUIRE_FALSE(read_delta(packet, out, base));
    CHECK(plain_hex(out) == plain_hex(received(turned)));
}

} // namespace user_delta

// ==========================================================================================
// Written with tests/encodings/: where a user attribute's and a user type's bits go, against
// a model of the codes (each value chosen on a code, so that its code is known).
// ==========================================================================================

namespace user_model {

using namespace reflect_test;
using adl_extension::adl_test::Ship;

} // namespace user_model

namespace user_delta::game {

// Level's own delta (netser_max_delta_bits: 12) and an attribute without one (quarters: a
// changed bit, then its max_bits() = 2).
struct Climber {
    Level level;
    int zone = 0;
};
NETSER_STRUCT(Climber, level, (zone, quarters))

} // namespace user_delta::game

TEST_CASE("user codecs' bits go where a model of the member order and the vector count puts them", "[user][model]") {
    using namespace user_model;
    std::mt19937 rng(62);
    for (int i = 0; i < 300; ++i) {
        // heading code h: h * 360 / 256 degrees; a component code c of [-100, 100] at 0.5: c / 2 - 100.
        auto component = [&] { return static_cast<std::uint64_t>(std::uniform_int_distribution<int>(0, 400)(rng)); };
        auto value_of = [](std::uint64_t c) { return static_cast<float>(c) * 0.5f - 100.f; };
        const std::uint64_t heading = rng() % 256;
        Ship v{static_cast<float>(heading) * (360.f / 256.f), {}, {}};
        reference_writer model;
        model.put(heading, 8);
        const std::uint64_t pos[3] = {component(), component(), component()};
        v.pos = {value_of(pos[0]), value_of(pos[1]), value_of(pos[2])};
        for (std::uint64_t c : pos) model.put(c, 9);
        v.waypoints.resize(rng() % 3);
        model.put(v.waypoints.size(), 2);
        for (auto& w : v.waypoints) {
            const std::uint64_t codes[3] = {component(), component(), component()};
            w = {value_of(codes[0]), value_of(codes[1]), value_of(codes[2])};
            for (std::uint64_t c : codes) model.put(c, 9);
        }
        const written out = write(v);
        CHECK(out.hex == hex(model.bytes()));
        CHECK(out.bits == model.bits());
        CHECK(out.bits <= netser::max_bits<Ship>());
    }
}

TEST_CASE("max_delta_bits of user codecs is their own bound, or a changed bit and their max_bits", "[user][bounds]") {
    using user_delta::game::Climber;
    // The struct's changed bit; Level's netser_max_delta_bits; quarters' changed bit and max_bits().
    constexpr std::size_t bound = 1 + 12 + (1 + 2);
    STATIC_REQUIRE(netser::max_delta_bits<Climber>() == bound);
    STATIC_REQUIRE(netser::max_bits<Climber>() == 10 + 2);
    // The worst: a level that is not one up (changed, not up one, 10 bits) and another quarter.
    const Climber base{{7}, 4};
    const Climber worst{{500}, 12};
    std::size_t bits = 0;
    (void)delta_test::delta_hex(worst, base, &bits);
    CHECK(bits == bound);
    // One up: changed and up one, 2 bits; the same quarter: its changed bit alone.
    const Climber up{{8}, 5};
    (void)delta_test::delta_hex(up, base, &bits);
    CHECK(bits == 1 + 2 + 1);
}

// ==========================================================================================
// The protocol shipped codecs share: a stated wire (<netser/wire_layout.hpp>) and an attribute
// that wraps the member's own encoding
// ==========================================================================================
// encodings/user.hpp and <netser/wire_layout.hpp>: the protocol user codecs share with the
// codecs netser ships. A codec may state its wire (the tools decode it field by field), a
// user attribute may wrap the member's own encoding (serialize(s, v, encode)), and the
// shipped codecs (smallest_three, unit_quaternion, unit_vector, linked) state theirs.

namespace user_wire {

using netser::errc;
using namespace reflect_test;

// The codecs that state their wire are those the schema tools are tested on
// (tests/schema/schema_types.hpp): schema_ext::controls_codec, a user attribute with
// every form of field (throttle [-1, 1] at 0.01: codes 0..200 in 8 bits; boost, a flag;
// gear [-1, 5] in 3 bits; horn 0..2 in 2 bits), and schema_ext::Rgb565, a user type
// (5, 6 and 5 bits), both written through netser::serialize_wire.
using schema_ext::controls_codec;
using schema_ext::controls_codec_t;
using schema_ext::Controls;
using schema_ext::Rgb565;

// A wrapping attribute: one bit for "the type's zero", else the member as its other
// attributes encode it.
struct usually_zero_t {
    template <class S, class V, class Encode>
    bool serialize(S& s, V& v, const Encode& encode) const {
        bool zero = false;
        if constexpr (S::is_writing) zero = v == V{};
        if (!netser::serialize_bool(s, zero)) return false;
        if (zero) {
            if constexpr (S::is_reading) v = V{};
            return true;
        }
        return encode(s, v);
    }
    constexpr std::size_t max_bits(std::size_t inner) const { return 1 + inner; }
    constexpr std::size_t min_bits(std::size_t) const { return 1; }
};
inline constexpr usually_zero_t usually_zero{};

struct Car {
    std::uint8_t id = 0;
    Controls controls;
    Rgb565 colour;
    float speed = 0.f;
    std::uint16_t fuel = 0;
};
NETSER_STRUCT(Car, (id, netser::range(0, 200)), (controls, controls_codec), colour,
              (speed, netser::quantize(0.f, 100.f, 0.5f), usually_zero), (fuel, usually_zero, netser::range(0, 1000)))

// Bits from the annotations: id 8; controls 8 + 1 + 3 + 2; colour 5 + 6 + 5; speed 1 (+ 8:
// 200 steps); fuel 1 (+ 10).
constexpr std::size_t controls_bits = 8 + 1 + 3 + 2, colour_bits = 5 + 6 + 5;

TEST_CASE("a codec that states its wire needs no max_bits: its bits are its fields'", "[reflect][user][wire]") {
    STATIC_REQUIRE(controls_codec_t::wire().bits() == controls_bits);
    STATIC_REQUIRE(schema_ext::netser_wire(static_cast<const Rgb565*>(nullptr)).bits() == colour_bits);
    STATIC_REQUIRE(netser::max_bits<Car>() == 8 + controls_bits + colour_bits + (1 + 8) + (1 + 10));
    STATIC_REQUIRE(netser::detail::min_bits_value<netser::detail::no_attrs, Car>() == 8 + controls_bits + colour_bits + 1 + 1);
    STATIC_REQUIRE(netser::wire_code("c", 3).max_code == 7);
    STATIC_REQUIRE(netser::wire_integer("i", -1000, 1000).bits == 11);
    STATIC_REQUIRE_FALSE(netser::wire(netser::wire_code("wide", 33)).valid());
    STATIC_REQUIRE_FALSE(netser::wire(netser::wire_code("over", 2, 4)).valid());
    STATIC_REQUIRE_FALSE(netser::wire(netser::wire_quantized("bad", netser::quantization::make(1.f, 0.f, 1.f))).valid());
}

TEST_CASE("a stated wire's fields go LSB first, in order", "[reflect][user][wire]") {
    // id 7 (8 bits); throttle 0.5: code round(1.5 / 2 * 200) = 150; boost 1; gear 3:
    // code 4; horn 2; colour r 1, g 2, b 3; speed 0 and fuel 0: one bit each, 1 (zero).
    Car car{7, {0.5f, true, 3, 2}, {1, 2, 3}, 0.f, 0};
    netser::measure_stream m;
    REQUIRE(netser::serialize(m, car));
    CHECK(m.bits_processed() == 8 + controls_bits + colour_bits + 2);
    reference_writer model; // field by field, from the annotations
    model.put(7, 8);        // id
    model.put(150, 8);      // throttle
    model.put(1, 1);        // boost
    model.put(4, 3);        // gear
    model.put(2, 2);        // horn
    model.put(1, 5);        // r
    model.put(2, 6);        // g
    model.put(3, 5);        // b
    model.put(1, 1);        // speed: zero
    model.put(1, 1);        // fuel: zero
    CHECK(to_hex(car) == hex(model.bytes()));
    const Car back = round_trip(car);
    CHECK(back.controls.throttle == 0.5f);
    CHECK(back.controls.boost);
    CHECK(back.controls.gear == 3);
    CHECK(back.controls.horn == 2);
    CHECK((back.colour.r == 1 && back.colour.g == 2 && back.colour.b == 3));
}

TEST_CASE("a wrapping attribute adds its bits to the member's own encoding", "[reflect][user][wire]") {
    Car car{1, {}, {}, 50.f, 999};
    const written w = write(car);
    // speed: 1 + 8 (code 100), fuel: 1 + 10 (code 999).
    CHECK(w.bits == 8 + controls_bits + colour_bits + 9 + 11);
    const Car back = round_trip(car);
    CHECK(back.speed == 50.f);
    CHECK(back.fuel == 999);
    // The member's own attributes still judge the value: 1001 is outside range(0, 1000).
    car.fuel = 1001;
    CHECK(failure_of(write_error(car)) ==
          fail(errc::out_of_range, 8 + controls_bits + colour_bits + 9 + 1, "Car.fuel"));
}

TEST_CASE("random cars round trip through stated wires and the wrapped encodings", "[reflect][user][wire]") {
    std::mt19937 rng(2027);
    for (int i = 0; i < 2000; ++i) {
        Car car;
        car.id = static_cast<std::uint8_t>(rng() % 201);
        car.controls = {static_cast<float>(static_cast<int>(rng() % 201) - 100) / 100.f, rng() % 2 == 0,
                        static_cast<int>(rng() % 7) - 1, static_cast<std::uint8_t>(rng() % 3)};
        car.colour = {static_cast<std::uint8_t>(rng() % 32), static_cast<std::uint8_t>(rng() % 64),
                      static_cast<std::uint8_t>(rng() % 32)};
        car.speed = rng() % 3 == 0 ? 0.f : static_cast<float>(rng() % 201) * 0.5f;
        car.fuel = rng() % 3 == 0 ? 0 : static_cast<std::uint16_t>(rng() % 1001);
        const written w = write(car);
        const std::size_t expect = 8 + controls_bits + colour_bits + (car.speed == 0.f ? 1 : 9) + (car.fuel == 0 ? 1 : 11);
        REQUIRE(w.bits == expect);
        const Car back = round_trip(car);
        REQUIRE(back.id == car.id);
        REQUIRE(std::fabs(back.controls.throttle - car.controls.throttle) <= 0.005f);
        REQUIRE((back.controls.boost == car.controls.boost && back.controls.gear == car.controls.gear &&
                 back.controls.horn == car.controls.horn));
        REQUIRE((back.colour.r == car.colour.r && back.colour.g == car.colour.g && back.colour.b == car.colour.b));
        REQUIRE(std::fabs(back.speed - car.speed) <= 0.25f);
        REQUIRE((back.speed == 0.f) == (car.speed == 0.f));
        REQUIRE(back.fuel == car.fuel);
    }
}

TEST_CASE("a code above its field's max_code fails at the codec's first bit, on a write and a read",
          "[reflect][user][wire][hostile]") {
    Car car{7, {0.5f, true, 6, 2}, {1, 2, 3}, 0.f, 0}; // gear 6: code 7, above 6
    CHECK(failure_of(write_error(car)) == fail(errc::out_of_range, 8, "Car.controls"));
    car.controls.gear = 3;
    car.controls.horn = 3; // code 3, above 2
    CHECK(failure_of(write_error(car)) == fail(errc::out_of_range, 8, "Car.controls"));
    car.controls.horn = 2;

    // Forged reads: every field above its max_code, and a throttle code of 201.
    const std::string good = to_hex(car);
    const auto bytes = unhex(good);
    struct forge {
        int at, bits;
        std::uint64_t code;
    };
    for (const forge f : {forge{8, 8, 201}, forge{8 + 8, 1, 1}, forge{8 + 9, 3, 7}, forge{8 + 12, 2, 3}}) {
        std::vector<std::byte> forged = bytes;
        for (int b = 0; b < f.bits; ++b) {
            const int bit = f.at + b;
            const auto mask = std::byte{static_cast<unsigned char>(1u << (bit % 8))};
            if ((f.code >> b) & 1) forged[static_cast<std::size_t>(bit / 8)] |= mask;
            else forged[static_cast<std::size_t>(bit / 8)] &= ~mask;
        }
        Car out;
        const netser::error e = read_bytes(forged, out);
        if (f.bits == 1) {
            CHECK_FALSE(e); // a flag has no code out of range
        } else {
            CHECK(failure_of(e) == fail(errc::out_of_range, 8, "Car.controls"));
        }
    }
}

TEST_CASE("a stated wire cut at any byte fails with overflow, never reads past the packet",
          "[reflect][user][wire][hostile]") {
    const Car car{200, {-1.f, true, 5, 2}, {31, 63, 31}, 12.5f, 1000};
    const written w = write(car);
    const auto bytes = unhex(w.hex);
    REQUIRE(bytes.size() == (w.bits + 7) / 8);
    for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
        std::vector<std::byte> part(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
        Car out;
        const netser::error e = read_bytes(part, out);
        INFO("cut to " << cut << " bytes");
        CHECK(e.code == errc::overflow);
    }
}

// The codecs netser ships state their wire: what they write reads back through it, to
// the same bits, with every code in range.
template <class Attr, class V>
void reads_back_through_wire(const Attr& a, V value) {
    std::array<std::byte, 16> buffer{};
    netser::write_stream w(buffer);
    REQUIRE(a.serialize(w, value));
    const auto wire = a.wire();
    REQUIRE(w.bits_processed() == wire.bits());
    REQUIRE(wire.bits() == a.max_bits());
    const auto bytes = w.finish();
    netser::read_stream r(bytes);
    std::array<std::uint64_t, std::tuple_size_v<decltype(wire.fields)>> codes{};
    REQUIRE(netser::serialize_wire(r, wire, codes));
    REQUIRE(r.bits_processed() == w.bits_processed());
    // The codes written back through the wire are the codec's bytes.
    std::array<std::byte, 16> again{};
    netser::write_stream w2(again);
    REQUIRE(netser::serialize_wire(w2, wire, codes));
    const auto bytes2 = w2.finish();
    REQUIRE(std::vector<std::byte>(bytes.begin(), bytes.end()) == std::vector<std::byte>(bytes2.begin(), bytes2.end()));
}

struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
};
struct Dir {
    float x = 0, y = 0, z = 1;
};

TEST_CASE("smallest_three, unit_quaternion and unit_vector write what their wire states", "[reflect][user][wire]") {
    std::mt19937 rng(11);
    std::normal_distribution<float> n;
    for (int i = 0; i < 500; ++i) {
        Quat q{n(rng), n(rng), n(rng), n(rng)};
        const float l = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
        q = {q.x / l, q.y / l, q.z / l, q.w / l};
        for (int bits : {2, 9, 16, 32}) {
            reads_back_through_wire(netser::smallest_three(bits), q);
            reads_back_through_wire(netser::unit_quaternion(bits), q);
            reads_back_through_wire(netser::unit_vector(bits), Dir{q.x, q.y, q.z});
        }
    }
}

} // namespace user_wire
