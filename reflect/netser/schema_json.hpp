#pragma once

#include <netser/attributes.hpp>
#include <netser/bounds.hpp>
#include <netser/check.hpp>
#include <netser/codec.hpp>
#include <netser/delta.hpp>
#include <netser/delta_packet.hpp>
#include <netser/description.hpp>
#include <netser/detail/adl.hpp>
#include <netser/detail/json_writer.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/difference_ladder.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/enum.hpp>
#include <netser/packet.hpp>
#include <netser/schema_hash.hpp>
#include <netser/stream.hpp>
#include <netser/encodings/struct.hpp>

#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// schema_json<T>(): T's wire layout as a JSON document (docs/schema.md), complete
// enough for a decoder that knows nothing else: every member in wire order with its
// encoding and every parameter, how serialize_delta sends it (its delta body), the
// described structs once each by name, and the layouts of packets and delta packets.
// It walks the same choices as the visitor (codec.hpp) and the bounds
// (bounds.hpp), at run time into a std::string: nothing here is instantiated unless a
// program calls schema_json.

namespace netser {

namespace detail {

// The identity of a type with its attributes, for structs defined once by name and
// for inline nodes that may contain themselves.
template <class T, class P>
inline constexpr char schema_type_key = 0;

template <class Writer>
struct schema_builder {
    Writer out;
    struct defined_struct {
        const void* key;
        std::string name;
        void (*define)(schema_builder&, const std::string&);
    };
    std::vector<defined_struct> structs;   // in the order first met
    std::vector<const void*> expanding;    // inline nodes being written, outermost first

