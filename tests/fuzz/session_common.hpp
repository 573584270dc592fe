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
#include <netser/predicted_delta_packet.hpp>

#include <boost/crc.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
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

// --- predicted delta packets (netser/predicted_delta_packet.hpp) -----------------------
// Shared by session_fuzz and tests/hostile/predicted_test.cpp: a snapshot whose members
// predict_linear reaches in every way it can, the packet's fields, CRC and combined
// fingerprint from their documented definitions (docs/wire_format.md, "Predicted delta
// packets"), a model of the prediction written from the rule ("Prediction"; codes
// computed here, the rounding as a quotient and a remainder, none of prediction.hpp),
// and a model of what a read of any bytes gives against a ring.

/// A drone of a Swarm. The vector holding them is predict_linear, which reaches every
/// code inside: the id's bits too.
struct Drone {
    std::uint8_t id = 0;
    Vec2 pos;
    std::int16_t climb = 0;
};
NETSER_STRUCT(Drone, (id, netser::bits(6)), (pos, netser::quantize(-64.f, 64.f, 0.015625f)),
              (climb, netser::range(-300, 300)))

/// A moving world for predicted packets: ranges, quantized floats (a power-of-two step
/// and 0.1), bits(32) (the widest code predicted), a smallest_three rotation, a vector of
/// structs, a vector and an array of integers, gains 1, 3/4, 1/2 and 5/8, an only_if
/// member; and what predict_linear does not reach: an optional, a code wider than 32
/// bits (wide), members not marked, a skip member.
struct Swarm {
    std::uint16_t tick = 0;
    float x = 0, y = 0;
    std::int32_t hp = 0;
    bool boosting = false;
    std::int32_t boost = 0;
    Quat rotation;
    std::vector<Drone> drones;
    std::array<std::uint8_t, 4> cells{};
    std::vector<std::uint16_t> trail;
    std::optional<std::uint16_t> target;
    std::uint32_t serial = 0;
    std::uint64_t wide = 0;
    float heat = 0;
    std::array<std::int16_t, 3> spin{};
    std::int32_t local = 0;
};
NETSER_STRUCT(Swarm,
    (tick, netser::range(0, 1000), netser::predict_linear),
    (x, netser::quantize(-64.f, 64.f, 0.015625f), netser::predict_linear),
    (y, netser::quantize(-64.f, 64.f, 0.015625f), netser::predict_linear(3, 4)),
    (hp, netser::range(0, 100), netser::predict_linear(1, 2)),
    boosting,
    (boost, netser::range(-500, 500), netser::predict_linear, netser::only_if(&Swarm::boosting)),
    (rotation, netser::smallest_three{9}, netser::predict_linear),
    (drones, netser::max_size(6), netser::predict_linear),
    (cells, netser::range(0, 15)),
    (trail, netser::max_size(5), netser::range(0, 4095), netser::predict_linear),
    (target, netser::range(0, 1000), netser::predict_linear),
    (serial, netser::bits(32), netser::predict_linear),
    (wide, netser::range(std::uint64_t{0}, std::uint64_t{1} << 40), netser::predict_linear),
    (heat, netser::quantize(0.f, 10.f, 0.1f), netser::predict_linear),
    (spin, netser::range(-1000, 1000), netser::predict_linear(5, 8)),
    (local, netser::skip))

constexpr std::array<std::string_view, 1> skipped_members(const Swarm*) noexcept { return {"local"}; }
static_assert(skips_listed<Swarm>());

inline constexpr std::uint64_t swarm_wide_max = std::uint64_t{1} << 40;

inline void randomize(Swarm& s, rng& r, size_mode m) {
    s.tick = static_cast<std::uint16_t>(r.below(1001));
    s.x = r.fixed(-4096, 4096, 6);
    s.y = r.fixed(-4096, 4096, 6);
    s.hp = static_cast<std::int32_t>(r.below(101));
    s.boosting = r.coin();
    s.boost = s.boosting ? static_cast<std::int32_t>(r.between(-500, 500)) : 0;
    s.rotation = quat_value(r);
    s.drones.resize(pick_count(r, 6, m));
    for (auto& d : s.drones) {
        d.id = static_cast<std::uint8_t>(r.below(64));
        d.pos.x = r.fixed(-4096, 4096, 6);
        d.pos.y = r.fixed(-4096, 4096, 6);
        d.climb = static_cast<std::int16_t>(r.between(-300, 300));
    }
    for (auto& c : s.cells) c = static_cast<std::uint8_t>(r.below(16));
    s.trail.resize(pick_count(r, 5, m));
    for (auto& t : s.trail) t = static_cast<std::uint16_t>(r.below(4096));
    if (r.coin()) s.target = static_cast<std::uint16_t>(r.below(1001));
    else s.target.reset();
    switch (r.below(4)) { // the ends of the widest predicted code, often
    case 0: s.serial = 0; break;
    case 1: s.serial = 0xffffffffu; break;
    default: s.serial = static_cast<std::uint32_t>(r.next()); break;
    }
    s.wide = r.below(swarm_wide_max + 1);
    s.heat = static_cast<float>(r.below(101)) / 10.f;
    for (auto& v : s.spin) v = static_cast<std::int16_t>(r.between(-1000, 1000));
    s.local = 0;
}

