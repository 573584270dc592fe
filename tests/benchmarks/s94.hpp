#pragma once

// The S94 benchmark case: a struct that packs into 94 bits, with a hand-written
// unified serialize function. A reflected version can live beside it.

#include <netser/core.hpp>

#include <cstdint>

namespace netser_bench {

struct S94 {
    /// [-1000, 1000] at 0.01: 200000 steps, 18 bits; computed at compile time.
    static constexpr netser::quantization position_quantization = netser::quantization::make(-1000.f, 1000.f, 0.01f);

    float x = 0.f, y = 0.f, z = 0.f; // quantized, 18 bits each
    int health = 0;                  // [0, 100], 7 bits
    bool alive = false;              // 1 bit
    std::uint32_t id = 0;            // 32 bits

    bool operator==(const S94&) const = default;
};

static_assert(S94::position_quantization.valid && S94::position_quantization.bits == 18);
inline constexpr int s94_bits = 3 * 18 + 7 + 1 + 32;
static_assert(s94_bits == 94);

template <netser::stream S>
bool serialize(S& s, S94& v) noexcept {
    constexpr const netser::quantization& q = S94::position_quantization;
    return netser::serialize_quantized(s, v.x, q) && netser::serialize_quantized(s, v.y, q) &&
           netser::serialize_quantized(s, v.z, q) && netser::serialize_int(s, v.health, 0, 100) &&
           netser::serialize_bool(s, v.alive) && netser::serialize_bits(s, v.id, 32);
}

} // namespace netser_bench
