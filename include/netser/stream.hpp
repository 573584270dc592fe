#pragma once

#include <netser/bit_reader.hpp>
#include <netser/bit_writer.hpp>
#include <netser/detail/config.hpp>
#include <netser/error.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

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

    /// Around hand-written code that netser calls (a user type's serialize function,
    /// netser::named): a serialize called from it roots its path provisionally, for the
    /// caller to complete (error::prepend_root).
    void enter_user_code() noexcept { ++user_code_; }
    void leave_user_code() noexcept { --user_code_; }
    bool in_user_code() const noexcept { return user_code_ != 0; }

protected:
    // Keeps the first failure: later ones are consequences of it, or of code that went
    // on after it (whose names the path then leaves out).
    void record(errc code, std::size_t bit) noexcept {
        if (!error_) [[likely]] {
            error_.code = code;
            error_.bit = bit;
            return;
        }
        error_.note_continued();
    }

    netser::error error_;
    void* context_ = nullptr;
    std::size_t depth_ = 0;
    std::size_t max_depth_ = 64;
    std::size_t user_code_ = 0;
};

} // namespace detail

/// Writes values into a caller-owned buffer of fixed size, never past its end: a value
/// that does not fit fails with overflow, so every write into an empty buffer fails
/// (except a 0-bit one). vector_write_stream writes into a std::vector that grows.
class write_stream : public detail::stream_state {
public:
    static constexpr bool is_writing = true;
    static constexpr bool is_reading = false;

    explicit write_stream(std::span<std::byte> buffer) noexcept : writer_(buffer) {}
    write_stream(void* data, std::size_t size) noexcept : writer_(data, size) {}

    /// Writes the low n bits of value (n in 0..64).
    [[nodiscard]] NETSER_INLINE bool process_bits(std::uint64_t value, int n) noexcept {
        if (writer_.write_bits(value, n)) [[likely]] return true;
        return fail(errc::overflow, bits_processed());
    }
    [[nodiscard]] bool align() noexcept { return process_bits(0, writer_.align_bits()); }
    int align_bits() const noexcept { return writer_.align_bits(); }
    /// Copies bytes verbatim; the stream must be aligned.
    [[nodiscard]] bool process_bytes(const std::byte* data, std::size_t n) noexcept {
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

    /// Where the stream is, and back there (the bits after it are dropped): for a writer
    /// that writes a value before it knows whether the value is needed. The room a
    /// dropped value took is not given back to a failure: check bits_remaining() first.
    bit_writer::position where() const noexcept { return writer_.where(); }
    void move_to(bit_writer::position p) noexcept { writer_.move_to(p); }

    /// One room check for many values: whether `bits` more bits fit; then a copy of the
    /// writer (which the compiler keeps in registers) writes them with write_bits_fitting,
    /// and resume takes its position back.
    [[nodiscard]] bool room_for(std::size_t bits) const noexcept { return bits <= writer_.bits_available(); }
    bit_writer fitting_writer() const noexcept { return writer_; }
    void resume(const bit_writer& w) noexcept { writer_ = w; }

protected:
    bit_writer writer_;

private:
    NETSER_COLD void fail_cold(errc code, std::size_t bit) noexcept {
        record(code, bit);
        writer_.poison();
    }
};

/// Writes values into a std::vector<std::byte> from its first byte (overwriting what it
/// held), growing it as needed: its capacity first, then by doubling (at least 64
/// bytes), up to max_bytes. finish() resizes it to the bytes written. A write that
/// would take it past max_bytes, or whose allocation fails, fails with overflow.
///
/// A type of its own rather than a write_stream constructor: a failure path that goes
/// on writing (after growing) made g++ stop keeping the writer in registers across
/// writes, which slowed every write; write_stream keeps its path as it was. It is not
/// a write_stream& either (private base): code that takes one would write without
/// growing. Template code on the stream concept takes either.
class vector_write_stream : private write_stream {
public:
    using write_stream::is_reading;
    using write_stream::is_writing;

    /// How large the vector may become unless told otherwise: 16 MiB.
    static constexpr std::size_t default_max_bytes = std::size_t{1} << 24;

    explicit vector_write_stream(std::vector<std::byte>& out, std::size_t max_bytes = default_max_bytes) noexcept
        : write_stream(start_in(out, max_bytes)), out_(&out), max_bytes_(cap(max_bytes)) {}

