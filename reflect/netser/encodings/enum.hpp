#pragma once

#include <netser/attributes.hpp>
#include <netser/detail/misuse.hpp>
#include <netser/detail/schema_hasher.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/primitives.hpp>
#include <netser/value_codes.hpp>

#include <boost/describe/enum.hpp> // BOOST_DEFINE_ENUM_CLASS & co. for users of <netser/netser.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

// Enums as fixed-width codes, like integers (so they join packed runs and deltas).
// Described enums: (v - smallest enumerator) in bits_required(smallest, largest) bits;
// a value that is not a declared enumerator (a gap of a sparse enum included) fails
// with invalid_value, on write and on read. Other enums need range or bits.

namespace netser::detail {

template <class E>
inline constexpr bool is_described_enum = boost::describe::has_describe_enumerators<E>::value;

// The values of an enum's descriptors, as declared (a pack expansion: no lambda per
// enumerator).
template <class U, class L>
struct enumerator_values;
template <class U, template <class...> class L, class... D>
struct enumerator_values<U, L<D...>> {
    static constexpr std::array<U, sizeof...(D)> values{static_cast<U>(D::value)...};
};

// The values sorted (insertion sort: one function per type and count, shared by every
// enum that has them).
template <class U, std::size_t N>
constexpr std::array<U, N> sorted_values(std::array<U, N> v) noexcept {
    for (std::size_t i = 1; i < N; ++i)
        for (std::size_t j = i; j > 0 && v[j] < v[j - 1]; --j) {
            const U t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v;
}

// The declared values as offsets from the smallest (unsigned, modulo 2^64).
template <class U, std::size_t N>
constexpr std::array<std::uint64_t, N> enumerator_codes(const std::array<U, N>& sorted) noexcept {
    std::array<std::uint64_t, N> out{};
    for (std::size_t j = 0; j < N; ++j)
        out[j] = static_cast<std::uint64_t>(sorted[j]) - static_cast<std::uint64_t>(sorted[0]);
    return out;
}

// Whether code is one of the sorted codes (binary search).
template <std::size_t N>
constexpr bool has_code(const std::array<std::uint64_t, N>& codes, std::uint64_t code) noexcept {
    std::size_t lo = 0, hi = N;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (codes[mid] < code) lo = mid + 1;
        else hi = mid;
    }
    return lo < N && codes[lo] == code;
}

template <class E>
struct enum_info {
    using U = std::underlying_type_t<E>;
    using list = boost::describe::describe_enumerators<E>;
    static constexpr std::size_t count = boost::mp11::mp_size<list>::value;
    static_assert(count > 0, "netser: a described enum needs at least one enumerator");

    static constexpr std::array<U, count> sorted = sorted_values(enumerator_values<U, list>::values);
    // The declared values, sorted, as offsets from the smallest (unsigned, modulo 2^64).
    static constexpr std::array<std::uint64_t, count> codes = enumerator_codes(sorted);
    static constexpr U min = sorted[0];
    static constexpr std::uint64_t span = codes[count - 1];
    static constexpr int bits = bits_required_for_span(span);
    static constexpr bool dense = span == count - 1;

