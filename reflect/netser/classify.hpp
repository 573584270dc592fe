#pragma once

#include <netser/attributes.hpp>
#include <netser/description.hpp>
#include <netser/detail/adl.hpp>
#include <netser/detail/misuse.hpp>
#include <netser/detail/schema_hasher.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/container.hpp>
#include <netser/encodings/enum.hpp>
#include <netser/encodings/keyed.hpp>
#include <netser/encodings/optional.hpp>
#include <netser/encodings/scalar.hpp>
#include <netser/encodings/sparse.hpp>
#include <netser/encodings/struct.hpp>
#include <netser/encodings/user.hpp>
#include <netser/extern_serialize.hpp>

#include <boost/mp11/algorithm.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

// Classification: which family encodes a value of type T with attributes P. Each family
// states its own rule beside its codec (encodings/*.hpp: arithmetic_encoding_in,
// enum_encoding_of, sparse_encoding_of, ...); this is the one place that orders them:
// a user attribute before the type's own family, keyed before vectors, sparse before arrays, a user type's
// own serialize before its description. Then NETSER_STRUCT's per-member checks, which
// report a mistake by the member's name.

namespace netser::detail {

// A type netser has no encoding for (a type name and hash token for the schema).
struct unknown_type_tag {};
template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, unknown_type_tag) noexcept {
    h.text("unknown");
}
template <class T, class B>
void family_type_name(B&, std::string& s, unknown_type_tag) {
    s += "unknown";
}

template <bool Shallow, class T>
inline constexpr bool not_looked_into = false;
template <class T>
inline constexpr bool not_looked_into<true, T> = opaque_type<T>;

// Whether member I of C has an only_if that names no bool member listed before it (a
// base's member is fine; flag_index gives the member count for one).
template <class C, std::size_t I>
constexpr bool misplaced_only_if() noexcept {
    using P = member_attrs<C, I>;
    if constexpr (!has_attr<P, attr_kind::only_if>) {
        return false;
    } else {
        constexpr auto flag = P::value.template get<attr_kind::only_if>().flag;
        constexpr std::size_t at = flag == nullptr ? 0 : flag_index<C>(flag);
        return flag == nullptr || (at >= I && at < boost::mp11::mp_size<described_members<C>>::value);
    }
}

// A member's modifiers that are mistakes, seen where its value is classified (so that
// every walk meets them, as it meets a bad encoding): a delta_ladder that is not one, and
// an only_if of the member whose value the attributes P (without only_if) are for.
template <class P>
inline constexpr bool misplaced_flag = false;
template <class C, std::size_t I, attr_kind... K>
inline constexpr bool misplaced_flag<without<member_attrs<C, I>, K...>> = misplaced_only_if<C, I>();
template <class P, bool = has_attr<P, attr_kind::delta_ladder>>
inline constexpr bool invalid_ladder = false;
template <class P>
inline constexpr bool invalid_ladder<P, true> = !P::value.template get<attr_kind::delta_ladder>().ladder.valid();

