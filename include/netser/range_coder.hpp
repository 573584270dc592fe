#pragma once

// The adaptive binary range coder of netser's entropy stage: bit_probability (an
// adaptive model of one binary context), range_encoder and range_decoder. The wire
// text is the "range coder" section of docs/wire_format.md; tools/range_coder_reference.py
// is an independent model of it.
//
// LZMA-style: a 32-bit range, a 33-bit low whose carry reaches the bytes still held
// back (one byte and a run of 0xFF bytes), bytes out MSB first. The carry costs the
// encoder a compare per output byte and the decoder nothing. A carry-less coder
// (Subbotin) codes about as small (0.1% more on 100k bits, the same on packets of
// 3000) but tests two conditions on every renormalization, in the decoder too. The
// flush writes one byte after those held back and the decoder reads the 3 bytes it
// still wants past the end as zeros: no padding, and the packet's length is tied to
// what it decodes to (the end check).

#include <netser/detail/config.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace netser {

namespace detail {
// bit_width(n + 1) for n = 0..31, a load rather than the bit scan (0.1-0.2 ns a bit).
inline constexpr std::uint8_t rate_shift[32] = {1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5,
                                                5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6};
// The range is renormalized (shifted up a byte) whenever it falls below 2^24.
inline constexpr std::uint32_t range_top = 1u << 24;
} // namespace detail

/// An adaptive model of one binary context: the probability p0 / 2^15 that the next
/// bit is 0 (1..32767) and the count n (0..31) of bits it has adapted to. After a bit,
/// p0 moves towards it by 1 / 2^s of the way, s = bit_width(n + 1): 1/2, 1/4, 1/4,
/// 1/8 ... 1/32 from the 15th bit, 1/64 from the 31st. The models restart from a prior
/// every packet: with n = 0 (the library default, p0 = 1/2) a model learns about as
/// fast as a counting estimator; a trained prior gives its confidence as n.
/// (Measured on simulated contexts reset every packet: a fixed rate 1/16 or 1/32 codes
/// 10-25% more than this from an uninformed prior; ending at 1/32 rather than 1/64
/// costs 0.5-1% from trained priors; 12 bits of p0 instead of 15 cost up to 0.5%.)
class bit_probability {
public:
    static constexpr int precision_bits = 15;
    static constexpr unsigned one = 1u << precision_bits;
    static constexpr unsigned max_count = 31;

    /// p0 = 1/2, n = 0: the library default prior (raw 0x4000).
    constexpr bit_probability() noexcept = default;
    /// p0 clamped to 1..32767, n to 0..31.
    static constexpr bit_probability from(unsigned p0, unsigned count) noexcept {
        const unsigned p = p0 < 1 ? 1 : p0 > one - 1 ? one - 1 : p0;
        return bit_probability(static_cast<std::uint16_t>(p),
                               static_cast<std::uint8_t>(count > max_count ? max_count : count));
    }
    /// From raw(): p0 in bits 0-14, n in bits 16-20 (clamped as by from()).
    static constexpr bit_probability from_raw(std::uint32_t raw) noexcept {
        return from(raw & 0xffffu, raw >> 16);
    }

    constexpr unsigned p0() const noexcept { return p0_; }
    constexpr unsigned count() const noexcept { return count_; }
    constexpr std::uint32_t raw() const noexcept { return std::uint32_t{p0_} | std::uint32_t{count_} << 16; }

    /// Adapts to `bit` (0 or 1). p0 stays in 1..32767.
    NETSER_INLINE constexpr void update(unsigned bit) noexcept {
        const unsigned n = count_;
        const unsigned s = detail::rate_shift[n];
        const unsigned p = p0_;
        p0_ = static_cast<std::uint16_t>(bit != 0 ? p - (p >> s) : p + ((one - p) >> s));
        count_ = static_cast<std::uint8_t>(n + (n < max_count));
    }

    friend constexpr bool operator==(bit_probability, bit_probability) noexcept = default;

private:
    constexpr bit_probability(std::uint16_t p0, std::uint8_t count) noexcept : p0_(p0), count_(count) {}
    std::uint16_t p0_ = one / 2;
    std::uint8_t count_ = 0;
};

/// Encodes bits into a caller's buffer. Never writes outside [data, data + capacity):
/// a packet that does not fit fails (every call from then on returns false, finish()
/// too). Bytes are written as soon as no carry can change them.
class range_encoder {
public:
    range_encoder(std::byte* data, std::size_t capacity) noexcept : data_(data), capacity_(capacity) {}
    explicit range_encoder(std::span<std::byte> buffer) noexcept : range_encoder(buffer.data(), buffer.size()) {}

