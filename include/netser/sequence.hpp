#pragma once

#include <cstdint>

// 16-bit sequence numbers for snapshots, as delta packets carry them. They wrap: after
// 65535 comes 1, because 0 names the initial baseline that both sides hold from the
// start (an empty world or a shared start state), never a snapshot. Which of two
// numbers is newer is decided over half the circle, as in Glenn Fiedler's "Reliability
// and Congestion Avoidance over UDP": valid while the two are less than 32768 apart.

namespace netser {

/// The sequence number of the initial baseline: never a snapshot's.
inline constexpr std::uint16_t initial_sequence = 0;

/// The snapshot sequence number after s: s + 1, skipping initial_sequence on wrap-around.
constexpr std::uint16_t next_sequence(std::uint16_t s) noexcept {
    const auto n = static_cast<std::uint16_t>(s + 1);
    return n == initial_sequence ? static_cast<std::uint16_t>(n + 1) : n;
}

/// Whether a comes after b on the 16-bit circle (false when equal).
constexpr bool sequence_newer(std::uint16_t a, std::uint16_t b) noexcept {
    const auto forward = static_cast<std::uint16_t>(a - b);
    return forward != 0 && forward < 0x8000u;
}

/// How many steps b is behind a (a - b on the 16-bit circle).
constexpr std::uint16_t sequence_distance(std::uint16_t a, std::uint16_t b) noexcept {
    return static_cast<std::uint16_t>(a - b);
}

} // namespace netser
