#pragma once

// The packet types shared by the fuzz targets, the seed generator (make_seeds.cpp) and
// the hostile-input suite (tests/hostile): one of each shape a game protocol has, a
// generator of valid values that gives the same values on every host, the invariants a
// successful read must satisfy (written by hand, independently of the library), and a
// dispatcher from a type index (the first byte of a fuzz input) to the type.
//
//   Player    every attribute: range, common, quantize, only_if, bits, skip, check,
//             finite, raw_bytes, a user attribute, described and sparse enums, a
//             nested described struct quantized per component, full-width integers
//   Inventory containers: vector of strings, map, set, string, optional, variant,
//             std::array, C array of plain aggregates, vector of optionals, vector<bool>
//   Entities  netser::sparse on std::array<std::optional<T>, 200> and on a std::vector
//   Body      netser::smallest_three, netser::unit_quaternion, netser::unit_vector,
//             a vector of quaternions
//   Node      recursive tree (std::vector<Node> with max_size): the nesting limit
//   Chain     recursive chain of optionals (std::unique_ptr<Chain>)
//   Envelope  message union: std::variant of five described messages
//   Extremes  full-width int64/uint64 ranges, raw and finite floats and doubles
//
// and, for the delta targets only (delta_types): the paths a delta takes apart from a plain
// read, each with raw and quantized floats and netser::skip members inside:
//
//   Fleet     vectors of structs (Ship) with skip members, an array and an optional of them,
//             maps (of raw floats, of Ships), sparse arrays (of Ships, of raw floats),
//             a vector of raw floats, an array of quantized ones, delta_ladder, delta_whole,
//             a variant
//   Roster    keyed deltas (docs/wire_format.md, "Keyed deltas"): a vector with
//             netser::keyed (Crew, keyed by an id in a range, with a skip member), a map
//             of enum keys, an unordered_map of signed keys, a set and an unordered_set
//             of ranged keys, a sparse array and a sparse vector of Crew. The generator
//             keeps the keys of a keyed vector unique (a delta write refuses a key twice)
//             and draws most keys from a small pool, so unrelated values share keys
//
// and, for the session targets (session_fuzz, budget_fuzz) and the hostile session tests:
//
//   Grid      a snapshot whose members all move by one code step, with every container a
//             delta_budget takes: an array by index, a keyed vector, an unordered_map, a
//             sparse array

#include "value_walk.hpp"

#include <netser/netser.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

namespace netser_fuzz {

// --- a generator that gives the same values on every host ------------------------

/// splitmix64; floats are made from integers by exact operations only (no FMA
/// contraction can change them), so a seed means the same value on s390x and i686.
struct rng {
    std::uint64_t state;

    std::uint64_t next() noexcept {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    /// [0, n) (n > 0); the modulo bias does not matter here.
    std::uint64_t below(std::uint64_t n) noexcept { return next() % n; }
    /// [lo, hi], any 64-bit range.
    std::int64_t between(std::int64_t lo, std::int64_t hi) noexcept {
        const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
        const std::uint64_t offset = span == UINT64_MAX ? next() : next() % (span + 1);
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + offset);
    }
    bool coin() noexcept { return (next() & 1u) != 0; }
    /// k / 2^shift for k in [lo, hi]: exact in float.
    float fixed(std::int64_t lo, std::int64_t hi, int shift) noexcept {
        return std::ldexp(static_cast<float>(between(lo, hi)), -shift);
    }
};

// --- types -----------------------------------------------------------------------

BOOST_DEFINE_ENUM_CLASS(Weapon, none, pistol, rifle, rocket)

BOOST_DEFINE_ENUM_CLASS(Team, red, blue, green) // 2 bits, code 3 undeclared

/// A sparse enum: codes 0 (off), 3 (low), 10 (high) in 4 bits; every other code is undeclared.
enum class Mode : std::int8_t { off = -3, low = 0, high = 7 };
BOOST_DESCRIBE_ENUM(Mode, off, low, high)

/// A user attribute: a fraction of a turn in [0, 1) as one of 256 steps (8 bits).
struct heading8_t {
    template <class S>
    bool serialize(S& s, float& turns) const {
        const std::size_t at = s.bits_processed();
        std::uint8_t step = 0;
        if constexpr (!S::is_reading) {
            if (!(turns >= 0.f && turns < 1.f)) return s.fail(netser::errc::invalid_value, at);
            step = static_cast<std::uint8_t>(turns * 256.f);
        }
        if (!netser::serialize_bits(s, step, 8)) return false;
        if constexpr (S::is_reading) turns = static_cast<float>(step) / 256.f;
        return true;
    }
    constexpr std::size_t max_bits() const noexcept { return 8; }
    constexpr std::size_t min_bits() const noexcept { return 8; }
    constexpr std::string_view schema_tag() const noexcept { return "heading8"; }
};
inline constexpr heading8_t heading8{};

struct Vec2 {
    float x = 0, y = 0;
};
NETSER_STRUCT(Vec2, x, y)

struct Player {
    int health = 100;
    float x = 0, y = 0;
    bool moving = false;
    float vx = 0;
    Weapon weapon = Weapon::none;
    Mode mode = Mode::low;
    std::string name;
    std::string tag;
    std::vector<std::uint16_t> inventory;
    std::optional<int> target;
    std::uint8_t flags = 0;
    std::int16_t delta = 0;
    std::int64_t big = 0;
    std::uint64_t serial = 0;
    float raw = 0;
    double precise = 0;
    float speed = 0;
    float heading = 0;
    Vec2 aim;
    std::uint32_t score = 0;
    int cached = 0;
};
NETSER_STRUCT(Player,
    (health, netser::range(0, 100), netser::common(100)),
    (x, netser::quantize(-2000.f, 2000.f, 0.1f)),
    (y, netser::quantize(-2000.f, 2000.f, 0.1f)),
    moving,
    (vx, netser::quantize(-50.f, 50.f, 0.01f), netser::only_if(&Player::moving)),
    weapon,
    mode,
    (name, netser::max_length(16)),
    (tag, netser::max_length(8), netser::raw_bytes),
    (inventory, netser::max_size(8), netser::range(0, 1023)),
    (target, netser::range(0, 63)),
    (flags, netser::bits(5)),
    (delta, netser::bits(9)),
    (big, netser::range(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max())),
    serial,
    raw,
    (precise, netser::finite),
    (speed, netser::common(0.f, 1.f), netser::quantize(0.f, 10.f, 0.05f)),
    (heading, heading8),
    (aim, netser::quantize(-1.f, 1.f, 0.001f)),
    (score, netser::check("player score"), netser::range(0u, 1000000u)),
    (cached, netser::skip))

/// A plain aggregate (Boost.PFR, default encodings).
struct Slot {
    std::uint8_t item = 0;
    std::uint8_t count = 0;
};

struct Inventory {
    std::vector<std::string> names;
    std::map<std::uint8_t, std::int32_t> stock;
    std::set<std::uint16_t> ids;
    std::string note;
    std::optional<std::string> motd;
    std::variant<std::uint8_t, Vec2, Slot> pick;
    std::array<std::uint8_t, 3> rgb{};
    Slot slots[2]{};
    std::vector<std::optional<std::uint8_t>> maybe;
    std::vector<bool> bits;
};
NETSER_STRUCT(Inventory,
    (names, netser::max_size(4), netser::max_length(12)),
    (stock, netser::max_size(6), netser::range(-1000, 1000)),
    (ids, netser::max_size(5), netser::range(0, 4095)),
    (note, netser::max_length(40)),
    (motd, netser::max_length(20)),
    pick,
    rgb,
    slots,
    (maybe, netser::max_size(3)),
    (bits, netser::max_size(10)))

struct Unit {
    std::uint16_t id = 0;
    Vec2 pos;
};
NETSER_STRUCT(Unit, (id, netser::range(0, 1000)), (pos, netser::quantize(-100.f, 100.f, 0.5f)))

inline constexpr std::size_t entity_slots = 200; // past 126: every rung of the relative index ladder
inline constexpr std::size_t mark_slots = 20;

struct Entities {
    std::array<std::optional<Unit>, entity_slots> units;
    std::vector<std::optional<std::uint8_t>> marks;
    std::uint8_t tail = 0;
};
NETSER_STRUCT(Entities,
    (units, netser::sparse),
    (marks, netser::sparse, netser::max_size(mark_slots)),
    (tail, netser::bits(3)))

/// A quaternion as four floats (x, y, z, w): a plain struct, the codec is the attribute.
struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
};

