#pragma once

#include <netser/bits_required.hpp>
#include <netser/detail/attribute_hints.hpp>
#include <netser/difference_ladder.hpp>
#include <netser/detail/float_math.hpp>
#include <netser/primitives.hpp>
#include <netser/quantization.hpp>
#include <netser/stream.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
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
        if (!fp::is_finite(v)) return false;
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
        c[largest] = fp::sqrt(1.f - sum);
        return;
    }
    const float scale = 1.f / fp::sqrt(sum);
    for (float& v : c) v *= scale;
    c[largest] = 0.f;
}

// sum + v * v rounded twice to float32 (no FMA, no x87 excess precision): the writer's
// fixed-point check below must compute exactly what the reader computes.
inline float add_square(float sum, float v) noexcept { return fp_barrier(sum + fp_barrier(v * v)); }

// Moves a code towards the middle of [0, max_int] (its value towards 0), to the nearest
// code that reads as another float (above 23 bits many codes read as one float), then to
// the code that float encodes to when that is nearer still. False for the two middle
// codes (max_int = 2^bits - 1 is odd: no code reads as 0).
inline bool step_towards_zero(std::uint32_t& code, const quantization& q) noexcept {
    const std::uint32_t upper = q.max_int / 2 + 1, lower = upper - 1;
    const bool high = code >= upper;
    const std::uint32_t from_middle = high ? code - upper : lower - code;
    if (from_middle == 0) return false;
    const float v = q.decode(code);
    std::uint32_t next = high ? upper : lower;
    for (std::uint32_t step = 1; step < from_middle; step *= 2) {
        const std::uint32_t c = high ? code - step : code + step;
        if (q.decode(c) != v) {
            next = c;
            break;
        }
    }
    const std::uint32_t back = q.encode(q.decode(next));
    if (high ? back >= upper && back < next : back <= lower && back > next) next = back;
    code = next;
    return true;
}

inline bool is_middle_code(std::uint32_t code, const quantization& q) noexcept {
    return code == q.max_int / 2 || code == q.max_int / 2 + 1;
}

// The writer's choices below must be the same on every host, so their sums of squares
// in double use std::fma explicitly (one rounding each, whether or not the compiler
// would have contracted a * b + c).

// The squared distance between the rotations a and b (both near unit length): |a - b| or
// |a + b|, whichever is smaller (q and -q are one rotation).
inline double rotation_distance(const std::array<float, 4>& a, const std::array<float, 4>& b) noexcept {
    double minus = 0, plus = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        const double m = double{a[i]} - double{b[i]}, p = double{a[i]} + double{b[i]};
        minus = fp::fma(m, m, minus);
        plus = fp::fma(p, p, plus);
    }
    return minus < plus ? minus : plus;
}

// The direction of c (finite) in float; false when c is 0.
inline bool normalized(const std::array<float, 4>& c, std::array<float, 4>& u) noexcept {
    double n = 0;
    for (float v : c) n = fp::fma(double{v}, double{v}, n);
    if (!(n > 0)) return false;
    n = fp::sqrt(n);
    for (std::size_t i = 0; i < 4; ++i) u[i] = static_cast<float>(double{c[i]} / n);
    return true;
}

// The wire fields of smallest_three: the index of the rebuilt component and the codes
// of the other three, in x, y, z, w order.
struct smallest_three_fields {
    std::uint32_t largest = 0;
    std::array<std::uint32_t, 3> codes{};
    bool operator==(const smallest_three_fields&) const = default;
};

// The index of the largest |component|, the first one on a tie.
inline std::uint32_t index_of_largest(const std::array<float, 4>& c) noexcept {
    std::size_t largest = 0;
    for (std::size_t i = 1; i < 4; ++i)
        if (fp::abs(c[i]) > fp::abs(c[largest])) largest = i;
    return static_cast<std::uint32_t>(largest);
}

// What the reader makes of the fields.
inline std::array<float, 4> smallest_three_decode(const smallest_three_fields& f, const quantization& q) noexcept {
    std::array<float, 4> c{};
    float sum = 0.f;
    for (std::size_t i = 0, k = 0; i < 4; ++i) {
        if (i == f.largest) continue;
        c[i] = q.decode(f.codes[k++]);
        sum = add_square(sum, c[i]);
    }
    rebuild_largest(c, f.largest, sum);
    return c;
}