    /// Codes `bit` (0, or anything else for 1) with the model, then adapts the model.
    NETSER_INLINE bool encode(bit_probability& model, unsigned bit) noexcept {
        const std::uint32_t bound = (range_ >> bit_probability::precision_bits) * model.p0();
        if (bit != 0) {
            low_ += bound;
            range_ -= bound;
        } else {
            range_ = bound;
        }
        model.update(bit != 0);
        // One bit can take the range from 2^24 down to 2^9: up to three bytes.
        while (range_ < detail::range_top) [[unlikely]] {
            range_ <<= 8;
            shift_low();
        }
        return !failed_;
    }

    /// Codes the low `bits` bits of `value` (0..64), most significant first, each with
    /// probability 1/2 and no model. Returns false, coding nothing, for bits outside 0..64.
    NETSER_INLINE bool encode_equiprobable(std::uint64_t value, int bits) noexcept {
        if (static_cast<unsigned>(bits) > 64u) [[unlikely]] return false;
        for (int i = bits - 1; i >= 0; --i) {
            range_ >>= 1;
            low_ += range_ & (0u - static_cast<std::uint32_t>((value >> i) & 1u));
            if (range_ < detail::range_top) {
                range_ <<= 8;
                shift_low();
            }
        }
        return !failed_;
    }

    /// Codes the low `bits` bits of `value` (0..31), most significant first, through a
    /// binary tree of models: the bit under node m (1 at the root) uses models[m], then
    /// m = 2m + bit. `models` has 1 << bits entries (models[0] unused). Returns false,
    /// coding nothing, for bits outside 0..31.
    NETSER_INLINE bool encode_tree(bit_probability* models, std::uint32_t value, int bits) noexcept {
        if (static_cast<unsigned>(bits) > 31u) [[unlikely]] return false;
        std::uint32_t m = 1;
        for (int i = bits - 1; i >= 0; --i) {
            const unsigned bit = (value >> i) & 1u;
            encode(models[m], bit);
            m = m << 1 | bit;
        }
        return !failed_;
    }

    /// Writes the held bytes and one more: k - 3 bytes in all, where k is what the
    /// decoder reads for these bits (4 bytes to start, one per renormalization); it
    /// reads the last 3 as zeros past the end. False when the packet does not fit.
    /// Call it once; code nothing after it.
    bool finish() noexcept {
        if (finished_) return !failed_;
        finished_ = true;
        // The final interval is [low, low + range), range >= 2^24: it holds a multiple
        // of 2^24, whose low 3 bytes are the zeros the decoder reads past the end.
        low_ += (std::uint64_t{0} - low_) & 0xffffffu;
        release(static_cast<std::uint32_t>(low_ >> 32));
        put(static_cast<std::uint32_t>(low_ >> 24) & 0xffu);
        return !failed_;
    }

    /// The packet, after a finish() that returned true (empty before).
    std::span<const std::byte> bytes() const noexcept {
        return finished_ && !failed_ ? std::span<const std::byte>(data_, pos_) : std::span<const std::byte>();
    }
    /// The size of the packet finish() would give if called now: bytes written, bytes
    /// held back, and one.
    std::size_t finished_size() const noexcept { return pos_ + held_ + 1; }
    /// True when the packet did not fit (sticky).
    bool failed() const noexcept { return failed_; }

private:
    // Moves the top byte of low's 32 bits out. Bytes below it can still add a carry to
    // it only if it is 0xFF: then it joins the bytes held back; otherwise the held
    // bytes (plus the carry in bit 32 of low) go out and it is held instead.
    NETSER_NOINLINE void shift_low() noexcept {
        if (low_ < 0xff000000u || low_ > 0xffffffffu) {
            release(static_cast<std::uint32_t>(low_ >> 32));
            cache_ = static_cast<std::uint32_t>(low_ >> 24) & 0xffu;
        }
        // Held back, cache_ first: at the start no byte is held and cache_ = 0xFF, so
        // that a first byte 0xFF is held as cache_ too.
        ++held_;
        low_ = (low_ & 0x00ffffffu) << 8;
    }

    // Writes the held bytes with `carry` (0 or 1) added; none is left held.
    void release(std::uint32_t carry) noexcept {
        if (held_ == 0) return;
        put((cache_ + carry) & 0xffu);
        for (; held_ > 1; --held_) put((0xffu + carry) & 0xffu);
        held_ = 0;
    }