inline bool satisfies_declared(const Swarm& s) {
    if (s.tick > 1000 || !within(s.x, -64.f, 64.f) || !within(s.y, -64.f, 64.f) || !in_range(s.hp, 0, 100) ||
        (s.boosting && !in_range(s.boost, -500, 500)) || !unit_length(s.rotation) || s.drones.size() > 6 ||
        s.trail.size() > 5 || (s.target && *s.target > 1000) || s.wide > swarm_wide_max || !within(s.heat, 0.f, 10.f))
        return false;
    for (const auto& d : s.drones)
        if (d.id > 63 || !within(d.pos.x, -64.f, 64.f) || !within(d.pos.y, -64.f, 64.f) || !in_range(d.climb, -300, 300))
            return false;
    for (const auto c : s.cells)
        if (c > 15) return false;
    for (const auto t : s.trail)
        if (t > 4095) return false;
    for (const auto v : s.spin)
        if (!in_range(v, -1000, 1000)) return false;
    return true;
}

/// Frame n of a motion (seed): members move a steady number of codes per frame, turn
/// back at frame `turn` (a bounce a third baseline sees), stop at the ends of their
/// ranges; tick wraps from 1000 to 0; the rotation turns about a fixed axis; a drone and
/// a trail entry come and go. As a reader holds it.
inline Swarm swarm_frame(std::uint64_t seed, std::uint32_t n) {
    rng r{seed * 7919 + 17};
    Swarm s = make_value<Swarm>(seed, size_mode::full);
    const auto t = static_cast<std::int64_t>(n);
    const std::int64_t turn = r.between(2, 14);
    const auto along = [&](std::int64_t start, std::int64_t lo, std::int64_t hi, std::int64_t speed) {
        const std::int64_t at = t <= turn ? start + speed * t : start + speed * turn - speed * (t - turn);
        return at < lo ? lo : (at > hi ? hi : at);
    };
    const auto speed = [&](std::int64_t most) { return r.between(-most, most); };
    s.tick = static_cast<std::uint16_t>((s.tick + n) % 1001);
    const auto fine = [](float v) { return static_cast<std::int64_t>((v + 64.f) * 64.f); };
    const auto coarse = [](std::int64_t code) { return static_cast<float>(code) / 64.f - 64.f; };
    const std::int64_t vx = speed(90), vy = speed(90), vhp = speed(4), vboost = speed(30), vheat = speed(3);
    s.x = coarse(along(fine(s.x), 0, 8192, vx));
    s.y = coarse(along(fine(s.y), 0, 8192, vy));
    s.hp = static_cast<std::int32_t>(along(s.hp, 0, 100, vhp));
    if (s.boosting) s.boost = static_cast<std::int32_t>(along(s.boost, -500, 500, vboost));
    s.heat = static_cast<float>(along(static_cast<std::int64_t>(s.heat * 10.f + 0.5f), 0, 100, vheat)) / 10.f;
    for (auto& d : s.drones) {
        const std::int64_t dx = speed(40), dy = speed(40), dc = speed(8), di = speed(1);
        d.pos.x = coarse(along(fine(d.pos.x), 0, 8192, dx));
        d.pos.y = coarse(along(fine(d.pos.y), 0, 8192, dy));
        d.climb = static_cast<std::int16_t>(along(d.climb, -300, 300, dc));
        d.id = static_cast<std::uint8_t>(along(d.id, 0, 63, di));
    }
    if (n % 7 == 6 && !s.drones.empty()) s.drones.pop_back();
    for (auto& v : s.trail) v = static_cast<std::uint16_t>(along(v, 0, 4095, speed(50)));
    if (n % 5 == 4 && s.trail.size() < 5) s.trail.push_back(static_cast<std::uint16_t>(n));
    const std::int64_t vserial = speed(1000);
    s.serial = static_cast<std::uint32_t>(along(s.serial, 0, 0xffffffff, vserial));
    for (auto& v : s.spin) v = static_cast<std::int16_t>(along(v, -1000, 1000, speed(100)));
    const std::array<float, 4> axis = unit_quat(r);
    const double angle = static_cast<double>(r.between(-300, 300)) / 1000.0 * static_cast<double>(t) + 0.25;
    const double sine = std::sin(angle / 2), norm = std::sqrt(double{axis[0]} * axis[0] + double{axis[1]} * axis[1] +
                                                               double{axis[2]} * axis[2]);
    if (norm > 0) {
        s.rotation = {static_cast<float>(axis[0] / norm * sine), static_cast<float>(axis[1] / norm * sine),
                      static_cast<float>(axis[2] / norm * sine), static_cast<float>(std::cos(angle / 2))};
    }
    if (n % 9 == 8) s.boosting = !s.boosting; // only_if: one baseline without boost
    if (!s.boosting) s.boost = 0;
    return as_held(s);
}