struct Body {
    Quat rotation;
    std::array<float, 4> spin{0.f, 0.f, 0.f, 1.f};
    Quat book;
    std::array<float, 3> normal{0.f, 0.f, 1.f};
    Vec2 velocity;
    std::vector<Quat> history;
};
NETSER_STRUCT(Body,
    (rotation, netser::smallest_three{9}),
    (spin, netser::smallest_three{15}),
    (book, netser::unit_quaternion{10}),
    (normal, netser::unit_vector(11)),
    velocity,
    (history, netser::max_size(3), netser::smallest_three{7}))

inline constexpr std::size_t node_max_kids = 4;

struct Node {
    std::int32_t v = 0;
    std::vector<Node> kids;
};
NETSER_STRUCT(Node, (v, netser::range(-1000, 1000)), (kids, netser::max_size(node_max_kids)))

struct Chain {
    std::uint8_t v = 0;
    std::unique_ptr<Chain> next;
};
NETSER_STRUCT(Chain, v, next)

struct Ping {
    std::uint16_t sequence = 0;
    bool reply = false;
};
NETSER_STRUCT(Ping, (sequence, netser::range(0, 1000)), reply)

struct Chat {
    std::string text;
    std::uint8_t channel = 0;
};
NETSER_STRUCT(Chat, (text, netser::max_length(64)), (channel, netser::range(0, 7)))

struct Move {
    Vec2 to;
    Quat facing;
};
NETSER_STRUCT(Move, (to, netser::quantize(-500.f, 500.f, 0.05f)), (facing, netser::smallest_three{10}))

struct Leave {
    std::uint16_t player = 0;
    Team team = Team::red;
};
NETSER_STRUCT(Leave, (player, netser::range(0, 1023)), team)

struct Shoot {
    Weapon weapon = Weapon::pistol;
    std::optional<std::uint16_t> victim;
};
NETSER_STRUCT(Shoot, weapon, (victim, netser::range(0, 1023)))

/// Five alternatives: a 3-bit index, so 5, 6 and 7 are past the end.
using Message = std::variant<Ping, Chat, Move, Leave, Shoot>;

struct Envelope {
    std::uint32_t sequence = 0;
    Message body;
};
NETSER_STRUCT(Envelope, sequence, body)

struct Extremes {
    std::int64_t full = 0;
    std::uint64_t ufull = 0;
    std::int64_t almost = 0;
    std::int64_t upper = 0;
    std::int8_t tiny = 0;
    float raw_f = 0;
    double raw_d = 0;
    float fin_f = 0;
    double fin_d = 0;
};
NETSER_STRUCT(Extremes,
    (full, netser::range(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max())),
    (ufull, netser::range(std::uint64_t{0}, std::numeric_limits<std::uint64_t>::max())),
    (almost, netser::range(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max() - 1)),
    (upper, netser::range(std::int64_t{-1}, std::numeric_limits<std::int64_t>::max())),
    tiny,
    raw_f,
    raw_d,
    (fin_f, netser::finite),
    (fin_d, netser::finite))

/// A ship: quantized floats (one with its own ladder), raw float and double, an optional,
/// and two members never sent (a reader of a delta copies the baseline's).
struct Ship {
    std::uint16_t id = 0;
    float x = 0, y = 0;
    float heading = 0;
    double fuel = 0;
    std::optional<float> boost;
    float speed = 0;
    std::int32_t local = 0;
    float smoothed = 0;
};
NETSER_STRUCT(Ship,
    (id, netser::range(0, 4095)),
    (x, netser::quantize(-1000.f, 1000.f, 0.01f)),
    (y, netser::quantize(-1000.f, 1000.f, 0.01f), netser::delta_ladder(4, 64, 1024)),
    heading,
    fuel,
    (boost, netser::quantize(0.f, 10.f, 0.125f)),
    (speed, netser::quantize(0.f, 50.f, 0.25f), netser::delta_whole),
    (local, netser::skip),
    (smoothed, netser::skip))

inline constexpr std::size_t berth_slots = 24;

struct Fleet {
    std::vector<Ship> ships;
    std::array<Ship, 2> escorts{};
    std::optional<Ship> flagship;
    std::map<std::uint8_t, float> beacons;
    std::map<std::uint16_t, Ship> docked;
    std::array<std::optional<Ship>, berth_slots> berths;
    std::vector<std::optional<float>> marks;
    std::vector<float> samples;
    std::array<float, 4> levels{};
    std::vector<std::uint16_t> whole;
    float gain = 0;
    double drift = 0;
    std::variant<float, Ship> focus;
    std::uint8_t scratch = 0;
};
NETSER_STRUCT(Fleet,
    (ships, netser::max_size(6)),
    escorts,
    flagship,
    (beacons, netser::max_size(4)),
    (docked, netser::max_size(3)),
    (berths, netser::sparse),
    (marks, netser::sparse, netser::max_size(12)),
    (samples, netser::max_size(5)),
    (levels, netser::quantize(-1.f, 1.f, 0.015625f)),
    (whole, netser::max_size(3), netser::range(0, 1000), netser::delta_whole),
    gain,
    drift,
    focus,
    (scratch, netser::skip))

