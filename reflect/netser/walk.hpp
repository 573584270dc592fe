#pragma once

// The walks over a value: write / read / measure (serialize_value) and the delta
// (serialize_delta_value, same_value), each a dispatch on the value's classified
// encoding to the family that encodes it. The walks know no family; the families are
// the headers under netser/encodings/, each holding everything about its encoding
// (classification rule, codec, delta, sameness, bounds, schema node):
//
//   encodings/scalar.hpp     fixed-width codes (bool, integers, floats), common, finite
//   encodings/enum.hpp       described and undescribed enums
//   encodings/container.hpp  strings, arrays, vectors, maps and sets
//   encodings/keyed.hpp      deltas by key: maps, sets and netser::keyed vectors
//   encodings/optional.hpp   std::optional, std::unique_ptr, std::variant
//   encodings/sparse.hpp     netser::sparse arrays of optionals
//   encodings/struct.hpp     described structs (bases, members with skip / only_if /
//                            check, packed runs) and plain aggregates
//   encodings/user.hpp       user attributes and user types with their own serialize
//
// (The rotation and direction codecs, quaternion.hpp and unit_vector.hpp, and
// linking.hpp are user attributes: they use the protocol users have.)
// The public entry points over these walks are in <netser/reflect.hpp>.

#include <netser/attributes.hpp>
#include <netser/classify.hpp>
#include <netser/description.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/difference_ladder.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/protocol.hpp>

#include <boost/pfr/core.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <variant>

