#pragma once

#include <netser/bits_required.hpp>
#include <netser/stream.hpp>

#include <cstddef>
#include <cstdint>

namespace netser {

namespace detail {

struct index_rung {
    std::int64_t lo, hi;
};

// The article's ladder for the gap between sparse indices: small gaps are cheap.
inline constexpr index_rung relative_index_rungs[] = {{2, 5}, {6, 13}, {14, 29}, {30, 61}, {62, 125}};
inline constexpr std::int64_t relative_index_last_rung = 126;

} // namespace detail

/// The next index of a sparse array as its distance from `previous` (-1 before the
/// first): d == 1 costs 1 bit; otherwise each rung of [2,5], [6,13], [14,29],
/// [30,61], [62,125] costs a flag bit and then d in its range; past them, d in
/// [126, max + 1]. `max` (the array size) is the end sentinel. Indices must strictly
/// increase and not exceed max (out_of_range). Sets previous = current. A failure
/// anywhere in the ladder is reported at its first bit.
template <stream S>
[[nodiscard]] bool serialize_relative_index(S& s, int& previous, int& current, int max) noexcept {
    const std::size_t at = s.bits_processed();
    if (max < 0 || previous < -1 || previous >= max) [[unlikely]] return s.fail(errc::invalid_value, at);
    const std::int64_t limit = std::int64_t{max} + 1; // the largest possible distance
    std::int64_t d = 0;
    if constexpr (!S::is_reading) {
        if (current <= previous || current > max) [[unlikely]] return s.fail(errc::out_of_range, at);
        d = std::int64_t{current} - previous;
    }
    // One flag per rung: set when d lies in it.
    auto flag = [&](bool in) {
        std::uint64_t bit = in ? 1u : 0u;
        const bool ok = s.process_bits(bit, 1);
        in = bit != 0;
        return ok ? (in ? 1 : 0) : -1;
    };
    auto value = [&](std::int64_t lo, std::int64_t hi) {
        const std::uint64_t span = static_cast<std::uint64_t>(hi - lo);
        std::uint64_t code = static_cast<std::uint64_t>(d - lo);
        if (!s.process_bits(code, bits_required_for_span(span))) return detail::failed_from(s, at);
        if constexpr (S::is_reading) {
            if (code > span) [[unlikely]] return s.fail(errc::out_of_range, at);
            d = lo + static_cast<std::int64_t>(code);
        }
        return true;
    };
    bool done = false;
    const int one = flag(d == 1);
    if (one < 0) return detail::failed_from(s, at);
    if (one == 1) {
        d = 1;
        done = true;
    }
    for (const auto& rung : detail::relative_index_rungs) {
        if (done) break;
        const int in = flag(d >= rung.lo && d <= rung.hi);
        if (in < 0) return detail::failed_from(s, at);
        if (in == 1) {
            if (!value(rung.lo, rung.hi)) return false;
            done = true;
        }
    }
    if (!done) {
        if (limit < detail::relative_index_last_rung) [[unlikely]] return s.fail(errc::out_of_range, at);
        if (!value(detail::relative_index_last_rung, limit)) return false;
    }
    if constexpr (S::is_reading) {
        if (std::int64_t{previous} + d > max) [[unlikely]] return s.fail(errc::out_of_range, at);
        current = static_cast<int>(previous + d);
    }
    previous = current;
    return true;
}

/// The bits serialize_relative_index takes for the distance d (1 <= d <= max + 1).
constexpr int relative_index_bits(std::int64_t d, int max) noexcept {
    if (d == 1) return 1;
    int flags = 1;
    for (const auto& rung : detail::relative_index_rungs) {
        ++flags;
        if (d <= rung.hi) return flags + bits_required_for_span(static_cast<std::uint64_t>(rung.hi - rung.lo));
    }
    return flags + bits_required_for_span(
                       static_cast<std::uint64_t>(std::int64_t{max} + 1 - detail::relative_index_last_rung));
}

/// The most bits serialize_relative_index can take for an array of `max` slots.
constexpr int relative_index_max_bits(int max) noexcept {
    const std::int64_t largest = std::int64_t{max} + 1; // the largest distance
    int worst = 1, flags = 1;                           // d == 1
    for (const auto& rung : detail::relative_index_rungs) {
        ++flags;
        if (rung.lo > largest) return worst;
        worst = flags + bits_required_for_span(static_cast<std::uint64_t>(rung.hi - rung.lo));
    }
    if (largest < detail::relative_index_last_rung) return worst;
    const int last = flags + bits_required_for_span(static_cast<std::uint64_t>(largest - detail::relative_index_last_rung));
    return last > worst ? last : worst;
}

} // namespace netser
