#pragma once

// The reflected twins of the benchmark structs: the same members described with
// NETSER_STRUCT, so that reflection can be compared with hand-written code.

#include "s94.hpp"

#include <netser/netser.hpp>

#include <boost/describe/enum.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace netser_bench {

struct S94R {
    float x = 0.f, y = 0.f, z = 0.f;
    int health = 0;
    bool alive = false;
    std::uint32_t id = 0;
};
NETSER_STRUCT(S94R,
    (x, netser::quantize(-1000.f, 1000.f, 0.01f)),
    (y, netser::quantize(-1000.f, 1000.f, 0.01f)),
    (z, netser::quantize(-1000.f, 1000.f, 0.01f)),
    (health, netser::range(0, 100)),
    alive,
    id)
static_assert(netser::max_bits<S94R>() == 94);

// A 10-member player state, hand-written...
struct Player10 {
    static constexpr netser::quantization position = netser::quantization::make(-2000.f, 2000.f, 0.05f);
    static constexpr netser::quantization angle = netser::quantization::make(-3.1415927f, 3.1415927f, 0.001f);
    std::uint32_t id = 0;
    int health = 0;
    float x = 0.f, y = 0.f, z = 0.f;
    float yaw = 0.f;
    bool moving = false;
    bool crouching = false;
    std::uint8_t weapon = 0;
    std::uint16_t ammo = 0;
};

template <netser::stream S>
bool serialize(S& s, Player10& p) noexcept {
    return netser::serialize_bits(s, p.id, 32) && netser::serialize_int(s, p.health, 0, 100) &&
           netser::serialize_quantized(s, p.x, Player10::position) &&
           netser::serialize_quantized(s, p.y, Player10::position) &&
           netser::serialize_quantized(s, p.z, Player10::position) &&
           netser::serialize_quantized(s, p.yaw, Player10::angle) && netser::serialize_bool(s, p.moving) &&
           netser::serialize_bool(s, p.crouching) && netser::serialize_int(s, p.weapon, 0, 7) &&
           netser::serialize_bits(s, p.ammo, 10);
}

// ... and reflected.
struct Player10R {
    std::uint32_t id = 0;
    int health = 0;
    float x = 0.f, y = 0.f, z = 0.f;
    float yaw = 0.f;
    bool moving = false;
    bool crouching = false;
    std::uint8_t weapon = 0;
    std::uint16_t ammo = 0;
};
NETSER_STRUCT(Player10R,
    id,
    (health, netser::range(0, 100)),
    (x, netser::quantize(-2000.f, 2000.f, 0.05f)),
    (y, netser::quantize(-2000.f, 2000.f, 0.05f)),
    (z, netser::quantize(-2000.f, 2000.f, 0.05f)),
    (yaw, netser::quantize(-3.1415927f, 3.1415927f, 0.001f)),
    moving,
    crouching,
    (weapon, netser::range(0, 7)),
    (ammo, netser::bits(10)))

// A cube of the snapshot demo, with every orientation component quantized on its own
// (not smallest_three): a flag, a position, a velocity sent only while interacting and
// an orientation. Hand-written with constexpr quantizations (the fastest hand-written
// form)...
struct Vec3 {
    float x = 0.f, y = 0.f, z = 0.f;
};
struct Quat {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};
struct Cube {
    static constexpr netser::quantization position_xy = netser::quantization::make(-64.f, 64.f, 0.002f); // 16 bits
    static constexpr netser::quantization position_z = netser::quantization::make(0.f, 32.f, 0.002f);    // 14 bits
    static constexpr netser::quantization velocity = netser::quantization::make(-16.f, 16.f, 0.01f);     // 12 bits
    static constexpr netser::quantization component = netser::quantization::make(-1.f, 1.f, 0.004f);     // 9 bits
    bool interacting = false;
    Vec3 position;
    Vec3 linear_velocity; // zero when not interacting
    Quat orientation;
};
static_assert(Cube::position_xy.bits == 16 && Cube::position_z.bits == 14 && Cube::velocity.bits == 12 &&
              Cube::component.bits == 9);

