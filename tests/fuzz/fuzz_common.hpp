#pragma once

// What the fuzz targets share. An input is one selector byte (input[0] % type_count
// picks the packet type; the delta targets pick among delta_types) followed by the
// packet. The packet is copied into a heap block of exactly its size, so
// AddressSanitizer (or valgrind, for the g++ replayers) reports any access outside it. A
// broken promise aborts with a message: libFuzzer then saves the input as a crash file,
// and the replayer stops on it.

#include "fuzz_types.hpp"

#include <boost/crc.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
inline std::uint32_t crc_over_protocol(std::uint32_t id, std::span<const std::byte> packet) {
    const unsigned char id_bytes[4] = {static_cast<unsigned char>(id), static_cast<unsigned char>(id >> 8),
                                       static_cast<unsigned char>(id >> 16), static_cast<unsigned char>(id >> 24)};
    boost::crc_32_type crc;
    crc.process_bytes(id_bytes, sizeof id_bytes);
    if (packet.size() > 4) crc.process_bytes(packet.data() + 4, packet.size() - 4);
    return crc.checksum();
}
template <class T>
std::uint32_t packet_crc(std::span<const std::byte> packet) {
    return crc_over_protocol(netser::schema_hash<T>(), packet);
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

/// What a write gave: the bytes and the bits.
struct written {
    std::vector<std::byte> bytes;
    std::size_t bits = 0;
};

/// Writes with serialize_into(stream) into `capacity` bytes; a failure is a finding (`what`).
template <class F>
written write_or_die(std::size_t capacity, std::string_view type, std::string_view what, F&& serialize_into) {
    written out;
    out.bytes.resize(capacity);
    netser::write_stream w{std::span<std::byte>(out.bytes)};
    if (!serialize_into(w)) finding(what, type, &w.error());
    out.bits = w.bits_processed();
    out.bytes.resize(w.finish().size());
    if (out.bytes.size() != (out.bits + 7) / 8) finding("finish() does not give ceil(bits / 8) bytes", type);
    return out;
}

/// The plain encoding of a value that must write.
template <class T>
written write_or_die(const T& value, std::string_view type, std::string_view what) {
    return write_or_die(write_capacity<T>(), type, what, [&](auto& w) { return netser::serialize(w, value); });
}

/// Bytes enough for any delta of T (for the recursive ones, of any value write_capacity covers).
template <class T>
constexpr std::size_t delta_capacity() noexcept {
    if constexpr (statically_bounded<T>) return netser::max_delta_bytes<T>();
    else return 2 * write_capacity<T>();
}

/// What a reader holds after reading `value` (netser::as_received); false when it does not
/// write, and then `out` is left as it was.
template <class T>
bool received(const T& value, T& out) {
    T copy{};
    if (netser::as_received(value, copy)) return false;
    out = std::move(copy);
    return true;
}

/// out = value: a copy, or for a type that has none (Chain) what a reader of it holds.
template <class T>
void copy_into(const T& value, T& out) {
    if constexpr (std::is_copy_assignable_v<T>) out = value;
    else received(value, out);
}

/// make() for this key (below N), made on the first call only, for each T and call site
/// (each lambda is a type of its own): for what a target derives from a seed byte alone.
/// The generator and as_received are no part of what is fuzzed, and made for every input
/// they cost more than the reads and swell the coverage libFuzzer tallies on every run.
template <class T, std::size_t N = 512, class Make>
const T& made_once(std::size_t key, Make&& make) {
    static std::array<std::unique_ptr<T>, N> made;
    std::unique_ptr<T>& p = made[key % N];
    if (!p) p = std::make_unique<T>(make());
    return *p;
}

/// The generator's value for a seed (below 256), as a reader holds it.
template <class T>
const T& generated(std::size_t seed, size_mode m) {
    return made_once<T>(2 * seed + (m == size_mode::full ? 1 : 0), [&] {
        T out{};
        received(make_value<T>(seed, m), out);
        return out;
    });
}

/// Reports a broken promise of a delta against a baseline, which it names.
struct against_baseline {
    std::string_view type, baseline;

    std::string text(std::string_view what) const {
        return std::string(what) + " (against the " + std::string(baseline) + " baseline)";
    }
    [[noreturn]] void operator()(std::string_view what, const netser::error* e = nullptr) const {
        finding(text(what), type, e);
    }
};

/// How a delta read ended: its error (none on success) and the bits it consumed.
struct delta_read {
    netser::error error;
    std::size_t bits = 0;
};

/// A delta read of `packet` against `base` into a fresh object (`fresh`, value-initialised
/// here) and into `reused`, which holds other data: what the last read left in it (an
/// unrelated value at first), with `other_bits` in its skip members. The two reads
/// must agree: the same error (code, bit, path), or the same bits consumed and the same
/// value bit for bit. A failure must say why (check_read_error), a success satisfy the
/// declared ranges (check_read_value).
template <class T>
delta_read read_delta_fresh_and_reused(std::span<const std::byte> packet, const T& base, T& fresh, T& reused,
                                       rng& other_bits, const against_baseline& fail) {
    fill_skipped(reused, [&] { return other_bits.next(); });
    fresh = T{};
    netser::read_stream r(packet);
    const bool ok = netser::serialize_delta(r, fresh, base);
    netser::read_stream again(packet);
    const bool reused_ok = netser::serialize_delta(again, reused, base);
    if (ok != reused_ok)
        fail("a delta read into a reused object and one into a fresh object do not both succeed or both fail",
             ok ? &again.error() : &r.error());
    if (!ok) {
        const netser::error &e = r.error(), &e2 = again.error();
        if (e.code != e2.code || e.bit != e2.bit || e.path() != e2.path())
            fail("a failed delta read into a reused object reports another error than one into a fresh object", &e2);
        check_read_error(e, packet.size() * 8, fail.type);
        return {e, r.bits_processed()};
    }
    if (again.bits_processed() != r.bits_processed())
        fail("a delta read into a reused object consumes other bits than one into a fresh object");
    check_read_value(fresh, r.bits_processed(), packet.size() * 8, fail.type);
    const value_bits want = bits_of(fresh), got = bits_of(reused);
    if (got.sent != want.sent)
        fail("a delta read into a reused object gives another value than one into a fresh object");
    // Apart, for a known bug (being fixed): the plain read of a vector's new elements left
    // their skip members as the reused object had them.
    if (got.skipped != want.skipped)
        fail("a delta read into a reused object leaves skip members with the old object's values (known bug: "
             "new vector elements), where a fresh object has what the baseline and the defaults give");
    return {{}, r.bits_processed()};
}

/// `value` changed by change(copy), as a reader holds it; false (and `out` as it was) when
/// the changed value does not write, or cannot be a delta's baseline (a key twice in a
/// keyed vector: delta_writable).
template <class T, class Change>
bool changed_value(const T& value, T& out, Change&& change) {
    T copy{};
    copy_into(value, copy);
    change(copy);
    T got{};
    if (!received(copy, got) || !delta_writable(got)) return false;
    out = std::move(got);
    return true;
}

/// `value` (as a reader holds it) with one leaf changed (a bit flipped, chosen by r; skipped
/// members left alone): a baseline near `value`. `value` itself when the flips tried do not
/// write.
template <class T>
void near_value(const T& value, T& out, rng& r) {
    if (const std::size_t leaves = sent_leaves(value); leaves != 0)
        for (int tries = 0; tries < 8; ++tries) {
            const auto leaf = static_cast<std::size_t>(r.below(leaves));
            const auto bit = static_cast<std::size_t>(r.below(64));
            if (changed_value(value, out, [&](T& copy) { flip_bit(copy, leaf, bit); })) return;
        }
    copy_into(value, out);
}

/// `value` (as a reader holds it) with every float and double that is zero or NaN given the
/// other sign: equal to `value` under ==, and other bits wherever a raw float is 0 or NaN.
template <class T>
void twin_value(const T& value, T& out) {
    if (!changed_value(value, out, [](T& copy) { flip_signs_of_zeros_and_nans(copy); })) copy_into(value, out);
}

} // namespace netser_fuzz
