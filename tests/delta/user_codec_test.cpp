// User codecs under serialize_delta: a user type (ADL serialize) or attribute with its
// own serialize_delta is called for the value's whole delta; without one, a changed
// value is sent whole, and whether it changed is the attribute's unchanged() or whether
// the two write the same bits.

#include "delta/delta_types.hpp"

#include <cstdint>

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