template <netser::stream S>
bool serialize(S& s, Cube& c) noexcept {
    using netser::serialize_quantized;
    if (!netser::serialize_bool(s, c.interacting) || !serialize_quantized(s, c.position.x, Cube::position_xy) ||
        !serialize_quantized(s, c.position.y, Cube::position_xy) ||
        !serialize_quantized(s, c.position.z, Cube::position_z))
        return false;
    if (c.interacting &&
        (!serialize_quantized(s, c.linear_velocity.x, Cube::velocity) ||
         !serialize_quantized(s, c.linear_velocity.y, Cube::velocity) ||
         !serialize_quantized(s, c.linear_velocity.z, Cube::velocity)))
        return false;
    return serialize_quantized(s, c.orientation.x, Cube::component) &&
           serialize_quantized(s, c.orientation.y, Cube::component) &&
           serialize_quantized(s, c.orientation.z, Cube::component) &&
           serialize_quantized(s, c.orientation.w, Cube::component);
}

// ... and reflected: nested structs, attributes per component, only_if.
struct PositionR {
    float x = 0.f, y = 0.f, z = 0.f;
};
NETSER_STRUCT(PositionR, (x, netser::quantize(-64.f, 64.f, 0.002f)), (y, netser::quantize(-64.f, 64.f, 0.002f)),
              (z, netser::quantize(0.f, 32.f, 0.002f)))
struct Vec3R {
    float x = 0.f, y = 0.f, z = 0.f;
};
NETSER_STRUCT(Vec3R, x, y, z)
struct QuatR {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};
NETSER_STRUCT(QuatR, x, y, z, w)
struct CubeR {
    bool interacting = false;
    PositionR position;
    Vec3R linear_velocity;
    QuatR orientation;
};
NETSER_STRUCT(CubeR,
    interacting,
    position,
    (linear_velocity, netser::quantize(-16.f, 16.f, 0.01f), netser::only_if(&CubeR::interacting)),
    (orientation, netser::quantize(-1.f, 1.f, 0.004f)))
static_assert(netser::max_bits<CubeR>() == 1 + 16 + 16 + 14 + 3 * 12 + 4 * 9);

// A vector of structs: 64 cubes in one message, hand-written and reflected.
inline constexpr std::size_t cubes_per_snapshot = 64;
struct Cubes {
    std::vector<Cube> cubes;
};
template <netser::stream S>
bool serialize(S& s, Cubes& c) noexcept {
    std::uint32_t count = static_cast<std::uint32_t>(c.cubes.size());
    if (!netser::serialize_int(s, count, 0u, 64u)) return false;
    if constexpr (S::is_reading) { // every cube starts from its default, as a reflected read does
        c.cubes.clear();
        c.cubes.resize(count);
    }
    for (Cube& cube : c.cubes)
        if (!serialize(s, cube)) return false;
    return true;
}
struct CubesR {
    std::vector<CubeR> cubes;
};
NETSER_STRUCT(CubesR, (cubes, netser::max_size(64)))

// A monster of a snapshot with common values (the article's "special case the common
// values"), a described enum and an optional: a health that is mostly full, a speed that
// is mostly zero, armor that is mostly one of four tiers. Hand-written as a game
// programmer writes it, with constexpr quantizations and a helper for common values...
enum class Stance : std::uint8_t { idle, walk, run, jump, fall };
BOOST_DESCRIBE_ENUM(Stance, idle, walk, run, jump, fall)