/// The predicted protocol id's salt as documented: check_magic("netser predicted delta packet").
inline constexpr std::uint32_t documented_predicted_salt = 0x73355E04u;
/// end_of_packet_magic as documented: check_magic("netser end of packet").
inline constexpr std::uint32_t documented_end_magic = 0x4724C6F4u;

/// The standard CRC-32 of a predicted delta packet of T, by its definition.
template <class T>
std::uint32_t predicted_packet_crc(std::span<const std::byte> packet) {
    return crc_over_protocol(netser::schema_hash<T>() ^ documented_predicted_salt, packet);
}

template <class T>
void patch_predicted_crc(std::span<std::byte> packet) {
    if (packet.size() >= 4) store_crc(packet, predicted_packet_crc<T>(packet));
}

/// Bits of a predicted header before baseline i's number, and before the fingerprint of
/// a header naming `count` baselines.
constexpr std::size_t predicted_baseline_field(std::size_t i) noexcept { return 32 + 16 + 2 + 16 * i; }
constexpr std::size_t predicted_fingerprint_field(std::size_t count) noexcept { return predicted_baseline_field(count); }
constexpr std::size_t predicted_body_bit(std::size_t count) noexcept { return predicted_baseline_field(count) + 32; }

/// The packet's fingerprint by definition: CRC-32 of each baseline's fingerprint (by its
/// definition) as 4 little-endian bytes, in the packet's order; nothing when a baseline
/// has no plain encoding.
template <class T>
std::optional<std::uint32_t> combined_fingerprint_by_definition(std::span<const T* const> values) {
    boost::crc_32_type crc;
    for (const T* v : values) {
        const auto f = fingerprint_by_definition(*v);
        if (!f) return std::nullopt;
        const unsigned char bytes[4] = {static_cast<unsigned char>(*f), static_cast<unsigned char>(*f >> 8),
                                        static_cast<unsigned char>(*f >> 16), static_cast<unsigned char>(*f >> 24)};
        crc.process_bytes(bytes, sizeof bytes);
    }
    return crc.checksum();
}

/// Whether a is newer than b by the documented rule: 1 to 32767 steps ahead on the circle.
constexpr bool newer_by_definition(std::uint16_t a, std::uint16_t b) noexcept {
    const std::uint32_t forward = (std::uint32_t{a} + 0x10000u - b) & 0xffffu;
    return forward >= 1 && forward <= 0x7fff;
}
constexpr std::int64_t gap_by_definition(std::uint16_t a, std::uint16_t b) noexcept {
    return static_cast<std::int64_t>((std::uint32_t{a} + 0x10000u - b) & 0xffffu);
}

/// The gaps of a prediction, as the rule names them: ahead (packet - b0), span (b0 - b1,
/// 0 with one baseline), span2 (b1 - b2, 0 without a third).
struct model_spacing {
    std::int64_t ahead = 1, span = 0, span2 = 0;
};

inline model_spacing spacing_by_definition(std::uint16_t sequence, std::span<const std::uint16_t> baselines) {
    model_spacing s;
    s.ahead = gap_by_definition(sequence, baselines[0]);
    if (baselines.size() > 1) s.span = gap_by_definition(baselines[0], baselines[1]);
    if (baselines.size() > 2) s.span2 = gap_by_definition(baselines[1], baselines[2]);
    return s;
}

/// round(n / d) to the nearest, halves away from zero (d > 0): a quotient and a remainder.
constexpr std::int64_t rounded_by_definition(std::int64_t n, std::int64_t d) noexcept {
    std::int64_t q = n / d;
    const std::int64_t rem = n % d;
    if (2 * (rem < 0 ? -rem : rem) >= d) q += n < 0 ? -1 : 1;
    return q;
}

