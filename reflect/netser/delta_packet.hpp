#pragma once

#include <netser/check.hpp>
#include <netser/delta.hpp>
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
// Layout: [CRC32, 32 bits][sequence, 16][baseline, 16][serialize_delta(msg, baseline)]
// [end-of-packet check: align, then end_of_packet_value of the payload's bits], the
// payload being the two sequence numbers and the delta. The CRC is the packet's, over
// the delta protocol id: the protocol id of T's packets (packet_options, or
// schema_hash<T>()) XOR delta_packet_salt, so a plain packet of T is never taken for a
// delta packet, nor the other way round.

namespace netser {

/// Folded into the protocol id of delta packets: check_magic("netser delta packet").
inline constexpr std::uint32_t delta_packet_salt = check_magic("netser delta packet");

/// Bits of a delta packet's header: the two sequence numbers.
inline constexpr std::size_t delta_header_bits = 32;

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
auto delta_payload(delta_header header, const T& msg, const T& baseline) {
    return [=, &msg, &baseline](auto& w) {
        return serialize_bits(w, header.sequence, 16) && serialize_bits(w, header.baseline, 16) &&
               serialize_delta(w, msg, baseline);
    };
}

} // namespace detail

/// Writes msg against baseline as a delta packet at the start of buffer. On failure
/// `bytes` is empty and `error` says why (overflow when the buffer is too small).
template <class T>
packet_write_result write_delta_packet(std::span<std::byte> buffer, delta_header header, const T& msg,
                                       const T& baseline, packet_options options = {}) {
    write_stream w(buffer);
    return detail::write_framed(w, detail::delta_protocol_id_of<T>(options), options.context,
                                detail::delta_payload(header, msg, baseline));
}

/// The same into a vector that grows as needed (it holds exactly the packet on success,
/// nothing on failure).
template <class T>
packet_write_result write_delta_packet(std::vector<std::byte>& out, delta_header header, const T& msg,
                                       const T& baseline, packet_options options = {}) {
    return detail::write_framed(out, detail::delta_protocol_id_of<T>(options), options.context,
                                detail::delta_payload(header, msg, baseline));
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
            serialize_bits(stream_, header_.sequence, 16) && serialize_bits(stream_, header_.baseline, 16);
    }
    delta_packet_reader(const void* data, std::size_t size, packet_options options = {}) noexcept
        : delta_packet_reader(std::span<const std::byte>(static_cast<const std::byte*>(data), size), options) {}

    /// The first failure so far (none: the CRC matched and the header was read).
    const netser::error& error() const noexcept { return stream_.error(); }
    /// The packet's sequence number and its baseline's (when error() is none).
    delta_header header() const noexcept { return header_; }

    /// Decodes msg against baseline, the snapshot the header names (nullptr when the
    /// reader does not have it: missing_baseline, and msg is left untouched), then the
    /// end check and the trailing bytes. On another failure msg may be partly written.
    netser::error read(T& msg, const T* baseline) {
        if (stream_.error() || read_) {
            if (!stream_.error()) stream_.fail(errc::invalid_value, stream_.bits_processed()); // read twice
            return stream_.error();
        }
        read_ = true;
        if (baseline == nullptr) {
            stream_.fail(errc::missing_baseline, stream_.bits_processed());
            return stream_.error();
        }
        if (!serialize_delta(stream_, msg, *baseline)) return stream_.error();
        return detail::close_framed(stream_, packet_);
    }

private:
    std::span<const std::byte> packet_;
    read_stream stream_;
    delta_header header_;
    bool read_ = false;
};

/// All the stages at once: baseline_of(header.baseline) gives the baseline (a const T*,
/// nullptr when the reader no longer has it: missing_baseline, msg untouched). The
/// header is stored in *header when given, as soon as it is read.
template <class T, class Lookup>
    requires std::is_convertible_v<std::invoke_result_t<Lookup&, std::uint16_t>, const T*>
error read_delta_packet(std::span<const std::byte> packet, T& msg, Lookup&& baseline_of,
                        delta_header* header = nullptr, packet_options options = {}) {
    delta_packet_reader<T> reader(packet, options);
    if (reader.error()) return reader.error();
    if (header != nullptr) *header = reader.header();
    const T* baseline = baseline_of(reader.header().baseline);
    return reader.read(msg, baseline);
}

} // namespace netser
