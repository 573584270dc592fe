#pragma once

// The server's world, after the scene of Glenn Fiedler's "Networked Physics" and
// "Snapshot Compression" articles, on the Open Dynamics Engine as his was: 900 cubes of
// 1 m asleep on a 30 x 30 grid and a player cube of 3 m (cube 0). The player is driven by
// a force and a torque, so it rolls and tumbles; it knocks cubes about, and in its
// gathering spells (the first starts at once) it pulls the cubes near it towards itself
// and drags them along (katamari): they pile onto it and the ball rolls with it, and at
// the end of a spell it hops and throws them off. Cubes touched by moving cubes wake in
// turn (ODE's islands), so interaction fans out from cube to cube; cubes at rest fall
// asleep again (ODE's auto-disable).
//
// The seed drives the player (its targets, its spells, ODE's own random source); the
// layout of the cubes is the same for every seed, so every seed starts from the same
// initial state. The same seed on the same build gives the same states bit for bit.
// Every networked value stays inside the bounds of snapshot_types.hpp: walls at +-60 m,
// speeds at most 15 m/s per axis, heights under 30 m.

#include "snapshot_types.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

namespace snapshot {

/// A body's state as of the last step, copied out of the engine.
struct Body {
    vec3 position;
    vec3 linear_velocity;
    vec3 angular_velocity;
    quat orientation;
    float radius = 0.5f;      ///< half the cube's width
    float inverse_mass = 1.f; ///< a cube of 1 m weighs 1
    bool awake = false;       ///< enabled in ODE: moving, or touched by something that moves
};

class CubeWorld {
public:
    static constexpr std::uint32_t default_seed = 901;
    static constexpr std::size_t player = 0; ///< the index of the player cube

    explicit CubeWorld(std::uint32_t seed = default_seed);
    ~CubeWorld();
    CubeWorld(const CubeWorld&) = delete;
    CubeWorld& operator=(const CubeWorld&) = delete;

    /// Advances the world by one snapshot interval (1/60 s).
    void step();

    const std::vector<Body>& bodies() const noexcept { return bodies_; }
    std::size_t ticks() const noexcept { return ticks_; }
    /// Awake cubes, the player included.
    std::size_t moving() const noexcept;
    /// Cubes that were ever awake since the start (the player and every cube it reached).
    std::size_t ever_moved() const noexcept;
    /// FNV-1a over the bits of every body's state: equal runs give equal hashes.
    std::uint32_t state_hash() const noexcept;
    /// Whether the player is pulling cubes towards itself now.
    bool gathering() const noexcept { return gathering_; }

    /// The networked state of cube i (velocity exactly zero while asleep).
    CubeState state(std::size_t i) const noexcept;

private:
    struct engine; // the ODE world, its bodies and geoms (cube_world.cpp)

    void drive_player();
    void pull_towards_player();
    void keep_in_bounds();
    void read_back();
    std::size_t choose_target();
    std::size_t crowd(std::size_t i) const noexcept;

    std::unique_ptr<engine> ode_;
    std::vector<Body> bodies_;
    std::vector<bool> ever_awake_;
    std::size_t ticks_ = 0;

    // The player's driver.
    std::mt19937 chooser_;     ///< its choices: targets, spells
    std::size_t target_ = 0;   ///< the cube it heads for; 0 (itself) until chosen
    int chase_ticks_ = 0;      ///< ticks spent on this target
    bool gathering_ = false;   ///< pulling cubes in (katamari)
    int spell_ticks_ = 0;      ///< ticks left in the current spell (gathering or not)
};

} // namespace snapshot
