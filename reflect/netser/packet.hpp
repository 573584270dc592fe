#pragma once

#include <netser/detail/endian.hpp>
#include <netser/primitives.hpp>
#include <netser/reflect.hpp>
#include <netser/schema_hash.hpp>
#include <netser/stream.hpp>

#include <boost/crc.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

// Whole packets for an unconnected UDP port: anything from anyone arrives, so a packet
// of another program, another version or a damaged link is thrown away by its CRC
// before one member is decoded, and a reader that does not consume exactly the bits
// the writer wrote fails at the end check.
//
// Layout: [CRC32, 32 bits][payload: P bits][end-of-packet check: align, then the
// 32 bits end_of_packet_magic ^ P]. The CRC (standard CRC-32) covers the protocol
// id's 4 little-endian bytes, which are never sent, then every byte after the CRC field.

namespace netser {

class range_prior;

/// The magic of the end-of-packet check: check_magic("netser end of packet").
inline constexpr std::uint32_t end_of_packet_magic = check_magic("netser end of packet");

/// Bytes a packet adds around its payload: the CRC and the end check (align not counted).
inline constexpr std::size_t packet_overhead_bytes = 8;

/// The 32-bit value that ends a packet whose payload took payload_bits bits (mod 2^32):
/// a reader that consumed another number of bits expects another value.
constexpr std::uint32_t end_of_packet_value(std::size_t payload_bits) noexcept {
    return end_of_packet_magic ^ static_cast<std::uint32_t>(payload_bits);
}

struct packet_options {
    /// The protocol id folded into the CRC; schema_hash<T>() when not set.
    std::optional<std::uint32_t> protocol_id;
    /// Attached to the packet's stream with set_context (a link_context* for
    /// netser::linked members), for codecs that read s.context(). Never sent.
    void* context = nullptr;
    /// A reader's allocation budget in bytes (read_stream::set_max_allocation);
    /// read_stream::default_max_allocation(packet size) when not set.
    std::optional<std::size_t> max_allocation = std::nullopt;
    /// Predicted delta packets only: range-code the body with this prior (the
    /// entropy-coded stage; &default_range_prior() for the library default). Null: the
    /// body is bit-packed. Both sides must agree; the protocol id differs, so a packet of
    /// the other coding fails the CRC.
    const range_prior* range = nullptr;
};

struct [[nodiscard]] packet_write_result {
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

// A packet on w (a write_stream or a vector_write_stream): the CRC, what payload(w)
// writes, the end check. The CRC covers the bytes after it, so its field is written as
// 0 and filled in last.
template <class S, class Payload>
packet_write_result write_framed(S& w, std::uint32_t protocol_id, void* context, Payload&& payload) {
    w.set_context(context);
    std::uint32_t crc_placeholder = 0;
    if (!serialize_bits(w, crc_placeholder, 32) || !payload(w) ||
        !serialize_check(w, end_of_packet_value(w.bits_processed() - 32)))
        return {{}, w.error()};
    const std::span<const std::byte> bytes = w.finish();
    // The bytes lie in the caller's writable buffer (a span or a vector).
    store_le32(const_cast<std::byte*>(bytes.data()), packet_crc(protocol_id, bytes.subspan(4)));
    return {bytes, {}};
}

// write_framed into a vector: on success it holds exactly the packet, on failure nothing.
template <class Payload>
packet_write_result write_framed(std::vector<std::byte>& out, std::uint32_t protocol_id, void* context,
                                 Payload&& payload) {
    vector_write_stream w(out);
    const packet_write_result result = write_framed(w, protocol_id, context, payload);
    if (result.error) out.clear();
    return result;
}

// The first stage of reading a packet: the CRC, checked before anything is decoded.
inline bool open_framed(read_stream& r, std::span<const std::byte> packet, std::uint32_t protocol_id,
                        const packet_options& options) noexcept {
    r.set_context(options.context);
    if (options.max_allocation) r.set_max_allocation(*options.max_allocation);
    std::uint32_t crc = 0;
    if (!serialize_bits(r, crc, 32)) return false;
    if (crc != packet_crc(protocol_id, packet.subspan(4))) return r.fail(errc::bad_crc, 0);
    return true;
}

// The last stage, after the payload: the end check and no trailing byte.
inline error close_framed(read_stream& r, std::span<const std::byte> packet) noexcept {
    if (!serialize_check(r, end_of_packet_value(r.bits_processed() - 32))) return r.error();
    if (r.bytes_processed() != packet.size()) r.fail(errc::invalid_value, r.bits_processed()); // trailing bytes
    return r.error();
}

} // namespace detail

/// The most bytes a packet of T can take: the CRC, max_bytes<T>() (the end check's
/// alignment pads the payload to whole bytes) and the end check.
template <class T>
constexpr std::size_t max_packet_bytes() noexcept {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    return packet_overhead_bytes + max_bytes<T>();
}

/// Writes msg as a packet at the start of buffer. On failure `bytes` is empty and
/// `error` says why: overflow when the buffer is too small (an empty one included).
template <class T>
packet_write_result write_packet(std::span<std::byte> buffer, const T& msg, packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    write_stream w(buffer);
    return detail::write_framed(w, detail::protocol_id_of<T>(options), options.context,
                                [&](write_stream& s) { return serialize(s, msg); });
}

/// Writes msg as a packet into out, which grows as a vector_write_stream does (its
/// capacity first, then doubling, up to vector_write_stream::default_max_bytes): on
/// success it holds exactly the packet, and `bytes` spans it; on failure it is left
/// empty. A vector kept from one packet to the next stops allocating once it is large
/// enough; reserve max_packet_bytes<T>() to never reallocate.
template <class T>
packet_write_result write_packet(std::vector<std::byte>& out, const T& msg, packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    return detail::write_framed(out, detail::protocol_id_of<T>(options), options.context,
                                [&](vector_write_stream& s) { return serialize(s, msg); });
}

/// Reads a packet into msg. The CRC is checked before anything is decoded (bad_crc);
/// then the payload, the end check (check_failed unless the payload took exactly the
/// bits the writer wrote) and that no byte trails it.
/// On failure msg may be partly written; use it only when the result is no error.
template <class T>
error read_packet(std::span<const std::byte> packet, T& msg, packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    read_stream r(packet);
    if (!detail::open_framed(r, packet, detail::protocol_id_of<T>(options), options) || !serialize(r, msg))
        return r.error();
    return detail::close_framed(r, packet);
}

/// read_packet over the bytes a socket call gives (recvfrom's buffer and length).
template <class T>
error read_packet(const void* data, std::size_t size, T& msg, packet_options options = {}) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    return read_packet(std::span<const std::byte>(static_cast<const std::byte*>(data), size), msg, options);
}

} // namespace netser
