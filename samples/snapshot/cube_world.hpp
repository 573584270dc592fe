#pragma once

// The server's world: 901 cubes under a small deterministic physics (gravity, a
// ground plane, cubes pushed apart as spheres, friction and damping, angular
// velocity integrated into the orientation). 841 cubes sleep on a grid; a cluster
// of 60 is thrown into them, wakes some, and everything comes to rest.
// Same seed, same build: the same states, tick after tick.

#include "snapshot_types.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace snapshot {

struct Body {
    vec3 position;
    vec3 linear_velocity;
    vec3 angular_velocity;
    quat orientation;
    bool awake = false;
    int still_ticks = 0; ///< consecutive slow substeps; the body sleeps after enough
};

class CubeWorld {
public:
    static constexpr std::uint32_t default_seed = 901;

    explicit CubeWorld(std::uint32_t seed = default_seed);

    /// Advances the world by one snapshot interval (1/60 s).
    void step();

    const std::vector<Body>& bodies() const noexcept { return bodies_; }
    std::size_t ticks() const noexcept { return ticks_; }
    std::size_t moving() const noexcept;
    /// Cubes that were ever awake since the start (the cluster plus those it hit).
    std::size_t ever_moved() const noexcept;
    /// FNV-1a over the bits of every body's state: equal runs give equal hashes.
    std::uint32_t state_hash() const noexcept;

    /// The networked state of cube i (velocity exactly zero while asleep).
    CubeState state(std::size_t i) const noexcept;

private:
    void substep(float h);
    void collide(std::size_t i, std::size_t j);
    void wake(std::size_t i) noexcept;

    std::vector<Body> bodies_;
    std::vector<bool> ever_awake_;
    std::size_t ticks_ = 0;
};

} // namespace snapshot