/// How a value of type T with attributes P goes on the wire, or invalid_encoding<P, K>
/// for its first mistake K. Shallow (member_misuse_at: what a description shows without
/// the types declared after it): classes other than the standard containers are not
/// looked into (unchecked_encoding).
template <class P, class T, bool Shallow>
constexpr auto classify() noexcept {
    using A = pack_of<P>;
    if constexpr (misplaced_flag<P>) {
        return invalid_encoding<P, misuse::only_if>{};
    } else if constexpr (invalid_ladder<P>) {
        return invalid_encoding<P, misuse::delta_ladder>{};
    } else if constexpr (std::is_arithmetic_v<T> && !A::has_user()) {
        // Computed by a function shared by every member of type T with attributes of the
        // same kinds (encodings/scalar.hpp); only the answer is per member.
        constexpr auto r = arithmetic_encoding_in<T>(P::value);
        if constexpr (!r.valid) return invalid_encoding<P, r.k>{};
        else if constexpr (r.common) return common_encoding<P>{};
        else if constexpr (r.finite) return finite_encoding<P>{};
        else return r.encoding;
    } else if constexpr (not_looked_into<Shallow, T>) {
        return unchecked_encoding{};
    } else if constexpr (A::template user_codec_for<T>()) {
        if constexpr (!user_bits_stated<P>()) return invalid_encoding<P, misuse::user_bits>{};
        else return user_attribute_encoding<P>{};
    } else if constexpr (missing_header_in<A>) {
        return invalid_encoding<P, misuse::broken_description>{}; // its own static_assert said which header
    } else if constexpr (A::has_user() && (std::is_arithmetic_v<T> || std::is_enum_v<T> || is_string<T>)) {
        return invalid_encoding<P, misuse::user_attribute>{};
    } else if constexpr (std::is_enum_v<T>) {
        return enum_encoding_of<P, T>();
    } else if constexpr (has_attr<P, attr_kind::keyed>) {
        return keyed_encoding_of<P, T, Shallow>();
    } else if constexpr (has_attr<P, attr_kind::sparse>) {
        return sparse_encoding_of<P, T, Shallow>();
    } else if constexpr (std::is_array_v<T> || is_std_array<T>::value) {
        return array_encoding_of<P, T, Shallow>();
    } else if constexpr (is_string<T>) {
        return text_encoding_of<P, T>();
    } else if constexpr (is_vector<T>::value) {
        return vector_encoding_of<P, T, Shallow>();
    } else if constexpr (is_optional<T>::value || is_unique_ptr<T>::value) {
        return optional_encoding_of<P, T, Shallow>();
    } else if constexpr (is_variant<T>::value) {
        return variant_encoding_of<P, T, Shallow>();
    } else if constexpr (is_map<T>::value || is_set<T>::value) {
        return associative_encoding_of<P, T, Shallow>();
    } else if constexpr (std::is_class_v<T> && adl::has_serialize<measure_stream, T>) {
        return user_type_encoding{};
    } else if constexpr (described<T>) {
        return struct_encoding_of<P, T>();
    } else if constexpr (marked<T>) {
        return invalid_encoding<P, misuse::broken_description>{}; // the compiler reported the attribute
    } else if constexpr (declared_extern<T>) {
        static_assert(always_false<T>,
                      "netser: this type is declared with NETSER_EXTERN and its description (NETSER_STRUCT) is not "
                      "in this file, so it would be taken for a plain aggregate of other widths; a file that nests "
                      "it in a struct, or asks for its max_bits, delta, schema or printing, needs its description");
        return invalid_encoding<P, misuse::broken_description>{}; // reported just above
    } else if constexpr (std::is_aggregate_v<T>) {
        return aggregate_encoding_of<P, T>();
    } else {
        return invalid_encoding<P, misuse::no_encoding>{};
    }
}

/// The family of type T on its own, without attributes: what the schema hash's tokens and
/// the schema's type names walk (a member's attributes are hashed and written beside it).
template <class T>
constexpr auto type_family_of() noexcept {
    if constexpr (std::is_arithmetic_v<T>) return scalar_type_tag{};
    else if constexpr (std::is_enum_v<T>) return enum_type_tag{};
    else if constexpr (std::is_pointer_v<T>) return pointer_type_tag{};
    else if constexpr (std::is_array_v<T> || is_std_array<T>::value) return array_type_tag{};
    else if constexpr (is_string<T>) return text_type_tag{};
    else if constexpr (is_vector<T>::value) return vector_type_tag{};
    else if constexpr (is_optional<T>::value || is_unique_ptr<T>::value) return optional_type_tag{};
    else if constexpr (is_variant<T>::value) return variant_type_tag{};
    else if constexpr (is_map<T>::value) return map_type_tag{};
    else if constexpr (is_set<T>::value) return set_type_tag{};
    else if constexpr (adl::has_serialize<measure_stream, T>) return user_codec_type_tag{};
    else if constexpr (described<T>) return described_type_tag{};
    else if constexpr (std::is_aggregate_v<T>) return aggregate_type_tag{};
    else return unknown_type_tag{};
}
template <class T>
using type_family_t = decltype(type_family_of<T>());

