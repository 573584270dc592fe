#include "cube_world.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

namespace snapshot {

namespace {

// Units: metres, seconds. z is up; the ground is z = 0; a cube is 1 m wide and
// collides as a sphere of radius 0.5.
constexpr float radius = 0.5f;
constexpr float gravity = 9.8f;
constexpr float world_half_width = 60.f;  // inside position_xy's [-64, 64]
constexpr float world_height = 30.f;      // inside position_z's [0, 32]
constexpr float max_speed = 15.f;         // per axis, inside velocity's [-16, 16]
constexpr float ground_bounce = 0.3f;
constexpr float cube_bounce = 0.2f;
constexpr float friction_decel = 5.f;     // m/s^2 while sliding on the ground
constexpr float contact_slop = 0.01f;     // overlap tolerated without a push
constexpr float wake_speed = 0.3f;        // approach speed that wakes a sleeping cube
constexpr float sleep_speed = 0.1f;
constexpr float sleep_spin = 0.2f;
constexpr int sleep_after = 30;           // substeps below the sleep thresholds
constexpr std::size_t substeps = 2;

vec3 operator+(vec3 a, vec3 b) noexcept { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
vec3 operator-(vec3 a, vec3 b) noexcept { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
vec3 operator*(vec3 a, float k) noexcept { return {a.x * k, a.y * k, a.z * k}; }
float dot(vec3 a, vec3 b) noexcept { return a.x * b.x + a.y * b.y + a.z * b.z; }
vec3 cross(vec3 a, vec3 b) noexcept {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

quat normalized(quat q) noexcept {
    const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {q.x / n, q.y / n, q.z / n, q.w / n};
}

// q' = q + h/2 * (w, 0) * q, renormalized.
quat integrate(quat q, vec3 w, float h) noexcept {
    const float k = 0.5f * h;
    const quat d{w.x * q.w + w.y * q.z - w.z * q.y, w.y * q.w + w.z * q.x - w.x * q.z,
                 w.z * q.w + w.x * q.y - w.y * q.x, -(w.x * q.x + w.y * q.y + w.z * q.z)};
    return normalized({q.x + k * d.x, q.y + k * d.y, q.z + k * d.z, q.w + k * d.w});
}

float clamp_speed(float v) noexcept { return std::clamp(v, -max_speed, max_speed); }

// std::mt19937's output is fixed by the standard; the distributions are not, so
// floats are made here, bit for bit the same everywhere.
class random_source {
public:
    explicit random_source(std::uint32_t seed) : engine_(seed) {}
    float uniform(float lo, float hi) {
        const float unit = static_cast<float>(engine_() >> 8) * (1.f / 16777216.f);
        return lo + (hi - lo) * unit;
    }
    // A rotation about z (a yaw), from a random direction: no sin/cos, so no libm differences.
    quat yaw() {
        for (;;) {
            const float z = uniform(-1.f, 1.f), w = uniform(-1.f, 1.f);
            const float n = z * z + w * w;
            if (n > 0.01f && n <= 1.f) return normalized({0.f, 0.f, z, w});
        }
    }
    quat any_rotation() {
        for (;;) {
            const quat q{uniform(-1.f, 1.f), uniform(-1.f, 1.f), uniform(-1.f, 1.f), uniform(-1.f, 1.f)};
            const float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
            if (n > 0.01f && n <= 1.f) return normalized(q);
        }
    }

private:
    std::mt19937 engine_;
};

} // namespace

CubeWorld::CubeWorld(std::uint32_t seed) {
    random_source rng(seed);
    bodies_.reserve(cube_count);
    // 29 x 29 = 841 cubes asleep on the ground, 2 m apart.
    constexpr int grid = 29;
    for (int row = 0; row < grid; ++row) {
        for (int col = 0; col < grid; ++col) {
            Body b;
            b.position = {-28.f + 2.f * static_cast<float>(col), -28.f + 2.f * static_cast<float>(row), radius};
            b.orientation = rng.yaw();
            bodies_.push_back(b);
        }
    }
    // A 3 x 4 x 5 block of 60 cubes, thrown from beyond the grid's west edge into it.
    for (int k = 0; k < 5; ++k) {
        for (int j = 0; j < 4; ++j) {
            for (int i = 0; i < 3; ++i) {
                Body b;
                b.position = {-36.f + 1.1f * static_cast<float>(i), -6.f + 1.1f * static_cast<float>(j),
                              2.f + 1.1f * static_cast<float>(k)};
                b.linear_velocity = {11.f + rng.uniform(-1.f, 1.f), 2.5f + rng.uniform(-0.5f, 0.5f),
                                     3.f + rng.uniform(-0.5f, 0.5f)};
                b.angular_velocity = {rng.uniform(-4.f, 4.f), rng.uniform(-4.f, 4.f), rng.uniform(-4.f, 4.f)};
                b.orientation = rng.any_rotation();
                b.awake = true;
                bodies_.push_back(b);
            }
        }
    }
    ever_awake_.assign(bodies_.size(), false);
    for (std::size_t i = 0; i < bodies_.size(); ++i) ever_awake_[i] = bodies_[i].awake;
}

void CubeWorld::step() {
    const float h = 1.f / static_cast<float>(snapshots_per_second * substeps);
    for (std::size_t s = 0; s < substeps; ++s) substep(h);
    ++ticks_;
}

void CubeWorld::wake(std::size_t i) noexcept {
    bodies_[i].awake = true;
    bodies_[i].still_ticks = 0;
    ever_awake_[i] = true;
}

void CubeWorld::substep(float h) {
    // Integrate the awake bodies.
    for (Body& b : bodies_) {
        if (!b.awake) continue;
        b.linear_velocity.z -= gravity * h;
        b.position = b.position + b.linear_velocity * h;
        b.orientation = integrate(b.orientation, b.angular_velocity, h);

        // The ground: bounce, slide with friction, roll.
        if (b.position.z <= radius) {
            b.position.z = radius;
            if (b.linear_velocity.z < 0.f) {
                b.linear_velocity.z = -b.linear_velocity.z * ground_bounce;
                if (b.linear_velocity.z < 0.5f) b.linear_velocity.z = 0.f;
            }
            const float speed = std::sqrt(b.linear_velocity.x * b.linear_velocity.x +
                                          b.linear_velocity.y * b.linear_velocity.y);
            const float slowed = std::max(speed - friction_decel * h, 0.f);
            const float k = speed > 0.f ? slowed / speed : 0.f;
            b.linear_velocity.x *= k;
            b.linear_velocity.y *= k;
            const vec3 rolling = cross({0.f, 0.f, 1.f}, b.linear_velocity) * (1.f / radius);
            b.angular_velocity = b.angular_velocity + (rolling - b.angular_velocity) * 0.2f;
        } else {
            b.angular_velocity = b.angular_velocity * 0.998f;
        }

        // The walls of the world keep every value inside its quantization bounds.
        const auto wall = [](float& p, float& v) {
            if (p < -world_half_width || p > world_half_width) {
                p = std::clamp(p, -world_half_width, world_half_width);
                v = -v * ground_bounce;
            }
        };
        wall(b.position.x, b.linear_velocity.x);
        wall(b.position.y, b.linear_velocity.y);
        if (b.position.z > world_height) {
            b.position.z = world_height;
            b.linear_velocity.z = std::min(b.linear_velocity.z, 0.f);
        }
    }

    // Push overlapping cubes apart. Pairs of sleeping cubes are skipped: they do not move.
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
        if (!bodies_[i].awake) continue;
        for (std::size_t j = 0; j < bodies_.size(); ++j)
            if (j != i && !(bodies_[j].awake && j < i)) collide(i, j);
    }

    // Clamp speeds, then put bodies that stayed slow long enough to sleep.
    for (Body& b : bodies_) {
        if (!b.awake) continue;
        vec3& v = b.linear_velocity;
        v = {clamp_speed(v.x), clamp_speed(v.y), clamp_speed(v.z)};
        const bool slow = dot(v, v) < sleep_speed * sleep_speed &&
                          dot(b.angular_velocity, b.angular_velocity) < sleep_spin * sleep_spin;
        b.still_ticks = slow ? b.still_ticks + 1 : 0;
        if (b.still_ticks >= sleep_after) {
            b.awake = false;
            b.linear_velocity = {};
            b.angular_velocity = {};
        }
    }
}

// Body i is awake; j is awake (and j > i) or asleep.
void CubeWorld::collide(std::size_t i, std::size_t j) {
    Body& a = bodies_[i];
    Body& b = bodies_[j];
    const vec3 d = b.position - a.position;
    if (std::fabs(d.x) >= 2.f * radius || std::fabs(d.y) >= 2.f * radius) return; // cheap reject
    const float dist2 = dot(d, d);
    if (dist2 >= 4.f * radius * radius) return;
    const float dist = std::sqrt(dist2);
    const vec3 n = dist > 1e-6f ? d * (1.f / dist) : vec3{1.f, 0.f, 0.f};
    const float push = std::max(2.f * radius - dist - contact_slop, 0.f);
    const float approach = dot(a.linear_velocity - b.linear_velocity, n);

    if (!b.awake && approach > wake_speed) wake(j);
    if (b.awake) {
        a.position = a.position - n * (0.5f * push);
        b.position = b.position + n * (0.5f * push);
        if (approach > 0.f) {
            const float impulse = 0.5f * (1.f + cube_bounce) * approach;
            a.linear_velocity = a.linear_velocity - n * impulse;
            b.linear_velocity = b.linear_velocity + n * impulse;
            // A glancing blow spins both.
            const vec3 spin = cross(n, a.linear_velocity - b.linear_velocity) * 0.5f;
            a.angular_velocity = a.angular_velocity - spin;
            b.angular_velocity = b.angular_velocity - spin;
        }
    } else { // a sleeping cube is as good as static
        a.position = a.position - n * push;
        if (approach > 0.f) a.linear_velocity = a.linear_velocity - n * ((1.f + cube_bounce) * approach);
    }
    a.position.z = std::max(a.position.z, radius);
    b.position.z = std::max(b.position.z, radius);
}

std::size_t CubeWorld::moving() const noexcept {
    const auto awake = std::count_if(bodies_.begin(), bodies_.end(), [](const Body& b) { return b.awake; });
    return static_cast<std::size_t>(awake);
}

std::size_t CubeWorld::ever_moved() const noexcept {
    return static_cast<std::size_t>(std::count(ever_awake_.begin(), ever_awake_.end(), true));
}

std::uint32_t CubeWorld::state_hash() const noexcept {
    std::uint32_t h = 2166136261u;
    const auto mix = [&h](float v) {
        const auto bits = std::bit_cast<std::uint32_t>(v);
        for (int i = 0; i < 4; ++i) {
            h ^= (bits >> (8 * i)) & 0xFFu;
            h *= 16777619u;
        }
    };
    for (const Body& b : bodies_) {
        for (const vec3& v : {b.position, b.linear_velocity, b.angular_velocity}) {
            mix(v.x);
            mix(v.y);
            mix(v.z);
        }
        mix(b.orientation.x);
        mix(b.orientation.y);
        mix(b.orientation.z);
        mix(b.orientation.w);
    }
    return h;
}

CubeState CubeWorld::state(std::size_t i) const noexcept {
    const Body& b = bodies_[i];
    return {b.awake, to_position(b.position), b.linear_velocity, b.orientation};
}

} // namespace snapshot
