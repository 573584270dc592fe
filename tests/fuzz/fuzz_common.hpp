#pragma once

// What the fuzz targets share. An input is one selector byte (input[0] % type_count
// picks the packet type) followed by the packet. The packet is copied into a heap block
// of exactly its size, so AddressSanitizer (or valgrind, for the g++ replayers) reports
// any access outside it. A broken promise aborts with a message: libFuzzer then saves
// the input as a crash file, and the replayer stops on it.

#include "fuzz_types.hpp"

#include <boost/crc.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

namespace netser_fuzz {

/// Reports a broken promise and aborts (libFuzzer keeps the input).
[[noreturn]] inline void finding(std::string_view what, std::string_view type, const netser::error* e = nullptr) {
    std::fprintf(stderr, "\nnetser fuzz finding: %.*s [type %.*s]", static_cast<int>(what.size()), what.data(),
                 static_cast<int>(type.size()), type.data());
    if (e != nullptr) {
        const auto code = netser::to_string(e->code);
        const auto path = e->path();
        std::fprintf(stderr, " error %.*s at bit %zu, path '%.*s'", static_cast<int>(code.size()), code.data(), e->bit,
                     static_cast<int>(path.size()), path.data());
    }
    std::fprintf(stderr, "\n");
    std::abort();
}

/// A heap block of exactly n bytes.
class exact_bytes {
public:
    explicit exact_bytes(std::span<const std::byte> bytes)
        : data_(new std::byte[bytes.size()]), size_(bytes.size()) {
        if (size_ != 0) std::memcpy(data_.get(), bytes.data(), size_);
    }
    std::byte* data() noexcept { return data_.get(); }
    std::size_t size() const noexcept { return size_; }
    std::span<std::byte> span() noexcept { return {data_.get(), size_}; }
    std::span<const std::byte> span() const noexcept { return {data_.get(), size_}; }

private:
    std::unique_ptr<std::byte[]> data_;
    std::size_t size_;
};

/// The packet part of a fuzz input (everything after the selector byte; size > 0).
inline exact_bytes packet_of(const std::uint8_t* data, std::size_t size) {
    return exact_bytes({reinterpret_cast<const std::byte*>(data) + 1, size - 1});
}

/// A failed raw read must say why in a well-formed way: a decode error code (never
/// none, never a packet-level code), a bit inside the packet, a path rooted at the type.
inline void check_read_error(const netser::error& e, std::size_t packet_bits, std::string_view type) {
    using netser::errc;
    const bool decode_code = e.code == errc::overflow || e.code == errc::out_of_range ||
                             e.code == errc::invalid_value || e.code == errc::too_large ||
                             e.code == errc::check_failed;
    if (!decode_code) finding("a failed read reports an unexpected error code", type, &e);
    if (e.bit > packet_bits) finding("a failed read reports a bit past the end of the packet", type, &e);
    const auto path = e.path();
    if (path.substr(0, type.size()) != type && path.substr(0, 3) != "...")
        finding("a failed read's member path does not start at the type", type, &e);
}

/// The standard CRC-32 of a packet for T, computed here from the documented layout
/// (protocol id schema_hash<T>() as 4 little-endian bytes, then every byte after the CRC
/// field), independently of the library's own packet code.
template <class T>
std::uint32_t packet_crc(std::span<const std::byte> packet) {
    const std::uint32_t id = netser::schema_hash<T>();
    const unsigned char id_bytes[4] = {static_cast<unsigned char>(id), static_cast<unsigned char>(id >> 8),
                                       static_cast<unsigned char>(id >> 16), static_cast<unsigned char>(id >> 24)};
    boost::crc_32_type crc;
    crc.process_bytes(id_bytes, sizeof id_bytes);
    if (packet.size() > 4) crc.process_bytes(packet.data() + 4, packet.size() - 4);
    return crc.checksum();
}

/// The CRC stored in the first 4 bytes of a packet (little-endian, as the bit packer writes it).
inline std::uint32_t stored_crc(std::span<const std::byte> packet) noexcept {
    std::uint32_t crc = 0;
    for (std::size_t i = 0; i < 4; ++i) crc |= std::to_integer<std::uint32_t>(packet[i]) << (8 * i);
    return crc;
}

inline void store_crc(std::span<std::byte> packet, std::uint32_t crc) noexcept {
    for (std::size_t i = 0; i < 4; ++i) packet[i] = static_cast<std::byte>(crc >> (8 * i));
}

/// A successful read: inside the packet, and its values satisfy the declared ranges.
template <class T>
void check_read_value(const T& value, std::size_t bits_read, std::size_t packet_bits, std::string_view type) {
    if (bits_read > packet_bits) finding("a read reports more bits than the packet holds", type);
    if (!satisfies_declared(value)) finding("a successful read gave a value outside its declared ranges", type);
}

} // namespace netser_fuzz
