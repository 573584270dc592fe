#pragma once

#include <netser/attributes.hpp>
#include <netser/check.hpp>
#include <netser/description.hpp>
#include <netser/detail/adl.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/encodings/enum.hpp>
#include <netser/quantization.hpp>
#include <netser/stream.hpp>
#include <netser/wire_layout.hpp>

#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

// schema_hash<T>(): a 32-bit fingerprint of T's wire layout. It is FNV-1a over a token
// stream that names every member, its type (by wire meaning, never by a compiler's
// spelling) and every attribute value, recursively, so it is the same on every compiler
// and platform. docs/wire_format.md gives the exact token stream.

namespace netser {

namespace detail {

struct schema_hasher {
    std::uint32_t h = 2166136261u;

    constexpr void byte(std::uint8_t b) noexcept {
        h ^= b;
        h *= 16777619u;
    }
    constexpr void text(std::string_view s) noexcept {
        for (char c : s) byte(static_cast<std::uint8_t>(c));
        byte(0); // terminator: "ab","c" differs from "a","bc"
    }
    constexpr void number(std::uint64_t v) noexcept {
        for (int i = 0; i < 8; ++i) byte(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    template <class I>
    constexpr void integer(I v) noexcept {
        byte(std::is_signed_v<I> ? 's' : 'u');
        number(static_cast<std::uint64_t>(v));
    }
    constexpr void real(float v) noexcept { number(std::bit_cast<std::uint32_t>(v)); }
    constexpr void real(double v) noexcept { number(std::bit_cast<std::uint64_t>(v)); }
};

template <class A>
constexpr bool counts_in_schema() noexcept {
    if constexpr (requires { A::kind; }) return checks_enabled || A::kind != attr_kind::check;
    else return true;
}

// What an attribute's fields(v) shows, hashed: the values, not the keys (an attribute's
// name comes first, so the keys add nothing). A count comes before a list.
struct attribute_hasher {
    schema_hasher& h;
    template <class I>
    constexpr void integer(std::string_view, I v) noexcept { h.integer(v); }
    constexpr void number(std::string_view, std::uint64_t v) noexcept { h.number(v); }
    template <class F>
    constexpr void real(std::string_view, F v) noexcept { h.real(v); }
    template <class C>
    constexpr void member(std::string_view, bool C::*flag) noexcept { h.text(flag_member_name(flag)); }
    template <class V>
    constexpr void values(std::string_view, const V* v, std::size_t n) noexcept {
        h.number(n);
        for (std::size_t i = 0; i < n; ++i) {
            if constexpr (std::is_floating_point_v<V>) h.real(v[i]);
            else if constexpr (std::is_enum_v<V>) h.integer(static_cast<std::underlying_type_t<V>>(v[i]));
            else h.integer(v[i]);
        }
    }
    constexpr void numbers(std::string_view, const std::uint64_t* v, int n) noexcept {
        h.number(static_cast<std::uint64_t>(n));
        for (int i = 0; i < n; ++i) h.number(v[i]);
    }
    constexpr void hex(std::string_view, std::uint64_t, int) noexcept {} // the same value, shown for people
};

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

// An attribute of netser: "attr", its name, its fields. A check is a marker between
// sections, hashed as "check" and its magic, and only while checks are on (they count
// as absent when NETSER_DISABLE_CHECKS removes them).
template <class A>
constexpr void hash_attribute(schema_hasher& h, const A& a) noexcept {
    if constexpr (requires { A::kind; }) {
        if constexpr (A::kind == attr_kind::check) {
            if constexpr (!checks_enabled) return;
            h.text("check");
        } else {
            h.text("attr");
            h.text(A::name);
        }
        attribute_hasher v{h};
        a.fields(v);
    } else {
        // A user attribute: its own tag when it gives one, then its bound; without a tag,
        // its wire when it states one.
        h.text("user");
        if constexpr (requires { a.schema_tag(); }) h.text(a.schema_tag());
        h.number(stated_max_bits(a));
        if constexpr (!requires { a.schema_tag(); } && requires { a.wire(); }) hash_wire(h, a.wire());
        // The range of its codes when it quantizes (the rotation and direction codecs): the
        // same tag and bits with another max_int is another wire.
        if constexpr (requires { { a.params() } -> std::same_as<quantization>; }) h.number(a.params().max_int);
        if constexpr (requires { a.ladder.rungs; }) { // its delta's ladder (smallest_three), unless the default
            if (!a.ladder.same_rungs(default_difference_ladder)) {
                h.number(static_cast<std::uint64_t>(a.ladder.rungs));
                for (int j = 0; j < a.ladder.rungs; ++j) h.number(a.ladder.limit[j]);
            }
        }
    }
}

template <class... A>
constexpr void hash_pack(schema_hasher& h, const attr_pack<A...>& p) noexcept {
    h.number((std::size_t{0} + ... + (counts_in_schema<A>() ? 1u : 0u))); // disabled checks count as absent
    p.for_each([&](const auto& a) { hash_attribute(h, a); });
}

// Visiting: the described structs being hashed, outermost last, so that a recursive
// type (a tree) hashes a back-reference instead of recursing forever.
template <class T, class... Visiting>
constexpr void hash_type(schema_hasher& h) noexcept;

template <class C, class... Visiting>
constexpr void hash_described(schema_hasher& h) noexcept {
    h.text("struct");
    h.text(description_of<C>.name);
    boost::mp11::mp_for_each<described_bases<C>>([&](auto b) {
        h.text("base");
        hash_type<typename decltype(b)::type, C, Visiting...>(h);
    });
    constexpr std::size_t n = boost::mp11::mp_size<described_members<C>>::value;
    h.number(n);
    boost::mp11::mp_for_each<boost::mp11::mp_iota_c<n>>([&](auto i) {
        using D = member_at<C, decltype(i)::value>;
        h.text(D::name);
        hash_type<std::remove_cvref_t<decltype(std::declval<C&>().*D::pointer)>, C, Visiting...>(h);
        hash_pack(h, member_attrs<C, decltype(i)::value>::value);
    });
}

template <class T, class... Visiting>
constexpr void hash_type(schema_hasher& h) noexcept {
    if constexpr ((std::is_same_v<T, Visiting> || ...)) {
        h.text("recursive");
        std::size_t depth = 0, i = 0;
        ((std::is_same_v<T, Visiting> ? (depth = i, ++i) : ++i), ...);
        h.number(depth);
    } else if constexpr (std::is_same_v<T, bool>) {
        h.text("bool");
    } else if constexpr (std::is_enum_v<T>) {
        h.text("enum");
        hash_type<std::underlying_type_t<T>, Visiting...>(h);
        if constexpr (is_described_enum<T>) {
            boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto d) {
                h.text(d.name);
                h.integer(static_cast<std::underlying_type_t<T>>(d.value));
            });
        }
    } else if constexpr (std::is_integral_v<T>) {
        h.text(std::is_signed_v<T> ? "int" : "uint");
        h.number(sizeof(T) * 8);
    } else if constexpr (std::is_floating_point_v<T>) {
        h.text("float");
        h.number(sizeof(T) * 8);
    } else if constexpr (std::is_array_v<T>) {
        h.text("array");
        h.number(std::extent_v<T>);
        hash_type<std::remove_extent_t<T>, Visiting...>(h);
    } else if constexpr (is_std_array<T>::value) {
        h.text("array");
        h.number(std::tuple_size_v<T>);
        hash_type<typename T::value_type, Visiting...>(h);
    } else if constexpr (is_string<T>) {
        h.text("string");
    } else if constexpr (is_vector<T>::value) {
        h.text("vector");
        hash_type<typename T::value_type, Visiting...>(h);
    } else if constexpr (is_optional<T>::value) {
        h.text("optional");
        hash_type<typename T::value_type, Visiting...>(h);
    } else if constexpr (is_unique_ptr<T>::value) {
        h.text("optional"); // same wire as std::optional
        hash_type<typename T::element_type, Visiting...>(h);
    } else if constexpr (is_variant<T>::value) {
        []<class... E>(schema_hasher& hh, std::variant<E...>*) {
            hh.text("variant");
            hh.number(sizeof...(E));
            (hash_type<E, Visiting...>(hh), ...);
        }(h, static_cast<T*>(nullptr));
    } else if constexpr (is_map<T>::value) {
        h.text("map");
        hash_type<typename T::key_type, Visiting...>(h);
        hash_type<typename T::mapped_type, Visiting...>(h);
    } else if constexpr (is_set<T>::value) {
        h.text("set");
        hash_type<typename T::key_type, Visiting...>(h);
    } else if constexpr (adl::has_serialize<measure_stream, T>) {
        // A user codec: its tag when it gives one (netser_schema_tag(const T*)), else its
        // wire when it states one (netser_wire(const T*)).
        h.text("user");
        if constexpr (requires { netser_schema_tag(static_cast<const T*>(nullptr)); })
            h.text(netser_schema_tag(static_cast<const T*>(nullptr)));
        else if constexpr (requires { netser_wire(static_cast<const T*>(nullptr)); })
            hash_wire(h, netser_wire(static_cast<const T*>(nullptr)));
    } else if constexpr (described<T>) {
        hash_described<T, Visiting...>(h);
    } else if constexpr (std::is_aggregate_v<T>) {
        h.text("aggregate");
        []<std::size_t... I>(schema_hasher& hh, std::index_sequence<I...>) {
            hh.number(sizeof...(I));
            (hash_type<boost::pfr::tuple_element_t<I, T>, Visiting...>(hh), ...);
        }(h, std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    } else {
        h.text("unknown");
    }
}

} // namespace detail

/// A 32-bit fingerprint of T's reflected layout: member names, order, types and every
/// attribute value, recursively. The same on every compiler and platform.
template <class T>
constexpr std::uint32_t schema_hash() noexcept {
    detail::schema_hasher h;
    h.text("netser-schema-1");
    detail::hash_type<T>(h);
    return h.h;
}

} // namespace netser
