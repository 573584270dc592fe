// The world of keyed_world_bench.cpp: entities with random 16-bit ids that spawn,
// despawn and move, and the containers a game could keep them in (a slot array it assigns
// itself, the same with netser::sparse, std::map and std::unordered_map by id, and
// std::vector with or without netser::keyed in three orders).
//
// The simulation runs on integers (positions in codes of 1/64 m, headings in whole
// degrees), so every compiler and standard library gives the same world for a seed: the
// random numbers are std::mt19937_64's raw output (specified by the standard), never a
// std::*_distribution (whose results are the library's own).
#pragma once

#include <netser/netser.hpp>

#include <boost/describe/enum.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <unordered_map>
#include <vector>

namespace keyed_world {

constexpr std::size_t max_alive = 256;

BOOST_DEFINE_ENUM_CLASS(Kind, infantry, scout, engineer, medic, vehicle, drone)

// An entity as the game sends it. x, y: 1/64 m in [-512, 512] (17 bits); heading in whole
// degrees (9 bits); health 0..100 (7 bits); kind (3 bits); id 16 bits: 69 bits in all.
struct Entity {
    std::uint16_t id = 0;
    float x = 0.f, y = 0.f;
    float heading = 0.f;
    int health = 100;
    Kind kind = Kind::infantry;
    bool operator==(const Entity&) const = default;
};
NETSER_STRUCT(Entity, id, (x, netser::quantize(-512.f, 512.f, 1.f / 64.f)),
              (y, netser::quantize(-512.f, 512.f, 1.f / 64.f)), (heading, netser::quantize(-180.f, 180.f, 1.f)),
              (health, netser::range(0, 100)), kind)

// The same without its id: the value of a map by id (53 bits).
struct Body {
    float x = 0.f, y = 0.f;
    float heading = 0.f;
    int health = 100;
    Kind kind = Kind::infantry;
    bool operator==(const Body&) const = default;
};
NETSER_STRUCT(Body, (x, netser::quantize(-512.f, 512.f, 1.f / 64.f)), (y, netser::quantize(-512.f, 512.f, 1.f / 64.f)),
              (heading, netser::quantize(-180.f, 180.f, 1.f)), (health, netser::range(0, 100)), kind)

using slot_array = std::array<std::optional<Entity>, max_alive>;

// 1. The slot array the game assigns itself (lowest free slot, kept until despawn).
struct SlotWorld {
    slot_array slots;
    bool operator==(const SlotWorld&) const = default;
};
NETSER_STRUCT(SlotWorld, slots)

// 2. The same with netser::sparse.
struct SparseWorld {
    slot_array slots;
    bool operator==(const SparseWorld&) const = default;
};
NETSER_STRUCT(SparseWorld, (slots, netser::sparse))

// 3. std::map by id.
struct MapWorld {
    std::map<std::uint16_t, Body> bodies;
    bool operator==(const MapWorld&) const = default;
};
NETSER_STRUCT(MapWorld, (bodies, netser::max_size(max_alive)))

// 4. std::unordered_map by id.
struct HashWorld {
    std::unordered_map<std::uint16_t, Body> bodies;
    bool operator==(const HashWorld&) const = default;
};
NETSER_STRUCT(HashWorld, (bodies, netser::max_size(max_alive)))

// 5, 6, 7b. A keyed vector (sorted by id, swap-remove order, spawn order).
struct KeyedWorld {
    std::vector<Entity> list;
    bool operator==(const KeyedWorld&) const = default;
};
NETSER_STRUCT(KeyedWorld, (list, netser::max_size(max_alive), netser::keyed(&Entity::id)))

// 7a. The plain vector (matched by position), swap-remove order.
struct PlainWorld {
    std::vector<Entity> list;
    bool operator==(const PlainWorld&) const = default;
};
NETSER_STRUCT(PlainWorld, (list, netser::max_size(max_alive)))

// ---- the simulation -------------------------------------------------------------------

constexpr std::int32_t max_code = 65536; // positions: codes of 1/64 m in [0, 65536]

struct Mob {
    std::uint16_t id = 0;
    std::int32_t px = 0, py = 0; // position codes
    int heading = 0;             // degrees in [-180, 179]
    int speed = 0;               // codes per tick
    int vx = 0, vy = 0;          // codes per tick
    int health = 100;
    Kind kind = Kind::infantry;
    bool moving = false;
};

inline int normalize_degrees(int h) { return ((h + 180) % 360 + 360) % 360 - 180; }

struct tick_stats {
    std::size_t alive = 0, spawned = 0, despawned = 0, moved = 0, turned = 0, health = 0, kind = 0;
};

// Per tick: `despawns` random alive entities go (8..24, plus a pull towards 200 alive),
// then the others update, then 8..24 new ones spawn (at most 256 alive). An entity
// switches between moving and standing with probability 1/10 a tick (so about half
// move); a moving one steps by its velocity (4..32 codes, 1/16 to 1/2 m, along its
// heading), turns by up to 45 degrees with probability 1/20 and bounces off the edges
// (a new heading); any one changes health with probability 1/32 and kind with 1/256.
class Sim {
public:
    explicit Sim(std::uint64_t seed) : rng_(seed) {}

