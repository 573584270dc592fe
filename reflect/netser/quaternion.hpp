#pragma once

#include <netser/bits_required.hpp>
#include <netser/primitives.hpp>
#include <netser/quantization.hpp>
#include <netser/stream.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

// Rotations. A quaternion member is a struct with float members x, y, z, w or a
// std::array<float, 4> (x, y, z, w). q and -q are the same rotation, which both
// encodings use to drop a sign.

namespace netser {

namespace detail {

template <class Q>
concept xyzw_quaternion = requires(Q& q) {
    requires std::is_same_v<std::remove_cvref_t<decltype(q.x)>, float>;
    requires std::is_same_v<std::remove_cvref_t<decltype(q.y)>, float>;
    requires std::is_same_v<std::remove_cvref_t<decltype(q.z)>, float>;
    requires std::is_same_v<std::remove_cvref_t<decltype(q.w)>, float>;
};

template <class Q>
concept quaternion_like = xyzw_quaternion<Q> || std::is_same_v<Q, std::array<float, 4>>;

template <class Q>
std::array<float, 4> to_xyzw(const Q& q) noexcept {
    if constexpr (xyzw_quaternion<Q>) return {q.x, q.y, q.z, q.w};
    else return q;
}

template <class Q>
void from_xyzw(Q& q, const std::array<float, 4>& c) noexcept {
    if constexpr (xyzw_quaternion<Q>) {
        q.x = c[0];
        q.y = c[1];
        q.z = c[2];
        q.w = c[3];
    } else {
        q = c;
    }
}

inline bool all_finite(const std::array<float, 4>& c) noexcept {
    for (float v : c)
        if (!std::isfinite(v)) return false;
    return true;
}

// A quantized value (v in [q.min, q.max], clamped) through the stream.
template <stream S>
bool serialize_unit_component(S& s, float& v, const quantization& q) noexcept {
    std::uint64_t code = S::is_reading ? 0 : q.encode(v);
    if (!s.process_bits(code, q.bits)) return false;
    if constexpr (S::is_reading) v = q.decode(static_cast<std::uint32_t>(code));
    return true;
}

// The rebuilt component sqrt(1 - sum) with sum the other three's squares. A sum above
// 1 comes only from rounding (book form, w near 0) or a forged packet: the three are
// scaled back to unit length and the rebuilt one is 0, so a read is always a unit quaternion.
inline void rebuild_largest(std::array<float, 4>& c, std::size_t largest, float sum) noexcept {
    if (sum <= 1.f) {
        c[largest] = std::sqrt(1.f - sum);
        return;
    }
    const float scale = 1.f / std::sqrt(sum);
    for (float& v : c) v *= scale;
    c[largest] = 0.f;
}

} // namespace detail

/// smallest_three(bits): 2 bits for the index of the largest |component|, then the
/// other three (in x, y, z, w order) quantized to [-1/sqrt(2), +1/sqrt(2)] in `bits`
/// each (max_int = 2^bits - 1), the sign of the whole chosen so the largest is
/// positive. The reader rebuilds it as sqrt(1 - the others' squares). 2 + 3 * bits bits.
/// A non-finite component fails the write with invalid_value; every code reads (as a
/// unit quaternion). docs/game_encodings.md gives the measured error.
struct smallest_three {
    int bits;

    constexpr explicit smallest_three(int bits_per_component) noexcept : bits(bits_per_component) {}

    static constexpr float bound = 0.70710678f;
    constexpr quantization params() const noexcept { return quantization::with_bits(-bound, bound, bits); }
    constexpr std::size_t max_bits() const noexcept { return 2 + 3 * static_cast<std::size_t>(bits); }
    static constexpr std::string_view schema_tag() noexcept { return "smallest_three"; }

    template <stream S, detail::quaternion_like Q>
    bool serialize(S& s, Q& quat) const noexcept {
        const std::size_t at = s.bits_processed();
        const quantization q = params();
        if (!q.valid) [[unlikely]] return s.fail(errc::invalid_value, at);
        std::array<float, 4> c{}; // a read never looks at the target's old value
        if constexpr (!S::is_reading) c = detail::to_xyzw(quat);
        std::uint64_t largest = 0;
        if constexpr (!S::is_reading) {
            if (!detail::all_finite(c)) [[unlikely]] return s.fail(errc::invalid_value, at);
            for (std::size_t i = 1; i < 4; ++i)
                if (std::fabs(c[i]) > std::fabs(c[static_cast<std::size_t>(largest)])) largest = i;
            if (c[static_cast<std::size_t>(largest)] < 0.f)
                for (float& v : c) v = -v;
        }
        if (!s.process_bits(largest, 2)) return false;
        float sum = 0.f;
        for (std::size_t i = 0; i < 4; ++i) {
            if (i == largest) continue;
            if (!detail::serialize_unit_component(s, c[i], q)) return detail::failed_from(s, at);
            sum += c[i] * c[i];
        }
        if constexpr (S::is_reading) {
            detail::rebuild_largest(c, static_cast<std::size_t>(largest), sum);
            detail::from_xyzw(quat, c);
        }
        return true;
    }
};

/// unit_quaternion(bits), the book's form: x, y, z quantized to [-1, 1] in `bits`
/// each (max_int = 2^bits - 1), then 1 bit: w is negative. The reader rebuilds
/// |w| = sqrt(1 - x^2 - y^2 - z^2) (0, with x, y, z rescaled, when that is negative).
/// 3 * bits + 1 bits. A non-finite component fails the write with invalid_value.
struct unit_quaternion {
    int bits;

    constexpr explicit unit_quaternion(int bits_per_component) noexcept : bits(bits_per_component) {}

    constexpr quantization params() const noexcept { return quantization::with_bits(-1.f, 1.f, bits); }
    constexpr std::size_t max_bits() const noexcept { return 3 * static_cast<std::size_t>(bits) + 1; }
    static constexpr std::string_view schema_tag() noexcept { return "unit_quaternion"; }

    template <stream S, detail::quaternion_like Q>
    bool serialize(S& s, Q& quat) const noexcept {
        const std::size_t at = s.bits_processed();
        const quantization q = params();
        if (!q.valid) [[unlikely]] return s.fail(errc::invalid_value, at);
        std::array<float, 4> c{}; // a read never looks at the target's old value
        if constexpr (!S::is_reading) c = detail::to_xyzw(quat);
        if constexpr (!S::is_reading)
            if (!detail::all_finite(c)) [[unlikely]] return s.fail(errc::invalid_value, at);
        float sum = 0.f;
        for (std::size_t i = 0; i < 3; ++i) {
            if (!detail::serialize_unit_component(s, c[i], q)) return detail::failed_from(s, at);
            sum += c[i] * c[i];
        }
        bool negative_w = std::signbit(c[3]); // -0 too: a rebuilt w of 0 keeps its sign on a re-write
        if (!serialize_bool(s, negative_w)) return detail::failed_from(s, at);
        if constexpr (S::is_reading) {
            detail::rebuild_largest(c, 3, sum);
            if (negative_w) c[3] = -c[3];
            detail::from_xyzw(quat, c);
        }
        return true;
    }
};

} // namespace netser
