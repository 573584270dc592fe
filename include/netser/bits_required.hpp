#pragma once

#include <bit>
#include <cstdint>

namespace netser {

/// Bits to send any value of [0, span]: 0 when span is 0, else floor(log2(span)) + 1.
constexpr int bits_required_for_span(std::uint64_t span) noexcept {
    return 64 - std::countl_zero(span);
}

/// Bits to send an integer in [min, max] as (v - min): 0 when min == max, else
/// floor(log2(max - min)) + 1. The difference is taken modulo 2^64, so the whole
/// int64 range works without overflow (it needs 64 bits).
constexpr int bits_required(std::int64_t min, std::int64_t max) noexcept {
    return bits_required_for_span(static_cast<std::uint64_t>(max) - static_cast<std::uint64_t>(min));
}

} // namespace netser
