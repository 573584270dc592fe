#pragma once

#include <netser/attributes.hpp>

#include <cstdint>
#include <string_view>

// Serialization checks ("serialize_check" in Glenn Fiedler's "Serialization Strategies"):
// a marker between sections of a struct that catches a writer/reader desync where it
// happens.
//
// Define NETSER_DISABLE_CHECKS (for the whole program, both peers) to remove every
// check attribute: no bits on the wire, nothing else changes.

namespace netser {

#if defined(NETSER_DISABLE_CHECKS)
inline constexpr bool checks_enabled = false;
#else
inline constexpr bool checks_enabled = true;
#endif

/// The 32-bit magic of a named check: FNV-1a 32 of the name's bytes.
constexpr std::uint32_t check_magic(std::string_view name) noexcept {
    std::uint32_t h = 2166136261u;
    for (char c : name) {
        h ^= static_cast<std::uint8_t>(c);
        h *= 16777619u;
    }
    return h;
}

/// Before this member: align, then the 32-bit check_magic(name). A reader that finds
/// another value fails with check_failed at that place.
struct check_attr {
    static constexpr attr_kind kind = attr_kind::check;
    static constexpr std::string_view name = "check";
    std::uint32_t magic;
    template <class V>
    constexpr void fields(V& v) const {
        v.number("magic", magic);
        v.hex("magic_hex", magic, 8);
    }
};
constexpr check_attr check(std::string_view name) noexcept { return {check_magic(name)}; }

} // namespace netser
