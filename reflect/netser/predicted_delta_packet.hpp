#pragma once

#include <netser/baseline_ring.hpp>
#include <netser/delta_packet.hpp>
#include <netser/detail/endian.hpp>
#include <netser/prediction.hpp>
#include <netser/range_stream.hpp>
#include <netser/sequence.hpp>

#include <boost/crc.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

// Predicted delta packets: a delta packet against up to three baselines the reader
// holds, named in the packet. The message is sent as an ordinary delta against the
// prediction (predicted_baseline: predict_linear members extrapolated from the two
// newest baselines, everything else as in the newest).
//
// Layout: [CRC32, 32 bits][sequence, 16][baselines named - 1, 2 bits][baseline, 16 each,
// newest first][fingerprint, 32][serialize_delta(msg, prediction)][end-of-packet check].
// The fingerprint is the CRC-32 of the named baselines' fingerprints, 4 little-endian
// bytes each, in the packet's order: a reader holding another value under any of the
// sequence numbers refuses the packet with baseline_mismatch before it decodes a
// member. Each baseline must be older than the one before it and the newest older than
// the packet (less than 32768 apart; the initial baseline, 0, is older than every
// snapshot and comes last): otherwise invalid_value at that sequence number. A packet is
// never numbered 0 (invalid_value at its sequence number).
// The CRC is over the protocol id of T XOR predicted_delta_packet_salt.