/// A predicted code by the documented rule (c2 null: no third baseline's code).
constexpr std::uint64_t code_by_definition(std::uint64_t c0u, std::uint64_t c1u, const std::uint64_t* c2u,
                                           const model_spacing& s, std::int64_t num, std::int64_t den,
                                           std::uint64_t max) noexcept {
    const auto c0 = static_cast<std::int64_t>(c0u), c1 = static_cast<std::int64_t>(c1u);
    const std::int64_t step = c0 - c1;
    if (step == 0 || s.span == 0) return c0u;
    if (c2u != nullptr && s.span2 != 0) {
        const std::int64_t earlier = c1 + rounded_by_definition((c1 - static_cast<std::int64_t>(*c2u)) * s.span, s.span2);
        const std::int64_t miss = c0 - earlier;
        if ((miss < 0 ? -miss : miss) >= (step < 0 ? -step : step)) return c0u;
    }
    const std::int64_t p = c0 + rounded_by_definition(step * num * s.ahead, s.span * den);
    if (p < 0) return 0;
    return static_cast<std::uint64_t>(p) > max ? max : static_cast<std::uint64_t>(p);
}

/// The prediction of a Swarm by the rule, from its baselines newest first (1 to 3).
inline Swarm predicted_by_model(const model_spacing& spacing, std::span<const Swarm* const> b) {
    Swarm out = *b[0];
    if (b.size() < 2 || spacing.span == 0) return out;
    const Swarm& b0 = *b[0];
    const Swarm& b1 = *b[1];
    const Swarm* b2 = b.size() > 2 && spacing.span2 != 0 ? b[2] : nullptr;
    // One integer value of [lo, hi] (code v - lo), from its values in the baselines.
    const auto integer = [&](auto& o, auto v0, auto v1, const auto* v2, std::int64_t lo, std::int64_t hi,
                             std::int64_t num, std::int64_t den) {
        const auto code = [lo](auto v) { return static_cast<std::uint64_t>(static_cast<std::int64_t>(v) - lo); };
        const std::uint64_t c2 = v2 != nullptr ? code(*v2) : 0;
        const std::uint64_t c = code_by_definition(code(v0), code(v1), v2 != nullptr ? &c2 : nullptr, spacing, num, den,
                                                   static_cast<std::uint64_t>(hi - lo));
        o = static_cast<std::remove_reference_t<decltype(o)>>(static_cast<std::int64_t>(c) + lo);
    };
    // A float of [-64, 64] in steps of 1/64: code (v + 64) * 64, exact both ways.
    const auto fine = [&](float& o, float v0, float v1, const float* v2, std::int64_t num, std::int64_t den) {
        const auto code = [](float v) { return static_cast<std::uint64_t>((v + 64.f) * 64.f); };
        const std::uint64_t c2 = v2 != nullptr ? code(*v2) : 0;
        const std::uint64_t c = code_by_definition(code(v0), code(v1), v2 != nullptr ? &c2 : nullptr, spacing, num, den, 8192);
        o = static_cast<float>(c) / 64.f - 64.f;
    };
    const auto ptr = [&](auto member) { return b2 != nullptr ? &(b2->*member) : nullptr; };
    integer(out.tick, b0.tick, b1.tick, ptr(&Swarm::tick), 0, 1000, 1, 1);
    fine(out.x, b0.x, b1.x, ptr(&Swarm::x), 1, 1);
    fine(out.y, b0.y, b1.y, ptr(&Swarm::y), 3, 4);
    integer(out.hp, b0.hp, b1.hp, ptr(&Swarm::hp), 0, 100, 1, 2);
    if (b0.boosting && b1.boosting && (b2 == nullptr || b2->boosting)) // only_if: sent by every baseline
        integer(out.boost, b0.boost, b1.boost, ptr(&Swarm::boost), -500, 500, 1, 1);
    {
        const netser::quantization q = netser::smallest_three{9}.params();
        const auto fields = [&](const Quat& r) {
            return netser::detail::smallest_three_write(std::array<float, 4>{r.x, r.y, r.z, r.w}, q);
        };
        // The older baselines' fields re-expressed with b0's largest component, each code
        // extrapolated; P holds the rotation they read as when that rotation's plain
        // fields are they (a fixed point), else b0's.
        using netser::detail::smallest_three_reexpress;
        const auto f0 = fields(b0.rotation);
        const auto f1 = smallest_three_reexpress(fields(b1.rotation), f0.largest, q.max_int);
        const auto f2 = b2 != nullptr ? smallest_three_reexpress(fields(b2->rotation), f0.largest, q.max_int) : f1;
        auto f = f0;
        for (std::size_t k = 0; k < 3; ++k) {
            const std::uint64_t c2 = f2.codes[k];
            f.codes[k] = static_cast<std::uint32_t>(
                code_by_definition(f0.codes[k], f1.codes[k], b2 != nullptr ? &c2 : nullptr, spacing, 1, 1, q.max_int));
        }
        const auto d = netser::detail::smallest_three_decode(f, q);
        if (netser::detail::smallest_three_plain(d, q) == f) out.rotation = {d[0], d[1], d[2], d[3]};
    }
    const auto common = [&](const auto& member) {
        std::size_t n = std::min((b0.*member).size(), (b1.*member).size());
        if (b2 != nullptr) n = std::min(n, (b2->*member).size());
        return n;
    };
    for (std::size_t i = 0, n = common(&Swarm::drones); i < n; ++i) {
        const Drone &d0 = b0.drones[i], &d1 = b1.drones[i];
        const Drone* d2 = b2 != nullptr ? &b2->drones[i] : nullptr;
        Drone& o = out.drones[i];
        integer(o.id, d0.id, d1.id, d2 != nullptr ? &d2->id : nullptr, 0, 63, 1, 1);
        fine(o.pos.x, d0.pos.x, d1.pos.x, d2 != nullptr ? &d2->pos.x : nullptr, 1, 1);
        fine(o.pos.y, d0.pos.y, d1.pos.y, d2 != nullptr ? &d2->pos.y : nullptr, 1, 1);
        integer(o.climb, d0.climb, d1.climb, d2 != nullptr ? &d2->climb : nullptr, -300, 300, 1, 1);
    }
    for (std::size_t i = 0, n = common(&Swarm::trail); i < n; ++i)
        integer(out.trail[i], b0.trail[i], b1.trail[i], b2 != nullptr ? &b2->trail[i] : nullptr, 0, 4095, 1, 1);
    integer(out.serial, b0.serial, b1.serial, ptr(&Swarm::serial), 0, 0xffffffff, 1, 1);
    {
        const netser::quantization q = netser::quantization::make(0.f, 10.f, 0.1f);
        const std::uint64_t c0 = q.encode(b0.heat), c1 = q.encode(b1.heat), c2 = b2 != nullptr ? q.encode(b2->heat) : 0;
        out.heat = q.decode(static_cast<std::uint32_t>(
            code_by_definition(c0, c1, b2 != nullptr ? &c2 : nullptr, spacing, 1, 1, q.max_int)));
    }
    for (std::size_t i = 0; i < out.spin.size(); ++i)
        integer(out.spin[i], b0.spin[i], b1.spin[i], b2 != nullptr ? &b2->spin[i] : nullptr, -1000, 1000, 5, 8);
    return out;
}