    // The stream state and the parts of write_stream that growing does not change.
    using write_stream::align_bits;
    using write_stream::bits_processed;
    using write_stream::bytes_processed;
    using write_stream::context;
    using write_stream::enter_nested;
    using write_stream::enter_user_code;
    using write_stream::in_user_code;
    using write_stream::error;
    using write_stream::fail;
    using write_stream::leave_nested;
    using write_stream::leave_user_code;
    using write_stream::fitting_writer;
    using write_stream::max_depth;
    using write_stream::move_to;
    using write_stream::ok;
    using write_stream::resume;
    using write_stream::set_context;
    using write_stream::set_max_depth;
    using write_stream::where;

    /// Writes the low n bits of value (n in 0..64), growing the vector if they do not fit.
    [[nodiscard]] NETSER_INLINE bool process_bits(std::uint64_t value, int n) noexcept {
        if (writer_.write_bits(value, n)) [[likely]] return true;
        // Growing returns the writer's position by value: stored here, after the call,
        // it need not be reloaded from memory on the path that did not grow.
        const bit_writer::position after = grow_and_write_bits(value, n);
        if (after.bits == failed) return false;
        writer_.move_to(after);
        return true;
    }
    [[nodiscard]] bool align() noexcept { return process_bits(0, writer_.align_bits()); }
    /// Copies bytes verbatim; the stream must be aligned.
    [[nodiscard]] bool process_bytes(const std::byte* data, std::size_t n) noexcept {
        if (writer_.write_bytes(data, n)) [[likely]] return true;
        return grow_and_write_bytes(data, n);
    }

    /// Whether `bits` more bits fit, growing the vector for them (up to max_bytes): then
    /// fitting_writer() writes them without a room check each, as write_stream's does.
    [[nodiscard]] bool room_for(std::size_t bits) noexcept {
        return bits <= writer_.bits_available() || (bits <= bits_remaining() && grow(writer_.bits_written() + bits));
    }

    /// Bits that can still be written: up to max_bytes, however large the vector is now
    /// (a caller that checks the room first must not refuse what growing lets through).
    /// 0 once the stream failed.
    std::size_t bits_remaining() const noexcept { return ok() ? max_bytes_ * 8 - writer_.bits_written() : 0; }

    /// Flushes the last partial word and resizes the vector to the bytes written; returns
    /// them. Writing may go on afterwards (the vector grows again).
    std::span<const std::byte> finish() noexcept {
        const std::size_t n = writer_.finish().size();
        out_->resize(n); // shrinks: never allocates
        writer_.rebind(out_->data(), n);
        return {out_->data(), n};
    }

private:
    // Capped so that max_bytes * 8 + 1 cannot overflow (as the bit_writer caps its size).
    static constexpr std::size_t cap(std::size_t max_bytes) noexcept {
        constexpr std::size_t largest = (SIZE_MAX - 128) / 8;
        return max_bytes < largest ? max_bytes : largest;
    }
    // The vector's capacity is room already paid for: it becomes its size.
    static std::span<std::byte> start_in(std::vector<std::byte>& out, std::size_t max_bytes) noexcept {
        const std::size_t room = out.capacity() < cap(max_bytes) ? out.capacity() : cap(max_bytes);
        if (out.size() < room) out.resize(room); // within the capacity: never allocates
        return {out.data(), room};
    }

    static constexpr std::size_t failed = SIZE_MAX; // a position no writer reaches

