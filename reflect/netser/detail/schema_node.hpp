#pragma once

#include <netser/attributes.hpp>
#include <netser/bits_required.hpp>
#include <netser/description.hpp>
#include <netser/quantization.hpp>
#include <netser/value_codes.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// What an encoding family tells the tools (schema_json, docs/schema.md): its node in the
// schema document. Each family writes its own node beside its codec, as an overload on
// its tag found by argument-dependent lookup where the schema walk is instantiated:
//
//   bool family_schema<P, T>(schema_builder<W>& b, tag)
//
// writes the node's fields ("kind" first) into the open object and returns whether the
// walk writes the node's delta body after them (false for a back reference). A family's
// delta body form is schema_delta_body<tag> ("plain" unless the family specializes it).
// Nothing here is instantiated unless a program calls schema_json.

namespace netser::detail {

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



template <class... A, class B>
void schema_attributes(B& b, const attr_pack<A...>& p);
template <class P, class C, bool Inline, class B>
void schema_struct_members(B& b);

// The name of the described member `flag` points to ("" when it is not one).
template <class C, class M>
constexpr std::string_view flag_member_name(M C::*flag) noexcept {
    std::string_view name;
    if constexpr (boost::describe::has_describe_members<C>::value) {
        boost::mp11::mp_for_each<described_members<C>>([&](auto d) {
            if constexpr (std::is_same_v<std::remove_const_t<decltype(d.pointer)>, M C::*>)
                if (d.pointer == flag) name = d.name;
        });
    }
    return name;
}

// Never chosen: makes family_schema a template name for the walk's calls.
struct no_schema_family {};
template <class P, class T, class B>
bool family_schema(B&, no_schema_family);
template <class T, class B>
void family_type_name(B&, std::string&, no_schema_family);

/// How serialize_delta sends a changed value of a family (docs/schema.md, delta_body):
/// its plain encoding unless the family says otherwise.
template <class E>
inline constexpr std::string_view schema_delta_body = "plain";
// A family whose form depends on the type (a map's keys) says it with
// family_delta_form<T>(tag) instead; this declaration only makes the name a template.
struct no_delta_form_family {};
template <class T>
std::string_view family_delta_form(no_delta_form_family) noexcept;

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

} // namespace netser::detail
