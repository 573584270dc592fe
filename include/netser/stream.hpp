#pragma once

#include <netser/bit_reader.hpp>
#include <netser/bit_writer.hpp>
#include <netser/error.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>

namespace netser {

namespace detail {

// What every stream shares: the sticky error and a caller-attached context.
class stream_state {
public:
    const netser::error& error() const noexcept { return error_; }
    /// Mutable access, for adding the member path while a failure unwinds.
    netser::error& error() noexcept { return error_; }
    bool ok() const noexcept { return !error_; }

    /// An opaque pointer for codecs that need state from the caller (e.g. linking).
    void* context() const noexcept { return context_; }
    void set_context(void* context) noexcept { context_ = context; }

    /// How deeply structs may nest (recursive types such as trees): 64 by default.
    std::size_t max_depth() const noexcept { return max_depth_; }
    void set_max_depth(std::size_t depth) noexcept { max_depth_ = depth; }
    /// Entering a nested struct: false (too_large is for the caller to set) past max_depth.
    bool enter_nested() noexcept { return ++depth_ <= max_depth_; }
    void leave_nested() noexcept { --depth_; }

protected:
    // Keeps the first failure: later ones are consequences of it.
    void record(errc code, std::size_t bit) noexcept {
        if (!error_) {
            error_.code = code;
            error_.bit = bit;
        }
    }

    netser::error error_;
    void* context_ = nullptr;
    std::size_t depth_ = 0;
    std::size_t max_depth_ = 64;
};

} // namespace detail

/// Writes values into a caller-owned buffer.
class write_stream : public detail::stream_state {
public:
    static constexpr bool is_writing = true;
    static constexpr bool is_reading = false;

    explicit write_stream(std::span<std::byte> buffer) noexcept : writer_(buffer) {}
    write_stream(void* data, std::size_t size) noexcept : writer_(data, size) {}

    /// Writes the low n bits of value (n in 0..64).
    NETSER_INLINE bool process_bits(std::uint64_t value, int n) noexcept {
        if (writer_.write_bits(value, n)) [[likely]] return true;
        return fail(errc::overflow, bits_processed());
    }
    bool align() noexcept { return process_bits(0, writer_.align_bits()); }
    int align_bits() const noexcept { return writer_.align_bits(); }
    /// Copies bytes verbatim; the stream must be aligned.
    bool process_bytes(const std::byte* data, std::size_t n) noexcept {
        if (writer_.write_bytes(data, n)) [[likely]] return true;
        return fail(errc::overflow, bits_processed());
    }

    /// Records the first failure and makes every later call fail. Returns false.
    bool fail(errc code, std::size_t bit) noexcept {
        fail_cold(code, bit);
        return false; // visible to the caller: no state reload after a check
    }

    std::size_t bits_processed() const noexcept { return writer_.bits_written(); }
    std::size_t bytes_processed() const noexcept { return writer_.bytes_written(); }
    /// Bits that still fit in the buffer.
    std::size_t bits_remaining() const noexcept { return writer_.bits_available(); }

    /// Flushes the last partial word; the bytes written (unused high bits zero).
    std::span<const std::byte> finish() noexcept { return writer_.finish(); }

private:
    NETSER_COLD void fail_cold(errc code, std::size_t bit) noexcept {
        record(code, bit);
        writer_.poison();
    }

    bit_writer writer_;
};

/// Reads values from a packet; every byte of it is treated as hostile.
class read_stream : public detail::stream_state {
public:
    static constexpr bool is_writing = false;
    static constexpr bool is_reading = true;

    explicit read_stream(std::span<const std::byte> packet) noexcept : reader_(packet) {}
    read_stream(const void* data, std::size_t size) noexcept : reader_(data, size) {}