    bool is_expanding(const void* key) const noexcept {
        for (const void* k : expanding)
            if (k == key) return true;
        return false;
    }
    // Inline nodes between the innermost one and `key` (0 for the innermost).
    std::size_t depth_of(const void* key) const noexcept {
        std::size_t d = 0;
        for (std::size_t i = expanding.size(); i-- > 0; ++d)
            if (expanding[i] == key) return d;
        return d;
    }
};

template <class P, class T, class B>
void schema_encoding(B& b);
template <class T, class B>
void schema_type_name(B& b, std::string& s);

template <class C, class B>
void schema_define_struct(B& b, const std::string& name);

// The name C is defined under in "types": its described name, made unique ("Vec3#2")
// when two different types are described under the same name.
template <class C, class B>
std::string schema_struct_name(B& b) {
    const void* key = &schema_type_key<C, no_attrs>;
    for (const auto& s : b.structs)
        if (s.key == key) return s.name;
    const std::string_view base = description_of<C>.name;
    std::string name(base);
    for (int n = 2;; ++n) {
        bool taken = false;
        for (const auto& s : b.structs) taken = taken || s.name == name;
        if (!taken) break;
        name = std::string(base) + "#" + std::to_string(n);
    }
    b.structs.push_back({key, name, &schema_define_struct<C, B>});
    return name;
}

template <class T>
struct schema_array_element {
    using type = typename T::value_type;
};
template <class E, std::size_t N>
struct schema_array_element<E[N]> {
    using type = E;
};

template <class T>
constexpr std::size_t schema_array_length() noexcept {
    if constexpr (std::is_array_v<T>) return std::extent_v<T>;
    else return std::tuple_size_v<T>;
}


// The declared type by wire meaning (never a compiler's spelling): "uint16",
// "vector<Unit>", "optional<int32>", "enum<uint8>"...
template <class T, class B>
void schema_type_name(B& b, std::string& s) {
    if constexpr (std::is_same_v<T, bool> || std::is_arithmetic_v<T>) {
        s += wire_scalar_name<T>();
    } else if constexpr (std::is_enum_v<T>) {
        s += "enum<";
        s += wire_scalar_name<std::underlying_type_t<T>>();
        s += '>';
    } else if constexpr (std::is_pointer_v<T>) {
        s += "pointer<";
        schema_type_name<std::remove_cv_t<std::remove_pointer_t<T>>>(b, s);
        s += '>';
    } else if constexpr (std::is_array_v<T> || is_std_array<T>::value) {
        using E = typename schema_array_element<T>::type;
        s += "array<";
        schema_type_name<E>(b, s);
        s += ", ";
        s += std::to_string(schema_array_length<T>());
        s += '>';
    } else if constexpr (is_string<T>) {
        s += "string";
    } else if constexpr (is_vector<T>::value || is_optional<T>::value || is_set<T>::value) {
        s += is_vector<T>::value ? "vector<" : is_optional<T>::value ? "optional<" : "set<";
        schema_type_name<typename T::value_type>(b, s);
        s += '>';
    } else if constexpr (is_unique_ptr<T>::value) {
        s += "unique_ptr<";
        schema_type_name<typename T::element_type>(b, s);
        s += '>';
    } else if constexpr (is_map<T>::value) {
        s += "map<";
        schema_type_name<typename T::key_type>(b, s);
        s += ", ";
        schema_type_name<typename T::mapped_type>(b, s);
        s += '>';
    } else if constexpr (is_variant<T>::value) {
        [&]<class... E>(std::variant<E...>*) {
            s += "variant<";
            bool first = true;
            ((s += first ? "" : ", ", first = false, schema_type_name<E>(b, s)), ...);
            s += '>';
        }(static_cast<T*>(nullptr));
    } else if constexpr (adl::has_serialize<measure_stream, T>) {
        s += "user";
        if constexpr (requires { netser_schema_tag(static_cast<const T*>(nullptr)); }) {
            s += '<';
            s += netser_schema_tag(static_cast<const T*>(nullptr));
            s += '>';
        }
    } else if constexpr (described<T>) {
        s += schema_struct_name<T>(b);
    } else if constexpr (std::is_aggregate_v<T>) {
        const void* key = &schema_type_key<T, void>;
        if (b.is_expanding(key)) {
            s += "recursive";
            return;
        }
        b.expanding.push_back(key);
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            s += "aggregate<";
            bool first = true;
            ((s += first ? "" : ", ", first = false, schema_type_name<boost::pfr::tuple_element_t<I, T>>(b, s)), ...);
            s += '>';
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
        b.expanding.pop_back();
    } else {
        s += "unknown";
    }
}

template <class B>
void schema_string(B& b, std::string_view key, std::string_view value) {
    b.out.key(key);
    b.out.string(value);
}
template <class B, class I>
void schema_integer(B& b, std::string_view key, I value) {
    b.out.key(key);
    b.out.integer(value);
}

template <class B>
void schema_quantization(B& b, const quantization& q, const float* resolution) {
    auto& o = b.out;
    o.key("min");
    o.real(q.min);
    o.key("max");
    o.real(q.max);
    if (resolution != nullptr) {
        o.key("resolution");
        o.real(*resolution);
    }
    o.key("delta");
    o.real(q.delta);
    schema_integer(b, "max_int", q.max_int);
    schema_integer(b, "bits", q.bits);
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
    template <class C>
    void member(std::string_view key, bool C::*flag) { schema_string(b, key, flag_member_name(flag)); }
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
        schema_integer(b, "max_bits", a.max_bits());
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

// An integer node: code = value - min in `bits` bits ("range", "bits"), or the value's
// own bits, two's complement ("raw").
template <class U, class E, class B>
void schema_integer_code(B& b, const E& e) {
    if constexpr (std::is_same_v<E, raw_encoding>) {
        schema_string(b, "encoding", "raw");
        schema_integer(b, "bits", code_bits<U>(e));
        schema_integer(b, "min", std::numeric_limits<U>::min());
        schema_integer(b, "max", std::numeric_limits<U>::max());
    } else if constexpr (std::is_same_v<E, bits_encoding>) {
        schema_string(b, "encoding", "bits");
        schema_integer(b, "bits", e.n);
        schema_integer(b, "min", 0);
        schema_integer(b, "max", e.n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << e.n) - 1);
    } else {
        schema_string(b, "encoding", "range");
        schema_integer(b, "bits", code_bits<U>(e));
        schema_integer(b, "min", e.min);
        schema_integer(b, "max", e.max);
    }
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

// The delta bodies of the encoding families (codec.hpp's apply_delta overloads): the
// plain encoding for common, finite, strings, maps, sets, sparse arrays, user codecs.
template <class E>
inline constexpr std::string_view schema_delta_body = "plain";
template <class E>
inline constexpr std::string_view schema_delta_body<sequence_encoding<E>> = "vector";
template <class P>
inline constexpr std::string_view schema_delta_body<vector_encoding<P>> = "vector";
template <class P>
inline constexpr std::string_view schema_delta_body<array_encoding<P>> = "elements";
template <class P>
inline constexpr std::string_view schema_delta_body<optional_encoding<P>> = "optional";
template <>
inline constexpr std::string_view schema_delta_body<variant_encoding> = "variant";
template <class P>
inline constexpr std::string_view schema_delta_body<struct_encoding<P>> = "members";
template <class P>
inline constexpr std::string_view schema_delta_body<aggregate_encoding<P>> = "members";

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
// delta_body), with the choices of codec.hpp: delta_whole first, then a user codec's
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
        }
    } else if constexpr (std::is_same_v<E, bool_encoding>) {
        schema_string(b, "form", "flip");
    } else if constexpr (is_fixed_width<E> && sends_difference<T, E>) {
        schema_string(b, "form", "difference");
        schema_difference(b, ladder_of<P>(), code_max<T>(encoding_v<P, T>));
    } else {
        schema_string(b, "form", schema_delta_body<E>); // a raw float's bits: plain
    }
    o.end_object();
}

