#pragma once

// The two cases peers_bench gives every library: the S94 struct (one message per struct)
// and a snapshot of 901 cubes (one message). Each library is handed the application
// structs (floats), and every one but netser turns them into the integer codes netser
// sends with the functions below, then encodes those with its own format; reading is
// the way back. So the quantization work is the same for all, and the comparison is
// encoding against encoding.

#include "../reflected_types.hpp" // netser_bench::S94R: S94 described with NETSER_STRUCT

#include <netser/netser.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace netser_peers {

using netser_bench::S94R;

// --- the cube of samples/snapshot (copied: the benchmark does not build the sample) -------

inline constexpr std::size_t cube_count = 901;

struct vec3 {
    float x = 0.f, y = 0.f, z = 0.f;
    bool operator==(const vec3&) const = default;
};
NETSER_STRUCT(vec3, x, y, z)

struct quat {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
    bool operator==(const quat&) const = default;
};
NETSER_STRUCT(quat, x, y, z, w)

inline constexpr auto position_xy = netser::quantize(-64.f, 64.f, 0.002f); // 16 bits
inline constexpr auto position_z = netser::quantize(0.f, 32.f, 0.002f);    // 14 bits
inline constexpr auto velocity = netser::quantize(-16.f, 16.f, 0.01f);     // 12 bits
inline constexpr netser::smallest_three orientation_codec{9};             // 2 + 3 * 9 bits

struct Position {
    float x = 0.f, y = 0.f, z = 0.f;
    bool operator==(const Position&) const = default;
};
NETSER_STRUCT(Position, (x, position_xy), (y, position_xy), (z, position_z))

struct CubeState {
    bool interacting = false;
    Position position;
    vec3 linear_velocity; ///< zero when not interacting
    quat orientation;
    bool operator==(const CubeState&) const = default;
};
NETSER_STRUCT(CubeState,
    interacting,
    position,
    (linear_velocity, velocity, netser::only_if(&CubeState::interacting)),
    (orientation, orientation_codec))

struct Snapshot {
    std::vector<CubeState> cubes;
    bool operator==(const Snapshot&) const = default;
};
NETSER_STRUCT(Snapshot, (cubes, netser::max_size(cube_count)))

/// netser's bits for a cube: what the annotations say.
constexpr std::size_t cube_bits(bool interacting) noexcept {
    return 1 + 16 + 16 + 14 + (interacting ? 3 * 12 : 0) + 2 + 3 * 9;
}
static_assert(netser::max_bits<CubeState>() == cube_bits(true));

// --- the integer codes netser sends, as every other library gets them --------------------
//
// A code of a range symmetric about 0 is sent centred (netser's code minus max_int / 2,
// rounded up): the same integer up to a constant, and 0 for the value 0, which is each
// peer's best case (short varints in protobuf and MessagePack, zero bytes that Cap'n
// Proto's packing drops, default fields FlatBuffers leaves out).

struct S94Codes {
    std::int32_t x = 0, y = 0, z = 0; ///< centred, about [-100000, 100000]
    std::uint32_t health = 0;         ///< [0, 100]
    bool alive = false;
    std::uint32_t id = 0;
};

struct CubeCodes {
    bool interacting = false;
    std::int32_t x = 0, y = 0;             ///< centred, [-32000, 32000]
    std::uint32_t z = 0;                   ///< [0, 16000]
    std::int32_t vx = 0, vy = 0, vz = 0;   ///< centred, [-1600, 1600]; 0 unless interacting
    std::uint32_t largest = 0;             ///< [0, 3]
    std::array<std::int32_t, 3> smallest{}; ///< centred, [-256, 255]
};

// to_codes: what netser's write computes for each member. from_codes: false when a code
// is out of its range (a hostile message), as netser's read fails; the target is then
// unspecified. Inline, so that each library's code inlines them as netser's does.

namespace codes_detail {

// S94R's description: quantize(-1000.f, 1000.f, 0.01f), 18 bits.
constexpr netser::quantization s94_position = netser::quantize(-1000.f, 1000.f, 0.01f).params();
constexpr netser::quantization xy = position_xy.params();
constexpr netser::quantization z_axis = position_z.params();
constexpr netser::quantization speed = velocity.params();
constexpr netser::quantization unit = orientation_codec.params();
static_assert(s94_position.bits == 18 && xy.bits == 16 && z_axis.bits == 14 && speed.bits == 12 && unit.bits == 9);

// max_int / 2 rounded up: the code of 0 for an even max_int, the upper middle one for an odd.
constexpr std::int32_t centre(const netser::quantization& q) noexcept {
    return static_cast<std::int32_t>((q.max_int + 1) / 2);
}

inline std::int32_t centred_code(const netser::quantization& q, float v) noexcept {
    return static_cast<std::int32_t>(q.encode(v)) - centre(q);
}

inline bool from_centred(const netser::quantization& q, std::int32_t code, float& v) noexcept {
    const std::int64_t raw = std::int64_t{code} + centre(q);
    if (raw < 0 || raw > std::int64_t{q.max_int}) return false;
    v = q.decode(static_cast<std::uint32_t>(raw));
    return true;
}

} // namespace codes_detail

