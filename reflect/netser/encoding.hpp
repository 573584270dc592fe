#pragma once

#include <netser/attributes.hpp>
#include <netser/bounds.hpp>
#include <netser/description.hpp>
#include <netser/detail/adl.hpp>
#include <netser/detail/misuse.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/encodings/enum.hpp>
#include <netser/extern_serialize.hpp>
#include <netser/primitives.hpp>
#include <netser/value_codes.hpp>

#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

// How a value goes on the wire, decided once at compile time from its type and its
// attributes: encoding_of<P, T>() is the one place that classifies a value, and every
// walk over the wire (write / read / measure, delta, bounds...) dispatches on what it
// returns. Integers, floats, bools and enums get a small constant value with their
// parameters (an integer range, a bit count, a quantization...), and so do strings and
// vectors of such values; one shared function per (stream, type, kind of encoding)
// applies it, and the constants fold in where it is inlined, so members with different
// parameters share compiled code as hand-written calls to the primitives do. Every
// other family (structs, optionals, containers...) gets a tag that carries its
// attributes as a type (the provider P).

namespace netser::detail {

// bool_encoding, range_encoding, bits_encoding, raw_encoding and quantization: see
// <netser/value_codes.hpp>; described_enum_encoding and enum_as_encoding: see
// <netser/encodings/enum.hpp>.

/// A std::string of at most max_length bytes: valid UTF-8 without NUL unless raw_bytes.
struct text_encoding {
    std::size_t max_length;
    bool raw_bytes;
};
/// A std::vector whose elements have an encoding of their own (a value, not a tag).
template <class E>
struct sequence_encoding {
    std::size_t max_size;
    std::size_t min_element_bits; // for the count check against the bits left
    E element;
};

// The families that the visitor walks, each with the attributes P of the value.
template <class P> struct user_attribute_encoding {}; ///< the member's user attribute is its codec
struct user_type_encoding {};                          ///< the type's own ADL serialize(Stream&, T&)
template <class P> struct common_encoding {};         ///< common(values...) around the plain encoding
template <class P> struct finite_encoding {};         ///< finite floats (with or without common)
template <class P> struct sparse_encoding {};         ///< netser::sparse arrays of optionals
template <class P> struct array_encoding {};          ///< std::array and C arrays: the elements with P
template <class P> struct vector_encoding {};         ///< vectors whose elements need the visitor
template <class P> struct associative_encoding {};    ///< std::map, std::unordered_map, std::set
template <class P> struct optional_encoding {};       ///< std::optional, std::unique_ptr
struct variant_encoding {};                            ///< std::variant: index, then the alternative
template <class P> struct struct_encoding {};         ///< described structs
template <class P> struct aggregate_encoding {};      ///< plain aggregates through Boost.PFR
// invalid_encoding<P, K> (a mistake) and unchecked_encoding: see <netser/detail/misuse.hpp>.

// The plain walk of a struct's members takes two families as values too, so that
// members with different parameters share one function per stream, type and kind of
// encoding (see member_encoding in <netser/encodings/struct.hpp>):
/// common(values...): the plain encoding and the values, converted to the member's type.
template <class T, class E, std::size_t K>
struct common_values {
    E plain;
    T values[K];
};
/// A std::optional whose value has a value encoding (integers, floats, enums, strings,
/// vectors of those).
template <class E>
struct optional_value {
    E value;
};

template <class E>
inline constexpr bool is_value_encoding = is_fixed_width<E>;
template <>
inline constexpr bool is_value_encoding<text_encoding> = true;
template <class E>
inline constexpr bool is_value_encoding<sequence_encoding<E>> = true;

// An encoding, or the mistake (k) that a value makes with its attributes, and whether
// common or finite goes around the encoding. The answers a caller tests per member are
// bools: comparing enums in a template costs the compiler an overload resolution each.
template <class E>
struct checked_encoding {
    E encoding;
    misuse k = misuse::none;
    bool valid = true;
    bool common = false;
    bool finite = false;
};
template <class E>
constexpr checked_encoding<E> invalid_because(misuse k) noexcept {
    return {{}, k, false};
}

// The encoding of an integer or float of type T with the attributes a (common and
// finite, handled around it, are ignored here), or the mistake in its parameters
// (range, bits, quantize). One function per type and kinds of attributes, shared by
// every member whatever its parameters: they are its argument.
template <class T, class A>
constexpr auto plain_encoding_in(const A& a) noexcept {
    if constexpr (std::is_integral_v<T>) {
        if constexpr (A::template has<attr_kind::range>()) {
            const auto r = a.template get<attr_kind::range>();
            if (!std::in_range<T>(r.min) || !std::in_range<T>(r.max) || std::cmp_greater(r.min, r.max))
                return invalid_because<range_encoding<T>>(misuse::range);
            return checked_encoding<range_encoding<T>>{{static_cast<T>(r.min), static_cast<T>(r.max)}};
        } else if constexpr (A::template has<attr_kind::bits>()) {
            const int n = a.template get<attr_kind::bits>().n;
            constexpr int width = std::numeric_limits<std::make_unsigned_t<T>>::digits;
            if constexpr (std::is_signed_v<T>) {
                if (n < 1 || n > width) return invalid_because<range_encoding<T>>(misuse::bits);
                if (n == width) return checked_encoding<range_encoding<T>>{{std::numeric_limits<T>::min(),
                                                                            std::numeric_limits<T>::max()}};
                return checked_encoding<range_encoding<T>>{{static_cast<T>(-(std::int64_t{1} << (n - 1))),
                                                            static_cast<T>((std::int64_t{1} << (n - 1)) - 1)}};
            } else {
                if (n < 1 || n > width) return invalid_because<bits_encoding>(misuse::bits);
                return checked_encoding<bits_encoding>{{n}};
            }
        } else {
            return checked_encoding<raw_encoding>{};
        }
    } else if constexpr (A::template has<attr_kind::quantize>()) {
        const quantization q = a.template get<attr_kind::quantize>().params();
        if (!std::is_same_v<T, float>) return invalid_because<quantization>(misuse::quantize_type);
        if (!q.valid) return invalid_because<quantization>(misuse::quantize);
        return checked_encoding<quantization>{q};
    } else if constexpr (!std::is_same_v<T, float> && !std::is_same_v<T, double>) {
        return invalid_because<raw_encoding>(misuse::long_double);
    } else {
        return checked_encoding<raw_encoding>{};
    }
}

// The same for a bool, integer or float with no user attribute, with common and finite.
template <class T, class A>
constexpr auto arithmetic_encoding_in(const A& a) noexcept {
    if constexpr (std::is_same_v<T, bool>) {
        if (A::encoding_size != 0) return invalid_because<bool_encoding>(misuse::bool_attribute);
        return checked_encoding<bool_encoding>{};
    } else if constexpr (std::is_integral_v<T>) {
        auto r = plain_encoding_in<T>(a);
        if (!A::template only<attr_kind::range, attr_kind::bits, attr_kind::common>())
            return invalid_because<decltype(r.encoding)>(misuse::integer_attribute);
        if constexpr (A::template has<attr_kind::common>()) {
            if (r.valid && !common_fits<T>(a.template get<attr_kind::common>()))
                return invalid_because<decltype(r.encoding)>(misuse::common);
            r.common = true;
        }
        return r;
    } else {
        auto r = plain_encoding_in<T>(a);
        if (!A::template only<attr_kind::quantize, attr_kind::common, attr_kind::finite>())
            return invalid_because<decltype(r.encoding)>(misuse::float_attribute);
        r.finite = A::template has<attr_kind::finite>();
        r.common = !r.finite && A::template has<attr_kind::common>();
        return r;
    }
}

// The encoding of an integer or float member with attributes P, or their mistake.
template <class P, class T>
constexpr auto plain_encoding_of() noexcept {
    constexpr auto r = plain_encoding_in<T>(P::value);
    if constexpr (!r.valid) return invalid_encoding<P, r.k>{};
    else return r.encoding;
}

/// E when K is none, else the mistake K (for encodings that are tags).
template <misuse K>
struct valid_or_for {
    template <class P, class E>
    using type = invalid_encoding<P, K>;
};
template <>
struct valid_or_for<misuse::none> {
    template <class P, class E>
    using type = E;
};
template <class P, misuse K, class E>
using valid_or = typename valid_or_for<K>::template type<P, E>;

/// The mistake in values of type E with attributes P, seen as classify<P, E, Shallow> sees them.
template <class P, class E, bool Shallow>
inline constexpr misuse misuse_of = misuse_in<decltype(classify<P, E, shallow_for<Shallow, E>>())>;

/// The first mistake in a list (none when there is none).
constexpr misuse first_of(std::initializer_list<misuse> ks) noexcept {
    for (misuse k : ks)
        if (k != misuse::none) return k;
    return misuse::none;
}

template <class P, class C, template <class...> class L, class... D>
constexpr misuse components_misuse(L<D...>*) noexcept {
    return first_of(
        {misuse::none, misuse_of<P, std::remove_cvref_t<decltype(std::declval<C&>().*D::pointer)>, true>...});
}

template <class P, class T>
constexpr misuse fields_misuse() noexcept {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return first_of({misuse::none, misuse_of<P, boost::pfr::tuple_element_t<I, T>, true>...});
    }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

template <bool Shallow, class T>
inline constexpr bool not_looked_into = false;
template <class T>
inline constexpr bool not_looked_into<true, T> = opaque_type<T>;

/// How a value of type T with attributes P goes on the wire, or invalid_encoding<P, K>
/// for its first mistake K. Shallow (NETSER_STRUCT's checks): classes other than the
/// standard containers are not looked into (unchecked_encoding).
template <class P, class T, bool Shallow>
constexpr auto classify() noexcept {
    using A = pack_of<P>;
    if constexpr (std::is_arithmetic_v<T> && !A::has_user()) {
        // Computed by a function shared by every member of type T with attributes of the
        // same kinds; only the answer is per member.
        constexpr auto r = arithmetic_encoding_in<T>(P::value);
        if constexpr (!r.valid) return invalid_encoding<P, r.k>{};
        else if constexpr (r.common) return common_encoding<P>{};
        else if constexpr (r.finite) return finite_encoding<P>{};
        else return r.encoding;
    } else if constexpr (not_looked_into<Shallow, T>) {
        return unchecked_encoding{};
    } else if constexpr (A::template user_codec_for<T>()) {
        return user_attribute_encoding<P>{};
    } else if constexpr (missing_header_in<A>) {
        return invalid_encoding<P, misuse::broken_description>{}; // its own static_assert said which header
    } else if constexpr (A::has_user() && (std::is_arithmetic_v<T> || std::is_enum_v<T> || is_string<T>)) {
        return invalid_encoding<P, misuse::user_attribute>{};
    } else if constexpr (std::is_enum_v<T>) {
        return enum_encoding_of<P, T>();
    } else if constexpr (has_attr<P, attr_kind::sparse>) {
        if constexpr (!has_optional_elements<T>) {
            return invalid_encoding<P, misuse::sparse>{};
        } else if constexpr (is_vector<T>::value && !has_attr<P, attr_kind::max_size>) {
            return invalid_encoding<P, misuse::vector_max_size>{};
        } else {
            using EP = without<P, attr_kind::sparse, attr_kind::max_size>;
            return valid_or<P, misuse_of<EP, typename T::value_type::value_type, Shallow>, sparse_encoding<P>>{};
        }
    } else if constexpr (std::is_array_v<T>) {
        return valid_or<P, misuse_of<P, std::remove_extent_t<T>, Shallow>, array_encoding<P>>{};
    } else if constexpr (is_std_array<T>::value) {
        return valid_or<P, misuse_of<P, typename T::value_type, Shallow>, array_encoding<P>>{};
    } else if constexpr (is_string<T>) {
        if constexpr (!has_attr<P, attr_kind::max_length>)
            return invalid_encoding<P, misuse::string_max_length>{};
        else if constexpr (!only_kinds<P, attr_kind::max_length, attr_kind::raw_bytes>)
            return invalid_encoding<P, misuse::string_attribute>{};
        else
            return text_encoding{P::value.template get<attr_kind::max_length>().n, has_attr<P, attr_kind::raw_bytes>};
    } else if constexpr (is_vector<T>::value) {
        using E = typename T::value_type;
        using EP = without<P, attr_kind::max_size>;
        if constexpr (!has_attr<P, attr_kind::max_size>) {
            return invalid_encoding<P, misuse::vector_max_size>{};
        } else {
            constexpr auto element = classify<EP, E, shallow_for<Shallow, E>>();
            using EE = std::remove_const_t<decltype(element)>;
            if constexpr (is_invalid<EE>)
                return invalid_encoding<P, misuse_in<EE>>{};
            else if constexpr (std::is_same_v<E, bool> || !is_value_encoding<EE>)
                return vector_encoding<P>{};
            else
                return sequence_encoding<EE>{P::value.template get<attr_kind::max_size>().n, min_bits_value<EP, E>(),
                                             element};
        }
    } else if constexpr (is_optional<T>::value || is_unique_ptr<T>::value) {
        using E = std::remove_cvref_t<decltype(*std::declval<T&>())>;
        return valid_or<P, misuse_of<P, E, Shallow>, optional_encoding<P>>{};
    } else if constexpr (is_variant<T>::value) {
        if constexpr (A::encoding_size != 0) {
            return invalid_encoding<P, misuse::variant_attribute>{};
        } else {
            constexpr bool alternatives_ok = []<class... E>(std::variant<E...>*) {
                return first_of({misuse::none, misuse_of<no_attrs, E, Shallow>...}) == misuse::none;
            }(static_cast<T*>(nullptr));
            return valid_or<P, alternatives_ok ? misuse::none : misuse::variant_alternative, variant_encoding>{};
        }
    } else if constexpr (is_map<T>::value || is_set<T>::value) {
        using EP = without<P, attr_kind::max_size>;
        if constexpr (!has_attr<P, attr_kind::max_size>)
            return invalid_encoding<P, misuse::map_max_size>{};
        else if constexpr (is_map<T>::value) // keys take no attribute; values take the map's
            return valid_or<P,
                            first_of({misuse_of<no_attrs, typename T::key_type, Shallow>,
                                      misuse_of<EP, typename T::mapped_type, Shallow>}),
                            associative_encoding<P>>{};
        else
            return valid_or<P, misuse_of<EP, typename T::key_type, Shallow>, associative_encoding<P>>{};
    } else if constexpr (std::is_class_v<T> && adl::has_serialize<measure_stream, T>) {
        return user_type_encoding{};
    } else if constexpr (described<T>) {
        // Attributes about the delta only do not change a struct's encoding; the others
        // apply to its members.
        if constexpr (A::encoding_size == 0)
            return struct_encoding<no_attrs>{};
        else
            return valid_or<P, components_misuse<P, T>(static_cast<described_members<T>*>(nullptr)),
                            struct_encoding<P>>{};
    } else if constexpr (marked<T>) {
        return invalid_encoding<P, misuse::broken_description>{}; // the compiler reported the attribute
    } else if constexpr (declared_extern<T>) {
        static_assert(always_false<T>,
                      "netser: this type is declared with NETSER_EXTERN and its description (NETSER_STRUCT) is not "
                      "in this file, so it would be taken for a plain aggregate of other widths; a file that nests "
                      "it in a struct, or asks for its max_bits, delta, schema or printing, needs its description");
        return invalid_encoding<P, misuse::broken_description>{}; // reported just above
    } else if constexpr (std::is_aggregate_v<T>) {
        // Fields take the aggregate's attributes; with none, a field with no default
        // encoding needs a description.
        if constexpr (A::encoding_size == 0)
            return valid_or<P, fields_misuse<no_attrs, T>() == misuse::none ? misuse::none : misuse::plain_aggregate,
                            aggregate_encoding<no_attrs>>{};
        else
            return valid_or<P, fields_misuse<P, T>(), aggregate_encoding<P>>{};
    } else {
        return invalid_encoding<P, misuse::no_encoding>{};
    }
}

/// The encoding of a value of type T with attributes P: classify<P, T>, looking into
/// everything.
template <class P, class T>
constexpr auto encoding_of() noexcept {
    return classify<P, T, false>();
}

template <class P, class T>
inline constexpr auto encoding_v = classify<P, T, false>();

template <class P, class T>
using encoding_t = std::remove_const_t<decltype(encoding_v<P, T>)>;

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
            if constexpr (has_attr<P, attr_kind::only_if>) {
                constexpr auto flag = P::value.template get<attr_kind::only_if>().flag;
                constexpr std::size_t at = flag == nullptr ? 0 : flag_index<C>(flag);
                if (flag == nullptr || (at >= I && at < boost::mp11::mp_size<described_members<C>>::value))
                    return misuse::only_if;
            }
            if constexpr (has_attr<P, attr_kind::delta_ladder>)
                if (!P::value.template get<attr_kind::delta_ladder>().ladder.valid()) return misuse::delta_ladder;
            return misuse_in<decltype(classify<value_provider<P>, M, holds_opaque<M>>())>;
        }
    }
}