namespace netser {

/// Folded into the protocol id of predicted delta packets.
inline constexpr std::uint32_t predicted_delta_packet_salt = check_magic("netser predicted delta packet");
/// Folded in as well when the body is range-coded (packet_options::range).
inline constexpr std::uint32_t range_coded_packet_salt = check_magic("netser range-coded packet");

/// The most baselines one predicted delta packet names.
inline constexpr std::size_t max_predicted_baselines = 3;

/// A predicted delta packet's sequence number and the baselines it names, newest first.
struct predicted_delta_header {
    std::uint16_t sequence = 0;
    std::uint8_t count = 0; ///< baselines named: 1 to 3
    std::array<std::uint16_t, max_predicted_baselines> baselines{};
};

/// The most bytes a predicted delta packet of T can take (three baselines named).
template <class T>
constexpr std::size_t max_predicted_delta_packet_bytes() noexcept {
    return packet_overhead_bytes + (16 + 2 + 16 * max_predicted_baselines + 32 + max_delta_bits<T>() + 7) / 8;
}

namespace detail {

template <class T>
std::uint32_t predicted_protocol_id_of(const packet_options& options) noexcept {
    return protocol_id_of<T>(options) ^ predicted_delta_packet_salt ^
           (options.range != nullptr ? range_coded_packet_salt ^ options.range->fingerprint() : 0u);
}

// A range-coded packet: [CRC][header, bit-packed, zero bits to the byte][the range
// coder's bytes to the end]. Its end check is the coder's: the bytes end exactly where
// the encoder's flush for the values decoded ends (range_read_stream::ended_cleanly).
template <class Header, class Body>
packet_write_result write_range_framed(std::span<std::byte> buffer, std::uint32_t protocol_id,
                                       const packet_options& options, Header&& header, Body&& body) {
    write_stream w(buffer);
    w.set_context(options.context);
    std::uint32_t crc_placeholder = 0;
    if (!serialize_bits(w, crc_placeholder, 32) || !header(w) || !w.align()) return {{}, w.error()};
    const std::size_t header_bytes = w.finish().size();
    range_write_stream r(buffer.subspan(header_bytes), *options.range);
    r.set_context(options.context);
    // Errors at packet bits, as the reader reports them: the header's, then the body's.
    const auto failed = [&r, header_bytes] {
        netser::error e = r.error();
        e.bit += header_bytes * 8;
        return packet_write_result{{}, e};
    };
    if (!body(r)) return failed();
    const std::span<const std::byte> coded = r.finish();
    if (!r.ok()) return failed();
    const std::span<std::byte> bytes = buffer.first(header_bytes + coded.size());
    store_le32(bytes.data(), packet_crc(protocol_id, bytes.subspan(4)));
    return {bytes, {}};
}

// The packet's fingerprint of its baselines' fingerprints.
inline std::uint32_t combined_fingerprint(std::span<const std::uint32_t> fingerprints) noexcept {
    boost::crc_32_type crc;
    for (const std::uint32_t f : fingerprints) {
        unsigned char bytes[4];
        store_le32(bytes, f);
        crc.process_bytes(bytes, sizeof bytes);
    }
    return crc.checksum();
}

// The spacing of the header's baselines, or the index of the first sequence number out
// of order (0: the newest baseline against the packet). The initial baseline
// (initial_sequence) is older than every snapshot, so it may follow any number, and
// nothing may follow it.
inline bool spacing_of(const predicted_delta_header& h, prediction_spacing& out, std::size_t& bad) noexcept {
    std::uint16_t newer = h.sequence;
    std::uint32_t gaps[max_predicted_baselines] = {};
    for (std::size_t i = 0; i < h.count; ++i) {
        const std::uint16_t b = h.baselines[i];
        const bool after_initial = i > 0 && newer == initial_sequence;
        if (after_initial || (b != initial_sequence && !sequence_newer(newer, b))) {
            bad = i;
            return false;
        }
        gaps[i] = sequence_distance(newer, b);
        newer = b;
    }
    out = {gaps[0], gaps[1], gaps[2]};
    return true;
}

// Header bits before baseline i's sequence number.
constexpr std::size_t predicted_baseline_bit(std::size_t i) noexcept { return 16 + 2 + 16 * i; }

template <stream S>
bool serialize_predicted_header(S& s, predicted_delta_header& h, std::uint32_t& fingerprint) {
    std::uint32_t more = h.count - 1u;
    if (!serialize_bits(s, h.sequence, 16) || !serialize_bits(s, more, 2)) return false;
    if constexpr (S::is_reading) {
        if (more > max_predicted_baselines - 1) return s.fail(errc::out_of_range, s.bits_processed() - 2);
        h.count = static_cast<std::uint8_t>(more + 1);
    }
    for (std::size_t i = 0; i < h.count; ++i)
        if (!serialize_bits(s, h.baselines[i], 16)) return false;
    return serialize_bits(s, fingerprint, 32);
}

template <class T>
using entries_of = std::span<const baseline_entry<std::type_identity_t<T>>* const>;

// The ring entries a packet names (at most max_predicted_baselines, newest first), as
// writer and reader both use them: `missing` is the first null one (count: none).
template <class T>
struct named_baselines {
    std::uint32_t fingerprints[max_predicted_baselines] = {};
    const T* values[max_predicted_baselines] = {};
    std::size_t count = 0;
    std::size_t missing = 0;

