#pragma once

#include <netser/attributes.hpp>
#include <netser/detail/type_traits.hpp>

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
    slot_list<Packs...> members; // one attr_pack per described member, in order
};

template <class C, class... Packs>
constexpr description<C, Packs...> make_description(std::string_view name, Packs... packs) noexcept {
    return {name, {{packs}...}};
}

template <class C>
concept described = requires { netser_description(static_cast<C**>(nullptr)); };

// The macro was placed for C (in C's namespace), whether or not its attributes compile.
template <class C>
concept marked = requires { netser_struct_marker(static_cast<C**>(nullptr)); };
template <class C>
constexpr bool is_marked() noexcept {
    return marked<C>;
}

// Computed once per struct. The lists are the ones the NETSER_ macros have Boost.Describe
// write (data members, in order, public, protected then private; direct bases), read
// as they are: describe_members / describe_bases would filter them by modifiers, which
// makes the compiler work out every descriptor's modifiers (about a tenth of the front
// end's allocations on tests/benchmarks/compile_budget.py's file) to keep every one.
template <class C>
struct description_lists {
    using members = boost::mp11::mp_append<decltype(boost_public_member_descriptor_fn(static_cast<C**>(nullptr))),
                                           decltype(boost_protected_member_descriptor_fn(static_cast<C**>(nullptr))),
                                           decltype(boost_private_member_descriptor_fn(static_cast<C**>(nullptr)))>;
    using bases = decltype(boost_base_descriptor_fn(static_cast<C**>(nullptr)));
};
template <class C>
using described_members = typename description_lists<C>::members;
template <class C>
using described_bases = typename description_lists<C>::bases;

template <class C>
inline constexpr auto description_of = netser_description(static_cast<C**>(nullptr));

/// T's name in error paths and profiles: a described struct's name as its macro spells
/// it, an arithmetic type's wire name ("uint16", as the schema names it), else the
/// type's name as the compiler spells it.
template <class T>
constexpr std::string_view value_name() noexcept {
    if constexpr (described<T>) return description_of<T>.name;
    else if constexpr (std::is_arithmetic_v<T>) return wire_scalar_name<T>();
    else return type_name<T>();
}

// Element I of a type list by deduction against indexed bases: one cheap step, where
// mp11's mp_at_c (without the __type_pack_element builtin, as on GCC 12) builds a map
// per lookup. (attr_pack's slot_list finds values the same way; its slots hold data,
// and looking types up through it cost the front end slightly more.)
template <std::size_t I, class T>
struct indexed_leaf {};
template <class Indices, class... T>
struct indexed_list;
template <std::size_t... I, class... T>
struct indexed_list<std::index_sequence<I...>, T...> : indexed_leaf<I, T>... {};
template <std::size_t I, class T>
T element_of(const indexed_leaf<I, T>*);
template <class L>
struct indexed_of;
template <template <class...> class L, class... T>
struct indexed_of<L<T...>> {
    using type = indexed_list<std::index_sequence_for<T...>, T...>;
};
template <class L, std::size_t I>
using list_element = decltype(element_of<I>(static_cast<const typename indexed_of<L>::type*>(nullptr)));

// Described member I of C: its Boost.Describe descriptor and its type, looked up once.
template <class C, std::size_t I>
struct member_lookup {
    using descriptor = list_element<described_members<C>, I>;
    using type = std::remove_cvref_t<decltype(std::declval<C&>().*descriptor::pointer)>;
};
template <class C, std::size_t I>
using member_at = typename member_lookup<C, I>::descriptor;
template <class C, std::size_t I>
using member_type = typename member_lookup<C, I>::type;

// The attributes of member I of C, as a provider usable in constant expressions.
template <class C, std::size_t I>
struct member_attrs {
    static constexpr auto value = slot_get<I>(description_of<C>.members);
};

template <class C, class L = described_members<C>>
inline constexpr bool has_array_member = false;
template <class C, template <class...> class L, class... D>
inline constexpr bool has_array_member<C, L<D...>> =
    (std::is_array_v<std::remove_cvref_t<decltype(std::declval<C&>().*D::pointer)>> || ...);

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
    } else if constexpr (has_array_member<C>) {
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

// The macros: NETSER_STRUCT, NETSER_DERIVED_STRUCT and NETSER_CLASS.
#include <netser/detail/struct_macros.hpp>
// What they check for each member.
#include <netser/detail/misuse.hpp>
