#pragma once

#include <netser/bits_required.hpp>
#include <netser/detail/config.hpp>
#include <netser/primitives.hpp>
#include <netser/quantization.hpp>
#include <netser/stream.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

// What a user codec writes, stated for the tools that read packets without the C++
// (the schema JSON, its Python decoder and the Wireshark dissector): a fixed list of
// fields, each an unsigned code of a fixed number of bits, least significant bit first,
// that the codec writes in this order. A codec states it with a wire() member (a user
// attribute) or netser_wire(const T*) (a user type); netser then knows its bits without
// max_bits() / min_bits(), and the tools decode it field by field instead of as one
// opaque code. It is a statement about the codec, not the codec: a codec that writes its
// codes through serialize_wire cannot disagree with it; another should be tested by
// reading what it writes through serialize_wire.

namespace netser {

/// One field of a user codec's wire.
struct wire_field {
    enum class kind : std::uint8_t {
        code,      ///< the code as an unsigned integer
        flag,      ///< one bit, read as a bool
        integer,   ///< min + code
        quantized, ///< the code of a quantized float (`quantization`)
    };
    std::string_view name;
    kind as = kind::code;
    int bits = 0;                 ///< 1..32
    std::uint64_t max_code = 0;   ///< a larger code is out_of_range
    std::int64_t min = 0;         ///< integer: the value of code 0
    quantization q{};             ///< quantized: how the code reads as a float
};

/// An unsigned code of `bits` bits (1..32); codes above max_code are out of range.
constexpr wire_field wire_code(std::string_view name, int bits, std::uint64_t max_code) noexcept {
    return {name, wire_field::kind::code, bits, max_code, 0, {}};
}
constexpr wire_field wire_code(std::string_view name, int bits) noexcept {
    return wire_code(name, bits, bits < 1 || bits > 32 ? 0 : (std::uint64_t{1} << bits) - 1);
}
/// One bit, a bool.
constexpr wire_field wire_flag(std::string_view name) noexcept {
    return {name, wire_field::kind::flag, 1, 1, 0, {}};
}
/// An integer of [min, max], sent as v - min in bits_required(min, max) bits (min < max).
constexpr wire_field wire_integer(std::string_view name, std::int64_t min, std::int64_t max) noexcept {
    return {name, wire_field::kind::integer, bits_required(min, max),
            static_cast<std::uint64_t>(max) - static_cast<std::uint64_t>(min), min, {}};
}
/// A float quantized with q (serialize_quantized's code): q.bits bits, codes to q.max_int.
constexpr wire_field wire_quantized(std::string_view name, const quantization& q) noexcept {
    return {name, wire_field::kind::quantized, q.bits, q.max_int, 0, q};
}

namespace detail {

// Fields of 1 to 32 bits each (a rotation's index and codes, a wire_layout's fields),
// LSB first in order, through the stream; a read checks each against its limit (a code
// above it fails with out_of_range). When they fit 64 bits, and a read has them all,
// they go in one call: the same bits on the wire, and the same errors, as field by
// field, with one room check instead of several. Else field by field, so that a truncated read fails as before at
// the first field out of range or, if none, with overflow. Any failure is reported at
// `at`, the value's first bit. (Unrolled by hand: compilers keep loops over these arrays
// in memory.)
template <stream S, std::size_t N, std::size_t... I>
NETSER_INLINE bool serialize_fields(S& s, std::array<std::uint64_t, N>& fields, const std::array<int, N>& widths,
                                    const std::array<std::uint64_t, N>& limits, std::size_t at,
                                    std::index_sequence<I...>) noexcept {
    const int total = (widths[I] + ...);
    if (total <= 64 && (!S::is_reading || s.bits_remaining() >= static_cast<std::size_t>(total))) [[likely]] {
        std::array<int, N> offsets{};
        int offset = 0;
        ((offsets[I] = offset, offset += widths[I]), ...);
        std::uint64_t packed = 0;
        if constexpr (!S::is_reading) ((packed |= fields[I] << offsets[I]), ...);
        if (!s.process_bits(packed, total)) return failed_from(s, at);
        if constexpr (S::is_reading) {
            ((fields[I] = packed >> offsets[I] & ((std::uint64_t{1} << widths[I]) - 1)), ...);
            // One test of all the fields (no branch per field): & of the comparisons.
            const unsigned in_range = (static_cast<unsigned>(fields[I] <= limits[I]) & ...);
            if (in_range == 0u) [[unlikely]] return s.fail(errc::out_of_range, at);
        }
        return true;
    }
    const auto one = [&](std::uint64_t& field, int width, std::uint64_t limit) {
        if (!s.process_bits(field, width)) return failed_from(s, at);
        if (S::is_reading && field > limit) [[unlikely]] return s.fail(errc::out_of_range, at);
        return true;
    };
    return (one(fields[I], widths[I], limits[I]) && ...);
}

template <stream S, std::size_t N>
NETSER_INLINE bool serialize_fields(S& s, std::array<std::uint64_t, N>& fields, const std::array<int, N>& widths,
                                    const std::array<std::uint64_t, N>& limits, std::size_t at) noexcept {
    return serialize_fields(s, fields, widths, limits, at, std::make_index_sequence<N>{});
}

} // namespace detail

/// A user codec's wire: its fields in the order it writes them.
template <std::size_t N>
struct wire_layout {
    std::array<wire_field, N> fields;

    /// The bits the codec writes: the sum of its fields'.
    constexpr std::size_t bits() const noexcept {
        std::size_t n = 0;
        for (const wire_field& f : fields) n += static_cast<std::size_t>(f.bits);
        return n;
    }
    /// Whether every field is well formed: 1..32 bits, its largest code fits them, a
    /// quantized field's parameters valid, a flag one bit.
    constexpr bool valid() const noexcept {
        for (const wire_field& f : fields) {
            if (f.bits < 1 || f.bits > 32 || f.name.empty() || (f.max_code >> f.bits) != 0) return false;
            if (f.as == wire_field::kind::flag && f.bits != 1) return false;
            if (f.as == wire_field::kind::quantized && (!f.q.valid || f.q.bits != f.bits)) return false;
        }
        return N > 0;
    }
};

/// wire(wire_code("largest", 2, 3), wire_quantized("a", q), ...): a codec's wire.
template <class... F>
constexpr wire_layout<sizeof...(F)> wire(F... fields) noexcept {
    return {{fields...}};
}

/// The codes of a codec's fields through the stream, as `layout` states them (a codec can
/// write its wire with this, so that the two cannot disagree). A code above its field's
/// max_code fails a write or a read with out_of_range, at the first field's bit; a
/// truncated read fails with overflow there. Write codes as unsigned: an integer field's
/// code is v - min, a quantized field's q.encode(v), a flag's 0 or 1.
template <stream S, std::size_t N>
NETSER_INLINE bool serialize_wire(S& s, const wire_layout<N>& layout, std::array<std::uint64_t, N>& codes) noexcept {
    const std::size_t at = s.bits_processed();
    std::array<int, N> widths{};
    std::array<std::uint64_t, N> limits{};
    bool in_range = true;
    for (std::size_t i = 0; i < N; ++i) {
        widths[i] = layout.fields[i].bits;
        limits[i] = layout.fields[i].max_code;
        if constexpr (S::is_writing) in_range = in_range && codes[i] <= limits[i];
    }
    if (!in_range) [[unlikely]] return s.fail(errc::out_of_range, at);
    return detail::serialize_fields(s, codes, widths, limits, at);
}

} // namespace netser