    explicit named_baselines(entries_of<T> entries) noexcept : count(entries.size()), missing(entries.size()) {
        for (std::size_t i = 0; i < count; ++i) {
            if (entries[i] == nullptr) {
                missing = i;
                return;
            }
            fingerprints[i] = entries[i]->fingerprint;
            values[i] = &entries[i]->value;
        }
    }
    /// The packet's fingerprint of them.
    std::uint32_t fingerprint() const noexcept { return combined_fingerprint({fingerprints, count}); }
    /// The prediction from them.
    void predict(T& out, const prediction_spacing& spacing) const {
        predicted_baseline(out, spacing, *values[0], count > 1 ? values[1] : nullptr, count > 2 ? values[2] : nullptr);
    }
};

template <class Buffer, class T>
packet_write_result write_predicted(Buffer& buffer, std::uint16_t sequence, const T& msg, entries_of<T> baselines,
                                    T& scratch, const packet_options& options) {
    predicted_delta_header h;
    h.sequence = sequence;
    const auto fail = [&](std::size_t bit) {
        if constexpr (std::is_same_v<Buffer, std::vector<std::byte>>) buffer.clear();
        return packet_write_result{{}, failure_at(errc::invalid_value, 32 + bit)};
    };
    if (sequence == initial_sequence) return fail(0); // the initial baseline's number, never a snapshot's
    if (baselines.empty() || baselines.size() > max_predicted_baselines) return fail(16);
    h.count = static_cast<std::uint8_t>(baselines.size());
    const named_baselines<T> named(baselines);
    if (named.missing < named.count) return fail(predicted_baseline_bit(named.missing));
    for (std::size_t i = 0; i < h.count; ++i) h.baselines[i] = baselines[i]->sequence;
    prediction_spacing spacing;
    if (std::size_t bad = 0; !spacing_of(h, spacing, bad)) return fail(predicted_baseline_bit(bad));
    named.predict(scratch, spacing);
    std::uint32_t f = named.fingerprint();
    const auto payload = [&](auto& w) { return serialize_predicted_header(w, h, f) && serialize_delta(w, msg, scratch); };
    if (options.range != nullptr) {
        const auto header = [&](write_stream& w) { return serialize_predicted_header(w, h, f); };
        const auto body = [&](range_write_stream& r) { return serialize_delta(r, msg, scratch); };
        if constexpr (std::is_same_v<Buffer, std::vector<std::byte>>) {
            // A likely bit costs less than one, an unlikely one up to 15 (a prior sure of
            // the other value): start at the bit-packed bound, grow on overflow.
            const std::size_t bound = max_predicted_delta_packet_bytes<T>() + 16;
            for (std::size_t size = bound;; size *= 4) {
                buffer.resize(size);
                const packet_write_result r =
                    write_range_framed(buffer, predicted_protocol_id_of<T>(options), options, header, body);
                if (r.error.code != errc::overflow || size >= 16 * bound) {
                    buffer.resize(r.bytes.size());
                    return {std::span<const std::byte>(buffer), r.error};
                }
            }
        } else {
            return write_range_framed(buffer, predicted_protocol_id_of<T>(options), options, header, body);
        }
    }
    if constexpr (std::is_same_v<Buffer, std::vector<std::byte>>) {
        return write_framed(buffer, predicted_protocol_id_of<T>(options), options.context, payload);
    } else {
        write_stream w(buffer);
        return write_framed(w, predicted_protocol_id_of<T>(options), options.context, payload);
    }
}

} // namespace detail

/// Writes msg as a predicted delta packet against `baselines` (1 to 3 ring entries,
/// newest first, each older than the one before and the newest older than `sequence`).
/// The prediction is built into `scratch` (keep one per writer: it reuses its memory).
/// On failure `bytes` is empty and `error` says why: invalid_value at the header when
/// the baselines are out of order or not 1 to 3.
template <class T>
packet_write_result write_predicted_delta_packet(std::span<std::byte> buffer, std::uint16_t sequence, const T& msg,
                                                 detail::entries_of<T> baselines, T& scratch,
                                                 packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    return detail::write_predicted(buffer, sequence, msg, baselines, scratch, options);
}
/// The same into a vector that grows as needed (exactly the packet on success, nothing
/// on failure).
template <class T>
packet_write_result write_predicted_delta_packet(std::vector<std::byte>& out, std::uint16_t sequence, const T& msg,
                                                 detail::entries_of<T> baselines, T& scratch,
                                                 packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    return detail::write_predicted(out, sequence, msg, baselines, scratch, options);
}

/// Reads a predicted delta packet in stages, as delta_packet_reader does: the
/// constructor checks the CRC and reads the header; read() takes the baselines the
/// header names (ring entries, nullptr for one the reader lacks: missing_baseline, msg
/// untouched), checks their fingerprints (baseline_mismatch, msg untouched), predicts,
/// decodes the delta and checks the end of the packet.
template <class T>
class predicted_delta_packet_reader {
public:
    explicit predicted_delta_packet_reader(std::span<const std::byte> packet, packet_options options = {}) noexcept
        : packet_(packet), stream_(packet), range_(options.range), context_(options.context),
          max_allocation_(options.max_allocation) {
        if (!detail::open_framed(stream_, packet, detail::predicted_protocol_id_of<T>(options), options) ||
            !detail::serialize_predicted_header(stream_, header_, fingerprint_))
            return;
        if (range_ != nullptr && !stream_.align()) return; // a range-coded body starts at a byte
        std::size_t bad = 0;
        if (header_.sequence == initial_sequence) stream_.fail(errc::invalid_value, 32);
        else if (!detail::spacing_of(header_, spacing_, bad))
            stream_.fail(errc::invalid_value, 32 + detail::predicted_baseline_bit(bad));
    }