// Component `largest` rebuilt: the whole negated when its sign bit is set (q and -q are
// one rotation, and give the same fields), the other three at their nearest codes.
inline smallest_three_fields smallest_three_encode(std::array<float, 4> c, std::uint32_t largest,
                                                   const quantization& q) noexcept {
    if (fp::sign_bit(c[largest]))
        for (float& v : c) v = -v;
    smallest_three_fields f;
    f.largest = largest;
    for (std::size_t i = 0, k = 0; i < 4; ++i)
        if (i != largest) f.codes[k++] = q.encode(c[i]);
    return f;
}

// The plain encoding: the largest |component| rebuilt.
inline smallest_three_fields smallest_three_plain(const std::array<float, 4>& c, const quantization& q) noexcept {
    return smallest_three_encode(c, index_of_largest(c), q);
}

// A fixed point: the rotation it reads as has these fields as its plain encoding.
inline bool smallest_three_stable(const smallest_three_fields& f, const quantization& q) noexcept {
    return smallest_three_plain(smallest_three_decode(f, q), q) == f;
}

// The candidate fields whose rotation reads closest to `target`, among those offered.
template <class Fields>
struct closest_candidate {
    const std::array<float, 4>& target;
    Fields best{};
    double best_distance = -1;

    void consider(const Fields& f, const std::array<float, 4>& reads_as) noexcept {
        const double distance = rotation_distance(target, reads_as);
        if (best_distance < 0 || distance < best_distance) {
            best = f;
            best_distance = distance;
        }
    }
    bool found() const noexcept { return best_distance >= 0; }
};

// The plain encoding of c is no fixed point: a near tie (the rebuilt component reads back
// below, or level with, one that is sent) or, above 22 bits, a code its own value does
// not encode to. For each index, starting from the nearest codes of c's direction, move
// the code that is in the way (the largest sent value, or the code that does not come
// back) towards 0 until the fields are a fixed point; keep the one that reads closest to
// c. Every move brings a code nearer the middle, so each search ends; the one kept takes
// at most 6 moves in the tests (32 allowed).
inline smallest_three_fields smallest_three_search(const std::array<float, 4>& c, const smallest_three_fields& plain,
                                                   const quantization& q) noexcept {
    std::array<float, 4> u{};
    if (!normalized(c, u)) return plain;
    // An index whose |component| is more than two steps (or a few float ulps) below the
    // largest cannot win: skip it.
    const float largest = fp::abs(u[index_of_largest(u)]);
    const float step = fp_barrier(q.delta / fp_barrier(static_cast<float>(q.max_int)));
    const float reach = fp_barrier(2.f * step) + 16.f * std::numeric_limits<float>::epsilon();
    closest_candidate<smallest_three_fields> closest{u};
    for (std::uint32_t j = 0; j < 4; ++j) {
        if (fp::abs(u[j]) < largest - reach) continue;
        smallest_three_fields f = smallest_three_encode(u, j, q);
        for (int move = 0; move < 32; ++move) {
            const std::array<float, 4> d = smallest_three_decode(f, q);
            const smallest_three_fields p = smallest_three_plain(d, q);
            if (p == f) {
                closest.consider(f, d);
                break;
            }
            std::size_t which = 3;
            if (p.largest == f.largest) { // a code that does not come back
                for (std::size_t k = 0; k < 3 && which == 3; ++k)
                    if (p.codes[k] != f.codes[k]) which = k;
            } else { // the largest sent value that can still shrink
                float biggest = -1.f;
                for (std::size_t i = 0, k = 0; i < 4; ++i) {
                    if (i == j) continue;
                    if (fp::abs(d[i]) > biggest && !is_middle_code(f.codes[k], q)) {
                        biggest = fp::abs(d[i]);
                        which = k;
                    }
                    ++k;
                }
            }
            if (which == 3 || !step_towards_zero(f.codes[which], q)) break;
        }
    }
    if (closest.found()) return closest.best;
    // Not reached for any input in the tests. The largest component rebuilt from three
    // codes of 0 is a fixed point from 2 bits up (tested), so the promise holds anyway.
    // At 1 bit no fields are a fixed point: the plain ones are sent.
    smallest_three_fields f;
    f.largest = index_of_largest(u);
    f.codes = {q.encode(0.f), q.encode(0.f), q.encode(0.f)};
    return smallest_three_stable(f, q) ? f : plain;
}