namespace netser::detail {

template <class P, stream S, class T>
NETSER_INLINE bool serialize_value(S& s, T& v) {
    return apply_encoding(s, v, encoding_v<P, T>);
}

// ---- delta --------------------------------------------------------------------------

// Whether a and b hold the same bytes in every value they contain, so that they write
// the same bits; false: not known. Padding and a disengaged optional's storage are left
// out: they are no values and may be uninitialised (valgrind would rightly flag a branch
// on them, and the answer would depend on them).
template <class T>
NETSER_INLINE bool bitwise_equal(const T& a, const T& b) noexcept {
    if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) { // one comparison, not a call to memcmp
        return a == b;
    } else if constexpr (std::is_same_v<T, float>) {
        return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
    } else if constexpr (std::is_same_v<T, double>) {
        return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
    } else if constexpr (std::has_unique_object_representations_v<T>) {
        return std::memcmp(static_cast<const void*>(&a), static_cast<const void*>(&b), sizeof(T)) == 0;
    } else if constexpr (!std::is_trivially_copyable_v<T>) {
        return false; // strings, containers: their encodings decide
    } else if constexpr (std::is_array_v<T> || is_std_array<T>::value) {
        const auto* ad = array_data(a);
        const auto* bd = array_data(b);
        for (std::size_t i = 0; i < array_size<T>(); ++i)
            if (!bitwise_equal(ad[i], bd[i])) return false;
        return true;
    } else if constexpr (is_optional<T>::value) {
        return a.has_value() == b.has_value() && (!a || bitwise_equal(*a, *b));
    } else if constexpr (described<T>) {
        bool equal = true;
        boost::mp11::mp_for_each<described_bases<T>>([&](auto d) {
            using B = typename decltype(d)::type;
            equal = equal && bitwise_equal(static_cast<const B&>(a), static_cast<const B&>(b));
        });
        return equal && [&]<std::size_t... I>(std::index_sequence<I...>) {
            return (bitwise_equal(a.*member_at<T, I>::pointer, b.*member_at<T, I>::pointer) && ...);
        }(member_indices<T>{});
    } else if constexpr (std::is_aggregate_v<T>) {
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            return (bitwise_equal(boost::pfr::get<I>(a), boost::pfr::get<I>(b)) && ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    } else {
        return false;
    }
}

// Bitwise equal values write the same bits (a value at rest, compared with the baseline
// it was received as): that is decided without encoding either. (An equal value is not
// checked again: the baseline is a value a reader accepted.)
template <class P, class T>
bool same_value(const T& v, const T& b) {
    if (bitwise_equal(v, b)) return true;
    return same_encoded(v, b, encoding_v<P, T>);
}

template <class P>
constexpr difference_ladder ladder_of() noexcept {
    if constexpr (has_attr<P, attr_kind::delta_ladder>) return P::value.template get<attr_kind::delta_ladder>().ladder;
    else return default_difference_ladder;
}

// A family whose values hold codes of their own (a vector of codes) fits the ladder to
// them with family_delta_params<T>(ladder, tag); the others send no code differences.
// This declaration only makes the name a template; it is never chosen.
struct no_delta_params_family {};
template <class T>
delta_params family_delta_params(const difference_ladder&, no_delta_params_family) noexcept;

// The ladder of T's codes (or of what its family holds), at compile time.
template <class P, class T>
constexpr delta_params delta_params_of() noexcept {
    constexpr difference_ladder ladder = ladder_of<P>();
    using E = encoding_t<P, T>;
    if constexpr (!ladder.valid()) {
        return {}; // NETSER_STRUCT reported it, by the member's name
    } else if constexpr (is_fixed_width<E>) {
        return {effective_ladder(ladder, code_max<T>(encoding_v<P, T>))};
    } else if constexpr (requires { family_delta_params<T>(ladder, encoding_v<P, T>); }) {
        return family_delta_params<T>(ladder, encoding_v<P, T>);
    } else {
        return {};
    }
}
template <class P, class T>
inline constexpr delta_params delta_params_v = delta_params_of<P, T>();

template <class P, stream S, class T>
bool delta_body(S& s, T& v, const T& b) {
    return apply_delta(s, v, b, encoding_v<P, T>, delta_params_v<P, T>);
}

template <class P, stream S, class T>
bool serialize_delta_value(S& s, T& v, const T& b) {
    constexpr bool whole = has_attr<P, attr_kind::delta_whole>;
    if constexpr (!S::is_reading) {
        return write_delta_value<P>(s, v, b) != delta_written::failed;
    } else if constexpr (!whole && has_own_delta<P, S, T>()) {
        return own_delta<P>(s, v, b);
    } else {
        using VP = std::conditional_t<whole, without<P, attr_kind::delta_whole>, P>;
        bool changed = false;
        if (!serialize_bool(s, changed)) return false;
        if (!changed) {
            copy_value(v, b);
            return true;
        }
        if constexpr (whole) return serialize_value<VP>(s, v);
        else return delta_body<VP>(s, v, b);
    }
}

template <class P, stream S, class T>
NETSER_INLINE delta_written write_delta_value(S& s, T& v, const T& b) {
    constexpr bool whole = has_attr<P, attr_kind::delta_whole>;
    if constexpr (!whole && has_own_delta<P, S, T>()) {
        return own_delta<P>(s, v, b) ? delta_written::unknown : delta_written::failed;
    } else if constexpr (!whole && requires { write_changed(s, v, b, encoding_v<P, T>, delta_params_v<P, T>); }) {
        return write_changed(s, v, b, encoding_v<P, T>, delta_params_v<P, T>);
    } else {
        using VP = std::conditional_t<whole, without<P, attr_kind::delta_whole>, P>;
        bool changed = !same_value<VP>(v, b);
        if (!serialize_bool(s, changed)) return delta_written::failed;
        if (!changed) return delta_written::unchanged;
        bool ok;
        if constexpr (whole) ok = serialize_value<VP>(s, v);
        else ok = delta_body<VP>(s, v, b);
        return ok ? delta_written::changed : delta_written::failed;
    }
}

template <class P, class T>
constexpr bit_bounds delta_body_bounds() noexcept {
    return delta_bounds<T>(encoding_v<P, T>, delta_params_v<P, T>);
}

template <class P, class T>
constexpr bit_bounds delta_value_bounds() noexcept {
    constexpr bool whole = has_attr<P, attr_kind::delta_whole>;
    if constexpr (!whole && has_own_delta<P, measure_stream, T>()) {
        return own_delta_bounds<P, T>();
    } else if constexpr (whole) {
        return bit_bounds{0, 1} + value_bounds<without<P, attr_kind::delta_whole>, T>();
    } else {
        return bit_bounds{0, 1} + delta_body_bounds<P, T>();
    }
}

// A member with skip, only_if or check: its value's encoding (a skipped one has none).
struct skipped_value {};
template <class C, std::size_t I>
constexpr auto special_value_encoding() noexcept {
    if constexpr (skipped_member<C, I>) return skipped_value{};
    else return encoding_v<value_provider<member_attrs<C, I>>, member_type<C, I>>;
}
template <class E>
inline constexpr bool misused_member = is_invalid<E>;
template <class C, std::size_t I>
inline constexpr bool misused_member<special_member<C, I>> =
    is_invalid<std::remove_const_t<decltype(special_value_encoding<C, I>())>>;

// The first of the types that is not void (void when all are).
template <class... T>
struct first_type_of {
    using type = void;
};
template <class... T>
struct first_type_of<void, T...> : first_type_of<T...> {};
template <class H, class... T>
struct first_type_of<H, T...> {
    using type = H;
};

/// The first described struct reachable from T that has a mistake in a member (T itself,
/// then what its bases and the members it sends hold: elements, alternatives, nested
/// structs and plain aggregates), as std::type_identity<C>, or of void. A walk names C's
/// mistakes as it starts, from the user's call, so that a mistake in a nested struct gets
/// as short a chain of notes as one in T (this reports nothing itself). Only classes are
/// looked into (holds_opaque), down to misuse_search_depth levels of structs: one
/// instantiation per type and level, whatever the paths to it (a tree stops there too).
/// A mistake below is still reported, by the walk that meets it.
inline constexpr int misuse_search_depth = 4;
template <class T, int Depth>
constexpr auto misused_struct_of() noexcept;
template <class T, int Depth = 0>
using misused_struct_in = typename decltype(misused_struct_of<T, Depth>())::type;
template <class L, int Depth>
struct misused_base;
template <template <class...> class L, class... B, int Depth>
struct misused_base<L<B...>, Depth> {
    using type = typename first_type_of<misused_struct_in<typename B::type, Depth>...>::type;
};
template <bool Look, class T, int Depth>
struct misused_part {
    using type = void;
};
template <class T, int Depth>
struct misused_part<true, T, Depth> {
    using type = misused_struct_in<T, Depth>;
};
// (Functions, not lambdas: a lambda costs the compiler a class per struct.)
template <class C, int Depth, std::size_t... I>
constexpr auto misused_within(std::index_sequence<I...>) noexcept {
    if constexpr (has_named_checks<C> && (misused_member<std::remove_const_t<decltype(member_encoding_v<C, I>)>> || ...))
        return std::type_identity<C>{}; // (a NETSER_CLASS checked its members where it stands)
    else if constexpr (!(holds_opaque<member_type<C, I>> || ...) && boost::mp11::mp_empty<described_bases<C>>::value)
        return std::type_identity<void>{}; // no class in it (most structs): nothing to look into
    else
        return std::type_identity<typename first_type_of<
            typename misused_base<described_bases<C>, Depth + 1>::type,
            typename misused_part<holds_opaque<member_type<C, I>> && !skipped_member<C, I>, member_type<C, I>,
                                  Depth + 1>::type...>::type>{};
}
template <class T, int Depth, std::size_t... I>
constexpr auto misused_in_fields(std::index_sequence<I...>) noexcept {
    return std::type_identity<typename first_type_of<typename misused_part<
        holds_opaque<boost::pfr::tuple_element_t<I, T>>, boost::pfr::tuple_element_t<I, T>, Depth + 1>::type...>::type>{};
}
template <class T, int Depth>
constexpr auto misused_struct_of() noexcept {
    if constexpr (Depth > misuse_search_depth) {
        return std::type_identity<void>{};
    } else if constexpr (described<T>) {
        if constexpr (adl::has_serialize<measure_stream, T>) return std::type_identity<void>{}; // its own codec
        else return misused_within<T, Depth>(member_indices<T>{});
    } else if constexpr (!holds_opaque<T>) {
        return std::type_identity<void>{};
    } else if constexpr (std::is_array_v<T>) {
        return misused_struct_of<std::remove_all_extents_t<T>, Depth>();
    } else if constexpr (is_std_array<T>::value || is_vector<T>::value || is_optional<T>::value || is_set<T>::value) {
        return misused_struct_of<typename T::value_type, Depth>();
    } else if constexpr (is_unique_ptr<T>::value) {
        return misused_struct_of<typename T::element_type, Depth>();
    } else if constexpr (is_map<T>::value) {
        return std::type_identity<typename first_type_of<misused_struct_in<typename T::key_type, Depth>,
                                                         misused_struct_in<typename T::mapped_type, Depth>>::type>{};
    } else if constexpr (is_variant<T>::value) {
        return []<class... E>(std::variant<E...>*) {
            return std::type_identity<typename first_type_of<misused_struct_in<E, Depth>...>::type>{};
        }(static_cast<T*>(nullptr));
    } else if constexpr (std::is_aggregate_v<T> && !adl::has_serialize<measure_stream, T>) {
        return misused_in_fields<T, Depth>(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    } else {
        return std::type_identity<void>{};
    }
}

template <class T>
void copy_value(T& v, const T& b) {
    if constexpr (std::is_copy_assignable_v<T>) {
        v = b;
    } else if constexpr (is_unique_ptr<T>::value || is_optional<T>::value) {
        if (!b) {
            v.reset();
        } else {
            if (!v) engage(v);
            copy_value(*v, *b);
        }
    } else if constexpr (std::is_array_v<T> || is_std_array<T>::value) {
        auto* vd = array_data(v);
        const auto* bd = array_data(b);
        for (std::size_t i = 0; i < array_size<T>(); ++i) copy_value(vd[i], bd[i]);
    } else if constexpr (is_vector<T>::value) {
        v.resize(b.size());
        for (std::size_t i = 0; i < b.size(); ++i) copy_value(v[i], b[i]);
    } else if constexpr (described<T>) {
        boost::mp11::mp_for_each<described_bases<T>>([&](auto d) {
            using B = typename decltype(d)::type;
            copy_value(static_cast<B&>(v), static_cast<const B&>(b));
        });
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (copy_value(v.*member_at<T, I>::pointer, b.*member_at<T, I>::pointer), ...);
        }(member_indices<T>{});
    } else if constexpr (std::is_aggregate_v<T>) {
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (copy_value(boost::pfr::get<I>(v), boost::pfr::get<I>(b)), ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    } else {
        static_assert(always_false<T>, "netser: a delta read copies unchanged values from the baseline; give this "
                                       "type a copy assignment");
    }
}

} // namespace netser::detail

namespace netser {

/// What the walks' entry points call when the structs they encode hold no mistake
/// (netser_check_members(misused_struct_in<T>**, void*)): NETSER_STRUCT's own
/// overload, found by argument-dependent lookup, reports a mistake by name.
constexpr bool netser_check_members(void**, void*) noexcept {
    return true;
}

} // namespace netser