/// Whether member I of C is left to the late checks (NETSER_DETAIL_CHECK_LATE): it holds
/// a class the early checks do not look into, and they found nothing (a description
/// that does not compile has had its error). Late is the check's own template
/// parameter, so that nothing is looked up before it is instantiated.
template <class C, std::size_t I, class Late>
constexpr bool is_checked_late() noexcept {
    if constexpr (!described<C> || !holds_opaque<member_type<C, I>>) return false;
    else return member_misuse_at<C, I>() == misuse::none;
}
template <class C, std::size_t I, class Late>
inline constexpr bool checked_late = is_checked_late<C, I, Late>();

/// Whether C has late checks (NETSER_STRUCT; NETSER_CLASS has none).
template <class C>
concept has_late_checks = requires { netser_check_late(static_cast<C**>(nullptr), static_cast<void*>(nullptr)); };

/// The mistake of member I of C with everything it holds looked into.
template <class C, std::size_t I, class Late>
constexpr misuse late_misuse_at() noexcept {
    using P = member_attrs<C, I>;
    return misuse_in<decltype(classify<value_provider<P>, member_type<C, I>, false>())>;
}

// Whether NETSER_STRUCT named mistake K found in P: P holds a member's attributes, and
// its checks saw the mistake (they see all of a member without classes in it, and else
// what is outside them), or its late checks did (instantiated here: the first walk that
// meets the mistake reports it by the member's name).
template <class P, misuse K>
constexpr bool reported_by_macro() noexcept {
    using M = provider_member<P>;
    if constexpr (K == misuse::broken_description) {
        return true; // the compiler, or an attribute's own static_assert
    } else if constexpr (std::is_void_v<typename M::owner>) {
        return false;
    } else {
        using C = typename M::owner;
        if constexpr (!holds_opaque<member_type<C, M::index>> || member_misuse_at<C, M::index>() != misuse::none) {
            return true;
        } else if constexpr (has_late_checks<C>) {
            [[maybe_unused]] constexpr bool named = netser_check_late(static_cast<C**>(nullptr), static_cast<void*>(nullptr));
            return late_misuse_at<C, M::index, void>() != misuse::none;
        } else {
            return false;
        }
    }
}

template <class P, misuse K>
constexpr bool report_misuse() noexcept {
    if constexpr (!reported_by_macro<P, K>()) report_unnamed<K>();
    return true;
}

} // namespace netser::detail
