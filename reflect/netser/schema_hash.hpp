#pragma once

#include <netser/attributes.hpp>
#include <netser/check.hpp>
#include <netser/classify.hpp>
#include <netser/description.hpp>
#include <netser/detail/adl.hpp>
#include <netser/detail/schema_hasher.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/encodings/enum.hpp>
#include <netser/quantization.hpp>
#include <netser/stream.hpp>

#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>

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
    template <class C, class M>
    constexpr void member(std::string_view, M C::*flag) noexcept { h.text(flag_member_name(flag)); }
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
        // The form of its own delta when it names one (smallest_three's "reexpressed").
        if constexpr (requires { a.delta_form(); }) h.text(a.delta_form());
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

// The tokens of type T, by its family (family_hash, beside each family's codec).
// Visiting: the described structs being hashed, outermost last, so that a recursive
// type (a tree) hashes a back-reference instead of recursing forever.
template <class T, class... Visiting>
constexpr void hash_type(schema_hasher& h) noexcept {
    if constexpr ((std::is_same_v<T, Visiting> || ...)) {
        h.text("recursive");
        std::size_t depth = 0, i = 0;
        ((std::is_same_v<T, Visiting> ? (depth = i, ++i) : ++i), ...);
        h.number(depth);
    } else {
        family_hash<T, Visiting...>(h, type_family_t<T>{});
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
