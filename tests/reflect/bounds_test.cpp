// bounds.hpp: netser::max_bits<T>() and netser::max_bytes<T>() are constexpr worst
// cases that mirror the visitor; a value at its largest writes exactly max_bits where
// the encoding has no align; measure_stream always counts what write_stream writes.

#include "reflect/test_types.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <variant>
#include <vector>

using netser::errc;
using namespace reflect_test;

namespace bounds_test {

struct Scalars {
    bool b = false;
    std::int8_t i8 = 0;
    std::uint16_t u16 = 0;
    std::int32_t i32 = 0;
    std::uint64_t u64 = 0;
    float f = 0;
    double d = 0;
    Weapon w = Weapon::none;
    Sparse s = Sparse::a;
};
NETSER_STRUCT(Scalars, b, i8, u16, i32, u64, f, d, w, s)
static_assert(netser::max_bits<Scalars>() == 1 + 8 + 16 + 32 + 64 + 32 + 64 + 2 + 3);

struct Attributed {
    int r = 0;
    std::uint32_t n = 0;
    float q = 0;
    int c = 0;
    bool flag = false;
    float maybe = 0;
    int skipped = 0;
};
NETSER_STRUCT(Attributed,
    (r, netser::range(-5, 5)),                              // 4
    (n, netser::bits(7)),                                   // 7
    (q, netser::quantize(-1000.f, 1000.f, 0.01f)),          // 18
    (c, netser::range(0, 1000), netser::common(0, 1, 2)),   // 1 + max(2, 10)
    flag,                                                   // 1
    (maybe, netser::only_if(&Attributed::flag)),            // 32 at most
    (skipped, netser::skip))                                // 0
static_assert(netser::max_bits<Attributed>() == 4 + 7 + 18 + 11 + 1 + 32);

struct Containers {
    std::array<std::uint8_t, 3> arr{};
    std::int16_t c_arr[2] = {};
    std::vector<std::uint16_t> vec;
    std::vector<bool> flags;
    std::string name;
    std::optional<std::uint8_t> opt;
    std::variant<bool, std::uint32_t, Unit> var;
    std::map<std::uint8_t, std::int16_t> map;
    std::set<std::uint16_t> set;
};
NETSER_STRUCT(Containers,
    arr,                                                    // 24
    c_arr,                                                  // 32
    (vec, netser::max_size(8), netser::range(0, 1023)),     // 4 + 8 * 10
    (flags, netser::max_size(10)),                          // 4 + 10
    (name, netser::max_length(16)),                         // 5 + 7 + 128
    (opt, netser::range(0, 15)),                            // 1 + 4
    var,                                                    // 2 + 32
    (map, netser::max_size(4), netser::range(-10, 10)),     // 3 + 4 * (8 + 5)
    (set, netser::max_size(4), netser::range(0, 1000)))     // 3 + 4 * 10
static_assert(netser::max_bits<Containers>() ==
              24 + 32 + (4 + 80) + (4 + 10) + (5 + 7 + 128) + 5 + 34 + (3 + 52) + (3 + 40));

// Every member at its largest has a fixed cost: no align anywhere.
struct Unaligned {
    int hp = 0;
    std::vector<std::uint16_t> items;
    std::optional<std::uint8_t> opt;
    Sparse e = Sparse::a;
    std::variant<std::uint8_t, std::uint32_t> var;
    std::array<float, 3> pos{};
    std::map<std::uint8_t, std::uint8_t> map;
    bool flag = false;
    std::uint16_t when_flag = 0;
    bool operator==(const Unaligned&) const = default;
};
NETSER_STRUCT(Unaligned,
    (hp, netser::range(0, 100), netser::common(100)),
    (items, netser::max_size(5), netser::range(0, 1000)),
    (opt, netser::range(0, 15)),
    e,
    var,
    (pos, netser::quantize(-1.f, 1.f, 0.001f)),
    (map, netser::max_size(3), netser::range(0, 7)),
    flag,
    (when_flag, netser::only_if(&Unaligned::flag)))
static_assert(netser::max_bits<Unaligned>() ==
              8 + (3 + 50) + 5 + 3 + (1 + 32) + 3 * 11 + (2 + 3 * 11) + 1 + 16);

struct Nested {
    Unaligned a;
    Unaligned b[2];
    std::vector<Unaligned> more;
};
NETSER_STRUCT(Nested, a, b, (more, netser::max_size(3)))
static_assert(netser::max_bits<Nested>() == 3 * netser::max_bits<Unaligned>() + 2 + 3 * netser::max_bits<Unaligned>());

Unaligned random_max_sized(std::mt19937& rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Unaligned v;
    v.hp = pick(0, 99); // not the common value: 1 + 7 bits
    for (int i = 0; i < 5; ++i) v.items.push_back(static_cast<std::uint16_t>(pick(0, 1000)));
    v.opt = static_cast<std::uint8_t>(pick(0, 15));
    v.e = (pick(0, 2) == 0) ? Sparse::a : Sparse::c;
    v.var = static_cast<std::uint32_t>(rng());
    for (float& p : v.pos) p = std::uniform_real_distribution<float>(-1.f, 1.f)(rng);
    while (v.map.size() < 3) v.map[static_cast<std::uint8_t>(pick(0, 255))] = static_cast<std::uint8_t>(pick(0, 7));
    v.flag = true;
    v.when_flag = static_cast<std::uint16_t>(pick(0, 65535));
    return v;
}

} // namespace bounds_test

