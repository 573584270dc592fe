#pragma once

// The reflected twins of the benchmark structs: the same members described with
// NETSER_STRUCT, so that reflection can be compared with hand-written code.

#include "s94.hpp"

#include <netser/netser.hpp>

#include <cstddef>
#include <cstdint>
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

} // namespace netser_bench