    NETSER_INLINE bool process_bits(std::uint64_t& value, int n) noexcept {
        if (reader_.read_bits(value, n)) [[likely]] return true;
        return fail(errc::overflow, bits_processed());
    }
    /// Skips to the next byte boundary; the padding must be zero.
    bool align() noexcept {
        const std::size_t at = bits_processed();
        std::uint64_t padding = 0;
        if (!process_bits(padding, reader_.align_bits())) return false;
        if (padding != 0) [[unlikely]] return fail(errc::invalid_value, at);
        return true;
    }
    int align_bits() const noexcept { return reader_.align_bits(); }
    bool process_bytes(std::byte* data, std::size_t n) noexcept {
        if (reader_.read_bytes(data, n)) [[likely]] return true;
        return fail(errc::overflow, bits_processed());
    }

    bool fail(errc code, std::size_t bit) noexcept {
        fail_cold(code, bit);
        return false;
    }

    std::size_t bits_processed() const noexcept { return reader_.bits_read(); }
    std::size_t bytes_processed() const noexcept { return reader_.bytes_read(); }
    /// Bits of the packet not yet read: a count must fit in these before anything is allocated.
    std::size_t bits_remaining() const noexcept { return reader_.bits_remaining(); }

private:
    NETSER_COLD void fail_cold(errc code, std::size_t bit) noexcept {
        record(code, bit);
        reader_.poison();
    }

    bit_reader reader_;
};

/// Counts the bits a write would produce, without a buffer.
///
/// It pads for align exactly as the writer does, assuming the write starts at bit
/// `start_bit` (0 by default: a packet starts byte aligned), so its count equals
/// the writer's bit for bit.
class measure_stream : public detail::stream_state {
public:
    static constexpr bool is_writing = true;
    static constexpr bool is_reading = false;

    explicit measure_stream(std::size_t start_bit = 0) noexcept : start_(start_bit) {}

    NETSER_INLINE bool process_bits(std::uint64_t, int n) noexcept {
        if (!ok() || static_cast<unsigned>(n) > 64u) [[unlikely]] return fail(errc::overflow, bits_processed());
        bits_ += static_cast<unsigned>(n);
        return true;
    }
    bool align() noexcept { return process_bits(0, align_bits()); }
    int align_bits() const noexcept { return static_cast<int>((8 - (start_ + bits_) % 8) % 8); }
    bool process_bytes(const std::byte*, std::size_t n) noexcept {
        if (!ok() || align_bits() != 0) [[unlikely]] return fail(errc::overflow, bits_processed());
        bits_ += n * 8;
        return true;
    }

    bool fail(errc code, std::size_t bit) noexcept {
        record(code, bit);
        return false;
    }

    std::size_t bits_processed() const noexcept { return bits_; }
    std::size_t bytes_processed() const noexcept { return (bits_ + 7) / 8; }
    /// Unlimited: measuring never runs out of room.
    std::size_t bits_remaining() const noexcept { return ok() ? SIZE_MAX / 2 : 0; }

private:
    std::size_t start_;
    std::size_t bits_ = 0;
};

/// What the primitives need from a stream. write_stream, read_stream and
/// measure_stream model it; a user stream (a profiler, say) can too.
template <class S>
concept stream = requires(S& s, const S& cs, std::uint64_t& v, std::byte* p, std::size_t n) {
    { S::is_writing } -> std::convertible_to<bool>;
    { S::is_reading } -> std::convertible_to<bool>;
    { s.process_bits(v, 1) } -> std::same_as<bool>;
    { s.process_bytes(p, n) } -> std::same_as<bool>;
    { s.align() } -> std::same_as<bool>;
    { cs.align_bits() } -> std::convertible_to<int>;
    { s.fail(errc::overflow, n) } -> std::same_as<bool>;
    { cs.bits_processed() } -> std::convertible_to<std::size_t>;
    { cs.bits_remaining() } -> std::convertible_to<std::size_t>;
    { cs.error() } -> std::convertible_to<const error&>;
    { s.error() } -> std::convertible_to<error&>;
};

namespace detail {

/// For a value written in several steps (string, bytes, check, relative index): a
/// failure in any step is reported at the value's first bit `at`. An error from
/// before the value has bit <= at and is kept as it is. Returns false.
template <stream S>
bool failed_from(S& s, std::size_t at) noexcept {
    error& e = s.error();
    if (e.bit > at) e.bit = at;
    return false;
}

} // namespace detail

} // namespace netser
