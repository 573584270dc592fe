#pragma once

#include <netser/baseline_ring.hpp>
#include <netser/check.hpp>
#include <netser/delta.hpp>
#include <netser/fingerprint.hpp>
#include <netser/packet.hpp>
#include <netser/primitives.hpp>
#include <netser/stream.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

// Delta packets: a message sent against a baseline the reader holds, in a packet that
// names both by sequence number, so a reader can look the baseline up before it decodes
// a single member, and refuse the packet untouched when it no longer has it.
//
// Layout: [CRC32, 32 bits][sequence, 16][baseline, 16][baseline fingerprint, 32]
// [serialize_delta(msg, baseline)][end-of-packet check: align, then end_of_packet_value
// of the payload's bits], the payload being the header and the delta. A reader whose
// baseline under that sequence number has another fingerprint refuses the packet with
// baseline_mismatch before it decodes a member. The CRC is the packet's, over
// the delta protocol id: the protocol id of T's packets (packet_options, or
// schema_hash<T>()) XOR delta_packet_salt, so a plain packet of T is never taken for a
// delta packet, nor the other way round.

namespace netser {

/// Folded into the protocol id of delta packets: check_magic("netser delta packet").
inline constexpr std::uint32_t delta_packet_salt = check_magic("netser delta packet");

/// Bits of a delta packet's header: the two sequence numbers and the baseline fingerprint.
inline constexpr std::size_t delta_header_bits = 64;

/// A delta packet's sequence number and the sequence number of its baseline (both
/// modulo 2^16: a reader keeps far fewer snapshots than that).
struct delta_header {
    std::uint16_t sequence = 0;
    std::uint16_t baseline = 0;
};

/// The most bytes a delta packet of T can take: the CRC, the header, max_delta_bytes<T>()
/// and the end check.
template <class T>
constexpr std::size_t max_delta_packet_bytes() noexcept {
    return packet_overhead_bytes + delta_header_bits / 8 + max_delta_bytes<T>();
}

namespace detail {

template <class T>
std::uint32_t delta_protocol_id_of(const packet_options& options) noexcept {
    return protocol_id_of<T>(options) ^ delta_packet_salt;
}

// What a delta packet carries between its CRC and its end check.
template <class T>
auto delta_payload(delta_header header, std::uint32_t fingerprint, const T& msg, const T& baseline) {
    return [=, &msg, &baseline](auto& w) {
        std::uint32_t f = fingerprint;
        return serialize_bits(w, header.sequence, 16) && serialize_bits(w, header.baseline, 16) &&
               serialize_bits(w, f, 32) && serialize_delta(w, msg, baseline);
    };
}

// The fingerprint of a baseline given by value: a baseline without a plain encoding is
// no value a reader can hold (invalid_value).
// A failure of a whole write: its code and bit, no member path.
inline error failure_at(errc code, std::size_t bit) noexcept {
    error e;
    e.code = code;
    e.bit = bit;
    return e;
}

template <class T>
bool fingerprint_or_fail(const T& baseline, std::uint32_t& out, error& failure) {
    const auto f = baseline_fingerprint(baseline);
    if (!f) {
        failure = failure_at(errc::invalid_value, 0); // at the header's first bit
        return false;
    }
    out = *f;
    return true;
}

template <class Buffer, class T>
packet_write_result write_delta(Buffer& buffer, delta_header header, std::uint32_t fingerprint, const T& msg,
                                const T& baseline, const packet_options& options) {
    if constexpr (std::is_same_v<Buffer, std::vector<std::byte>>) {
        return write_framed(buffer, delta_protocol_id_of<T>(options), options.context,
                            delta_payload(header, fingerprint, msg, baseline));
    } else {
        write_stream w(buffer);
        return write_framed(w, delta_protocol_id_of<T>(options), options.context,
                            delta_payload(header, fingerprint, msg, baseline));
    }
}

} // namespace detail

/// Writes msg against baseline as a delta packet at the start of buffer, with the
/// baseline's fingerprint (taken here: a plain write of the baseline). On failure
/// `bytes` is empty and `error` says why (overflow when the buffer is too small).
template <class T>
packet_write_result write_delta_packet(std::span<std::byte> buffer, delta_header header, const T& msg,
                                       const T& baseline, packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    std::uint32_t f = 0;
    if (error e; !detail::fingerprint_or_fail(baseline, f, e)) return {{}, e};
    return detail::write_delta(buffer, header, f, msg, baseline, options);
}

/// The same into a vector that grows as needed (it holds exactly the packet on success,
/// nothing on failure).
template <class T>
packet_write_result write_delta_packet(std::vector<std::byte>& out, delta_header header, const T& msg,
                                       const T& baseline, packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    std::uint32_t f = 0;
    if (error e; !detail::fingerprint_or_fail(baseline, f, e)) {
        out.clear();
        return {{}, e};
    }
    return detail::write_delta(out, header, f, msg, baseline, options);
}

/// Against a baseline from a baseline_ring: its sequence number is the header's
/// baseline, and its fingerprint was taken when it was stored.
template <class T>
packet_write_result write_delta_packet(std::span<std::byte> buffer, std::uint16_t sequence, const T& msg,
                                       const baseline_entry<T>& baseline, packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    return detail::write_delta(buffer, {sequence, baseline.sequence}, baseline.fingerprint, msg, baseline.value,
                               options);
}
template <class T>
packet_write_result write_delta_packet(std::vector<std::byte>& out, std::uint16_t sequence, const T& msg,
                                       const baseline_entry<T>& baseline, packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    return detail::write_delta(out, {sequence, baseline.sequence}, baseline.fingerprint, msg, baseline.value,
                               options);
}

/// Reads a delta packet in stages. The constructor checks the CRC (bad_crc: nothing is
/// decoded) and reads the header; the caller then looks up the baseline the header
/// names, and read() decodes the delta against it, checks the end of the packet and
/// that no byte trails it.
template <class T>
class delta_packet_reader {
public:
    delta_packet_reader(std::span<const std::byte> packet, packet_options options = {}) noexcept
        : packet_(packet), stream_(packet) {
        // A failure is kept in the stream: error() tells.
        [[maybe_unused]] const bool opened =
            detail::open_framed(stream_, packet, detail::delta_protocol_id_of<T>(options), options) &&
            serialize_bits(stream_, header_.sequence, 16) && serialize_bits(stream_, header_.baseline, 16) &&
            serialize_bits(stream_, fingerprint_, 32);
    }
    delta_packet_reader(const void* data, std::size_t size, packet_options options = {}) noexcept
        : delta_packet_reader(std::span<const std::byte>(static_cast<const std::byte*>(data), size), options) {}

