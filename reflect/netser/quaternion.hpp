#pragma once

#include <netser/bits_required.hpp>
#include <netser/detail/attribute_hints.hpp>
#include <netser/detail/config.hpp>
#include <netser/difference_ladder.hpp>
#include <netser/linear_prediction.hpp>
#include <netser/detail/float_math.hpp>
#include <netser/primitives.hpp>
#include <netser/quantization.hpp>
#include <netser/stream.hpp>
#include <netser/wire_layout.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

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

// The bits of |v|: for floats that are not NaN, their unsigned order is the order of |v|.
NETSER_INLINE std::uint32_t magnitude_bits(float v) noexcept { return std::bit_cast<std::uint32_t>(v) & 0x7fffffffu; }
NETSER_INLINE std::uint32_t larger_bits(std::uint32_t a, std::uint32_t b) noexcept { return b > a ? b : a; }

// An infinity or a NaN has every exponent bit set: its magnitude bits are at least those
// of the infinity. (In integers: the writer's index of the largest component compares the
// same magnitudes, and the compiler shares them.)
NETSER_INLINE bool all_finite(const std::array<float, 4>& c) noexcept {
    const std::uint32_t largest = larger_bits(larger_bits(magnitude_bits(c[0]), magnitude_bits(c[1])),
                                              larger_bits(magnitude_bits(c[2]), magnitude_bits(c[3])));
    return largest < 0x7f800000u;
}

// The code of a unit component (quantization::centered_bits): the quantization's, except
// that 0 (and -0) is always the middle code max_int / 2, which reads as exactly 0. Up to
// 24 bits the quantization gives that code; above, float32 rounds 0.5 * max_int + 0.5 up
// to the next code, which at 25 bits reads as 2^-23 bound instead.
// The float32 operations of quantization::encode, one for one (the same code for every v,
// tested), with the clamp written as a maximum and a minimum, which compilers make
// without branches.
NETSER_INLINE std::uint32_t unit_code(const quantization& q, float v) noexcept {
    if (q.bits > 24 && v == 0.f) return q.max_int / 2;
    float n = fp_barrier(v - q.min);
    n = fp_barrier(n / q.delta);
    n = n > 0.f ? n : 0.f;
    n = n < 1.f ? n : 1.f;
    const float steps = fp_barrier(static_cast<float>(q.max_int));
    const float rounded = fp_barrier(fp_barrier(n * steps) + 0.5f);
    // Up to 23 bits max_int + 0.5 is a float32: rounded stays at most max_int + 0.5.
    if (q.bits > 23 && rounded >= steps) return q.max_int;
    // Below 2^31 a signed conversion truncates the same, in one instruction on more hosts.
    if (q.bits <= 30) return static_cast<std::uint32_t>(static_cast<std::int32_t>(rounded));
    return static_cast<std::uint32_t>(rounded);
}

// The larger of two floats that are not NaN, by value (std::max returns a reference, which
// compilers may turn into a branch).
NETSER_INLINE float larger(float a, float b) noexcept { return a > b ? a : b; }

// sum + v * v rounded twice to float32 (no FMA, no x87 excess precision): the writer's
// fixed-point check below must compute exactly what the reader computes.
inline float add_square(float sum, float v) noexcept { return fp_barrier(sum + fp_barrier(v * v)); }

// The squares of three decoded components summed, in the reader's order.
inline float sum_of_squares(float a, float b, float c) noexcept {
    return add_square(add_square(fp_barrier(a * a), b), c);
}

// The rebuilt component is sqrt(1 - sum), sum the other three's squares. A sum above 1
// comes only from rounding (book form, w near 0) or a forged packet: then the three are
// scaled back to unit length and the rebuilt one is 0, so a read is always a unit
// quaternion. c holds the three, and anything at `largest`.
NETSER_COLD inline std::array<float, 4> rescaled(std::array<float, 4> c, std::size_t largest, float sum) noexcept {
    const float scale = 1.f / fp::sqrt(sum);
    for (float& v : c) v *= scale;
    c[largest] = 0.f;
    return c;
}

// Up to this many bits every code of a unit component reads as a value that is written as
// that same code (tested for every code of both bounds; from 23 bits some do not): then
// the writer's check that its fields are a fixed point only needs the rebuilt component.
inline constexpr int codes_come_back_up_to = 22;

// An upper bound of how far a sent value reads from the component it stands for, up to 22
// bits with a bound of at most 1: half a step, plus 13 float32 roundings of at most
// 2^-24 each in encode and decode (2^-18 leaves room to spare).
NETSER_INLINE float read_error_bound(const quantization& q) noexcept {
    return q.delta / static_cast<float>(q.max_int) * 0.5f + 0x1p-18f;
}