/// What a read of a predicted delta packet of Swarm gives against a ring, by the
/// documented layout: the error (code, and the bit where the documentation says), or
/// the value. The body is read with serialize_delta against predicted_by_model.
struct predicted_expectation {
    netser::errc code = netser::errc::none;
    std::optional<std::size_t> bit; ///< where the read fails, when the model says
    bool before_body = false;       ///< refused before anything is decoded: msg untouched
    Swarm value;                    ///< on success
    std::uint16_t sequence = 0;
    std::vector<std::uint16_t> baselines; ///< the header's, once read
};

// The stages before a predicted packet's body, by the documented layout: the CRC (`crc`:
// the stored CRC must be it), the header's fields, for a range-coded packet (`padded`) the
// zero bits to the byte, the order of the numbers, the ring's entries and the
// fingerprint. The prediction when they pass; otherwise `out` says how the read ends.
inline std::optional<Swarm> predicted_header_stage(std::span<const std::byte> packet,
                                                   const netser::baseline_ring<Swarm>& ring, std::uint32_t crc,
                                                   bool padded, predicted_expectation& out) {
    using netser::errc;
    const std::size_t bits = packet.size() * 8;
    const auto refuse = [&](errc code, std::optional<std::size_t> bit) -> std::optional<Swarm> {
        out.code = code;
        out.bit = bit;
        out.before_body = true;
        return std::nullopt;
    };
    if (packet.size() < 4) return refuse(errc::overflow, std::nullopt);
    if (stored_crc(packet) != crc) return refuse(errc::bad_crc, 0);
    if (bits < 50) return refuse(errc::overflow, std::nullopt);
    const auto count_field = field_of(packet, 48, 2);
    if (count_field == 3) return refuse(errc::out_of_range, 48);
    const std::size_t count = static_cast<std::size_t>(count_field) + 1;
    const std::size_t body = predicted_body_bit(count);
    if (bits < body) return refuse(errc::overflow, std::nullopt);
    // A range-coded body starts at a byte: the bits before it are zero (invalid_value there).
    if (padded && field_of(packet, body, (8 - body % 8) % 8) != 0) return refuse(errc::invalid_value, body);
    out.sequence = static_cast<std::uint16_t>(field_of(packet, 32, 16));
    for (std::size_t i = 0; i < count; ++i)
        out.baselines.push_back(static_cast<std::uint16_t>(field_of(packet, predicted_baseline_field(i), 16)));
    // A packet is never numbered 0; the initial baseline (0) is older than every
    // snapshot and comes last.
    if (out.sequence == 0) return refuse(errc::invalid_value, 32);
    std::uint16_t newer = out.sequence;
    for (std::size_t i = 0; i < count; ++i) {
        const bool after_initial = i > 0 && newer == 0;
        if (after_initial || (out.baselines[i] != 0 && !newer_by_definition(newer, out.baselines[i])))
            return refuse(errc::invalid_value, predicted_baseline_field(i));
        newer = out.baselines[i];
    }
    std::array<const Swarm*, 3> values{};
    for (std::size_t i = 0; i < count; ++i) {
        const auto* e = ring.find(out.baselines[i]);
        if (e == nullptr) return refuse(errc::missing_baseline, padded ? (body + 7) / 8 * 8 : body); // the body's first bit
        values[i] = &e->value;
    }
    const std::span<const Swarm* const> named(values.data(), count);
    if (combined_fingerprint_by_definition(named) != field_of(packet, predicted_fingerprint_field(count), 32))
        return refuse(errc::baseline_mismatch, predicted_fingerprint_field(count));
    return predicted_by_model(spacing_by_definition(out.sequence, out.baselines), named);
}