/// A crew member, the element of Roster's keyed vector: its key (range(0, 999), 10 bits, so
/// the codes 1000 to 1023 are above it), a quantized float, a raw float, an optional, and a
/// member never sent.
struct Crew {
    std::uint16_t id = 0;
    float x = 0;
    float morale = 0;
    std::optional<std::uint8_t> rank;
    std::int32_t local = 0;
};
NETSER_STRUCT(Crew,
    (id, netser::range(0, 999)),
    (x, netser::quantize(-100.f, 100.f, 0.25f)),
    morale,
    (rank, netser::range(0, 9)),
    (local, netser::skip))

inline constexpr std::size_t crew_max = 12;
inline constexpr std::size_t seat_slots = 40;

struct Roster {
    std::vector<Crew> crew;
    std::map<Team, std::uint8_t> scores;
    std::unordered_map<std::int16_t, Crew> posts;
    std::set<std::int32_t> zones;
    std::unordered_set<std::uint16_t> tags;
    std::array<std::optional<Crew>, seat_slots> seats;
    std::vector<std::optional<Crew>> bunks;
};
NETSER_STRUCT(Roster,
    (crew, netser::max_size(crew_max), netser::keyed(&Crew::id)),
    (scores, netser::max_size(3), netser::range(0, 200)),
    (posts, netser::max_size(5)),
    (zones, netser::max_size(6), netser::range(-500, 500)),
    (tags, netser::max_size(20), netser::range(0, 999)),
    (seats, netser::sparse),
    (bunks, netser::sparse, netser::max_size(8)))

// The members declared netser::skip (value_walk.hpp keeps their bits apart).
constexpr std::array<std::string_view, 1> skipped_members(const Player*) noexcept { return {"cached"}; }
constexpr std::array<std::string_view, 2> skipped_members(const Ship*) noexcept { return {"local", "smoothed"}; }
constexpr std::array<std::string_view, 1> skipped_members(const Fleet*) noexcept { return {"scratch"}; }
constexpr std::array<std::string_view, 1> skipped_members(const Crew*) noexcept { return {"local"}; }

/// Whether skipped_members(C) names exactly the members C's description declares skip (one
/// left out would be compared as a member that is sent).
template <class C>
constexpr bool skips_listed() noexcept {
    namespace d = netser::detail;
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return ((d::has_attr<d::member_attrs<C, I>, netser::attr_kind::skip> ==
                 walk_detail::is_skipped<C>(d::member_at<C, I>::name)) &&
                ...);
    }(std::make_index_sequence<boost::mp11::mp_size<d::described_members<C>>::value>{});
}

// --- the list of packet types ----------------------------------------------------

template <class... T>
struct type_list {
    static constexpr std::size_t size = sizeof...(T);
};

using packet_types = type_list<Player, Inventory, Entities, Body, Node, Chain, Envelope, Extremes>;
inline constexpr std::size_t type_count = packet_types::size;

inline constexpr std::string_view type_names[type_count] = {
    "Player", "Inventory", "Entities", "Body", "Node", "Chain", "Envelope", "Extremes"};

template <class List, class... More>
struct appended;
template <class... T, class... More>
struct appended<type_list<T...>, More...> {
    using type = type_list<T..., More...>;
};

/// The delta targets' types: the packet types (the same indices), then Fleet and Roster.
using delta_types = appended<packet_types, Fleet, Roster>::type;
inline constexpr std::size_t delta_type_count = delta_types::size;

inline constexpr auto delta_type_names = [] {
    std::array<std::string_view, delta_type_count> names{};
    for (std::size_t i = 0; i < type_count; ++i) names[i] = type_names[i];
    names[type_count] = "Fleet";
    names[type_count + 1] = "Roster";
    return names;
}();

static_assert([]<class... T>(type_list<T...>) { return (skips_listed<T>() && ...); }(delta_types{}) &&
              skips_listed<Ship>() && skips_listed<Crew>());

/// Calls f(std::type_identity<T>{}) for the type with this index in List (index < List::size).
template <class List = packet_types, class F>
void visit_type(std::size_t index, F&& f) {
    [&]<class... T>(type_list<T...>) {
        std::size_t i = 0;
        ((i++ == index ? (f(std::type_identity<T>{}), 0) : 0), ...);
    }(List{});
}

/// Calls f(std::type_identity<T>{}, index) for every type of List.
template <class List = packet_types, class F>
void for_each_type(F&& f) {
    [&]<class... T>(type_list<T...>) {
        std::size_t i = 0;
        (f(std::type_identity<T>{}, i++), ...);
    }(List{});
}

/// Types with a compile-time bound (netser::max_bits): not the recursive ones.
template <class T>
inline constexpr bool statically_bounded = !std::is_same_v<T, Node> && !std::is_same_v<T, Chain>;

/// Bytes enough to write any value of T (for the recursive ones, any value these
/// generators make, and any value read from a fuzz input of up to 64 KiB).
template <class T>
constexpr std::size_t write_capacity() noexcept {
    if constexpr (statically_bounded<T>) return netser::max_packet_bytes<T>();
    else return std::size_t{1} << 17;
}

// --- UTF-8, checked independently of the library ---------------------------------

/// What a checked string carries: strict UTF-8 (RFC 3629: no overlong forms, no
/// surrogates, nothing above U+10FFFF) without NUL (U+0000).
inline bool is_text(std::string_view s) noexcept {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b0 = static_cast<unsigned char>(s[i]);
        int n = 0;
        std::uint32_t cp = 0, min = 0;
        if (b0 < 0x80) n = 0, cp = b0;
        else if ((b0 & 0xe0u) == 0xc0u) n = 1, cp = b0 & 0x1fu, min = 0x80;
        else if ((b0 & 0xf0u) == 0xe0u) n = 2, cp = b0 & 0x0fu, min = 0x800;
        else if ((b0 & 0xf8u) == 0xf0u) n = 3, cp = b0 & 0x07u, min = 0x10000;
        else return false;
        if (s.size() - i - 1 < static_cast<std::size_t>(n)) return false;
        for (int k = 1; k <= n; ++k) {
            const auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
            if ((b & 0xc0u) != 0x80u) return false;
            cp = (cp << 6) | (b & 0x3fu);
        }
        if (cp == 0 || cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
        i += static_cast<std::size_t>(n) + 1;
    }
    return true;
}

// --- generators of valid values --------------------------------------------------

/// How big the generated containers get: small keeps golden values and exhaustive
/// hostile loops short; full reaches every max_size and max_length.
enum class size_mode { small, full };

inline std::size_t pick_count(rng& r, std::size_t max, size_mode m) {
    if (m == size_mode::small) max = max < 3 ? max : 3;
    switch (r.below(4)) {
    case 0: return 0;
    case 1: return max;
    default: return static_cast<std::size_t>(r.below(max + 1));
    }
}

/// Valid text of at most max bytes: ASCII (DEL, the largest, included), and 2-, 3- and
/// 4-byte characters.
inline std::string utf8_text(rng& r, std::size_t max, size_mode m) {
    static constexpr std::string_view pieces[] = {"a", "Z", "0", " ", "-", "\xc3\xa9", "\xe2\x82\xac",
                                                  "\xf0\x9f\x98\x80", "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf",
                                                  "\x7f"};
    const std::size_t target = pick_count(r, max, m);
    std::string s;
    for (int tries = 0; s.size() < target && tries < 64; ++tries) {
        const std::string_view p = pieces[r.below(std::size(pieces))];
        if (s.size() + p.size() <= target) s += p;
    }
    return s;
}

