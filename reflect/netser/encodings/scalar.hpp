#pragma once

#include <netser/attributes.hpp>
#include <netser/bits_required.hpp>
#include <netser/detail/float_math.hpp>
#include <netser/detail/schema_hasher.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/difference_ladder.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/protocol.hpp>
#include <netser/primitives.hpp>
#include <netser/value_codes.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view> // std::size
#include <type_traits>
#include <utility>

// Scalars: the fixed-width codes (bool, integers, enums, floats; see value_codes.hpp),
// common values around them, and finite floats. Delta: a changed code is sent as its
// difference from the baseline's code through a ladder (difference_ladder.hpp), a
// changed raw float, common value or finite float whole.

namespace netser::detail {

// ---- classification -------------------------------------------------------------

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


template <stream S, class T, class E>
    requires is_fixed_width<E>
NETSER_INLINE bool apply_encoding(S& s, T& v, const E& e) noexcept {
    return serialize_code(s, v, e);
}

template <class T, class E>
    requires is_fixed_width<E>
NETSER_INLINE bool same_encoded(const T& v, const T& b, const E& e) noexcept {
    std::uint64_t code = 0, base = 0;
    return to_code(v, e, code) == errc::none && to_code(b, e, base) == errc::none && code == base;
}

// The difference of two raw floats' bits means nothing: a changed one is sent whole.
template <class T, class E>
inline constexpr bool sends_difference = !(std::is_floating_point_v<T> && std::is_same_v<E, raw_encoding>);

// The code's difference from the baseline's (which must have a code: else the error a
// write of the baseline would give).
template <stream S, class T, class E>
    requires is_fixed_width<E>
NETSER_INLINE bool apply_delta(S& s, T& v, const T& b, const E& e, const delta_params& p) noexcept {
    if constexpr (!sends_difference<T, E>) {
        return serialize_code(s, v, e);
    } else {
        const std::size_t at = s.bits_processed();
        std::uint64_t base = 0, code = 0;
        if (const errc c = to_code(b, e, base); c != errc::none) [[unlikely]] return s.fail(c, at);
        if constexpr (!S::is_reading)
            if (const errc c = to_code(v, e, code); c != errc::none) [[unlikely]] return s.fail(c, at);
        if (!serialize_difference(s, code, base, code_max<T>(e), p.ladder)) return false;
        if constexpr (S::is_reading)
            if (const errc c = from_code(code, v, e); c != errc::none) [[unlikely]] return s.fail(c, at);
        return true;
    }
}

// A writer's changed bit and difference at once: each side coded once (same_value and
// then apply_delta would code both twice). Bitwise equal values are unchanged uncoded.
template <stream S, class T, class E>
    requires(is_fixed_width<E> && sends_difference<T, E>)
NETSER_INLINE delta_written write_changed(S& s, T& v, const T& b, const E& e, const delta_params& p) noexcept {
    std::uint64_t code = 0, base = 0;
    errc of_base = errc::none, of_value = errc::none;
    bool changed = !bitwise_equal(v, b);
    if (changed) {
        of_base = to_code(b, e, base);
        of_value = to_code(v, e, code);
        changed = of_base != errc::none || of_value != errc::none || code != base;
    }
    if (!serialize_bool(s, changed)) return delta_written::failed;
    if (!changed) return delta_written::unchanged;
    // As apply_delta: the baseline's error first, at the body's first bit.
    const std::size_t at = s.bits_processed();
    const errc c = of_base != errc::none ? of_base : of_value;
    if (c != errc::none) [[unlikely]] {
        (void)s.fail(c, at);
        return delta_written::failed;
    }
    return serialize_difference(s, code, base, code_max<T>(e), p.ladder) ? delta_written::changed
                                                                          : delta_written::failed;
}

// common(values...) as a value: the plain encoding and the values as T.
template <class P, class T>
constexpr auto common_values_of() noexcept {
    constexpr auto c = P::value.template get<attr_kind::common>();
    constexpr std::size_t k = std::size(c.values);
    // The classification reports this by member name first; this guards other callers.
    if constexpr (std::is_integral_v<T>)
        static_assert(common_fits<T>(c),
                      "netser: every netser::common value must be representable in the member's type");
    constexpr auto plain = plain_encoding_of<P, T>();
    common_values<T, std::remove_const_t<decltype(plain)>, k> r{plain, {}};
    for (std::size_t i = 0; i < k; ++i) r.values[i] = static_cast<T>(c.values[i]);
    return r;
}
template <class P, class T>
inline constexpr auto common_values_v = common_values_of<P, T>();

// common(values...): a flag bit, then the index among the values or the plain encoding.
// One function per stream, type, plain encoding and count of values, whatever the values.
template <stream S, class T, class E, std::size_t K>
NETSER_INLINE bool apply_encoding(S& s, T& v, const common_values<T, E, K>& c) {
    constexpr int index_bits = bits_required_for_span(K - 1);
    const std::size_t at = s.bits_processed();
    std::uint64_t index = K;
    if constexpr (!S::is_reading) {
        for (std::size_t i = 0; i < K; ++i)
            if (v == c.values[i]) {
                index = i;
                break;
            }
    }
    bool is_common = index < K;
    if (!serialize_bool(s, is_common)) return false;
    // A failure anywhere in the value is reported at its first bit, the flag.
    if (!is_common) return serialize_code(s, v, c.plain) || failed_from(s, at);
    if (!s.process_bits(index, index_bits)) return failed_from(s, at);
    if constexpr (S::is_reading) {
        if (index >= K) [[unlikely]] return s.fail(errc::out_of_range, at);
        v = c.values[index];
    }
    return true;
}

template <class P, stream S, class T>
NETSER_INLINE bool serialize_with_common(S& s, T& v) {
    if constexpr (has_attr<P, attr_kind::common>) return apply_encoding(s, v, common_values_v<P, T>);
    else return serialize_code(s, v, plain_encoding_of<P, T>());
}

template <stream S, class T, class P>
NETSER_INLINE bool apply_encoding(S& s, T& v, common_encoding<P>) {
    return serialize_with_common<P>(s, v);
}

// The same common value, or the same plain code.
template <class P, class T>
bool same_with_common(const T& v, const T& b) noexcept {
    if constexpr (has_attr<P, attr_kind::common>) {
        constexpr auto c = P::value.template get<attr_kind::common>();
        constexpr std::size_t k = std::size(c.values);
        std::size_t iv = k, ib = k;
        for (std::size_t i = 0; i < k; ++i) {
            if (iv == k && v == static_cast<T>(c.values[i])) iv = i;
            if (ib == k && b == static_cast<T>(c.values[i])) ib = i;
        }
        if (iv != ib) return false;
        if (iv != k) return true;
    }
    return same_encoded(v, b, plain_encoding_of<P, T>());
}

template <class T, class P>
bool same_encoded(const T& v, const T& b, common_encoding<P>) noexcept {
    return same_with_common<P>(v, b);
}
template <stream S, class T, class P>
bool apply_delta(S& s, T& v, const T&, common_encoding<P> e, const delta_params&) {
    return apply_encoding(s, v, e);
}

// finite: NaN and infinities fail the write and the read.
template <stream S, class T, class P>
NETSER_INLINE bool apply_encoding(S& s, T& v, finite_encoding<P>) {
    const std::size_t at = s.bits_processed();
    if constexpr (!S::is_reading)
        if (!fp::is_finite(v)) [[unlikely]] return s.fail(errc::invalid_value, at);
    if (!serialize_with_common<P>(s, v)) return false;
    if constexpr (S::is_reading)
        if (!fp::is_finite(v)) [[unlikely]] return s.fail(errc::invalid_value, at);
    return true;
}

template <class T, class P>
bool same_encoded(const T& v, const T& b, finite_encoding<P>) noexcept {
    return fp::is_finite(v) && fp::is_finite(b) && same_with_common<P>(v, b);
}
template <stream S, class T, class P>
bool apply_delta(S& s, T& v, const T&, finite_encoding<P> e, const delta_params&) {
    return apply_encoding(s, v, e);
}

// ---- bounds (fixed-width codes: code_bits, in <netser/bounds.hpp>) ------------------

// common(values...): the flag bit, then the index among the values or the plain code.
template <class P, class T>
constexpr bit_bounds with_common_bounds() noexcept {
    const auto plain = static_cast<std::size_t>(code_bits<T>(plain_encoding_of<P, T>()));
    if constexpr (has_attr<P, attr_kind::common>) {
        constexpr auto c = P::value.template get<attr_kind::common>();
        const auto index_bits = static_cast<std::size_t>(bits_required_for_span(std::size(c.values) - 1));
        return {1 + (index_bits < plain ? index_bits : plain), 1 + (index_bits > plain ? index_bits : plain)};
    } else {
        return {plain, plain};
    }
}
template <class P, class T, class Q>
constexpr bit_bounds family_bounds(common_encoding<Q>) noexcept {
    return with_common_bounds<P, T>();
}
template <class P, class T, class Q>
constexpr bit_bounds family_bounds(finite_encoding<Q>) noexcept {
    return with_common_bounds<P, T>();
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(common_encoding<Q>) noexcept {
    return with_common_bounds<P, T>().min;
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(finite_encoding<Q>) noexcept {
    return with_common_bounds<P, T>().min;
}

template <class T, class E>
    requires is_fixed_width<E>
constexpr bit_bounds delta_bounds(const E& e, const delta_params& p) noexcept {
    if constexpr (!sends_difference<T, E>) return {0, static_cast<std::size_t>(code_bits<T>(e))};
    else return {0, code_max<T>(e) <= 1 ? 0 : static_cast<std::size_t>(p.ladder.max_cost())};
}
template <class T, class P>
constexpr bit_bounds delta_bounds(common_encoding<P>, const delta_params&) noexcept {
    return value_bounds<P, T>();
}
template <class T, class P>
constexpr bit_bounds delta_bounds(finite_encoding<P>, const delta_params&) noexcept {
    return value_bounds<P, T>();
}

// ---- schema node ----------------------------------------------------------------------

// common(v...): the values as the member reads them (converted to its type T).
template <class P, class T, class B>
void schema_common(B& b) {
    if constexpr (has_attr<P, attr_kind::common>) {
        constexpr auto c = P::value.template get<attr_kind::common>();
        auto& o = b.out;
        o.key("common");
        o.begin_object();
        o.key("values");
        o.begin_array();
        for (auto v : c.values) {
            if constexpr (std::is_floating_point_v<T>) o.real(static_cast<T>(v));
            else o.integer(static_cast<T>(v));
        }
        o.end_array();
        schema_integer(b, "index_bits", bits_required_for_span(std::size(c.values) - 1));
        o.end_object();
    }
}

template <class P, class T, class B>
void schema_scalar(B& b) {
    auto& o = b.out;
    if constexpr (std::is_integral_v<T>) {
        schema_string(b, "kind", "int");
        schema_string(b, "type", wire_scalar_name<T>());
        schema_integer_code<T>(b, plain_encoding_of<P, T>());
    } else {
        schema_string(b, "kind", "float");
        schema_string(b, "type", wire_scalar_name<T>());
        constexpr auto e = plain_encoding_of<P, T>();
        if constexpr (std::is_same_v<std::remove_const_t<decltype(e)>, quantization>) {
            schema_string(b, "encoding", "quantize");
            const float resolution = P::value.template get<attr_kind::quantize>().resolution;
            schema_quantization(b, e, &resolution);
        } else {
            schema_string(b, "encoding", "raw");
            schema_integer(b, "bits", sizeof(T) * 8);
        }
        o.key("finite");
        o.boolean(has_attr<P, attr_kind::finite>);
    }
    schema_common<P, T>(b);
}

template <class P, class T, class B, class E>
    requires(is_fixed_width<E> && std::is_arithmetic_v<T>)
bool family_schema(B& b, const E&) {
    if constexpr (std::is_same_v<T, bool>) {
        schema_string(b, "kind", "bool");
        schema_integer(b, "bits", 1);
    } else {
        schema_scalar<P, T>(b);
    }
    return true;
}
template <class P, class T, class B, class Q>
bool family_schema(B& b, common_encoding<Q>) {
    schema_scalar<P, T>(b);
    return true;
}
template <class P, class T, class B, class Q>
bool family_schema(B& b, finite_encoding<Q>) {
    schema_scalar<P, T>(b);
    return true;
}

// ---- the type on its own: schema hash tokens and type name -----------------------------

struct scalar_type_tag {}; // bool, integers, floats

template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, scalar_type_tag) noexcept {
    if constexpr (std::is_same_v<T, bool>) {
        h.text("bool");
    } else {
        h.text(std::is_floating_point_v<T> ? "float" : std::is_signed_v<T> ? "int" : "uint");
        h.number(sizeof(T) * 8);
    }
}
template <class T, class B>
void family_type_name(B&, std::string& s, scalar_type_tag) {
    s += wire_scalar_name<T>();
}

} // namespace netser::detail
