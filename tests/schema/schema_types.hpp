#pragma once

// Types for the schema tests: together with the chat game of tests/packet/packet_types.hpp
// and the Player of docs/attributes.md in tests/reflect/test_types.hpp, they cover every encoding
// node of docs/schema.md: every scalar form, containers, optionals, variants, sparse
// arrays, the game encodings, linking, checks, skip, bases with only_if on a base's
// flag, a struct whose attributes replace its members', plain aggregates, recursive
// types (one through a sparse vector), two structs under one name, a user type and a
// user attribute, each once opaque and once stating its wire; the delta attributes on every kind of member they apply to; names
// outside ASCII; the keyed deltas (maps, an unordered map, a set, a keyed vector, sparse
// slots) in Arena, keys of every kind of code in Registry.

#include <netser/netser.hpp>

#include <boost/describe/enum.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

namespace schema_ext {

/// A user type with its own serialize: 12 bits.
struct Packed12 {
    std::uint16_t v = 0;
};
template <class S>
bool serialize(S& s, Packed12& p) {
    return netser::serialize_bits(s, p.v, 12);
}
constexpr std::size_t netser_max_bits(const Packed12*) { return 12; }
constexpr std::size_t netser_min_bits(const Packed12*) { return 12; }
constexpr std::string_view netser_schema_tag(const Packed12*) { return "packed12"; }

/// A user attribute: a float as one of 256 steps of [0, 1).
struct step256_t {
    template <class S>
    bool serialize(S& s, float& v) const {
        std::uint8_t step = 0;
        if constexpr (!S::is_reading) step = static_cast<std::uint8_t>(static_cast<unsigned>(v * 256.f) % 256u);
        if (!netser::serialize_bits(s, step, 8)) return false;
        if constexpr (S::is_reading) v = static_cast<float>(step) / 256.f;
        return true;
    }
    static constexpr std::size_t max_bits() { return 8; }
    static constexpr std::size_t min_bits() { return 8; }
    static constexpr std::string_view schema_tag() { return "step256"; }
};
inline constexpr step256_t step256{};

/// A user type that states its wire (and so needs no netser_max_bits): a colour in 5, 6
/// and 5 bits, written through the wire it states.
struct Rgb565 {
    std::uint8_t r = 0, g = 0, b = 0;
};
constexpr auto netser_wire(const Rgb565*) {
    return netser::wire(netser::wire_code("r", 5), netser::wire_code("g", 6), netser::wire_code("b", 5));
}
template <class S>
bool serialize(S& s, Rgb565& c) {
    std::array<std::uint64_t, 3> codes{c.r, c.g, c.b};
    if (!netser::serialize_wire(s, netser_wire(&c), codes)) return false;
    if constexpr (S::is_reading) {
        c.r = static_cast<std::uint8_t>(codes[0]);
        c.g = static_cast<std::uint8_t>(codes[1]);
        c.b = static_cast<std::uint8_t>(codes[2]);
    }
    return true;
}

/// A vehicle's controls, for a user attribute that states its wire: every form of field.
struct Controls {
    float throttle = 0.f; // [-1, 1] at 0.01
    bool boost = false;
    int gear = 0;         // [-1, 5]
    std::uint8_t horn = 0; // 0..2, in 2 bits
};
struct controls_codec_t {
    static constexpr netser::quantization throttle = netser::quantization::make(-1.f, 1.f, 0.01f);
    static constexpr auto wire() {
        return netser::wire(netser::wire_quantized("throttle", throttle), netser::wire_flag("boost"),
                            netser::wire_integer("gear", -1, 5), netser::wire_code("horn", 2, 2));
    }
    template <class S>
    bool serialize(S& s, Controls& c) const {
        std::array<std::uint64_t, 4> codes{};
        if constexpr (S::is_writing) {
            if (c.throttle != c.throttle) return s.fail(netser::errc::invalid_value, s.bits_processed());
            codes = {throttle.encode(c.throttle), c.boost ? 1u : 0u, static_cast<std::uint64_t>(c.gear + 1), c.horn};
        }
        if (!netser::serialize_wire(s, wire(), codes)) return false;
        if constexpr (S::is_reading) {
            c.throttle = throttle.decode(static_cast<std::uint32_t>(codes[0]));
            c.boost = codes[1] != 0;
            c.gear = static_cast<int>(codes[2]) - 1;
            c.horn = static_cast<std::uint8_t>(codes[3]);
        }
        return true;
    }
    static constexpr std::string_view schema_tag() { return "controls"; }
};
inline constexpr controls_codec_t controls_codec{};

} // namespace schema_ext