/// Any bytes (mostly not UTF-8), for raw_bytes members.
inline std::string any_bytes(rng& r, std::size_t max, size_mode m) {
    std::string s(pick_count(r, max, m), '\0');
    for (char& c : s) c = static_cast<char>(r.below(256));
    return s;
}

inline float any_float_bits(rng& r) { return std::bit_cast<float>(static_cast<std::uint32_t>(r.next())); }
inline double any_double_bits(rng& r) { return std::bit_cast<double>(r.next()); }

/// Any bits half of the time, else a value whose bits matter beyond ==: +-0, NaNs with
/// payloads (quiet, signalling, negative), infinities, the smallest subnormal, +-1.
inline float edge_float(rng& r) {
    static constexpr std::uint32_t edges[] = {0x00000000, 0x80000000, 0x7fc00000, 0xffc00000, 0x7f800001,
                                              0x7fc12345, 0x7f800000, 0xff800000, 0x00000001, 0x3f800000,
                                              0xbf800000};
    return r.coin() ? any_float_bits(r) : std::bit_cast<float>(edges[r.below(std::size(edges))]);
}
inline double edge_double(rng& r) {
    static constexpr std::uint64_t edges[] = {0, 0x8000000000000000, 0x7ff8000000000000, 0xfff8000000000000,
                                              0x7ff0000000000001, 0x7ff8123456789abc, 0x7ff0000000000000,
                                              0xfff0000000000000, 1, 0x3ff0000000000000};
    return r.coin() ? any_double_bits(r) : std::bit_cast<double>(edges[r.below(std::size(edges))]);
}

/// A unit quaternion from integers: every operation is one correctly rounded step.
inline std::array<float, 4> unit_quat(rng& r) {
    std::int64_t c[4];
    std::int64_t sum = 0;
    do {
        sum = 0;
        for (auto& v : c) {
            v = r.between(-1000, 1000);
            sum += v * v;
        }
    } while (sum == 0);
    const double norm = std::sqrt(static_cast<double>(sum));
    std::array<float, 4> q{};
    for (std::size_t i = 0; i < 4; ++i) q[i] = static_cast<float>(static_cast<double>(c[i]) / norm);
    return q;
}
/// A unit vector, the same way.
inline std::array<float, 3> unit_direction(rng& r) {
    std::int64_t c[3];
    std::int64_t sum = 0;
    do {
        sum = 0;
        for (auto& v : c) {
            v = r.between(-1000, 1000);
            sum += v * v;
        }
    } while (sum == 0);
    const double norm = std::sqrt(static_cast<double>(sum));
    std::array<float, 3> d{};
    for (std::size_t i = 0; i < 3; ++i) d[i] = static_cast<float>(static_cast<double>(c[i]) / norm);
    return d;
}

inline Quat quat_value(rng& r) {
    const auto q = unit_quat(r);
    return {q[0], q[1], q[2], q[3]};
}

inline void randomize(Player& p, rng& r, size_mode m) {
    p.health = r.coin() ? 100 : static_cast<int>(r.between(0, 100));
    p.x = r.fixed(-16000, 16000, 3);
    p.y = r.fixed(-16000, 16000, 3);
    p.moving = r.coin();
    p.vx = p.moving ? r.fixed(-400, 400, 3) : 0.f;
    p.weapon = static_cast<Weapon>(r.below(4));
    static constexpr Mode modes[] = {Mode::off, Mode::low, Mode::high};
    p.mode = modes[r.below(3)];
    p.name = utf8_text(r, 16, m);
    p.tag = any_bytes(r, 8, m);
    p.inventory.resize(pick_count(r, 8, m));
    for (auto& i : p.inventory) i = static_cast<std::uint16_t>(r.between(0, 1023));
    if (r.coin()) p.target = static_cast<int>(r.between(0, 63));
    else p.target.reset();
    p.flags = static_cast<std::uint8_t>(r.below(32));
    p.delta = static_cast<std::int16_t>(r.between(-256, 255));
    p.big = static_cast<std::int64_t>(r.next());
    p.serial = r.next();
    p.raw = any_float_bits(r);
    // One draw per statement: the order of function arguments is up to the compiler.
    const auto mantissa = static_cast<double>(r.between(-(std::int64_t{1} << 52), std::int64_t{1} << 52));
    p.precise = std::ldexp(mantissa, static_cast<int>(r.between(-60, 60)));
    switch (r.below(3)) {
    case 0: p.speed = 0.f; break;
    case 1: p.speed = 1.f; break;
    default: p.speed = r.fixed(0, 40, 2); break;
    }
    p.heading = r.fixed(0, 255, 8);
    p.aim = {r.fixed(-1024, 1024, 10), r.fixed(-1024, 1024, 10)};
    p.score = static_cast<std::uint32_t>(r.between(0, 1000000));
    p.cached = 0;
}

inline void randomize(Inventory& v, rng& r, size_mode m) {
    v.names.resize(pick_count(r, 4, m));
    for (auto& n : v.names) n = utf8_text(r, 12, m);
    v.stock.clear();
    for (std::size_t i = 0, n = pick_count(r, 6, m); i < n; ++i)
        v.stock[static_cast<std::uint8_t>(r.below(256))] = static_cast<std::int32_t>(r.between(-1000, 1000));
    v.ids.clear();
    for (std::size_t i = 0, n = pick_count(r, 5, m); i < n; ++i) v.ids.insert(static_cast<std::uint16_t>(r.below(4096)));
    v.note = utf8_text(r, 40, m);
    if (r.coin()) v.motd = utf8_text(r, 20, m);
    else v.motd.reset();
    switch (r.below(3)) {
    case 0: v.pick = static_cast<std::uint8_t>(r.below(256)); break;
    case 1: v.pick = Vec2{any_float_bits(r), any_float_bits(r)}; break;
    default: v.pick = Slot{static_cast<std::uint8_t>(r.below(256)), static_cast<std::uint8_t>(r.below(256))}; break;
    }
    for (auto& c : v.rgb) c = static_cast<std::uint8_t>(r.below(256));
    for (auto& s : v.slots) s = {static_cast<std::uint8_t>(r.below(256)), static_cast<std::uint8_t>(r.below(256))};
    v.maybe.resize(pick_count(r, 3, m));
    for (auto& o : v.maybe) {
        if (r.coin()) o = static_cast<std::uint8_t>(r.below(256));
        else o.reset();
    }
    v.bits.resize(pick_count(r, 10, m));
    for (std::size_t i = 0; i < v.bits.size(); ++i) v.bits[i] = r.coin();
}