    // The writer's position after the write, or `failed`.
    NETSER_COLD bit_writer::position grow_and_write_bits(std::uint64_t value, int n) noexcept {
        if (static_cast<unsigned>(n) <= 64u && grow(writer_.bits_written() + static_cast<unsigned>(n)) &&
            writer_.write_bits(value, n))
            return writer_.where();
        fail(errc::overflow, bits_processed());
        return {failed, 0};
    }
    NETSER_COLD bool grow_and_write_bytes(const std::byte* data, std::size_t n) noexcept {
        if (writer_.align_bits() == 0 && n <= max_bytes_ && grow(writer_.bits_written() + n * 8) &&
            writer_.write_bytes(data, n))
            return true;
        return fail(errc::overflow, bits_processed());
    }
    // Room for `bits` bits in all. False for a stream that failed, past max_bytes_, or
    // when the allocation fails.
    bool grow(std::size_t bits) noexcept {
        if (!ok()) return false;
        const std::size_t needed = bits / 8 + (bits % 8 != 0);
        if (needed > max_bytes_) return false;
        const std::size_t had = writer_.capacity_bytes();
        std::size_t size = had < max_bytes_ / 2 ? had * 2 : max_bytes_;
        if (size < 64) size = 64 < max_bytes_ ? 64 : max_bytes_;
        if (size < needed) size = needed;
#if defined(__cpp_exceptions)
        try {
            out_->resize(size);
        } catch (...) {
            return false;
        }
#else
        out_->resize(size);
#endif
        writer_.rebind(out_->data(), size);
        return true;
    }

    std::vector<std::byte>* out_;
    std::size_t max_bytes_;
};

/// Reads values from a packet; every byte of it is treated as hostile.
class read_stream : public detail::stream_state {
public:
    static constexpr bool is_writing = false;
    static constexpr bool is_reading = true;

    /// What a read may allocate by default for a packet of `bytes` bytes: 1 MiB, plus
    /// 1 KiB per byte of the packet (saturating).
    static constexpr std::size_t default_max_allocation(std::size_t bytes) noexcept {
        constexpr std::size_t floor = std::size_t{1} << 20, per_byte = 1024;
        return bytes > (SIZE_MAX - floor) / per_byte ? SIZE_MAX : floor + per_byte * bytes;
    }

    explicit read_stream(std::span<const std::byte> packet) noexcept : reader_(packet) {}
    read_stream(const void* data, std::size_t size) noexcept : reader_(data, size) {}

    [[nodiscard]] NETSER_INLINE bool process_bits(std::uint64_t& value, int n) noexcept {
        if (reader_.read_bits(value, n)) [[likely]] return true;
        return fail(errc::overflow, bits_processed());
    }
    /// Skips to the next byte boundary; the padding must be zero.
    [[nodiscard]] bool align() noexcept {
        const std::size_t at = bits_processed();
        std::uint64_t padding = 0;
        if (!process_bits(padding, reader_.align_bits())) return false;
        if (padding != 0) [[unlikely]] return fail(errc::invalid_value, at);
        return true;
    }
    int align_bits() const noexcept { return reader_.align_bits(); }
    [[nodiscard]] bool process_bytes(std::byte* data, std::size_t n) noexcept {
        if (reader_.read_bytes(data, n)) [[likely]] return true;
        return fail(errc::overflow, bits_processed());
    }

    /// One check for many values: whether `bits` more bits are there; then a copy of the
    /// reader (which the compiler keeps in registers) reads them with read_bits_fitting,
    /// and resume takes its position back.
    [[nodiscard]] bool room_for(std::size_t bits) const noexcept { return bits <= reader_.bits_remaining(); }
    bit_reader fitting_reader() const noexcept { return reader_; }
    void resume(const bit_reader& r) noexcept { reader_ = r; }

    bool fail(errc code, std::size_t bit) noexcept {
        fail_cold(code, bit);
        return false;
    }

    std::size_t bits_processed() const noexcept { return reader_.bits_read(); }
    std::size_t bytes_processed() const noexcept { return reader_.bytes_read(); }
    /// Bits of the packet not yet read: a count must fit in these before anything is allocated.
    std::size_t bits_remaining() const noexcept { return reader_.bits_remaining(); }

