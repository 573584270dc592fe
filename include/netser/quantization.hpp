#pragma once

#include <netser/bits_required.hpp>
#include <netser/detail/config.hpp>

#include <cfloat>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace netser {

namespace detail {

// Keeps the compiler from fusing a multiply and the following add into one FMA
// (one rounding instead of two would change codes on FMA hosts), and on x87 forces
// the value down to float32.
inline float fp_barrier(float x) noexcept {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE_MATH__)
#  if defined(__FMA__) || defined(__FMA4__)
    __asm__("" : "+x"(x));
#  endif
#elif defined(__GNUC__) && defined(__s390x__)
    __asm__("" : "+f"(x));
#elif defined(__GNUC__) && defined(__aarch64__)
    __asm__("" : "+w"(x));
#elif defined(__GNUC__)
    __asm__("" : "+m"(x));
#else
    volatile float spill = x;
    x = spill;
#endif
    return x;
}

// fp_barrier where it is allowed: a constant expression is evaluated in float32 anyway.
constexpr float to_f32(float x) noexcept {
    if (std::is_constant_evaluated()) return x;
    return fp_barrier(x);
}

// A float operation's result as float32 where the compiler may keep more precision
// (x87 arithmetic: FLT_EVAL_METHOD != 0). Elsewhere one float operation is already
// rounded to float32 and this is nothing, so that quantization::make with constant
// arguments folds to constants in the code that calls it (no FMA is possible in one
// subtraction or division).
constexpr float narrow_f32(float x) noexcept {
#if FLT_EVAL_METHOD != 0
    return to_f32(x);
#else
    return x;
#endif
}

// ceil for float32 that is usable at compile time (std::ceil is not constexpr in C++20).
constexpr float ceil_f32(float x) noexcept {
    if (!(x > -8388608.f && x < 8388608.f)) return x; // already integral, infinite or NaN
    const auto i = static_cast<std::int64_t>(x);
    const auto f = static_cast<float>(i);
    return f < x ? f + 1.f : f;
}

// No infinity or NaN arithmetic: a constant expression may not produce one.
constexpr bool is_finite_f32(float x) noexcept {
    return x >= -std::numeric_limits<float>::max() && x <= std::numeric_limits<float>::max(); // false for NaN
}

} // namespace detail

/// The parameters of a quantized float, computed once (at compile time when the
/// arguments are constants) from min, max and resolution, all in float32:
/// delta = max - min, max_int = ceil(delta / resolution), bits = bits_required(0, max_int).
struct quantization {
    float min = 0.f;
    float max = 0.f;
    float delta = 0.f;
    std::uint32_t max_int = 0;
    int bits = 0;
    bool valid = false; ///< false for NaN/infinite parameters, min >= max, resolution <= 0, or > 32 bits

    /// Inlined, so that constant arguments (serialize_quantized(s, v, -1.f, 1.f, 0.01f))
    /// fold to the constants a constexpr quantization holds.
    NETSER_INLINE static constexpr quantization make(float min, float max, float resolution) noexcept {
        quantization q;
        q.min = min;
        q.max = max;
        // Overflow is ruled out in double first: at compile time an infinite delta or
        // step count would be a hard error instead of valid == false.
        if (!detail::is_finite_f32(min) || !detail::is_finite_f32(max) || !(resolution > 0.f) ||
            !(double{max} - double{min} <= double{std::numeric_limits<float>::max()}))
            return q;
        q.delta = detail::narrow_f32(max - min);
        if (!(q.delta > 0.f) || !(double{q.delta} / double{resolution} <= double{std::numeric_limits<float>::max()}))
            return q;
        float steps = detail::ceil_f32(detail::narrow_f32(q.delta / resolution));
        if (steps < 1.f) steps = 1.f; // delta / resolution underflowed to 0: one step, not a 0/0 decode
        if (!(steps <= 4294967040.f)) return q; // largest float32 below 2^32: max_int fits 32 bits
        q.max_int = static_cast<std::uint32_t>(steps);
        q.bits = bits_required_for_span(q.max_int);
        q.valid = true;
        return q;
    }

    /// [-bound, bound] in exactly `bits` bits (2..32) for unit components (rotations,
    /// directions), with an even max_int = 2^bits - 2 so that a value at rest reads back
    /// exactly: the middle code max_int / 2 decodes to 0 (code / max_int is 0.5, times
    /// delta = 2 bound is bound, plus min = -bound is 0, each step exact in float32), and
    /// codes 0 and max_int to -bound and +bound. Code 2^bits - 1 is unused (a read of it
    /// fails with out_of_range). Not valid for bits outside [2, 32], or a bound that is not
    /// positive or above half the largest float (2 bound must be finite).
    static constexpr quantization centered_bits(float bound, int bits) noexcept {
        quantization q;
        q.min = -bound;
        q.max = bound;
        if (!(bound > 0.f) || !(bound <= std::numeric_limits<float>::max() / 2) || bits < 2 || bits > 32) return q;
        q.delta = 2.f * bound; // exact: a power-of-two scaling that does not overflow
        q.max_int = static_cast<std::uint32_t>((std::uint64_t{1} << bits) - 2);
        q.bits = bits;
        q.valid = true;
        return q;
    }

    /// The code of v (not NaN): clamped to [min, max], then rounded to the nearest step.
    std::uint32_t encode(float v) const noexcept {
        // Every step is rounded to float32 (fp_barrier: no FMA, no x87 excess precision).
        float n = detail::fp_barrier(v - min);
        n = detail::fp_barrier(n / delta);
        n = n < 0.f ? 0.f : (n > 1.f ? 1.f : n);
        const float steps = detail::fp_barrier(static_cast<float>(max_int));
        const float scaled = detail::fp_barrier(n * steps);
        const float rounded = detail::fp_barrier(scaled + 0.5f);
        // floor(x) is truncation for x >= 0; max_int may not be exact in float32, so cap it.
        if (rounded >= steps) return max_int;
        return static_cast<std::uint32_t>(rounded);
    }

    /// The value of a code in [0, max_int].
    float decode(std::uint32_t code) const noexcept {
        const float steps = detail::fp_barrier(static_cast<float>(max_int));
        float n = detail::fp_barrier(detail::fp_barrier(static_cast<float>(code)) / steps);
        n = detail::fp_barrier(n * delta);
        return detail::fp_barrier(n + min);
    }

    /// Worst-case distance between a value in [min, max] and its decoded code.
    constexpr float max_error() const noexcept { return delta / static_cast<float>(max_int) / 2.f; }
};

} // namespace netser