inline predicted_expectation expect_predicted(std::span<const std::byte> packet,
                                              const netser::baseline_ring<Swarm>& ring) {
    using netser::errc;
    predicted_expectation out;
    const std::size_t bits = packet.size() * 8;
    const auto refuse = [&](errc code, std::optional<std::size_t> bit) {
        out.code = code;
        out.bit = bit;
        out.before_body = true;
        return out;
    };
    const auto prediction = predicted_header_stage(
        packet, ring, packet.size() >= 4 ? predicted_packet_crc<Swarm>(packet) : 0, false, out);
    if (!prediction) return out;
    const std::size_t count = out.baselines.size();
    netser::read_stream r(packet);
    for (std::size_t left = predicted_body_bit(count); left > 0;) {
        const std::size_t n = left < 32 ? left : 32;
        std::uint32_t skipped = 0;
        if (!netser::serialize_bits(r, skipped, static_cast<int>(n))) return refuse(errc::overflow, std::nullopt);
        left -= n;
    }
    Swarm value{};
    if (!netser::serialize_delta(r, value, *prediction)) {
        out.code = r.error().code;
        out.bit = r.error().bit;
        return out;
    }
    // The end check: zero bits to the byte, then end_of_packet_magic XOR the payload's bits.
    // Each failure there is reported at the check's first bit, trailing bytes at their first.
    const std::size_t at = r.bits_processed(), aligned = (at + 7) / 8 * 8;
    out.bit = at;
    if (field_of(packet, at, aligned - at) != 0) out.code = errc::invalid_value;
    else if (aligned + 32 > bits) out.code = errc::overflow;
    else if (field_of(packet, aligned, 32) != (documented_end_magic ^ static_cast<std::uint32_t>(at - 32)))
        out.code = errc::check_failed;
    else if (aligned + 32 != bits) out.code = errc::invalid_value, out.bit = aligned + 32;
    else out.bit.reset(), out.value = std::move(value);
    return out;
}

// --- range-coded predicted packets (docs/wire_format.md, "Range-coded packets") -------

/// FNV-1a 32 over a text's bytes, as check_magic is documented.
constexpr std::uint32_t fnv1a_by_definition(std::string_view text) noexcept {
    std::uint32_t h = 2166136261u;
    for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    return h;
}
/// range_coded_packet_salt as documented: check_magic("netser range-coded packet").
inline constexpr std::uint32_t documented_range_salt = fnv1a_by_definition("netser range-coded packet");

/// A prior's fingerprint by definition: 0 for none (the library default); else FNV-1a 32
/// over each entry in order, its slot then its 32 models, each 4 little-endian bytes.
inline std::uint32_t prior_fingerprint_by_definition(std::span<const netser::range_prior_entry> entries) {
    if (entries.empty()) return 0;
    std::uint32_t h = 2166136261u;
    const auto word = [&h](std::uint32_t v) {
        for (int k = 0; k < 4; ++k) h = (h ^ ((v >> (8 * k)) & 0xffu)) * 16777619u;
    };
    for (const auto& e : entries) {
        word(e.slot);
        for (const std::uint32_t m : e.models) word(m);
    }
    return h;
}