inline void randomize(Entities& e, rng& r, size_mode m) {
    // Densities from empty to full; small mode keeps a handful of far-apart units.
    const std::uint64_t per_256 = m == size_mode::small ? 6 : r.below(257);
    for (auto& u : e.units) {
        if (r.below(256) < per_256) u = Unit{static_cast<std::uint16_t>(r.between(0, 1000)),
                                             {r.fixed(-200, 200, 1), r.fixed(-200, 200, 1)}};
        else u.reset();
    }
    if (m == size_mode::small && r.coin()) e.units[entity_slots - 1] = Unit{1000, {100.f, -100.f}}; // the last rung
    e.marks.resize(pick_count(r, mark_slots, m));
    for (auto& o : e.marks) {
        if (r.coin()) o = static_cast<std::uint8_t>(r.below(256));
        else o.reset();
    }
    e.tail = static_cast<std::uint8_t>(r.below(8));
}

inline void randomize(Body& b, rng& r, size_mode m) {
    b.rotation = quat_value(r);
    b.spin = unit_quat(r);
    b.book = quat_value(r);
    b.normal = unit_direction(r);
    b.velocity = {any_float_bits(r), any_float_bits(r)};
    b.history.resize(pick_count(r, 3, m));
    for (auto& q : b.history) q = quat_value(r);
}

/// A tree of at most `budget` more nodes below, at most `depth` levels.
inline void random_tree(Node& n, rng& r, int depth, int& budget) {
    n.v = static_cast<std::int32_t>(r.between(-1000, 1000));
    n.kids.clear();
    if (depth <= 1) return;
    const auto want = static_cast<int>(r.below(node_max_kids + 1));
    for (int i = 0; i < want && budget > 0; ++i) {
        --budget;
        random_tree(n.kids.emplace_back(), r, depth - 1, budget);
    }
}

/// A straight line of `depth` nodes (depth 64 is the deepest a default read accepts).
inline Node node_chain(int depth, std::int32_t v = 7) {
    Node root;
    Node* n = &root;
    for (int i = 1; i < depth; ++i) {
        n->v = v;
        n = &n->kids.emplace_back();
    }
    n->v = v;
    return root;
}

inline void randomize(Node& n, rng& r, size_mode m) {
    if (m == size_mode::full && r.below(8) == 0) {
        const auto depth = static_cast<int>(r.between(1, 64));
        n = node_chain(depth, static_cast<std::int32_t>(r.between(-1000, 1000)));
        return;
    }
    int budget = m == size_mode::small ? 6 : 120;
    random_tree(n, r, m == size_mode::small ? 3 : 8, budget);
}

inline void randomize(Chain& c, rng& r, size_mode m) {
    const std::uint64_t length = m == size_mode::small ? r.below(4) : (r.below(8) == 0 ? 63 : r.below(12));
    c.v = static_cast<std::uint8_t>(r.below(256));
    Chain* at = &c;
    for (std::uint64_t i = 0; i < length; ++i) {
        at->next = std::make_unique<Chain>();
        at = at->next.get();
        at->v = static_cast<std::uint8_t>(r.below(256));
    }
    at->next.reset();
}

inline void randomize(Envelope& e, rng& r, size_mode m) {
    e.sequence = static_cast<std::uint32_t>(r.next());
    switch (r.below(5)) {
    case 0: e.body = Ping{static_cast<std::uint16_t>(r.between(0, 1000)), r.coin()}; break;
    case 1: e.body = Chat{utf8_text(r, 64, m), static_cast<std::uint8_t>(r.below(8))}; break;
    case 2: e.body = Move{{r.fixed(-4000, 4000, 3), r.fixed(-4000, 4000, 3)}, quat_value(r)}; break;
    case 3: e.body = Leave{static_cast<std::uint16_t>(r.below(1024)), static_cast<Team>(r.below(3))}; break;
    default: {
        Shoot s{static_cast<Weapon>(r.below(4)), std::nullopt};
        if (r.coin()) s.victim = static_cast<std::uint16_t>(r.below(1024));
        e.body = s;
        break;
    }
    }
}

inline void randomize(Extremes& x, rng& r, size_mode) {
    constexpr auto lo = std::numeric_limits<std::int64_t>::min();
    constexpr auto hi = std::numeric_limits<std::int64_t>::max();
    static constexpr std::int64_t edges[] = {lo, lo + 1, -1, 0, 1, hi - 1, hi};
    auto pick = [&](std::int64_t top) {
        std::int64_t v = r.coin() ? edges[r.below(std::size(edges))] : static_cast<std::int64_t>(r.next());
        return v > top ? top : v;
    };
    x.full = pick(hi);
    x.ufull = r.coin() ? r.next() : (r.coin() ? 0 : UINT64_MAX);
    x.almost = pick(hi - 1);
    x.upper = pick(hi);
    if (x.upper < -1) x.upper = -1;
    x.tiny = static_cast<std::int8_t>(r.between(-128, 127));
    x.raw_f = any_float_bits(r);
    x.raw_d = any_double_bits(r);
    do x.fin_f = any_float_bits(r); while (!std::isfinite(x.fin_f));
    do x.fin_d = any_double_bits(r); while (!std::isfinite(x.fin_d));
}

inline void randomize(Ship& s, rng& r, size_mode) {
    s.id = static_cast<std::uint16_t>(r.below(4096));
    s.x = r.fixed(-100000, 100000, 7);
    s.y = r.fixed(-100000, 100000, 7);
    s.heading = edge_float(r);
    s.fuel = edge_double(r);
    if (r.coin()) s.boost = r.fixed(0, 80, 3);
    else s.boost.reset();
    s.speed = r.fixed(0, 200, 2);
    s.local = 0;
    s.smoothed = 0;
}

inline Ship ship_value(rng& r, size_mode m) {
    Ship s;
    randomize(s, r, m);
    return s;
}

inline void randomize(Fleet& f, rng& r, size_mode m) {
    f.ships.resize(pick_count(r, 6, m));
    for (auto& s : f.ships) randomize(s, r, m);
    for (auto& s : f.escorts) randomize(s, r, m);
    if (r.coin()) f.flagship = ship_value(r, m);
    else f.flagship.reset();
    f.beacons.clear();
    for (std::size_t i = 0, n = pick_count(r, 4, m); i < n; ++i)
        f.beacons[static_cast<std::uint8_t>(r.below(256))] = edge_float(r);
    f.docked.clear();
    for (std::size_t i = 0, n = pick_count(r, 3, m); i < n; ++i)
        f.docked[static_cast<std::uint16_t>(r.next())] = ship_value(r, m);
    const std::uint64_t per_256 = m == size_mode::small ? 16 : r.below(257);
    for (auto& b : f.berths) {
        if (r.below(256) < per_256) b = ship_value(r, m);
        else b.reset();
    }
    f.marks.resize(pick_count(r, 12, m));
    for (auto& o : f.marks) {
        if (r.coin()) o = edge_float(r);
        else o.reset();
    }
    f.samples.resize(pick_count(r, 5, m));
    for (auto& v : f.samples) v = edge_float(r);
    for (auto& v : f.levels) v = r.fixed(-64, 64, 6);
    f.whole.resize(pick_count(r, 3, m));
    for (auto& v : f.whole) v = static_cast<std::uint16_t>(r.below(1001));
    f.gain = edge_float(r);
    f.drift = edge_double(r);
    if (r.coin()) f.focus = edge_float(r);
    else f.focus = ship_value(r, m);
    f.scratch = 0;
}