inline S94Codes to_codes(const S94R& s) noexcept {
    using namespace codes_detail;
    return {centred_code(s94_position, s.x),
            centred_code(s94_position, s.y),
            centred_code(s94_position, s.z),
            static_cast<std::uint32_t>(s.health),
            s.alive,
            s.id};
}

inline bool from_codes(const S94Codes& k, S94R& s) noexcept {
    using namespace codes_detail;
    if (k.health > 100) return false;
    s.health = static_cast<int>(k.health);
    s.alive = k.alive;
    s.id = k.id;
    return from_centred(s94_position, k.x, s.x) && from_centred(s94_position, k.y, s.y) &&
           from_centred(s94_position, k.z, s.z);
}

inline CubeCodes to_codes(const CubeState& c) noexcept {
    using namespace codes_detail;
    CubeCodes k;
    k.interacting = c.interacting;
    k.x = centred_code(xy, c.position.x);
    k.y = centred_code(xy, c.position.y);
    k.z = z_axis.encode(c.position.z);
    if (c.interacting) {
        k.vx = centred_code(speed, c.linear_velocity.x);
        k.vy = centred_code(speed, c.linear_velocity.y);
        k.vz = centred_code(speed, c.linear_velocity.z);
    }
    const quat& o = c.orientation;
    const netser::detail::smallest_three_fields f = netser::detail::smallest_three_write({o.x, o.y, o.z, o.w}, unit);
    k.largest = f.largest;
    for (std::size_t i = 0; i < 3; ++i) k.smallest[i] = static_cast<std::int32_t>(f.codes[i]) - centre(unit);
    return k;
}

inline bool from_codes(const CubeCodes& k, CubeState& c) noexcept {
    using namespace codes_detail;
    c.interacting = k.interacting;
    if (!from_centred(xy, k.x, c.position.x) || !from_centred(xy, k.y, c.position.y)) return false;
    if (k.z > z_axis.max_int) return false;
    c.position.z = z_axis.decode(k.z);
    c.linear_velocity = {};
    if (k.interacting && !(from_centred(speed, k.vx, c.linear_velocity.x) &&
                           from_centred(speed, k.vy, c.linear_velocity.y) &&
                           from_centred(speed, k.vz, c.linear_velocity.z)))
        return false;
    if (k.largest > 3) return false;
    netser::detail::smallest_three_fields f;
    f.largest = k.largest;
    for (std::size_t i = 0; i < 3; ++i) {
        const std::int64_t raw = std::int64_t{k.smallest[i]} + centre(unit);
        if (raw < 0 || raw > std::int64_t{unit.max_int}) return false;
        f.codes[i] = static_cast<std::uint32_t>(raw);
    }
    const std::array<float, 4> q = netser::detail::smallest_three_decode(f, unit);
    c.orientation = {q[0], q[1], q[2], q[3]};
    return true;
}

// --- the inputs (deterministic) and what reading them back must give ---------------------

inline constexpr std::size_t s94_count = 1000;

/// S94R has no operator== (reflected_types.hpp is shared with the other benchmarks).
inline bool same(const S94R& a, const S94R& b) noexcept {
    return a.x == b.x && a.y == b.y && a.z == b.z && a.health == b.health && a.alive == b.alive && a.id == b.id;
}

/// 1000 S94 with uniform random members, as s94_bench makes them.
const std::vector<S94R>& s94_input();
/// The inputs through the quantizer: what every library must read back.
const std::vector<S94R>& s94_expected();

/// 901 cubes: 841 on a 29 x 29 grid, of which 30 pushed (moving, tilted), and 60 thrown
/// in the air; 90 interacting (10%).
const Snapshot& snapshot_input();
const Snapshot& snapshot_expected();

/// Prints what differs and aborts: a library that does not read back what was written
/// is not measured.
[[noreturn]] void fail(std::string_view library, std::string_view what);

} // namespace netser_peers
