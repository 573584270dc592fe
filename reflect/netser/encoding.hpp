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

// The encodings: how a value goes on the wire, decided once at compile time from its
// type and its attributes by classify<P, T> (<netser/classify.hpp>, which orders the
// families' rules), and every walk over the wire (write / read / measure, delta,
// bounds, schema...) dispatches on what it returns. Integers, floats, bools and enums
// get a small constant value with their parameters (an integer range, a bit count, a
// quantization...), and so do strings and vectors of such values; one shared function
// per (stream, type, kind of encoding) applies it, and the constants fold in where it
// is inlined, so members with different parameters share compiled code as hand-written
// calls to the primitives do. Every other family (structs, optionals, containers...)
// gets a tag that carries its attributes as a type (the provider P). This header holds
// the tags; each family's rule and facets are in its header under netser/encodings/.

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

// The families that the walks dispatch to, each with the attributes P of the value
// (a family used by no other may declare its tag in its own header: sparse_encoding).
template <class P> struct user_attribute_encoding {}; ///< the member's user attribute is its codec
struct user_type_encoding {};                          ///< the type's own ADL serialize(Stream&, T&)
template <class P> struct common_encoding {};         ///< common(values...) around the plain encoding
template <class P> struct finite_encoding {};         ///< finite floats (with or without common)
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

} // namespace netser::detail
