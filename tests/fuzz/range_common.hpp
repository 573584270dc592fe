#pragma once

// What reads of range-coded bytes share (read_fuzz and delta_fuzz in their range modes,
// make_seeds, tests/hostile/range_test.cpp): the priors a read runs with (the library's
// default, one trained on the generator's values of the type, and the most confident one
// there is), a range reader that logs the logical bits it decodes, and the promises a range
// read of hostile bytes keeps:
// - a failure says why (check_read_error), at a logical bit within the reader's limit
//   (detail::range_logical_bit_limit), within its allocation budget;
// - a success: values inside the declared ranges; a value that writes bit-packed; exactly
//   what a bit-packed read of the logical bits the range reader decoded gives (the range
//   reader is the bit-packed reader over other bytes); range-coded again and read back,
//   exactly the value (or, for a value decoded from bits that are not its own encoding,
//   such as a rotation from codes that are no fixed point, a value that writes the same
//   bits); and when the decoded bits are the value's own, the bytes end cleanly exactly
//   when they are the encoder's for it (the encoder's packet for given bits is unique).
//
// A target's selector byte picks the type (selector % types) and the coding
// ((selector / types) % 4): bit-packed, range-coded with the default, the trained or the
// confident prior. Selectors below the type count (every seed before the range modes)
// stay bit-packed.

#include "fuzz_common.hpp"

#include <netser/range_stream.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace netser_fuzz {

enum class coding : std::uint8_t { bit_packed = 0, range_default = 1, range_trained = 2, range_confident = 3 };
inline constexpr std::size_t coding_count = 4;

constexpr coding coding_of(std::uint8_t selector, std::size_t types) noexcept {
    return static_cast<coding>(selector / types % coding_count);
}
constexpr std::uint8_t selector_of(std::size_t index, coding c, std::size_t types) noexcept {
    return static_cast<std::uint8_t>(index + types * static_cast<std::size_t>(c));
}

/// serialize, or serialize_delta against a baseline: what a read and a write run.
template <class T>
struct plain_codec {
    template <class S>
    bool read(S& s, T& v) const {
        return netser::serialize(s, v);
    }
    template <class S>
    bool write(S& s, const T& v) const {
        return netser::serialize(s, v);
    }
};
template <class T>
struct delta_codec {
    const T* base = nullptr;
    template <class S>
    bool read(S& s, T& v) const {
        return netser::serialize_delta(s, v, *base);
    }
    template <class S>
    bool write(S& s, const T& v) const {
        return netser::serialize_delta(s, v, *base);
    }
};

/// Bits and their bytes, bit-packed.
struct coded_bits {
    std::vector<std::byte> bytes;
    std::size_t bits = 0;
    friend bool operator==(const coded_bits&, const coded_bits&) = default;
};

/// What a bit-packed writer holds, its bits and their bytes (the writer is finished).
template <class W>
coded_bits finished_bits(W& w) {
    coded_bits c;
    c.bits = w.bits_processed();
    const auto b = w.finish();
    c.bytes.assign(b.begin(), b.end());
    return c;
}

/// The bit-packed encoding (a vector that grows); nothing when the value does not write.
template <class T, class Codec>
std::optional<coded_bits> bit_packed_of(const T& v, const Codec& codec) {
    std::vector<std::byte> out;
    netser::vector_write_stream w(out);
    if (!codec.write(w, v)) return std::nullopt;
    return finished_bits(w);
}

/// The range-coded encoding with `prior`: into 16 bits a logical bit (a model's p0 is at
/// least 1 / 32768, so a bit costs at most 15); nothing when the value does not write.
template <class T, class Codec>
std::optional<std::vector<std::byte>> range_coded_of(const T& v, const Codec& codec, const netser::range_prior& prior,
                                                     std::size_t logical_bits) {
    std::vector<std::byte> buffer(2 * logical_bits + 64);
    netser::range_write_stream w(buffer, prior);
    if (!codec.write(w, v)) return std::nullopt;
    const auto b = w.finish();
    if (!w.ok()) return std::nullopt;
    return std::vector<std::byte>(b.begin(), b.end());
}

/// A range writer that also writes every call it codes, bit-packed, into a vector: the
/// logical bits of what it codes (a range writer may name a container's changed elements
/// by bits where a bit-packed writer lists them, so not always bit_packed_of's).
class logging_range_writer : public netser::range_write_stream {
public:
    logging_range_writer(std::span<std::byte> buffer, const netser::range_prior& prior, std::vector<std::byte>& log)
        : range_write_stream(buffer, prior), log_(log) {}

    [[nodiscard]] bool process_bits(std::uint64_t value, int n) noexcept {
        return range_write_stream::process_bits(value, n) && log_.process_bits(value, n);
    }
    [[nodiscard]] bool process_bytes(const std::byte* data, std::size_t n) noexcept {
        for (std::size_t i = 0; i < n; ++i)
            if (!process_bits(std::to_integer<std::uint64_t>(data[i]), 8)) return false;
        return true;
    }
    [[nodiscard]] bool align() noexcept { return log_.align() && range_write_stream::align(); }
    coded_bits logical() { return finished_bits(log_); }

private:
    netser::vector_write_stream log_;
};

