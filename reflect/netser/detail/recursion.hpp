#pragma once

#include <netser/description.hpp>
#include <netser/detail/type_traits.hpp>

#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>
#include <variant>

// Which types can hold themselves (trees): only those count their nesting depth.

namespace netser::detail {

/// A Target for contains_type: any struct already on the path, that is, a struct inside
/// T that holds itself (a tree somewhere in T).
struct any_cycle {};

// Whether Target can be found inside T (through members, bases and container elements).
// Folds over variable templates, not lambdas: this runs for every member of every
// struct, and a lambda per member would cost the compiler more than the rest of it.
template <class Target, class T, class... Seen>
constexpr bool contains_type() noexcept;

// Scalars and strings hold no struct: they are not looked into (no instantiation).
template <class T>
inline constexpr bool may_hold_struct = !std::is_scalar_v<T> && !is_string<T>;
template <class Target, class T, bool Look, class... Seen>
inline constexpr bool may_contain = false;
template <class Target, class T, class... Seen>
inline constexpr bool may_contain<Target, T, true, Seen...> = contains_type<Target, T, Seen...>();

template <class Target, class T, class Members, class... Seen>
inline constexpr bool members_contain = false;
template <class Target, class T, std::size_t... I, class... Seen>
inline constexpr bool members_contain<Target, T, std::index_sequence<I...>, Seen...> =
    (may_contain<Target, member_type<T, I>, may_hold_struct<member_type<T, I>>, T, Seen...> || ...);

template <class Target, class T, class Bases, class... Seen>
inline constexpr bool bases_contain = false;
template <class Target, class T, template <class...> class L, class... B, class... Seen>
inline constexpr bool bases_contain<Target, T, L<B...>, Seen...> =
    (contains_type<Target, typename B::type, T, Seen...>() || ...);

template <class Target, class T, class... Seen>
constexpr bool contains_type() noexcept {
    if constexpr (std::is_same_v<T, Target>) {
        return true;
    } else if constexpr ((std::is_same_v<T, Seen> || ...)) {
        return std::is_same_v<Target, any_cycle>;
    } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T> || is_string<T>) {
        return false;
    } else if constexpr (std::is_array_v<T>) {
        return contains_type<Target, std::remove_all_extents_t<T>, Seen...>();
    } else if constexpr (is_map<T>::value) {
        return contains_type<Target, typename T::key_type, Seen...>() ||
               contains_type<Target, typename T::mapped_type, Seen...>();
    } else if constexpr (is_std_array<T>::value || is_vector<T>::value || is_optional<T>::value || is_set<T>::value) {
        return contains_type<Target, typename T::value_type, Seen...>();
    } else if constexpr (is_unique_ptr<T>::value) {
        return contains_type<Target, typename T::element_type, Seen...>();
    } else if constexpr (is_variant<T>::value) {
        return []<class... E>(std::variant<E...>*) {
            return (contains_type<Target, E, T, Seen...>() || ...);
        }(static_cast<T*>(nullptr));
    } else if constexpr (described<T>) {
        return bases_contain<Target, T, described_bases<T>, Seen...> ||
               members_contain<Target, T, std::make_index_sequence<boost::mp11::mp_size<described_members<T>>::value>,
                               Seen...>;
    } else if constexpr (std::is_aggregate_v<T>) {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (contains_type<Target, boost::pfr::tuple_element_t<I, T>, T, Seen...>() || ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    } else {
        return false;
    }
}

// A struct that can hold itself (a tree): only such structs count their nesting depth.
template <class C>
constexpr bool is_recursive_type() noexcept {
    if constexpr (described<C>) {
        return members_contain<C, C, std::make_index_sequence<boost::mp11::mp_size<described_members<C>>::value>, C>;
    } else if constexpr (std::is_aggregate_v<C>) {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (contains_type<C, boost::pfr::tuple_element_t<I, C>, C>() || ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<C>>{});
    } else {
        return false;
    }
}

/// Whether a struct reachable from T holds itself (then T has no largest size).
template <class T>
constexpr bool reaches_recursion() noexcept {
    return contains_type<any_cycle, T>();
}

} // namespace netser::detail