/// A coding of predicted packets' bodies: a prior (range-coded) and its documented
/// fingerprint, or none (bit-packed).
struct body_coding {
    const netser::range_prior* prior = nullptr;
    std::uint32_t fingerprint = 0;
    netser::packet_options options() const {
        netser::packet_options o;
        o.range = prior;
        return o;
    }
};

/// The CRC of a range-coded predicted packet of T by definition: the protocol id is T's
/// XOR the predicted salt XOR the range-coded salt XOR the prior's fingerprint.
template <class T>
std::uint32_t predicted_range_crc(std::span<const std::byte> packet, std::uint32_t prior_fingerprint) {
    return crc_over_protocol(netser::schema_hash<T>() ^ documented_predicted_salt ^ documented_range_salt ^ prior_fingerprint,
                             packet);
}
template <class T>
void patch_predicted_range_crc(std::span<std::byte> packet, std::uint32_t prior_fingerprint) {
    if (packet.size() >= 4) store_crc(packet, predicted_range_crc<T>(packet, prior_fingerprint));
}
/// The CRC of a predicted packet of T in a coding, by definition.
template <class T>
void patch_crc_of(std::span<std::byte> packet, const body_coding& c) {
    if (c.prior != nullptr) patch_predicted_range_crc<T>(packet, c.fingerprint);
    else patch_predicted_crc<T>(packet);
}

/// The byte where a range-coded packet's body starts (the header's bits, to the byte).
constexpr std::size_t predicted_range_body_byte(std::size_t count) noexcept { return (predicted_body_bit(count) + 7) / 8; }

/// What a read of a range-coded predicted packet of Swarm gives against a ring: the
/// header's stages as expect_predicted's (the CRC of the range-coded protocol id, then
/// zero bits to the byte), then the body, range_read_stream from that byte to the end
/// with the prior, serialize_delta against predicted_by_model: its error at the header's
/// bits plus its logical bit, check_failed at the body's last logical bit when the bytes
/// are not exactly the encoder's for the values read (ended_cleanly), else the value.
inline predicted_expectation expect_predicted_range(std::span<const std::byte> packet,
                                                    const netser::baseline_ring<Swarm>& ring, const body_coding& c) {
    predicted_expectation out;
    const auto prediction = predicted_header_stage(
        packet, ring, packet.size() >= 4 ? predicted_range_crc<Swarm>(packet, c.fingerprint) : 0, true, out);
    if (!prediction) return out;
    const std::size_t at = predicted_range_body_byte(out.baselines.size());
    const exact_bytes body(packet.subspan(at));
    netser::range_read_stream r(body.span(), *c.prior);
    Swarm value{};
    if (!netser::serialize_delta(r, value, *prediction)) {
        out.code = r.error().code;
        out.bit = 8 * at + r.error().bit;
    } else if (!r.ended_cleanly()) {
        out.code = netser::errc::check_failed;
        out.bit = 8 * at + r.bits_processed();
    } else {
        out.value = std::move(value);
    }
    return out;
}

/// What a read of a predicted packet in coding `c` gives.
inline predicted_expectation expect_predicted_in(std::span<const std::byte> packet,
                                                 const netser::baseline_ring<Swarm>& ring, const body_coding& c) {
    return c.prior != nullptr ? expect_predicted_range(packet, ring, c) : expect_predicted(packet, ring);
}

/// A prior trained on range-coded predicted packets of Swarm motions (each frame against
/// the prediction from the frames 6, 7 and 8 before it, as a game acked them), and its
/// fingerprint by definition: made once.
struct swarm_prior {
    std::vector<netser::range_prior_entry> entries;
    netser::range_prior prior;
    std::uint32_t fingerprint = 0;
    body_coding coding() const { return {&prior, fingerprint}; }
};
inline const swarm_prior& trained_swarm_prior() {
    static const swarm_prior p = [] {
        netser::range_statistics stats;
        std::vector<std::byte> buffer(4096);
        for (std::uint64_t seed = 0; seed < 24; ++seed)
            for (std::uint32_t n = 8; n < 32; ++n) {
                const Swarm b0 = swarm_frame(seed, n - 6), b1 = swarm_frame(seed, n - 7), b2 = swarm_frame(seed, n - 8);
                Swarm prediction;
                netser::predicted_baseline(prediction, netser::prediction_spacing{6, 1, 1}, b0, &b1, &b2);
                const Swarm frame = swarm_frame(seed, n);
                netser::range_write_stream w(buffer);
                w.set_statistics(&stats);
                if (!netser::serialize_delta(w, frame, prediction) || w.finish().empty())
                    finding("a Swarm frame does not range-code for training", "Swarm", &w.error());
            }
        swarm_prior out;
        out.entries = netser::trained_prior_entries(stats);
        out.prior = netser::range_prior(out.entries);
        out.fingerprint = prior_fingerprint_by_definition(out.entries);
        return out;
    }();
    return p;
}

