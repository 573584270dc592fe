#pragma once

#include <netser/attributes.hpp>
#include <netser/detail/preprocessor.hpp>

#include <boost/describe/bases.hpp>
#include <boost/describe/class.hpp>
#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>

#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

// NETSER_STRUCT & co.: Boost.Describe's description of a struct plus netser's table of
// member attributes, found by argument-dependent lookup like Boost.Describe's own.

namespace netser::detail {

template <class C, class... Packs>
struct description {
    std::string_view name;
    std::tuple<Packs...> members; // one attr_pack per described member, in order
};

template <class C, class... Packs>
constexpr description<C, Packs...> make_description(std::string_view name, Packs... packs) noexcept {
    return {name, {packs...}};
}

template <class C>
concept described = requires { netser_description(static_cast<C**>(nullptr)); };

template <class C>
using described_members = boost::describe::describe_members<C, boost::describe::mod_any_access>;
template <class C>
using described_bases = boost::describe::describe_bases<C, boost::describe::mod_any_access>;

template <class C>
inline constexpr auto description_of = netser_description(static_cast<C**>(nullptr));

// The type of described member I of C.
template <class C, std::size_t I>
using member_type =
    std::remove_cvref_t<decltype(std::declval<C&>().*boost::mp11::mp_at_c<described_members<C>, I>::pointer)>;

// The attributes of member I of C, as a provider usable in constant expressions.
template <class C, std::size_t I>
struct member_attrs {
    static constexpr auto value = std::get<I>(description_of<C>.members);
};

template <class C>
constexpr bool has_array_member() noexcept {
    bool any = false;
    boost::mp11::mp_for_each<described_members<C>>([&](auto d) {
        if (std::is_array_v<std::remove_cvref_t<decltype(std::declval<C&>().*d.pointer)>>) any = true;
    });
    return any;
}

// Converts to any member type (a prvalue, so move-only members take it too); only
// named inside unevaluated braces.
struct any_member {
    template <class M>
    operator M() const noexcept;
};

template <class C, std::size_t... I>
constexpr bool brace_initializable(std::index_sequence<I...>) noexcept {
    return requires { C{(static_cast<void>(I), any_member{})...}; };
}

// Whether aggregate C has more than N members: C{x1, ..., xN+1} compiles. One probe,
// where counting the members outright (Boost.PFR) tries many sizes.
template <class C, std::size_t N>
constexpr bool has_more_members_than() noexcept {
    return brace_initializable<C>(std::make_index_sequence<N + 1>{});
}

template <class C>
constexpr bool lists_every_member() noexcept {
    constexpr std::size_t listed = boost::mp11::mp_size<described_members<C>>::value;
    if constexpr (!std::is_aggregate_v<C> || boost::mp11::mp_size<described_bases<C>>::value != 0) {
        return true; // only aggregates without bases can be counted
    } else if constexpr (has_array_member<C>()) {
        // Brace elision spreads the initializers over a C array's elements.
        return true;
    } else {
        return !has_more_members_than<C, listed>();
    }
}

// Only once the description is found: otherwise the static_assert above is the one error.
template <class C>
constexpr bool lists_every_member_if_described() noexcept {
    if constexpr (described<C>) return lists_every_member<C>();
    else return true;
}

} // namespace netser::detail

#define NETSER_PP_UNPACK(...) __VA_OPT__(, ) __VA_ARGS__
#define NETSER_PP_COMMA_NAME(a, x) , NETSER_PP_MEMBER_NAME(x)
#define NETSER_PP_COMMA_ATTRS(a, x) , ::netser::detail::make_attr_pack(NETSER_PP_MEMBER_ATTRS(x))

/// Describes struct T for netser: NETSER_STRUCT(T, a, (b, netser::range(0, 9)), ...).
/// Place it after T, at namespace scope, in T's namespace.
#define NETSER_STRUCT(T, ...) NETSER_DERIVED_STRUCT(T, () __VA_OPT__(, ) __VA_ARGS__)