/// A key of Roster's containers: most from a small pool (so unrelated values share keys,
/// and a delta between them keeps, changes and moves entries), the rest from [lo, hi].
inline std::int64_t pooled_key(rng& r, std::int64_t pool_lo, std::int64_t pool_hi, std::int64_t lo, std::int64_t hi) {
    return r.below(4) != 0 ? r.between(pool_lo, pool_hi) : r.between(lo, hi);
}

inline void randomize(Crew& c, rng& r, size_mode) {
    c.id = static_cast<std::uint16_t>(pooled_key(r, 0, 23, 0, 999));
    c.x = r.fixed(-400, 400, 2);
    c.morale = edge_float(r);
    if (r.coin()) c.rank = static_cast<std::uint8_t>(r.below(10));
    else c.rank.reset();
    c.local = 0;
}

inline Crew crew_value(rng& r, size_mode m) {
    Crew c;
    randomize(c, r, m);
    return c;
}

/// Whether the vector holds Crew with an id that is not yet in it.
inline bool has_crew_id(const std::vector<Crew>& crew, std::uint16_t id) {
    for (const auto& c : crew)
        if (c.id == id) return true;
    return false;
}

/// Puts the crew in one of the orders a game keeps: as it is, sorted by id, the reverse.
inline void reorder_crew(std::vector<Crew>& crew, rng& r) {
    const auto by_id = [](const Crew& a, const Crew& b) { return a.id < b.id; };
    switch (r.below(3)) {
    case 0: break;
    case 1: std::sort(crew.begin(), crew.end(), by_id); break;
    default: std::sort(crew.begin(), crew.end(), [&](const Crew& a, const Crew& b) { return by_id(b, a); }); break;
    }
}

/// Adds a crew member of an id the vector does not hold (there is always one: 1000 ids).
inline void spawn_crew(std::vector<Crew>& crew, rng& r, size_mode m) {
    Crew c = crew_value(r, m);
    while (has_crew_id(crew, c.id)) c.id = static_cast<std::uint16_t>(pooled_key(r, 0, 23, 0, 999));
    crew.push_back(c);
}

inline void randomize(Roster& v, rng& r, size_mode m) {
    v.crew.clear();
    for (std::size_t i = 0, n = pick_count(r, crew_max, m); i < n; ++i) spawn_crew(v.crew, r, m);
    reorder_crew(v.crew, r);
    v.scores.clear();
    for (const Team t : {Team::red, Team::blue, Team::green})
        if (r.coin()) v.scores[t] = static_cast<std::uint8_t>(r.below(201));
    v.posts.clear();
    for (std::size_t i = 0, n = pick_count(r, 5, m); i < n; ++i)
        v.posts[static_cast<std::int16_t>(pooled_key(r, -4, 4, -32768, 32767))] = crew_value(r, m);
    v.zones.clear();
    for (std::size_t i = 0, n = pick_count(r, 6, m); i < n; ++i)
        v.zones.insert(static_cast<std::int32_t>(pooled_key(r, -4, 4, -500, 500)));
    v.tags.clear();
    for (std::size_t i = 0, n = pick_count(r, 20, m); i < n; ++i)
        v.tags.insert(static_cast<std::uint16_t>(pooled_key(r, 0, 15, 0, 999)));
    const std::uint64_t per_256 = m == size_mode::small ? 24 : r.below(257);
    for (auto& s : v.seats) {
        if (r.below(256) < per_256) s = crew_value(r, m);
        else s.reset();
    }
    v.bunks.resize(pick_count(r, 8, m));
    for (auto& b : v.bunks) {
        if (r.coin()) b = crew_value(r, m);
        else b.reset();
    }
}

/// What a game does to a Roster between two snapshots: some crew leave (erased in place or
/// swap-removed), some change, some join; the order may change; entries of the maps and
/// sets come and go, sparse slots fill and empty. A valid value stays valid.
inline void evolve(Roster& v, rng& r, size_mode m = size_mode::small) {
    for (std::uint64_t k = 0, leave = v.crew.empty() ? 0 : r.below(3); k < leave && !v.crew.empty(); ++k) {
        const auto i = static_cast<std::size_t>(r.below(v.crew.size()));
        if (r.coin()) {
            v.crew[i] = v.crew.back();
            v.crew.pop_back();
        } else {
            v.crew.erase(v.crew.begin() + static_cast<std::ptrdiff_t>(i));
        }
    }
    for (auto& c : v.crew)
        if (r.below(3) == 0) {
            const std::uint16_t id = c.id;
            c = crew_value(r, m);
            c.id = id;
        }
    for (std::uint64_t k = 0, join = r.below(3); k < join && v.crew.size() < crew_max; ++k) spawn_crew(v.crew, r, m);
    if (r.below(4) == 0) reorder_crew(v.crew, r);
    if (r.coin() && !v.scores.empty()) v.scores.erase(v.scores.begin());
    if (r.coin()) v.scores[static_cast<Team>(r.below(3))] = static_cast<std::uint8_t>(r.below(201));
    // The hash tables by key, not in their iteration order (the same on every host).
    std::vector<std::int16_t> posts;
    for (const auto& [key, c] : v.posts) posts.push_back(key);
    std::sort(posts.begin(), posts.end());
    if (r.coin() && !posts.empty()) {
        v.posts.erase(posts.front());
        posts.erase(posts.begin());
    }
    for (const auto key : posts)
        if (r.below(3) == 0) v.posts[key].x = r.fixed(-400, 400, 2);
    if (r.coin() && v.posts.size() < 5) v.posts[static_cast<std::int16_t>(r.between(-4, 4))] = crew_value(r, m);
    if (r.coin() && !v.zones.empty()) v.zones.erase(v.zones.begin());
    if (r.coin() && v.zones.size() < 6) v.zones.insert(static_cast<std::int32_t>(r.between(-500, 500)));
    if (r.coin() && !v.tags.empty()) v.tags.erase(*std::min_element(v.tags.begin(), v.tags.end()));
    if (r.coin() && v.tags.size() < 20) v.tags.insert(static_cast<std::uint16_t>(r.below(1000)));
    for (auto& s : v.seats)
        if (r.below(8) == 0) {
            if (s && r.coin()) s.reset();
            else if (s) s->x = r.fixed(-400, 400, 2);
            else s = crew_value(r, m);
        }
    if (r.coin() && !v.bunks.empty()) v.bunks.pop_back();
    if (r.coin() && v.bunks.size() < 8) v.bunks.push_back(crew_value(r, m));
    for (auto& b : v.bunks)
        if (r.below(4) == 0) b = crew_value(r, m);
}

