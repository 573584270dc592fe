#pragma once

// More shapes for overhead_bench.cpp, each hand-written with netser's primitives (the
// fastest hand-written form) and described with NETSER_STRUCT: arrays of values, two
// vectors of structs, a variant, the README's Player (a common value, only_if, a vector)
// and a loadout (an optional struct, a string, a vector of bytes). callgrind_overhead.sh
// reports them beside the judged shapes.

#include <netser/netser.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <variant>
#include <vector>

namespace netser_bench {

inline constexpr netser::quantization unit_q = netser::quantization::make(-1.f, 1.f, 0.001f);     // 11 bits
inline constexpr netser::quantization point_q = netser::quantization::make(-256.f, 256.f, 0.01f); // 16 bits

// Arrays of values: a direction and four inventory slots.
struct Arrays {
    std::array<float, 3> dir{};
    std::array<std::uint8_t, 4> slots{};
    std::uint16_t id = 0;
};
template <netser::stream S>
bool serialize(S& s, Arrays& v) noexcept {
    for (auto& d : v.dir)
        if (!netser::serialize_quantized(s, d, unit_q)) return false;
    for (auto& x : v.slots)
        if (!netser::serialize_int(s, x, 0, 99)) return false;
    return netser::serialize_bits(s, v.id, 12);
}
struct ArraysR {
    std::array<float, 3> dir{};
    std::array<std::uint8_t, 4> slots{};
    std::uint16_t id = 0;
};
NETSER_STRUCT(ArraysR, (dir, netser::quantize(-1.f, 1.f, 0.001f)), (slots, netser::range(0, 99)), (id, netser::bits(12)))

// A vector of up to 8 structs of three quantized floats.
struct Point {
    float x = 0.f, y = 0.f, z = 0.f;
};
struct Points {
    std::vector<Point> pts;
};
template <netser::stream S>
bool serialize(S& s, Points& v) noexcept {
    std::uint32_t n = static_cast<std::uint32_t>(v.pts.size());
    if (!netser::serialize_int(s, n, 0u, 8u)) return false;
    if constexpr (S::is_reading) { // every point starts from its default, as a reflected read does
        v.pts.clear();
        v.pts.resize(n);
    }
    for (auto& p : v.pts)
        if (!netser::serialize_quantized(s, p.x, point_q) || !netser::serialize_quantized(s, p.y, point_q) ||
            !netser::serialize_quantized(s, p.z, point_q))
            return false;
    return true;
}
struct PointR {
    float x = 0.f, y = 0.f, z = 0.f;
};
NETSER_STRUCT(PointR, (x, netser::quantize(-256.f, 256.f, 0.01f)), (y, netser::quantize(-256.f, 256.f, 0.01f)),
              (z, netser::quantize(-256.f, 256.f, 0.01f)))
struct PointsR {
    std::vector<PointR> pts;
};
NETSER_STRUCT(PointsR, (pts, netser::max_size(8)))

// A roster: a vector of up to 16 small structs (a team, a score, alive: 17 bits each).
struct RosterEntry {
    std::uint8_t team = 0;
    std::uint16_t score = 0;
    bool alive = false;