    /// The first failure so far (none: the CRC matched and the header was read).
    const netser::error& error() const noexcept { return stream_.error(); }
    /// The packet's sequence number and its baseline's (when error() is none).
    delta_header header() const noexcept { return header_; }
    /// The fingerprint of the baseline the packet was written against.
    std::uint32_t baseline_fingerprint() const noexcept { return fingerprint_; }

    /// Decodes msg against baseline, the snapshot the header names (nullptr when the
    /// reader does not have it: missing_baseline, and msg is left untouched), then the
    /// end check and the trailing bytes. A baseline whose fingerprint (taken here) is
    /// not the packet's fails with baseline_mismatch, msg untouched. On another failure
    /// msg may be partly written.
    netser::error read(T& msg, const T* baseline) {
        if (!begin_read(baseline != nullptr)) return stream_.error();
        const auto f = netser::baseline_fingerprint(*baseline);
        return finish_read(msg, *baseline, f.has_value() && *f == fingerprint_);
    }
    /// The same against an entry of a baseline_ring (its stored fingerprint: no
    /// fingerprint is taken per packet).
    netser::error read(T& msg, const baseline_entry<T>* baseline) {
        if (!begin_read(baseline != nullptr)) return stream_.error();
        return finish_read(msg, baseline->value, baseline->fingerprint == fingerprint_);
    }
    /// No baseline: missing_baseline, msg untouched.
    netser::error read(T&, std::nullptr_t) {
        begin_read(false);
        return stream_.error();
    }

private:
    bool begin_read(bool have_baseline) {
        if (stream_.error() || read_) {
            if (!stream_.error()) stream_.fail(errc::invalid_value, stream_.bits_processed()); // read twice
            return false;
        }
        read_ = true;
        if (!have_baseline) return stream_.fail(errc::missing_baseline, stream_.bits_processed());
        return true;
    }
    netser::error finish_read(T& msg, const T& baseline, bool same_baseline) {
        // The fingerprint field's first bit: where the packet and the baseline disagree.
        if (!same_baseline) stream_.fail(errc::baseline_mismatch, 64);
        else if (serialize_delta(stream_, msg, baseline)) return detail::close_framed(stream_, packet_);
        return stream_.error();
    }

private:
    std::span<const std::byte> packet_;
    read_stream stream_;
    delta_header header_;
    std::uint32_t fingerprint_ = 0;
    bool read_ = false;
};

/// All the stages at once: baseline_of(header.baseline) gives the baseline (a const T*
/// or a const baseline_entry<T>*, as a baseline_ring's find does; nullptr when the
/// reader no longer has it: missing_baseline, msg untouched). The header is stored in
/// *header when given, as soon as it is read.
template <class T, class Lookup>
    requires std::is_convertible_v<std::invoke_result_t<Lookup&, std::uint16_t>, const T*> ||
             std::is_convertible_v<std::invoke_result_t<Lookup&, std::uint16_t>, const baseline_entry<T>*>
error read_delta_packet(std::span<const std::byte> packet, T& msg, Lookup&& baseline_of,
                        delta_header* header = nullptr, packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    delta_packet_reader<T> reader(packet, options);
    if (reader.error()) return reader.error();
    if (header != nullptr) *header = reader.header();
    return reader.read(msg, baseline_of(reader.header().baseline));
}

/// read_delta_packet against a baseline_ring: the baseline is ring.find(header.baseline).
template <class T>
error read_delta_packet(std::span<const std::byte> packet, T& msg, const baseline_ring<T>& ring,
                        delta_header* header = nullptr, packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    return read_delta_packet(
        packet, msg, [&](std::uint16_t s) { return ring.find(s); }, header, options);
}

} // namespace netser
