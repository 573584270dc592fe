#pragma once

// Shared by the reflection tests: the structs of docs/attributes.md (Player, Squad), a
// counting allocator that proves a hostile count allocated nothing, and one-line
// runners for netser::serialize on the three streams. Golden vectors in the tests
// are derived by hand from the wire format (docs/wire_format.md); hostile packets are forged
// field by field with the naive reference_writer of the core tests.

#include "core/test_util.hpp"

#include <netser/netser.hpp>

#include <boost/describe/enum.hpp>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace reflect_test {

using netser_test::exact_block;
using netser_test::hex;
using netser_test::reference_writer;
using netser_test::unhex;

// --- docs/attributes.md's example ----------------------------------------------

BOOST_DEFINE_ENUM_CLASS(Weapon, none, pistol, rifle, rocket)

// Enumerators 3, 5, 9: 3 bits (span 6), codes 0, 2 and 6; every other code is a gap.
enum class Sparse : int { a = 3, b = 5, c = 9 };
BOOST_DESCRIBE_ENUM(Sparse, a, b, c)

struct Player {
    int health = 0;
    float x = 0, y = 0;
    bool moving = false;
    float vx = 0;
    Weapon weapon = Weapon::none;
    std::string name;
    std::vector<std::uint16_t> inventory;
    std::optional<int> target;
};
NETSER_STRUCT(Player,
    (health, netser::range(0, 100), netser::common(100)),
    (x, netser::quantize(-2000.f, 2000.f, 0.1f)),
    (y, netser::quantize(-2000.f, 2000.f, 0.1f)),
    moving,
    (vx, netser::quantize(-50.f, 50.f, 0.01f), netser::only_if(&Player::moving)),
    weapon,
    (name, netser::max_length(16)),
    (inventory, netser::max_size(8), netser::range(0, 1023)),
    (target, netser::range(0, 63)))

// Equal up to the quantization steps of x, y (0.1) and vx (0.01).
inline bool close(const Player& a, const Player& b) {
    return a.health == b.health && std::fabs(a.x - b.x) <= 0.051f && std::fabs(a.y - b.y) <= 0.051f &&
           a.moving == b.moving && std::fabs(a.vx - b.vx) <= 0.0051f && a.weapon == b.weapon && a.name == b.name &&
           a.inventory == b.inventory && a.target == b.target;
}

// A random Player within every declared limit.
inline Player random_player(std::mt19937& rng) {
    auto uniform_int = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    auto uniform_float = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
    Player p;
    p.health = uniform_int(0, 3) == 0 ? 100 : uniform_int(0, 100);
    p.x = uniform_float(-2000.f, 2000.f);
    p.y = uniform_float(-2000.f, 2000.f);
    p.moving = uniform_int(0, 1) == 1;
    p.vx = p.moving ? uniform_float(-50.f, 50.f) : 0.f;
    p.weapon = static_cast<Weapon>(uniform_int(0, 3));
    p.name.resize(static_cast<std::size_t>(uniform_int(0, 16)));
    for (char& c : p.name) c = static_cast<char>(uniform_int(32, 126));
    p.inventory.resize(static_cast<std::size_t>(uniform_int(0, 8)));
    for (auto& item : p.inventory) item = static_cast<std::uint16_t>(uniform_int(0, 1023));
    if (uniform_int(0, 1) == 1) p.target = uniform_int(0, 63);
    return p;
}

// The error path example of docs/attributes.md: "Squad.units[2].hull".
struct Unit {
    std::uint8_t hull = 100;
    bool alive = true;
    bool operator==(const Unit&) const = default;
};
NETSER_STRUCT(Unit, (hull, netser::range(0, 100)), alive)

struct Squad {
    std::uint8_t id = 0;
    std::vector<Unit> units;
    bool operator==(const Squad&) const = default;
};
NETSER_STRUCT(Squad, id, (units, netser::max_size(4)))

// --- allocation accounting ----------------------------------------------------

/// Elements allocated through counting_allocator since the last reset.
inline std::size_t allocated_elements = 0;

template <class T>
struct counting_allocator {
    using value_type = T;
    counting_allocator() noexcept = default;
    template <class U>
    counting_allocator(const counting_allocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        allocated_elements += n;
        return std::allocator<T>{}.allocate(n);
    }
    void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>{}.deallocate(p, n); }
    template <class U>
    bool operator==(const counting_allocator<U>&) const noexcept {
        return true;
    }
};

