#pragma once

#include <netser/detail/endian.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace netser {

/// Unpacks values of 1..64 bits written by bit_writer.
///
/// Reads whole 32-bit words into a 64-bit scratch register while at least four bytes
/// remain, then the last bytes one by one: it never touches a byte outside
/// [data, data + size), whatever the size and the alignment of the pointer.
class bit_reader {
public:
    bit_reader(const void* data, std::size_t size) noexcept
        : data_(static_cast<const std::byte*>(data)), size_(size),
          left_(static_cast<std::int64_t>(size) * 8) {}
    explicit bit_reader(std::span<const std::byte> packet) noexcept
        : bit_reader(packet.data(), packet.size()) {}

    /// Reads `n` bits (0..64) into `value`. Returns false, consuming nothing, when
    /// fewer than n bits are left, n is outside 0..64, or after poison().
    bool read_bits(std::uint64_t& value, int n) noexcept {
        if (n > left_ || static_cast<unsigned>(n) > 64u) [[unlikely]] return false;
        left_ -= n;
        if (n > 32) {
            const std::uint64_t low = take(32);
            value = low | (take(n - 32) << 32);
        } else {
            value = take(n);
        }
        return true;
    }

    /// Bits needed to reach the next byte boundary (0..7).
    int align_bits() const noexcept { return static_cast<int>(scratch_bits_ % 8); }

    /// Copies `n` bytes verbatim; the reader must be byte aligned.
    bool read_bytes(std::byte* out, std::size_t n) noexcept {
        if (left_ < 0 || align_bits() != 0 || n > static_cast<std::uint64_t>(left_) / 8) return false;
        left_ -= static_cast<std::int64_t>(n * 8);
        // Whole bytes already in the scratch register come first.
        for (; n != 0 && scratch_bits_ != 0; --n, scratch_bits_ -= 8, scratch_ >>= 8)
            *out++ = static_cast<std::byte>(scratch_ & 0xffu);
        if (n != 0) std::memcpy(out, data_ + next_, n);
        next_ += n;
        return true;
    }

    /// Makes every later read fail (the streams use it to keep errors sticky).
    void poison() noexcept { left_ = -1; }

    std::size_t bits_read() const noexcept { return next_ * 8 - scratch_bits_; }
    std::size_t bytes_read() const noexcept { return (bits_read() + 7) / 8; }
    /// Bits not yet read (0 after poison()).
    std::size_t bits_remaining() const noexcept {
        return left_ < 0 ? 0 : static_cast<std::size_t>(left_);
    }
    std::size_t size_bytes() const noexcept { return size_; }

private:
    // n <= 32 and the bits are known to be there.
    std::uint64_t take(int n) noexcept {
        if (scratch_bits_ < static_cast<unsigned>(n)) refill();
        const std::uint64_t v = scratch_ & ((std::uint64_t{1} << n) - 1);
        scratch_ >>= n;
        scratch_bits_ -= static_cast<unsigned>(n);
        return v;
    }

    // scratch_bits_ < 32 here, so 32 more bits always fit in the register.
    void refill() noexcept {
        if (size_ - next_ >= 4) {
            scratch_ |= std::uint64_t{detail::load_le32(data_ + next_)} << scratch_bits_;
            next_ += 4;
            scratch_bits_ += 32;
        } else {
            for (; next_ < size_; ++next_, scratch_bits_ += 8)
                scratch_ |= std::uint64_t{std::to_integer<std::uint8_t>(data_[next_])} << scratch_bits_;
        }
    }

    const std::byte* data_;
    std::size_t size_;
    std::int64_t left_;          // bits not yet read; negative once poisoned
    std::size_t next_ = 0;       // next byte to load
    std::uint64_t scratch_ = 0;  // loaded bits not yet read, LSB first
    unsigned scratch_bits_ = 0;
};

} // namespace netser
