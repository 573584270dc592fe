#pragma once

#include <netser/attributes.hpp>
#include <netser/description.hpp>
#include <netser/detail/adl.hpp>
#include <netser/detail/struct_macros.hpp>
#include <netser/detail/type_traits.hpp>

#include <boost/mp11/algorithm.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

// Mistakes in a description, found at compile time by the classification of values
// (<netser/encoding.hpp>): a value whose type and attributes have no encoding gets an
// invalid_encoding<P, K>, K the first mistake.
//
// NETSER_STRUCT reports a member's mistake by name, at the member's line ("netser:
// Player.inventory: std::vector member needs netser::max_size(N)"), when a walk first
// meets the struct: its checks are a function template of the struct, instantiated only
// for a mistake. NETSER_CLASS checks its members where it stands, looking only at what it
// can see without the types declared after it (scalars, enums and the standard
// containers, down to their elements); a mistake inside the classes they hold, or in a
// value that is not a member of a described struct, is reported once, without a name.

namespace netser::detail {

// A class whose encoding depends on declarations that may follow the macro of a struct
// that holds it (its own description, its serialize function): the macro's checks do
// not look into it, so that they never fix the answer of a lookup too early.
template <class T>
inline constexpr bool opaque_type = (std::is_class_v<T> || std::is_union_v<T>) && !is_string<T> &&
                                    !is_vector<T>::value && !is_std_array<T>::value && !is_optional<T>::value &&
                                    !is_unique_ptr<T>::value && !is_variant<T>::value && !is_map<T>::value &&
                                    !is_set<T>::value;

/// Whether T is or holds (as elements, alternatives...) an opaque class.
template <class T>
constexpr bool holds_opaque_class() noexcept;
template <class T>
inline constexpr bool holds_opaque = holds_opaque_class<T>();
template <class T, std::size_t N>
inline constexpr bool holds_opaque<T[N]> = holds_opaque<T>;
template <class T, std::size_t N>
inline constexpr bool holds_opaque<std::array<T, N>> = holds_opaque<T>;
template <class T, class A>
inline constexpr bool holds_opaque<std::vector<T, A>> = holds_opaque<T>;
template <class T>
inline constexpr bool holds_opaque<std::optional<T>> = holds_opaque<T>;
template <class... T>
inline constexpr bool holds_opaque<std::variant<T...>> = (holds_opaque<T> || ...);
// The standard types recognised by their members (<netser/detail/type_traits.hpp>).
template <class T>
constexpr bool holds_opaque_class() noexcept {
    if constexpr (is_unique_ptr<T>::value) return holds_opaque<typename T::element_type>;
    else if constexpr (is_map<T>::value) return holds_opaque<typename T::key_type> || holds_opaque<typename T::mapped_type>;
    else if constexpr (is_set<T>::value) return holds_opaque<typename T::key_type>;
    else return opaque_type<T>;
}

/// Shallow for the part T of a value classified shallowly: only when T holds an opaque
/// class (otherwise shallow and full agree, and share one classification).
template <bool Shallow, class T>
inline constexpr bool shallow_for = false;
template <class T>
inline constexpr bool shallow_for<true, T> = holds_opaque<T>;

template <class T>
inline constexpr bool has_optional_elements = false;
template <class E, std::size_t N>
inline constexpr bool has_optional_elements<std::array<std::optional<E>, N>> = true;
template <class E, class A>
inline constexpr bool has_optional_elements<std::vector<std::optional<E>, A>> = true;

// An attribute used without its header (<netser/detail/attribute_hints.hpp>) said so.
template <class... A>
constexpr bool missing_header(const attr_pack<A...>*) noexcept {
    return (requires { A::netser_missing_header; } || ...);
}
template <class A, bool = A::has_user()>
inline constexpr bool missing_header_in = false;
template <class A>
inline constexpr bool missing_header_in<A, true> = missing_header(static_cast<const A*>(nullptr));

// Whether every netser::common value fits the integer type T.
template <class T, class V, std::size_t N>
constexpr bool common_fits(const common_attr<V, N>& c) noexcept {
    if constexpr (!std::is_integral_v<V>) {
        return false;
    } else {
        for (V x : c.values)
            if (!std::in_range<T>(x)) return false;
        return true;
    }
}

// Index of the described member of C that `flag` points to (N when it is not one).
template <class C, class F>
constexpr std::size_t flag_index(F flag) noexcept {
    std::size_t index = boost::mp11::mp_size<described_members<C>>::value, i = 0;
    boost::mp11::mp_for_each<described_members<C>>([&](auto d) {
        if constexpr (std::is_same_v<std::remove_const_t<decltype(d.pointer)>, F>)
            if (d.pointer == flag) index = i;
        ++i;
    });
    return index;
}

// A member's attributes for its value, without those about the member (only_if,
// check): the same provider as the walk's, so that nothing is classified twice.
template <class P>
using value_provider = std::conditional_t<has_attr<P, attr_kind::only_if> || has_attr<P, attr_kind::check>,
                                          without<P, attr_kind::only_if, attr_kind::check>, P>;

/// A mistake K in the attributes P of a value: the walks report it where they meet it
/// (report_misuse) and add no error of their own.
template <class P, misuse K>
struct invalid_encoding {};
/// A class that a shallow classification (member_misuse_at) does not look into.
struct unchecked_encoding {};

/// The mistake an encoding stands for (none for a valid one).
template <class E>
inline constexpr misuse misuse_in = misuse::none;
template <class P, misuse K>
inline constexpr misuse misuse_in<invalid_encoding<P, K>> = K;
/// Whether an encoding stands for a mistake. (Tests written per member ask this rather
/// than compare misuse_in with misuse::none: comparing enums in a template costs the
/// compiler an overload resolution each time.)
template <class E>
inline constexpr bool is_invalid = false;
template <class P, misuse K>
inline constexpr bool is_invalid<invalid_encoding<P, K>> = true;

/// How a value of type T with attributes P goes on the wire, or invalid_encoding<P, K>
/// for its first mistake K (<netser/encoding.hpp>).
template <class P, class T, bool Shallow>
constexpr auto classify() noexcept;

/// The mistake of member I of C in what its description shows without looking into
/// classes (none until C's description compiles). Defined in <netser/classify.hpp>.
template <class C, std::size_t I>
constexpr misuse member_misuse_at() noexcept;

/// Reports mistake K found in attributes P, unless NETSER_STRUCT already named it (true).
template <class P, misuse K>
constexpr bool report_misuse() noexcept;

// The member whose attributes a provider holds (owner void for other providers).
template <class P>
struct provider_member {
    using owner = void;
    static constexpr std::size_t index = 0;
};
template <class C, std::size_t I>
struct provider_member<member_attrs<C, I>> {
    using owner = C;
    static constexpr std::size_t index = I;
};
template <class P, attr_kind... K>
struct provider_member<without<P, K...>> : provider_member<P> {};

} // namespace netser::detail