// --- runners ------------------------------------------------------------------

/// What a successful write produced.
struct written {
    std::string hex;  ///< "8D 06"
    std::size_t bits; ///< bits_processed() of the write
};

/// Writes `value` (the write must succeed), checks that measure_stream counts the same
/// bits and that finish() gives ceil(bits / 8) bytes.
template <class T>
written write(const T& value, std::size_t capacity = 2048) {
    std::vector<std::byte> buffer(capacity, std::byte{0xA5});
    netser::write_stream w(buffer.data(), buffer.size());
    const bool ok = netser::serialize(w, value);
    INFO("write error: " << netser::to_string(w.error().code) << " at bit " << w.error().bit << " in "
                         << w.error().path());
    REQUIRE(ok);
    REQUIRE_FALSE(w.error());
    netser::measure_stream m;
    REQUIRE(netser::serialize(m, value));
    CHECK(m.bits_processed() == w.bits_processed());
    const auto bytes = w.finish();
    CHECK(bytes.size() == (w.bits_processed() + 7) / 8);
    return {hex(bytes), w.bits_processed()};
}

/// The hex of a successful write.
template <class T>
std::string to_hex(const T& value) {
    return write(value).hex;
}

/// Writes `value` expecting a failure; measuring must fail the same way.
template <class T>
netser::error write_error(const T& value, std::size_t capacity = 2048) {
    std::vector<std::byte> buffer(capacity);
    netser::write_stream w(buffer.data(), buffer.size());
    CHECK_FALSE(netser::serialize(w, value));
    netser::measure_stream m;
    CHECK_FALSE(netser::serialize(m, value));
    CHECK(m.error().code == w.error().code);
    CHECK(m.error().bit == w.error().bit);
    CHECK(m.error().path() == w.error().path());
    return w.error();
}

/// Reads `out` from an exactly sized copy of `bytes` (AddressSanitizer sees any access
/// outside it). Returns the error (code none on success); `bits` gets the bits read.
template <class T>
netser::error read_bytes(std::span<const std::byte> bytes, T& out, std::size_t* bits = nullptr) {
    const exact_block block(bytes);
    netser::read_stream r(block.data(), block.size());
    const bool ok = netser::serialize(r, out);
    CHECK(ok == !r.error());
    if (ok) CHECK(r.error().path().empty());
    if (bits) *bits = r.bits_processed();
    return r.error();
}

/// read_bytes from hex text.
template <class T>
netser::error read_hex(std::string_view text, T& out, std::size_t* bits = nullptr) {
    const auto bytes = unhex(text);
    return read_bytes(bytes, out, bits);
}

/// read_bytes from a forged packet.
template <class T>
netser::error read_forged(const reference_writer& forged, T& out, std::size_t* bits = nullptr) {
    const auto bytes = forged.bytes();
    return read_bytes(bytes, out, bits);
}

/// Writes, then reads into a default T: both succeed, reading consumes exactly the
/// bits written. Returns what was read.
template <class T>
T round_trip(const T& value) {
    std::vector<std::byte> buffer(4096);
    netser::write_stream w(buffer.data(), buffer.size());
    const bool wrote = netser::serialize(w, value);
    INFO("write error: " << netser::to_string(w.error().code) << " in " << w.error().path());
    REQUIRE(wrote);
    netser::measure_stream m;
    REQUIRE(netser::serialize(m, value));
    CHECK(m.bits_processed() == w.bits_processed());
    const auto bytes = w.finish();
    T out{};
    std::size_t bits = 0;
    const netser::error e = read_bytes(bytes, out, &bits);
    INFO("read error: " << netser::to_string(e.code) << " at bit " << e.bit << " in " << e.path());
    REQUIRE_FALSE(e);
    CHECK(bits == w.bits_processed());
    return out;
}

/// n zero bits (reference_writer::put takes at most 64 at a time).
inline void put_zeros(reference_writer& w, std::size_t n) {
    for (; n > 64; n -= 64) w.put(0, 64);
    w.put(0, static_cast<int>(n));
}

using netser_test::fail;
using netser_test::failure;
using netser_test::failure_of;

} // namespace reflect_test
