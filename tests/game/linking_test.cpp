// linking.hpp: link_context and linked(bits, unknown_link). A pointer to a shared object
// travels as its network id in `bits` bits (0 = nullptr), looked up in the link_context
// attached to the stream with set_context.

#include "game/game_types.hpp"

using netser::errc;
using namespace game_test;

namespace linking_test {

struct GameObject {
    int hp = 0;
};

struct Tower {
    int level = 0;
};

// home: 8-bit ids, an unknown one reads as nullptr; target: 12-bit ids, an unknown one fails.
struct Unit {
    GameObject* home = nullptr;
    const GameObject* target = nullptr;
};
NETSER_STRUCT(Unit, (home, netser::linked{8}), (target, netser::linked{12, netser::unknown_link::fail}))

// A linked pointer inside a container.
struct Squad {
    std::vector<GameObject*> members;
};
NETSER_STRUCT(Squad, (members, netser::max_size(4), netser::linked{8}))

// Objects 5 and 300; a Tower under 9.
struct world {
    GameObject base, enemy, stranger;
    Tower tower;
    netser::link_context links;
    world() {
        REQUIRE(links.add(&base, 5));
        REQUIRE(links.add(&enemy, 300));
        REQUIRE(links.add(&tower, 9));
    }
};

} // namespace linking_test

using namespace linking_test;

// home = id 5 in 8 bits, target = id 300 (0x12C) in 12 bits: 05, then 2C 01. 20 bits.
TEST_CASE("a linked pointer is written as its network id", "[game][linking][golden]") {
    world w;
    const auto out = write(Unit{&w.base, &w.enemy}, &w.links);
    CHECK(out.hex == "05 2C 01");
    CHECK(out.bits == 20);
    STATIC_REQUIRE(netser::max_bits<Unit>() == 20);

    Unit in{&w.stranger, &w.stranger};
    REQUIRE_FALSE(read_hex("05 2C 01", in, nullptr, &w.links));
    CHECK(in.home == &w.base);
    CHECK(in.target == &w.enemy);
}

TEST_CASE("a null linked pointer is written as id 0", "[game][linking][golden]") {
    world w;
    CHECK(write(Unit{}, &w.links).hex == "00 00 00");
    CHECK(write(Unit{nullptr, &w.enemy}, &w.links).hex == "00 2C 01");
    Unit in{&w.stranger, &w.stranger};
    REQUIRE_FALSE(read_hex("00 00 00", in, nullptr, &w.links));
    CHECK(in.home == nullptr);
    CHECK(in.target == nullptr);
}

// Each peer has its own objects under the same ids: the reader's pointers are its own.
TEST_CASE("a linked pointer reads as the reader's object with the same id", "[game][linking][random]") {
    std::mt19937_64 rng(47);
    std::vector<GameObject> mine(60), theirs(60);
    netser::link_context my_links, their_links;
    for (std::uint32_t i = 0; i < 60; ++i) {
        const auto id = 1 + i * 4; // up to 237: fits 8 bits
        REQUIRE(my_links.add(&mine[i], id));
        REQUIRE(their_links.add(&theirs[i], id));
    }
    for (int round = 0; round < 500; ++round) {
        // rng() is 64 bits wide; the remainder fits any size_t.
        const auto a = static_cast<std::size_t>(rng() % 61), b = static_cast<std::size_t>(rng() % 61); // 60 = nullptr
        const Unit in{a < 60 ? &mine[a] : nullptr, b < 60 ? &mine[b] : nullptr};
        const auto bytes = unhex(write(in, &my_links).hex);
        Unit out{&theirs[0], &theirs[0]};
        REQUIRE_FALSE(read_bytes(bytes, out, nullptr, &their_links));
        CHECK(out.home == (a < 60 ? &theirs[a] : nullptr));
        CHECK(out.target == (b < 60 ? &theirs[b] : nullptr));
    }
}

TEST_CASE("linked applies to the elements of a container", "[game][linking]") {
    world w;
    const Squad in{{&w.base, nullptr, &w.base}};
    const auto out = write(in, &w.links);
    // count 3 in 3 bits, then 5, 0, 5 in 8 bits each: 3 | 5 << 3 | 5 << 19, 27 bits.
    CHECK(out.hex == "2B 00 28 00");
    Squad back;
    REQUIRE_FALSE(read_hex(out.hex, back, nullptr, &w.links));
    CHECK(back.members == in.members);
}