/// A valid value of T from the seed (the same on every host).
template <class T>
T make_value(std::uint64_t seed, size_mode m = size_mode::full) {
    rng r{seed * 0x100000001b3ull + 0x5eed};
    T v{};
    randomize(v, r, m);
    return v;
}

// --- what a successful read satisfies (checked by hand, not by the library) -------

/// Within [lo, hi], allowing the float rounding of a quantized decode; false for NaN.
inline bool within(float v, float lo, float hi) noexcept {
    const float slack = (hi - lo) * 1e-6f;
    return v >= lo - slack && v <= hi + slack;
}

template <class I, class L, class H>
constexpr bool in_range(I v, L lo, H hi) noexcept {
    return !std::cmp_less(v, lo) && !std::cmp_greater(v, hi);
}

inline bool declared(Weapon w) noexcept {
    return w == Weapon::none || w == Weapon::pistol || w == Weapon::rifle || w == Weapon::rocket;
}
inline bool declared(Team t) noexcept { return t == Team::red || t == Team::blue || t == Team::green; }
inline bool declared(Mode m) noexcept { return m == Mode::off || m == Mode::low || m == Mode::high; }

template <class Q>
bool unit_length(const Q& q) noexcept {
    float c[4];
    if constexpr (std::is_same_v<Q, Quat>) c[0] = q.x, c[1] = q.y, c[2] = q.z, c[3] = q.w;
    else for (std::size_t i = 0; i < 4; ++i) c[i] = q[i];
    double sum = 0;
    for (float v : c) {
        if (!std::isfinite(v) || v < -1.f || v > 1.f) return false;
        sum += double{v} * v;
    }
    return std::fabs(sum - 1.0) < 1e-4;
}

inline bool satisfies_declared(const Player& p) {
    const bool heading_step = p.heading >= 0.f && p.heading < 1.f && p.heading * 256.f == std::floor(p.heading * 256.f);
    return in_range(p.health, 0, 100) && within(p.x, -2000.f, 2000.f) && within(p.y, -2000.f, 2000.f) &&
           (p.moving ? within(p.vx, -50.f, 50.f) : p.vx == 0.f) && declared(p.weapon) && declared(p.mode) &&
           p.name.size() <= 16 && is_text(p.name) && p.tag.size() <= 8 && p.inventory.size() <= 8 &&
           [&] {
               for (auto i : p.inventory)
                   if (i > 1023) return false;
               return true;
           }() &&
           (!p.target || in_range(*p.target, 0, 63)) && p.flags < 32 && in_range(p.delta, -256, 255) &&
           std::isfinite(p.precise) && within(p.speed, 0.f, 10.f) && heading_step && within(p.aim.x, -1.f, 1.f) &&
           within(p.aim.y, -1.f, 1.f) && p.score <= 1000000u && p.cached == 0;
}

inline bool satisfies_declared(const Inventory& v) {
    if (v.names.size() > 4 || v.stock.size() > 6 || v.ids.size() > 5 || v.maybe.size() > 3 || v.bits.size() > 10)
        return false;
    for (const auto& n : v.names)
        if (n.size() > 12 || !is_text(n)) return false;
    for (const auto& [k, s] : v.stock)
        if (!in_range(s, -1000, 1000)) return false;
    for (auto id : v.ids)
        if (id > 4095) return false;
    if (v.note.size() > 40 || !is_text(v.note)) return false;
    if (v.motd && (v.motd->size() > 20 || !is_text(*v.motd))) return false;
    return v.pick.index() < 3;
}

inline bool satisfies_declared(const Entities& e) {
    for (const auto& u : e.units)
        if (u && (u->id > 1000 || !within(u->pos.x, -100.f, 100.f) || !within(u->pos.y, -100.f, 100.f))) return false;
    return e.marks.size() <= mark_slots && e.tail < 8;
}

inline bool satisfies_declared(const Body& b) {
    if (!unit_length(b.rotation) || !unit_length(b.spin) || !unit_length(b.book) || b.history.size() > 3) return false;
    double sum = 0;
    for (float c : b.normal) {
        if (!std::isfinite(c)) return false;
        sum += double{c} * c;
    }
    if (std::fabs(sum - 1.0) >= 1e-4) return false;
    for (const auto& q : b.history)
        if (!unit_length(q)) return false;
    return true;
}

inline bool node_ok(const Node& n, std::size_t depth, std::size_t max_depth) {
    if (depth > max_depth || !in_range(n.v, -1000, 1000) || n.kids.size() > node_max_kids) return false;
    for (const auto& k : n.kids)
        if (!node_ok(k, depth + 1, max_depth)) return false;
    return true;
}
inline bool satisfies_declared(const Node& n, std::size_t max_depth = 64) { return node_ok(n, 1, max_depth); }

inline bool satisfies_declared(const Chain& c, std::size_t max_depth = 64) {
    std::size_t depth = 1;
    for (const Chain* at = c.next.get(); at != nullptr; at = at->next.get()) ++depth;
    return depth <= max_depth;
}

inline bool satisfies_declared(const Envelope& e) {
    switch (e.body.index()) {
    case 0: return std::get<0>(e.body).sequence <= 1000;
    case 1: {
        const auto& c = std::get<1>(e.body);
        return c.text.size() <= 64 && is_text(c.text) && c.channel <= 7;
    }
    case 2: {
        const auto& mv = std::get<2>(e.body);
        return within(mv.to.x, -500.f, 500.f) && within(mv.to.y, -500.f, 500.f) && unit_length(mv.facing);
    }
    case 3: return std::get<3>(e.body).player <= 1023 && declared(std::get<3>(e.body).team);
    case 4: {
        const auto& s = std::get<4>(e.body);
        return declared(s.weapon) && (!s.victim || *s.victim <= 1023);
    }
    default: return false;
    }
}

inline bool satisfies_declared(const Ship& s) {
    return s.id <= 4095 && within(s.x, -1000.f, 1000.f) && within(s.y, -1000.f, 1000.f) &&
           (!s.boost || within(*s.boost, 0.f, 10.f)) && within(s.speed, 0.f, 50.f) && s.local == 0 &&
           std::bit_cast<std::uint32_t>(s.smoothed) == 0;
}

inline bool satisfies_declared(const Fleet& f) {
    if (f.ships.size() > 6 || f.beacons.size() > 4 || f.docked.size() > 3 || f.marks.size() > 12 ||
        f.samples.size() > 5 || f.whole.size() > 3 || f.scratch != 0)
        return false;
    const auto ships_ok = [](const auto& range, auto&& ship_of) {
        for (const auto& e : range)
            if (const Ship* s = ship_of(e); s != nullptr && !satisfies_declared(*s)) return false;
        return true;
    };
    const auto itself = [](const Ship& s) { return &s; };
    if (!ships_ok(f.ships, itself) || !ships_ok(f.escorts, itself) ||
        !ships_ok(f.docked, [](const auto& kv) { return &kv.second; }) ||
        !ships_ok(f.berths, [](const std::optional<Ship>& b) { return b ? &*b : nullptr; }) ||
        (f.flagship && !satisfies_declared(*f.flagship)))
        return false;
    for (float v : f.levels)
        if (!within(v, -1.f, 1.f)) return false;
    for (auto v : f.whole)
        if (v > 1000) return false;
    return f.focus.index() == 0 || satisfies_declared(std::get<1>(f.focus));
}

