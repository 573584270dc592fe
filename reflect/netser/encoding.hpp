#pragma once

#include <netser/attributes.hpp>
#include <netser/bounds.hpp>
#include <netser/description.hpp>
#include <netser/detail/adl.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/enum_codec.hpp>
#include <netser/primitives.hpp>
#include <netser/value_codes.hpp>

#include <cstddef>
#include <cstdint>
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
// <netser/enum_codec.hpp>.

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
struct invalid_encoding {};                            ///< a misuse, already reported by a static_assert

template <class E>
inline constexpr bool is_value_encoding = is_fixed_width<E>;
template <>
inline constexpr bool is_value_encoding<text_encoding> = true;
template <class E>
inline constexpr bool is_value_encoding<sequence_encoding<E>> = true;

// The encoding of an integer or float member (common and finite, handled around it,
// are ignored here).
template <class P, class T>
constexpr auto plain_encoding_of() noexcept {
    constexpr auto& a = P::value;
    if constexpr (std::is_integral_v<T>) {
        if constexpr (has_attr<P, attr_kind::range>) {
            constexpr auto r = a.template get<attr_kind::range>();
            static_assert(std::in_range<T>(r.min) && std::in_range<T>(r.max) && !std::cmp_greater(r.min, r.max),
                          "netser: netser::range(min, max) needs min <= max, both representable in the member's "
                          "type; widen the type or narrow the range");
            return range_encoding<T>{static_cast<T>(r.min), static_cast<T>(r.max)};
        } else if constexpr (has_attr<P, attr_kind::bits>) {
            constexpr int n = a.template get<attr_kind::bits>().n;
            constexpr int width = std::numeric_limits<std::make_unsigned_t<T>>::digits;
            static_assert(n >= 1 && n <= width, "netser: netser::bits(n) needs 1 <= n <= the member type's width");
            if constexpr (std::is_signed_v<T>) {
                constexpr T lo =
                    n == width ? std::numeric_limits<T>::min() : static_cast<T>(-(std::int64_t{1} << (n - 1)));
                constexpr T hi =
                    n == width ? std::numeric_limits<T>::max() : static_cast<T>((std::int64_t{1} << (n - 1)) - 1);
                return range_encoding<T>{lo, hi};
            } else {
                return bits_encoding{n};
            }
        } else {
            return raw_encoding{};
        }
    } else if constexpr (has_attr<P, attr_kind::quantize>) {
        static_assert(std::is_same_v<T, float>, "netser: netser::quantize applies to float members; use float");
        constexpr quantization q = a.template get<attr_kind::quantize>().params();
        static_assert(q.valid, "netser: netser::quantize(min, max, resolution) needs finite min < max, "
                               "resolution > 0 and at most 2^32 steps");
        return q;
    } else {
        static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                      "netser: long double has no wire encoding; use float or double");
        return raw_encoding{};
    }
}

