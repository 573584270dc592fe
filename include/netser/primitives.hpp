#pragma once

#include <netser/bits_required.hpp>
#include <netser/detail/config.hpp>
#include <netser/quantization.hpp>
#include <netser/stream.hpp>
#include <netser/utf8.hpp>
#include <netser/value_codes.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

// The primitives: unified serialize functions that write, read or measure depending
// on the stream, and return false (with the stream's error set) on failure.
// docs/wire_format.md gives each one's exact encoding.

namespace netser {

namespace detail {

// A value of any integral type (char and bool too, which std::in_range rejects) as
// a 64-bit one of its signedness: comparing those with std::cmp_* is exact.
template <std::integral T>
constexpr auto widen(T v) noexcept {
    if constexpr (std::is_signed_v<T>) return static_cast<std::int64_t>(v);
    else return static_cast<std::uint64_t>(v);
}

template <std::integral T, std::integral U>
constexpr bool in_range_of(U v) noexcept {
    return !std::cmp_less(widen(v), widen(std::numeric_limits<T>::min())) &&
           !std::cmp_greater(widen(v), widen(std::numeric_limits<T>::max()));
}

} // namespace detail

/// An unsigned value in `bits` bits (0..64). A value that needs more bits fails the
/// write with out_of_range; a read that does not fit T fails with out_of_range.
template <stream S, std::unsigned_integral T>
[[nodiscard]] NETSER_INLINE bool serialize_bits(S& s, T& v, int bits) noexcept {
    if (static_cast<unsigned>(bits) > 64u) [[unlikely]] return s.fail(errc::invalid_value, s.bits_processed());
    return detail::serialize_code(s, v, detail::bits_encoding{bits});
}

/// An integer of any integral type in [min, max], sent as (v - min) in
/// bits_required(min, max) bits. min and max must be representable in T (else
/// invalid_value); any range up to the full 64-bit one works. Writing a value outside the range, or reading a code
/// above max - min, fails with out_of_range.
template <stream S, std::integral T, std::integral L, std::integral H>
[[nodiscard]] NETSER_INLINE bool serialize_int(S& s, T& v, L min, H max) noexcept {
    if (!detail::in_range_of<T>(min) || !detail::in_range_of<T>(max) ||
        std::cmp_greater(detail::widen(min), detail::widen(max))) [[unlikely]]
        return s.fail(errc::invalid_value, s.bits_processed());
    return detail::serialize_code(s, v, detail::range_encoding<T>{static_cast<T>(min), static_cast<T>(max)});
}

/// One bit.
template <stream S>
[[nodiscard]] NETSER_INLINE bool serialize_bool(S& s, bool& v) noexcept {
    return detail::serialize_code(s, v, detail::bool_encoding{});
}

/// The 32 IEEE-754 bits, bit-exact (NaN payloads and infinities included).
template <stream S>
[[nodiscard]] NETSER_INLINE bool serialize_float(S& s, float& v) noexcept {
    return detail::serialize_code(s, v, detail::raw_encoding{});
}

/// The 64 IEEE-754 bits, bit-exact.
template <stream S>
[[nodiscard]] bool serialize_double(S& s, double& v) noexcept {
    return detail::serialize_code(s, v, detail::raw_encoding{});
}

/// A float quantized with precomputed parameters (see quantization). Values outside
/// [min, max] clamp; NaN fails the write with invalid_value; a code above max_int
/// fails the read with out_of_range.
template <stream S>
[[nodiscard]] NETSER_INLINE bool serialize_quantized(S& s, float& v, const quantization& q) noexcept {
    if (!q.valid) [[unlikely]] return s.fail(errc::invalid_value, s.bits_processed());
    return detail::serialize_code(s, v, q);
}

/// A float in [min, max] at `resolution` (the reference library's compressed float).
/// Inlined: with constant arguments the parameters fold at compile time, and this costs
/// what the constexpr quantization form costs. With arguments known only at run time
/// they are computed for every value (a division and a ceil): precompute a
/// quantization::make(min, max, resolution) once and pass it instead.
template <stream S>
[[nodiscard]] NETSER_INLINE bool serialize_quantized(S& s, float& v, float min, float max, float resolution) noexcept {
    return serialize_quantized(s, v, quantization::make(min, max, resolution));
}

/// Zero bits up to the next byte boundary; non-zero padding fails the read (invalid_value).
template <stream S>
[[nodiscard]] bool serialize_align(S& s) noexcept {
    return s.align();
}

/// Align, then the bytes verbatim (a memcpy on both sides).
template <stream S>
[[nodiscard]] bool serialize_bytes(S& s, std::span<std::byte> data) noexcept {
    const std::size_t at = s.bits_processed();
    return (s.align() && s.process_bytes(data.data(), data.size())) || detail::failed_from(s, at);
}

/// Writing-only overload for constant data (anything that converts to a span of
/// const bytes but not to a span of mutable ones, so the two never compete).
template <stream S, class Bytes>
    requires(!S::is_reading && std::convertible_to<Bytes&&, std::span<const std::byte>> &&
             !std::convertible_to<Bytes&&, std::span<std::byte>>)
[[nodiscard]] bool serialize_bytes(S& s, Bytes&& bytes) noexcept {
    const std::span<const std::byte> data = bytes;
    const std::size_t at = s.bits_processed();
    return (s.align() && s.process_bytes(data.data(), data.size())) || detail::failed_from(s, at);
}

namespace detail {

// The wire of both string functions: the length in [0, max_length], align, the bytes.
// `checked` adds the text rule (is_valid_string) on both sides; it is a constant where
// inlined. A longer string fails the write with too_large, before its bytes are
// looked at; a read checks the length against max_length (too_large) and against the
// bits left (overflow) before allocating, and refused bytes leave the string empty.
// Every failure is reported at the string's first bit.
template <stream S>
[[nodiscard]] bool serialize_string_bytes(S& s, std::string& v, std::size_t max_length, bool checked) {
    const std::size_t at = s.bits_processed();
    const int bits = bits_required_for_span(max_length);
    std::uint64_t length = v.size();
    if constexpr (!S::is_reading) {
        if (length > max_length) [[unlikely]] return s.fail(errc::too_large, at);
        if (checked && !is_valid_string(v)) [[unlikely]] return s.fail(errc::invalid_value, at);
    }
    if (!s.process_bits(length, bits)) return false;
    if (length > max_length) [[unlikely]] return s.fail(errc::too_large, at);
    if (!s.align()) return detail::failed_from(s, at);
    if constexpr (S::is_reading) {
        if (length > s.bits_remaining() / 8) [[unlikely]] return s.fail(errc::overflow, at);
        // Paid for by its bits on a bit-packed stream; charged where bits pay for nothing.
        if (!charge_allocation(s, static_cast<std::size_t>(length), 1, 8, at)) return false;
        v.resize(static_cast<std::size_t>(length));
        if (!s.process_bytes(reinterpret_cast<std::byte*>(v.data()), v.size())) return detail::failed_from(s, at);
        if (checked && !is_valid_string(v)) [[unlikely]] {
            v.clear();
            return s.fail(errc::invalid_value, at);
        }
        return true;
    } else {
        return s.process_bytes(reinterpret_cast<const std::byte*>(v.data()), v.size()) ||
               detail::failed_from(s, at);
    }
}

} // namespace detail

/// Text: the byte length in [0, max_length], align, then the bytes, which must be
/// valid UTF-8 without NUL (is_valid_string) on write and on read, else invalid_value.
/// A longer string fails the write with too_large; a read checks the length against
/// max_length (too_large) and against the bits left (overflow) before allocating.
template <stream S>
[[nodiscard]] bool serialize_string(S& s, std::string& v, std::size_t max_length) {
    return detail::serialize_string_bytes(s, v, max_length, true);
}

/// The same wire as serialize_string for any bytes (NUL and invalid UTF-8 included):
/// for hand-written code that carries binary data in a std::string.
template <stream S>
[[nodiscard]] bool serialize_raw_string(S& s, std::string& v, std::size_t max_length) {
    return detail::serialize_string_bytes(s, v, max_length, false);
}

/// Align, then a 32-bit magic value; a different value on read fails with check_failed.
template <stream S>
[[nodiscard]] bool serialize_check(S& s, std::uint32_t magic) noexcept {
    const std::size_t at = s.bits_processed();
    if (!s.align()) return detail::failed_from(s, at);
    std::uint64_t value = magic;
    if (!s.process_bits(value, 32)) return detail::failed_from(s, at);
    if constexpr (S::is_reading)
        if (value != magic) [[unlikely]] return s.fail(errc::check_failed, at);
    return true;
}

} // namespace netser
