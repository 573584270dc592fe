// reflect.hpp / walk.hpp, errors: a failed read or write gives the code, the bit of
// the value that failed and the member path rooted at the type's name
// ("Squad.units[2].hull"); a packet cut anywhere or with any bit flipped fails
// cleanly or reads a valid value, never more.

#include "reflect/test_types.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <variant>
#include <vector>

using netser::errc;
using namespace reflect_test;

namespace error_path_test {

struct Army {
    std::vector<Squad> squads;
    std::map<std::uint8_t, Squad> reserves;
    std::optional<Squad> guard;
};
NETSER_STRUCT(Army, (squads, netser::max_size(3)), (reserves, netser::max_size(2)), guard)

// Deep enough for a path longer than error::path_capacity.
struct Level3 {
    std::uint8_t a_rather_long_member_name_for_the_innermost_level = 0;
};
NETSER_STRUCT(Level3, (a_rather_long_member_name_for_the_innermost_level, netser::range(0, 9)))
struct Level2 {
    std::array<Level3, 2> another_quite_long_member_name_at_level_two{};
};
NETSER_STRUCT(Level2, another_quite_long_member_name_at_level_two)
struct Level1 {
    std::array<Level2, 2> yet_another_long_member_name_at_the_first_level{};
    std::array<Level2, 2> and_one_more_long_member_name_to_overflow_the_path{};
};
NETSER_STRUCT(Level1, yet_another_long_member_name_at_the_first_level,
              and_one_more_long_member_name_to_overflow_the_path)
struct Level0 {
    std::array<Level1, 2> the_outermost_member_with_a_long_name_as_well{};
};
NETSER_STRUCT(Level0, the_outermost_member_with_a_long_name_as_well)

Squad three_units() {
    return Squad{7, {Unit{10, true}, Unit{20, false}, Unit{30, true}}};
}

// Messages as a variant: the alternative a failure is in reads like a message type.
struct Move {
    std::int8_t dx = 0;
};
NETSER_STRUCT(Move, (dx, netser::range(-5, 5)))
using Order = std::variant<std::monostate, Move, Squad>;
struct Orders {
    std::vector<Order> list;
    Order urgent;
};
NETSER_STRUCT(Orders, (list, netser::max_size(4)), urgent)

// Short arrays are written element by element without a loop: each element still
// names itself.
struct Slots {
    std::uint8_t id = 0;
    std::array<std::int8_t, 4> slots{};
    std::array<std::int8_t, 12> long_slots{}; // past 8 elements: the loop
};
NETSER_STRUCT(Slots, id, (slots, netser::range(-5, 5)), (long_slots, netser::range(-5, 5)))

// Hand-written serialize functions around described structs: the path stays rooted at
// the type serialize was called on and names the member that failed.
struct Inner {
    int x = 0;
};
NETSER_STRUCT(Inner, (x, netser::range(0, 10)))

// Names its members with netser::named.
struct Named {
    int a = 0;
    Inner pc;
};
template <netser::stream S>
bool serialize(S& s, Named& o) {
    return netser::named(s, "a", [&] { return netser::serialize_int(s, o.a, 0, 10); }) &&
           netser::named(s, "pc", [&] { return netser::serialize(s, o.pc); });
}

// Names nothing, and goes on after a failure (no short-circuit).
struct Unnamed {
    int a = 0;
    Inner pc;
};
template <netser::stream S>
bool serialize(S& s, Unnamed& o) {
    bool ok = netser::serialize_int(s, o.a, 0, 10);
    ok = netser::serialize(s, o.pc) && ok;
    return ok;
}

// Described around hand-written around described.
struct Holder {
    std::uint8_t id = 0;
    Named named;
    std::vector<Unnamed> unnamed;
};
NETSER_STRUCT(Holder, id, named, (unnamed, netser::max_size(3)))

// Hand-written around described around hand-written: a nested serialize called through named.
struct Top {
    Holder holder;
};
template <netser::stream S>
bool serialize(S& s, Top& t) {
    return netser::named(s, "holder", [&] { return netser::serialize(s, t.holder); });
}

} // namespace error_path_test

using namespace error_path_test;

TEST_CASE("a failed read names the member path and the bit of the value", "[errors]") {
    // id 8 bits; count 3 in 3 bits; units[0], units[1] (8 bits each); units[2].hull code 127.
    reference_writer forged;
    forged.put(7, 8);
    forged.put(3, 3);
    forged.put(10, 7);
    forged.put(1, 1);
    forged.put(20, 7);
    forged.put(0, 1);
    forged.put(127, 7);
    forged.put(1, 1);
    Squad s;
    const netser::error e = read_forged(forged, s);
    CHECK(e.code == errc::out_of_range);
    CHECK(e.bit == 27);
    CHECK(e.path() == "Squad.units[2].hull");
    CHECK(netser::to_string(e.code) == "out_of_range");
}

