#pragma once

// Helpers shared by the core tests: hex text, exactly sized heap blocks (so
// AddressSanitizer sees any access outside a packet), a naive bit-by-bit reference
// writer/reader used as an oracle, and one-line write/read/measure runners.

#include "core/hex.hpp"

#include <netser/core.hpp>

#include <catch2/catch.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace netser_test {

/// A failure's code, bit and path, for one CHECK.
struct failure {
    netser::errc code;
    std::size_t bit;
    std::string path;
    bool operator==(const failure&) const = default;
};
inline failure fail(netser::errc code, std::size_t bit, std::string path) { return {code, bit, std::move(path)}; }
inline failure failure_of(const netser::error& e) { return {e.code, e.bit, std::string(e.path())}; }

inline std::ostream& operator<<(std::ostream& os, const failure& f) {
    return os << netser::to_string(f.code) << " at bit " << f.bit << " in \"" << f.path << '"';
}

/// A heap block of exactly n bytes (`new std::byte[n]`): one byte more or less and
/// AddressSanitizer reports the access.
class exact_block {
public:
    explicit exact_block(std::size_t n) : data_(new std::byte[n]), size_(n) {
        for (std::size_t i = 0; i < n; ++i) data_[i] = std::byte{0};
    }
    explicit exact_block(std::span<const std::byte> bytes) : exact_block(bytes.size()) {
        if (!bytes.empty()) std::memcpy(data_.get(), bytes.data(), bytes.size());
    }
    std::byte* data() noexcept { return data_.get(); }
    const std::byte* data() const noexcept { return data_.get(); }
    std::size_t size() const noexcept { return size_; }
    std::span<std::byte> span() noexcept { return {data_.get(), size_}; }
    std::span<const std::byte> span() const noexcept { return {data_.get(), size_}; }

private:
    std::unique_ptr<std::byte[]> data_;
    std::size_t size_;
};

/// All ones in the low n bits (n in 0..64).
constexpr std::uint64_t low_mask(int n) noexcept {
    return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

/// The model's width of codes 0..span, counted bit by bit (not bits_required, which it
/// checks): the fewest k with span < 2^k, 0 for one value.
constexpr int width_of(std::uint64_t span) noexcept {
    int k = 0;
    while (k < 64 && (span >> k) != 0) ++k;
    return k;
}

/// The oracle: the wire format of docs/wire_format.md one bit at a time, no registers, no words.
class reference_writer {
public:
    void put(std::uint64_t value, int n) {
        for (int i = 0; i < n; ++i) bits_.push_back(((value >> i) & 1u) != 0);
    }
    void align() {
        while (bits_.size() % 8 != 0) bits_.push_back(false);
    }
    void put_bytes(std::span<const std::byte> bytes) {
        for (const std::byte b : bytes) put(std::to_integer<std::uint64_t>(b), 8);
    }
    std::size_t bits() const noexcept { return bits_.size(); }
    std::vector<std::byte> bytes() const {
        std::vector<std::byte> out((bits_.size() + 7) / 8, std::byte{0});
        for (std::size_t i = 0; i < bits_.size(); ++i)
            if (bits_[i]) out[i / 8] |= static_cast<std::byte>(1u << (i % 8));
        return out;
    }

private:
    std::vector<bool> bits_;
};

/// The oracle's relative index (docs/wire_format.md 3.2, the article's sparse array):
/// the distance d from the previous index, for an array of `max` slots.
inline void model_relative_index(reference_writer& w, long d, long max) {
    const auto span_bits = [](long lo, long hi) {
        int n = 0;
        for (unsigned long span = static_cast<unsigned long>(hi - lo); span != 0; span >>= 1) ++n;
        return n;
    };
    if (d == 1) return w.put(1, 1);
    w.put(0, 1);
    const long rungs[][2] = {{2, 5}, {6, 13}, {14, 29}, {30, 61}, {62, 125}};
    for (const auto& rung : rungs) {
        if (d <= rung[1]) {
            w.put(1, 1);
            return w.put(static_cast<std::uint64_t>(d - rung[0]), span_bits(rung[0], rung[1]));
        }
        w.put(0, 1);
    }
    w.put(static_cast<std::uint64_t>(d - 126), span_bits(126, max + 1));
}

/// The oracle's reader: bits [bit, bit + n) of a packet, LSB first.
inline std::uint64_t reference_read(std::span<const std::byte> packet, std::size_t bit, int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) {
        const std::size_t at = bit + static_cast<std::size_t>(i);
        if ((std::to_integer<unsigned>(packet[at / 8]) >> (at % 8)) & 1u) v |= std::uint64_t{1} << i;
    }
    return v;
}

/// Runs `f(stream)` on a write_stream over `capacity` bytes and on a measure_stream;
/// both must succeed and count the same bits. Returns the hex of the bytes written.
template <class F>
std::string write_hex(F&& f, std::size_t capacity = 256) {
    std::vector<std::byte> buffer(capacity, std::byte{0xA5});
    netser::write_stream w(buffer.data(), buffer.size());
    REQUIRE(f(w));
    REQUIRE_FALSE(w.error());
    netser::measure_stream m;
    REQUIRE(f(m));
    CHECK(m.bits_processed() == w.bits_processed());
    const auto bytes = w.finish();
    CHECK(bytes.size() == (w.bits_processed() + 7) / 8);
    return hex(bytes);
}

/// Runs `f(stream)` on a read_stream over an exactly sized copy of the packet.
/// Returns the stream's error (code none on success); `bits` gets the bits read.
template <class F>
netser::error read_hex(std::string_view packet, F&& f, std::size_t* bits = nullptr) {
    const exact_block block(unhex(packet));
    netser::read_stream r(block.data(), block.size());
    const bool ok = f(r);
    CHECK(ok == !r.error());
    if (bits) *bits = r.bits_processed();
    return r.error();
}

/// Equal values; floats and doubles compare their bits (NaN payloads, -0).
template <class T>
bool same_value(const T& a, const T& b) {
    if constexpr (std::is_same_v<T, float>) return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
    else if constexpr (std::is_same_v<T, double>) return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
    else return a == b;
}

template <class Tuple, std::size_t... I>
bool same_values(const Tuple& a, const Tuple& b, std::index_sequence<I...>) {
    return (same_value(std::get<I>(a), std::get<I>(b)) && ...);
}

/// A golden vector: `codec(stream, values...)` writes exactly the bytes `golden`
/// (hex), measures the same bits, and reading `golden` (from an exactly sized
/// block, into value-initialized values) consumes those bits and gives the values back.
template <class Codec, class... T>
void check_golden(std::string_view golden, Codec codec, T... values) {
    INFO("golden vector " << golden);
    std::tuple<T...> written{values...};
    std::vector<std::byte> buffer(256);
    netser::write_stream w(buffer.data(), buffer.size());
    REQUIRE(std::apply([&](auto&... v) { return codec(w, v...); }, written));
    std::tuple<T...> measured{values...};
    netser::measure_stream m;
    REQUIRE(std::apply([&](auto&... v) { return codec(m, v...); }, measured));
    CHECK(m.bits_processed() == w.bits_processed());
    CHECK(hex(w.finish()) == golden);

    std::tuple<T...> read{};
    const exact_block packet(unhex(golden));
    netser::read_stream r(packet.data(), packet.size());
    REQUIRE(std::apply([&](auto&... v) { return codec(r, v...); }, read));
    CHECK(r.bits_processed() == w.bits_processed());
    CHECK(same_values(read, written, std::index_sequence_for<T...>{}));
}

} // namespace netser_test