template <class P, class C, bool Inline, class B>
void schema_struct_members(B& b);

template <class T, class B>
std::string schema_type_string(B& b) {
    std::string s;
    schema_type_name<T>(b, s);
    return s;
}

// A named part of a value (a variant's alternative; with its declared type, an inline
// struct's member or an aggregate's field) and its encoding. A function, not a lambda in
// a fold: clang 14 crashes on the latter.
template <class P, class T, class B>
void schema_part(B& b, std::string_view name, bool with_type) {
    b.out.begin_object();
    schema_string(b, "name", name);
    if (with_type) schema_string(b, "type", schema_type_string<T>(b));
    b.out.key("encoding");
    schema_encoding<P, T>(b);
    b.out.end_object();
}

template <class C>
C only_if_class(bool C::*) noexcept;

template <class P, class T, class B>
void schema_encoding(B& b) {
    using A = pack_of<P>;
    auto& o = b.out;
    o.begin_object();
    if constexpr (A::template user_codec_for<T>()) {
        schema_user_attribute<P, T>(b);
    } else if constexpr (std::is_same_v<T, bool>) {
        schema_string(b, "kind", "bool");
        schema_integer(b, "bits", 1);
    } else if constexpr (std::is_enum_v<T>) {
        using U = std::underlying_type_t<T>;
        if constexpr (is_described_enum<T>) {
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
        } else {
            schema_string(b, "kind", "int");
            schema_string(b, "type", wire_scalar_name<U>());
            schema_undescribed_enum<P, U>(b);
        }
    } else if constexpr (std::is_arithmetic_v<T>) {
        schema_scalar<P, T>(b);
    } else if constexpr (has_attr<P, attr_kind::sparse>) {
        using EP = without<P, attr_kind::sparse, attr_kind::max_size>;
        schema_string(b, "kind", "sparse");
        if constexpr (is_vector<T>::value) {
            constexpr std::size_t n = P::value.template get<attr_kind::max_size>().n;
            schema_string(b, "container", "vector");
            schema_integer(b, "max_size", n);
            schema_integer(b, "count_bits", bits_required_for_span(n));
        } else {
            schema_string(b, "container", "array");
            schema_integer(b, "length", std::tuple_size_v<T>);
        }
        o.key("element");
        schema_encoding<EP, typename T::value_type::value_type>(b);
    } else if constexpr (std::is_array_v<T> || is_std_array<T>::value) {
        using E = typename schema_array_element<T>::type;
        schema_string(b, "kind", "array");
        schema_integer(b, "length", schema_array_length<T>());
        o.key("element");
        schema_encoding<P, E>(b);
    } else if constexpr (is_string<T>) {
        constexpr std::size_t n = P::value.template get<attr_kind::max_length>().n;
        schema_string(b, "kind", "string");
        schema_integer(b, "max_length", n);
        schema_integer(b, "length_bits", bits_required_for_span(n));
        schema_string(b, "content", has_attr<P, attr_kind::raw_bytes> ? "bytes" : "utf8_without_nul");
    } else if constexpr (is_vector<T>::value || is_set<T>::value || is_map<T>::value) {
        constexpr std::size_t n = P::value.template get<attr_kind::max_size>().n;
        using EP = without<P, attr_kind::max_size>;
        schema_string(b, "kind", is_vector<T>::value ? "vector" : is_set<T>::value ? "set" : "map");
        schema_integer(b, "max_size", n);
        schema_integer(b, "count_bits", bits_required_for_span(n));
        if constexpr (is_map<T>::value) {
            schema_integer(b, "element_min_bits", min_bits_value<no_attrs, typename T::key_type>() +
                                                      min_bits_value<EP, typename T::mapped_type>());
            o.key("key");
            schema_encoding<no_attrs, typename T::key_type>(b);
            o.key("value");
            schema_encoding<EP, typename T::mapped_type>(b);
        } else {
            using E = typename T::value_type;
            schema_integer(b, "element_min_bits", min_bits_value<EP, E>());
            o.key("element");
            schema_encoding<EP, E>(b);
        }
    } else if constexpr (is_optional<T>::value || is_unique_ptr<T>::value) {
        schema_string(b, "kind", "optional");
        schema_string(b, "holder", is_optional<T>::value ? "optional" : "unique_ptr");
        o.key("value");
        schema_encoding<P, std::remove_cvref_t<decltype(*std::declval<T&>())>>(b);
    } else if constexpr (is_variant<T>::value) {
        schema_string(b, "kind", "variant");
        schema_integer(b, "index_bits", bits_required_for_span(std::variant_size_v<T> - 1));
        o.key("alternatives");
        o.begin_array();
        [&]<class... E>(std::variant<E...>*) {
            (schema_part<no_attrs, E>(b, schema_type_string<E>(b), false), ...);
        }(static_cast<T*>(nullptr));
        o.end_array();
    } else if constexpr (adl::has_serialize<measure_stream, T>) {
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
    } else if constexpr (described<T> && pack_of<P>::encoding_size == 0) {
        // (Attributes about the delta only, if any, do not change the struct's encoding.)
        schema_string(b, "kind", "struct");
        schema_string(b, "name", schema_struct_name<T>(b)); // defined once, in "types"
    } else if constexpr (described<T> || std::is_aggregate_v<T>) {
        // The attributes that reach the members or fields: none when P is about the delta only.
        using EP = std::conditional_t<pack_of<P>::encoding_size == 0, no_attrs, P>;
        const void* key = &schema_type_key<T, EP>;
        if (b.is_expanding(key)) {
            // An inline node inside itself: a back reference, as schema_hash writes one.
            schema_string(b, "kind", "recursive");
            schema_integer(b, "depth", b.depth_of(key));
            o.end_object();
            return; // its delta body is the one of the node it refers to
        }
        // Inline: the member's attributes replace those of every member or field.
        b.expanding.push_back(key);
        schema_string(b, "kind", described<T> ? "struct" : "aggregate");
        if constexpr (described<T>) schema_string(b, "name", schema_struct_name<T>(b));
        o.key("recursive");
        o.boolean(is_recursive_type<T>());
        if constexpr (described<T>) {
            schema_struct_members<EP, T, true>(b);
        } else {
            o.key("fields");
            o.begin_array();
            [&]<std::size_t... I>(std::index_sequence<I...>) {
                (schema_part<EP, boost::pfr::tuple_element_t<I, T>>(b, "field" + std::to_string(I), true), ...);
            }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
            o.end_array();
        }
        b.expanding.pop_back();
    } else {
        schema_string(b, "kind", "unknown");
        o.end_object();
        return;
    }
    schema_delta<P, T>(b);
    o.end_object();
}

