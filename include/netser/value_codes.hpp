#pragma once

#include <netser/bits_required.hpp>
#include <netser/detail/config.hpp>
#include <netser/error.hpp>
#include <netser/quantization.hpp>
#include <netser/stream.hpp>

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

// Fixed-width encodings: how a value maps to its code of code_bits(e) bits and back,
// with the error a bad value or a bad code gives. The primitives and the reflection
// layer (member by member or packed several to a word) all go through these, so each
// encoding is written once. docs/wire_format.md gives each one.

namespace netser::detail {

struct bool_encoding {};
/// An integer in [min, max]: (v - min) in bits_required(min, max) bits.
template <class T>
struct range_encoding {
    T min, max;
};
/// An unsigned integer in n bits (0..64).
struct bits_encoding {
    int n;
};
/// Every bit: integers in two's complement, floats and doubles bit-exact.
struct raw_encoding {};
// netser::quantization is the encoding of a quantized float.

template <class E>
inline constexpr bool is_fixed_width = false;
template <>
inline constexpr bool is_fixed_width<bool_encoding> = true;
template <class T>
inline constexpr bool is_fixed_width<range_encoding<T>> = true;
template <>
inline constexpr bool is_fixed_width<bits_encoding> = true;
template <>
inline constexpr bool is_fixed_width<raw_encoding> = true;
template <>
inline constexpr bool is_fixed_width<quantization> = true;

template <class T>
constexpr int code_bits(bool_encoding) noexcept {
    return 1;
}
template <class T>
constexpr int code_bits(range_encoding<T> e) noexcept {
    return bits_required_for_span(static_cast<std::uint64_t>(e.max) - static_cast<std::uint64_t>(e.min));
}
template <class T>
constexpr int code_bits(bits_encoding e) noexcept {
    return e.n;
}
template <class T>
constexpr int code_bits(raw_encoding) noexcept {
    if constexpr (std::is_same_v<T, float>) return 32;
    else if constexpr (std::is_same_v<T, double>) return 64;
    else return std::numeric_limits<std::make_unsigned_t<T>>::digits;
}
template <class T>
constexpr int code_bits(const quantization& q) noexcept {
    return q.bits;
}

// The largest code of an encoding: the codes are [0, code_max].
template <class T>
constexpr std::uint64_t code_max(bool_encoding) noexcept {
    return 1;
}
template <class T>
constexpr std::uint64_t code_max(range_encoding<T> e) noexcept {
    return static_cast<std::uint64_t>(e.max) - static_cast<std::uint64_t>(e.min);
}
template <class T>
constexpr std::uint64_t code_max(bits_encoding e) noexcept {
    return e.n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << e.n) - 1;
}
template <class T>
constexpr std::uint64_t code_max(raw_encoding) noexcept {
    const int bits = code_bits<T>(raw_encoding{});
    return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}
template <class T>
constexpr std::uint64_t code_max(const quantization& q) noexcept {
    return q.max_int;
}

// A value's code (writers), with the error a write of it fails with. Differences
// modulo 2^64 are exact because the true difference is below 2^64.
NETSER_INLINE errc to_code(bool v, bool_encoding, std::uint64_t& code) noexcept {
    code = v ? 1u : 0u;
    return errc::none;
}
template <std::integral T>
NETSER_INLINE errc to_code(T v, range_encoding<T> e, std::uint64_t& code) noexcept {
    if (v < e.min || v > e.max) [[unlikely]] return errc::out_of_range;
    code = static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(e.min);
    return errc::none;
}
template <std::unsigned_integral T>
NETSER_INLINE errc to_code(T v, bits_encoding e, std::uint64_t& code) noexcept {
    code = v;
    if (e.n < 64 && (code >> e.n) != 0) [[unlikely]] return errc::out_of_range;
    return errc::none;
}
template <class T>
NETSER_INLINE errc to_code(T v, raw_encoding, std::uint64_t& code) noexcept {
    if constexpr (std::is_same_v<T, float>) code = std::bit_cast<std::uint32_t>(v);
    else if constexpr (std::is_same_v<T, double>) code = std::bit_cast<std::uint64_t>(v);
    else code = static_cast<std::make_unsigned_t<T>>(v); // two's complement
    return errc::none;
}
NETSER_INLINE errc to_code(float v, const quantization& q, std::uint64_t& code) noexcept {
    if (v != v) [[unlikely]] return errc::invalid_value;
    code = q.encode(v);
    return errc::none;
}

// A code's value (readers), with the error a read of it fails with.
NETSER_INLINE errc from_code(std::uint64_t code, bool& v, bool_encoding) noexcept {
    v = code != 0;
    return errc::none;
}
template <std::integral T>
NETSER_INLINE errc from_code(std::uint64_t code, T& v, range_encoding<T> e) noexcept {
    if (code > static_cast<std::uint64_t>(e.max) - static_cast<std::uint64_t>(e.min)) [[unlikely]]
        return errc::out_of_range;
    v = static_cast<T>(static_cast<std::uint64_t>(e.min) + code);
    return errc::none;
}
template <std::unsigned_integral T>
NETSER_INLINE errc from_code(std::uint64_t code, T& v, bits_encoding) noexcept {
    if constexpr (std::numeric_limits<T>::digits < 64)
        if (code > std::numeric_limits<T>::max()) [[unlikely]] return errc::out_of_range; // n above T's width
    v = static_cast<T>(code);
    return errc::none;
}
template <class T>
NETSER_INLINE errc from_code(std::uint64_t code, T& v, raw_encoding) noexcept {
    if constexpr (std::is_same_v<T, float>) v = std::bit_cast<float>(static_cast<std::uint32_t>(code));
    else if constexpr (std::is_same_v<T, double>) v = std::bit_cast<double>(code);
    else v = static_cast<T>(static_cast<std::make_unsigned_t<T>>(code));
    return errc::none;
}
NETSER_INLINE errc from_code(std::uint64_t code, float& v, const quantization& q) noexcept {
    if (code > q.max_int) [[unlikely]] return errc::out_of_range;
    v = q.decode(static_cast<std::uint32_t>(code));
    return errc::none;
}

/// Writes, reads or measures v with a fixed-width encoding: the value's code, then
/// its bits; a failure is reported at the value's first bit.
template <stream S, class T, class E>
    requires is_fixed_width<E>
[[nodiscard]] NETSER_INLINE bool serialize_code(S& s, T& v, const E& e) noexcept {
    const std::size_t at = s.bits_processed();
    std::uint64_t code = 0;
    if constexpr (!S::is_reading) {
        if (const errc c = to_code(v, e, code); c != errc::none) [[unlikely]] return s.fail(c, at);
    }
    if (!s.process_bits(code, code_bits<T>(e))) return false;
    if constexpr (S::is_reading) {
        if (const errc c = from_code(code, v, e); c != errc::none) [[unlikely]] return s.fail(c, at);
    }
    return true;
}

} // namespace netser::detail
