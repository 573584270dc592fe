#pragma once

#include <cstdint>

// The linear extrapolation of codes that predicted delta packets send their members
// against (netser::predict_linear; the walk over a value is <netser/prediction.hpp>).
// Integer arithmetic only: writer and reader predict the same code on every host.

namespace netser {

/// Where the baselines of a prediction lie, in sequence numbers: `ahead` from the newest
/// baseline to the packet (>= 1), `span` from the second newest to the newest (>= 1;
/// 0: one baseline, nothing is extrapolated), `span2` from the third to the second
/// (0: no third baseline).
struct prediction_spacing {
    std::uint32_t ahead = 1;
    std::uint32_t span = 0;
    std::uint32_t span2 = 0;
};

/// The extrapolation of one member's codes, for codecs with codes of their own (a user
/// attribute's predict(out, b0, b1, b2, prediction) calls code() per code).
struct linear_prediction {
    /// value * times / over, rounded to the nearest, halves away from zero. |value| <
    /// 2^38, times and over below 2^22: no overflow.
    static constexpr std::int64_t rounded_ratio(std::int64_t value, std::uint32_t times, std::uint32_t over) noexcept {
        const std::int64_t x = value * static_cast<std::int64_t>(times), y = over;
        return x >= 0 ? (2 * x + y) / (2 * y) : -((-2 * x + y) / (2 * y));
    }

    prediction_spacing spacing;
    int numerator = 1;
    int denominator = 1;

    /// The predicted code of [0, max_code] from the newest baseline's c0, the second's
    /// c1 and the third's *c2 (nullptr: none): c0 + round(step * ahead / span * gain),
    /// step = c0 - c1, rounded half away from zero, clamped to [0, max_code]. With a
    /// third code, a step against the direction of the one before it (a bounce, a turn)
    /// predicts c0. Codes and max_code are below 2^32.
    constexpr std::uint64_t code(std::uint64_t c0, std::uint64_t c1, const std::uint64_t* c2,
                                 std::uint64_t max_code) const noexcept {
        const std::int64_t step = static_cast<std::int64_t>(c0) - static_cast<std::int64_t>(c1);
        if (step == 0 || spacing.span == 0) return c0;
        if (c2 != nullptr && spacing.span2 != 0) {
            // The same extrapolation one interval earlier, from c2 and c1 to c0: when it
            // missed c0 by as much as holding c1 would have, motion is not linear here.
            const std::int64_t earlier = static_cast<std::int64_t>(c1) +
                                         rounded_ratio(static_cast<std::int64_t>(c1) - static_cast<std::int64_t>(*c2),
                                                       spacing.span, spacing.span2);
            const std::int64_t miss = static_cast<std::int64_t>(c0) - earlier;
            if ((miss < 0 ? -miss : miss) >= (step < 0 ? -step : step)) return c0;
        }
        const std::int64_t p = static_cast<std::int64_t>(c0) +
                               rounded_ratio(step * numerator, spacing.ahead, spacing.span * static_cast<std::uint32_t>(denominator));
        if (p < 0) return 0;
        if (static_cast<std::uint64_t>(p) > max_code) return max_code;
        return static_cast<std::uint64_t>(p);
    }
};

} // namespace netser
