// The shapes of the delta benchmarks (delta_bench.cpp in ns, delta_overhead.cpp in
// instructions): a 901-cube snapshot (the demo's cube: a flag, a position quantized at
// 1/512 m, a smallest_three orientation) at rest and with 101 cubes moved and turned a
// little; 64 players of 10 members in a vector, a third changed; 128 units (integers,
// a described enum, an optional target), a quarter changed.
#pragma once

#include "reflected_types.hpp"

#include <netser/netser.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <vector>

namespace bench {

struct Position {
    float x = 0.f, y = 0.f, z = 0.f;
};
NETSER_STRUCT(Position, (x, netser::quantize(-64.f, 64.f, 1.f / 512.f)), (y, netser::quantize(-64.f, 64.f, 1.f / 512.f)),
              (z, netser::quantize(0.f, 32.f, 1.f / 512.f)))

struct Quat {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};
NETSER_STRUCT(Quat, x, y, z, w)

struct Cube {
    bool interacting = false;
    Position position;
    Quat orientation;
};
NETSER_STRUCT(Cube, interacting, position, (orientation, netser::smallest_three{9}))

struct Snapshot {
    std::array<Cube, 901> cubes;
};
NETSER_STRUCT(Snapshot, cubes)

struct Players {
    std::vector<netser_bench::Player10R> players;
};
NETSER_STRUCT(Players, (players, netser::max_size(64)))

BOOST_DEFINE_ENUM_CLASS(UnitState, idle, walking, attacking, dead)

struct Unit {
    std::uint16_t id = 0;
    UnitState state = UnitState::idle;
    int health = 0;
    std::int16_t x = 0, y = 0;
    std::optional<std::uint16_t> target;
    bool operator==(const Unit&) const = default;
};
NETSER_STRUCT(Unit, id, state, (health, netser::range(0, 1000)), (x, netser::range(-2048, 2047)),
              (y, netser::range(-2048, 2047)), (target, netser::range(0, 1023)))

struct Units {
    std::array<Unit, 128> units;
};
NETSER_STRUCT(Units, units)

template <class T>
inline std::unique_ptr<T> received(const T& value) {
    auto out = std::make_unique<T>();
    if (netser::as_received(value, *out)) std::abort();
    return out;
}

inline Quat rotation(std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (;;) {
        bench::Quat q{u(rng), u(rng), u(rng), u(rng)};
        const float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        if (n > 0.01f && n <= 1.f) {
            const float k = 1.f / std::sqrt(n);
            return {q.x * k, q.y * k, q.z * k, q.w * k};
        }
    }
}

// A grid at rest (the baseline, as received) and the same with `changed` cubes moved a
// few centimetres and turned a little.
struct snapshots {
    std::unique_ptr<Snapshot> base, now;
};
inline const snapshots& cube_snapshots() {
    static const snapshots s = [] {
        std::mt19937 rng(901);
        auto grid = std::make_unique<Snapshot>();
        for (std::size_t i = 0; i < 901; ++i)
            grid->cubes[i] = {false, {static_cast<float>(i % 30) * 2.f - 30.f, static_cast<float>(i / 30) * 2.f - 30.f, 0.5f},
                              rotation(rng)};
        snapshots out{received(*grid), nullptr};
        auto now = std::make_unique<Snapshot>(*out.base);
        std::uniform_real_distribution<float> step(-0.1f, 0.1f);
        for (std::size_t i = 0; i < 901; i += 9) {
            bench::Cube& c = now->cubes[i];
            c.interacting = true;
            c.position.x += step(rng);
            c.position.y += step(rng);
            c.orientation = {c.orientation.x + step(rng), c.orientation.y, c.orientation.z, c.orientation.w};
            const float n = std::sqrt(c.orientation.x * c.orientation.x + c.orientation.y * c.orientation.y +
                                      c.orientation.z * c.orientation.z + c.orientation.w * c.orientation.w);
            c.orientation = {c.orientation.x / n, c.orientation.y / n, c.orientation.z / n, c.orientation.w / n};
        }
        out.now = received(*now);
        return out;
    }();
    return s;
}

// 64 players, a third of them changed a little.
struct player_sets {
    bench::Players base, now;
};
inline const player_sets& players() {
    static const player_sets p = [] {
        std::mt19937 rng(64);
        std::uniform_real_distribution<float> pos(-1000.f, 1000.f), nudge(-2.f, 2.f);
        bench::Players b;
        b.players.resize(64);
        for (auto& pl : b.players) {
            pl.id = static_cast<std::uint32_t>(rng());
            pl.health = static_cast<int>(rng() % 101);
            pl.x = pos(rng);
            pl.y = pos(rng);
            pl.z = pos(rng);
            pl.weapon = static_cast<std::uint8_t>(rng() % 8);
            pl.ammo = static_cast<std::uint16_t>(rng() % 1024);
        }
        player_sets out{*received(b), {}};
        out.now = out.base;
        for (std::size_t i = 0; i < 64; i += 3) {
            out.now.players[i].x += nudge(rng);
            out.now.players[i].moving = !out.now.players[i].moving;
        }
        return out;
    }();
    return p;
}

struct unit_sets {
    Units base, now;
};
inline const unit_sets& units() {
    static const unit_sets u = [] {
        std::mt19937 rng(128);
        Units b;
        for (std::size_t i = 0; i < b.units.size(); ++i) {
            Unit& n = b.units[i];
            n.id = static_cast<std::uint16_t>(i * 7);
            n.state = static_cast<UnitState>(rng() % 4);
            n.health = static_cast<int>(rng() % 1001);
            n.x = static_cast<std::int16_t>(static_cast<int>(rng() % 4096) - 2048);
            n.y = static_cast<std::int16_t>(static_cast<int>(rng() % 4096) - 2048);
            if (rng() % 2 != 0) n.target = static_cast<std::uint16_t>(rng() % 1024);
        }
        unit_sets out{*received(b), {}};
        out.now = out.base;
        for (std::size_t i = 0; i < out.now.units.size(); i += 4) {
            Unit& n = out.now.units[i];
            n.x = static_cast<std::int16_t>(n.x + static_cast<int>(rng() % 9) - 4);
            n.health = n.health > 10 ? n.health - 10 : 1000;
            if (i % 8 == 0) n.target = n.target ? std::nullopt : std::optional<std::uint16_t>(static_cast<std::uint16_t>(i));
            if (i % 16 == 0) n.state = UnitState::attacking;
        }
        return out;
    }();
    return u;
}

} // namespace bench