inline bool satisfies_declared(const Crew& c) {
    return c.id <= 999 && within(c.x, -100.f, 100.f) && (!c.rank || *c.rank <= 9) && c.local == 0;
}

inline bool satisfies_declared(const Roster& v) {
    if (v.crew.size() > crew_max || v.scores.size() > 3 || v.posts.size() > 5 || v.zones.size() > 6 ||
        v.tags.size() > 20 || v.bunks.size() > 8)
        return false;
    for (std::size_t i = 0; i < v.crew.size(); ++i) {
        if (!satisfies_declared(v.crew[i])) return false;
        for (std::size_t j = 0; j < i; ++j)
            if (v.crew[j].id == v.crew[i].id) return false; // a delta read never gives a key twice
    }
    for (const auto& [team, score] : v.scores)
        if (!declared(team) || score > 200) return false;
    for (const auto& [key, c] : v.posts)
        if (!satisfies_declared(c)) return false;
    for (const auto z : v.zones)
        if (!in_range(z, -500, 500)) return false;
    for (const auto t : v.tags)
        if (t > 999) return false;
    for (const auto& s : v.seats)
        if (s && !satisfies_declared(*s)) return false;
    for (const auto& b : v.bunks)
        if (b && !satisfies_declared(*b)) return false;
    return true;
}

/// Whether a value (as a reader holds it) can be written as a delta, or be a baseline of
/// one: no keyed vector holds a key twice. A plain read accepts that (a keyed vector's plain
/// encoding is a vector's); a delta write refuses it with invalid_value.
template <class T>
bool delta_writable(const T&) {
    return true;
}
inline bool delta_writable(const Roster& v) {
    for (std::size_t i = 0; i < v.crew.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (v.crew[j].id == v.crew[i].id) return false;
    return true;
}

inline bool satisfies_declared(const Extremes& x) {
    return x.almost != std::numeric_limits<std::int64_t>::max() && x.upper >= -1 && std::isfinite(x.fin_f) &&
           std::isfinite(x.fin_d);
}


// --- a snapshot for the session targets (session_fuzz, budget_fuzz) and the hostile
// session tests: every member changes by one code step, and the budget takes every
// container (an array by index, a keyed vector, a hash table, a sparse array). --------

struct Grid {
    std::uint16_t tick = 0;
    std::array<std::uint8_t, 16> cells{};
    std::vector<Unit> units;
    std::unordered_map<std::uint16_t, std::uint8_t> owners;
    std::array<std::optional<std::uint8_t>, 12> flags{};
    float heat = 0;
};
NETSER_STRUCT(Grid,
    (tick, netser::range(0, 1000)),
    (cells, netser::range(0, 15)),
    (units, netser::max_size(8), netser::keyed(&Unit::id)),
    (owners, netser::max_size(8), netser::range(0, 200)),
    (flags, netser::sparse, netser::range(0, 99)),
    (heat, netser::quantize(0.f, 10.f, 0.5f)))

inline void randomize(Grid& g, rng& r, size_mode m) {
    g.tick = static_cast<std::uint16_t>(r.below(1001));
    for (auto& c : g.cells) c = static_cast<std::uint8_t>(r.below(16));
    g.units.clear();
    for (std::size_t i = 0, n = pick_count(r, 8, m); i < n; ++i) {
        const auto id = static_cast<std::uint16_t>(r.below(m == size_mode::small ? 12 : 1001));
        bool taken = false;
        for (const auto& u : g.units) taken = taken || u.id == id;
        if (!taken) g.units.push_back({id, {r.fixed(-200, 200, 1), r.fixed(-200, 200, 1)}});
    }
    g.owners.clear();
    for (std::size_t i = 0, n = pick_count(r, 8, m); i < n; ++i)
        g.owners[static_cast<std::uint16_t>(r.below(m == size_mode::small ? 16 : 65536))] =
            static_cast<std::uint8_t>(r.below(201));
    for (auto& f : g.flags) {
        if (r.below(3) == 0) f = static_cast<std::uint8_t>(r.below(100));
        else f.reset();
    }
    g.heat = r.fixed(0, 20, 1);
}

/// What a game does to a Grid between two snapshots: a few members change by small steps.
inline void evolve(Grid& g, rng& r, size_mode m = size_mode::small) {
    if (r.coin()) g.tick = static_cast<std::uint16_t>((g.tick + 1) % 1001);
    for (auto& c : g.cells)
        if (r.below(4) == 0) c = static_cast<std::uint8_t>(r.below(16));
    if (r.coin() && !g.units.empty()) g.units.erase(g.units.begin() + static_cast<std::ptrdiff_t>(r.below(g.units.size())));
    for (auto& u : g.units)
        if (r.below(3) == 0) u.pos.x = r.fixed(-200, 200, 1);
    if (r.coin() && g.units.size() < 8) {
        const auto id = static_cast<std::uint16_t>(r.below(m == size_mode::small ? 12 : 1001));
        bool taken = false;
        for (const auto& u : g.units) taken = taken || u.id == id;
        if (!taken) g.units.push_back({id, {r.fixed(-200, 200, 1), 0.f}});
    }
    if (r.coin() && g.owners.size() < 8) g.owners[static_cast<std::uint16_t>(r.below(16))] = static_cast<std::uint8_t>(r.below(201));
    if (r.coin() && !g.owners.empty()) {
        std::uint16_t smallest = 0xffff;
        for (const auto& [k, v] : g.owners) smallest = k < smallest ? k : smallest;
        g.owners.erase(smallest);
    }
    for (auto& f : g.flags)
        if (r.below(5) == 0) {
            if (f) f.reset();
            else f = static_cast<std::uint8_t>(r.below(100));
        }
    if (r.coin()) g.heat = r.fixed(0, 20, 1);
}

inline bool satisfies_declared(const Grid& g) {
    for (const auto c : g.cells)
        if (c > 15) return false;
    for (std::size_t i = 0; i < g.units.size(); ++i) {
        const Unit& u = g.units[i];
        if (u.id > 1000 || !within(u.pos.x, -100.f, 100.f) || !within(u.pos.y, -100.f, 100.f)) return false;
    }
    for (const auto& [k, v] : g.owners)
        if (v > 200) return false;
    for (const auto& f : g.flags)
        if (f && *f > 99) return false;
    return g.tick <= 1000 && g.units.size() <= 8 && g.owners.size() <= 8 && within(g.heat, 0.f, 10.f);
}

inline bool delta_writable(const Grid& g) {
    for (std::size_t i = 0; i < g.units.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (g.units[j].id == g.units[i].id) return false;
    return true;
}

} // namespace netser_fuzz