// What a reader resets an only_if member to when it is not sent (reset_to_default), as
// its plain encoding: a delta that sends the member again is a change from that value.
template <class C, class D, class P, class M, class B>
void schema_reset(B& b) {
    auto& o = b.out;
    M value{};
    reset_to_default<C, D>(value);
    std::vector<std::byte> bytes;
    vector_write_stream w(bytes);
    o.key("reset");
    o.begin_object();
    if (serialize_value<P>(w, value)) {
        schema_integer(b, "bits", w.bits_processed());
        std::string hex;
        for (std::byte x : w.finish()) {
            hex += "0123456789abcdef"[std::to_integer<unsigned>(x) >> 4];
            hex += "0123456789abcdef"[std::to_integer<unsigned>(x) & 15];
        }
        schema_string(b, "hex", hex);
    } else {
        schema_string(b, "error", to_string(w.error().code)); // the default has no code: a delta fails
    }
    o.end_object();
}

// One member of a described struct: how it is declared and what goes on the wire.
template <class C, std::size_t I, class B>
void schema_member(B& b) {
    using D = member_at<C, I>;
    using M = member_type<C, I>;
    using P = member_attrs<C, I>;
    auto& o = b.out;
    o.begin_object();
    schema_string(b, "name", D::name);
    std::string type;
    schema_type_name<M>(b, type);
    schema_string(b, "type", type);
    o.key("attributes");
    schema_attributes(b, P::value);
    if constexpr (has_attr<P, attr_kind::skip>) {
        o.key("skip");
        o.boolean(true);
    } else {
        if constexpr (has_attr<P, attr_kind::only_if>) {
            constexpr auto flag = P::value.template get<attr_kind::only_if>().flag;
            using F = decltype(only_if_class(flag));
            o.key("only_if");
            o.begin_object();
            schema_string(b, "member", flag_member_name(flag));
            schema_string(b, "struct", schema_struct_name<F>(b));
            schema_reset<C, D, without<P, attr_kind::only_if, attr_kind::check>, M>(b);
            o.end_object();
        }
        if constexpr (checks_enabled && has_attr<P, attr_kind::check>) {
            constexpr std::uint32_t magic = P::value.template get<attr_kind::check>().magic;
            o.key("check");
            o.begin_object();
            schema_integer(b, "magic", magic);
            o.key("magic_hex");
            o.hex(magic, 8);
            o.end_object();
        }
        o.key("encoding");
        schema_encoding<without<P, attr_kind::only_if, attr_kind::check>, M>(b);
    }
    o.end_object();
}

