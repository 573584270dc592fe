#pragma once

// The reflected twins of the benchmark structs: the same members described with
// NETSER_STRUCT, so that reflection can be compared with hand-written code.

#include "s94.hpp"

#include <netser/netser.hpp>

#include <cstdint>

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

} // namespace netser_bench