/// The logical bits a range writer codes for v; nothing when the value does not write.
template <class T, class Codec>
std::optional<coded_bits> range_logical_of(const T& v, const Codec& codec, const netser::range_prior& prior,
                                           std::size_t logical_bits) {
    std::vector<std::byte> buffer(2 * logical_bits + 64), log;
    logging_range_writer w(buffer, prior, log);
    if (!codec.write(w, v)) return std::nullopt;
    (void)w.finish();
    if (!w.ok()) return std::nullopt;
    return w.logical();
}

/// A range reader that writes every call it decodes, bit-packed, into a log of the
/// caller's: the logical bits (the bit-packed stream it stands for). The walk's hooks are
/// range_read_stream's.
class logging_range_reader : public netser::range_read_stream {
public:
    logging_range_reader(std::span<const std::byte> packet, const netser::range_prior& prior, std::span<std::byte> log)
        : range_read_stream(packet, prior), log_(log) {}

    [[nodiscard]] bool process_bits(std::uint64_t& value, int n) noexcept {
        if (!range_read_stream::process_bits(value, n)) return false;
        logged_ = log_.process_bits(value, n) && logged_;
        return true;
    }
    [[nodiscard]] bool process_bytes(std::byte* data, std::size_t n) noexcept {
        for (std::size_t i = 0; i < n; ++i) {
            std::uint64_t b = 0;
            if (!process_bits(b, 8)) return false;
            data[i] = static_cast<std::byte>(b);
        }
        return true;
    }
    [[nodiscard]] bool align() noexcept {
        logged_ = log_.align() && logged_;
        return range_read_stream::align();
    }
    /// The logical bits, when the log held them all.
    std::optional<coded_bits> logical() noexcept {
        if (!logged_) return std::nullopt;
        return finished_bits(log_);
    }

private:
    netser::write_stream log_;
    bool logged_ = true;
};

/// A log's buffer, taken once (1 MiB: every logical bit a fuzz type's read can take).
inline std::span<std::byte> range_log_buffer() {
    static std::vector<std::byte> log(std::size_t{1} << 20);
    return log;
}

/// Every slot's every model at p0 = 32767, count 31: what trained_prior_entries gives a
/// model that saw only zeros, more than 32,767 of them. A zero costs 2^-15 / ln 2 bits (more
/// where the range is short): the most logical bits a byte can hold.
inline const netser::range_prior& confident_prior() {
    static const std::vector<netser::range_prior_entry> entries = [] {
        std::vector<netser::range_prior_entry> e(netser::range_context_slots);
        for (std::size_t s = 0; s < e.size(); ++s) {
            e[s].slot = static_cast<std::uint16_t>(s);
            e[s].models.fill(netser::bit_probability::from(32767, 31).raw());
        }
        return e;
    }();
    static const netser::range_prior prior(entries);
    return prior;
}

/// A prior trained (trained_prior_entries) on `values` written with `codec`.
struct trained_prior {
    std::vector<netser::range_prior_entry> entries;
    netser::range_prior prior;
};
template <class T, class Codec>
trained_prior train_prior(std::span<const T> values, const Codec& codec, std::string_view type) {
    netser::range_statistics stats;
    for (const T& v : values) {
        const auto plain = bit_packed_of(v, codec);
        if (!plain) finding("a training value does not write", type);
        std::vector<std::byte> buffer(2 * plain->bits + 64);
        netser::range_write_stream w(buffer);
        w.set_statistics(&stats);
        if (!codec.write(w, v) || w.finish().empty()) finding("a training value does not range-code", type, &w.error());
    }
    trained_prior out;
    out.entries = netser::trained_prior_entries(stats);
    out.prior = netser::range_prior(out.entries);
    return out;
}

/// The trained priors of the targets, made once: for plain reads, the generator's values
/// of 64 seeds (small and full-size); for delta reads, the small values of 32 seeds each
/// against the small value of another seed (the seeds' own baselines).
template <class T>
const netser::range_prior& trained_plain_prior() {
    static const trained_prior p = [] {
        std::vector<T> values;
        for (std::uint64_t s = 0; s < 64; ++s) {
            T v{};
            if (received(make_value<T>(1000 + s, s % 2 == 0 ? size_mode::small : size_mode::full), v))
                values.push_back(std::move(v));
        }
        return train_prior<T>(values, plain_codec<T>{}, "trained prior");
    }();
    return p.prior;
}
template <class T>
const netser::range_prior& trained_delta_prior() {
    static const trained_prior p = [] {
        netser::range_statistics stats;
        std::vector<std::byte> buffer;
        for (std::uint64_t s = 0; s < 32; ++s) {
            T base{}, v{};
            if (!received(make_value<T>(s, size_mode::small), base) || !received(make_value<T>(s + 50, size_mode::small), v))
                continue;
            const delta_codec<T> codec{&base};
            const auto plain = bit_packed_of(v, codec);
            if (!plain) continue;
            buffer.assign(2 * plain->bits + 64, std::byte{0});
            netser::range_write_stream w(buffer);
            w.set_statistics(&stats);
            if (!codec.write(w, v) || w.finish().empty()) finding("a training delta does not range-code", "trained prior", &w.error());
        }
        trained_prior out;
        out.entries = netser::trained_prior_entries(stats);
        out.prior = netser::range_prior(out.entries);
        return out;
    }();
    return p.prior;
}