using namespace bounds_test;

// docs/attributes.md's Player: health 1 + 7, x 16, y 16, moving 1, vx 14, weapon 2,
// name 5 + 7 + 128, inventory 4 + 8 * 10, target 1 + 6.
static_assert(netser::max_bits<Player>() == 8 + 16 + 16 + 1 + 14 + 2 + 140 + 84 + 7);
static_assert(netser::max_bytes<Player>() == 36);
static_assert(netser::max_bytes<Player>() <= 1200);
static_assert(netser::max_bits<Squad>() == 8 + 3 + 4 * 8);

TEST_CASE("max_bits and max_bytes are constant expressions", "[bounds]") {
    constexpr std::size_t bits = netser::max_bits<Player>();
    constexpr std::size_t bytes = netser::max_bytes<Player>();
    std::array<std::byte, netser::max_bytes<Containers>()> buffer{};
    CHECK(bits == 288);
    CHECK(bytes == 36);
    CHECK(buffer.size() == (netser::max_bits<Containers>() + 7) / 8);
}

TEST_CASE("a value at its largest writes exactly max_bits when nothing aligns", "[bounds]") {
    std::mt19937 rng(71);
    for (int i = 0; i < 200; ++i) {
        const Unaligned v = random_max_sized(rng);
        CHECK(write(v).bits == netser::max_bits<Unaligned>());
        Nested n{v, {v, v}, {v, v, v}};
        CHECK(write(n).bits == netser::max_bits<Nested>());
    }
}

TEST_CASE("a value at its largest fits a buffer of max_bytes exactly", "[bounds]") {
    std::mt19937 rng(72);
    for (int i = 0; i < 100; ++i) {
        Player p = random_player(rng);
        p.health = 99;
        p.moving = true;
        p.name.assign(16, 'n');
        p.inventory.assign(8, 1023);
        p.target = 63;
        std::array<std::byte, netser::max_bytes<Player>()> buffer{};
        netser::write_stream w(buffer);
        REQUIRE(netser::serialize(w, p));
        CHECK(w.bits_processed() <= netser::max_bits<Player>());
        // Only the align before the name's bytes can fall short of the bound.
        CHECK(w.bits_processed() + 7 >= netser::max_bits<Player>());
    }
    const Unaligned v = random_max_sized(rng);
    std::array<std::byte, netser::max_bytes<Unaligned>()> exact{};
    netser::write_stream w(exact);
    CHECK(netser::serialize(w, v));
    std::array<std::byte, netser::max_bytes<Unaligned>() - 1> short_buffer{};
    netser::write_stream s(short_buffer);
    CHECK_FALSE(netser::serialize(s, v));
    CHECK(s.error().code == errc::overflow);
}

TEST_CASE("measure_stream counts the bits write_stream writes for random values", "[bounds][measure]") {
    std::mt19937 rng(73);
    for (int i = 0; i < 500; ++i) {
        const Player p = random_player(rng);
        const written w = write(p); // checks measure == write
        CHECK(w.bits <= netser::max_bits<Player>());
        CHECK(close(round_trip(p), p));
    }
}

TEST_CASE("measure_stream started mid-byte pads aligns as the writer does", "[bounds][measure]") {
    std::mt19937 rng(74);
    for (std::size_t start = 0; start < 8; ++start) {
        const Player p = random_player(rng);
        std::array<std::byte, 64> buffer{};
        netser::write_stream w(buffer);
        std::uint64_t pad = 0;
        REQUIRE(netser::serialize_bits(w, pad, static_cast<int>(start)));
        REQUIRE(netser::serialize(w, p));
        netser::measure_stream m(start);
        REQUIRE(netser::serialize(m, p));
        CHECK(m.bits_processed() + start == w.bits_processed());
    }
}
