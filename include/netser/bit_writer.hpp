#pragma once

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
/// value that does not fit fails the call (overflow) and writes nothing.
class bit_writer {
public:
    bit_writer(void* data, std::size_t size) noexcept
        : data_(static_cast<std::byte*>(data)), size_(size),
          room_(static_cast<std::int64_t>(size) * 8) {}
    explicit bit_writer(std::span<std::byte> buffer) noexcept
        : bit_writer(buffer.data(), buffer.size()) {}

    /// Writes the low `n` bits of `value` (n in 0..64; higher bits are ignored).
    /// Returns false, writing nothing, when they do not fit, n is outside 0..64, or
    /// after poison().
    bool write_bits(std::uint64_t value, int n) noexcept {
        if (n > room_ || static_cast<unsigned>(n) > 64u) [[unlikely]] return false;
        room_ -= n;
        if (n > 32) {
            put(value & 0xffffffffu, 32);
            put((value >> 32) & low_mask(n - 32), n - 32);
        } else {
            put(value & low_mask(n), n);
        }
        return true;
    }

    /// Writes zero bits up to the next byte boundary.
    bool write_align() noexcept { return write_bits(0, align_bits()); }

    /// Bits needed to reach the next byte boundary (0..7).
    int align_bits() const noexcept { return static_cast<int>((8 - scratch_bits_ % 8) % 8); }

    /// Copies `n` bytes verbatim; the writer must be byte aligned.
    bool write_bytes(const std::byte* bytes, std::size_t n) noexcept {
        if (room_ < 0 || align_bits() != 0 || n > static_cast<std::uint64_t>(room_) / 8) return false;
        flush_scratch_bytes();
        if (n != 0) std::memcpy(data_ + flushed_, bytes, n);
        flushed_ += n;
        room_ -= static_cast<std::int64_t>(n * 8);
        return true;
    }

    /// Makes every later write fail (the streams use it to keep errors sticky).
    void poison() noexcept { room_ = -1; }

    std::size_t bits_written() const noexcept { return flushed_ * 8 + scratch_bits_; }
    std::size_t bytes_written() const noexcept { return (bits_written() + 7) / 8; }
    std::size_t capacity_bytes() const noexcept { return size_; }
    /// Bits that still fit (0 after poison()).
    std::size_t bits_available() const noexcept {
        return room_ < 0 ? 0 : static_cast<std::size_t>(room_);
    }

    /// Stores the partial last word (unused high bits zero) and returns the bytes
    /// written so far. Writing may go on afterwards; finish() again includes it.
    std::span<const std::byte> finish() noexcept {
        std::uint64_t s = scratch_;
        for (std::size_t i = 0, n = (scratch_bits_ + 7) / 8; i < n; ++i, s >>= 8)
            data_[flushed_ + i] = static_cast<std::byte>(s & 0xffu);
        return {data_, bytes_written()};
    }

private:
    static constexpr std::uint64_t low_mask(int n) noexcept {
        return (std::uint64_t{1} << n) - 1; // n <= 32 here
    }

    // n <= 32, value < 2^n, and the room check has passed.
    void put(std::uint64_t value, int n) noexcept {
        scratch_ |= value << scratch_bits_;
        scratch_bits_ += static_cast<unsigned>(n);
        if (scratch_bits_ >= 32) {
            // These 4 bytes hold only bits already counted against the room, so they fit.
            detail::store_le32(data_ + flushed_, static_cast<std::uint32_t>(scratch_));
            flushed_ += 4;
            scratch_ >>= 32;
            scratch_bits_ -= 32;
        }
    }

    // Moves the whole bytes of the scratch register to memory (used when aligned).
    void flush_scratch_bytes() noexcept {
        for (; scratch_bits_ >= 8; scratch_bits_ -= 8, scratch_ >>= 8)
            data_[flushed_++] = static_cast<std::byte>(scratch_ & 0xffu);
    }

    std::byte* data_;
    std::size_t size_;
    std::int64_t room_;          // bits that still fit; negative once poisoned
    std::size_t flushed_ = 0;    // bytes stored to memory
    std::uint64_t scratch_ = 0;  // bits not yet stored, LSB first
    unsigned scratch_bits_ = 0;  // always < 32 between calls
};

} // namespace netser
