#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(_MSC_VER) && !defined(__clang__)
#  include <stdlib.h> // _byteswap_ulong, _byteswap_uint64
#endif

namespace netser::detail {

// The wire is little-endian whatever the host: these load and store words at any
// alignment (memcpy) and swap their bytes on big-endian hosts.

/// Reverses the bytes of a 32- or 64-bit unsigned value. The one place where the core
/// uses compiler intrinsics: std::byteswap where the standard library has it (C++23),
/// else the g++ / clang builtin, MSVC's _byteswap_*, or shifts (which compilers also
/// turn into one instruction).
template <class T>
inline T byteswap(T v) noexcept {
    static_assert(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>,
                  "netser: detail::byteswap takes std::uint32_t or std::uint64_t");
#if defined(__cpp_lib_byteswap)
    return std::byteswap(v);
#elif defined(__GNUC__) || defined(__clang__)
    if constexpr (sizeof(T) == 4) return __builtin_bswap32(v);
    else return __builtin_bswap64(v);
#elif defined(_MSC_VER)
    if constexpr (sizeof(T) == 4) return _byteswap_ulong(v);
    else return _byteswap_uint64(v);
#else
    T r = 0;
    for (unsigned i = 0; i < sizeof(T); ++i, v >>= 8) r = static_cast<T>(r << 8 | (v & 0xffu));
    return r;
#endif
}

/// The little-endian 64-bit word at p (any alignment).
inline std::uint64_t load_le64(const void* p) noexcept {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big) v = byteswap(v);
    return v;
}

/// The little-endian 32-bit word at p (any alignment).
inline std::uint32_t load_le32(const void* p) noexcept {
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::endian::native == std::endian::big) v = byteswap(v);
    return v;
}

/// Stores v at p as a little-endian 32-bit word (any alignment).
inline void store_le32(void* p, std::uint32_t v) noexcept {
    if constexpr (std::endian::native == std::endian::big) v = byteswap(v);
    std::memcpy(p, &v, sizeof v);
}

} // namespace netser::detail
