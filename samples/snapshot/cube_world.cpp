// The same states for the same seed need every rounding the source asks for: no a * b + c
// fused into one multiply-add, which g++ and clang do by default where the machine has
// FMA (s390x, arm64, x86-64 built with -march=native). Before every include: placed
// after them, g++ 12 still fused in inline functions. (ODE itself is the library's build.)
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "cube_world.hpp"

#include <ode/ode.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <mutex>

namespace snapshot {

namespace {

// Units: metres, kilograms, seconds. z is up; the ground is z = 0.
constexpr int grid = 30;             // 30 x 30 = 900 cubes
constexpr double cube_size = 1.0;    // 1 m cubes of density 1: 1 kg
constexpr double player_size = 3.0;  // the player: 27 kg
constexpr double grid_spacing = 1.5; // centre to centre: gaps of half a cube (turned cubes do not overlap)
constexpr double start_gap = 1.0;    // between the player and the grid's west edge
constexpr double density = 1.0;

constexpr double gravity = 9.8;
constexpr double step_seconds = 1.0 / static_cast<double>(snapshots_per_second);
constexpr int substeps = 2; // ODE steps a snapshot: piles of cubes hold better at 120 Hz
constexpr int solver_iterations = 10;
constexpr double world_half_width = 60.0; // walls: inside position_xy's [-64, 64)
constexpr double world_height = 30.0;     // inside position_z's [0, 32)
constexpr double max_speed = 15.0;        // per axis, inside velocity's [-16, 16]
constexpr double max_spin = 30.0;         // rad/s: not sent, keeps the solver calm

// Contacts. Cubes grip the ground and the player: a push tips them over, they tumble.
constexpr int max_contacts = 8; // per pair of geoms
constexpr double ground_friction = 1.0;
constexpr double player_friction = 1.0;
constexpr double cube_friction = 0.6;
constexpr double bounce = 0.1;
constexpr double bounce_speed = 0.5; // m/s: slower impacts do not bounce

// Sleep (ODE's auto-disable): a body whose speeds, averaged over sleep_samples ODE steps,
// stay under these for sleep_steps ODE steps.
constexpr double sleep_speed = 0.15; // m/s
constexpr double sleep_spin = 0.3;   // rad/s
constexpr unsigned sleep_samples = 10;
constexpr int sleep_steps = 10;

// The player's driving: a force at its centre towards the wished velocity, and a torque
// towards the spin of rolling at that speed, about the axis it rolls on.
constexpr double player_speed = 7.0;       // m/s wished for
constexpr double player_accel = 25.0;      // m/s^2 at most from its force
constexpr double player_spin_accel = 25.0; // rad/s^2 at most from its torque
constexpr double drive_gain = 4.0;         // 1/s: of the error in speed or spin, per second
constexpr int chase_limit = 360;           // ticks (6 s) before it gives up on a target
constexpr int target_candidates = 8;       // cubes drawn for each choice of target
constexpr double target_min_distance = 10.0;
constexpr double crowd_radius = 5.0; // a target's crowd: cubes at rest within this

// Its spells: gathering (katamari) and rolling by turns, gathering first (it charges into
// the grid pulling cubes in); a hop at the end of each gathering spell throws the ball off.
constexpr int roll_ticks_min = 45, roll_ticks_max = 90;     // 0.75 to 1.5 s
constexpr int gather_ticks_min = 150, gather_ticks_max = 360; // 2.5 to 6 s
constexpr double gather_radius = 6.5; // m from the player's centre
constexpr double gather_accel = 18.0; // m/s^2 towards the player's centre
constexpr double carry = 10.0;        // 1/s: how fast a gathered cube takes up the player's motion
constexpr double hop_speed = 7.0;     // m/s upwards at the end of a gathering spell

// ODE's global state (its collision scratch, its random source) is shared by every
// world of the process, and the demo's threads make worlds at once: one at a time.
std::mutex ode_mutex;
int ode_users = 0; // worlds alive: ODE is initialised with the first, closed with the last

// std::mt19937's output is fixed by the standard; the distributions are not, so
// numbers are made here, the same everywhere.
double unit(std::mt19937& rng) { return static_cast<double>(rng() >> 8) * (1.0 / 16777216.0); }
int between(std::mt19937& rng, int lo, int hi) {
    return lo + static_cast<int>(rng() % static_cast<unsigned>(hi - lo + 1));
}

float to_float(double v) noexcept { return static_cast<float>(v); }

} // namespace

// --- the engine ------------------------------------------------------------------------

struct CubeWorld::engine {
    dWorldID world = nullptr;
    dSpaceID space = nullptr;   // the cubes: a hash space
    dJointGroupID contacts = nullptr;
    std::array<dGeomID, 5> planes{}; // the ground and four walls, outside the space
    std::vector<dBodyID> body;
    std::vector<dGeomID> geom;
    unsigned long random_seed = 0; // ODE's random source (the solver's order), per world

