#pragma once

#include <netser/attributes.hpp>
#include <netser/bounds.hpp>
#include <netser/check.hpp>
#include <netser/delta.hpp>
#include <netser/delta_packet.hpp>
#include <netser/description.hpp>
#include <netser/detail/adl.hpp>
#include <netser/detail/json_writer.hpp>
#include <netser/detail/recursion.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/difference_ladder.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/enum.hpp>
#include <netser/encodings/struct.hpp>
#include <netser/packet.hpp>
#include <netser/schema_hash.hpp>
#include <netser/stream.hpp>
#include <netser/walk.hpp>

#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <string_view>
#include <type_traits>
#include <vector>

// schema_json<T>(): T's wire layout as a JSON document (docs/schema.md), complete
// enough for a decoder that knows nothing else: every member in wire order with its
// encoding and every parameter, how serialize_delta sends it (its delta body), the
// described structs once each by name, and the layouts of packets and delta packets.
// It walks the same choices as the visitor (walk.hpp) and the bounds
// (bounds.hpp), at run time into a std::string: nothing here is instantiated unless a
// program calls schema_json.

namespace netser {

namespace detail {

// The declared type by wire meaning (never a compiler's spelling): "uint16",
// "vector<Unit>", "optional<int32>", "enum<uint8>"... (docs/schema.md, "type"), as its
// family names it.
template <class T, class B>
void schema_type_name(B& b, std::string& s) {
    family_type_name<T>(b, s, type_family_t<T>{});
}

// What an attribute's fields(v) shows, written as the attribute's JSON fields.
template <class B>
struct attribute_writer {
    B& b;
    template <class I>
    void integer(std::string_view key, I v) { schema_integer(b, key, v); }
    void number(std::string_view key, std::uint64_t v) { schema_integer(b, key, v); }
    template <class F>
    void real(std::string_view key, F v) {
        b.out.key(key);
        b.out.real(v);
    }
    template <class C, class M>
    void member(std::string_view key, M C::*flag) { schema_string(b, key, flag_member_name(flag)); }
    template <class V>
    void values(std::string_view key, const V* v, std::size_t n) {
        b.out.key(key);
        b.out.begin_array();
        for (std::size_t i = 0; i < n; ++i) {
            if constexpr (std::is_floating_point_v<V>) b.out.real(v[i]);
            else if constexpr (std::is_enum_v<V>) b.out.integer(static_cast<std::underlying_type_t<V>>(v[i]));
            else b.out.integer(v[i]);
        }
        b.out.end_array();
    }
    void numbers(std::string_view key, const std::uint64_t* v, int n) {
        b.out.key(key);
        b.out.begin_array();
        for (int i = 0; i < n; ++i) b.out.integer(v[i]);
        b.out.end_array();
    }
    void hex(std::string_view key, std::uint64_t v, int digits) {
        b.out.key(key);
        b.out.hex(v, digits);
    }
};

// An attribute as written on the member (the diff's view; schema_hash hashes the same
// fields).
template <class A, class B>
void schema_attribute(B& b, const A& a) {
    auto& o = b.out;
    o.begin_object();
    if constexpr (requires { A::kind; }) {
        schema_string(b, "attr", A::name);
        attribute_writer<B> w{b};
        a.fields(w);
    } else {
        schema_string(b, "attr", "user");
        o.key("tag");
        if constexpr (requires { a.schema_tag(); }) o.string(a.schema_tag());
        else o.null();
        schema_integer(b, "max_bits", stated_max_bits(a));
        if constexpr (requires { a.ladder.rungs; }) { // its delta's ladder (smallest_three), hashed too
            o.key("delta_ladder");
            o.begin_array();
            for (int j = 0; j < a.ladder.rungs; ++j) o.integer(a.ladder.limit[j]);
            o.end_array();
        }
    }
    o.end_object();
}

template <class... A, class B>
void schema_attributes(B& b, const attr_pack<A...>& p) {
    b.out.begin_array();
    p.for_each([&](const auto& a) {
        if constexpr (counts_in_schema<std::remove_cvref_t<decltype(a)>>()) schema_attribute(b, a);
    });
    b.out.end_array();
}

// A difference of codes of [0, max_code] through `ladder`: the limits as written, and the
// rungs fitted to the range (difference_ladder.hpp), so that a decoder need not fit them.
template <class B>
void schema_difference(B& b, const difference_ladder& ladder, std::uint64_t max_code) {
    auto& o = b.out;
    const effective_ladder fitted(ladder, max_code);
    o.key("ladder");
    o.begin_array();
    for (int j = 0; j < ladder.rungs; ++j) o.integer(ladder.limit[j]);
    o.end_array();
    schema_integer(b, "max_code", max_code);
    o.key("rungs");
    o.begin_array();
    for (int j = 0; j < fitted.rungs; ++j) {
        o.begin_object();
        schema_integer(b, "lo", fitted.rung[j].lo);
        schema_integer(b, "hi", fitted.rung[j].hi);
        schema_integer(b, "bits", fitted.rung[j].bits);
        o.end_object();
    }
    o.end_array();
    schema_integer(b, "code_bits", fitted.code_bits);
}

// How serialize_delta sends a changed value of this node (docs/schema.md section 4,
// delta_body), with the choices of walk.hpp: delta_whole first, then a user codec's
// own serialize_delta, then the encoding's family.
template <class P, class T, class B>
void schema_delta(B& b) {
    using E = encoding_t<P, T>;
    auto& o = b.out;
    o.key("delta_body");
    o.begin_object();
    if constexpr (has_attr<P, attr_kind::delta_whole>) {
        schema_string(b, "form", "plain");
        o.key("whole");
        o.boolean(true);
    } else if constexpr (has_own_delta<P, measure_stream, T>()) {
        schema_string(b, "form", "own");
        constexpr bit_bounds bounds = own_delta_bounds<P, T>();
        o.key("max_delta_bits");
        if (bounds.bounded) o.integer(bounds.max);
        else o.null();
        if constexpr (std::is_same_v<E, user_attribute_encoding<P>>) {
            // A codec whose delta sends differences of its quantized codes (smallest_three).
            constexpr auto& a = P::value.user();
            if constexpr (requires {
                              { a.ladder } -> std::convertible_to<difference_ladder>;
                              { a.params() } -> std::same_as<quantization>;
                          })
                schema_difference(b, a.ladder, a.params().max_int);
            else if constexpr (requires { // ... or of the codes it holds (smallest_three_codes)
                                   { a.ladder } -> std::convertible_to<difference_ladder>;
                                   { a.max_code } -> std::convertible_to<std::uint64_t>;
                               })
                schema_difference(b, a.ladder, a.max_code);
        }
    } else if constexpr (std::is_same_v<E, bool_encoding>) {
        schema_string(b, "form", "flip");
    } else if constexpr (is_fixed_width<E> && sends_difference<T, E>) {
        schema_string(b, "form", "difference");
        schema_difference(b, ladder_of<P>(), code_max<T>(encoding_v<P, T>));
    } else if constexpr (requires { family_delta_form<T>(encoding_v<P, T>); }) {
        schema_string(b, "form", family_delta_form<T>(encoding_v<P, T>));
    } else {
        schema_string(b, "form", schema_delta_body<E>); // a raw float's bits: plain
    }
    o.end_object();
}

// A value's node: its family's fields, then how serialize_delta sends it.
template <class P, class T, class B>
void schema_encoding(B& b) {
    constexpr auto e = encoding_v<P, T>;
    b.out.begin_object();
    if constexpr (is_invalid<std::remove_const_t<decltype(e)>>) {
        schema_string(b, "kind", "unknown"); // the walks that send it report the mistake
    } else if (family_schema<P, T>(b, e)) {
        schema_delta<P, T>(b);
    }
    b.out.end_object();
}

// A type with a struct that holds itself (reaches_recursion) has no largest size.
template <class T>
constexpr bit_bounds schema_bounds() noexcept {
    if constexpr (reaches_recursion<T>()) return {0, 0, false};
    else return value_bounds<no_attrs, T>();
}

template <class T>
constexpr bit_bounds schema_delta_bounds() noexcept {
    if constexpr (reaches_recursion<T>()) return {0, 0, false};
    else return delta_value_bounds<no_attrs, T>();
}

template <class B>
void schema_crc(B& b) {
    auto& o = b.out;
    o.key("crc");
    o.begin_object();
    schema_string(b, "algorithm", "CRC-32");
    schema_integer(b, "bit_offset", 0);
    schema_integer(b, "bits", 32);
    o.key("polynomial");
    o.hex(0x04C11DB7u, 8);
    o.key("reflected");
    o.boolean(true);
    o.key("init");
    o.hex(0xFFFFFFFFu, 8);
    o.key("xor_out");
    o.hex(0xFFFFFFFFu, 8);
    o.key("check");
    o.hex(0xCBF43926u, 8);
    o.key("covers");
    o.begin_array();
    o.string("protocol_id");
    o.string("bytes_after_crc");
    o.end_array();
    o.end_object();
}

template <class B>
void schema_end_check(B& b) {
    auto& o = b.out;
    o.key("end_check");
    o.begin_object();
    o.key("align");
    o.boolean(true);
    schema_integer(b, "bits", 32);
    schema_integer(b, "magic", end_of_packet_magic);
    o.key("magic_hex");
    o.hex(end_of_packet_magic, 8);
    schema_string(b, "value", "magic_xor_payload_bits");
    o.end_object();
}

template <class B>
void schema_packet_layout(B& b, std::uint32_t schema_hash_value, const bit_bounds& bounds) {
    auto& o = b.out;
    o.begin_object();
    schema_crc(b);
    o.key("protocol_id");
    o.begin_object();
    schema_string(b, "default", "schema_hash");
    schema_integer(b, "value", schema_hash_value);
    o.key("hex");
    o.hex(schema_hash_value, 8);
    schema_string(b, "bytes", "little_endian");
    o.key("sent");
    o.boolean(false);
    o.end_object();
    schema_integer(b, "payload_bit_offset", 32);
    schema_end_check(b);
    schema_string(b, "trailing_bytes", "invalid_value");
    schema_integer(b, "overhead_bytes", packet_overhead_bytes);
    o.key("max_bytes");
    if (bounds.bounded) o.integer(packet_overhead_bytes + (bounds.max + 7) / 8);
    else o.null();
    o.end_object();
}

// A delta packet (delta_packet.hpp): the packet's framing over the protocol id XOR the
// salt, a header of two sequence numbers and the baseline fingerprint, then
// serialize_delta's body.
template <class B>
void schema_delta_packet_layout(B& b, std::uint32_t schema_hash_value, const bit_bounds& bounds) {
    auto& o = b.out;
    const std::uint32_t id = schema_hash_value ^ delta_packet_salt;
    constexpr std::size_t header_bytes = delta_header_bits / 8;
    o.begin_object();
    schema_crc(b);
    o.key("protocol_id");
    o.begin_object();
    schema_string(b, "default", "schema_hash_xor_salt");
    schema_integer(b, "salt", delta_packet_salt);
    o.key("salt_hex");
    o.hex(delta_packet_salt, 8);
    schema_integer(b, "value", id);
    o.key("hex");
    o.hex(id, 8);
    schema_string(b, "bytes", "little_endian");
    o.key("sent");
    o.boolean(false);
    o.end_object();
    schema_integer(b, "payload_bit_offset", 32);
    o.key("header");
    o.begin_array();
    for (const auto& [name, bits] : {std::pair<const char*, std::size_t>{"sequence", 16}, {"baseline", 16},
                                      {"baseline_fingerprint", 32}}) {
        o.begin_object();
        schema_string(b, "name", name);
        schema_integer(b, "bits", bits);
        o.end_object();
    }
    o.end_array();
    schema_integer(b, "body_bit_offset", 32 + delta_header_bits);
    schema_end_check(b);
    schema_string(b, "trailing_bytes", "invalid_value");
    schema_integer(b, "overhead_bytes", packet_overhead_bytes + header_bytes);
    o.key("max_bytes");
    if (bounds.bounded) o.integer(packet_overhead_bytes + header_bytes + (bounds.max + 7) / 8);
    else o.null();
    o.end_object();
}

} // namespace detail

/// T's wire layout as JSON (docs/schema.md): the schema hash, max_bits, the root
/// encoding, every described struct once by name, and the packet layout. The same
/// text from every compiler and host. Built at run time; call it off the hot path.
template <class T>
std::string schema_json() {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    detail::schema_builder<detail::json_writer<>> b;
    auto& o = b.out;
    constexpr std::uint32_t hash = schema_hash<T>();
    constexpr detail::bit_bounds bounds = detail::schema_bounds<T>();
    constexpr detail::bit_bounds delta_bounds = detail::schema_delta_bounds<T>();
    o.begin_object();
    detail::schema_string(b, "format", "netser-schema");
    detail::schema_integer(b, "version", 1);
    detail::schema_integer(b, "schema_hash", hash);
    o.key("schema_hash_hex");
    o.hex(hash, 8);
    o.key("max_bits");
    if (bounds.bounded) o.integer(bounds.max);
    else o.null();
    o.key("max_delta_bits");
    if (delta_bounds.bounded) o.integer(delta_bounds.max);
    else o.null();
    o.key("root_name");
    if constexpr (detail::described<T>) o.string(detail::schema_struct_name<T>(b));
    else o.null();
    o.key("root");
    detail::schema_encoding<detail::no_attrs, T>(b);
    o.key("packet");
    detail::schema_packet_layout(b, hash, bounds);
    o.key("delta_packet");
    detail::schema_delta_packet_layout(b, hash, delta_bounds);
    o.key("types");
    o.begin_object();
    for (std::size_t i = 0; i < b.structs.size(); ++i) { // definitions may add more
        const std::string name = b.structs[i].name;
        const auto define = b.structs[i].define;
        o.key(name);
        define(b, name);
    }
    o.end_object();
    o.end_object();
    o.text += '\n';
    return std::move(o.text);
}

} // namespace netser