    static constexpr bool declared(std::uint64_t code) noexcept {
        if constexpr (dense) return code <= span;
        else return has_code(codes, code);
    }
};

/// A described enum: (v - smallest enumerator) in enum_info<E>::bits bits.
template <class E>
struct described_enum_encoding {};

/// An enum that is not described, sent as its underlying value with a range
/// (range_encoding of the underlying type) or in n bits (bits_encoding, as unsigned).
template <class E, class Inner>
struct enum_as_encoding {
    Inner inner;
};

template <class E>
inline constexpr bool is_fixed_width<described_enum_encoding<E>> = true;
template <class E, class Inner>
inline constexpr bool is_fixed_width<enum_as_encoding<E, Inner>> = true;

// An undescribed enum's value as the inner encoding sees it: the underlying type for a
// range, its unsigned counterpart for bits.
template <class E, class Inner>
using enum_value_type = std::conditional_t<std::is_same_v<Inner, bits_encoding>,
                                           std::make_unsigned_t<std::underlying_type_t<E>>,
                                           std::underlying_type_t<E>>;

template <class T, class E>
constexpr int code_bits(described_enum_encoding<E>) noexcept {
    return enum_info<E>::bits;
}
template <class T, class E, class Inner>
constexpr int code_bits(const enum_as_encoding<E, Inner>& e) noexcept {
    return code_bits<std::underlying_type_t<E>>(e.inner);
}

template <class T, class E>
constexpr std::uint64_t code_max(described_enum_encoding<E>) noexcept {
    return enum_info<E>::span;
}
template <class T, class E, class Inner>
constexpr std::uint64_t code_max(const enum_as_encoding<E, Inner>& e) noexcept {
    return code_max<enum_value_type<E, Inner>>(e.inner);
}

template <class E>
NETSER_INLINE errc to_code(E v, described_enum_encoding<E>, std::uint64_t& code) noexcept {
    using U = std::underlying_type_t<E>;
    code = static_cast<std::uint64_t>(static_cast<U>(v)) - static_cast<std::uint64_t>(enum_info<E>::min);
    if (!enum_info<E>::declared(code)) [[unlikely]] return errc::invalid_value;
    return errc::none;
}
template <class E>
NETSER_INLINE errc from_code(std::uint64_t code, E& v, described_enum_encoding<E>) noexcept {
    using U = std::underlying_type_t<E>;
    if (!enum_info<E>::declared(code)) [[unlikely]] return errc::invalid_value;
    v = static_cast<E>(static_cast<U>(static_cast<std::uint64_t>(enum_info<E>::min) + code));
    return errc::none;
}

template <class E, class Inner>
NETSER_INLINE errc to_code(E v, const enum_as_encoding<E, Inner>& e, std::uint64_t& code) noexcept {
    using V = enum_value_type<E, Inner>;
    return to_code(static_cast<V>(static_cast<std::underlying_type_t<E>>(v)), e.inner, code);
}
template <class E, class Inner>
NETSER_INLINE errc from_code(std::uint64_t code, E& v, const enum_as_encoding<E, Inner>& e) noexcept {
    using V = enum_value_type<E, Inner>;
    V value{};
    const errc c = from_code(code, value, e.inner);
    if (c == errc::none) v = static_cast<E>(static_cast<std::underlying_type_t<E>>(value));
    return c;
}

// The encoding of an enum member with attributes P, or their mistake.
template <class P, class E>
constexpr auto enum_encoding_of() noexcept {
    using U = std::underlying_type_t<E>;
    if constexpr (is_described_enum<E>) {
        if constexpr (pack_of<P>::encoding_size != 0) return invalid_encoding<P, misuse::enum_attribute>{};
        else return described_enum_encoding<E>{};
    } else if constexpr (has_attr<P, attr_kind::range>) {
        constexpr auto r = P::value.template get<attr_kind::range>();
        if constexpr (!std::in_range<U>(r.min) || !std::in_range<U>(r.max) || std::cmp_greater(r.min, r.max))
            return invalid_encoding<P, misuse::range>{};
        else
            return enum_as_encoding<E, range_encoding<U>>{{static_cast<U>(r.min), static_cast<U>(r.max)}};
    } else if constexpr (has_attr<P, attr_kind::bits>) {
        constexpr int n = P::value.template get<attr_kind::bits>().n;
        if constexpr (n < 1 || n > std::numeric_limits<std::make_unsigned_t<U>>::digits)
            return invalid_encoding<P, misuse::bits>{};
        else
            return enum_as_encoding<E, bits_encoding>{{n}};
    } else {
        return invalid_encoding<P, misuse::enum_undescribed>{};
    }
}

// ---- schema node ----------------------------------------------------------------------

template <class P, class T, class B, class E>
bool family_schema(B& b, described_enum_encoding<E>) {
    using U = std::underlying_type_t<T>;
    auto& o = b.out;
    schema_string(b, "kind", "enum");
    schema_string(b, "type", wire_scalar_name<U>());
    schema_integer(b, "bits", enum_info<T>::bits);
    schema_integer(b, "min", enum_info<T>::min);
    o.key("enumerators");
    o.begin_array();
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto d) {
        o.begin_object();
        schema_string(b, "name", d.name);
        schema_integer(b, "value", static_cast<U>(d.value));
        o.end_object();
    });
    o.end_array();
    return true;
}

// An enum that is not described: its underlying integer with range or bits (bits: the
// underlying value's low n bits as unsigned, as serialize_enum sends them).
template <class P, class U, class B>
void schema_undescribed_enum(B& b) {
    if constexpr (has_attr<P, attr_kind::range>) {
        constexpr auto r = P::value.template get<attr_kind::range>();
        schema_integer_code<U>(b, range_encoding<U>{static_cast<U>(r.min), static_cast<U>(r.max)});
    } else {
        constexpr int n = P::value.template get<attr_kind::bits>().n;
        if constexpr (std::is_signed_v<U> && n == std::numeric_limits<std::make_unsigned_t<U>>::digits)
            schema_integer_code<U>(b, raw_encoding{});
        else
            schema_integer_code<U>(b, bits_encoding{n});
    }
}

template <class P, class T, class B, class E, class Inner>
bool family_schema(B& b, const enum_as_encoding<E, Inner>&) {
    using U = std::underlying_type_t<T>;
    schema_string(b, "kind", "int");
    schema_string(b, "type", wire_scalar_name<U>());
    schema_undescribed_enum<P, U>(b);
    return true;
}

// ---- the type on its own: schema hash tokens and type name -----------------------------

struct enum_type_tag {};

// Its underlying type, then a described enum's enumerators (name, value).
template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, enum_type_tag) noexcept {
    h.text("enum");
    hash_type<std::underlying_type_t<T>, Visiting...>(h);
    if constexpr (is_described_enum<T>) {
        boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto d) {
            h.text(d.name);
            h.integer(static_cast<std::underlying_type_t<T>>(d.value));
        });
    }
}
template <class T, class B>
void family_type_name(B&, std::string& s, enum_type_tag) {
    s += "enum<";
    s += wire_scalar_name<std::underlying_type_t<T>>();
    s += '>';
}

} // namespace netser::detail