struct Mob {
    static constexpr netser::quantization position = netser::quantization::make(-500.f, 500.f, 0.01f); // 17 bits
    static constexpr netser::quantization speed_q = netser::quantization::make(0.f, 20.f, 0.01f);       // 11 bits
    std::uint16_t id = 0;
    int health = 100;
    float x = 0.f, y = 0.f;
    float speed = 0.f;
    Stance stance = Stance::idle;
    int armor = 0;
    std::optional<std::uint8_t> target;
    bool alive = true;
};
inline constexpr int full_health[] = {100};
inline constexpr float standing[] = {0.f};
inline constexpr int armor_tiers[] = {0, 50, 100, 200};
static_assert(Mob::position.bits == 17 && Mob::speed_q.bits == 11);

// A flag; set, the index among the values (no bits for one value); clear, plain(s, v).
template <netser::stream S, class T, std::size_t K, class Plain>
bool serialize_common(S& s, T& v, const T (&values)[K], Plain plain) noexcept {
    constexpr auto count = static_cast<std::uint32_t>(K);
    std::uint32_t index = count;
    if constexpr (!S::is_reading)
        for (std::uint32_t i = 0; i < count; ++i)
            if (v == values[i]) {
                index = i;
                break;
            }
    bool common = index < count;
    if (!netser::serialize_bool(s, common)) return false;
    if (!common) return plain(s, v);
    if constexpr (S::is_reading) index = 0; // the value when there is only one
    if constexpr (count > 1)
        if (!netser::serialize_int(s, index, 0u, count - 1)) return false;
    if constexpr (S::is_reading) v = values[index];
    return true;
}

// Both hand-written forms of a mob (constexpr quantizations here, the article's literal
// arguments in article_forms.hpp): `position` and `speed` quantize those floats.
template <netser::stream S, class M, class Position, class Speed>
bool serialize_mob(S& s, M& m, Position position, Speed speed) noexcept {
    int stance = static_cast<int>(m.stance);
    bool has_target = m.target.has_value();
    if (!netser::serialize_bits(s, m.id, 12) ||
        !serialize_common(s, m.health, full_health, [](S& st, int& v) { return netser::serialize_int(st, v, 0, 100); }) ||
        !position(s, m.x) || !position(s, m.y) || !serialize_common(s, m.speed, standing, speed) ||
        !netser::serialize_int(s, stance, 0, 4) ||
        !serialize_common(s, m.armor, armor_tiers, [](S& st, int& v) { return netser::serialize_int(st, v, 0, 200); }) ||
        !netser::serialize_bool(s, has_target))
        return false;
    if constexpr (S::is_reading) {
        m.stance = static_cast<Stance>(stance);
        if (has_target) m.target.emplace();
        else m.target.reset();
    }
    return (!has_target || netser::serialize_int(s, *m.target, 0, 63)) && netser::serialize_bool(s, m.alive);
}

template <netser::stream S>
bool serialize(S& s, Mob& m) noexcept {
    return serialize_mob(
        s, m, [](S& st, float& v) { return netser::serialize_quantized(st, v, Mob::position); },
        [](S& st, float& v) { return netser::serialize_quantized(st, v, Mob::speed_q); });
}

// ... and reflected.
struct MobR {
    std::uint16_t id = 0;
    int health = 100;
    float x = 0.f, y = 0.f;
    float speed = 0.f;
    Stance stance = Stance::idle;
    int armor = 0;
    std::optional<std::uint8_t> target;
    bool alive = true;
};
NETSER_STRUCT(MobR,
    (id, netser::bits(12)),
    (health, netser::range(0, 100), netser::common(100)),
    (x, netser::quantize(-500.f, 500.f, 0.01f)),
    (y, netser::quantize(-500.f, 500.f, 0.01f)),
    (speed, netser::quantize(0.f, 20.f, 0.01f), netser::common(0.f)),
    stance,
    (armor, netser::range(0, 200), netser::common(0, 50, 100, 200)),
    (target, netser::range(0, 63)),
    alive)
static_assert(netser::max_bits<MobR>() == 12 + 1 + 7 + 2 * 17 + 1 + 11 + 3 + 1 + 8 + 1 + 6 + 1);

} // namespace netser_bench
