#pragma once

// Small types for the delta golden tests: each vector in delta_golden_test.cpp is
// derived by hand (or by tools/golden.py) from docs/wire_format.md, "Delta".

#include "core/test_util.hpp"

#include <netser/netser.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace delta_test {

BOOST_DEFINE_ENUM_CLASS(Weapon, none, pistol, rifle, rocket)

/// 1 + 4 + 6 + 2 bits: flag, level [0, 15], x in [-10, 10] at 0.5 (max_int 40), weapon.
struct Small {
    bool flag = false;
    std::uint8_t level = 0;
    float x = 0.f;
    Weapon weapon = Weapon::none;
};
NETSER_STRUCT(Small, flag, (level, netser::range(0, 15)), (x, netser::quantize(-10.f, 10.f, 0.5f)), weapon)

struct Outer {
    Small a;
    Small b;
};
NETSER_STRUCT(Outer, a, b)

struct Codes8 {
    std::array<std::uint16_t, 8> v{};
};
NETSER_STRUCT(Codes8, (v, netser::range(0, 1000)))

struct Codes40 {
    std::array<std::uint16_t, 40> v{};
};
NETSER_STRUCT(Codes40, (v, netser::range(0, 1000)))

struct Bytes {
    std::vector<std::uint8_t> v;
};
NETSER_STRUCT(Bytes, (v, netser::max_size(8), netser::range(0, 100)))

struct Target {
    std::optional<int> t;
};
NETSER_STRUCT(Target, (t, netser::range(0, 63)))

struct Either {
    std::variant<std::uint8_t, std::uint16_t> e;
};
NETSER_STRUCT(Either, e)

struct Name {
    std::string name;
};
NETSER_STRUCT(Name, (name, netser::max_length(15)))

/// velocity only while moving; its code range is [0, 2000].
struct Mover {
    bool moving = false;
    float velocity = 0.f;
};
NETSER_STRUCT(Mover, moving, (velocity, netser::quantize(-10.f, 10.f, 0.01f), netser::only_if(&Mover::moving)))

/// A member with its own ladder, one sent whole, one skipped.
struct Tuned {
    std::uint16_t fine = 0;
    std::uint16_t whole = 0;
    int local = 0;
};
NETSER_STRUCT(Tuned, (fine, netser::range(0, 1000), netser::delta_ladder(2, 8)),
              (whole, netser::range(0, 1000), netser::delta_whole), (local, netser::skip))

/// Writes obj against base (must succeed), checks that measuring counts the same bits
/// and that the bits stay within max_delta_bits; returns the hex.
template <class T>
std::string delta_hex(const T& obj, const T& base, std::size_t* bits = nullptr) {
    std::vector<std::byte> buffer(1 << 16);
    netser::write_stream w(buffer.data(), buffer.size());
    const bool ok = netser::serialize_delta(w, obj, base);
    INFO("write error " << netser::to_string(w.error().code) << " at " << w.error().path());
    REQUIRE(ok);
    netser::measure_stream m;
    REQUIRE(netser::serialize_delta(m, obj, base));
    CHECK(m.bits_processed() == w.bits_processed());
    if constexpr (!netser::detail::is_recursive_type<T>())
        if constexpr (netser::detail::delta_value_bounds<netser::detail::no_attrs, T>().bounded)
            CHECK(w.bits_processed() <= netser::max_delta_bits<T>());
    if (bits) *bits = w.bits_processed();
    return netser_test::hex(w.finish());
}

/// Reads a delta against base from an exactly sized copy of the packet.
template <class T>
netser::error read_delta(std::string_view packet, T& out, const T& base, std::size_t* bits = nullptr) {
    return netser_test::read_hex(
        packet, [&](auto& s) { return netser::serialize_delta(s, out, base); }, bits);
}

/// The plain bytes of a value: two values are the same on the wire when these are equal.
template <class T>
std::string plain_hex(const T& value) {
    netser::measure_stream m;
    REQUIRE(netser::serialize(m, value));
    std::vector<std::byte> buffer(m.bytes_processed() + 1);
    netser::write_stream w(buffer.data(), buffer.size());
    REQUIRE(netser::serialize(w, value));
    return netser_test::hex(w.finish());
}

template <class T>
T received(const T& value) {
    T out{};
    const netser::error e = netser::as_received(value, out);
    INFO("as_received: " << netser::to_string(e.code) << " at " << e.path());
    REQUIRE_FALSE(e);
    return out;
}

/// Writes obj against base: the golden bytes and exactly golden_bits; then reads them
/// back against base, consuming those bits, and gives what the reader holds.
template <class T>
T golden_round_trip(const T& obj, const T& base, std::string_view golden, std::size_t golden_bits) {
    INFO("golden " << golden);
    std::size_t bits = 0;
    CHECK(delta_hex(obj, base, &bits) == golden);
    CHECK(bits == golden_bits);
    T out{};
    std::size_t read_bits = 0;
    const netser::error e = read_delta(golden, out, base, &read_bits);
    INFO("read error " << netser::to_string(e.code) << " at " << e.bit << " " << e.path());
    REQUIRE_FALSE(e);
    CHECK(read_bits == golden_bits);
    return out;
}

} // namespace delta_test