    // A byte past the capacity fails the packet, and is not stored.
    void put(std::uint32_t byte) noexcept {
        if (pos_ < capacity_) data_[pos_++] = static_cast<std::byte>(byte);
        else failed_ = true;
    }

    std::byte* data_;
    std::size_t capacity_;
    std::size_t pos_ = 0;  // bytes written
    std::size_t held_ = 0; // bytes held back: cache_, then held_ - 1 of 0xFF
    std::uint64_t low_ = 0;
    std::uint32_t range_ = 0xffffffffu;
    std::uint32_t cache_ = 0xffu;
    bool failed_ = false;
    bool finished_ = false;
};

/// Decodes what range_encoder coded, from a packet of `size` bytes: bytes past the
/// end read as zeros (counted by bytes_consumed()), so any input decodes to some bits,
/// every call in bounded time, and no byte outside [data, data + size) is read.
/// ended_cleanly() tells whether the packet is exactly the encoder's output for the
/// bits decoded.
class range_decoder {
public:
    range_decoder(const std::byte* data, std::size_t size) noexcept : data_(data), size_(size) {
        for (int i = 0; i < 4; ++i) code_ = code_ << 8 | next_byte();
        // No encoder output starts FF FF FF FF (its value is below the initial range):
        // reported by ended_cleanly(), and decoded as FF FF FF FE so that code < range holds.
        if (code_ == 0xffffffffu) {
            code_ = 0xfffffffeu;
            bad_start_ = true;
        }
    }
    explicit range_decoder(std::span<const std::byte> packet) noexcept
        : range_decoder(packet.data(), packet.size()) {}

    /// The next bit coded with `model` (0 or 1); adapts the model as the encoder did.
    NETSER_INLINE unsigned decode(bit_probability& model) noexcept {
        const std::uint32_t bound = (range_ >> bit_probability::precision_bits) * model.p0();
        const unsigned bit = code_ >= bound;
        if (bit != 0) {
            code_ -= bound;
            range_ -= bound;
        } else {
            range_ = bound;
        }
        model.update(bit);
        while (range_ < detail::range_top) [[unlikely]] {
            range_ <<= 8;
            code_ = code_ << 8 | next_byte();
        }
        return bit;
    }

    /// The next `bits` (0..64) equiprobable bits, most significant first; 0, decoding
    /// nothing, for bits outside 0..64.
    NETSER_INLINE std::uint64_t decode_equiprobable(int bits) noexcept {
        if (static_cast<unsigned>(bits) > 64u) [[unlikely]] return 0;
        std::uint64_t value = 0;
        for (int i = 0; i < bits; ++i) {
            range_ >>= 1;
            const std::uint32_t bit = code_ >= range_;
            code_ = bit ? code_ - range_ : code_; // a cmov with both compilers
            value = value << 1 | bit;
            if (range_ < detail::range_top) {
                range_ <<= 8;
                code_ = code_ << 8 | next_byte();
            }
        }
        return value;
    }

    /// The next `bits` (0..31) bits coded by encode_tree with the same models; 0,
    /// decoding nothing, for bits outside 0..31.
    NETSER_INLINE std::uint32_t decode_tree(bit_probability* models, int bits) noexcept {
        if (static_cast<unsigned>(bits) > 31u) [[unlikely]] return 0;
        std::uint32_t m = 1;
        for (int i = 0; i < bits; ++i) m = m << 1 | decode(models[m]);
        return m - (std::uint32_t{1} << bits);
    }

    /// True when the packet is byte for byte what range_encoder::finish() gives for the
    /// bits decoded so far: no byte missing, none extra, none different.
    bool ended_cleanly() const noexcept {
        // finish() wrote the top byte of the smallest multiple of 2^24 in the interval:
        // the decoder read exactly 3 bytes past the end (so the last 3 it read are
        // zeros), and the value it read is that multiple: code = value - low < 2^24.
        return !bad_start_ && pos_ == size_ + 3 && code_ < detail::range_top;
    }

    /// Bytes read so far, counting the zeros read past the end.
    std::size_t bytes_consumed() const noexcept { return pos_; }
    /// Zero bytes read past the end (3 for a complete packet).
    std::size_t bytes_past_end() const noexcept { return pos_ > size_ ? pos_ - size_ : 0; }

private:
    NETSER_INLINE std::uint32_t next_byte() noexcept {
        const std::size_t i = pos_++;
        return i < size_ ? std::to_integer<std::uint32_t>(data_[i]) : 0u;
    }

    const std::byte* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
    std::uint32_t code_ = 0;
    std::uint32_t range_ = 0xffffffffu;
    bool bad_start_ = false;
};

} // namespace netser