namespace schema_types {

/// User codecs that state their wire.
struct Dash {
    std::uint8_t id = 0;
    schema_ext::Controls controls;
    schema_ext::Rgb565 colour;
    std::vector<schema_ext::Rgb565> palette;
};
NETSER_STRUCT(Dash, (id, netser::range(0, 200)), (controls, schema_ext::controls_codec), colour,
              (palette, netser::max_size(3)))

BOOST_DEFINE_ENUM_CLASS(Weapon, none, pistol, rifle, rocket)

// Enumerators 3, 5, 9: 3 bits (span 6); every other code is a gap.
enum class Sparse : int { a = 3, b = 5, c = 9 };
BOOST_DESCRIBE_ENUM(Sparse, a, b, c)

// Not described: needs range or bits.
enum class Raw : std::uint8_t { lo = 1, hi = 200 };

struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
};
struct Vec3 {
    float x = 0, y = 0, z = 0;
};
struct GameObject {
    int id = 0;
};

/// The game encodings.
struct Rotations {
    Quat a;
    Quat b;
    std::array<float, 4> c{0, 0, 0, 1};
    Vec3 dir{0, 0, 1};
    std::array<float, 3> dir2{1, 0, 0};
};
NETSER_STRUCT(Rotations,
    (a, netser::smallest_three{9}),
    (b, netser::unit_quaternion{10}),
    (c, netser::smallest_three{12}),
    (dir, netser::unit_vector{12}),
    (dir2, netser::unit_vector{8}))

/// Sparse arrays, fixed and growable.
struct Slots {
    std::array<std::optional<std::uint8_t>, 400> fixed;
    std::vector<std::optional<std::uint16_t>> grow;
};
NETSER_STRUCT(Slots,
    (fixed, netser::sparse, netser::range(0, 15)),
    (grow, netser::sparse, netser::max_size(200), netser::range(0, 1023)))

/// Links to shared objects (bare payloads: read_packet has no link context).
struct Links {
    GameObject* home = nullptr;
    std::vector<const GameObject*> squad;
};
NETSER_STRUCT(Links, (home, netser::linked{8}), (squad, netser::max_size(3), netser::linked{6, netser::unknown_link::fail}))

struct Cargo {
    std::uint8_t gold = 0;
    bool full = false;
};
NETSER_STRUCT(Cargo, (gold, netser::range(0, 100)), full)

/// Every scalar form and every container.
struct Kitchen {
    std::int16_t offset = 0;       // bits(5), signed: [-16, 15]
    std::uint32_t flags = 0;       // bits(20)
    std::uint64_t big = 0;         // the whole 64-bit range
    std::int64_t raw64 = 0;        // two's complement
    std::int8_t small[3] = {};     // C array, raw
    double when = 0;               // raw 64 bits
    float speed = 0;               // quantize + finite
    float ratio = 0;               // raw + common + finite
    float temp = 0;                // quantize + common
    Sparse sparse_enum = Sparse::a;
    Raw by_range = Raw::lo;
    Raw by_bits = Raw::lo;
    std::string name;
    std::string blob;              // raw_bytes
    std::vector<bool> switches;
    std::map<std::uint8_t, std::int16_t> scores;
    std::set<std::uint16_t> ids;
    std::unique_ptr<Cargo> cargo;
    std::optional<std::int32_t> target;
    std::array<std::array<std::uint8_t, 2>, 2> grid{};
    int cache = 0;                 // skip
    std::uint16_t after_check = 0; // check("section")
    schema_ext::Packed12 packed;
    float angle = 0;               // a user attribute without a known tag
    std::array<Weapon, 2> weapons{};
};
NETSER_STRUCT(Kitchen,
    (offset, netser::bits(5)),
    (flags, netser::bits(20)),
    (big, netser::range(std::uint64_t{0}, ~std::uint64_t{0})),
    raw64,
    small,
    when,
    (speed, netser::quantize(0.f, 20.f, 0.05f), netser::finite),
    (ratio, netser::common(0.f, 1.f), netser::finite),
    (temp, netser::quantize(-40.f, 60.f, 0.5f), netser::common(20.5f)),
    sparse_enum,
    (by_range, netser::range(1, 200)),
    (by_bits, netser::bits(8)),
    (name, netser::max_length(12)),
    (blob, netser::max_length(6), netser::raw_bytes),
    (switches, netser::max_size(10)),
    (scores, netser::max_size(4), netser::range(-100, 100)),
    (ids, netser::max_size(5), netser::range(0, 999)),
    cargo,
    (target, netser::range(-5, 5)),
    (grid, netser::range(0, 3)),
    (cache, netser::skip),
    (after_check, netser::check("section"), netser::range(0, 1000)),
    packed,
    (angle, schema_ext::step256),
    weapons)

/// A base, and only_if naming the base's flag; a plain aggregate with attributes.
struct Entity {
    std::uint16_t id = 0;
    bool moving = false;
};
NETSER_STRUCT(Entity, (id, netser::range(0, 4095)), moving)