/// The encoding of a value of type T with attributes P. A misuse is one static_assert
/// here, and invalid_encoding keeps the walks from adding errors of their own.
template <class P, class T>
constexpr auto encoding_of() noexcept {
    using A = pack_of<P>;
    if constexpr (A::template user_codec_for<T>()) {
        return user_attribute_encoding<P>{};
    } else if constexpr (A::has_user() && (std::is_arithmetic_v<T> || std::is_enum_v<T> || is_string<T>)) {
        static_assert(always_false<T>, "netser: this user attribute has no serialize(stream, value) for the member's "
                                       "type; give it one, or put it on a member of the type it encodes");
        return invalid_encoding{};
    } else if constexpr (std::is_same_v<T, bool>) {
        static_assert(A::encoding_size == 0, "netser: a bool member takes no encoding attribute (it is always 1 bit)");
        return bool_encoding{};
    } else if constexpr (std::is_enum_v<T>) {
        return enum_encoding_of<P, T>();
    } else if constexpr (std::is_integral_v<T>) {
        static_assert(only_kinds<P, attr_kind::range, attr_kind::bits, attr_kind::common>,
                      "netser: an integer member takes netser::range, netser::bits or netser::common; remove the "
                      "other attributes");
        if constexpr (has_attr<P, attr_kind::common>) return common_encoding<P>{};
        else return plain_encoding_of<P, T>();
    } else if constexpr (std::is_floating_point_v<T>) {
        static_assert(only_kinds<P, attr_kind::quantize, attr_kind::common, attr_kind::finite>,
                      "netser: a float member takes netser::quantize, netser::common or netser::finite; remove the "
                      "other attributes");
        if constexpr (has_attr<P, attr_kind::finite>) return finite_encoding<P>{};
        else if constexpr (has_attr<P, attr_kind::common>) return common_encoding<P>{};
        else return plain_encoding_of<P, T>();
    } else if constexpr (has_attr<P, attr_kind::sparse>) {
        static_assert(is_optional<typename T::value_type>::value,
                      "netser: netser::sparse applies to std::array<std::optional<T>, N> or "
                      "std::vector<std::optional<T>> with netser::max_size(N)");
        static_assert(!is_vector<T>::value || has_attr<P, attr_kind::max_size>,
                      "netser: std::vector member needs netser::max_size(N)");
        return sparse_encoding<P>{};
    } else if constexpr (std::is_array_v<T> || is_std_array<T>::value) {
        return array_encoding<P>{};
    } else if constexpr ((is_string<T> && !has_attr<P, attr_kind::max_length>) ||
                         ((is_vector<T>::value || is_map<T>::value || is_set<T>::value) &&
                          !has_attr<P, attr_kind::max_size>)) {
        // A missing limit gives one error, not a cascade from the code that would use it.
        static_assert(!is_string<T>, "netser: std::string member needs netser::max_length(N)");
        static_assert(!is_vector<T>::value, "netser: std::vector member needs netser::max_size(N)");
        static_assert(is_string<T> || is_vector<T>::value,
                      "netser: std::map / std::unordered_map / std::set member needs netser::max_size(N)");
        return invalid_encoding{};
    } else if constexpr (is_string<T>) {
        static_assert(only_kinds<P, attr_kind::max_length, attr_kind::raw_bytes>,
                      "netser: a std::string member takes only netser::max_length and netser::raw_bytes");
        return text_encoding{P::value.template get<attr_kind::max_length>().n, has_attr<P, attr_kind::raw_bytes>};
    } else if constexpr (is_vector<T>::value) {
        using E = typename T::value_type;
        using EP = without<P, attr_kind::max_size>;
        constexpr auto element = encoding_of<EP, E>();
        using EE = std::remove_const_t<decltype(element)>;
        if constexpr (std::is_same_v<E, bool> || !is_value_encoding<EE>)
            return vector_encoding<P>{};
        else
            return sequence_encoding<EE>{P::value.template get<attr_kind::max_size>().n, min_bits_value<EP, E>(),
                                         element};
    } else if constexpr (is_optional<T>::value || is_unique_ptr<T>::value) {
        return optional_encoding<P>{};
    } else if constexpr (is_variant<T>::value) {
        static_assert(A::encoding_size == 0, "netser: a std::variant member takes no attribute (its alternatives use their "
                                    "default encodings); put the attributes on a described struct alternative");
        return variant_encoding{};
    } else if constexpr (is_map<T>::value || is_set<T>::value) {
        return associative_encoding<P>{};
    } else if constexpr (adl::has_serialize<measure_stream, T>) {
        return user_type_encoding{};
    } else if constexpr (described<T>) {
        // Attributes about the delta only do not change a struct's encoding.
        if constexpr (A::encoding_size == 0) return struct_encoding<no_attrs>{};
        else return struct_encoding<P>{};
    } else if constexpr (std::is_aggregate_v<T>) {
        if constexpr (A::encoding_size == 0) return aggregate_encoding<no_attrs>{};
        else return aggregate_encoding<P>{};
    } else {
        static_assert(always_false<T>, "netser: no encoding for this type; describe it with NETSER_STRUCT, or give it "
                                       "an ADL function serialize(Stream&, T&)");
        return invalid_encoding{};
    }
}

template <class P, class T>
inline constexpr auto encoding_v = encoding_of<P, T>();

template <class P, class T>
using encoding_t = std::remove_const_t<decltype(encoding_v<P, T>)>;

} // namespace netser::detail