// What the writer sends: the plain encoding when it is a fixed point (always, but near
// ties), else the search's. Either way the fields are a fixed point, so the rotation
// they read as writes back to them: encode(decode(encode(c))) == encode(c).
inline smallest_three_fields smallest_three_write(const std::array<float, 4>& c, const quantization& q) noexcept {
    const smallest_three_fields plain = smallest_three_plain(c, q);
    if (smallest_three_stable(plain, q)) [[likely]] return plain;
    return smallest_three_search(c, plain, q);
}

// The wire fields of unit_quaternion: the codes of x, y, z and w's sign.
struct unit_quaternion_fields {
    std::array<std::uint32_t, 3> codes{};
    bool negative_w = false;
    bool operator==(const unit_quaternion_fields&) const = default;
};

inline std::array<float, 4> unit_quaternion_decode(const unit_quaternion_fields& f, const quantization& q) noexcept {
    std::array<float, 4> c{};
    float sum = 0.f;
    for (std::size_t i = 0; i < 3; ++i) {
        c[i] = q.decode(f.codes[i]);
        sum = add_square(sum, c[i]);
    }
    rebuild_largest(c, 3, sum);
    if (f.negative_w) c[3] = -c[3];
    return c;
}

inline unit_quaternion_fields unit_quaternion_plain(const std::array<float, 4>& c, const quantization& q) noexcept {
    unit_quaternion_fields f;
    for (std::size_t i = 0; i < 3; ++i) f.codes[i] = q.encode(c[i]);
    f.negative_w = fp::sign_bit(c[3]); // -0 too: a rebuilt w of 0 keeps its sign on a re-write
    return f;
}

inline bool unit_quaternion_stable(const unit_quaternion_fields& f, const quantization& q) noexcept {
    return unit_quaternion_plain(unit_quaternion_decode(f, q), q) == f;
}

// The plain encoding is no fixed point when x, y, z's squares sum above 1 (w near 0):
// the reader rescales them, and the rescaled values may have other codes. Candidates:
// the plain encoding of what it reads as, repeated while that is no fixed point (the
// rescaled values stay close to c); and the nearest codes of c's direction with the
// largest value whose code does not come back moved towards 0 until the fields are a
// fixed point (once the sum is at most 1, they are). The one that reads closest to c wins.
inline unit_quaternion_fields unit_quaternion_search(const std::array<float, 4>& c, const unit_quaternion_fields& plain,
                                                     const quantization& q) noexcept {
    std::array<float, 4> u{};
    if (!normalized(c, u)) return plain;
    closest_candidate<unit_quaternion_fields> closest{u};
    unit_quaternion_fields f = plain;
    for (int round = 0; round < 4; ++round) {
        f = unit_quaternion_plain(unit_quaternion_decode(f, q), q);
        const std::array<float, 4> d = unit_quaternion_decode(f, q);
        if (unit_quaternion_plain(d, q) == f) {
            closest.consider(f, d);
            break;
        }
    }
    f = unit_quaternion_plain(u, q);
    for (int move = 0; move < 32; ++move) {
        const std::array<float, 4> d = unit_quaternion_decode(f, q);
        const unit_quaternion_fields p = unit_quaternion_plain(d, q);
        if (p == f) {
            closest.consider(f, d);
            break;
        }
        std::size_t which = 3; // the largest value whose code does not come back
        float biggest = -1.f;
        for (std::size_t k = 0; k < 3; ++k) {
            if (p.codes[k] != f.codes[k] && fp::abs(d[k]) > biggest && !is_middle_code(f.codes[k], q)) {
                biggest = fp::abs(d[k]);
                which = k;
            }
        }
        if (which == 3 || !step_towards_zero(f.codes[which], q)) break;
    }
    if (closest.found()) return closest.best;
    // Not reached for any input in the tests; x, y, z at the code of 0 are a fixed point (tested).
    unit_quaternion_fields m;
    m.codes = {q.encode(0.f), q.encode(0.f), q.encode(0.f)};
    m.negative_w = fp::sign_bit(u[3]);
    return unit_quaternion_stable(m, q) ? m : plain;
}