/// The prior of a range coding (plain or delta reads of T).
template <class T>
const netser::range_prior& prior_for(coding c, bool delta) {
    switch (c) {
    case coding::range_trained: return delta ? trained_delta_prior<T>() : trained_plain_prior<T>();
    case coding::range_confident: return confident_prior();
    default: return netser::default_range_prior();
    }
}

/// How a range read ended.
struct range_outcome {
    netser::error error;
    std::size_t bits = 0; ///< logical bits
    bool clean = false;
    std::size_t charged = 0, budget = 0;
    std::optional<coded_bits> logical;
};

/// A range read of `bytes` into `value` with the logging reader.
template <class T, class Codec>
range_outcome range_read_logged(std::span<const std::byte> bytes, const netser::range_prior& prior, const Codec& codec,
                                T& value) {
    logging_range_reader r(bytes, prior, range_log_buffer());
    range_outcome out;
    (void)codec.read(r, value); // r.error() says how it went
    out.error = r.error();
    out.bits = r.bits_processed();
    out.clean = r.ended_cleanly();
    out.charged = r.allocated();
    out.budget = r.max_allocation();
    out.logical = r.logical();
    return out;
}

/// The promises of a range read of hostile `bytes` that gave `value` (see the header); a
/// broken one is a finding (`fail(what, error)`).
template <class T, class Codec, class Fail>
void check_range_outcome(const range_outcome& r, const T& value, std::span<const std::byte> bytes,
                         const netser::range_prior& prior, const Codec& codec, std::string_view type, Fail&& fail) {
    const std::size_t limit = netser::detail::range_logical_bit_limit(bytes.size());
    if (r.charged > r.budget) fail("a range read was charged past its allocation budget", &r.error);
    if (r.bits > limit) fail("a range read decoded more logical bits than its limit", &r.error);
    if (r.error) {
        check_read_error(r.error, limit, type);
        return;
    }
    check_read_value(value, r.bits, limit, type);
    const auto plain = bit_packed_of(value, codec);
    if (!plain) fail("a value a range read decoded does not write bit-packed", nullptr);
    if (r.logical) {
        if (r.logical->bits != r.bits) fail("a range read logged other logical bits than it counts", nullptr);
        const exact_bytes logged(r.logical->bytes);
        netser::read_stream b(logged.span());
        b.set_max_allocation(SIZE_MAX);
        T again{};
        if (!codec.read(b, again)) fail("a bit-packed read of a range read's logical bits fails", &b.error());
        if (b.bits_processed() != r.bits) fail("a bit-packed read of a range read's logical bits reads other bits", nullptr);
        if (bits_of(again) != bits_of(value))
            fail("a bit-packed read of a range read's logical bits gives another value than the range read", nullptr);
    }
    const auto again = range_coded_of(value, codec, prior, plain->bits);
    const auto coded_logical = range_logical_of(value, codec, prior, plain->bits);
    if (!again || !coded_logical) fail("a value a range read decoded does not range-code", nullptr);
    const exact_bytes coded(*again);
    netser::range_read_stream rr(coded.span(), prior);
    rr.set_max_allocation(SIZE_MAX);
    T back{};
    if (!codec.read(rr, back)) fail("a range-coded value does not read back", &rr.error());
    if (!rr.ended_cleanly()) fail("a range-coded value does not end cleanly", nullptr);
    if (rr.bits_processed() != coded_logical->bits) fail("a range-coded value reads back other logical bits", nullptr);
    if (bit_packed_of(back, codec) != plain) fail("a range-coded value reads back to a value that writes other bits", nullptr);
    if (r.logical && *r.logical == *coded_logical) { // the decoded bits are the value's own
        if (bits_of(back) != bits_of(value)) fail("a range-coded value does not read back exactly", nullptr);
        const bool encoder_bytes = std::equal(again->begin(), again->end(), bytes.begin(), bytes.end());
        if (r.clean != encoder_bytes)
            fail(r.clean ? "range-coded bytes end cleanly but are not the encoder's for the bits they decode to"
                         : "the encoder's bytes for the bits decoded do not end cleanly",
                 nullptr);
    }
}

} // namespace netser_fuzz
