#pragma once

// The session's world: 768 units that march across a 120 m field for two seconds and
// halt for one (so each client falls behind its budget and catches up again), and up to
// 24 players that come and go, each with its own id (a keyed vector: the deltas name
// players by id). One World is one snapshot, as the clients hold it: described with
// NETSER_STRUCT, quantized by its encoding. Deterministic for a given seed.

#include <netser/netser.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace session {

inline constexpr std::size_t unit_count = 768;
inline constexpr std::size_t max_players = 24;
inline constexpr int ticks_per_second = 30; ///< world steps and snapshots per second

/// Positions in [-64, 64) m in steps of 1/32 m (12 bits); a change goes as its
/// difference from the baseline through these ranges of steps.
inline constexpr auto coordinate = netser::quantize(-64.f, 64.f - 1.f / 32, 1.f / 32);
inline constexpr auto coordinate_ladder = netser::delta_ladder(4, 16, 64, 256);

struct Unit {
    bool moving = false;
    float x = 0.f, y = 0.f;
};
NETSER_STRUCT(Unit, moving, (x, coordinate, coordinate_ladder), (y, coordinate, coordinate_ladder))

struct Player {
    std::uint16_t id = 0;
    float x = 0.f, y = 0.f;
    std::uint8_t score = 0;
};
NETSER_STRUCT(Player, id, (x, coordinate, coordinate_ladder), (y, coordinate, coordinate_ladder), score)

struct World {
    std::array<Unit, unit_count> units;
    std::vector<Player> players; ///< in slot order; a slot's player gets a new id each time it spawns
};
NETSER_STRUCT(World, units, (players, netser::max_size(max_players), netser::keyed(&Player::id)))

/// Bit for bit (floats compared as bits).
bool same_unit(const Unit& a, const Unit& b) noexcept;
bool same_world(const World& a, const World& b) noexcept;

/// The simulation behind the snapshots.
class Simulation {
public:
    explicit Simulation(std::uint32_t seed);

    /// Advances one tick (1 / ticks_per_second).
    void step();
    /// The current state as a client decodes it (quantized).
    const World& snapshot() const noexcept { return snapshot_; }
    std::uint32_t tick() const noexcept { return tick_; }

    /// The start state (tick 0): both sides construct it from the seed, as the initial
    /// baseline (netser::initial_sequence).
    static World initial(std::uint32_t seed) { return Simulation(seed).snapshot(); }

private:
    struct Walker {
        float x, y, to_x, to_y, speed;
    };
    void publish();

    std::mt19937 rng_;
    std::vector<Walker> walkers_;
    std::uint32_t tick_ = 0;
    World snapshot_;
};

} // namespace session