    // Contact joints for two geoms, when at least one of their bodies is awake.
    void touch(dGeomID a, dGeomID b) {
        const dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
        const bool awake_a = ba != nullptr && dBodyIsEnabled(ba), awake_b = bb != nullptr && dBodyIsEnabled(bb);
        if (!awake_a && !awake_b) return;
        const bool plane = ba == nullptr || bb == nullptr; // the ground or a wall
        const bool with_player = (ba != nullptr && ba == body[player]) || (bb != nullptr && bb == body[player]);
        const double mu = plane ? ground_friction : with_player ? player_friction : cube_friction;
        std::array<dContact, max_contacts> c{};
        const int n = dCollide(a, b, max_contacts, &c[0].geom, sizeof(dContact));
        for (int k = 0; k < n; ++k) {
            dContact& contact = c[static_cast<std::size_t>(k)];
            contact.surface.mode = dContactBounce | dContactApprox1;
            contact.surface.mu = mu;
            contact.surface.bounce = bounce;
            contact.surface.bounce_vel = bounce_speed;
            dJointAttach(dJointCreateContact(world, contacts, &contact), ba, bb);
        }
    }

    static void near(void* data, dGeomID a, dGeomID b) { static_cast<engine*>(data)->touch(a, b); }
};

// --- the world -------------------------------------------------------------------------

CubeWorld::CubeWorld(std::uint32_t seed) : ode_(std::make_unique<engine>()), chooser_(seed) {
    const std::lock_guard lock(ode_mutex);
    if (ode_users++ == 0) {
        dInitODE2(0);
        dAllocateODEDataForThread(static_cast<unsigned>(dAllocateMaskAll));
    }
    engine& e = *ode_;
    e.random_seed = seed;
    e.world = dWorldCreate();
    dWorldSetGravity(e.world, 0, 0, -gravity);
    dWorldSetQuickStepNumIterations(e.world, solver_iterations);
    dWorldSetContactMaxCorrectingVel(e.world, 5.0);
    dWorldSetContactSurfaceLayer(e.world, 0.001);
    dWorldSetMaxAngularSpeed(e.world, max_spin);
    dWorldSetAutoDisableFlag(e.world, 1);
    dWorldSetAutoDisableLinearThreshold(e.world, sleep_speed * sleep_speed); // ODE compares squares
    dWorldSetAutoDisableAngularThreshold(e.world, sleep_spin * sleep_spin);
    dWorldSetAutoDisableAverageSamplesCount(e.world, sleep_samples);
    dWorldSetAutoDisableSteps(e.world, sleep_steps);
    e.contacts = dJointGroupCreate(0);
    e.space = dHashSpaceCreate(nullptr);
    dHashSpaceSetLevels(e.space, -1, 2); // cells of 0.5 m to 4 m: cubes and the player
    e.planes[0] = dCreatePlane(nullptr, 0, 0, 1, 0);
    e.planes[1] = dCreatePlane(nullptr, 1, 0, 0, -world_half_width);
    e.planes[2] = dCreatePlane(nullptr, -1, 0, 0, -world_half_width);
    e.planes[3] = dCreatePlane(nullptr, 0, 1, 0, -world_half_width);
    e.planes[4] = dCreatePlane(nullptr, 0, -1, 0, -world_half_width);

    const auto add_body = [&](double size, double x, double y, double z, const dQuaternion q) {
        const dBodyID b = dBodyCreate(e.world);
        dMass m;
        dMassSetBox(&m, density, size, size, size);
        dBodySetMass(b, &m);
        dBodySetPosition(b, x, y, z);
        dBodySetQuaternion(b, q);
        const dGeomID g = dCreateBox(e.space, size, size, size);
        dGeomSetBody(g, b);
        e.body.push_back(b);
        e.geom.push_back(g);
        Body s;
        s.radius = to_float(0.5 * size);
        s.inverse_mass = to_float(1.0 / m.mass);
        bodies_.push_back(s);
        return b;
    };

    // The player: west of the grid, heading east into it, awake for the whole run.
    const double extent = 0.5 * grid_spacing * static_cast<double>(grid - 1);
    const dQuaternion upright{1, 0, 0, 0}; // ODE's order: w, x, y, z
    const dBodyID p = add_body(player_size, -extent - start_gap - 0.5 * player_size, 0.0, 0.5 * player_size, upright);
    dBodySetAutoDisableFlag(p, 0);
    dBodySetLinearVel(p, player_speed, 0, 0);

    // 30 x 30 cubes asleep on the ground, each turned about z at random: the same layout
    // for every seed. A yaw from a random direction: no sin or cos.
    std::mt19937 layout(default_seed);
    for (int row = 0; row < grid; ++row) {
        for (int col = 0; col < grid; ++col) {
            double z = 0, w = 0, n = 0;
            do {
                z = 2.0 * unit(layout) - 1.0;
                w = 2.0 * unit(layout) - 1.0;
                n = z * z + w * w;
            } while (n <= 0.01 || n > 1.0);
            n = std::sqrt(n);
            const dQuaternion yaw{w / n, 0, 0, z / n};
            const dBodyID b = add_body(cube_size, -extent + grid_spacing * col, -extent + grid_spacing * row,
                                       0.5 * cube_size, yaw);
            dBodyDisable(b);
        }
    }
    read_back();
    ever_awake_.assign(bodies_.size(), false);
    for (std::size_t i = 0; i < bodies_.size(); ++i) ever_awake_[i] = bodies_[i].awake;
}

CubeWorld::~CubeWorld() {
    const std::lock_guard lock(ode_mutex);
    engine& e = *ode_;
    for (dGeomID g : e.planes) dGeomDestroy(g);
    dSpaceDestroy(e.space); // and the cubes' geoms in it
    dJointGroupDestroy(e.contacts);
    dWorldDestroy(e.world); // and its bodies
    if (--ode_users == 0) dCloseODE();
}

void CubeWorld::step() {
    const std::lock_guard lock(ode_mutex);
    engine& e = *ode_;
    // ODE built to keep its collision scratch per thread needs it once per thread.
    dAllocateODEDataForThread(static_cast<unsigned>(dAllocateMaskAll));
    drive_player();
    pull_towards_player();
    dRandSetSeed(e.random_seed);
    for (int s = 0; s < substeps; ++s) {
        dSpaceCollide(e.space, &e, &engine::near);
        for (std::size_t i = 0; i < e.geom.size(); ++i) // the ground and walls, for awake bodies only
            if (dBodyIsEnabled(e.body[i]))
                for (dGeomID plane : e.planes) e.touch(e.geom[i], plane);
        dWorldQuickStep(e.world, step_seconds / substeps);
        dJointGroupEmpty(e.contacts);
    }
    e.random_seed = dRandGetSeed();
    keep_in_bounds();
    read_back();
    for (std::size_t i = 0; i < bodies_.size(); ++i)
        if (bodies_[i].awake) ever_awake_[i] = true;
    ++ticks_;
}

// The player's driver: spells of gathering and rolling, and a target to roll to (the
// seed's choices). Its force pushes its horizontal velocity towards the wish; its torque
// spins it about the axis it would roll on, so it tumbles over its edges.
void CubeWorld::drive_player() {
    engine& e = *ode_;
    const dBodyID p = e.body[player];
    if (--spell_ticks_ <= 0) {
        if (gathering_) { // the end of a gathering spell: a hop throws the ball off
            const dReal* v = dBodyGetLinearVel(p);
            dBodySetLinearVel(p, v[0], v[1], v[2] + hop_speed);
        }
        gathering_ = !gathering_;
        spell_ticks_ = gathering_ ? between(chooser_, gather_ticks_min, gather_ticks_max)
                                  : between(chooser_, roll_ticks_min, roll_ticks_max);
    }
    if (target_ == 0 || bodies_[target_].awake || ++chase_ticks_ > chase_limit) {
        target_ = choose_target();
        chase_ticks_ = 0;
    }
    const dReal* at = dBodyGetPosition(p);
    const dReal* v = dBodyGetLinearVel(p);
    const dReal* w = dBodyGetAngularVel(p);
    const Body& t = bodies_[target_];
    double dx = t.position.x - at[0], dy = t.position.y - at[1];
    const double distance = std::sqrt(dx * dx + dy * dy);
    if (distance < 1e-6) return;
    dx /= distance;
    dy /= distance;
    dMass m;
    dBodyGetMass(p, &m);
    // Force: towards the wished velocity, at most player_accel.
    double fx = (dx * player_speed - v[0]) * drive_gain, fy = (dy * player_speed - v[1]) * drive_gain;
    const double f = std::sqrt(fx * fx + fy * fy);
    if (f > player_accel) {
        fx *= player_accel / f;
        fy *= player_accel / f;
    }
    dBodyAddForce(p, m.mass * fx, m.mass * fy, 0);
    // Torque: about up x direction, towards the spin of rolling at the wished speed.
    const double ax = -dy, ay = dx; // up x (dx, dy, 0)
    const double spin_wish = player_speed / (0.5 * player_size);
    double alpha = (spin_wish - (w[0] * ax + w[1] * ay)) * drive_gain;
    alpha = std::clamp(alpha, -player_spin_accel, player_spin_accel);
    const double inertia = m.I[0]; // a cube: the same about every axis through its centre
    dBodyAddTorque(p, inertia * alpha * ax, inertia * alpha * ay, 0);
}

// While gathering, cubes within gather_radius of the player (woken if asleep) are pulled
// towards its centre and dragged along with its motion (its velocity and spin where the
// cube is): they pile onto it and the ball rolls with it, each cube still simulated.
void CubeWorld::pull_towards_player() {
    if (!gathering_) return;
    engine& e = *ode_;
    const dReal* at = dBodyGetPosition(e.body[player]);
    const dReal* pv = dBodyGetLinearVel(e.body[player]);
    const dReal* pw = dBodyGetAngularVel(e.body[player]);
    for (std::size_t i = 1; i < e.body.size(); ++i) {
        const dReal* q = dBodyGetPosition(e.body[i]);
        const double dx = at[0] - q[0], dy = at[1] - q[1], dz = at[2] - q[2]; // cube to player
        const double d2 = dx * dx + dy * dy + dz * dz;
        if (d2 >= gather_radius * gather_radius || d2 < 1e-6) continue;
        if (!dBodyIsEnabled(e.body[i])) dBodyEnable(e.body[i]);
        const dReal* v = dBodyGetLinearVel(e.body[i]);
        // The player's velocity at the cube: v_p + w_p x r, r = -(dx, dy, dz).
        const double fx = pv[0] - pw[1] * dz + pw[2] * dy, fy = pv[1] - pw[2] * dx + pw[0] * dz,
                     fz = pv[2] - pw[0] * dy + pw[1] * dx;
        const double k = gather_accel / std::sqrt(d2); // a cube weighs 1 kg: forces are accelerations
        dBodyAddForce(e.body[i], k * dx + carry * (fx - v[0]), k * dy + carry * (fy - v[1]),
                      k * dz + carry * (fz - v[2]));
    }
}

// Speeds per axis at most max_speed, positions inside the walls and under world_height:
// every value sent stays inside its quantization bounds.
void CubeWorld::keep_in_bounds() {
    engine& e = *ode_;
    for (const dBodyID b : e.body) {
        if (!dBodyIsEnabled(b)) continue;
        const dReal* v = dBodyGetLinearVel(b);
        const double vx = std::clamp(v[0], -max_speed, max_speed), vy = std::clamp(v[1], -max_speed, max_speed),
                     vz = std::clamp(v[2], -max_speed, max_speed);
        if (vx != v[0] || vy != v[1] || vz != v[2]) dBodySetLinearVel(b, vx, vy, vz);
        const dReal* p = dBodyGetPosition(b);
        const double x = std::clamp(p[0], -world_half_width, world_half_width),
                     y = std::clamp(p[1], -world_half_width, world_half_width), z = std::clamp(p[2], 0.0, world_height);
        if (x != p[0] || y != p[1] || z != p[2]) dBodySetPosition(b, x, y, z);
    }
}

void CubeWorld::read_back() {
    engine& e = *ode_;
    for (std::size_t i = 0; i < e.body.size(); ++i) {
        const dBodyID b = e.body[i];
        Body& s = bodies_[i];
        const dReal* p = dBodyGetPosition(b);
        const dReal* v = dBodyGetLinearVel(b);
        const dReal* w = dBodyGetAngularVel(b);
        const dReal* q = dBodyGetQuaternion(b); // w, x, y, z
        s.awake = dBodyIsEnabled(b) != 0;
        s.position = {to_float(p[0]), to_float(p[1]), to_float(p[2])};
        s.linear_velocity = s.awake ? vec3{to_float(v[0]), to_float(v[1]), to_float(v[2])} : vec3{};
        s.angular_velocity = s.awake ? vec3{to_float(w[0]), to_float(w[1]), to_float(w[2])} : vec3{};
        s.orientation = {to_float(q[1]), to_float(q[2]), to_float(q[3]), to_float(q[0])};
    }
}

// Of a few cubes at rest drawn at random, far enough away, the one with the most cubes at
// rest around it; failing that any cube at rest, failing that any cube.
std::size_t CubeWorld::choose_target() {
    const vec3& at = bodies_[player].position;
    const auto draw = [this] { return 1 + static_cast<std::size_t>(chooser_() % (bodies_.size() - 1)); };
    std::size_t best = 0, best_crowd = 0, at_rest = 0;
    for (int attempt = 0, found = 0; attempt < 32 && found < target_candidates; ++attempt) {
        const std::size_t i = draw();
        if (bodies_[i].awake) continue;
        at_rest = i;
        const double dx = bodies_[i].position.x - at.x, dy = bodies_[i].position.y - at.y;
        if (dx * dx + dy * dy < target_min_distance * target_min_distance) continue;
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

// Cubes at rest within crowd_radius of cube i, in the plane.
std::size_t CubeWorld::crowd(std::size_t i) const noexcept {
    const vec3& c = bodies_[i].position;
    std::size_t n = 0;
    for (std::size_t j = 1; j < bodies_.size(); ++j) {
        const double dx = bodies_[j].position.x - c.x, dy = bodies_[j].position.y - c.y;
        if (!bodies_[j].awake && dx * dx + dy * dy < crowd_radius * crowd_radius) ++n;
    }
    return n;
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