// Moves a code's value towards 0: to the nearest code towards the middle code max_int / 2
// (which reads as 0) that reads as another float (above 23 bits many codes read as one
// float), then to the code that float is written as, when that code reads as it too (a
// code that comes back). Each move makes |value| smaller. False when the code reads as 0
// (the middle code, or above 24 bits a neighbour of it).
inline bool step_towards_zero(std::uint32_t& code, const quantization& q) noexcept {
    const float v = q.decode(code);
    if (v == 0.f) return false;
    const std::uint32_t middle = q.max_int / 2;
    const bool high = code > middle;
    const std::uint32_t from_middle = high ? code - middle : middle - code;
    std::uint32_t next = middle;
    for (std::uint32_t step = 1; step < from_middle; step *= 2) {
        const std::uint32_t c = high ? code - step : code + step;
        if (q.decode(c) != v) {
            next = c;
            break;
        }
    }
    const float to = q.decode(next);
    const std::uint32_t back = unit_code(q, to);
    code = q.decode(back) == to ? back : next;
    return true;
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

// v, hidden from the optimizer, which cannot branch on a value it does not see. The
// index of the largest component is random from one rotation to the next: compilers
// would otherwise turn the selections below into branches on it, to specialize each
// index's path, and a mispredicted branch costs more than the whole selection.
NETSER_INLINE std::uint32_t opaque(std::uint32_t v) noexcept {
#if defined(__GNUC__)
    __asm__("" : "+r"(v));
#endif
    return v;
}

// The index of the largest |component|, the first one on a tie: integer compares on the
// magnitude bits (the shortest chain to the index, which the codes wait for).
NETSER_INLINE std::uint32_t index_of_largest(const std::array<float, 4>& c) noexcept {
    const std::uint32_t a0 = magnitude_bits(c[0]), a1 = magnitude_bits(c[1]), a2 = magnitude_bits(c[2]),
                        a3 = magnitude_bits(c[3]);
    const std::uint32_t second = larger_bits(a2, a3) > larger_bits(a0, a1) ? 1u : 0u; // a tie keeps the first pair
    const std::uint32_t within = (second & (a3 > a2 ? 1u : 0u)) | ((second ^ 1u) & (a1 > a0 ? 1u : 0u));
    return opaque(second * 2 + within);
}

// For each index of the rebuilt component, the indices of the three sent ones in x, y, z,
// w order, a byte each (the lowest first).
inline constexpr std::uint32_t sent_indices[4] = {0x030201u, 0x030200u, 0x030100u, 0x020100u};

// The three components other than c[largest] (largest in 0..3), in x, y, z, w order, and
// c[largest] last: loads at indices from a table, without a branch on the index.
NETSER_INLINE std::array<float, 4> sent_then_rebuilt(const std::array<float, 4>& c, std::uint32_t largest) noexcept {
    const std::uint32_t l = largest & 3u, at = opaque(sent_indices[l]);
    return {c[at & 3u], c[at >> 8 & 3u], c[at >> 16 & 3u], c[l]};
}
// For each index of the rebuilt component, where x, y, z, w are in {sent a, b, c, rebuilt}.
inline constexpr std::uint8_t read_positions[4][4] = {{3, 0, 1, 2}, {0, 3, 1, 2}, {0, 1, 3, 2}, {0, 1, 2, 3}};

// What the reader makes of the fields.
NETSER_INLINE std::array<float, 4> smallest_three_decode(const smallest_three_fields& f,
                                                         const quantization& q) noexcept {
    const std::uint32_t largest = f.largest & 3u;
    std::array<float, 4> v{q.decode(f.codes[0]), q.decode(f.codes[1]), q.decode(f.codes[2]), 0.f};
    const float sum = sum_of_squares(v[0], v[1], v[2]);
    const std::uint8_t* at = read_positions[largest];
    if (sum > 1.f) [[unlikely]] return rescaled({v[at[0]], v[at[1]], v[at[2]], v[at[3]]}, largest, sum);
    v[3] = fp::sqrt(1.f - sum);
    return {v[at[0]], v[at[1]], v[at[2]], v[at[3]]};
}

// Component `largest` rebuilt: the whole negated when its sign bit is set (q and -q are
// one rotation, and give the same fields), the other three at their nearest codes.
NETSER_INLINE smallest_three_fields smallest_three_encode(const std::array<float, 4>& c, std::uint32_t largest,
                                                         const quantization& q) noexcept {
    largest &= 3u;
    const std::array<float, 4> v = sent_then_rebuilt(c, largest);
    // Negated when the rebuilt one's sign bit is set: a product with -1 is exact, and keeps
    // the values in floating-point registers.
    const float sign = fp::copysign(1.f, v[3]);
    const auto code = [&](float x) { return unit_code(q, x * sign); };
    return {largest, {code(v[0]), code(v[1]), code(v[2])}};
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
NETSER_NOINLINE inline smallest_three_fields smallest_three_search(const std::array<float, 4>& c,
                                                                   const smallest_three_fields& plain,
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
                    if (fp::abs(d[i]) > biggest && d[i] != 0.f) {
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
    // codes of 0 is a fixed point at every bit count (tested), so the promise holds anyway.
    smallest_three_fields f;
    f.largest = index_of_largest(u);
    f.codes = {q.max_int / 2, q.max_int / 2, q.max_int / 2};
    return smallest_three_stable(f, q) ? f : plain;
}

// smallest_three_stable up to codes_come_back_up_to bits, where codes come back and only
// the index can change: the fields are a fixed point when the rebuilt component reads
// above each sent one before it and at least as large as each after it (the first largest
// wins a tie), and the three's squares do not sum above 1 (else it reads as 0).
inline bool smallest_three_stable_by_rebuilt(const smallest_three_fields& f, const quantization& q) noexcept {
    const float a = q.decode(f.codes[0]), b = q.decode(f.codes[1]), c = q.decode(f.codes[2]);
    const float sum = sum_of_squares(a, b, c);
    if (sum > 1.f) return false;
    const float r = fp::sqrt(1.f - sum);
    const auto above = [&](float sent, std::uint32_t k) {
        return k < f.largest ? r > fp::abs(sent) : r >= fp::abs(sent);
    };
    return above(a, 0) && above(b, 1) && above(c, 2);
}

// The plain fields are not surely a fixed point by the fast test: decide exactly (by the
// rebuilt component up to 22 bits, else by decoding and encoding again) and search when
// they are none.
// (Its arguments are values, and the parameters are rebuilt from the bit count: the fast
// path stores nothing for a call it rarely makes. Rare, not cold: at 9 bits this runs for
// about 1% of random rotations and the search for 0.2%, and unit_quaternion's for 2.6%,
// so they are compiled for speed, out of the writer's line.)
NETSER_NOINLINE inline smallest_three_fields smallest_three_settle(std::array<float, 4> c, smallest_three_fields plain,
                                                                   float bound, int bits) noexcept {
    const quantization q = quantization::centered_bits(bound, bits);
    const bool stable = q.bits <= codes_come_back_up_to ? smallest_three_stable_by_rebuilt(plain, q)
                                                         : smallest_three_stable(plain, q);
    if (stable) return plain;
    return smallest_three_search(c, plain, q);
}

// The fast test of smallest_three_write: true only when the plain fields are a fixed point
// (compared with smallest_three_stable in the tests). Each sent value reads at most
// D = |sent| + read_error_bound away from 0. When the three D^2 and the largest one's
// again sum below 1 by a margin (2^-18) above the float32 roundings of this sum and of the
// reader's (of its sum and square root; when the test passes every term is below 1, so
// they add up to less than 20 * 2^-24), the reader's sum is below 1 and its sqrt(1 - sum)
// above each sent value, so the index comes back; up to codes_come_back_up_to bits the
// codes come back too.
NETSER_INLINE bool smallest_three_surely_stable(const std::array<float, 4>& c, std::uint32_t largest,
                                                const quantization& q) noexcept {
    if (q.bits > codes_come_back_up_to) return false;
    const std::array<float, 4> v = sent_then_rebuilt(c, largest);
    const float h = read_error_bound(q);
    const float da = fp::abs(v[0]) + h, db = fp::abs(v[1]) + h, dc = fp::abs(v[2]) + h;
    const float top = larger(da, larger(db, dc));
    return da * da + db * db + dc * dc + top * top < 1.f - 0x1p-18f;
}

// What the writer sends: the plain encoding when it is a fixed point (always, but near
// ties), else the search's. Either way the fields are a fixed point, so the rotation
// they read as writes back to them: encode(decode(encode(c))) == encode(c). Most plain
// fields are a fixed point by a margin that a test without decoding sees.
NETSER_INLINE smallest_three_fields smallest_three_write(const std::array<float, 4>& c,
                                                        const quantization& q) noexcept {
    const std::uint32_t largest = index_of_largest(c);
    const smallest_three_fields plain = smallest_three_encode(c, largest, q);
    if (smallest_three_surely_stable(c, largest, q)) [[likely]] return plain;
    return smallest_three_settle(c, plain, q.max, q.bits);
}

// The wire fields of unit_quaternion: the codes of x, y, z and w's sign.
struct unit_quaternion_fields {
    std::array<std::uint32_t, 3> codes{};
    bool negative_w = false;
    bool operator==(const unit_quaternion_fields&) const = default;
};

NETSER_INLINE std::array<float, 4> unit_quaternion_decode(const unit_quaternion_fields& f,
                                                          const quantization& q) noexcept {
    std::array<float, 4> c{q.decode(f.codes[0]), q.decode(f.codes[1]), q.decode(f.codes[2]), 0.f};
    const float sum = sum_of_squares(c[0], c[1], c[2]);
    if (sum > 1.f) [[unlikely]] c = rescaled(c, 3, sum);
    else c[3] = fp::sqrt(1.f - sum);
    // The sign of w without a branch on it (random): -0 when w is 0.
    c[3] = std::bit_cast<float>(std::bit_cast<std::uint32_t>(c[3]) | (f.negative_w ? 0x80000000u : 0u));
    return c;
}

NETSER_INLINE unit_quaternion_fields unit_quaternion_plain(const std::array<float, 4>& c,
                                                           const quantization& q) noexcept {
    // -0 counts as negative: a rebuilt w of 0 keeps its sign on a re-write.
    return {{unit_code(q, c[0]), unit_code(q, c[1]), unit_code(q, c[2])}, fp::sign_bit(c[3])};
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
NETSER_NOINLINE inline unit_quaternion_fields unit_quaternion_search(const std::array<float, 4>& c,
                                                                     const unit_quaternion_fields& plain,
                                                                     const quantization& q) noexcept {
    std::array<float, 4> u{};
    if (!normalized(c, u)) return plain;
    closest_candidate<unit_quaternion_fields> closest{u};
    unit_quaternion_fields f = unit_quaternion_plain(unit_quaternion_decode(plain, q), q);
    for (int round = 0; round < 4; ++round) { // up to 4 rereads: each one's plain fields are the next
        const std::array<float, 4> d = unit_quaternion_decode(f, q);
        const unit_quaternion_fields p = unit_quaternion_plain(d, q);
        if (p == f) {
            closest.consider(f, d);
            break;
        }
        f = p;
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
            if (p.codes[k] != f.codes[k] && fp::abs(d[k]) > biggest && d[k] != 0.f) {
                biggest = fp::abs(d[k]);
                which = k;
            }
        }
        if (which == 3 || !step_towards_zero(f.codes[which], q)) break;
    }
    if (closest.found()) return closest.best;
    // Not reached for any input in the tests; x, y, z at the code of 0 are a fixed point (tested).
    unit_quaternion_fields m;
    m.codes = {q.max_int / 2, q.max_int / 2, q.max_int / 2};
    m.negative_w = fp::sign_bit(u[3]);
    return unit_quaternion_stable(m, q) ? m : plain;
}

// A sufficient test for unit_quaternion_stable up to codes_come_back_up_to bits, where
// codes come back: x, y, z read with squares summing to at most 1 (no rescaling), and w's
// sign bit always comes back. (Rescaled fields may be a fixed point too.) The writer's
// test: the reader's own sum, a few operations more than a bound on it would take, and
// without the bound's slack, which would send a tenth of the rotations at 9 bits (those
// with |w| small) to the slow path.
NETSER_INLINE bool unit_quaternion_stable_by_sum(const unit_quaternion_fields& f, const quantization& q) noexcept {
    return sum_of_squares(q.decode(f.codes[0]), q.decode(f.codes[1]), q.decode(f.codes[2])) <= 1.f;
}

// The plain fields read rescaled (or above 22 bits: were not tested): decide by decoding
// and encoding again, and search when they are no fixed point. (As smallest_three_settle.)
NETSER_NOINLINE inline unit_quaternion_fields unit_quaternion_settle(std::array<float, 4> c,
                                                                     unit_quaternion_fields plain, int bits) noexcept {
    const quantization q = quantization::centered_bits(1.f, bits);
    if (unit_quaternion_stable(plain, q)) return plain;
    return unit_quaternion_search(c, plain, q);
}

// What the writer sends: the plain fields when they are a fixed point (all but about 1.5%
// of random rotations at 9 bits, those with |w| near 0), else the search's.
NETSER_INLINE unit_quaternion_fields unit_quaternion_write(const std::array<float, 4>& c,
                                                           const quantization& q) noexcept {
    const unit_quaternion_fields plain = unit_quaternion_plain(c, q);
    if (q.bits <= codes_come_back_up_to && unit_quaternion_stable_by_sum(plain, q)) [[likely]] return plain;
    return unit_quaternion_settle(c, plain, q.bits);
}

// floor(sqrt(v)), digit by digit: integers only, the same on every host.
constexpr std::uint64_t isqrt_floor(std::uint64_t v) noexcept {
    std::uint64_t root = 0, bit = std::uint64_t{1} << 62;
    while (bit > v) bit >>= 2;
    while (bit != 0) {
        if (v >= root + bit) {
            v -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    return root;
}

/// Whether smallest-three codes of [0, max_code] can be re-expressed without overflow:
/// an even max_code up to 2^32 - 2 (netser's own quantization), an odd one up to 2^31 - 1.
constexpr bool reexpressible_max_code(std::uint64_t max_code) noexcept {
    return max_code >= 1 && (max_code % 2 == 0 ? max_code <= 0xfffffffeu : max_code <= 0x7fffffffu);
}

// Smallest-three fields (codes of [0, max_code], the three components other than the
// largest in x, y, z, w order) re-expressed with component `to` as the largest, in
// integers: with g = 2 for an even max_code and 1 for an odd one and R = max_code / g,
// each code c stands for D = (2c - max_code) / g (the component times R * sqrt(2)); the
// old largest gets D = isqrt(2R^2 - the sum of the others' D^2) (0 when that is
// negative); the whole is negated when `to`'s D is negative; each D becomes the code
// (g * D + max_code + 1) >> 1 (for g = 2 exact, for the old largest with an odd max_code
// rounded half up), clamped to [0, max_code]. docs/game_encodings.md states the same rule.
constexpr smallest_three_fields smallest_three_reexpress(const smallest_three_fields& f, std::uint32_t to,
                                                         std::uint64_t max_code) noexcept {
    if (to == f.largest || to > 3 || f.largest > 3) return f;
    const std::int64_t m = static_cast<std::int64_t>(max_code), g = max_code % 2 == 0 ? 2 : 1, r = m / g;
    std::array<std::int64_t, 4> d{};
    std::uint64_t sum = 0;
    for (std::uint32_t i = 0, k = 0; i < 4; ++i) {
        if (i == f.largest) continue;
        const std::int64_t x = (2 * static_cast<std::int64_t>(f.codes[k++]) - m) / g;
        d[i] = x;
        sum += static_cast<std::uint64_t>(x * x);
    }
    const std::uint64_t whole = 2 * static_cast<std::uint64_t>(r) * static_cast<std::uint64_t>(r);
    d[f.largest] = sum >= whole ? 0 : static_cast<std::int64_t>(isqrt_floor(whole - sum));
    const std::int64_t sign = d[to] < 0 ? -1 : 1;
    smallest_three_fields out{to, {}};
    for (std::uint32_t i = 0, k = 0; i < 4; ++i) {
        if (i == to) continue;
        const std::int64_t code = (g * sign * d[i] + m + 1) >> 1;
        out.codes[k++] = static_cast<std::uint32_t>(code < 0 ? 0 : code > m ? m : code);
    }
    return out;
}

// The names of the fields both smallest-three codecs send (their wire()).
inline constexpr std::string_view smallest_three_field_names[4] = {"largest", "a", "b", "c"};

// The delta both smallest-three codecs send (after the caller's checks): changed; then
// same largest; on a switch, (new largest - old - 1) mod 4 in 2 bits (3 fails with
// out_of_range) and the baseline re-expressed with the new largest; then per code a
// changed bit and its difference through `ladder`. f comes in as the writer's fields
// (a reader's: anything) and leaves as the fields sent; `changed` false: f is base.
template <stream S>
NETSER_INLINE bool serialize_smallest_three_delta(S& s, smallest_three_fields& f, const smallest_three_fields& base,
                                    std::uint64_t max_code, const effective_ladder& ladder, bool& changed) noexcept {
    const std::size_t at = s.bits_processed();
    if constexpr (S::is_reading) f = base;
    changed = f != base;
    if (!serialize_bool(s, changed)) return false;
    if (!changed) return true; // (f == base on both sides)
    bool same_largest = f.largest == base.largest;
    if (!serialize_bool(s, same_largest)) return failed_from(s, at);
    // A range stream takes each field's bits in a context of its own (the names of
    // wire()); the bit-packed streams have no such hooks.
    constexpr bool contexts = requires(std::string_view name) {
        s.enter_member(name);
        s.leave();
    };
    smallest_three_fields from = base;
    if (!same_largest) {
        if constexpr (contexts) s.enter_member(smallest_three_field_names[0]);
        std::uint64_t step = (f.largest - base.largest - 1) & 3u;
        const bool sent = s.process_bits(step, 2);
        if constexpr (contexts) s.leave();
        if (!sent) return failed_from(s, at);
        if (step > 2) [[unlikely]] return s.fail(errc::out_of_range, at);
        f.largest = (base.largest + 1 + static_cast<std::uint32_t>(step)) & 3u;
        from = smallest_three_reexpress(base, f.largest, max_code);
    }
    for (std::size_t k = 0; k < 3; ++k) {
        if constexpr (contexts) s.enter_member(smallest_three_field_names[k + 1]);
        bool code_changed = f.codes[k] != from.codes[k];
        bool sent = serialize_bool(s, code_changed);
        std::uint64_t code = code_changed ? f.codes[k] : from.codes[k];
        if (sent && code_changed) sent = serialize_difference(s, code, from.codes[k], max_code, ladder);
        if constexpr (contexts) s.leave();
        if (!sent) return failed_from(s, at);
        f.codes[k] = static_cast<std::uint32_t>(code);
    }
    return true;
}

// The prediction both smallest-three codecs make: the older baselines re-expressed with
// the newest one's largest component, then each code extrapolated (p.code).
constexpr smallest_three_fields predict_smallest_three(const smallest_three_fields& f0, smallest_three_fields f1,
                                                       const smallest_three_fields* f2, const linear_prediction& p,
                                                       std::uint64_t max_code) noexcept {
    f1 = smallest_three_reexpress(f1, f0.largest, max_code);
    const smallest_three_fields older = f2 != nullptr ? smallest_three_reexpress(*f2, f0.largest, max_code) : f1;
    smallest_three_fields f = f0;
    for (std::size_t k = 0; k < 3; ++k) {
        const std::uint64_t c2 = older.codes[k];
        f.codes[k] = static_cast<std::uint32_t>(p.code(f0.codes[k], f1.codes[k], f2 != nullptr ? &c2 : nullptr, max_code));
    }
    return f;
}

} // namespace detail

/// smallest_three(bits), bits in [2, 32]: 2 bits for the index of the largest
/// |component|, then the other three (in x, y, z, w order) quantized to
/// [-1/sqrt(2), +1/sqrt(2)] in `bits` each (quantization::centered_bits: max_int =
/// 2^bits - 2, so 0 reads back exactly and the identity is exact), the sign of the whole
/// chosen so the largest is positive. The reader rebuilds it as sqrt(1 - the others'
/// squares). 2 + 3 * bits bits. Near a tie the writer may rebuild another component, or
/// send a code a step nearer 0, so that what it sends is a fixed point: a decoded rotation
/// re-encodes to the same bits. A non-finite component fails the write with invalid_value;
/// code 2^bits - 1 fails the read with out_of_range; every other packet reads as a unit
/// quaternion. docs/game_encodings.md gives the rule and the error.
///
/// Delta (netser::serialize_delta): smallest_three_codes' on the codes of max_int: 1 bit,
/// changed; 1 bit, same largest component; on a switch the 2-bit step to the new largest
/// and the baseline's codes re-expressed with it; then per code 1 bit (changed) and, when
/// changed, its difference from the baseline's code through `ladder` (the codes' range
/// [0, max_int]). The baseline's codes are those it encodes to, which for a decoded
/// rotation are the ones it came from.
template <>
struct detail::smallest_three_attr<void> { // netser::smallest_three
    int bits;
    difference_ladder ladder = default_difference_ladder; ///< for the delta of a changed code
    // The ladder checked and fitted to the codes' range once (a delta would per code).
    bool ladder_valid;
    detail::effective_ladder fitted_ladder;

    constexpr explicit smallest_three_attr(int bits_per_component,
                                           difference_ladder delta_ladder = default_difference_ladder) noexcept
        : bits(bits_per_component), ladder(delta_ladder), ladder_valid(delta_ladder.valid()),
          fitted_ladder(delta_ladder, quantization::centered_bits(bound, bits_per_component).max_int) {}

    static constexpr float bound = 0.70710678f;
    constexpr quantization params() const noexcept { return quantization::centered_bits(bound, bits); }
    constexpr std::size_t max_bits() const noexcept { return 2 + 3 * static_cast<std::size_t>(bits); }
    /// For the schema tools: the index of the largest component, then the codes of the
    /// other three in x, y, z, w order.
    constexpr auto wire() const noexcept {
        return netser::wire(wire_code("largest", 2, 3), wire_quantized("a", params()), wire_quantized("b", params()),
                            wire_quantized("c", params()));
    }
    // The tag names the codec (the schema tools know it); schema_hash also hashes
    // params().max_int, so this wire (2^bits - 2) and an earlier one (2^bits - 1) differ.
    static constexpr std::string_view schema_tag() noexcept { return "smallest_three"; }

    // Inlined: with the bit count a constant of the member's description, so is params().
    template <stream S, detail::quaternion_like Q>
    NETSER_INLINE bool serialize(S& s, Q& quat) const noexcept {
        const std::size_t at = s.bits_processed();
        const quantization q = params();
        if (!q.valid) [[unlikely]] return s.fail(errc::invalid_value, at);
        detail::smallest_three_fields f; // a read never looks at the target's old value
        if constexpr (!S::is_reading) {
            const std::array<float, 4> c = detail::to_xyzw(quat);
            if (!detail::all_finite(c)) [[unlikely]] return s.fail(errc::invalid_value, at);
            f = detail::smallest_three_write(c, q);
        }
        std::array<std::uint64_t, 4> fields{f.largest, f.codes[0], f.codes[1], f.codes[2]};
        if (!detail::serialize_fields(s, fields, {2, q.bits, q.bits, q.bits}, {3, q.max_int, q.max_int, q.max_int}, at))
            return false;
        if constexpr (S::is_reading) {
            const auto code = [&](std::size_t i) { return static_cast<std::uint32_t>(fields[i]); };
            detail::from_xyzw(quat, detail::smallest_three_decode({code(0), {code(1), code(2), code(3)}}, q));
        }
        return true;
    }

    template <stream S, detail::quaternion_like Q>
    bool serialize_delta(S& s, Q& quat, const Q& baseline) const noexcept {
        const std::size_t at = s.bits_processed();
        const quantization q = params();
        if (!q.valid || !ladder_valid) [[unlikely]] return s.fail(errc::invalid_value, at);
        const std::array<float, 4> b = detail::to_xyzw(baseline);
        if (!detail::all_finite(b)) [[unlikely]] return s.fail(errc::invalid_value, at);
        const detail::smallest_three_fields base = detail::smallest_three_write(b, q);
        detail::smallest_three_fields f = base;
        if constexpr (!S::is_reading) {
            const std::array<float, 4> c = detail::to_xyzw(quat);
            if (!detail::all_finite(c)) [[unlikely]] return s.fail(errc::invalid_value, at);
            f = detail::smallest_three_write(c, q);
        }
        bool changed = false;
        if (!detail::serialize_smallest_three_delta(s, f, base, q.max_int, fitted_ladder, changed)) return false;
        if constexpr (S::is_reading) {
            if (changed) detail::from_xyzw(quat, detail::smallest_three_decode(f, q));
            else quat = baseline;
        }
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

    /// Prediction (netser::predict_linear): the older baselines' codes re-expressed with
    /// the newest one's largest component, then each of the three codes extrapolated
    /// (p.code); the rotation those codes read as when they are a fixed point, else out
    /// keeps b0's rotation. (Near a tie extrapolated codes can read as a rotation that
    /// encodes to other fields, found by the writer's search, which a decoder of the wire
    /// alone would have to reproduce.)
    template <detail::quaternion_like Q>
    void predict(Q& out, const Q& b0, const Q& b1, const Q* b2, const linear_prediction& p) const noexcept {
        const quantization q = params();
        const std::array<float, 4> c0 = detail::to_xyzw(b0), c1 = detail::to_xyzw(b1);
        if (!q.valid || !detail::all_finite(c0) || !detail::all_finite(c1)) return;
        const detail::smallest_three_fields f0 = detail::smallest_three_write(c0, q),
                                            f1 = detail::smallest_three_write(c1, q);
        detail::smallest_three_fields f2 = f1;
        if (b2 != nullptr) {
            const std::array<float, 4> c2 = detail::to_xyzw(*b2);
            if (!detail::all_finite(c2)) return;
            f2 = detail::smallest_three_write(c2, q);
        }
        const detail::smallest_three_fields f =
            detail::predict_smallest_three(f0, f1, b2 != nullptr ? &f2 : nullptr, p, q.max_int);
        if (detail::smallest_three_stable(f, q)) detail::from_xyzw(out, detail::smallest_three_decode(f, q));
    }

    constexpr std::size_t max_delta_bits() const noexcept {
        // changed, same largest, the step, then three codes (a flag and a difference each).
        return 4 + 3 * (1 + max_difference_bits(params().max_int, ladder));
    }
    // For the schema hash: this delta (a switch re-expresses the baseline) is not the one
    // that sent a rotation whose largest component switched whole.
    static constexpr std::string_view delta_form() noexcept { return "reexpressed"; }
};

namespace detail {

template <class R>
concept smallest_three_code_struct = requires(R& r) {
    requires std::is_integral_v<std::remove_cvref_t<decltype(r.largest)>>;
    requires std::is_integral_v<std::remove_cvref_t<decltype(r.a)>>;
    requires std::is_integral_v<std::remove_cvref_t<decltype(r.b)>>;
    requires std::is_integral_v<std::remove_cvref_t<decltype(r.c)>>;
};

// The fields of a code struct; false when one is outside [0, 3] or [0, max_code].
template <class R>
constexpr bool smallest_three_fields_of(const R& r, std::uint64_t max_code, smallest_three_fields& f) noexcept {
    const auto in = [](auto v, std::uint64_t max) { return v >= 0 && static_cast<std::uint64_t>(v) <= max; };
    if (!in(r.largest, 3) || !in(r.a, max_code) || !in(r.b, max_code) || !in(r.c, max_code)) return false;
    f = {static_cast<std::uint32_t>(r.largest),
         {static_cast<std::uint32_t>(r.a), static_cast<std::uint32_t>(r.b), static_cast<std::uint32_t>(r.c)}};
    return true;
}

// Stores fields into a code struct, all or none; false (r untouched) when a code does not
// fit its member's type.
template <class R>
constexpr bool store_smallest_three_fields(R& r, const smallest_three_fields& f) noexcept {
    const auto fits = [](const auto& member, std::uint32_t v) {
        return std::in_range<std::remove_cvref_t<decltype(member)>>(v);
    };
    if (!fits(r.largest, f.largest) || !fits(r.a, f.codes[0]) || !fits(r.b, f.codes[1]) || !fits(r.c, f.codes[2]))
        return false;
    const auto put = [](auto& member, std::uint32_t v) { member = static_cast<std::remove_cvref_t<decltype(member)>>(v); };
    put(r.largest, f.largest);
    put(r.a, f.codes[0]);
    put(r.b, f.codes[1]);
    put(r.c, f.codes[2]);
    return true;
}

} // namespace detail

/// smallest_three_codes(max_code[, ladder]): a rotation the game already holds as its
/// smallest-three codes, a struct with integer members `largest` (the index, in x, y, z,
/// w order, of the component left out) and `a`, `b`, `c` (the other three in that order,
/// codes of [0, max_code], max_code even up to 2^32 - 2 or odd up to 2^31 - 1; code 0
/// stands for -1/sqrt(2), max_code for +1/sqrt(2)), as Fiedler's "Snapshot Compression"
/// keeps them (9 bits, max_code 511). Plain: `largest` in 2 bits, then a, b, c in
/// bits_required(0, max_code) bits each. Delta and prediction are smallest_three's, on
/// these codes: a switch of the largest component re-expresses the baseline's codes.
/// A member outside its range fails a write with out_of_range (a baseline's, with
/// invalid_value); a read of a code above max_code fails with out_of_range.
struct smallest_three_codes {
    std::uint32_t max_code;
    difference_ladder ladder = default_difference_ladder; ///< for the delta of a changed code
    bool valid;
    detail::effective_ladder fitted_ladder;

    constexpr explicit smallest_three_codes(std::uint32_t largest_code,
                                            difference_ladder delta_ladder = default_difference_ladder) noexcept
        : max_code(largest_code), ladder(delta_ladder),
          valid(delta_ladder.valid() && detail::reexpressible_max_code(largest_code)),
          fitted_ladder(delta_ladder, largest_code) {}

    constexpr int code_bits() const noexcept { return bits_required(0, max_code); }
    constexpr std::size_t max_bits() const noexcept { return 2 + 3 * static_cast<std::size_t>(code_bits()); }
    constexpr auto wire() const noexcept {
        const auto& n = detail::smallest_three_field_names;
        return netser::wire(wire_code(n[0], 2, 3), wire_code(n[1], code_bits(), max_code),
                            wire_code(n[2], code_bits(), max_code), wire_code(n[3], code_bits(), max_code));
    }
    static constexpr std::string_view schema_tag() noexcept { return "smallest_three_codes"; }

    template <stream S, detail::smallest_three_code_struct R>
    bool serialize(S& s, R& r) const noexcept {
        const std::size_t at = s.bits_processed();
        if (!valid) [[unlikely]] return s.fail(errc::invalid_value, at);
        detail::smallest_three_fields f;
        if constexpr (!S::is_reading)
            if (!detail::smallest_three_fields_of(r, max_code, f)) [[unlikely]] return s.fail(errc::out_of_range, at);
        const int b = code_bits();
        std::array<std::uint64_t, 4> fields{f.largest, f.codes[0], f.codes[1], f.codes[2]};
        if (!detail::serialize_fields(s, fields, {2, b, b, b}, {3, max_code, max_code, max_code}, at)) return false;
        if constexpr (S::is_reading) {
            const auto code = [&](std::size_t i) { return static_cast<std::uint32_t>(fields[i]); };
            if (!detail::store_smallest_three_fields(r, {code(0), {code(1), code(2), code(3)}})) [[unlikely]]
                return s.fail(errc::out_of_range, at);
        }
        return true;
    }

    template <stream S, detail::smallest_three_code_struct R>
    bool serialize_delta(S& s, R& r, const R& baseline) const noexcept {
        const std::size_t at = s.bits_processed();
        detail::smallest_three_fields base, f;
        if (!valid || !detail::smallest_three_fields_of(baseline, max_code, base)) [[unlikely]]
            return s.fail(errc::invalid_value, at);
        if constexpr (!S::is_reading)
            if (!detail::smallest_three_fields_of(r, max_code, f)) [[unlikely]] return s.fail(errc::out_of_range, at);
        bool changed = false;
        if (!detail::serialize_smallest_three_delta(s, f, base, max_code, fitted_ladder, changed)) return false;
        if constexpr (S::is_reading)
            if (!detail::store_smallest_three_fields(r, f)) [[unlikely]] return s.fail(errc::out_of_range, at);
        return true;
    }

    template <detail::smallest_three_code_struct R>
    bool unchanged(const R& r, const R& baseline) const noexcept {
        detail::smallest_three_fields x, y;
        return detail::smallest_three_fields_of(r, max_code, x) && detail::smallest_three_fields_of(baseline, max_code, y) &&
               x == y;
    }

    /// Prediction (netser::predict_linear): smallest_three's, on the codes.
    template <detail::smallest_three_code_struct R>
    void predict(R& out, const R& b0, const R& b1, const R* b2, const linear_prediction& p) const noexcept {
        detail::smallest_three_fields f0, f1, f2;
        if (!valid || !detail::smallest_three_fields_of(b0, max_code, f0) ||
            !detail::smallest_three_fields_of(b1, max_code, f1) ||
            (b2 != nullptr && !detail::smallest_three_fields_of(*b2, max_code, f2)))
            return;
        // A prediction the member types cannot hold leaves out as it is (b0), on both sides.
        (void)detail::store_smallest_three_fields(
            out, detail::predict_smallest_three(f0, f1, b2 != nullptr ? &f2 : nullptr, p, max_code));
    }

    constexpr std::size_t max_delta_bits() const noexcept {
        return 4 + 3 * (1 + max_difference_bits(max_code, ladder));
    }
};

/// unit_quaternion(bits), the form of Glazer and Madhav's "Multiplayer Game Programming"
/// (chapter 4), bits in [2, 32]: x, y, z quantized to [-1, 1] in `bits` each
/// (quantization::centered_bits: max_int = 2^bits - 2, the identity is
/// exact), then 1 bit: w is negative. The reader rebuilds |w| = sqrt(1 - x^2 - y^2 - z^2)
/// (0, with x, y, z rescaled, when that is negative). Where that rescaling would move a
/// code, the writer sends a fixed point instead, so a decoded rotation re-encodes to the
/// same bits. 3 * bits + 1 bits. A non-finite component fails the write with
/// invalid_value; code 2^bits - 1 fails the read with out_of_range.
template <>
struct detail::unit_quaternion_attr<void> { // netser::unit_quaternion
    int bits;

    constexpr explicit unit_quaternion_attr(int bits_per_component) noexcept : bits(bits_per_component) {}

    constexpr quantization params() const noexcept { return quantization::centered_bits(1.f, bits); }
    constexpr std::size_t max_bits() const noexcept { return 3 * static_cast<std::size_t>(bits) + 1; }
    constexpr auto wire() const noexcept {
        return netser::wire(wire_quantized("x", params()), wire_quantized("y", params()), wire_quantized("z", params()),
                            wire_flag("negative_w"));
    }
    static constexpr std::string_view schema_tag() noexcept { return "unit_quaternion"; }

    template <stream S, detail::quaternion_like Q>
    NETSER_INLINE bool serialize(S& s, Q& quat) const noexcept {
        const std::size_t at = s.bits_processed();
        const quantization q = params();
        if (!q.valid) [[unlikely]] return s.fail(errc::invalid_value, at);
        detail::unit_quaternion_fields f; // a read never looks at the target's old value
        if constexpr (!S::is_reading) {
            const std::array<float, 4> c = detail::to_xyzw(quat);
            if (!detail::all_finite(c)) [[unlikely]] return s.fail(errc::invalid_value, at);
            f = detail::unit_quaternion_write(c, q);
        }
        std::array<std::uint64_t, 4> fields{f.codes[0], f.codes[1], f.codes[2], f.negative_w ? 1u : 0u};
        if (!detail::serialize_fields(s, fields, {q.bits, q.bits, q.bits, 1}, {q.max_int, q.max_int, q.max_int, 1}, at))
            return false;
        if constexpr (S::is_reading) {
            const auto code = [&](std::size_t i) { return static_cast<std::uint32_t>(fields[i]); };
            detail::from_xyzw(quat, detail::unit_quaternion_decode({{code(0), code(1), code(2)}, fields[3] != 0}, q));
        }
        return true;
    }
};

} // namespace netser
