#pragma once

// The benchmark structs hand-written in the form of Glenn Fiedler's article
// "Serialization Strategies": every quantized float as
// serialize_quantized(s, v, min, max, resolution) with literal arguments, instead of a
// constexpr netser::quantization. Same members, bits and bytes as the hand-written
// structs of s94.hpp and reflected_types.hpp.

#include "reflected_types.hpp"

#include <netser/core.hpp>

#include <cstdint>
#include <optional>

namespace netser_bench {

struct S94Article {
    float x = 0.f, y = 0.f, z = 0.f;
    int health = 0;
    bool alive = false;
    std::uint32_t id = 0;
};

template <netser::stream S>
bool serialize(S& s, S94Article& v) noexcept {
    return netser::serialize_quantized(s, v.x, -1000.f, 1000.f, 0.01f) &&
           netser::serialize_quantized(s, v.y, -1000.f, 1000.f, 0.01f) &&
           netser::serialize_quantized(s, v.z, -1000.f, 1000.f, 0.01f) && netser::serialize_int(s, v.health, 0, 100) &&
           netser::serialize_bool(s, v.alive) && netser::serialize_bits(s, v.id, 32);
}

struct Player10Article {
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
bool serialize(S& s, Player10Article& p) noexcept {
    return netser::serialize_bits(s, p.id, 32) && netser::serialize_int(s, p.health, 0, 100) &&
           netser::serialize_quantized(s, p.x, -2000.f, 2000.f, 0.05f) &&
           netser::serialize_quantized(s, p.y, -2000.f, 2000.f, 0.05f) &&
           netser::serialize_quantized(s, p.z, -2000.f, 2000.f, 0.05f) &&
           netser::serialize_quantized(s, p.yaw, -3.1415927f, 3.1415927f, 0.001f) &&
           netser::serialize_bool(s, p.moving) && netser::serialize_bool(s, p.crouching) &&
           netser::serialize_int(s, p.weapon, 0, 7) && netser::serialize_bits(s, p.ammo, 10);
}

struct CubeArticle {
    bool interacting = false;
    Vec3 position;
    Vec3 linear_velocity;
    Quat orientation;
};

template <netser::stream S>
bool serialize(S& s, CubeArticle& c) noexcept {
    using netser::serialize_quantized;
    if (!netser::serialize_bool(s, c.interacting) || !serialize_quantized(s, c.position.x, -64.f, 64.f, 0.002f) ||
        !serialize_quantized(s, c.position.y, -64.f, 64.f, 0.002f) ||
        !serialize_quantized(s, c.position.z, 0.f, 32.f, 0.002f))
        return false;
    if (c.interacting && (!serialize_quantized(s, c.linear_velocity.x, -16.f, 16.f, 0.01f) ||
                          !serialize_quantized(s, c.linear_velocity.y, -16.f, 16.f, 0.01f) ||
                          !serialize_quantized(s, c.linear_velocity.z, -16.f, 16.f, 0.01f)))
        return false;
    return serialize_quantized(s, c.orientation.x, -1.f, 1.f, 0.004f) &&
           serialize_quantized(s, c.orientation.y, -1.f, 1.f, 0.004f) &&
           serialize_quantized(s, c.orientation.z, -1.f, 1.f, 0.004f) &&
           serialize_quantized(s, c.orientation.w, -1.f, 1.f, 0.004f);
}

struct MobArticle : Mob {}; // the same members, its own serialize

template <netser::stream S>
bool serialize(S& s, MobArticle& m) noexcept {
    return serialize_mob(
        s, m, [](S& st, float& v) { return netser::serialize_quantized(st, v, -500.f, 500.f, 0.01f); },
        [](S& st, float& v) { return netser::serialize_quantized(st, v, 0.f, 20.f, 0.01f); });
}

} // namespace netser_bench

namespace netser_bench {

// The article's form with arguments known only at run time (read from a configuration,
// say): quantization::make runs for every value, a division and a ceil each time...
struct quantize_limits {
    float min, max, resolution;
};
inline quantize_limits s94_position_limits = {-1000.f, 1000.f, 0.01f}; // not const: nothing folds

struct S94Runtime {
    float x = 0.f, y = 0.f, z = 0.f;
    int health = 0;
    bool alive = false;
    std::uint32_t id = 0;
};

template <netser::stream S>
bool serialize(S& s, S94Runtime& v) noexcept {
    const quantize_limits l = s94_position_limits;
    return netser::serialize_quantized(s, v.x, l.min, l.max, l.resolution) &&
           netser::serialize_quantized(s, v.y, l.min, l.max, l.resolution) &&
           netser::serialize_quantized(s, v.z, l.min, l.max, l.resolution) &&
           netser::serialize_int(s, v.health, 0, 100) && netser::serialize_bool(s, v.alive) &&
           netser::serialize_bits(s, v.id, 32);
}

// ... and the fast form for them: a quantization made once (at start-up, from the same
// configuration), passed to every call.
inline netser::quantization s94_position_quantization =
    netser::quantization::make(s94_position_limits.min, s94_position_limits.max, s94_position_limits.resolution);

struct S94Precomputed {
    float x = 0.f, y = 0.f, z = 0.f;
    int health = 0;
    bool alive = false;
    std::uint32_t id = 0;
};

template <netser::stream S>
bool serialize(S& s, S94Precomputed& v) noexcept {
    const netser::quantization& q = s94_position_quantization;
    return netser::serialize_quantized(s, v.x, q) && netser::serialize_quantized(s, v.y, q) &&
           netser::serialize_quantized(s, v.z, q) && netser::serialize_int(s, v.health, 0, 100) &&
           netser::serialize_bool(s, v.alive) && netser::serialize_bits(s, v.id, 32);
}

} // namespace netser_bench
