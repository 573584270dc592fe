#pragma once

// The server's world, after the scene of Glenn Fiedler's "Snapshot Compression": 900
// cubes of 1 m asleep on a 30 x 30 grid and a player cube of 3 m (cube 0) that drives
// through them for the whole run and knocks them about. The player's script: charge
// into the grid, then again and again head for a cube at rest in a crowded spot, picked
// at random, at a constant speed and a bounded turn rate, rolling as it goes.
//
// A small deterministic physics: gravity, a ground plane, bodies pushed apart with
// impulses weighted by mass (cubes meet as spheres, the player as an upright cylinder),
// friction (a cube on the ground slides more than it rolls), hits that push cubes
// along and tip them a little, angular velocity integrated into the orientation, sleep for cubes at rest, and a uniform grid as broad phase. No libm
// transcendental functions, no threads: the same states bit for bit on every IEEE
// host, for a given seed.

#include "snapshot_types.hpp"

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace snapshot {

struct Body {
    vec3 position;
    vec3 linear_velocity;
    vec3 angular_velocity;
    quat orientation;
    float radius = 0.5f; ///< half the cube's width: how far it reaches in a collision
    float inverse_mass = 1.f;
    bool awake = false;
    int still_ticks = 0; ///< consecutive slow substeps; the body sleeps after enough
};

class CubeWorld {
public:
    static constexpr std::uint32_t default_seed = 901;
    static constexpr std::size_t player = 0; ///< the index of the player cube

    explicit CubeWorld(std::uint32_t seed = default_seed);

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

    /// The networked state of cube i (velocity exactly zero while asleep).
    CubeState state(std::size_t i) const noexcept;

private:
    void substep(float h);
    void drive_player();
    std::size_t choose_target();
    std::size_t crowd(std::size_t i) const noexcept;
    void sort_into_cells();
    void collide_all();
    void collide(std::size_t i, std::size_t j);
    void wake(std::size_t i) noexcept;

    std::vector<Body> bodies_;
    std::vector<bool> ever_awake_;
    std::size_t ticks_ = 0;

    // The player's driver.
    std::mt19937 chooser_;                    ///< its choices of targets
    std::size_t target_ = 0;                  ///< the cube it heads for; 0 (itself) until chosen
    int chase_ticks_ = 0;                     ///< substeps spent on this target
    float heading_x_ = 1.f, heading_y_ = 0.f; ///< unit direction of travel: east at the start

    // Broad phase: bodies sorted by cell of a uniform grid (a counting sort, so each
    // cell lists its bodies by index), rebuilt every substep.
    std::vector<std::uint32_t> cell_start_; ///< where cell c starts in cell_bodies_; then the end
    std::vector<std::uint32_t> cell_fill_;  ///< scratch of the sort
    std::vector<std::uint32_t> cell_bodies_;
    std::vector<std::uint32_t> body_cell_;
};

} // namespace snapshot
