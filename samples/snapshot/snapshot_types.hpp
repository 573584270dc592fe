#pragma once

// What goes on the wire: the per-cube state of the networked-physics example,
// described once per encoding stage with NETSER_STRUCT and attributes. There is no
// serialize code: netser writes, reads, measures and profiles these from the
// descriptions alone.

#include <netser/netser.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace snapshot {

inline constexpr std::size_t cube_count = 901;
inline constexpr std::size_t packet_budget = 1200; ///< bytes: fits any path MTU with room for headers
inline constexpr std::size_t snapshots_per_second = 60;

struct vec3 {
    float x = 0.f, y = 0.f, z = 0.f;
};
NETSER_STRUCT(vec3, x, y, z)

struct quat {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};
NETSER_STRUCT(quat, x, y, z, w)

// --- encoding parameters (shared by the descriptions and the client's error bounds) --

/// The world is 128 m x 128 m x 32 m high, in steps of 1/512 m (about 2 mm), as in
/// Glenn Fiedler's "Snapshot Compression": 2^16 codes across, 2^14 up.
inline constexpr float position_step = 1.f / 512.f;
inline constexpr auto position_xy = netser::quantize(-64.f, 64.f - position_step, position_step); // 16 bits
inline constexpr auto position_z = netser::quantize(0.f, 32.f - position_step, position_step);    // 14 bits
/// Up to 16 m/s per axis in 1 cm/s steps.
inline constexpr auto velocity = netser::quantize(-16.f, 16.f, 0.01f); // 3200 steps: 12 bits
/// 2 bits for the largest component, 9 bits for each of the three others.
/// Delta packets send a changed code as its difference through these ranges of steps
/// (fitted to the demo's recording with `delta_recording FILE --fit`).
inline constexpr netser::smallest_three orientation_codec{9, netser::delta_ladder(2, 4, 8, 32).ladder};

// --- stage 1: raw floats, the baseline (1 + 3*32 + 3*32 + 4*32 = 321 bits) ----------

struct RawCube {
    bool interacting = false;
    vec3 position;
    vec3 linear_velocity;
    quat orientation;
};
NETSER_STRUCT(RawCube, interacting, position, linear_velocity, orientation)

// --- stage 2: quantized position and velocity, smallest-three orientation -----------

/// How delta packets send a changed position code: its difference from the baseline's
/// through these ranges of steps (1/512 m), fitted to the demo's recording with
/// `delta_recording FILE --fit`. Plain packets ignore it.
inline constexpr auto position_ladder = netser::delta_ladder(32, 64, 128, 256);

/// A position with its own bounds per axis (z is height above the ground plane).
struct Position {
    float x = 0.f, y = 0.f, z = 0.f;
};
NETSER_STRUCT(Position, (x, position_xy, position_ladder), (y, position_xy, position_ladder),
              (z, position_z, position_ladder))

struct QuantizedCube {
    bool interacting = false;
    Position position;
    vec3 linear_velocity;
    quat orientation;
};
NETSER_STRUCT(QuantizedCube,
    interacting,
    position,
    (linear_velocity, velocity), // per component
    (orientation, orientation_codec))

// --- stage 3 (what is sent): velocity only while the cube is moving ------------------

struct CubeState {
    bool interacting = false; ///< awake: moving, or touched by something that moves
    Position position;
    vec3 linear_velocity;     ///< zero when not interacting (a cube at rest)
    quat orientation;
};
NETSER_STRUCT(CubeState,
    interacting,
    position,
    (linear_velocity, velocity, netser::only_if(&CubeState::interacting)),
    (orientation, orientation_codec))

// --- slices: a snapshot split into packets that each decode on their own ------------

inline constexpr std::size_t raw_cubes_per_slice = 29; // 29 * 321 bits + header < 1200 bytes
inline constexpr std::size_t cubes_per_slice = 82;     // 901 = 10 * 82 + 81: 11 packets

/// Cubes [first_cube, first_cube + cubes.size()) of snapshot `sequence`.
struct SnapshotSlice {
    std::uint32_t sequence = 0;
    std::uint16_t first_cube = 0;
    std::vector<CubeState> cubes;
};
NETSER_STRUCT(SnapshotSlice,
    sequence,
    (first_cube, netser::range(std::size_t{0}, cube_count - 1)),
    (cubes, netser::max_size(cubes_per_slice)))

struct QuantizedSlice {
    std::uint32_t sequence = 0;
    std::uint16_t first_cube = 0;
    std::vector<QuantizedCube> cubes;
};
NETSER_STRUCT(QuantizedSlice,
    sequence,
    (first_cube, netser::range(std::size_t{0}, cube_count - 1)),
    (cubes, netser::max_size(cubes_per_slice)))

struct RawSlice {
    std::uint32_t sequence = 0;
    std::uint16_t first_cube = 0;
    std::vector<RawCube> cubes;
};
NETSER_STRUCT(RawSlice,
    sequence,
    (first_cube, netser::range(std::size_t{0}, cube_count - 1)),
    (cubes, netser::max_size(raw_cubes_per_slice)))

// The numbers the demo's report relies on, checked at compile time.
static_assert(netser::max_bits<RawCube>() == 321, "raw: 1 + 3*32 + 3*32 + 4*32 bits");
static_assert(netser::max_bits<QuantizedCube>() == 1 + 16 + 16 + 14 + 3 * 12 + 2 + 3 * 9);
static_assert(netser::max_bits<CubeState>() == netser::max_bits<QuantizedCube>());
static_assert(netser::max_packet_bytes<RawSlice>() <= packet_budget);
static_assert(netser::max_packet_bytes<QuantizedSlice>() <= packet_budget);
static_assert(netser::max_packet_bytes<SnapshotSlice>() <= packet_budget);
// Another schema is another protocol: a packet of one is thrown away by the other's CRC.
static_assert(netser::schema_hash<SnapshotSlice>() != netser::schema_hash<QuantizedSlice>());

inline Position to_position(const vec3& v) noexcept { return {v.x, v.y, v.z}; }
inline vec3 to_vec3(const Position& p) noexcept { return {p.x, p.y, p.z}; }

inline QuantizedCube to_quantized(const CubeState& c) noexcept {
    return {c.interacting, c.position, c.linear_velocity, c.orientation};
}
inline RawCube to_raw(const CubeState& c) noexcept {
    return {c.interacting, to_vec3(c.position), c.linear_velocity, c.orientation};
}

} // namespace snapshot
