#pragma once

#include <netser/bits_required.hpp>
#include <netser/detail/config.hpp>
#include <netser/stream.hpp>

#include <cstddef>
#include <cstdint>

// A code sent as its difference from a baseline's code (delta compression): small
// differences take few bits, through a short ladder of ranges; the rest take the
// absolute code. docs/wire_format.md, "Delta", gives the wire.

namespace netser {

/// The rungs of a difference ladder: rung j covers the magnitudes |code - base| in
/// [limit[j - 1] + 1, limit[j]] (limit[-1] = 0); the limits strictly increase.
struct difference_ladder {
    static constexpr int max_rungs = 4;
    std::uint64_t limit[max_rungs] = {};
    int rungs = 0;

    /// False for more than max_rungs limits, a zero limit or limits that do not increase.
    constexpr bool valid() const noexcept {
        if (rungs < 0 || rungs > max_rungs) return false;
        for (int j = 0; j < rungs; ++j)
            if (limit[j] == 0 || (j > 0 && limit[j] <= limit[j - 1])) return false;
        return true;
    }

    /// The same rungs (the limits past `rungs` do not count).
    constexpr bool same_rungs(const difference_ladder& other) const noexcept {
        if (rungs != other.rungs) return false;
        for (int j = 0; j < rungs; ++j)
            if (limit[j] != other.limit[j]) return false;
        return true;
    }
};

/// The default ladder: differences up to 1, 16, 256 and 4096 steps, for members whose
/// typical change is unknown. Where it is known, measure and set the member's own with
/// delta_ladder: on the snapshot demo's recording, `delta_recording FILE --fit` finds
/// 32, 64, 128, 256 for positions in 1/512 m and 2, 4, 8, 32 for 9-bit rotation codes.
inline constexpr difference_ladder default_difference_ladder{{1, 16, 256, 4096}, 4};

namespace detail {

/// One rung as the wire uses it: magnitudes [lo, hi] in `bits` bits after its flag and sign.
struct ladder_rung {
    std::uint64_t lo = 0, hi = 0;
    int bits = 0;
};

/// The ladder for codes in [0, max_code]: rungs past max_code are cut, and only the
/// rungs cheaper than the absolute code are kept (a flag per rung is the price of
/// the fallback), so a narrow code is never sent in more bits than it has.
struct effective_ladder {
    ladder_rung rung[difference_ladder::max_rungs];
    int rungs = 0;
    int code_bits = 0;

    constexpr effective_ladder() noexcept = default;
    constexpr effective_ladder(const difference_ladder& l, std::uint64_t max_code) noexcept
        : code_bits(bits_required_for_span(max_code)) {
        int usable = 0;
        std::uint64_t lo = 1;
        for (int j = 0; j < l.rungs && lo <= max_code; ++j) {
            const std::uint64_t hi = l.limit[j] < max_code ? l.limit[j] : max_code;
            rung[usable++] = {lo, hi, bits_required_for_span(hi - lo)};
            if (hi == max_code) break;
            lo = hi + 1;
        }
        // The largest k such that each of the first k rungs costs less than the fallback.
        for (int k = usable; k >= 0; --k) {
            bool cheaper = true;
            for (int j = 0; j < k; ++j) cheaper = cheaper && j + 2 + rung[j].bits < k + code_bits;
            if (cheaper) {
                rungs = k;
                break;
            }
        }
    }

    /// Bits of a difference between two codes (differing) of [0, max_code].
    constexpr int cost(std::uint64_t code, std::uint64_t base) const noexcept {
        const std::uint64_t m = code > base ? code - base : base - code;
        for (int j = 0; j < rungs; ++j)
            if (m >= rung[j].lo && m <= rung[j].hi) return j + 2 + rung[j].bits;
        return rungs + code_bits;
    }
    /// The most bits a difference can take.
    constexpr int max_cost() const noexcept {
        int worst = rungs + code_bits;
        for (int j = 0; j < rungs; ++j)
            if (j + 2 + rung[j].bits > worst) worst = j + 2 + rung[j].bits;
        return worst;
    }
};

} // namespace detail

namespace detail {

// The wire of serialize_code_difference with the ladder already fitted to the range
// (the reflection layer fits it at compile time).
template <stream S>
[[nodiscard]] NETSER_INLINE bool serialize_difference(S& s, std::uint64_t& code, std::uint64_t base, std::uint64_t max_code,
                                        const effective_ladder& l) noexcept {
    const std::size_t at = s.bits_processed();
    if (base > max_code) [[unlikely]] return s.fail(errc::invalid_value, at);
    if constexpr (!S::is_reading)
        if (code > max_code) [[unlikely]] return s.fail(errc::out_of_range, at);
    if (max_code == 1) {
        code = 1 - base;
        return true;
    }
    std::uint64_t m = code > base ? code - base : base - code;
    for (int j = 0; j < l.rungs; ++j) {
        const ladder_rung& r = l.rung[j];
        std::uint64_t in = m >= r.lo && m <= r.hi ? 1u : 0u;
        if (!s.process_bits(in, 1)) return failed_from(s, at);
        if (in == 0) continue;
        std::uint64_t negative = code < base ? 1u : 0u;
        std::uint64_t offset = m - r.lo;
        if (!s.process_bits(negative, 1) || !s.process_bits(offset, r.bits)) return failed_from(s, at);
        if constexpr (S::is_reading) {
            m = r.lo + offset;
            if (offset > r.hi - r.lo || (negative != 0 ? m > base : m > max_code - base)) [[unlikely]]
                return s.fail(errc::out_of_range, at);
            code = negative != 0 ? base - m : base + m;
        }
        return true;
    }
    if (!s.process_bits(code, l.code_bits)) return failed_from(s, at);
    if constexpr (S::is_reading)
        if (code > max_code) [[unlikely]] return s.fail(errc::out_of_range, at);
    return true;
}

} // namespace detail

/// The most bits serialize_code_difference takes for codes of [0, max_code] (for the
/// max_delta_bits of a user codec).
constexpr std::size_t max_difference_bits(std::uint64_t max_code,
                                          const difference_ladder& ladder = default_difference_ladder) noexcept {
    if (max_code <= 1) return 0;
    return static_cast<std::size_t>(detail::effective_ladder(ladder, max_code).max_cost());
}

/// A code of [0, max_code] that differs from `base` (a code of the same range both
/// sides hold). For max_code 1 the other code is implied: no bits. Otherwise, for each
/// rung in turn a flag bit, set in the rung that holds |code - base|, then a sign bit
/// (set when code < base) and |code - base| - lo in bits_required(lo, hi) bits; after
/// as many clear flags as there are rungs, the code itself in bits_required(0, max_code)
/// bits. Rungs past max_code are cut and only rungs cheaper than the fallback are kept.
/// Reading a difference that leaves [0, max_code], or a code above max_code, fails with
/// out_of_range at the first bit; base above max_code or an invalid ladder fail with
/// invalid_value.
template <stream S>
[[nodiscard]] bool serialize_code_difference(S& s, std::uint64_t& code, std::uint64_t base, std::uint64_t max_code,
                               const difference_ladder& ladder = default_difference_ladder) noexcept {
    if (!ladder.valid()) [[unlikely]] return s.fail(errc::invalid_value, s.bits_processed());
    return detail::serialize_difference(s, code, base, max_code, detail::effective_ladder(ladder, max_code));
}

} // namespace netser
