#pragma once

// Shared by the packet tests: the messages of a small chat game, an independent
// bitwise CRC-32 (the tests never trust Boost.CRC to check itself), helpers that forge
// packets by hand and re-CRC them, and the message used by the cross-TU test.

#include "core/test_util.hpp"

#include <netser/netser.hpp>

#include <boost/describe/enum.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace packet_test {

using netser_test::exact_block;
using netser_test::hex;
using netser_test::reference_writer;
using netser_test::unhex;

// --- an independent CRC-32 --------------------------------------------------------

/// One byte into a standard CRC-32 register (reflected polynomial 0xEDB88320), one
/// bit at a time. The register starts at 0xFFFFFFFF and the CRC is its complement.
constexpr std::uint32_t crc32_update(std::uint32_t crc, std::byte b) noexcept {
    crc ^= std::to_integer<std::uint32_t>(b);
    for (int k = 0; k < 8; ++k) crc = (crc & 1u) != 0 ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    return crc;
}

/// The standard CRC-32 of some bytes.
constexpr std::uint32_t crc32_bitwise(std::span<const std::byte> bytes) noexcept {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (const std::byte b : bytes) crc = crc32_update(crc, b);
    return ~crc;
}

/// The CRC a packet must carry: over the protocol id's 4 little-endian bytes, then
/// every byte after the CRC field (docs/wire_format.md, "Packets").
constexpr std::uint32_t reference_packet_crc(std::uint32_t protocol_id, std::span<const std::byte> packet) noexcept {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (int i = 0; i < 4; ++i) crc = crc32_update(crc, static_cast<std::byte>(protocol_id >> (8 * i)));
    for (std::size_t i = 4; i < packet.size(); ++i) crc = crc32_update(crc, packet[i]);
    return ~crc;
}

/// Stores the right CRC into a forged packet (of at least 4 bytes), so that what the
/// forger changed reaches the decoder.
inline void recrc(std::vector<std::byte>& packet, std::uint32_t protocol_id) {
    const std::uint32_t crc = reference_packet_crc(protocol_id, packet);
    for (std::size_t i = 0; i < 4; ++i) packet[i] = static_cast<std::byte>(crc >> (8 * i));
}

/// The CRC field of a packet, as sent (little-endian).
inline std::uint32_t crc_field(std::span<const std::byte> packet) {
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v |= std::to_integer<std::uint32_t>(packet[i]) << (8 * i);
    return v;
}

/// check_magic("netser end of packet"), computed with Python's FNV-1a, not netser.
inline constexpr std::uint32_t end_magic = 0x4724C6F4u;

/// Ends a hand-built packet as docs/wire_format.md says: zero bits to a byte boundary,
/// then end_magic xor P, P the bits put after the 32-bit CRC field (the payload).
inline void put_end_check(reference_writer& ref) {
    const auto payload_bits = static_cast<std::uint32_t>(ref.bits() - 32);
    ref.align();
    ref.put(end_magic ^ payload_bits, 32);
}

/// write_packet into a buffer of exactly max_packet_bytes<T>(); the test fails if it fails.
template <class T>
std::vector<std::byte> packet_of(const T& msg, netser::packet_options options = {}) {
    std::vector<std::byte> buffer(netser::max_packet_bytes<T>());
    const netser::packet_write_result w = netser::write_packet(std::span<std::byte>(buffer), msg, options);
    INFO("write_packet failed: " << netser::to_string(w.error.code) << " at bit " << w.error.bit << " in "
                                 << w.error.path());
    REQUIRE_FALSE(w.error);
    REQUIRE(w.bytes.data() == buffer.data());
    return {w.bytes.begin(), w.bytes.end()};
}

/// read_packet from an exactly sized heap copy, so AddressSanitizer sees any access
/// outside the packet.
template <class T>
netser::error read_exact(std::span<const std::byte> packet, T& msg, netser::packet_options options = {}) {
    const exact_block block(packet);
    return netser::read_packet(block.span(), msg, options);
}

// --- the messages of a small chat game ------------------------------------------------

BOOST_DEFINE_ENUM_CLASS(Team, red, blue, green)
BOOST_DEFINE_ENUM_CLASS(Reason, quit, timeout, kicked)

/// The smallest message: 10 + 1 bits, a 10-byte packet.
struct Ping {
    std::uint16_t sequence = 0;
    bool reply = false;
    bool operator==(const Ping&) const = default;
};
NETSER_STRUCT(Ping, (sequence, netser::range(0, 1000)), reply)

struct Join {
    std::string name;
    Team team = Team::red;
    std::uint8_t level = 1;
    bool operator==(const Join&) const = default;
};
NETSER_STRUCT(Join, (name, netser::max_length(16)), team, (level, netser::range(1, 100)))