TEST_CASE("an unknown id reads as nullptr with unknown_link::null", "[game][linking][hostile]") {
    world w;
    Unit in{&w.base, &w.enemy};
    std::size_t bits = 0;
    REQUIRE_FALSE(read_hex("07 2C 01", in, &bits, &w.links)); // home id 7: nobody
    CHECK(bits == 20);
    CHECK(in.home == nullptr);
    CHECK(in.target == &w.enemy);
}

TEST_CASE("an unknown id fails the read with invalid_value with unknown_link::fail", "[game][linking][hostile]") {
    world w;
    Unit in;
    CHECK(failure_of(read_hex("05 2D 01", in, nullptr, &w.links)) == fail(errc::invalid_value, 8, "Unit.target"));
    CHECK(failure_of(read_hex("05 FF 0F", in, nullptr, &w.links)) == fail(errc::invalid_value, 8, "Unit.target"));
}

TEST_CASE("an id registered for another type reads as nullptr, or fails with unknown_link::fail", "[game][linking][hostile]") {
    world w;
    REQUIRE(w.links.object_of<Tower>(9) == &w.tower);
    REQUIRE(w.links.object_of<GameObject>(9) == nullptr);
    Unit in{&w.base, nullptr};
    REQUIRE_FALSE(read_hex("09 00 00", in, nullptr, &w.links)); // home id 9 is a Tower
    CHECK(in.home == nullptr);
    CHECK(failure_of(read_hex("05 09 00", in, nullptr, &w.links)) == fail(errc::invalid_value, 8, "Unit.target"));
}

TEST_CASE("writing an unregistered object fails with invalid_value", "[game][linking][hostile]") {
    world w;
    CHECK(failure_of(write_error(Unit{&w.stranger, nullptr}, &w.links)) == fail(errc::invalid_value, 0, "Unit.home"));
    CHECK(failure_of(write_error(Unit{&w.base, &w.stranger}, &w.links)) == fail(errc::invalid_value, 8, "Unit.target"));
}

// A Barracks registered as itself, pointed to by a GameObject* member: a reader looks the
// id up as a GameObject and would find nothing, so the write refuses it.
struct Barracks : linking_test::GameObject {
    int troops = 0;
};

TEST_CASE("writing an object registered as another type fails with invalid_value", "[game][linking][hostile]") {
    world w;
    Barracks barracks;
    REQUIRE(w.links.add(&barracks, 7));
    GameObject* as_base = &barracks;
    REQUIRE(w.links.id_of(as_base) == 7);
    CHECK(w.links.id_of_typed(as_base) == 0);
    CHECK(w.links.id_of_typed(&barracks) == 7);
    CHECK(failure_of(write_error(Unit{as_base, nullptr}, &w.links)) == fail(errc::invalid_value, 0, "Unit.home"));
    CHECK(failure_of(write_error(Unit{&w.base, as_base}, &w.links)) == fail(errc::invalid_value, 8, "Unit.target"));
    // A const pointer finds the registration of its non-const type.
    const GameObject* target = &w.enemy;
    CHECK(w.links.id_of_typed(target) == 300);
}

TEST_CASE("writing an id that needs more bits than the attribute gives fails with out_of_range", "[game][linking][hostile]") {
    world w;
    // enemy is id 300: too wide for home's 8 bits.
    CHECK(failure_of(write_error(Unit{&w.enemy, nullptr}, &w.links)) == fail(errc::out_of_range, 0, "Unit.home"));
}

TEST_CASE("a linked pointer without a link_context fails with invalid_value", "[game][linking][hostile]") {
    world w;
    CHECK(failure_of(write_error(Unit{&w.base, nullptr})) == fail(errc::invalid_value, 0, "Unit.home"));
    CHECK(failure_of(write_error(Unit{})) == fail(errc::invalid_value, 0, "Unit.home"));
    Unit in;
    CHECK(failure_of(read_hex("05 2C 01", in)) == fail(errc::invalid_value, 0, "Unit.home"));
}

TEST_CASE("linked with a bit count outside [1, 32] fails with invalid_value", "[game][linking][hostile]") {
    world w;
    for (const int bits : {0, -1, 33}) {
        std::array<std::byte, 16> buffer{};
        netser::write_stream s(buffer);
        s.set_context(&w.links);
        GameObject* p = nullptr;
        CHECK_FALSE((netser::linked{bits}.serialize(s, p)));
        CHECK(s.error().code == errc::invalid_value);
    }
}

