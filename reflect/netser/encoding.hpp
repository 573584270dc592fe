#pragma once

#include <netser/attributes.hpp>
#include <netser/bounds.hpp>
#include <netser/detail/type_traits.hpp>
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

// A member's attributes become, at compile time, one small constant value saying how
// it goes on the wire (an integer range, a bit count, a quantization...). One shared
// function per (stream, type, kind of encoding) applies it, and the constants fold in
// where it is inlined. So members with different parameters share compiled code, as
// hand-written calls to the primitives do, which keeps compile time close to
// hand-written code. Whatever has no such value (common, finite, enums, nested
// structs, optionals...) keeps its attributes as a type: attribute_encoding<P>.

namespace netser::detail {

// bool_encoding, range_encoding, bits_encoding, raw_encoding and quantization: see
// <netser/value_codes.hpp>.
// A float: netser::quantization is its own encoding.
/// A std::string of at most max_length bytes, valid UTF-8 unless raw_bytes.
struct text_encoding {
    std::size_t max_length;
    bool raw_bytes;
};
/// A std::vector whose elements have an encoding of their own.
template <class E>
struct sequence_encoding {
    std::size_t max_size;
    std::size_t min_element_bits; // for the count check against the bits left
    E element;
};
/// Everything else: the visitor, with the attributes P.
template <class P>
struct attribute_encoding {};

template <class E>
inline constexpr bool is_attribute_encoding = false;
template <class P>
inline constexpr bool is_attribute_encoding<attribute_encoding<P>> = true;

// Strict UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF.
inline bool valid_utf8(std::string_view text) noexcept {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    while (p != end) {
        const unsigned c = *p++;
        if (c < 0x80) continue;
        int extra = 0;
        unsigned lo = 0x80, hi = 0xbf; // allowed range of the first continuation byte
        if (c >= 0xc2 && c <= 0xdf) extra = 1;
        else if (c == 0xe0) extra = 2, lo = 0xa0;
        else if (c == 0xed) extra = 2, hi = 0x9f;
        else if (c >= 0xe1 && c <= 0xef) extra = 2;
        else if (c == 0xf0) extra = 3, lo = 0x90;
        else if (c >= 0xf1 && c <= 0xf3) extra = 3;
        else if (c == 0xf4) extra = 3, hi = 0x8f;
        else return false;
        if (end - p < extra) return false;
        if (*p < lo || *p > hi) return false;
        for (int i = 1; i < extra; ++i)
            if ((p[i] & 0xc0u) != 0x80u) return false;
        p += extra;
    }
    return true;
}

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

// The encoding of a value of type T with attributes P.
template <class P, class T>
constexpr auto encoding_of() noexcept {
    using A = pack_of<P>;
    if constexpr (A::has_user() || has_attr<P, attr_kind::common> || has_attr<P, attr_kind::finite> ||
                  has_attr<P, attr_kind::sparse>) {
        return attribute_encoding<P>{};
    } else if constexpr (std::is_same_v<T, bool>) {
        static_assert(A::size == 0, "netser: a bool member takes no encoding attribute (it is always 1 bit)");
        return bool_encoding{};
    } else if constexpr (std::is_integral_v<T>) {
        static_assert(only_kinds<P, attr_kind::range, attr_kind::bits>,
                      "netser: an integer member takes netser::range, netser::bits or netser::common; remove the "
                      "other attributes");
        return plain_encoding_of<P, T>();
    } else if constexpr (std::is_floating_point_v<T>) {
        static_assert(only_kinds<P, attr_kind::quantize>,
                      "netser: a float member takes netser::quantize, netser::common or netser::finite; remove the "
                      "other attributes");
        return plain_encoding_of<P, T>();
    } else if constexpr (is_string<T> && has_attr<P, attr_kind::max_length>) {
        static_assert(only_kinds<P, attr_kind::max_length, attr_kind::raw_bytes>,
                      "netser: a std::string member takes only netser::max_length and netser::raw_bytes");
        return text_encoding{P::value.template get<attr_kind::max_length>().n, has_attr<P, attr_kind::raw_bytes>};
    } else if constexpr (is_vector<T>::value && has_attr<P, attr_kind::max_size>) {
        using E = typename T::value_type;
        using EP = without<P, attr_kind::max_size>;
        constexpr auto element = encoding_of<EP, E>();
        if constexpr (std::is_same_v<E, bool> || is_attribute_encoding<std::remove_const_t<decltype(element)>>)
            return attribute_encoding<P>{};
        else
            return sequence_encoding<std::remove_const_t<decltype(element)>>{
                P::value.template get<attr_kind::max_size>().n, min_bits_value<EP, E>(), element};
    } else {
        return attribute_encoding<P>{};
    }
}

template <class P, class T>
inline constexpr auto encoding_v = encoding_of<P, T>();

// ---- applying an encoding -------------------------------------------------------

template <stream S, class T, class E>
    requires is_fixed_width<E>
NETSER_INLINE bool apply_encoding(S& s, T& v, const E& e) noexcept {
    return serialize_code(s, v, e);
}

template <stream S>
bool apply_encoding(S& s, std::string& v, text_encoding e) {
    const std::size_t at = s.bits_processed();
    if (!S::is_reading && !e.raw_bytes && !valid_utf8(v)) [[unlikely]]
        return s.fail(errc::invalid_value, at);
    if (!serialize_string(s, v, e.max_length)) return false;
    if (S::is_reading && !e.raw_bytes && !valid_utf8(v)) [[unlikely]]
        return s.fail(errc::invalid_value, at);
    return true;
}

/// Adds "[i]" to the error path of a failed element.
template <stream S>
NETSER_COLD bool fail_at_index(S& s, std::size_t i) noexcept {
    s.error().prepend_index(i);
    return false;
}

/// A count in [0, max]: checked against max (too_large) and, on read, against the bits
/// left for `min_element_bits` each (overflow), before anything is allocated.
template <stream S>
NETSER_INLINE bool serialize_count(S& s, std::uint64_t& count, std::size_t max,
                                   std::size_t min_element_bits) noexcept {
    const std::size_t at = s.bits_processed();
    if constexpr (!S::is_reading)
        if (count > max) [[unlikely]] return s.fail(errc::too_large, at);
    if (!s.process_bits(count, bits_required_for_span(max))) return false;
    if constexpr (S::is_reading) {
        if (count > max) [[unlikely]] return s.fail(errc::too_large, at);
        if (min_element_bits != 0 && count > s.bits_remaining() / min_element_bits) [[unlikely]]
            return s.fail(errc::overflow, at);
    }
    return true;
}

template <stream S, class T, class Allocator, class E>
bool apply_encoding(S& s, std::vector<T, Allocator>& v, sequence_encoding<E> e) {
    std::uint64_t count = v.size();
    if (!serialize_count(s, count, e.max_size, e.min_element_bits)) return false;
    if constexpr (S::is_reading) {
        v.clear();
        v.resize(static_cast<std::size_t>(count));
    }
    for (std::size_t i = 0; i < v.size(); ++i)
        if (!apply_encoding(s, v[i], e.element)) [[unlikely]] return fail_at_index(s, i);
    return true;
}

} // namespace netser::detail