TEST_CASE("a failed write names the member path and the bit of the value", "[errors]") {
    Squad s = three_units();
    s.units[2].hull = 101;
    CHECK(failure_of(write_error(s)) == fail(errc::out_of_range, 27, "Squad.units[2].hull"));
    s.units.push_back(Unit{});
    s.units.push_back(Unit{});
    CHECK(failure_of(write_error(s)) == fail(errc::too_large, 8, "Squad.units"));
}

TEST_CASE("a write into a buffer too small fails with overflow at the member that did not fit", "[errors]") {
    const Squad s = three_units();
    CHECK(write(s).bits == 35);
    std::array<std::byte, 4> buffer{};
    netser::write_stream w(buffer);
    CHECK_FALSE(netser::serialize(w, s));
    CHECK(failure_of(w.error()) == fail(errc::overflow, 27, "Squad.units[2].hull"));
}

TEST_CASE("paths go through vectors, maps, optionals and nested structs", "[errors]") {
    Army a;
    a.squads = {three_units(), three_units()};
    a.reserves[4] = three_units();
    a.reserves[9] = three_units();
    a.guard = three_units();
    CHECK(round_trip(a).squads == a.squads);

    Army bad = a;
    bad.squads[1].units[0].hull = 200;
    CHECK(write_error(bad).path() == "Army.squads[1].units[0].hull");
    bad = a;
    bad.reserves[9].units[1].hull = 200;
    CHECK(write_error(bad).path() == "Army.reserves[1].units[1].hull");
    bad = a;
    bad.guard->units[2].hull = 200;
    CHECK(write_error(bad).path() == "Army.guard.units[2].hull");
}

TEST_CASE("a failure inside a variant names the alternative by its described name", "[errors][variant]") {
    Orders o;
    o.list = {Move{1}, Squad{}, Move{2}};
    o.urgent = Move{3};
    REQUIRE(write(o).bits == 3 + (2 + 4) + (2 + 8 + 3) + (2 + 4) + (2 + 4));

    Orders bad = o;
    bad.urgent = Move{9}; // dx in [-5, 5]
    CHECK(write_error(bad).path() == "Orders.urgent<Move>.dx");
    bad = o;
    bad.list[2] = Move{-6};
    CHECK(write_error(bad).path() == "Orders.list[2]<Move>.dx");
    bad = o;
    Squad squad = three_units();
    squad.units[1].hull = 101;
    bad.list[1] = squad;
    CHECK(write_error(bad).path() == "Orders.list[1]<Squad>.units[1].hull");

    // A reader's failure: count 1 (3 bits), index 1 = Move (2 bits), dx code 11 (4 bits).
    reference_writer forged;
    forged.put(1, 3);  // one order
    forged.put(1, 2);  // Move
    forged.put(11, 4); // dx code 11: above the range's 10
    Orders r;
    CHECK(failure_of(read_forged(forged, r)) == fail(errc::out_of_range, 5, "Orders.list[0]<Move>.dx"));

    // A top-level variant: the root is std::variant, the alternative follows.
    const Order top = Move{7};
    CHECK(write_error(top).path() == "std::variant<Move>.dx");
    // The delta of a variant names the alternative too.
    Orders base = o;
    Orders changed = o;
    changed.urgent = Move{8};
    std::array<std::byte, 64> delta_buffer{};
    netser::write_stream d(delta_buffer);
    CHECK_FALSE(netser::serialize_delta(d, changed, base));
    CHECK(d.error().path() == "Orders.urgent<Move>.dx");
}

TEST_CASE("a path longer than the error's buffer keeps its innermost part", "[errors]") {
    Level0 v;
    v.the_outermost_member_with_a_long_name_as_well[1].and_one_more_long_member_name_to_overflow_the_path[1]
        .another_quite_long_member_name_at_level_two[1].a_rather_long_member_name_for_the_innermost_level = 10;
    const netser::error e = write_error(v);
    CHECK(e.code == errc::out_of_range);
    CHECK(e.path().size() <= netser::error::path_capacity);
    CHECK(e.path().starts_with("..."));
    CHECK(e.path().ends_with("another_quite_long_member_name_at_level_two[1]."
                             "a_rather_long_member_name_for_the_innermost_level"));
}

TEST_CASE("a successful serialize leaves no error and no path", "[errors]") {
    const Squad s = three_units();
    std::array<std::byte, 16> buffer{};
    netser::write_stream w(buffer);
    REQUIRE(netser::serialize(w, s));
    CHECK_FALSE(w.error());
    CHECK(w.error().path().empty());
}