struct Chat {
    std::uint16_t from = 0;
    std::string text;
    std::vector<std::uint16_t> mentions;
    bool operator==(const Chat&) const = default;
};
NETSER_STRUCT(Chat,
    (from, netser::range(0, 1023)),
    (text, netser::max_length(120)),
    (mentions, netser::max_size(4), netser::range(0, 1023)))

/// Positions are quantized: the values in the tests are on the 1/16 grid, which the
/// quantization of [-512, 512] at 1/16 gives back exactly.
struct Move {
    std::uint16_t player = 0;
    float x = 0, y = 0;
    bool running = false;
    std::optional<std::uint16_t> target;
    bool operator==(const Move&) const = default;
};
NETSER_STRUCT(Move,
    (player, netser::range(0, 1023)),
    (x, netser::quantize(-512.f, 512.f, 0.0625f)),
    (y, netser::quantize(-512.f, 512.f, 0.0625f)),
    running,
    (target, netser::range(0, 1023)))

struct Leave {
    std::uint16_t player = 0;
    Reason reason = Reason::quit;
    bool operator==(const Leave&) const = default;
};
NETSER_STRUCT(Leave, (player, netser::range(0, 1023)), reason)

/// The packet body of the game: the index costs bits_required(0, 3) = 2 bits.
using Message = std::variant<Join, Chat, Move, Leave>;

/// Three alternatives in 2 bits: index 3 is past the end.
using Message3 = std::variant<Join, Chat, Move>;

/// A message union inside a struct: failures get a member path.
struct Envelope {
    std::uint8_t sequence = 0;
    Message3 body;
    bool operator==(const Envelope&) const = default;
};
NETSER_STRUCT(Envelope, sequence, body)

/// One valid message of each alternative.
inline std::vector<Message> sample_messages() {
    return {
        Join{"alice", Team::blue, 42},
        Join{"", Team::red, 1},
        Chat{7, "hello, world", {1, 2, 1023}},
        Chat{1023, std::string(120, 'x'), {0, 0, 0, 0}},
        Move{3, 100.5f, -7.25f, true, std::nullopt},
        Move{1023, -512.f, 512.f, false, std::uint16_t{9}},
        Leave{12, Reason::kicked},
    };
}

// --- the cross-TU message ---------------------------------------------------------------
//
// In an anonymous namespace: tu_writer_o0.cpp and tu_writer_o3.cpp each get their own
// types, so every netser template instantiated on them is private to that TU and the
// linker cannot fold the -O0 and the -O3 code into one copy. Same definition, same
// schema hash, same wire: two separately compiled programs.

