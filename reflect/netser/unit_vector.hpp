#pragma once

#include <netser/detail/attribute_hints.hpp>
#include <netser/detail/float_math.hpp>
#include <netser/quantization.hpp>
#include <netser/quaternion.hpp>
#include <netser/stream.hpp>
#include <netser/wire_layout.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

// Unit vectors (normals, directions): a struct with float members x, y, z or a
// std::array<float, 3>.

namespace netser {

namespace detail {

template <class V>
concept xyz_vector = requires(V& v) {
    requires std::is_same_v<std::remove_cvref_t<decltype(v.x)>, float>;
    requires std::is_same_v<std::remove_cvref_t<decltype(v.y)>, float>;
    requires std::is_same_v<std::remove_cvref_t<decltype(v.z)>, float>;
};

template <class V>
concept vector3_like = xyz_vector<V> || std::is_same_v<V, std::array<float, 3>>;

inline float sign_not_zero(float v) noexcept { return v < 0.f ? -1.f : 1.f; }

} // namespace detail

/// unit_vector(bits), bits in [2, 32]: octahedral encoding. The vector is divided by
/// |x| + |y| + |z|; the lower half (z < 0) is folded over the diagonals; u, v in [-1, 1]
/// are quantized in `bits` each (quantization::centered_bits: max_int = 2^bits - 2, so
/// the six axis directions read back exactly). The reader unfolds and normalises. The
/// error is nearly uniform over the sphere (docs/game_encodings.md gives the measured
/// bound). 2 * bits bits. A zero, infinite or NaN vector fails the write with
/// invalid_value; code 2^bits - 1 fails the read with out_of_range.
template <>
struct detail::unit_vector_attr<void> { // netser::unit_vector
    int bits;

    constexpr explicit unit_vector_attr(int bits_per_component) noexcept : bits(bits_per_component) {}

    constexpr quantization params() const noexcept { return quantization::centered_bits(1.f, bits); }
    constexpr std::size_t max_bits() const noexcept { return 2 * static_cast<std::size_t>(bits); }
    /// For the schema tools: the folded octahedral coordinates.
    constexpr auto wire() const noexcept { return netser::wire(wire_quantized("u", params()), wire_quantized("v", params())); }
    static constexpr std::string_view schema_tag() noexcept { return "unit_vector"; }

    template <stream S, detail::vector3_like V>
    bool serialize(S& s, V& vec) const noexcept {
        const std::size_t at = s.bits_processed();
        const quantization q = params();
        if (!q.valid) [[unlikely]] return s.fail(errc::invalid_value, at);
        float u = 0.f, v = 0.f;
        if constexpr (!S::is_reading) {
            float x = get(vec, 0), y = get(vec, 1), z = get(vec, 2);
            float l1 = detail::fp::abs(x) + detail::fp::abs(y) + detail::fp::abs(z);
            if (detail::fp::is_inf(l1) && detail::fp::is_finite(x) && detail::fp::is_finite(y) && detail::fp::is_finite(z)) {
                // Finite but huge: the sum overflowed. A power of two scales exactly.
                x *= 0.25f;
                y *= 0.25f;
                z *= 0.25f;
                l1 = detail::fp::abs(x) + detail::fp::abs(y) + detail::fp::abs(z);
            }
            if (!detail::fp::is_finite(l1) || !(l1 > 0.f)) [[unlikely]] return s.fail(errc::invalid_value, at);
            u = x / l1;
            v = y / l1;
            if (z < 0.f) {
                const float fu = (1.f - detail::fp::abs(v)) * detail::sign_not_zero(u);
                const float fv = (1.f - detail::fp::abs(u)) * detail::sign_not_zero(v);
                u = fu;
                v = fv;
            }
        }
        std::array<std::uint64_t, 2> codes{};
        if constexpr (!S::is_reading) codes = {detail::unit_code(q, u), detail::unit_code(q, v)};
        if (!detail::serialize_fields(s, codes, {q.bits, q.bits}, {q.max_int, q.max_int}, at)) return false;
        if constexpr (S::is_reading) {
            u = q.decode(static_cast<std::uint32_t>(codes[0]));
            v = q.decode(static_cast<std::uint32_t>(codes[1]));
            float z = 1.f - detail::fp::abs(u) - detail::fp::abs(v);
            if (z < 0.f) {
                const float fu = (1.f - detail::fp::abs(v)) * detail::sign_not_zero(u);
                const float fv = (1.f - detail::fp::abs(u)) * detail::sign_not_zero(v);
                u = fu;
                v = fv;
            }
            // Rounded like the writer's sums (no FMA): the same vector on every host.
            const float length =
                detail::fp::sqrt(detail::add_square(detail::add_square(detail::fp_barrier(u * u), v), z));
            set(vec, u / length, v / length, z / length);
        }
        return true;
    }

private:
    template <class V>
    static float get(const V& vec, int i) noexcept {
        if constexpr (detail::xyz_vector<V>) return i == 0 ? vec.x : (i == 1 ? vec.y : vec.z);
        else return vec[static_cast<std::size_t>(i)];
    }
    template <class V>
    static void set(V& vec, float x, float y, float z) noexcept {
        if constexpr (detail::xyz_vector<V>) {
            vec.x = x;
            vec.y = y;
            vec.z = z;
        } else {
            vec = {x, y, z};
        }
    }
};

} // namespace netser
