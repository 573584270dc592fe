#pragma once

#include <netser/primitives.hpp>
#include <netser/reflect.hpp>
#include <netser/schema_hash.hpp>
#include <netser/stream.hpp>

#include <boost/crc.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

// Whole packets for an unconnected UDP port: anything from anyone arrives, so a packet
// of another program, another version or a damaged link is thrown away by its CRC
// before one member is decoded.
//
// Layout: [CRC32, 32 bits][payload][end-of-packet check: align + 32 bits].
// The CRC (standard CRC-32) covers the protocol id's 4 little-endian bytes, which are
// never sent, then every byte after the CRC field.

namespace netser {

/// The magic of the end-of-packet check: check_magic("netser end of packet").
inline constexpr std::uint32_t end_of_packet_magic = check_magic("netser end of packet");

/// Bytes a packet adds around its payload: the CRC and the end check (align not counted).
inline constexpr std::size_t packet_overhead_bytes = 8;

struct packet_options {
    /// The protocol id folded into the CRC; schema_hash<T>() when not set.
    std::optional<std::uint32_t> protocol_id;
};

struct packet_write_result {
    std::span<const std::byte> bytes; ///< the packet, inside the caller's buffer
    netser::error error;              ///< code none on success
};

namespace detail {

inline std::uint32_t packet_crc(std::uint32_t protocol_id, std::span<const std::byte> after_crc) noexcept {
    const unsigned char id[4] = {
        static_cast<unsigned char>(protocol_id), static_cast<unsigned char>(protocol_id >> 8),
        static_cast<unsigned char>(protocol_id >> 16), static_cast<unsigned char>(protocol_id >> 24)};
    boost::crc_32_type crc;
    crc.process_bytes(id, sizeof id);
    crc.process_bytes(after_crc.data(), after_crc.size());
    return crc.checksum();
}

template <class T>
std::uint32_t protocol_id_of(const packet_options& options) noexcept {
    constexpr std::uint32_t schema = schema_hash<T>(); // at compile time, never per packet
    return options.protocol_id ? *options.protocol_id : schema;
}

} // namespace detail

/// The most bytes a packet of T can take: the CRC, max_bytes<T>() (the end check's
/// alignment pads the payload to whole bytes) and the end check.
template <class T>
constexpr std::size_t max_packet_bytes() noexcept {
    return packet_overhead_bytes + max_bytes<T>();
}

/// Writes msg as a packet into buffer. On failure `bytes` is empty and `error` says why.
template <class T>
packet_write_result write_packet(std::span<std::byte> buffer, const T& msg, packet_options options = {}) {
    packet_write_result result;
    write_stream w(buffer);
    std::uint32_t crc_placeholder = 0;
    if (!serialize_bits(w, crc_placeholder, 32) || !serialize(w, msg) || !serialize_check(w, end_of_packet_magic)) {
        result.error = w.error();
        return result;
    }
    const std::span<const std::byte> bytes = w.finish();
    const std::uint32_t crc = detail::packet_crc(detail::protocol_id_of<T>(options), bytes.subspan(4));
    for (int i = 0; i < 4; ++i) buffer[static_cast<std::size_t>(i)] = static_cast<std::byte>(crc >> (8 * i));
    result.bytes = bytes;
    return result;
}

/// Reads a packet into msg. The CRC is checked before anything is decoded (bad_crc);
/// then the payload, the end check (check_failed) and that no byte trails it.
/// On failure msg may be partly written; use it only when the result is no error.
template <class T>
error read_packet(std::span<const std::byte> packet, T& msg, packet_options options = {}) {
    read_stream r(packet);
    std::uint32_t crc = 0;
    if (!serialize_bits(r, crc, 32)) return r.error();
    if (crc != detail::packet_crc(detail::protocol_id_of<T>(options), packet.subspan(4))) {
        r.fail(errc::bad_crc, 0);
        return r.error();
    }
    if (!serialize(r, msg) || !serialize_check(r, end_of_packet_magic)) return r.error();
    if (r.bytes_processed() != packet.size()) r.fail(errc::invalid_value, r.bits_processed()); // trailing bytes
    return r.error();
}

} // namespace netser