inline unit_quaternion_fields unit_quaternion_write(const std::array<float, 4>& c, const quantization& q) noexcept {
    const unit_quaternion_fields plain = unit_quaternion_plain(c, q);
    if (unit_quaternion_stable(plain, q)) [[likely]] return plain;
    return unit_quaternion_search(c, plain, q);
}

} // namespace detail

/// smallest_three(bits): 2 bits for the index of the largest |component|, then the
/// other three (in x, y, z, w order) quantized to [-1/sqrt(2), +1/sqrt(2)] in `bits`
/// each (max_int = 2^bits - 1), the sign of the whole chosen so the largest is
/// positive. The reader rebuilds it as sqrt(1 - the others' squares). 2 + 3 * bits bits.
/// Near a tie the writer may rebuild another component, or send a code a step nearer 0,
/// so that what it sends is a fixed point: a decoded rotation re-encodes to the same bits
/// (from 2 bits). A non-finite component fails the write with invalid_value; every code
/// reads (as a unit quaternion). docs/game_encodings.md gives the rule and the error.
///
/// Delta (netser::serialize_delta): 1 bit, changed. A changed rotation whose largest
/// component's index is the baseline's sends 1 bit (same largest), then per code 1 bit
/// (changed) and, when changed, its difference from the baseline's code through `ladder`
/// (the codes' range [0, max_int]); otherwise 0 and the plain encoding. The baseline's
/// codes are those it encodes to, which for a decoded rotation are the ones it came from.
template <>
struct detail::smallest_three_attr<void> { // netser::smallest_three
    int bits;
    difference_ladder ladder = default_difference_ladder; ///< for the delta of a changed code

    constexpr explicit smallest_three_attr(int bits_per_component,
                                           difference_ladder delta_ladder = default_difference_ladder) noexcept
        : bits(bits_per_component), ladder(delta_ladder) {}

    static constexpr float bound = 0.70710678f;
    constexpr quantization params() const noexcept { return quantization::with_bits(-bound, bound, bits); }
    constexpr std::size_t max_bits() const noexcept { return 2 + 3 * static_cast<std::size_t>(bits); }
    static constexpr std::string_view schema_tag() noexcept { return "smallest_three"; }

    template <stream S, detail::quaternion_like Q>
    bool serialize(S& s, Q& quat) const noexcept {
        const std::size_t at = s.bits_processed();
        const quantization q = params();
        if (!q.valid) [[unlikely]] return s.fail(errc::invalid_value, at);
        detail::smallest_three_fields f; // a read never looks at the target's old value
        if constexpr (!S::is_reading) {
            const std::array<float, 4> c = detail::to_xyzw(quat);
            if (!detail::all_finite(c)) [[unlikely]] return s.fail(errc::invalid_value, at);
            f = detail::smallest_three_write(c, q);
        }
        std::uint64_t largest = f.largest;
        if (!s.process_bits(largest, 2)) return false;
        for (std::uint32_t& code : f.codes) {
            std::uint64_t bits_of_code = code;
            if (!s.process_bits(bits_of_code, q.bits)) return detail::failed_from(s, at);
            code = static_cast<std::uint32_t>(bits_of_code);
        }
        if constexpr (S::is_reading) {
            f.largest = static_cast<std::uint32_t>(largest);
            detail::from_xyzw(quat, detail::smallest_three_decode(f, q));
        }
        return true;
    }

