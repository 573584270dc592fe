#pragma once

#include <netser/bounds.hpp>
#include <netser/detail/adl.hpp>
#include <netser/detail/schema_hasher.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/protocol.hpp>
#include <netser/stream.hpp>
#include <netser/wire_layout.hpp>

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

// User codecs: a user attribute (a type with serialize(stream, value) const) is the
// codec of the member it is written on; a user type with an ADL serialize(Stream&, T&)
// function (Glenn-style) is its own codec wherever it appears. A user attribute may
// instead take serialize(stream, value, encode): encode(stream, value) is netser's
// encoding of the value with the member's other attributes, which it can wrap.
//
// Delta: either may give its own serialize_delta(stream, value, baseline), which is the
// value's whole delta (its changed bit included), as netser::serialize_delta is.
// Without one, a changed value is sent whole; whether it changed is the attribute's
// unchanged(value, baseline) when it has one, else whether the two write the same bits.

namespace netser::detail {

// ---- bits -------------------------------------------------------------------------

// A user attribute states its most bits (max_bits()) and may state its fewest
// (min_bits()); a user type may state them with netser_max_bits(const T*) and
// netser_min_bits(const T*). A codec that states its wire (wire(), netser_wire(const
// T*): <netser/wire_layout.hpp>) writes exactly its fields' bits, and needs neither. The
// fewest refuse forged counts early.
template <class W>
constexpr bit_bounds wire_bounds(const W& w, std::size_t stated_max, std::size_t stated_min) noexcept {
    const std::size_t n = w.bits();
    return {n, n, w.valid() && (stated_max == 0 || stated_max == n) && (stated_min == 0 || stated_min == n)};
}

// The member's value as netser encodes it without the user attribute: what a wrapping
// attribute's serialize(s, v, encode) is given. (The value only: the other attributes are
// the member's value's.)
template <class P, class T>
struct inner_encoder {
    template <stream S>
    NETSER_INLINE bool operator()(S& s, T& v) const {
        return serialize_value<without<P, user_kind>>(s, v);
    }
};

template <class P, class T>
inline constexpr bool wraps_encoding = !requires(const pack_of<P>& a, measure_stream& m, T& v) { a.user().serialize(m, v); };

/// The user attribute of P on a value v of type T, through stream s.
template <class P, stream S, class T>
NETSER_INLINE bool call_user_attribute(S& s, T& v) {
    if constexpr (wraps_encoding<P, T>) return P::value.user().serialize(s, v, inner_encoder<P, T>{});
    else return P::value.user().serialize(s, v);
}

// The most bits a user attribute states on its own: its wire's when it states one, else
// its max_bits(); 0 when it only states them from the encoding it wraps. (The schema
// hash and the attribute's entry in the schema read it from the attribute alone.)
template <class U>
constexpr std::size_t stated_max_bits(const U& u) noexcept {
    if constexpr (requires { u.wire(); }) return u.wire().bits();
    else if constexpr (requires { u.max_bits(); }) return u.max_bits();
    else return 0;
}

// The bits a user attribute states (or its wire does); unbounded when it states none,
// or a wire that is not well formed or disagrees with them (user_bits_stated).
template <class P>
constexpr bit_bounds stated_attribute_bounds() noexcept {
    constexpr auto& u = P::value.user();
    constexpr std::size_t stated_max = [] {
        if constexpr (requires { u.max_bits(); }) return std::size_t{u.max_bits()};
        else return std::size_t{0};
    }();
    constexpr std::size_t stated_min = [] {
        if constexpr (requires { u.min_bits(); }) return std::size_t{u.min_bits()};
        else return std::size_t{0};
    }();
    if constexpr (requires { u.wire(); }) return wire_bounds(u.wire(), stated_max, stated_min);
    else if constexpr (requires { u.max_bits(); }) return {stated_min, stated_max};
    else return {0, 0, false};
}

template <class P>
constexpr bool wraps_bits = requires { P::value.user().max_bits(std::size_t{}); } &&
                            !requires { P::value.user().max_bits(); };

// A wrapping attribute states its bits from its inner encoding's: max_bits(inner_max),
// and may state min_bits(inner_min).
template <class P, class T>
constexpr bit_bounds user_attribute_bounds() noexcept {
    constexpr auto& u = P::value.user();
    if constexpr (wraps_bits<P>) {
        constexpr bit_bounds inner = value_bounds<without<P, user_kind>, T>();
        if constexpr (!inner.bounded) {
            return {0, 0, false};
        } else {
            constexpr std::size_t most = u.max_bits(inner.max);
            if constexpr (requires { u.min_bits(std::size_t{}); }) return {u.min_bits(inner.min), most};
            else return {0, most};
        }
    } else {
        return stated_attribute_bounds<P>();
    }
}

/// The rule every user attribute keeps (misuse::user_bits, reported by the member's
/// name): it states its bits, by max_bits(), by a well-formed wire() that agrees with
/// the max_bits() / min_bits() it states, or from the encoding it wraps.
template <class P>
constexpr bool user_bits_stated() noexcept {
    return wraps_bits<P> || stated_attribute_bounds<P>().bounded;
}

template <class T>
constexpr bit_bounds user_type_bounds() noexcept {
    constexpr const T* t = nullptr;
    constexpr std::size_t stated_max = [] {
        if constexpr (requires { netser_max_bits(t); }) return std::size_t{netser_max_bits(t)};
        else return std::size_t{0};
    }();
    constexpr std::size_t stated_min = [] {
        if constexpr (requires { netser_min_bits(t); }) return std::size_t{netser_min_bits(t)};
        else return std::size_t{0};
    }();
    if constexpr (requires { netser_wire(t); }) {
        constexpr bit_bounds b = wire_bounds(netser_wire(t), stated_max, stated_min);
        static_assert(b.bounded, "netser: a user type's netser_wire() needs fields of 1 to 32 bits with codes that "
                                 "fit them (and valid quantizations), adding up to its netser_max_bits() and "
                                 "netser_min_bits() when it states them");
        return {b.min, b.max}; // reported just above: nothing more about it
    } else if constexpr (requires { netser_max_bits(t); }) {
        return {stated_min, stated_max};
    } else {
        return {stated_min, 0, false};
    }
}

template <stream S, class T, class P>
NETSER_INLINE bool apply_encoding(S& s, T& v, user_attribute_encoding<P>) {
    return call_user_attribute<P>(s, v);
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
        return same_bits_written(v, b, user_attribute_bounds<P, T>().max,
                                 [](write_stream& w, T& x) { return call_user_attribute<P>(w, x); });
}

template <class T>
bool same_encoded(const T& v, const T& b, user_type_encoding) {
    if constexpr (constexpr bit_bounds bits = user_type_bounds<T>(); bits.bounded)
        return same_bits_written(v, b, bits.max, [](write_stream& w, T& x) { return adl::call(w, x); });
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

template <class P, class T, class Q>
constexpr bit_bounds family_bounds(user_attribute_encoding<Q>) noexcept {
    return user_attribute_bounds<P, T>();
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(user_attribute_encoding<Q>) noexcept {
    return user_attribute_bounds<P, T>().min;
}
template <class P, class T>
constexpr bit_bounds family_bounds(user_type_encoding) noexcept {
    constexpr bit_bounds b = user_type_bounds<T>();
    if constexpr (b.bounded) return {0, b.max};
    else return {0, 0, false};
}
template <class P, class T>
constexpr std::size_t family_min_bits(user_type_encoding) noexcept {
    return user_type_bounds<T>().min;
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

constexpr std::string_view wire_kind_name(wire_field::kind k) noexcept {
    switch (k) {
    case wire_field::kind::flag: return "flag";
    case wire_field::kind::integer: return "integer";
    case wire_field::kind::quantized: return "quantized";
    default: return "code";
    }
}

// A codec's stated wire: its fields, in order.
template <class B, std::size_t N>
void schema_wire(B& b, const wire_layout<N>& w) {
    auto& o = b.out;
    o.key("wire");
    o.begin_array();
    for (const wire_field& f : w.fields) {
        o.begin_object();
        schema_string(b, "name", f.name);
        schema_string(b, "as", wire_kind_name(f.as));
        schema_integer(b, "bits", f.bits);
        schema_integer(b, "max_code", f.max_code);
        if (f.as == wire_field::kind::integer) schema_integer(b, "min", f.min);
        if (f.as == wire_field::kind::quantized) {
            o.key("quantization");
            o.begin_object();
            schema_quantization(b, f.q, nullptr);
            o.end_object();
        }
        o.end_object();
    }
    o.end_array();
}

// A user attribute (a codec object): its tag and bounds, its wire when it states it, and
// what it exposes of itself: an integral `bits` member, a params() returning its
// netser::quantization.
template <class P, class T, class B>
void schema_user_attribute(B& b) {
    constexpr auto& a = P::value.user();
    constexpr bit_bounds bits = user_attribute_bounds<P, T>();
    auto& o = b.out;
    schema_string(b, "kind", "user_attribute");
    o.key("tag");
    if constexpr (requires { a.schema_tag(); }) o.string(a.schema_tag());
    else o.null();
    schema_integer(b, "max_bits", bits.max);
    schema_integer(b, "min_bits", bits.min);
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
    if constexpr (requires { a.wire(); }) schema_wire(b, a.wire());
}

template <class P, class T, class B, class Q>
bool family_schema(B& b, user_attribute_encoding<Q>) {
    schema_user_attribute<P, T>(b);
    return true;
}

// A user type: its tag (netser_schema_tag(const T*)), the bounds it states and its wire.
template <class P, class T, class B>
bool family_schema(B& b, user_type_encoding) {
    constexpr bit_bounds bits = user_type_bounds<T>();
    auto& o = b.out;
    schema_string(b, "kind", "user_type");
    o.key("tag");
    if constexpr (requires { netser_schema_tag(static_cast<const T*>(nullptr)); })
        o.string(netser_schema_tag(static_cast<const T*>(nullptr)));
    else
        o.null();
    o.key("max_bits");
    if constexpr (bits.bounded) o.integer(bits.max);
    else o.null();
    schema_integer(b, "min_bits", bits.min);
    if constexpr (requires { netser_wire(static_cast<const T*>(nullptr)); })
        schema_wire(b, netser_wire(static_cast<const T*>(nullptr)));
    return true;
}

// ---- the types on their own: schema hash tokens and type names --------------------------

struct user_codec_type_tag {}; // a type with its own serialize
struct pointer_type_tag {};    // a T*: only a user attribute (netser::linked) encodes one

// A user codec's stated wire: each field's name, form, bits, largest code, and the
// parameters it reads with.
template <std::size_t N>
constexpr void hash_wire(schema_hasher& h, const wire_layout<N>& w) noexcept {
    h.text("wire");
    h.number(N);
    for (const wire_field& f : w.fields) {
        h.text(f.name);
        h.number(static_cast<std::uint64_t>(f.as));
        h.number(static_cast<std::uint64_t>(f.bits));
        h.number(f.max_code);
        h.number(static_cast<std::uint64_t>(f.min));
        if (f.as == wire_field::kind::quantized) {
            h.number(std::bit_cast<std::uint32_t>(f.q.min));
            h.number(std::bit_cast<std::uint32_t>(f.q.delta));
        }
    }
}

// "user", then its tag when it gives one (netser_schema_tag(const T*)), else its wire
// when it states one (netser_wire(const T*)).
template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, user_codec_type_tag) noexcept {
    h.text("user");
    if constexpr (requires { netser_schema_tag(static_cast<const T*>(nullptr)); })
        h.text(netser_schema_tag(static_cast<const T*>(nullptr)));
    else if constexpr (requires { netser_wire(static_cast<const T*>(nullptr)); })
        hash_wire(h, netser_wire(static_cast<const T*>(nullptr)));
}
// A pointer has no encoding of its own (its attribute is hashed beside it).
template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, pointer_type_tag) noexcept {
    h.text("unknown");
}

template <class T, class B>
void family_type_name(B&, std::string& s, user_codec_type_tag) {
    s += "user";
    if constexpr (requires { netser_schema_tag(static_cast<const T*>(nullptr)); }) {
        s += '<';
        s += netser_schema_tag(static_cast<const T*>(nullptr));
        s += '>';
    }
}
template <class T, class B>
void family_type_name(B& b, std::string& s, pointer_type_tag) {
    s += "pointer<";
    schema_type_name<std::remove_cv_t<std::remove_pointer_t<T>>>(b, s);
    s += '>';
}

} // namespace netser::detail
