#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace netser::detail {

// The wire is little-endian whatever the host: these load and store 32-bit words
// at any alignment and swap on big-endian hosts.

inline std::uint32_t load_le32(const void* p) noexcept {
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
    return v;
}

inline void store_le32(void* p, std::uint32_t v) noexcept {
    if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
    std::memcpy(p, &v, sizeof v);
}

} // namespace netser::detail
