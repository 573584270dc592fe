#pragma once

#include <netser/attributes.hpp>
#include <netser/bits_required.hpp>
#include <netser/detail/misuse.hpp>
#include <netser/encodings/enum.hpp>
#include <netser/value_codes.hpp>

#include <cstddef>
#include <type_traits>

// Compile-time bounds of an encoding: the most bits a value can take (max_bits<T>())
// and the fewest (used to refuse a count whose elements cannot fit in what is left).
// The walk is here; each family's answer is in its header under netser/encodings/.

namespace netser::detail {

struct bit_bounds {
    std::size_t min = 0;
    std::size_t max = 0;
    bool bounded = true; // false when a user type states no bound
    constexpr bit_bounds operator+(bit_bounds o) const noexcept {
        return {min + o.min, max + o.max, bounded && o.bounded};
    }
};

template <std::size_t Max, bit_bounds Element>
constexpr bit_bounds counted_bounds() noexcept {
    const auto count_bits = static_cast<std::size_t>(bits_required_for_span(Max));
    return {count_bits, count_bits + Max * Element.max, Element.bounded};
}

// Each encoding family states its bounds beside its codec, as overloads on its tag
// found by argument-dependent lookup where a walk is instantiated:
//   family_bounds<P, T>(tag)    the fewest and the most bits of a value
//   family_min_bits<P, T>(tag)  the fewest bits, counting only a container's own header
//                               (count, presence bit, index), so that it stays finite
//                               for recursive types
// Fixed-width codes (bool, integers, floats, enums) are answered here from their code.
// These declarations only make the names templates; they are never chosen.
struct no_family {};
template <class P, class T>
void family_bounds(no_family) noexcept;
template <class P, class T>
void family_min_bits(no_family) noexcept;

/// The fewest and the most bits a value of type T with attributes P takes.
template <class P, class T>
constexpr bit_bounds value_bounds() noexcept {
    constexpr auto e = classify<P, T, false>();
    using E = std::remove_const_t<decltype(e)>;
    if constexpr (is_invalid<E>) {
        report_misuse<P, misuse_in<E>>();
        return {}; // no second error from the bounds
    } else if constexpr (is_fixed_width<E>) {
        const auto b = static_cast<std::size_t>(code_bits<T>(e));
        return {b, b};
    } else {
        return family_bounds<P, T>(e);
    }
}

/// The fewest bits a value can take (a container: its own header only).
template <class P, class T>
constexpr std::size_t min_bits_value() noexcept {
    constexpr auto e = classify<P, T, false>();
    using E = std::remove_const_t<decltype(e)>;
    if constexpr (is_invalid<E>) {
        report_misuse<P, misuse_in<E>>();
        return 0;
    } else if constexpr (is_fixed_width<E>) {
        return static_cast<std::size_t>(code_bits<T>(e));
    } else {
        return family_min_bits<P, T>(e);
    }
}

} // namespace netser::detail
