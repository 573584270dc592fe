// Bit-identical results need every rounding the source asks for: no a * b + c fused
// into one multiply-add, which g++ and clang do by default where the machine has FMA
// (s390x, arm64, x86-64 built with -march=native). Before every include: placed after
// them, g++ 12 still fused in CubeWorld's constructor.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "cube_world.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

namespace snapshot {

namespace {

// Units: metres, seconds. z is up; the ground is z = 0.
constexpr float cube_radius = 0.5f;               // 1 m cubes
constexpr float player_radius = 1.5f;             // the player is a 3 m cube
constexpr float player_inverse_mass = 1.f / 27.f; // 27 times a cube's volume
constexpr int grid = 30;                          // 30 x 30 = 900 cubes
constexpr float grid_spacing = 1.1f; // centre to centre: 10 cm gaps, so a hit runs on through the grid

constexpr float gravity = 9.8f;
constexpr float world_half_width = 60.f; // inside position_xy's [-64, 64]
constexpr float world_height = 30.f;     // inside position_z's [0, 32]
constexpr float max_speed = 15.f;        // per axis, inside velocity's [-16, 16]
constexpr float ground_bounce = 0.3f;
constexpr float cube_bounce = 0.4f;
constexpr float player_bounce = 0.5f;    // the player's hits send cubes off ahead of it
constexpr float friction_decel = 8.f;    // m/s^2 while sliding on the ground
constexpr float contact_slop = 0.01f;    // overlap tolerated without a push
constexpr float wake_speed = 1.0f;       // m/s: a hit that would give a cube at rest less does not move it
constexpr float tumble = 0.05f;          // rad/s of tipping over per m/s a hit gives a cube
constexpr float spin_follow = 0.2f;      // share of the gap to roll_share closed per substep on the ground
constexpr float roll_share = 0.05f;      // of the rolling spin: a cube on the ground slides more than it rolls
constexpr float glance = 0.15f;          // spin per m/s of a glancing blow's sideways speed
constexpr float air_spin_keep = 0.998f;  // per substep in the air
constexpr float sleep_speed = 0.1f;
constexpr float sleep_spin = 0.2f;
constexpr int sleep_after = 15;          // substeps below the sleep thresholds
constexpr std::size_t substeps = 2;
constexpr float substep_seconds = 1.f / static_cast<float>(snapshots_per_second * substeps);

// The player's driving. Cruising alone, the first second would see few cubes changing
// per 6 frames, the rest of the run around 90: the charge evens that out (about 90 over
// a one-second run, 105 over five seconds, 85 over twenty).
constexpr float charge_speed = 11.f;       // m/s, held by its motor: first it charges into the grid
constexpr std::size_t charge_ticks = 60;   //   for a second,
constexpr float player_speed = 8.f;        //   then it cruises
constexpr float player_turn_rate = 1.5f;   // rad/s at most: a turning circle of 5.3 m radius at 8 m/s
constexpr float steer_share = 0.2f;        // of the velocity error its motor corrects per substep
constexpr float target_min_distance = 8.f; // a target closer than this may sit inside the turning circle
constexpr int chase_limit = 600;           // substeps (5 s) before it gives up on a target
constexpr int target_candidates = 8;       // cubes drawn for each choice of target
constexpr int crowd_reach = 2;             // cells each way counted around a candidate: a 10 m square

// Broad phase: square cells over [-62, 62]. A pair in contact is at most one cell apart
// when a cell is as wide as the longest reach (the player's radius plus a cube's).
constexpr float cell_size = 2.f;
constexpr float cell_origin = -62.f;
constexpr int cells_per_axis = 62;
static_assert(cell_size >= player_radius + cube_radius,
              "netser: make cell_size at least the longest reach, or contacts across two cells are missed");
static_assert(-cell_origin >= world_half_width + cell_size &&
                  cell_origin + cell_size * cells_per_axis >= world_half_width + cell_size,
              "netser: make the cells cover the world with a cell to spare at each wall");

vec3 operator+(vec3 a, vec3 b) noexcept { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
vec3 operator-(vec3 a, vec3 b) noexcept { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
vec3 operator*(vec3 a, float k) noexcept { return {a.x * k, a.y * k, a.z * k}; }
float dot(vec3 a, vec3 b) noexcept { return a.x * b.x + a.y * b.y + a.z * b.z; }
vec3 cross(vec3 a, vec3 b) noexcept {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
constexpr vec3 up{0.f, 0.f, 1.f};

quat normalized(quat q) noexcept {
    const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {q.x / n, q.y / n, q.z / n, q.w / n};
}

// q' = q + h/2 * (w, 0) * q, renormalized.
quat integrate_rotation(quat q, vec3 w, float h) noexcept {
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

private:
    std::mt19937 engine_;
};

int cell_of(float v) noexcept {
    return std::clamp(static_cast<int>((v - cell_origin) / cell_size), 0, cells_per_axis - 1);
}

// Where two bodies touch: the normal from a to b and how deep they overlap. Cubes meet
// as spheres. The player meets them as an upright cylinder as wide and as tall as it is:
// its faces strike a cube sideways (a sphere's lower half would press cubes into the
// ground), and a cube can land on top of it.
struct contact {
    vec3 normal;
    float depth = 0.f;
};

bool touching(const Body& a, const Body& b, bool a_is_player, contact& c) noexcept {
    const float reach = a.radius + b.radius;
    const vec3 d = b.position - a.position;
    if (std::fabs(d.x) >= reach || std::fabs(d.y) >= reach || std::fabs(d.z) >= reach) return false;
    if (!a_is_player) {
        const float dist2 = dot(d, d);
        if (dist2 >= reach * reach) return false;
        const float dist = std::sqrt(dist2);
        c.normal = dist > 1e-6f ? d * (1.f / dist) : vec3{1.f, 0.f, 0.f};
        c.depth = reach - dist;
        return true;
    }
    const float across2 = d.x * d.x + d.y * d.y;
    if (across2 >= reach * reach) return false;
    const float across = std::sqrt(across2);
    const float side_depth = reach - across, top_depth = reach - std::fabs(d.z);
    if (side_depth <= top_depth) {
        c.normal = across > 1e-6f ? vec3{d.x / across, d.y / across, 0.f} : vec3{1.f, 0.f, 0.f};
        c.depth = side_depth;
    } else {
        c.normal = {0.f, 0.f, d.z < 0.f ? -1.f : 1.f};
        c.depth = top_depth;
    }
    return true;
}

// Turns the unit vector (x, y) towards `to` by one fixed step, when it is off by more than
// a step. The step's cosine and sine are exact rational functions of tan(step / 2), the
// rotation a 2 x 2 matrix: no libm.
void turn_towards(float& x, float& y, const vec3& to) noexcept {
    static constexpr float tan_half = 0.5f * player_turn_rate * substep_seconds;
    static constexpr float step_cos = (1.f - tan_half * tan_half) / (1.f + tan_half * tan_half);
    static constexpr float step_sin = 2.f * tan_half / (1.f + tan_half * tan_half);
    const float distance = std::sqrt(to.x * to.x + to.y * to.y);
    if (distance < 1e-3f) return;
    const float sin_off = (x * to.y - y * to.x) / distance, cos_off = (x * to.x + y * to.y) / distance;
    float s = 0.f; // the sine of this turn: left positive
    if (sin_off > step_sin) s = step_sin;
    else if (sin_off < -step_sin) s = -step_sin;
    else if (cos_off < 0.f) s = step_sin; // straight behind
    else return;
    const float tx = x * step_cos - y * s, ty = x * s + y * step_cos;
    const float n = std::sqrt(tx * tx + ty * ty); // stays a unit vector over any number of turns
    x = tx / n;
    y = ty / n;
}

// Moves a body on by h: gravity, the ground (bounce, friction, spin going over to rolling).
void integrate(Body& b, bool driven, float h) noexcept {
    b.linear_velocity.z -= gravity * h;
    b.position = b.position + b.linear_velocity * h;
    b.orientation = integrate_rotation(b.orientation, b.angular_velocity, h);

    if (b.position.z <= b.radius) {
        b.position.z = b.radius;
        if (b.linear_velocity.z < 0.f) {
            b.linear_velocity.z = -b.linear_velocity.z * ground_bounce;
            if (b.linear_velocity.z < 0.5f) b.linear_velocity.z = 0.f;
        }
        if (!driven) { // the player's motor beats friction; its spin is set after the collisions
            const vec3 rolling = cross(up, b.linear_velocity) * (1.f / b.radius);
            const float speed = std::sqrt(b.linear_velocity.x * b.linear_velocity.x +
                                          b.linear_velocity.y * b.linear_velocity.y);
            const float slowed = std::max(speed - friction_decel * h, 0.f);
            const float k = speed > 0.f ? slowed / speed : 0.f;
            b.linear_velocity.x *= k;
            b.linear_velocity.y *= k;
            b.angular_velocity = b.angular_velocity + (rolling * (k * roll_share) - b.angular_velocity) * spin_follow;
        }
    } else {
        b.angular_velocity = b.angular_velocity * air_spin_keep;
    }
}

} // namespace

// --- the world -------------------------------------------------------------------------

CubeWorld::CubeWorld(std::uint32_t seed) : chooser_(seed + 1) {
    random_source rng(seed);
    bodies_.reserve(cube_count);

    Body player; // west of the grid, heading east into it
    player.position = {-0.5f * grid_spacing * static_cast<float>(grid - 1) - grid_spacing - player_radius, 0.f,
                       player_radius};
    player.linear_velocity = {charge_speed, 0.f, 0.f};
    player.radius = player_radius;
    player.inverse_mass = player_inverse_mass;
    player.awake = true;
    bodies_.push_back(player);

    // 30 x 30 cubes asleep on the ground, each turned about z at random.
    const float origin = -0.5f * grid_spacing * static_cast<float>(grid - 1);
    for (int row = 0; row < grid; ++row) {
        for (int col = 0; col < grid; ++col) {
            Body b;
            b.position = {origin + grid_spacing * static_cast<float>(col),
                          origin + grid_spacing * static_cast<float>(row), cube_radius};
            b.orientation = rng.yaw();
            bodies_.push_back(b);
        }
    }
    ever_awake_.assign(bodies_.size(), false);
    for (std::size_t i = 0; i < bodies_.size(); ++i) ever_awake_[i] = bodies_[i].awake;
    cell_start_.assign(static_cast<std::size_t>(cells_per_axis * cells_per_axis) + 1, 0);
    cell_fill_.assign(cell_start_.size() - 1, 0);
    cell_bodies_.assign(bodies_.size(), 0);
    body_cell_.assign(bodies_.size(), 0);
    sort_into_cells(); // for the player's first choice
}

void CubeWorld::step() {
    for (std::size_t s = 0; s < substeps; ++s) substep(substep_seconds);
    ++ticks_;
}

void CubeWorld::wake(std::size_t i) noexcept {
    bodies_[i].awake = true;
    bodies_[i].still_ticks = 0;
    ever_awake_[i] = true;
}

// The player's motor: its horizontal velocity goes towards the driver's wish.
void CubeWorld::drive_player() {
    if (target_ == 0 || bodies_[target_].awake || ++chase_ticks_ > chase_limit) {
        target_ = choose_target();
        chase_ticks_ = 0;
    }
    Body& p = bodies_[player];
    turn_towards(heading_x_, heading_y_, bodies_[target_].position - p.position);
    const float speed = ticks_ < charge_ticks ? charge_speed : player_speed;
    p.linear_velocity.x += (heading_x_ * speed - p.linear_velocity.x) * steer_share;
    p.linear_velocity.y += (heading_y_ * speed - p.linear_velocity.y) * steer_share;
}

// Of a few cubes at rest drawn at random, far enough away, the one with the most bodies
// around it; failing that any cube at rest, failing that any cube.
std::size_t CubeWorld::choose_target() {
    const vec3& at = bodies_[player].position;
    const auto draw = [this] { return 1 + static_cast<std::size_t>(chooser_() % (bodies_.size() - 1)); };
    std::size_t best = 0, best_crowd = 0, at_rest = 0;
    for (int attempt = 0, found = 0; attempt < 32 && found < target_candidates; ++attempt) {
        const std::size_t i = draw();
        if (bodies_[i].awake) continue;
        at_rest = i;
        const vec3 d = bodies_[i].position - at;
        if (d.x * d.x + d.y * d.y < target_min_distance * target_min_distance) continue;
        ++found;
        const std::size_t c = crowd(i);
        if (best == 0 || c > best_crowd) {
            best = i;
            best_crowd = c;
        }
    }
    if (best != 0) return best;
    return at_rest != 0 ? at_rest : draw();
}

// Bodies in the (2 crowd_reach + 1)^2 cells around body i, as of the last sort.
std::size_t CubeWorld::crowd(std::size_t i) const noexcept {
    const int cx = static_cast<int>(body_cell_[i] % cells_per_axis);
    const int cy = static_cast<int>(body_cell_[i] / cells_per_axis);
    std::size_t n = 0;
    for (int y = std::max(cy - crowd_reach, 0); y <= std::min(cy + crowd_reach, cells_per_axis - 1); ++y) {
        const auto row = static_cast<std::size_t>(y * cells_per_axis);
        n += cell_start_[row + static_cast<std::size_t>(std::min(cx + crowd_reach, cells_per_axis - 1)) + 1] -
             cell_start_[row + static_cast<std::size_t>(std::max(cx - crowd_reach, 0))];
    }
    return n;
}

void CubeWorld::substep(float h) {
    drive_player();
    for (std::size_t i = 0; i < bodies_.size(); ++i)
        if (bodies_[i].awake) integrate(bodies_[i], i == player, h);

    sort_into_cells();
    collide_all();

    // Keep every value inside its quantization bounds (the walls of the world last, after
    // the collisions' pushes), then put cubes that stayed slow long enough to sleep.
    const auto wall = [](float& p, float& v) {
        if (p < -world_half_width || p > world_half_width) {
            p = std::clamp(p, -world_half_width, world_half_width);
            v = -v * ground_bounce;
        }
    };
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
        Body& b = bodies_[i];
        if (!b.awake) continue;
        wall(b.position.x, b.linear_velocity.x);
        wall(b.position.y, b.linear_velocity.y);
        if (b.position.z > world_height) {
            b.position.z = world_height;
            b.linear_velocity.z = std::min(b.linear_velocity.z, 0.f);
        }
        vec3& v = b.linear_velocity;
        v = {clamp_speed(v.x), clamp_speed(v.y), clamp_speed(v.z)};
        if (i == player) { // driven for the whole run; on the ground it rolls: v = w x r
            if (b.position.z <= b.radius) b.angular_velocity = cross(up, v) * (1.f / b.radius);
            continue;
        }
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

void CubeWorld::sort_into_cells() {
    std::fill(cell_start_.begin(), cell_start_.end(), 0u);
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
        const vec3& p = bodies_[i].position;
        body_cell_[i] = static_cast<std::uint32_t>(cell_of(p.y) * cells_per_axis + cell_of(p.x));
        ++cell_start_[body_cell_[i] + 1];
    }
    for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
    // Filled in index order, so each cell lists its bodies by index.
    std::copy(cell_start_.begin(), cell_start_.end() - 1, cell_fill_.begin());
    for (std::size_t i = 0; i < bodies_.size(); ++i)
        cell_bodies_[cell_fill_[body_cell_[i]]++] = static_cast<std::uint32_t>(i);
}

// Every awake body against the bodies in its cell and the eight around it; a pair of
// awake bodies once (from the lower index); pairs of sleeping cubes never: they do not move.
void CubeWorld::collide_all() {
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
        if (!bodies_[i].awake) continue;
        const int cx = static_cast<int>(body_cell_[i] % cells_per_axis);
        const int cy = static_cast<int>(body_cell_[i] / cells_per_axis);
        for (int y = std::max(cy - 1, 0); y <= std::min(cy + 1, cells_per_axis - 1); ++y) {
            for (int x = std::max(cx - 1, 0); x <= std::min(cx + 1, cells_per_axis - 1); ++x) {
                const auto c = static_cast<std::size_t>(y * cells_per_axis + x);
                for (std::uint32_t k = cell_start_[c]; k < cell_start_[c + 1]; ++k) {
                    const std::size_t j = cell_bodies_[k];
                    if (j != i && !(bodies_[j].awake && j < i)) collide(i, j);
                }
            }
        }
    }
}

// Body i is awake; j is awake (and j > i) or asleep.
void CubeWorld::collide(std::size_t i, std::size_t j) {
    Body& a = bodies_[i];
    Body& b = bodies_[j];
    contact c;
    if (!touching(a, b, i == player, c)) return;
    const vec3& n = c.normal;
    const float push = std::max(c.depth - contact_slop, 0.f);
    const float approach = dot(a.linear_velocity - b.linear_velocity, n);

    // The change of their speeds along n: dv in all, shared by inverse mass.
    const float share_a = a.inverse_mass / (a.inverse_mass + b.inverse_mass), share_b = 1.f - share_a;
    const float dv = (1.f + (i == player ? player_bounce : cube_bounce)) * approach;
    if (!b.awake && share_b * dv > wake_speed) wake(j);
    if (b.awake) {
        a.position = a.position - n * (share_a * push);
        b.position = b.position + n * (share_b * push);
        if (approach > 0.f) {
            a.linear_velocity = a.linear_velocity - n * (share_a * dv);
            b.linear_velocity = b.linear_velocity + n * (share_b * dv);
            // A glancing blow spins both (the player only rolls); a cube hit low tips over
            // the way it is pushed.
            const vec3 spin = cross(n, a.linear_velocity - b.linear_velocity) * glance;
            b.angular_velocity = b.angular_velocity - spin + cross(up, n) * (tumble * share_b * dv);
            if (i != player) a.angular_velocity = a.angular_velocity - spin + cross(up, n) * (-tumble * share_a * dv);
        }
    } else { // a sleeping cube is as good as static
        a.position = a.position - n * push;
        if (approach > 0.f) a.linear_velocity = a.linear_velocity - n * ((1.f + cube_bounce) * approach);
    }
    a.position.z = std::max(a.position.z, a.radius);
    b.position.z = std::max(b.position.z, b.radius);
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