    /// The allocation budget of this read, in bytes. What a read allocates for elements
    /// that take fewer bits than their bytes justify (detail::paid_bytes_per_bit) is
    /// charged before it is allocated (count x element size): elements of no bits (sparse
    /// slots, one-value ranges), large elements of few bits, owned objects of more than
    /// 128 bytes. A charge past the budget fails with too_large. The other elements are
    /// paid for by their bits: at most 1 KiB per byte of packet. So a read allocates at
    /// most max_allocation() + 1 KiB per packet byte, whatever the type (recursive types
    /// included). default_max_allocation(packet size) unless set.
    std::size_t max_allocation() const noexcept {
        return set_allocation_ == 0 ? default_max_allocation(reader_.size_bytes()) : set_allocation_ - 1;
    }
    void set_max_allocation(std::size_t bytes) noexcept { set_allocation_ = bytes == SIZE_MAX ? bytes : bytes + 1; }
    /// The bytes charged so far.
    std::size_t allocated() const noexcept { return charged_; }
    /// Charges `count` objects of `size` bytes: false, charging nothing, past the budget.
    [[nodiscard]] bool charge_allocation(std::size_t count, std::size_t size) noexcept {
        if (size != 0 && count > SIZE_MAX / size) [[unlikely]] return false; // a constant where size is
        const std::size_t bytes = count * size, max = max_allocation();
        if (bytes > (charged_ < max ? max - charged_ : 0)) [[unlikely]] return false;
        charged_ += bytes;
        return true;
    }

private:
    NETSER_COLD void fail_cold(errc code, std::size_t bit) noexcept {
        record(code, bit);
        reader_.poison();
    }

    bit_reader reader_;
    // Both zero for a new stream (nothing to compute per packet): the budget is then the
    // default for the packet's size; set_max_allocation stores budget + 1.
    std::size_t set_allocation_ = 0;
    std::size_t charged_ = 0;
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

    [[nodiscard]] NETSER_INLINE bool process_bits(std::uint64_t, int n) noexcept {
        if (!ok() || static_cast<unsigned>(n) > 64u) [[unlikely]] return fail(errc::overflow, bits_processed());
        bits_ += static_cast<unsigned>(n);
        return true;
    }
    [[nodiscard]] bool align() noexcept { return process_bits(0, align_bits()); }
    int align_bits() const noexcept { return static_cast<int>((8 - (start_ + bits_) % 8) % 8); }
    [[nodiscard]] bool process_bytes(const std::byte*, std::size_t n) noexcept {
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

/// Runs hand-written code f (a user type's serialize function, netser::named's function)
/// marked as such on the stream (stream_state::enter_user_code); f's result.
template <stream S, class F>
NETSER_INLINE bool call_user_code(S& s, F&& f) {
    if constexpr (requires { s.enter_user_code(); s.leave_user_code(); }) {
        s.enter_user_code();
        const bool ok = static_cast<bool>(f());
        s.leave_user_code();
        if (ok) [[likely]] return true;
        s.error().end_continued(); // whatever it went on with after a failure is over
        return false;
    } else {
        return static_cast<bool>(f());
    }
}

/// Whether a serialize on s was called from hand-written code (its root is provisional).
template <stream S>
bool in_user_code(const S& s) noexcept {
    if constexpr (requires { s.in_user_code(); }) return s.in_user_code();
    else return false;
}

/// How many bytes of elements a bit read may pay for: an element of at least b bits and
/// at most 128 b bytes is bounded by the packet's length (1 KiB per byte) and is not
/// charged to the allocation budget.
inline constexpr std::size_t paid_bytes_per_bit = 128;

/// Whether a stream's bits pay for the elements they hold (see charge_allocation).
template <class S>
constexpr bool bits_pay_for_elements() noexcept {
    if constexpr (requires { S::bits_pay_for_elements; }) return S::bits_pay_for_elements;
    else return true;
}

/// Charges a reader's allocation budget (read_stream::charge_allocation) for `count`
/// elements of `bytes` bytes that take at least `min_bits` bits each, before they are
/// allocated, unless their bits pay for them (paid_bytes_per_bit); past the budget, fails
/// with too_large at bit `at`. A stream without a budget (writers, measurers) pays nothing;
/// one whose bits pay for nothing (S::bits_pay_for_elements false: a range-coded stream,
/// where a byte can hold thousands of likely bits) is charged for every element.
template <stream S>
NETSER_INLINE bool charge_allocation(S& s, std::size_t count, std::size_t bytes, std::size_t min_bits,
                                     std::size_t at) noexcept {
    if constexpr (requires {
                      { s.charge_allocation(count, bytes) } -> std::same_as<bool>;
                  }) {
        if ((!bits_pay_for_elements<S>() || bytes > paid_bytes_per_bit * min_bits) && !s.charge_allocation(count, bytes)) [[unlikely]]
            return s.fail(errc::too_large, at);
    }
    return true;
}

} // namespace detail

} // namespace netser