TEST_CASE("the error is sticky: after a failure every later serialize fails", "[errors]") {
    Squad bad = three_units();
    bad.units[0].hull = 255;
    std::array<std::byte, 64> buffer{};
    netser::write_stream w(buffer);
    CHECK_FALSE(netser::serialize(w, bad));
    Squad good = three_units();
    CHECK_FALSE(netser::serialize(w, good));
    CHECK(w.error().code == errc::out_of_range);
    CHECK(w.error().bit == 11);
}

// A later call fails at once and leaves the first failure's path alone (it used to
// prepend its own names: "Squad.id.Squad.units[0].hull").
TEST_CASE("a later serialize on a failed stream keeps the first failure's path", "[errors]") {
    Squad bad = three_units();
    bad.units[0].hull = 255;
    std::array<std::byte, 64> buffer{};
    netser::write_stream w(buffer);
    CHECK_FALSE(netser::serialize(w, bad));
    Squad good = three_units();
    CHECK_FALSE(netser::serialize(w, good));
    CHECK(failure_of(w.error()) == fail(errc::out_of_range, 11, "Squad.units[0].hull"));
}

TEST_CASE("a Player packet cut at any byte fails with overflow inside what was cut", "[errors][hostile]") {
    Player p{100, 0.f, 1000.f, true, 25.f, Weapon::rifle, "bob", {1, 2, 3}, 5};
    // The packet of docs/attributes.md's Player, derived field by field:
    // health common (1), x 20000 (16), y 30000 (16), moving (1), vx 7500 (14), weapon 2 (2),
    // name length 3 (5), align, "bob", count 3 (4), 1, 2, 3 (10 each), target present, 5 (6).
    const written w = write(p);
    REQUIRE(w.hex == "41 9C 60 EA 32 75 0E 62 6F 62 13 80 00 03 2C 00");
    REQUIRE(w.bits == 121);
    const auto bytes = unhex(w.hex);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        INFO("cut to " << n << " bytes");
        Player r;
        const netser::error e = read_bytes(std::span(bytes).first(n), r);
        CHECK(e.code == errc::overflow);
        CHECK(e.bit <= 8 * n);
        CHECK(e.path().starts_with("Player."));
    }
    // Every bit: the same packet with the bits from k on cleared still reads or fails
    // cleanly, and the full packet reads back.
    for (std::size_t k = 0; k <= w.bits; ++k) {
        auto masked = bytes;
        for (std::size_t i = k; i < 8 * masked.size(); ++i) masked[i / 8] &= static_cast<std::byte>(~(1u << (i % 8)));
        Player r;
        const netser::error e = read_bytes(masked, r);
        if (k == w.bits) CHECK_FALSE(e);
        if (e) CHECK(e.path().starts_with("Player."));
    }
    Player r;
    REQUIRE_FALSE(read_bytes(bytes, r));
    CHECK(close(r, p));
}

TEST_CASE("a Player packet with any one bit flipped reads a valid Player or fails cleanly", "[errors][hostile]") {
    std::mt19937 rng(81);
    for (int round = 0; round < 20; ++round) {
        const Player p = random_player(rng);
        const written w = write(p);
        const auto bytes = unhex(w.hex);
        for (std::size_t bit = 0; bit < 8 * bytes.size(); ++bit) {
            auto flipped = bytes;
            flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
            Player r;
            std::size_t bits = 0;
            const netser::error e = read_bytes(flipped, r, &bits);
            if (e) {
                CHECK(e.path().starts_with("Player."));
                CHECK(e.bit <= 8 * bytes.size());
            } else {
                // What was read must be writable again: every limit holds.
                CHECK(r.health >= 0);
                CHECK(r.health <= 100);
                CHECK(r.name.size() <= 16);
                CHECK(r.inventory.size() <= 8);
                std::array<std::byte, netser::max_bytes<Player>()> again{};
                netser::write_stream ws(again);
                CHECK(netser::serialize(ws, r));
            }
        }
    }
}

TEST_CASE("random garbage never reads past the packet or allocates beyond the limits", "[errors][hostile]") {
    std::mt19937 rng(82);
    for (int i = 0; i < 3000; ++i) {
        std::vector<std::byte> garbage(rng() % 48);
        for (auto& b : garbage) b = static_cast<std::byte>(rng());
        Army a;
        const netser::error e = read_bytes(garbage, a);
        if (e) {
            CHECK(e.path().starts_with("Army"));
            CHECK(e.bit <= 8 * garbage.size());
        } else {
            CHECK(a.squads.size() <= 3);
            CHECK(a.reserves.size() <= 2);
        }
    }
}