// A described struct's bases and members: as declared, or (Inline) with the attributes P
// of the member that holds it applied to every member, as the visitor does.
template <class P, class C, bool Inline, class B>
void schema_struct_members(B& b) {
    auto& o = b.out;
    o.key("bases");
    o.begin_array();
    boost::mp11::mp_for_each<described_bases<C>>([&](auto base) { schema_encoding<no_attrs, typename decltype(base)::type>(b); });
    o.end_array();
    o.key("members");
    o.begin_array();
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        if constexpr (!Inline) {
            (schema_member<C, I>(b), ...);
        } else {
            (schema_part<P, member_type<C, I>>(b, member_at<C, I>::name, true), ...);
        }
    }(member_indices<C>{});
    o.end_array();
}

template <class C, class B>
void schema_define_struct(B& b, const std::string& name) {
    auto& o = b.out;
    o.begin_object();
    schema_string(b, "kind", "struct");
    schema_string(b, "name", name);
    o.key("recursive");
    o.boolean(is_recursive_type<C>());
    schema_struct_members<no_attrs, C, false>(b);
    o.end_object();
}

// Whether a struct reachable from T contains itself (a tree): max_bits has no value then.
template <class T, class... Seen>
constexpr bool reaches_recursion() noexcept {
    if constexpr ((std::is_same_v<T, Seen> || ...)) {
        return true;
    } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T> || std::is_pointer_v<T> || is_string<T>) {
        return false;
    } else if constexpr (std::is_array_v<T>) {
        return reaches_recursion<std::remove_all_extents_t<T>, Seen...>();
    } else if constexpr (is_map<T>::value) {
        return reaches_recursion<typename T::key_type, Seen...>() || reaches_recursion<typename T::mapped_type, Seen...>();
    } else if constexpr (is_std_array<T>::value || is_vector<T>::value || is_optional<T>::value || is_set<T>::value) {
        return reaches_recursion<typename T::value_type, Seen...>();
    } else if constexpr (is_unique_ptr<T>::value) {
        return reaches_recursion<typename T::element_type, Seen...>();
    } else if constexpr (is_variant<T>::value) {
        return []<class... E>(std::variant<E...>*) { return (reaches_recursion<E, Seen...>() || ...); }(static_cast<T*>(nullptr));
    } else if constexpr (adl::has_serialize<measure_stream, T>) {
        return false;
    } else if constexpr (described<T>) {
        const bool bases = []<template <class...> class L, class... D>(L<D...>*) {
            return (reaches_recursion<typename D::type, T, Seen...>() || ...);
        }(static_cast<described_bases<T>*>(nullptr));
        return bases || []<std::size_t... I>(std::index_sequence<I...>) {
            return (reaches_recursion<member_type<T, I>, T, Seen...>() || ...);
        }(member_indices<T>{});
    } else if constexpr (std::is_aggregate_v<T>) {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (reaches_recursion<boost::pfr::tuple_element_t<I, T>, T, Seen...>() || ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    } else {
        return false;
    }
}

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
// salt, a header of two sequence numbers, then serialize_delta's body.
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
    for (const char* name : {"sequence", "baseline"}) {
        o.begin_object();
        schema_string(b, "name", name);
        schema_integer(b, "bits", 16);
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