    template <stream S, detail::quaternion_like Q>
    bool serialize_delta(S& s, Q& quat, const Q& baseline) const noexcept {
        const std::size_t at = s.bits_processed();
        const quantization q = params();
        if (!q.valid || !ladder.valid()) [[unlikely]] return s.fail(errc::invalid_value, at);
        const std::array<float, 4> b = detail::to_xyzw(baseline);
        if (!detail::all_finite(b)) [[unlikely]] return s.fail(errc::invalid_value, at);
        const detail::smallest_three_fields base = detail::smallest_three_write(b, q);
        detail::smallest_three_fields f = base;
        if constexpr (!S::is_reading) {
            const std::array<float, 4> c = detail::to_xyzw(quat);
            if (!detail::all_finite(c)) [[unlikely]] return s.fail(errc::invalid_value, at);
            f = detail::smallest_three_write(c, q);
        }
        bool changed = f.largest != base.largest || f.codes != base.codes;
        if (!serialize_bool(s, changed)) return false;
        if (!changed) {
            if constexpr (S::is_reading) quat = baseline;
            return true;
        }
        bool same_largest = f.largest == base.largest;
        if (!serialize_bool(s, same_largest)) return detail::failed_from(s, at);
        if (!same_largest) {
            Q whole = quat;
            if (!serialize(s, whole)) return detail::failed_from(s, at);
            if constexpr (S::is_reading) quat = whole;
            return true;
        }
        for (std::size_t k = 0; k < 3; ++k) {
            bool code_changed = f.codes[k] != base.codes[k];
            if (!serialize_bool(s, code_changed)) return detail::failed_from(s, at);
            if (!code_changed) continue;
            std::uint64_t code = f.codes[k];
            if (!serialize_code_difference(s, code, base.codes[k], q.max_int, ladder))
                return detail::failed_from(s, at);
            f.codes[k] = static_cast<std::uint32_t>(code);
        }
        if constexpr (S::is_reading) detail::from_xyzw(quat, detail::smallest_three_decode(f, q));
        return true;
    }

    /// Whether quat goes as the baseline does (both encode to the same fields).
    template <detail::quaternion_like Q>
    bool unchanged(const Q& quat, const Q& baseline) const noexcept {
        const quantization q = params();
        const std::array<float, 4> c = detail::to_xyzw(quat), b = detail::to_xyzw(baseline);
        if (!q.valid || !detail::all_finite(c) || !detail::all_finite(b)) return false;
        const detail::smallest_three_fields x = detail::smallest_three_write(c, q), y = detail::smallest_three_write(b, q);
        return x.largest == y.largest && x.codes == y.codes;
    }

    constexpr std::size_t max_delta_bits() const noexcept {
        // changed, same largest, then three codes (a flag and a difference each) or the whole.
        const std::size_t by_codes = 3 * (1 + max_difference_bits(params().max_int, ladder));
        return 2 + (by_codes > max_bits() ? by_codes : max_bits());
    }
};

/// unit_quaternion(bits), the book's form: x, y, z quantized to [-1, 1] in `bits`
/// each (max_int = 2^bits - 1), then 1 bit: w is negative. The reader rebuilds
/// |w| = sqrt(1 - x^2 - y^2 - z^2) (0, with x, y, z rescaled, when that is negative).
/// Where that rescaling would move a code, the writer sends a fixed point instead, so a
/// decoded rotation re-encodes to the same bits. 3 * bits + 1 bits. A non-finite
/// component fails the write with invalid_value.
template <>
struct detail::unit_quaternion_attr<void> { // netser::unit_quaternion
    int bits;

    constexpr explicit unit_quaternion_attr(int bits_per_component) noexcept : bits(bits_per_component) {}

    constexpr quantization params() const noexcept { return quantization::with_bits(-1.f, 1.f, bits); }
    constexpr std::size_t max_bits() const noexcept { return 3 * static_cast<std::size_t>(bits) + 1; }
    static constexpr std::string_view schema_tag() noexcept { return "unit_quaternion"; }

    template <stream S, detail::quaternion_like Q>
    bool serialize(S& s, Q& quat) const noexcept {
        const std::size_t at = s.bits_processed();
        const quantization q = params();
        if (!q.valid) [[unlikely]] return s.fail(errc::invalid_value, at);
        detail::unit_quaternion_fields f; // a read never looks at the target's old value
        if constexpr (!S::is_reading) {
            const std::array<float, 4> c = detail::to_xyzw(quat);
            if (!detail::all_finite(c)) [[unlikely]] return s.fail(errc::invalid_value, at);
            f = detail::unit_quaternion_write(c, q);
        }
        for (std::uint32_t& code : f.codes) {
            std::uint64_t bits_of_code = code;
            if (!s.process_bits(bits_of_code, q.bits)) return detail::failed_from(s, at);
            code = static_cast<std::uint32_t>(bits_of_code);
        }
        if (!serialize_bool(s, f.negative_w)) return detail::failed_from(s, at);
        if constexpr (S::is_reading) detail::from_xyzw(quat, detail::unit_quaternion_decode(f, q));
        return true;
    }
};

} // namespace netser
