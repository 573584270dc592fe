#pragma once

#include <netser/delta_packet.hpp>
#include <netser/packet.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

// Several message kinds on one port: each kind's packets carry a CRC over its own
// protocol id (a plain T's: schema_hash<T>(); a delta T's: that XOR delta_packet_salt),
// so the kind is the one whose protocol id makes the CRC match. One CRC pass per kind
// until one matches; nothing is decoded.

namespace netser {

/// A kind of packet_kind_of: delta packets of T (write_delta_packet), where a plain T
/// names plain packets of T (write_packet).
template <class T>
struct delta_of {
    using type = T;
};

/// A kind with its own protocol id (packet_options::protocol_id on both sides).
template <class Kind, std::uint32_t ProtocolId>
struct with_protocol_id {
    using type = Kind;
};

namespace detail {

template <class Kind>
struct kind_protocol {
    static std::uint32_t id() noexcept { return protocol_id_of<Kind>(packet_options{}); }
};
template <class T>
struct kind_protocol<delta_of<T>> {
    static std::uint32_t id() noexcept { return delta_protocol_id_of<T>(packet_options{}); }
};
template <class Kind, std::uint32_t Id>
struct kind_protocol<with_protocol_id<Kind, Id>> {
    static std::uint32_t id() noexcept { return Id; }
};
template <class T, std::uint32_t Id>
struct kind_protocol<with_protocol_id<delta_of<T>, Id>> {
    static std::uint32_t id() noexcept { return Id ^ delta_packet_salt; }
};

} // namespace detail

/// Which of Kinds the packet is: the index of the first kind whose CRC matches, or
/// nothing (a damaged or foreign packet: reading it as any kind fails with bad_crc).
/// Kinds: T for plain packets of T, delta_of<T> for delta packets of T,
/// with_protocol_id<Kind, Id> for a kind sent with packet_options::protocol_id = Id.
/// Then read it with that kind's reader, which checks the CRC again and decodes.
template <class... Kinds>
std::optional<std::size_t> packet_kind_of(std::span<const std::byte> packet) noexcept {
    static_assert(sizeof...(Kinds) > 0, "netser: packet_kind_of needs at least one kind");
    if (packet.size() < 4) return std::nullopt;
    const std::uint32_t crc = detail::load_le32(packet.data());
    const std::span<const std::byte> rest = packet.subspan(4);
    std::optional<std::size_t> kind;
    std::size_t i = 0;
    ((kind || (detail::packet_crc(detail::kind_protocol<Kinds>::id(), rest) == crc ? (kind = i, true) : (++i, false))),
     ...);
    return kind;
}

/// packet_kind_of over the bytes a socket call gives.
template <class... Kinds>
std::optional<std::size_t> packet_kind_of(const void* data, std::size_t size) noexcept {
    return packet_kind_of<Kinds...>(std::span<const std::byte>(static_cast<const std::byte*>(data), size));
}

} // namespace netser
