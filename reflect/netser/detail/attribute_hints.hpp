#pragma once

#include <netser/detail/type_traits.hpp>

// The attributes that <netser/quaternion.hpp> and <netser/unit_vector.hpp> define are
// declared here, with every other attribute, so that using one without its header says
// which header to include. Each header defines the specialization for void.

namespace netser {
namespace detail {

template <class Header = void>
struct smallest_three_attr {
    static_assert(always_false<Header>, "netser: netser::smallest_three needs #include <netser/quaternion.hpp>");
    static constexpr bool netser_missing_header = true;
    template <class... A>
    constexpr explicit smallest_three_attr(A&&...) noexcept {}
};

template <class Header = void>
struct unit_quaternion_attr {
    static_assert(always_false<Header>, "netser: netser::unit_quaternion needs #include <netser/quaternion.hpp>");
    static constexpr bool netser_missing_header = true;
    template <class... A>
    constexpr explicit unit_quaternion_attr(A&&...) noexcept {}
};

template <class Header = void>
struct unit_vector_attr {
    static_assert(always_false<Header>, "netser: netser::unit_vector needs #include <netser/unit_vector.hpp>");
    static constexpr bool netser_missing_header = true;
    template <class... A>
    constexpr explicit unit_vector_attr(A&&...) noexcept {}
};

} // namespace detail

/// Rotations, in <netser/quaternion.hpp>.
using smallest_three = detail::smallest_three_attr<>;
using unit_quaternion = detail::unit_quaternion_attr<>;
/// Directions, in <netser/unit_vector.hpp>.
using unit_vector = detail::unit_vector_attr<>;

} // namespace netser