    bool operator==(const RosterEntry&) const = default;
};
struct Roster {
    std::vector<RosterEntry> entries;
};
template <netser::stream S>
bool serialize(S& s, Roster& v) noexcept {
    std::uint32_t n = static_cast<std::uint32_t>(v.entries.size());
    if (!netser::serialize_int(s, n, 0u, 16u)) return false;
    if constexpr (S::is_reading) { // every entry starts from its default, as a reflected read does
        v.entries.clear();
        v.entries.resize(n);
    }
    for (auto& e : v.entries)
        if (!netser::serialize_int(s, e.team, 0, 3) || !netser::serialize_int(s, e.score, 0, 9999) ||
            !netser::serialize_bool(s, e.alive))
            return false;
    return true;
}
struct RosterEntryR {
    std::uint8_t team = 0;
    std::uint16_t score = 0;
    bool alive = false;
};
NETSER_STRUCT(RosterEntryR, (team, netser::range(0, 3)), (score, netser::range(0, 9999)), alive)
struct RosterR {
    std::vector<RosterEntryR> entries;
};
NETSER_STRUCT(RosterR, (entries, netser::max_size(16)))

// A command: a variant of two structs, and a sequence number.
struct Move {
    std::uint16_t dx = 0, dy = 0;
};
struct Fire {
    std::uint8_t weapon = 0;
    bool alt = false;
};
struct Command {
    std::variant<Move, Fire> cmd;
    std::uint8_t seq = 0;
};
template <netser::stream S>
bool serialize(S& s, Command& v) noexcept {
    std::uint32_t i = static_cast<std::uint32_t>(v.cmd.index());
    if (!netser::serialize_int(s, i, 0u, 1u)) return false;
    if constexpr (S::is_reading) {
        if (i == 0) v.cmd.template emplace<0>();
        else v.cmd.template emplace<1>();
    }
    if (i == 0) {
        Move& m = std::get<0>(v.cmd);
        if (!netser::serialize_bits(s, m.dx, 16) || !netser::serialize_bits(s, m.dy, 16)) return false;
    } else {
        Fire& f = std::get<1>(v.cmd);
        if (!netser::serialize_bits(s, f.weapon, 8) || !netser::serialize_bool(s, f.alt)) return false;
    }
    return netser::serialize_bits(s, v.seq, 8);
}
struct MoveR {
    std::uint16_t dx = 0, dy = 0;
};
NETSER_STRUCT(MoveR, dx, dy)
struct FireR {
    std::uint8_t weapon = 0;
    bool alt = false;
};
NETSER_STRUCT(FireR, weapon, alt)
struct CommandR {
    std::variant<MoveR, FireR> cmd;
    std::uint8_t seq = 0;
};
NETSER_STRUCT(CommandR, cmd, seq)

// The README's Player.
inline constexpr netser::quantization readme_position = netser::quantization::make(-2000.f, 2000.f, 0.1f);
inline constexpr netser::quantization readme_velocity = netser::quantization::make(-50.f, 50.f, 0.01f);
struct Readme {
    int health = 100;
    float x = 0.f, y = 0.f;
    bool moving = false;
    float vx = 0.f;
    std::vector<std::uint16_t> inventory;
};
template <netser::stream S>
bool serialize(S& s, Readme& p) noexcept {
    bool full = p.health == 100;
    if (!netser::serialize_bool(s, full)) return false;
    if (full) {
        if constexpr (S::is_reading) p.health = 100;
    } else if (!netser::serialize_int(s, p.health, 0, 100)) {
        return false;
    }
    if (!netser::serialize_quantized(s, p.x, readme_position) || !netser::serialize_quantized(s, p.y, readme_position) ||
        !netser::serialize_bool(s, p.moving))
        return false;
    if (p.moving) {
        if (!netser::serialize_quantized(s, p.vx, readme_velocity)) return false;
    } else if constexpr (S::is_reading) {
        p.vx = 0.f;
    }
    std::uint32_t n = static_cast<std::uint32_t>(p.inventory.size());
    if (!netser::serialize_int(s, n, 0u, 8u)) return false;
    if constexpr (S::is_reading) p.inventory.resize(n);
    for (auto& i : p.inventory)
        if (!netser::serialize_int(s, i, 0, 1023)) return false;
    return true;
}
struct ReadmeR {
    int health = 100;
    float x = 0.f, y = 0.f;
    bool moving = false;
    float vx = 0.f;
    std::vector<std::uint16_t> inventory;
};
NETSER_STRUCT(ReadmeR,
    (health, netser::range(0, 100), netser::common(100)),
    (x, netser::quantize(-2000.f, 2000.f, 0.1f)),
    (y, netser::quantize(-2000.f, 2000.f, 0.1f)),
    moving,
    (vx, netser::quantize(-50.f, 50.f, 0.01f), netser::only_if(&ReadmeR::moving)),
    (inventory, netser::max_size(8), netser::range(0, 1023)))

// A loadout: an optional aim (a struct), a name and up to 8 items.
struct Loadout {
    std::uint16_t id = 0;
    std::optional<Point> aim;
    std::string name;
    std::vector<std::uint8_t> items;
    bool alive = false;
};
template <netser::stream S>
bool serialize(S& s, Loadout& e) noexcept {
    if (!netser::serialize_bits(s, e.id, 12)) return false;
    bool has_aim = e.aim.has_value();
    if (!netser::serialize_bool(s, has_aim)) return false;
    if constexpr (S::is_reading) {
        if (has_aim) e.aim.emplace();
        else e.aim.reset();
    }
    if (has_aim && !(netser::serialize_quantized(s, e.aim->x, unit_q) && netser::serialize_quantized(s, e.aim->y, unit_q) &&
                     netser::serialize_quantized(s, e.aim->z, unit_q)))
        return false;
    if (!netser::serialize_string(s, e.name, 16)) return false;
    std::uint32_t n = static_cast<std::uint32_t>(e.items.size());
    if (!netser::serialize_int(s, n, 0u, 8u)) return false;
    if constexpr (S::is_reading) e.items.resize(n);
    for (auto& i : e.items)
        if (!netser::serialize_int(s, i, 0, 200)) return false;
    return netser::serialize_bool(s, e.alive);
}
struct AimR {
    float x = 0.f, y = 0.f, z = 0.f;
};
NETSER_STRUCT(AimR, (x, netser::quantize(-1.f, 1.f, 0.001f)), (y, netser::quantize(-1.f, 1.f, 0.001f)),
              (z, netser::quantize(-1.f, 1.f, 0.001f)))
struct LoadoutR {
    std::uint16_t id = 0;
    std::optional<AimR> aim;
    std::string name;
    std::vector<std::uint8_t> items;
    bool alive = false;
};
NETSER_STRUCT(LoadoutR, (id, netser::bits(12)), aim, (name, netser::max_length(16)),
              (items, netser::max_size(8), netser::range(0, 200)), alive)

// Random values of each shape (the same seed for the hand-written and reflected forms).
inline void fill(Arrays& v, std::mt19937& r) {
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (auto& d : v.dir) d = u(r);
    for (auto& x : v.slots) x = static_cast<std::uint8_t>(r() % 100);
    v.id = static_cast<std::uint16_t>(r() % 4096);
}
inline void fill(Points& v, std::mt19937& r) {
    std::uniform_real_distribution<float> p(-256.f, 256.f);
    v.pts.resize(r() % 9);
    for (auto& q : v.pts) {
        q.x = p(r);
        q.y = p(r);
        q.z = p(r);
    }
}
inline void fill(Roster& v, std::mt19937& r) { // 4 to 16 entries: 10 on average
    v.entries.resize(4 + r() % 13);
    for (auto& e : v.entries) {
        e.team = static_cast<std::uint8_t>(r() % 4);
        e.score = static_cast<std::uint16_t>(r() % 10000);
        e.alive = (r() & 1) != 0;
    }
}
inline void fill(Command& v, std::mt19937& r) {
    if ((r() & 1) != 0) {
        Move& m = v.cmd.emplace<0>();
        m.dx = static_cast<std::uint16_t>(r());
        m.dy = static_cast<std::uint16_t>(r());
    } else {
        Fire& f = v.cmd.emplace<1>();
        f.weapon = static_cast<std::uint8_t>(r());
        f.alt = (r() & 1) != 0;
    }
    v.seq = static_cast<std::uint8_t>(r());
}
inline void fill(Readme& v, std::mt19937& r) {
    std::uniform_real_distribution<float> q(-2000.f, 2000.f), w(-50.f, 50.f);
    v.health = r() % 3 != 0 ? 100 : static_cast<int>(r() % 100);
    v.x = q(r);
    v.y = q(r);
    v.moving = (r() & 1) != 0;
    v.vx = v.moving ? w(r) : 0.f;
    v.inventory.resize(r() % 9);
    for (auto& i : v.inventory) i = static_cast<std::uint16_t>(r() % 1024);
}
inline void fill(Loadout& v, std::mt19937& r) {
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    v.id = static_cast<std::uint16_t>(r() % 4096);
    if ((r() & 1) != 0) v.aim = Point{u(r), u(r), u(r)};
    v.name.assign(r() % 12, static_cast<char>('a' + r() % 26));
    v.items.resize(r() % 9);
    for (auto& i : v.items) i = static_cast<std::uint8_t>(r() % 201);
    v.alive = (r() & 1) != 0;
}

// The reflected twin of a hand-written value, member by member.
inline void copy_to(const Arrays& h, ArraysR& r) {
    r.dir = h.dir;
    r.slots = h.slots;
    r.id = h.id;
}
inline void copy_to(const Points& h, PointsR& r) {
    r.pts.clear();
    for (const Point& p : h.pts) r.pts.push_back({p.x, p.y, p.z});
}
inline void copy_to(const Roster& h, RosterR& r) {
    r.entries.clear();
    for (const RosterEntry& e : h.entries) r.entries.push_back({e.team, e.score, e.alive});
}
inline void copy_to(const Command& h, CommandR& r) {
    if (const Move* m = std::get_if<0>(&h.cmd)) r.cmd = MoveR{m->dx, m->dy};
    else r.cmd = FireR{std::get<1>(h.cmd).weapon, std::get<1>(h.cmd).alt};
    r.seq = h.seq;
}
inline void copy_to(const Readme& h, ReadmeR& r) {
    r.health = h.health;
    r.x = h.x;
    r.y = h.y;
    r.moving = h.moving;
    r.vx = h.vx;
    r.inventory = h.inventory;
}
inline void copy_to(const Loadout& h, LoadoutR& r) {
    r.id = h.id;
    if (h.aim) r.aim = AimR{h.aim->x, h.aim->y, h.aim->z};
    else r.aim.reset();
    r.name = h.name;
    r.items = h.items;
    r.alive = h.alive;
}

// Equal values: the reflected twin of h is r.
template <class H, class R>
bool same_shape_values(const H& h, const R& r) {
    R twin;
    copy_to(h, twin);
    if constexpr (std::is_same_v<R, PointsR>) {
        if (twin.pts.size() != r.pts.size()) return false;
        for (std::size_t i = 0; i < r.pts.size(); ++i)
            if (twin.pts[i].x != r.pts[i].x || twin.pts[i].y != r.pts[i].y || twin.pts[i].z != r.pts[i].z) return false;
        return true;
    } else if constexpr (std::is_same_v<R, RosterR>) {
        if (twin.entries.size() != r.entries.size()) return false;
        for (std::size_t i = 0; i < r.entries.size(); ++i)
            if (twin.entries[i].team != r.entries[i].team || twin.entries[i].score != r.entries[i].score ||
                twin.entries[i].alive != r.entries[i].alive)
                return false;
        return true;
    } else if constexpr (std::is_same_v<R, CommandR>) {
        if (twin.cmd.index() != r.cmd.index() || twin.seq != r.seq) return false;
        if (twin.cmd.index() == 0)
            return std::get<0>(twin.cmd).dx == std::get<0>(r.cmd).dx && std::get<0>(twin.cmd).dy == std::get<0>(r.cmd).dy;
        return std::get<1>(twin.cmd).weapon == std::get<1>(r.cmd).weapon && std::get<1>(twin.cmd).alt == std::get<1>(r.cmd).alt;
    } else if constexpr (std::is_same_v<R, LoadoutR>) {
        const bool aims = twin.aim.has_value() == r.aim.has_value() &&
                          (!r.aim || (twin.aim->x == r.aim->x && twin.aim->y == r.aim->y && twin.aim->z == r.aim->z));
        return aims && twin.id == r.id && twin.name == r.name && twin.items == r.items && twin.alive == r.alive;
    } else if constexpr (std::is_same_v<R, ReadmeR>) {
        return twin.health == r.health && twin.x == r.x && twin.y == r.y && twin.moving == r.moving && twin.vx == r.vx &&
               twin.inventory == r.inventory;
    } else {
        return twin.dir == r.dir && twin.slots == r.slots && twin.id == r.id;
    }
}

} // namespace netser_bench