TEST_CASE("a truncated linked pointer fails with overflow", "[game][linking][hostile]") {
    world w;
    Unit in;
    CHECK(failure_of(read_hex("", in, nullptr, &w.links)) == fail(errc::overflow, 0, "Unit.home"));
    CHECK(failure_of(read_hex("05 2C", in, nullptr, &w.links)) == fail(errc::overflow, 8, "Unit.target"));
}

TEST_CASE("link_context refuses id 0, nullptr, and an id or object registered twice", "[game][linking]") {
    netser::link_context links;
    GameObject a, b;
    CHECK_FALSE(links.add(&a, 0));
    CHECK_FALSE(links.add(static_cast<GameObject*>(nullptr), 3));
    CHECK(links.add(&a, 1));
    CHECK_FALSE(links.add(&b, 1)); // id taken
    CHECK_FALSE(links.add(&a, 2)); // object taken
    CHECK(links.add(&b, 2));
    CHECK(links.id_of(&a) == 1);
    CHECK(links.id_of(&b) == 2);
    GameObject c;
    CHECK(links.id_of(&c) == 0);
    CHECK(links.object_of<GameObject>(2) == &b);
    CHECK(links.object_of<GameObject>(3) == nullptr);
    CHECK(links.object_of<Tower>(1) == nullptr);
}

// write_packet / read_packet attach packet_options::context to their streams.
// Unit{base, enemy} with protocol id 0x12345678: the payload 05 2C 01 (20 bits), the end
// value 0x4724C6F4 ^ 20 = 0x4724C6E0, and the CRC-32 of 78 56 34 12 05 2C 01 E0 C6 24 47
// (Python's zlib.crc32: 0x93140ED8).
TEST_CASE("linked members go through write_packet and read_packet with the context in packet_options",
          "[game][linking][packet][golden]") {
    world w;
    const netser::packet_options options{0x12345678u, &w.links};
    std::vector<std::byte> buffer(netser::max_packet_bytes<Unit>());
    const netser::packet_write_result out = netser::write_packet(std::span<std::byte>(buffer), Unit{&w.base, &w.enemy}, options);
    REQUIRE_FALSE(out.error);
    CHECK(netser_test::hex(out.bytes) == "D8 0E 14 93 05 2C 01 E0 C6 24 47");

    Unit in{&w.stranger, &w.stranger};
    REQUIRE_FALSE(netser::read_packet(out.bytes, in, options));
    CHECK(in.home == &w.base);
    CHECK(in.target == &w.enemy);

    // Without the context, linked fails on both sides, as on a bare stream.
    const netser::packet_options no_links{0x12345678u};
    std::vector<std::byte> other(netser::max_packet_bytes<Unit>());
    const netser::packet_write_result refused = netser::write_packet(std::span<std::byte>(other), Unit{&w.base, &w.enemy}, no_links);
    CHECK(failure_of(refused.error) == fail(errc::invalid_value, 32, "Unit.home"));
    CHECK(failure_of(netser::read_packet(out.bytes, in, no_links)) == fail(errc::invalid_value, 32, "Unit.home"));

    // The growable overload passes it on too.
    std::vector<std::byte> grown;
    REQUIRE_FALSE(netser::write_packet(grown, Unit{&w.base, &w.enemy}, options).error);
    CHECK(netser_test::hex(grown) == "D8 0E 14 93 05 2C 01 E0 C6 24 47");
}

TEST_CASE("profile_stream keeps its context and nesting limit from packet to packet", "[game][linking][profile]") {
    world w;
    netser::profile_stream p;
    p.set_context(&w.links);
    p.set_max_depth(7);
    REQUIRE(p.profile(Unit{&w.base, &w.enemy}));
    REQUIRE(p.profile(Unit{nullptr, &w.enemy})); // a second packet: the context must still be there
    CHECK(p.context() == &w.links);
    CHECK(p.max_depth() == 7);
    CHECK(p.packets() == 2);
    bool found = false;
    for (const netser::profile_row& row : p.rows())
        if (row.path == "Unit.target") {
            found = true;
            CHECK(row.mean == 12.0);
        }
    CHECK(found);

    netser::profile_stream bare; // no context: linked refuses, as a write would
    CHECK_FALSE(bare.profile(Unit{&w.base, &w.enemy}));
}