TEST_CASE("an array element that fails is named by its index, short arrays and long", "[errors]") {
    // id 8 bits, then 4 bits per element (range -5..5: codes 0..10).
    Slots bad;
    bad.slots[2] = 6;
    CHECK(failure_of(write_error(bad)) == fail(errc::out_of_range, 16, "Slots.slots[2]"));
    bad = Slots{};
    bad.long_slots[9] = -6;
    CHECK(failure_of(write_error(bad)) == fail(errc::out_of_range, 60, "Slots.long_slots[9]"));

    for (const std::size_t element : {std::size_t{0}, std::size_t{3}, std::size_t{4}, std::size_t{13}}) {
        reference_writer forged;
        forged.put(1, 8);
        for (std::size_t i = 0; i < 16; ++i) forged.put(i == element ? 11 : 7, 4); // code 7 is 2
        Slots s;
        const netser::error e = read_forged(forged, s);
        const std::string name =
            element < 4 ? "Slots.slots[" + std::to_string(element) + "]" : "Slots.long_slots[" + std::to_string(element - 4) + "]";
        CHECK(failure_of(e) == fail(errc::out_of_range, 8 + 4 * element, name));
        CHECK(s.id == 1);
        for (std::size_t i = 0; i < element && i < 4; ++i) CHECK(s.slots[i] == 2); // read before the failure
    }

    // A buffer that ends inside the short array: overflow at the element that did not fit.
    const Slots fine;
    std::array<std::byte, 2> buffer{};
    netser::write_stream w(buffer.data(), buffer.size());
    CHECK_FALSE(netser::serialize(w, fine));
    CHECK(failure_of(w.error()) == fail(errc::overflow, 16, "Slots.slots[2]"));
}

TEST_CASE("a path through hand-written code is rooted and names the member that failed", "[errors][user]") {
    Named n;
    n.pc.x = 11;
    CHECK(failure_of(write_error(n)) == fail(errc::out_of_range, 4, "error_path_test::Named.pc.x"));
    n = {};
    n.a = 11;
    CHECK(failure_of(write_error(n)) == fail(errc::out_of_range, 0, "error_path_test::Named.a"));

    // (A type without a description is named as the compiler spells it.)
    // Without names: the nested serialize's type stands for the member; a failed primitive
    // leaves the path at the hand-written type, and the nested serialize called on the
    // failed stream adds nothing.
    Unnamed u;
    u.pc.x = 12;
    CHECK(failure_of(write_error(u)) == fail(errc::out_of_range, 4, "error_path_test::Unnamed.Inner.x"));
    u = {};
    u.a = 11;
    u.pc.x = 12;
    CHECK(failure_of(write_error(u)) == fail(errc::out_of_range, 0, "error_path_test::Unnamed"));

    Holder h;
    h.named.pc.x = 11;
    CHECK(failure_of(write_error(h)) == fail(errc::out_of_range, 12, "Holder.named.pc.x"));
    h = {};
    h.unnamed.resize(2);
    h.unnamed[1].a = 11;
    h.unnamed[1].pc.x = 11;
    CHECK(failure_of(write_error(h)) == fail(errc::out_of_range, 26, "Holder.unnamed[1]"));
    h.unnamed[1].a = 0;
    CHECK(failure_of(write_error(h)) == fail(errc::out_of_range, 30, "Holder.unnamed[1].Inner.x"));

    Top t;
    t.holder.named.a = 11;
    CHECK(failure_of(write_error(t)) == fail(errc::out_of_range, 8, "error_path_test::Top.holder.named.a"));
}

TEST_CASE("a read through hand-written code names the member that failed", "[errors][user][hostile]") {
    // Holder: id 8 bits, named.a 4 bits, named.pc.x 4 bits = 15 (above 10).
    reference_writer forged;
    forged.put(1, 8);
    forged.put(3, 4);
    forged.put(15, 4);
    Holder h;
    CHECK(failure_of(read_forged(forged, h)) == fail(errc::out_of_range, 12, "Holder.named.pc.x"));
    Top t;
    CHECK(failure_of(read_forged(forged, t)) == fail(errc::out_of_range, 12, "error_path_test::Top.holder.named.pc.x"));
    // Cut after the id: overflow, named.
    reference_writer cut;
    cut.put(1, 8);
    CHECK(failure_of(read_forged(cut, h)) == fail(errc::overflow, 8, "Holder.named.a"));
}

TEST_CASE("named on a failed stream neither calls its function nor names anything", "[errors][user]") {
    std::array<std::byte, 1> buffer{};
    netser::write_stream w(buffer);
    std::uint32_t big = 0;
    REQUIRE_FALSE(netser::serialize_bits(w, big, 9));
    bool called = false;
    CHECK_FALSE(netser::named(w, "later", [&] {
        called = true;
        return true;
    }));
    CHECK_FALSE(called);
    CHECK(failure_of(w.error()) == fail(errc::overflow, 0, ""));
}