template <class C, std::size_t I>
constexpr misuse member_misuse_at() noexcept {
    if constexpr (!described<C>) {
        return misuse::none;
    } else {
        using P = member_attrs<C, I>;
        using M = member_type<C, I>;
        if constexpr (has_attr<P, attr_kind::skip>) {
            return misuse::none;
        } else {
            return misuse_in<decltype(classify<value_provider<P>, M, holds_opaque<M>>())>;
        }
    }
}

/// Whether member I of C is checked by name (NETSER_DETAIL_CHECK_NAMED): it has a mistake
/// in what its description shows (member_misuse_at), or it holds a class, which only the
/// full classification looks into. Walk is the check's own template parameter, so that nothing is looked up
/// before it is instantiated.
template <class C, std::size_t I, class Walk>
constexpr bool is_checked_by_name() noexcept {
    if constexpr (!described<C>) return false;
    else return holds_opaque<member_type<C, I>> || member_misuse_at<C, I>() != misuse::none;
}
template <class C, std::size_t I, class Walk>
inline constexpr bool checked_by_name = is_checked_by_name<C, I, Walk>();

/// Whether C has checks by name (NETSER_STRUCT; NETSER_CLASS has none).
template <class C>
concept has_named_checks = requires { netser_check_members(static_cast<C**>(nullptr), static_cast<void*>(nullptr)); };

/// The mistake of member I of C with everything it holds looked into.
template <class C, std::size_t I, class Walk>
constexpr misuse late_misuse_at() noexcept {
    using P = member_attrs<C, I>;
    return misuse_in<decltype(classify<value_provider<P>, member_type<C, I>, false>())>;
}

/// The mistake that the checks by name report for member I of C: the one NETSER_STRUCT
/// sees, else one inside the classes it holds.
template <class C, std::size_t I, class Walk>
constexpr misuse named_misuse_at() noexcept {
    constexpr misuse seen = member_misuse_at<C, I>();
    if constexpr (seen != misuse::none) return seen;
    else return late_misuse_at<C, I, Walk>();
}

// Whether NETSER_STRUCT named mistake K found in P: P holds a member's attributes, and
// its checks by name report a mistake of that member (instantiated here: the first walk
// that meets a mistake reports it by the member's name). A NETSER_CLASS checked its
// members in its own body, all but what is inside the classes they hold.
template <class P, misuse K>
constexpr bool reported_by_macro() noexcept {
    using M = provider_member<P>;
    if constexpr (K == misuse::broken_description) {
        return true; // the compiler, or an attribute's own static_assert
    } else if constexpr (std::is_void_v<typename M::owner>) {
        return false;
    } else {
        using C = typename M::owner;
        constexpr std::size_t I = M::index;
        if constexpr (!holds_opaque<member_type<C, I>> && member_misuse_at<C, I>() == misuse::none) {
            // The checks see all of a member without classes in it: a part of it that a walk
            // classifies on its own (a map's element pair, say) is none of their business.
            return true;
        } else if constexpr (has_named_checks<C>) {
            [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<C**>(nullptr), static_cast<void*>(nullptr));
            return named_misuse_at<C, I, void>() != misuse::none;
        } else {
            return member_misuse_at<C, I>() != misuse::none; // NETSER_CLASS's own checks saw it
        }
    }
}

template <class P, misuse K>
constexpr bool report_misuse() noexcept {
    if constexpr (!reported_by_macro<P, K>()) report_unnamed<K>();
    return true;
}

} // namespace netser::detail