/// The library default prior as a coding.
inline body_coding default_range_coding() { return {&netser::default_range_prior(), 0}; }

/// Bits written one at a time, least significant first (the bit packer's order), by hand.
struct bits_by_hand {
    std::vector<std::byte> bytes;
    std::size_t size = 0;

    void put(std::uint64_t v, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i, ++size) {
            if (size % 8 == 0) bytes.push_back(std::byte{0});
            if (((v >> i) & 1u) != 0) bytes.back() |= static_cast<std::byte>(1u << (size % 8));
        }
    }
    void copy(std::span<const std::byte> from, std::size_t at, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) put(field_of(from, at + i, 1), 1);
    }
};

/// A predicted header's fields as a forger writes them (count_field 3 included).
struct predicted_fields {
    std::uint16_t sequence = 0;
    std::uint32_t count_field = 0;
    std::vector<std::uint16_t> baselines;
    std::uint32_t fingerprint = 0;
};

/// The fields of a predicted packet's header (one that holds them), and where its body
/// lies: from the header's end to the payload's (its end check says how long it is).
inline predicted_fields fields_of_predicted(std::span<const std::byte> packet) {
    predicted_fields f;
    f.sequence = static_cast<std::uint16_t>(field_of(packet, 32, 16));
    f.count_field = static_cast<std::uint32_t>(field_of(packet, 48, 2));
    for (std::size_t i = 0; i <= f.count_field && i < 3; ++i)
        f.baselines.push_back(static_cast<std::uint16_t>(field_of(packet, predicted_baseline_field(i), 16)));
    f.fingerprint = static_cast<std::uint32_t>(field_of(packet, predicted_fingerprint_field(f.baselines.size()), 32));
    return f;
}
struct body_bits {
    std::size_t at = 0, bits = 0;
};
inline body_bits body_of_predicted(std::span<const std::byte> packet) {
    const std::size_t count = static_cast<std::size_t>(field_of(packet, 48, 2)) + 1;
    const auto payload = static_cast<std::size_t>(field_of(packet, packet.size() * 8 - 32, 32) ^ documented_end_magic);
    return {predicted_body_bit(count), 32 + payload - predicted_body_bit(count)};
}

/// A predicted packet of T built by hand from the documented layout: the header's
/// fields, the body's bits copied, zero bits to the byte, the end check, the CRC.
template <class T>
std::vector<std::byte> predicted_packet_by_hand(const predicted_fields& f, std::span<const std::byte> body_from,
                                                body_bits body) {
    bits_by_hand w;
    w.put(0, 32);
    w.put(f.sequence, 16);
    w.put(f.count_field, 2);
    for (const std::uint16_t b : f.baselines) w.put(b, 16);
    w.put(f.fingerprint, 32);
    w.copy(body_from, body.at, body.bits);
    const auto payload = static_cast<std::uint32_t>(w.size - 32);
    w.put(0, (8 - w.size % 8) % 8);
    w.put(documented_end_magic ^ payload, 32);
    patch_predicted_crc<T>(w.bytes);
    return std::move(w.bytes);
}

/// A range-coded predicted packet of T built by hand: the header's fields bit-packed, zero
/// bits to the byte, the coder's bytes `body`, the CRC of the prior's fingerprint.
template <class T>
std::vector<std::byte> predicted_range_packet_by_hand(const predicted_fields& f, std::span<const std::byte> body,
                                                      std::uint32_t prior_fingerprint) {
    bits_by_hand w;
    w.put(0, 32);
    w.put(f.sequence, 16);
    w.put(f.count_field, 2);
    for (const std::uint16_t b : f.baselines) w.put(b, 16);
    w.put(f.fingerprint, 32);
    w.put(0, (8 - w.size % 8) % 8);
    w.bytes.insert(w.bytes.end(), body.begin(), body.end());
    patch_predicted_range_crc<T>(w.bytes, prior_fingerprint);
    return std::move(w.bytes);
}

} // namespace netser_fuzz