    void tick() {
        despawned_.clear();
        spawned_.clear();
        stats_ = {};
        if (ticks_++ == 0) {
            for (int i = 0; i < 200; ++i) spawn();
        } else {
            const auto alive = static_cast<std::int64_t>(ids_.size());
            std::int64_t despawns = 8 + static_cast<std::int64_t>(below(17)) + (alive - 200) / 4;
            despawns = std::clamp<std::int64_t>(despawns, 0, alive);
            std::int64_t spawns = 8 + static_cast<std::int64_t>(below(17));
            spawns = std::min<std::int64_t>(spawns, static_cast<std::int64_t>(max_alive) - (alive - despawns));
            for (std::int64_t k = 0; k < despawns; ++k) {
                const std::size_t i = static_cast<std::size_t>(below(ids_.size()));
                const std::uint16_t id = ids_[i];
                ids_[i] = ids_.back();
                ids_.pop_back();
                mobs_.erase(id);
                despawned_.push_back(id);
            }
            for (const std::uint16_t id : ids_) update(mobs_.at(id));
            for (std::int64_t k = 0; k < spawns; ++k) spawn();
        }
        stats_.alive = ids_.size();
        stats_.spawned = spawned_.size();
        stats_.despawned = despawned_.size();
    }

    // This tick's despawned ids (in the order the game removed them) and spawned ids.
    const std::vector<std::uint16_t>& despawned() const noexcept { return despawned_; }
    const std::vector<std::uint16_t>& spawned() const noexcept { return spawned_; }
    const std::map<std::uint16_t, Mob>& alive() const noexcept { return mobs_; }
    const tick_stats& stats() const noexcept { return stats_; }

    static Body body(const Mob& m) {
        return {-512.f + static_cast<float>(m.px) / 64.f, -512.f + static_cast<float>(m.py) / 64.f,
                static_cast<float>(m.heading), m.health, m.kind};
    }
    static Entity entity(const Mob& m) {
        const Body b = body(m);
        return {m.id, b.x, b.y, b.heading, b.health, b.kind};
    }
    Entity entity(std::uint16_t id) const { return entity(mobs_.at(id)); }

private:
    std::uint64_t below(std::uint64_t n) { return rng_() % n; }
    bool chance(std::uint64_t one_in) { return below(one_in) == 0; }

    void steer(Mob& m) {
        constexpr double degree = 3.14159265358979323846 / 180.0;
        const double a = static_cast<double>(m.heading) * degree;
        m.vx = static_cast<int>(std::lround(static_cast<double>(m.speed) * std::cos(a)));
        m.vy = static_cast<int>(std::lround(static_cast<double>(m.speed) * std::sin(a)));
    }

    void spawn() {
        Mob m;
        do m.id = static_cast<std::uint16_t>(rng_() & 0xffff);
        while (mobs_.count(m.id) != 0);
        m.px = static_cast<std::int32_t>(below(max_code + 1));
        m.py = static_cast<std::int32_t>(below(max_code + 1));
        m.heading = static_cast<int>(below(360)) - 180;
        m.speed = 4 + static_cast<int>(below(29));
        m.kind = static_cast<Kind>(below(6));
        m.moving = chance(2);
        steer(m);
        ids_.push_back(m.id);
        spawned_.push_back(m.id);
        mobs_.emplace(m.id, m);
    }

    void update(Mob& m) {
        if (chance(10)) m.moving = !m.moving;
        if (m.moving) {
            if (chance(20)) {
                m.heading = normalize_degrees(m.heading + static_cast<int>(below(91)) - 45);
                steer(m);
                ++stats_.turned;
            }
            m.px += m.vx;
            m.py += m.vy;
            bool bounced = false;
            if (m.px < 0 || m.px > max_code) {
                m.px = m.px < 0 ? -m.px : 2 * max_code - m.px;
                m.heading = normalize_degrees(180 - m.heading);
                m.vx = -m.vx;
                bounced = true;
            }
            if (m.py < 0 || m.py > max_code) {
                m.py = m.py < 0 ? -m.py : 2 * max_code - m.py;
                m.heading = normalize_degrees(-m.heading);
                m.vy = -m.vy;
                bounced = true;
            }
            stats_.turned += bounced ? 1 : 0;
            stats_.moved += (m.vx != 0 || m.vy != 0) ? 1 : 0;
        }
        if (chance(32)) {
            m.health = std::clamp(m.health + static_cast<int>(below(31)) - 20, 0, 100);
            ++stats_.health;
        }
        if (chance(256)) {
            m.kind = static_cast<Kind>(below(6));
            ++stats_.kind;
        }
    }

    std::mt19937_64 rng_;
    std::size_t ticks_ = 0;
    std::map<std::uint16_t, Mob> mobs_;
    std::vector<std::uint16_t> ids_; // the alive ids, for choosing who despawns
    std::vector<std::uint16_t> despawned_, spawned_;
    tick_stats stats_;
};

// Where each form's game keeps its entities, updated from a tick's despawns and spawns.
struct Layouts {
    std::array<std::optional<std::uint16_t>, max_alive> slots; // the id in each slot
    std::vector<std::uint16_t> swap_order;                     // swap-remove, push_back
    std::vector<std::uint16_t> spawn_order;                    // erase in place, push_back

    void apply(const Sim& sim) {
        for (const std::uint16_t id : sim.despawned()) {
            for (auto& s : slots)
                if (s == id) s.reset();
            const auto it = std::find(swap_order.begin(), swap_order.end(), id);
            *it = swap_order.back();
            swap_order.pop_back();
            spawn_order.erase(std::find(spawn_order.begin(), spawn_order.end(), id));
        }
        for (const std::uint16_t id : sim.spawned()) {
            *std::find(slots.begin(), slots.end(), std::nullopt) = id; // the lowest free slot
            swap_order.push_back(id);
            spawn_order.push_back(id);
        }
    }
};

} // namespace keyed_world