/// Like NETSER_STRUCT for a struct with bases: NETSER_DERIVED_STRUCT(T, (Base), members...).
#define NETSER_DERIVED_STRUCT(T, Bases, ...)                                                             \
    NETSER_PP_CAT(NETSER_DETAIL_STRUCT_, NETSER_PP_OVER_LIMIT(__VA_ARGS__))(T, Bases __VA_OPT__(, ) __VA_ARGS__)

#define NETSER_DETAIL_STRUCT_1(T, ...)                                                                   \
    static_assert(sizeof(T) == 0, "netser: at most 52 members per NETSER_STRUCT (the limit of "          \
                                  "Boost.Describe); group members into nested described structs");

#define NETSER_DETAIL_STRUCT_0(T, Bases, ...)                                                            \
    static_assert(std::is_class_v<T>, "netser: NETSER_STRUCT takes a struct or class type");             \
    BOOST_DESCRIBE_MAYBE_UNUSED BOOST_DESCRIBE_BASES_(T NETSER_PP_UNPACK Bases)                          \
    BOOST_DESCRIBE_MAYBE_UNUSED BOOST_DESCRIBE_PUBLIC_MEMBERS_(                                          \
        T NETSER_PP_FOR_EACH(NETSER_PP_COMMA_NAME, ~ __VA_OPT__(, ) __VA_ARGS__))                        \
    BOOST_DESCRIBE_MAYBE_UNUSED BOOST_DESCRIBE_PROTECTED_MEMBERS_(T)                                     \
    BOOST_DESCRIBE_MAYBE_UNUSED BOOST_DESCRIBE_PRIVATE_MEMBERS_(T)                                       \
    [[maybe_unused]] inline constexpr auto netser_description(T**) noexcept {                            \
        return ::netser::detail::make_description<T>(                                                    \
            #T NETSER_PP_FOR_EACH(NETSER_PP_COMMA_ATTRS, ~ __VA_OPT__(, ) __VA_ARGS__));                 \
    }                                                                                                    \
    [[maybe_unused]] inline void netser_check_description(T**) noexcept {                                \
        static_assert(::netser::detail::described<T>,                                                    \
                      "netser: NETSER_STRUCT(" #T ", ...) must be placed in the namespace that declares " #T); \
        static_assert(::netser::detail::lists_every_member_if_described<T>(),                            \
                      "netser: NETSER_STRUCT(" #T ", ...) does not list every member of " #T             \
                      "; add the missing ones (mark those not to send with netser::skip)");              \
    }

/// Inside a class, to describe its private members: NETSER_CLASS(T, a, (b, attrs...)).
/// Boost.Describe sees every listed member as private.
#define NETSER_CLASS(T, ...) NETSER_PP_CAT(NETSER_DETAIL_CLASS_, NETSER_PP_OVER_LIMIT(__VA_ARGS__))(T __VA_OPT__(, ) __VA_ARGS__)

#define NETSER_DETAIL_CLASS_1(T, ...) NETSER_DETAIL_STRUCT_1(T)

#define NETSER_DETAIL_CLASS_0(T, ...)                                                                    \
    BOOST_DESCRIBE_MAYBE_UNUSED friend BOOST_DESCRIBE_BASES_(T)                                          \
    BOOST_DESCRIBE_MAYBE_UNUSED friend BOOST_DESCRIBE_PUBLIC_MEMBERS_(T)                                 \
    BOOST_DESCRIBE_MAYBE_UNUSED friend BOOST_DESCRIBE_PROTECTED_MEMBERS_(T)                              \
    BOOST_DESCRIBE_MAYBE_UNUSED friend BOOST_DESCRIBE_PRIVATE_MEMBERS_(                                  \
        T NETSER_PP_FOR_EACH(NETSER_PP_COMMA_NAME, ~ __VA_OPT__(, ) __VA_ARGS__))                        \
    [[maybe_unused]] friend constexpr auto netser_description(T**) noexcept {                            \
        return ::netser::detail::make_description<T>(                                                    \
            #T NETSER_PP_FOR_EACH(NETSER_PP_COMMA_ATTRS, ~ __VA_OPT__(, ) __VA_ARGS__));                 \
    }