struct Mover : Entity {
    float vx = 0;
    Vec3 pos;
};
NETSER_DERIVED_STRUCT(Mover, (Entity),
    (vx, netser::quantize(-50.f, 50.f, 0.01f), netser::only_if(&Mover::moving)),
    (pos, netser::quantize(-100.f, 100.f, 0.5f)))

/// A recursive type.
struct Tree {
    std::uint8_t value = 0;
    std::vector<Tree> kids;
};
NETSER_STRUCT(Tree, (value, netser::range(0, 200)), (kids, netser::max_size(3)))

/// A recursive sparse vector: an empty one costs its count and the end index, whatever
/// its size (the tools' element budget, docs/schema.md section 7).
struct SNode {
    std::vector<std::optional<SNode>> kids;
};
NETSER_STRUCT(SNode, (kids, netser::sparse, netser::max_size(65535)))

/// Names are C++ identifiers, which may be UTF-8: the schema and the tools carry them so.
struct Maß {
    std::uint8_t größe = 0;
    bool ñ = false;
    std::optional<std::uint16_t> ключ;
};
NETSER_STRUCT(Maß, (größe, netser::range(0, 200)), ñ, (ключ, netser::range(0, 1000)))

namespace other {
/// Another struct described as "Cargo": the schema names it Cargo#2.
struct Cargo {
    std::int8_t weight = 0;
};
NETSER_STRUCT(Cargo, weight)
} // namespace other

struct Hold {
    Cargo mine;
    other::Cargo theirs;
    std::variant<Cargo, other::Cargo, std::uint16_t> either;
};
NETSER_STRUCT(Hold, mine, theirs, either)

/// The delta attributes where they reach: a ladder for an array's, a vector's and an
/// optional's elements, for every member of a struct with attributes of its own (inline),
/// for an enum; a struct sent whole; a ladder on a struct member without encoding
/// attributes, which changes nothing (its members keep their own).
struct Tuned {
    std::array<std::uint16_t, 12> grid{};
    std::vector<std::uint8_t> levels;
    std::optional<std::uint16_t> aim;
    Vec3 velocity;
    Cargo cargo;
    Cargo other;
    Weapon weapon = Weapon::none;
};
NETSER_STRUCT(Tuned,
    (grid, netser::range(0, 4000), netser::delta_ladder(2, 30)),
    (levels, netser::max_size(6), netser::range(0, 200), netser::delta_ladder(3)),
    (aim, netser::range(0, 60000), netser::delta_ladder(8, 300, 5000)),
    (velocity, netser::quantize(-10.f, 10.f, 0.01f), netser::delta_ladder(4, 64)),
    (cargo, netser::delta_whole),
    (other, netser::delta_ladder(5)),
    (weapon, netser::delta_ladder(1)))

/// Keyed deltas: entities in maps, an unordered map, a set of signed keys (their codes
/// order them: -1 is 0xFFFF), a vector keyed by id, a sparse array and a sparse vector.
struct Npc {
    std::uint32_t id = 0;
    std::uint8_t hp = 0;
    bool alive = true;
};
NETSER_STRUCT(Npc, (id, netser::range(0u, 100000u)), (hp, netser::range(0, 100)), alive)

struct Arena {
    std::map<std::uint16_t, Cargo> stores;
    std::unordered_map<std::uint16_t, std::int16_t> scores;
    std::set<std::int16_t> tags;
    std::vector<Npc> npcs;
    std::array<std::optional<Cargo>, 40> pads;
    std::vector<std::optional<std::uint8_t>> lanes;
};
NETSER_STRUCT(Arena,
    (stores, netser::max_size(8)),
    (scores, netser::max_size(8), netser::range(-100, 100)),
    (tags, netser::max_size(8)),
    (npcs, netser::max_size(20), netser::keyed(&Npc::id)),
    (pads, netser::sparse),
    (lanes, netser::sparse, netser::max_size(30), netser::range(0, 200)))

/// Keyed deltas over keys of every kind of code: a described enum's (value - smallest),
/// a bool's, a raw float's bits (-1.5 sorts after 2), a signed range's (value - min) in
/// an unordered set; and slots of bools (a slot whose value is false).
struct Registry {
    std::map<Weapon, std::uint8_t> ammo;
    std::set<bool> flags;
    std::map<float, std::uint8_t> marks;
    std::unordered_set<std::int32_t> near;
    std::array<std::optional<bool>, 6> lights;
};
NETSER_STRUCT(Registry,
    (ammo, netser::max_size(4), netser::range(0, 250)),
    (flags, netser::max_size(2)),
    (marks, netser::max_size(6), netser::range(0, 9)),
    (near, netser::max_size(5), netser::range(-50, 50)),
    (lights, netser::sparse))

} // namespace schema_types
