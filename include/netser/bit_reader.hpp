#pragma once

#include <netser/detail/config.hpp>
#include <netser/detail/endian.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

namespace netser {

/// Unpacks values of 1..64 bits written by bit_writer.
///
/// Away from the end of the packet a read is one unaligned 8-byte load at the byte
/// of the read position, a shift and a mask: the only state is the bit position, so
/// successive reads do not wait on each other. The last 8 bytes are read byte by
/// byte: it never touches a byte outside [data, data + size), whatever the size and
/// the alignment of the pointer.
class bit_reader {
public:
    bit_reader(const void* data, std::size_t size) noexcept
        : data_(static_cast<const std::byte*>(data)), size_(size), limit_(bit_limit(size)),
          fast_limit_(limit_ > 64 ? limit_ - 64 : 0) {}
    explicit bit_reader(std::span<const std::byte> packet) noexcept
        : bit_reader(packet.data(), packet.size()) {}

    /// Reads `n` bits (0..64) into `value`. Returns false, consuming nothing, when
    /// fewer than n bits are left, n is outside 0..64, or after poison().
    NETSER_INLINE bool read_bits(std::uint64_t& value, int n) noexcept {
        const std::size_t pos = pos_;
        std::size_t next = pos + static_cast<unsigned>(n);
        // Below fast_limit_, bytes pos / 8 .. pos / 8 + 7 are in the packet and hold
        // the 56 bits from pos (the room check is implied).
        if (static_cast<unsigned>(n) <= 56u && pos < fast_limit_) [[likely]] {
            value = peek(pos, n);
        } else if (static_cast<unsigned>(n) <= 64u && n > 56 && pos + 32 < fast_limit_) {
            value = peek(pos, 32) | peek(pos + 32, n - 32) << 32;
        } else {
            // The slow path sees copies, not *this: the reader can stay in registers.
            next = pos;
            std::uint64_t v = 0;
            if (!read_slow(data_, limit_, next, v, n)) return false;
            value = v;
        }
        // One store of the new position on every path: the next read gets it from a register.
        pos_ = next;
        return true;
    }

    /// read_bits for a caller that made sure the bits are there (n <= bits_remaining(),
    /// once for many values) and n <= 56: no room check away from the packet's end.
    NETSER_INLINE std::uint64_t read_bits_fitting(int n) noexcept {
        const std::size_t pos = pos_;
        std::uint64_t value = 0;
        if (pos < fast_limit_) [[likely]] {
            value = peek(pos, n);
            pos_ = pos + static_cast<unsigned>(n);
        } else {
            std::size_t next = pos;
            (void)read_slow(data_, limit_, next, value, n); // cannot fail: the bits are there
            pos_ = next;
        }
        return value;
    }

    /// Back to a position already read (a caller that reads a value again, the slow way).
    void move_back_to(std::size_t bits) noexcept {
        if (bits <= pos_) pos_ = bits;
    }

    /// Bits needed to reach the next byte boundary (0..7).
    int align_bits() const noexcept { return static_cast<int>((8 - pos_ % 8) % 8); }

    /// Copies `n` bytes verbatim; the reader must be byte aligned.
    bool read_bytes(std::byte* out, std::size_t n) noexcept {
        if (limit_ == 0 || align_bits() != 0 || n > bits_remaining() / 8) return false;
        if (n != 0) std::memcpy(out, data_ + pos_ / 8, n);
        pos_ += n * 8;
        return true;
    }

    /// Makes every later read fail (the streams use it to keep errors sticky).
    void poison() noexcept { limit_ = fast_limit_ = 0; }

    std::size_t bits_read() const noexcept { return pos_; }
    std::size_t bytes_read() const noexcept { return (pos_ + 7) / 8; }
    /// Bits not yet read (0 after poison()).
    std::size_t bits_remaining() const noexcept { return limit_ == 0 ? 0 : limit_ - 1 - pos_; }
    std::size_t size_bytes() const noexcept { return size_; }

private:
    // The n <= 56 bits at bit pos; pos < fast_limit_.
    std::uint64_t peek(std::size_t pos, int n) const noexcept {
        return (detail::load_le64(data_ + pos / 8) >> (pos % 8)) & ((std::uint64_t{1} << n) - 1);
    }

    // One more than the bits in the packet (0 once poisoned); capped so that
    // pos + 64 cannot overflow.
    static constexpr std::size_t bit_limit(std::size_t size) noexcept {
        constexpr std::size_t max_bytes = (SIZE_MAX - 128) / 8;
        return (size < max_bytes ? size : max_bytes) * 8 + 1;
    }

    // Near the end of the packet, and every failure: byte by byte from bit `pos`.
    NETSER_NOINLINE static bool read_slow(const std::byte* data, std::size_t limit, std::size_t& pos,
                                                 std::uint64_t& value, int n) noexcept {
        if (static_cast<unsigned>(n) > 64u || pos + static_cast<unsigned>(n) >= limit) return false;
        std::uint64_t v = 0;
        for (int got = 0; got < n;) {
            const unsigned offset = static_cast<unsigned>(pos % 8);
            const int take = 8 - static_cast<int>(offset) < n - got ? 8 - static_cast<int>(offset) : n - got;
            const std::uint64_t byte = std::to_integer<std::uint64_t>(data[pos / 8]) >> offset;
            v |= (byte & ((std::uint64_t{1} << take) - 1)) << got;
            got += take;
            pos += static_cast<unsigned>(take);
        }
        value = v;
        return true;
    }

    const std::byte* data_;
    std::size_t size_;
    std::size_t limit_;       // bits in the packet + 1; 0 once poisoned
    std::size_t fast_limit_;  // limit_ - 64: 8 bytes of packet from pos / 8 below it; 0 once poisoned
    std::size_t pos_ = 0;     // bits read
};

} // namespace netser