    const netser::error& error() const noexcept { return stream_.error(); }
    const predicted_delta_header& header() const noexcept { return header_; }

    /// Decodes msg against the baselines (header().count entries, in the header's
    /// order); `scratch` receives the prediction.
    netser::error read(T& msg, detail::entries_of<T> baselines, T& scratch) {
        if (stream_.error() || read_) {
            if (!stream_.error()) stream_.fail(errc::invalid_value, stream_.bits_processed()); // read twice
            return stream_.error();
        }
        read_ = true;
        if (baselines.size() != header_.count) return fail(errc::invalid_value, stream_.bits_processed());
        const detail::named_baselines<T> named(baselines);
        if (named.missing < named.count) return fail(errc::missing_baseline, stream_.bits_processed());
        // The fingerprint field's first bit: where the packet and the baselines disagree.
        if (named.fingerprint() != fingerprint_)
            return fail(errc::baseline_mismatch, 32 + detail::predicted_baseline_bit(header_.count));
        named.predict(scratch, spacing_);
        if (range_ != nullptr) return read_range_coded(msg, scratch);
        if (!serialize_delta(stream_, msg, scratch)) return stream_.error();
        return detail::close_framed(stream_, packet_);
    }

private:
    netser::error fail(errc code, std::size_t bit) {
        stream_.fail(code, bit);
        return stream_.error();
    }

    // The body's errors are reported at packet bits: the header's, then the body's
    // logical bits (those of the bit-packed body).
    netser::error read_range_coded(T& msg, const T& prediction) {
        const std::size_t header_bits = stream_.bits_processed();
        range_read_stream r(packet_.subspan(header_bits / 8), *range_);
        r.set_context(context_);
        if (max_allocation_) r.set_max_allocation(*max_allocation_);
        bool ok = serialize_delta(r, msg, prediction);
        if (ok && !r.ended_cleanly()) ok = r.fail(errc::check_failed, r.bits_processed());
        if (ok) return {};
        stream_.error() = r.error(); // error() tells it too
        stream_.error().bit += header_bits;
        return stream_.error();
    }

    std::span<const std::byte> packet_;
    read_stream stream_;
    const range_prior* range_ = nullptr;
    void* context_ = nullptr;
    std::optional<std::size_t> max_allocation_;
    predicted_delta_header header_;
    std::uint32_t fingerprint_ = 0;
    prediction_spacing spacing_;
    bool read_ = false;
};

/// All the stages against a baseline_ring: the baselines are ring.find of the header's
/// sequence numbers. The header is stored in *header when given.
template <class T>
error read_predicted_delta_packet(std::span<const std::byte> packet, T& msg, const baseline_ring<T>& ring, T& scratch,
                                  predicted_delta_header* header = nullptr, packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    predicted_delta_packet_reader<T> reader(packet, options);
    if (reader.error()) return reader.error();
    if (header != nullptr) *header = reader.header();
    const baseline_entry<T>* found[max_predicted_baselines] = {};
    for (std::size_t i = 0; i < reader.header().count; ++i) found[i] = ring.find(reader.header().baselines[i]);
    return reader.read(msg, {found, reader.header().count}, scratch);
}

} // namespace netser
