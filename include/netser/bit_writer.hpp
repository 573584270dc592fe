#pragma once

#include <netser/detail/config.hpp>
#include <netser/detail/endian.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace netser {

/// Packs values of 1..64 bits into a byte buffer, least significant bit first
/// (bit i of the packet is bit i % 8 of byte i / 8).
///
/// Bits collect in a 64-bit scratch register and leave it as whole 32-bit words, so
/// the only branches on the hot path are the room check and the word boundary.
/// Works with any buffer size and alignment and never writes past the buffer: a
/// value that does not fit fails the call (overflow) and writes nothing. Only bytes
/// that hold bits already written are ever stored.
class bit_writer {
public:
    bit_writer(void* data, std::size_t size) noexcept
        : data_(static_cast<std::byte*>(data)), size_(size), limit_(bit_limit(size)) {}
    explicit bit_writer(std::span<std::byte> buffer) noexcept
        : bit_writer(buffer.data(), buffer.size()) {}

    /// Writes the low `n` bits of `value` (n in 0..64; higher bits are ignored).
    /// Returns false, writing nothing, when they do not fit, n is outside 0..64, or
    /// after poison().
    NETSER_INLINE bool write_bits(std::uint64_t value, int n) noexcept {
        if (static_cast<unsigned>(n) > 64u || pos_ + static_cast<unsigned>(n) >= limit_) [[unlikely]]
            return false;
        write_bits_fitting(value, n);
        return true;
    }

    /// write_bits for a caller that made sure the bits fit (n <= bits_available(), once
    /// for many values): no room check.
    NETSER_INLINE void write_bits_fitting(std::uint64_t value, int n) noexcept {
        // The state is read once and written back after the stores to the buffer:
        // byte stores may alias anything, and this keeps it in registers when inlined.
        const std::size_t pos = pos_;
        std::uint64_t scratch = scratch_;
        if (n > 32) {
            scratch = put(scratch, value & 0xffffffffu, 32, pos);
            scratch = put(scratch, (value >> 32) & low_mask(n - 32), n - 32, pos + 32);
        } else {
            scratch = put(scratch, value & low_mask(n), n, pos);
        }
        scratch_ = scratch;
        pos_ = pos + static_cast<unsigned>(n);
    }

    /// Writes zero bits up to the next byte boundary.
    bool write_align() noexcept { return write_bits(0, align_bits()); }

    /// Bits needed to reach the next byte boundary (0..7).
    int align_bits() const noexcept { return static_cast<int>((8 - pos_ % 8) % 8); }

    /// Copies `n` bytes verbatim; the writer must be byte aligned.
    bool write_bytes(const std::byte* bytes, std::size_t n) noexcept {
        if (limit_ == 0 || align_bits() != 0 || n > bits_available() / 8) return false;
        // Bytes go through the scratch register up to a word boundary, whole words
        // straight to memory, the rest through the register again.
        for (; n != 0 && pos_ % 32 != 0; --n) write_bits(std::to_integer<std::uint64_t>(*bytes++), 8);
        const std::size_t words = n / 4 * 4;
        if (words != 0) std::memcpy(data_ + pos_ / 8, bytes, words);
        pos_ += words * 8;
        for (std::size_t i = words; i < n; ++i) write_bits(std::to_integer<std::uint64_t>(bytes[i]), 8);
        return true;
    }

    /// Where the writer is: the bits written and the partial word not yet stored.
    struct position {
        std::size_t bits;
        std::uint64_t scratch;
    };
    position where() const noexcept { return {pos_, scratch_}; }
    /// Back to a position this writer (or the one it was rebound from) reported. For a
    /// slow path that writes out of line and hands the position back by value, so that
    /// the inlined caller keeps it in registers rather than reloading it.
    void move_to(position p) noexcept {
        pos_ = p.bits;
        scratch_ = p.scratch;
    }

    /// Makes every later write fail (the streams use it to keep errors sticky).
    void poison() noexcept { limit_ = 0; }

    /// Goes on in another buffer that already holds the bytes written so far (a grown
    /// copy of this one, at least bytes_written() long): the partial word stays in the
    /// scratch register. A poisoned writer stays poisoned.
    void rebind(void* data, std::size_t size) noexcept {
        data_ = static_cast<std::byte*>(data);
        size_ = size;
        if (limit_ != 0) limit_ = bit_limit(size);
    }

    std::size_t bits_written() const noexcept { return pos_; }
    std::size_t bytes_written() const noexcept { return (pos_ + 7) / 8; }
    std::size_t capacity_bytes() const noexcept { return size_; }
    /// Bits that still fit (0 after poison()).
    std::size_t bits_available() const noexcept { return limit_ == 0 ? 0 : limit_ - 1 - pos_; }

    /// Stores the partial last word (unused high bits zero) and returns the bytes
    /// written so far. Writing may go on afterwards; finish() again includes it.
    std::span<const std::byte> finish() noexcept {
        std::uint64_t s = scratch_;
        std::byte* word = data_ + pos_ / 32 * 4;
        for (std::size_t i = 0, n = (pos_ % 32 + 7) / 8; i < n; ++i, s >>= 8)
            word[i] = static_cast<std::byte>(s & 0xffu);
        return {data_, bytes_written()};
    }

private:
    static constexpr std::uint64_t low_mask(int n) noexcept {
        return (std::uint64_t{1} << n) - 1; // n <= 32 here
    }

    // One more than the bits that fit, so that `pos + n < limit` is the room check
    // and limit 0 (poison) fails every call. Capped so that pos + 64 cannot overflow.
    static constexpr std::size_t bit_limit(std::size_t size) noexcept {
        constexpr std::size_t max_bytes = (SIZE_MAX - 128) / 8;
        return (size < max_bytes ? size : max_bytes) * 8 + 1;
    }

    // Adds n <= 32 bits (value < 2^n) at bit `pos`. The scratch register holds the
    // pos % 32 bits of the current word; a completed word goes to memory. Those
    // 4 bytes hold only bits already counted against the room, so they fit.
    NETSER_INLINE std::uint64_t put(std::uint64_t scratch, std::uint64_t value, int n, std::size_t pos) noexcept {
        const std::size_t used = pos % 32;
        scratch |= value << used;
        if (used >= 32 - static_cast<unsigned>(n)) {
            detail::store_le32(data_ + pos / 32 * 4, static_cast<std::uint32_t>(scratch));
            scratch >>= 32;
        }
        return scratch;
    }

    std::byte* data_;
    std::size_t size_;
    std::size_t limit_;          // bits that fit + 1; 0 once poisoned
    std::size_t pos_ = 0;        // bits written; whole 32-bit words are in memory
    std::uint64_t scratch_ = 0;  // the pos_ % 32 bits of the current word, LSB first
};

} // namespace netser
