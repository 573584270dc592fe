#pragma once

#include <netser/bounds.hpp>
#include <netser/detail/adl.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/protocol.hpp>
#include <netser/stream.hpp>

#include <concepts>
#include <cstddef>
#include <cstring>
#include <vector>

// User codecs: a user attribute (a type with serialize(stream, value) const) is the
// codec of the member it is written on; a user type with an ADL serialize(Stream&, T&)
// function (Glenn-style) is its own codec wherever it appears.
//
// Delta: either may give its own serialize_delta(stream, value, baseline), which is the
// value's whole delta (its changed bit included), as netser::serialize_delta is.
// Without one, a changed value is sent whole; whether it changed is the attribute's
// unchanged(value, baseline) when it has one, else whether the two write the same bits.

namespace netser::detail {

template <stream S, class T, class P>
NETSER_INLINE bool apply_encoding(S& s, T& v, user_attribute_encoding<P>) {
    return P::value.user().serialize(s, v);
}

// A user type's serialize is hand-written code: a serialize it calls roots its path for
// this walk to complete (stream_state::enter_user_code).
template <stream S, class T>
NETSER_INLINE bool apply_encoding(S& s, T& v, user_type_encoding) {
    return call_user_code(s, [&] { return adl::call(s, v); });
}

// ---- delta --------------------------------------------------------------------------

template <class P, class S, class T>
concept attribute_delta = requires(S& s, T& v, const T& b) {
    { P::value.user().serialize_delta(s, v, b) } -> std::convertible_to<bool>;
};

/// Whether the user codec of T (with attributes P) has its own serialize_delta.
template <class P, class S, class T>
constexpr bool has_own_delta() noexcept {
    using E = encoding_t<P, T>;
    if constexpr (std::is_same_v<E, user_attribute_encoding<P>>) return attribute_delta<P, S, T>;
    else if constexpr (std::is_same_v<E, user_type_encoding>) return adl::has_serialize_delta<S, T>;
    else return false;
}

template <class P, stream S, class T>
bool own_delta(S& s, T& v, const T& b) {
    if constexpr (std::is_same_v<encoding_t<P, T>, user_type_encoding>)
        return call_user_code(s, [&] { return adl::call_delta(s, v, b); });
    else
        return P::value.user().serialize_delta(s, v, b);
}

// Whether v and b write the same bits (at most max_bits each). A value that cannot be
// written (or needs a context, such as a link_context) counts as changed.
template <class T, class Encode>
bool same_bits_written(const T& v, const T& b, std::size_t max_bits, Encode&& encode) {
    const std::size_t bytes = (max_bits + 7) / 8;
    std::byte local[2][64];
    std::vector<std::byte> heap;
    std::byte* first = local[0];
    std::byte* second = local[1];
    if (bytes > sizeof local[0]) {
        heap.resize(2 * bytes);
        first = heap.data();
        second = heap.data() + bytes;
    }
    write_stream wv(first, bytes), wb(second, bytes);
    // Writers only read through these references.
    if (!encode(wv, const_cast<T&>(v)) || !encode(wb, const_cast<T&>(b))) return false;
    if (wv.bits_processed() != wb.bits_processed()) return false;
    const auto x = wv.finish(), y = wb.finish();
    return std::memcmp(x.data(), y.data(), x.size()) == 0;
}

template <class T, class P>
bool same_encoded(const T& v, const T& b, user_attribute_encoding<P>) {
    constexpr auto& a = P::value.user();
    if constexpr (requires { { a.unchanged(v, b) } -> std::convertible_to<bool>; })
        return a.unchanged(v, b);
    else
        return same_bits_written(v, b, a.max_bits(), [&](write_stream& w, T& x) { return a.serialize(w, x); });
}

template <class T>
bool same_encoded(const T& v, const T& b, user_type_encoding) {
    if constexpr (requires { netser_max_bits(static_cast<const T*>(nullptr)); })
        return same_bits_written(v, b, netser_max_bits(static_cast<const T*>(nullptr)),
                                 [](write_stream& w, T& x) { return adl::call(w, x); });
    else if constexpr (std::equality_comparable<T>)
        return v == b;
    else
        return false; // no bound to write into and no comparison: always sent
}

template <stream S, class T, class P>
bool apply_delta(S& s, T& v, const T&, user_attribute_encoding<P> e, const delta_params&) {
    return apply_encoding(s, v, e);
}
template <stream S, class T>
bool apply_delta(S& s, T& v, const T&, user_type_encoding e, const delta_params&) {
    return apply_encoding(s, v, e);
}

// ---- bounds -------------------------------------------------------------------------

// A user attribute states its most bits (max_bits()) and may state its fewest
// (min_bits()); a user type may state them with netser_max_bits(const T*) and
// netser_min_bits(const T*). The fewest refuse forged counts early.
template <class P, class T, class Q>
constexpr bit_bounds family_bounds(user_attribute_encoding<Q>) noexcept {
    constexpr auto& u = P::value.user();
    if constexpr (requires { u.min_bits(); }) return {u.min_bits(), u.max_bits()};
    else return {0, u.max_bits()};
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(user_attribute_encoding<Q>) noexcept {
    constexpr auto& u = P::value.user();
    if constexpr (requires { u.min_bits(); }) return u.min_bits();
    else return 0;
}
template <class P, class T>
constexpr bit_bounds family_bounds(user_type_encoding) noexcept {
    if constexpr (requires { netser_max_bits(static_cast<const T*>(nullptr)); })
        return {0, netser_max_bits(static_cast<const T*>(nullptr))};
    else
        return {0, 0, false};
}
template <class P, class T>
constexpr std::size_t family_min_bits(user_type_encoding) noexcept {
    if constexpr (requires { netser_min_bits(static_cast<const T*>(nullptr)); })
        return netser_min_bits(static_cast<const T*>(nullptr));
    else
        return 0;
}

// A changed value without a delta of its own is sent whole; with one, the codec states
// its bound (max_delta_bits() on an attribute, netser_max_delta_bits(const T*) for a type).
template <class T, class P>
constexpr bit_bounds delta_bounds(user_attribute_encoding<P>, const delta_params&) noexcept {
    return value_bounds<P, T>();
}
template <class T>
constexpr bit_bounds delta_bounds(user_type_encoding, const delta_params&) noexcept {
    return value_bounds<no_attrs, T>();
}

template <class P, class T>
constexpr bit_bounds own_delta_bounds() noexcept {
    if constexpr (std::is_same_v<encoding_t<P, T>, user_type_encoding>) {
        if constexpr (requires { netser_max_delta_bits(static_cast<const T*>(nullptr)); })
            return {0, netser_max_delta_bits(static_cast<const T*>(nullptr))};
        else
            return {0, 0, false};
    } else {
        constexpr auto& a = P::value.user();
        if constexpr (requires { a.max_delta_bits(); }) return {0, a.max_delta_bits()};
        else return {0, 0, false};
    }
}

// ---- schema node ----------------------------------------------------------------------

template <class V>
constexpr int schema_xyzw_fields() noexcept {
    if constexpr (requires(V& v) { v.x; v.y; v.z; v.w; }) return 4;
    else if constexpr (requires(V& v) { v.x; v.y; v.z; }) return 3;
    else return 0;
}

// A user attribute (a codec object): its tag and bounds, and what it exposes of itself:
// an integral `bits` member, a params() returning its netser::quantization.
template <class P, class T, class B>
void schema_user_attribute(B& b) {
    constexpr auto& a = P::value.user();
    auto& o = b.out;
    schema_string(b, "kind", "user_attribute");
    o.key("tag");
    if constexpr (requires { a.schema_tag(); }) o.string(a.schema_tag());
    else o.null();
    schema_integer(b, "max_bits", a.max_bits());
    if constexpr (requires { a.min_bits(); }) schema_integer(b, "min_bits", a.min_bits());
    else schema_integer(b, "min_bits", 0);
    if constexpr (requires { requires std::is_integral_v<std::remove_cvref_t<decltype(a.bits)>>; })
        schema_integer(b, "bits", a.bits);
    if constexpr (requires { { a.params() } -> std::same_as<quantization>; }) {
        o.key("quantization");
        o.begin_object();
        schema_quantization(b, a.params(), nullptr);
        o.end_object();
    }
    if constexpr (constexpr int n = schema_xyzw_fields<T>(); n != 0) {
        o.key("value_fields");
        o.begin_array();
        for (int i = 0; i < n; ++i) o.string(std::string_view("xyzw").substr(static_cast<std::size_t>(i), 1));
        o.end_array();
    }
}

template <class P, class T, class B, class Q>
bool family_schema(B& b, user_attribute_encoding<Q>) {
    schema_user_attribute<P, T>(b);
    return true;
}

// A user type: its tag (netser_schema_tag(const T*)) and the bounds it states.
template <class P, class T, class B>
bool family_schema(B& b, user_type_encoding) {
    auto& o = b.out;
    schema_string(b, "kind", "user_type");
    o.key("tag");
    if constexpr (requires { netser_schema_tag(static_cast<const T*>(nullptr)); })
        o.string(netser_schema_tag(static_cast<const T*>(nullptr)));
    else
        o.null();
    o.key("max_bits");
    if constexpr (requires { netser_max_bits(static_cast<const T*>(nullptr)); })
        o.integer(netser_max_bits(static_cast<const T*>(nullptr)));
    else
        o.null();
    schema_integer(b, "min_bits", min_bits_value<no_attrs, T>());
    return true;
}

} // namespace netser::detail
