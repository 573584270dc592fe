#pragma once

#include <bit>
#include <cstdint>
#include <string_view>
#include <type_traits>

// The schema hash's token stream (docs/wire_format.md, "Schema fingerprint"): FNV-1a
// over texts, numbers and integers. Each family writes its types' tokens through it
// (family_hash); <netser/schema_hash.hpp> writes the members' and attributes'.

namespace netser::detail {

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

/// The schema hash's tokens of type T (<netser/schema_hash.hpp>): family_hash of T's
/// family, or a back-reference when T is one of the described structs being visited.
template <class T, class... Visiting>
constexpr void hash_type(schema_hasher& h) noexcept;

// Never chosen: makes family_hash a template name for hash_type's call.
struct no_type_family {};
template <class T, class... Visiting>
void family_hash(schema_hasher&, no_type_family) noexcept;

} // namespace netser::detail
