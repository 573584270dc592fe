#pragma once

// What the session targets (session_fuzz, budget_fuzz) and the hostile session tests
// share: the delta packet's CRC and baseline fingerprint computed here from their
// documented definitions (docs/wire_format.md, "Delta packets"), independently of the
// library's packet code, so a forged packet can carry a valid CRC and a test can check
// the fingerprint field; and the budget of a Grid.

#include "fuzz_common.hpp"

#include <netser/acks.hpp>
#include <netser/baseline_ring.hpp>
#include <netser/delta_budget.hpp>
#include <netser/delta_packet.hpp>

#include <boost/crc.hpp>

#include <algorithm>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace netser_fuzz {

/// The delta protocol id's salt as documented: check_magic("netser delta packet").
inline constexpr std::uint32_t documented_delta_salt = 0xA5FE0D30u;

/// Bits before the fingerprint field (CRC 32, sequence 16, baseline 16), and the field's width.
inline constexpr std::size_t fingerprint_field_bit = 32 + 16 + 16;
inline constexpr std::size_t fingerprint_field_bits = 32;

/// The standard CRC-32 of a delta packet of T: the delta protocol id (schema_hash<T>() XOR
/// the salt) as 4 little-endian bytes, then every byte after the CRC field.
template <class T>
std::uint32_t delta_packet_crc(std::span<const std::byte> packet) {
    return crc_over_protocol(netser::schema_hash<T>() ^ documented_delta_salt, packet);
}

/// Stores the delta CRC of T over the bytes after it (a packet of at least 4 bytes).
template <class T>
void patch_delta_crc(std::span<std::byte> packet) {
    if (packet.size() >= 4) store_crc(packet, delta_packet_crc<T>(packet));
}

/// The plain encoding of a value: its bytes and bit count (nothing when it does not write).
struct plain_encoding {
    std::vector<std::byte> bytes;
    std::size_t bits = 0;
    friend bool operator==(const plain_encoding&, const plain_encoding&) = default;
};

template <class T>
std::optional<plain_encoding> plain_of(const T& value) {
    plain_encoding out;
    out.bytes.resize(write_capacity<T>());
    netser::write_stream w{std::span<std::byte>(out.bytes)};
    if (!netser::serialize(w, value)) return std::nullopt;
    out.bits = w.bits_processed();
    out.bytes.resize(w.finish().size());
    return out;
}

/// The baseline fingerprint by its definition: CRC-32 over the plain encoding's bit count
/// as 4 little-endian bytes, then its bytes.
template <class T>
std::optional<std::uint32_t> fingerprint_by_definition(const T& value) {
    const auto plain = plain_of(value);
    if (!plain) return std::nullopt;
    const auto n = static_cast<std::uint32_t>(plain->bits);
    const unsigned char length[4] = {static_cast<unsigned char>(n), static_cast<unsigned char>(n >> 8),
                                     static_cast<unsigned char>(n >> 16), static_cast<unsigned char>(n >> 24)};
    boost::crc_32_type crc;
    crc.process_bytes(length, sizeof length);
    crc.process_bytes(plain->bytes.data(), plain->bytes.size());
    return crc.checksum();
}

/// A field of a packet: `bits` bits from bit `at`, least significant first (the bit packer's order).
inline std::uint64_t field_of(std::span<const std::byte> packet, std::size_t at, std::size_t bits) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < bits; ++i) {
        const std::size_t b = at + i;
        v |= static_cast<std::uint64_t>((std::to_integer<unsigned>(packet[b / 8]) >> (b % 8)) & 1u) << i;
    }
    return v;
}

/// A budget over every container of a Grid.
using grid_budget = netser::delta_budget<&Grid::cells, &Grid::units, &Grid::owners, &Grid::flags>;

/// What a reader holds after reading v (as_received; v itself when it does not write).
template <class T>
T as_held(const T& v) {
    T out{};
    copy_into(v, out);
    received(v, out);
    return out;
}

/// The changed elements of Grid's budgeted containers, counted from their meaning: cells
/// that differ, units added, removed or changed (by id), owners added, removed or changed,
/// flag slots that differ.
inline std::size_t changes_between(const Grid& now, const Grid& base) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < now.cells.size(); ++i) n += now.cells[i] != base.cells[i] ? 1u : 0u;
    for (const Unit& u : now.units) {
        const auto it = std::find_if(base.units.begin(), base.units.end(), [&](const Unit& b) { return b.id == u.id; });
        n += it == base.units.end() || it->pos.x != u.pos.x || it->pos.y != u.pos.y ? 1u : 0u;
    }
    for (const Unit& b : base.units)
        n += std::none_of(now.units.begin(), now.units.end(), [&](const Unit& u) { return u.id == b.id; }) ? 1u : 0u;
    for (const auto& [k, v] : now.owners) n += !base.owners.contains(k) || base.owners.at(k) != v ? 1u : 0u;
    for (const auto& [k, v] : base.owners) n += now.owners.contains(k) ? 0u : 1u;
    for (std::size_t i = 0; i < now.flags.size(); ++i) n += now.flags[i] != base.flags[i] ? 1u : 0u;
    return n;
}

} // namespace netser_fuzz
