#pragma once

#include <netser/detail/endian.hpp>
#include <netser/reflect.hpp>
#include <netser/stream.hpp>

#include <boost/crc.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

// The baseline fingerprint: a delta packet carries one of the baseline it was written
// against, so a reader that holds another value under that sequence number (a stale
// ring slot, a wrapped sequence, another start state) refuses the packet with
// baseline_mismatch instead of decoding it into wrong values. It is taken over the
// value's plain encoding, so it depends on the content only: the same content in
// another object, or received another way, has the same fingerprint (hash tables write
// their entries sorted by key code for this reason).
//
// Definition: the standard CRC-32 over the plain encoding's bit count as 4 little-endian
// bytes, then its bytes (the last one padded with zero bits).

namespace netser {

/// The baseline fingerprint of value (docs/wire_format.md, "Baseline fingerprint"), or
/// nothing when value has no plain encoding (a value out of its declared range: not a
/// value a reader can hold).
template <class T>
std::optional<std::uint32_t> baseline_fingerprint(const T& value) {
    // One buffer per thread: a snapshot's plain encoding is kilobytes, taken per packet.
    thread_local std::vector<std::byte> scratch;
    vector_write_stream w(scratch);
    if (!serialize(w, value)) return std::nullopt;
    const std::size_t bits = w.bits_processed();
    const std::span<const std::byte> bytes = w.finish();
    unsigned char length[4];
    detail::store_le32(length, static_cast<std::uint32_t>(bits));
    boost::crc_32_type crc;
    crc.process_bytes(length, sizeof length);
    crc.process_bytes(bytes.data(), bytes.size());
    return crc.checksum();
}

} // namespace netser