namespace {

BOOST_DEFINE_ENUM_CLASS(Weapon, none, pistol, rifle, rocket)

struct Vec3 {
    float x = 0, y = 0, z = 0;
};
NETSER_STRUCT(Vec3, x, y, z)

struct Unit {
    std::uint16_t id = 0;
    Vec3 position;                      // quantized per component
    std::array<float, 2> aim{};         // quantized per element
    std::int8_t health = 100;
    Weapon weapon = Weapon::none;
    bool moving = false;
    float speed = 0;                    // only when moving
    std::optional<std::uint16_t> target;
    std::string name;
};
NETSER_STRUCT(Unit,
    (id, netser::range(0, 4095)),
    (position, netser::quantize(-1000.f, 1000.f, 0.01f)),
    (aim, netser::quantize(-1.f, 1.f, 0.001f)),
    (health, netser::range(-10, 100), netser::common(100, 0)),
    weapon,
    moving,
    (speed, netser::quantize(0.f, 20.f, 0.05f), netser::only_if(&Unit::moving)),
    (target, netser::range(0, 4095)),
    (name, netser::max_length(12)))

struct Snapshot {
    std::uint32_t tick = 0;
    double time = 0;            // raw 64 bits
    float gravity = 0;          // raw 32 bits
    std::int64_t checksum = 0;  // full width, two's complement
    std::vector<Unit> units;
    std::variant<Vec3, std::uint16_t> event;
};
NETSER_STRUCT(Snapshot, tick, time, gravity, checksum, (units, netser::max_size(6)), event)

// Templates, so that the TUs that include this header and use none of them get no
// unused-function warning.

/// The same pseudo-random Snapshot for the same seed in every TU (std::mt19937's
/// sequence is fixed by the standard; each float is one exact division).
template <int = 0>
Snapshot make_snapshot(std::uint32_t seed) {
    std::mt19937 rng(seed);
    auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
    auto signed_pick = [&](std::uint32_t half) { return static_cast<int>(pick(2 * half + 1)) - static_cast<int>(half); };
    Snapshot s;
    s.tick = static_cast<std::uint32_t>(rng());
    s.time = static_cast<double>(rng()) / 1024.0;
    s.gravity = std::bit_cast<float>(static_cast<std::uint32_t>(rng())); // any bits, NaNs included
    s.checksum = static_cast<std::int64_t>((std::uint64_t{rng()} << 32) | rng());
    const std::uint32_t n = pick(7);
    for (std::uint32_t i = 0; i < n; ++i) {
        Unit u;
        u.id = static_cast<std::uint16_t>(pick(4096));
        u.position = {static_cast<float>(signed_pick(100000)) / 100.f, static_cast<float>(signed_pick(100000)) / 100.f,
                      static_cast<float>(signed_pick(100000)) / 100.f};
        u.aim = {static_cast<float>(signed_pick(1000)) / 1000.f, static_cast<float>(signed_pick(1000)) / 1000.f};
        u.health = static_cast<std::int8_t>(pick(3) == 0 ? 100 : signed_pick(55) + 45);
        u.weapon = static_cast<Weapon>(pick(4));
        u.moving = pick(2) == 1;
        if (u.moving) u.speed = static_cast<float>(pick(401)) / 20.f;
        if (pick(2) == 1) u.target = static_cast<std::uint16_t>(pick(4096));
        const std::uint32_t len = pick(13);
        for (std::uint32_t c = 0; c < len; ++c) u.name += static_cast<char>('a' + pick(26));
        s.units.push_back(u);
    }
    if (pick(2) == 0) s.event = Vec3{1.5f, -2.f, static_cast<float>(pick(100))};
    else s.event = static_cast<std::uint16_t>(pick(65536));
    return s;
}

/// "" when `got` is `expected` as the wire gives it back (quantized floats within
/// their resolution, everything else exact, raw floats bit for bit), else what differs.
template <int = 0>
std::string snapshot_difference(const Snapshot& expected, const Snapshot& got) {
    auto near = [](float a, float b, float res) { return a - b <= res && b - a <= res; };
    if (expected.tick != got.tick) return "tick";
    if (!netser_test::same_value(expected.time, got.time)) return "time";
    if (!netser_test::same_value(expected.gravity, got.gravity)) return "gravity";
    if (expected.checksum != got.checksum) return "checksum";
    if (expected.units.size() != got.units.size()) return "units.size";
    for (std::size_t i = 0; i < expected.units.size(); ++i) {
        const Unit& e = expected.units[i];
        const Unit& g = got.units[i];
        const std::string at = "units[" + std::to_string(i) + "].";
        if (e.id != g.id) return at + "id";
        if (!near(e.position.x, g.position.x, 0.01f) || !near(e.position.y, g.position.y, 0.01f) ||
            !near(e.position.z, g.position.z, 0.01f))
            return at + "position";
        if (!near(e.aim[0], g.aim[0], 0.001f) || !near(e.aim[1], g.aim[1], 0.001f)) return at + "aim";
        if (e.health != g.health) return at + "health";
        if (e.weapon != g.weapon) return at + "weapon";
        if (e.moving != g.moving) return at + "moving";
        if (!near(e.speed, g.speed, 0.05f)) return at + "speed";
        if (e.target != g.target) return at + "target";
        if (e.name != g.name) return at + "name";
    }
    if (expected.event.index() != got.event.index()) return "event.index";
    if (const auto* e = std::get_if<Vec3>(&expected.event)) {
        const auto& g = std::get<Vec3>(got.event);
        if (!netser_test::same_value(e->x, g.x) || !netser_test::same_value(e->y, g.y) ||
            !netser_test::same_value(e->z, g.z))
            return "event";
    } else if (std::get<std::uint16_t>(expected.event) != std::get<std::uint16_t>(got.event)) {
        return "event";
    }
    return "";
}

/// The packet of make_snapshot(seed), written by this TU's own instantiations.
template <int = 0>
std::vector<std::byte> write_snapshot(std::uint32_t seed) {
    const Snapshot s = make_snapshot(seed);
    std::vector<std::byte> buffer(netser::max_packet_bytes<Snapshot>());
    const auto w = netser::write_packet(std::span<std::byte>(buffer), s);
    if (w.error) return {};
    return {w.bytes.begin(), w.bytes.end()};
}

/// Reads a packet with this TU's own instantiations: "" when it gives make_snapshot(seed).
template <int = 0>
std::string read_snapshot(std::span<const std::byte> packet, std::uint32_t seed) {
    Snapshot got;
    const exact_block block(packet);
    const netser::error e = netser::read_packet(block.span(), got);
    if (e) return "read_packet failed: " + std::string(netser::to_string(e.code)) + " at bit " + std::to_string(e.bit) +
                  " in " + std::string(e.path());
    return snapshot_difference(make_snapshot(seed), got);
}

} // namespace

/// Implemented by tu_writer_o0.cpp (compiled at -O0) and tu_writer_o3.cpp (-O3).
namespace cross_tu {
std::vector<std::byte> write_o0(std::uint32_t seed);
std::vector<std::byte> write_o3(std::uint32_t seed);
std::string read_o0(std::span<const std::byte> packet, std::uint32_t seed);
std::string read_o3(std::span<const std::byte> packet, std::uint32_t seed);
std::uint32_t schema_o0();
std::uint32_t schema_o3();
} // namespace cross_tu

} // namespace packet_test
