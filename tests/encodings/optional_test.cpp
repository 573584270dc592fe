// encodings/optional.hpp: std::optional and std::unique_ptr (a presence bit, then the value
// with the member's attributes) and std::variant (the index, then the alternative). The
// family's tests, one file (tests/encodings/README.md has the whole table).
//
// Where each aspect is covered:
//   wire bits     here: "a variant member sends its index in bits_required(0, N - 1) bits...",
//                 "an optional sends a presence bit...", "a unique_ptr is embedded as a presence
//                 bit and the value" (golden hex and bit counts).
//   model         here: "optional, unique_ptr and variant write what a model of presence bits and
//                 indices writes" (reference_writer); round trips of every alternative, of random
//                 alternatives, of unique_ptr null or not.
//   bounds        here: "max_bits of optionals and variants is every presence bit and the largest
//                 alternative", max_bits<Owner>; tests/reflect/bounds_test.cpp (Containers).
//   hostile       here: variant indices past the end, values outside the member's range, an
//                 alternative's own failure, a chain of owned nodes past the nesting limit;
//                 tests/hostile/ranges_test.cpp (variant indices), nesting_test.cpp (chains of optionals).
//   compile-fail  tests/compile_fail/: variant_attribute attribute_on_variant.cpp;
//                 variant_alternative variant_with_string_alternative.cpp. (An optional's or a
//                 unique_ptr's attributes are its value's: their mistakes are the value family's.)

#include "game/game_types.hpp"
#include "reflect/test_types.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

// ==========================================================================================
// From tests/reflect/variant_test.cpp
// ==========================================================================================
// encodings/optional.hpp, std::variant: the index in bits_required(0, N - 1) bits, then the
// alternative with its default encoding; an index past the end fails with
// invalid_value. A variant can also be the top-level object.

namespace variants {

using netser::errc;
using namespace reflect_test;

namespace variant_test {

struct Event {
    std::variant<std::uint8_t, bool, Sparse> v;
    bool operator==(const Event&) const = default;
};
NETSER_STRUCT(Event, v)

struct Move {
    std::int16_t dx = 0, dy = 0;
    bool operator==(const Move&) const = default;
};
NETSER_STRUCT(Move, dx, dy)

struct Chat {
    std::string text;
    bool operator==(const Chat&) const = default;
};
NETSER_STRUCT(Chat, (text, netser::max_length(8)))

// Five alternatives: 3 index bits, indices 5, 6 and 7 are past the end.
using Command = std::variant<std::monostate, Move, Chat, Unit, Squad>;

struct Envelope {
    std::variant<bool> single; // one alternative: no index bits
    Command command;
    bool operator==(const Envelope&) const = default;
};
NETSER_STRUCT(Envelope, single, command)

} // namespace variant_test

using namespace variant_test;

TEST_CASE("a variant member sends its index in bits_required(0, N - 1) bits, then the alternative", "[variant]") {
    // index 1 in 2 bits, then true.
    CHECK(write(Event{true}).hex == "05");
    CHECK(write(Event{true}).bits == 3);
    // index 0, then 0xAB in 8 bits.
    CHECK(write(Event{std::uint8_t{0xAB}}).hex == "AC 02");
    CHECK(write(Event{std::uint8_t{0xAB}}).bits == 10);
    // index 2, then Sparse::c -> code 6 in 3 bits.
    CHECK(write(Event{Sparse::c}).hex == "1A");
    CHECK(write(Event{Sparse::c}).bits == 5);
    Event e;
    REQUIRE_FALSE(read_hex("1A", e));
    CHECK(e == Event{Sparse::c});
    REQUIRE_FALSE(read_hex("AC 02", e));
    CHECK(e == Event{std::uint8_t{0xAB}});
}

TEST_CASE("a variant rejects an index past its last alternative", "[variant][hostile]") {
    Event e;
    CHECK(failure_of(read_hex("03 00", e)) == fail(errc::invalid_value, 0, "Event.v"));
    // A bad code inside the alternative: Sparse code 1 is a gap.
    CHECK(failure_of(read_hex("06", e)) == fail(errc::invalid_value, 2, "Event.v<reflect_test::Sparse>"));
    for (std::uint64_t index = 5; index < 8; ++index) {
        reference_writer forged;
        forged.put(1, 1);
        forged.put(index, 3);
        forged.put(0, 64);
        Envelope env;
        CHECK(failure_of(read_forged(forged, env)) == fail(errc::invalid_value, 1, "Envelope.command"));
    }
}

TEST_CASE("a variant with one alternative takes no index bits and monostate takes none at all", "[variant]") {
    // single: true (no index); command: index 0 (monostate) in 3 bits.
    CHECK(write(Envelope{}).bits == 1 + 3);
    CHECK(write(Envelope{true, std::monostate{}}).hex == "01");
    // command: index 1 (Move), dx -1, dy 2.
    CHECK(write(Envelope{false, Move{-1, 2}}).hex == "F2 FF 2F 00 00");
}

TEST_CASE("variants of described structs round-trip every alternative", "[variant]") {
    const Command commands[] = {std::monostate{}, Move{-300, 300}, Chat{"hello"}, Unit{42, false},
                                Squad{7, {Unit{1, true}, Unit{2, false}}}};
    for (const Command& c : commands) {
        const Envelope v{c.index() % 2 == 0, c};
        CHECK(round_trip(v) == v);
    }
}

TEST_CASE("an alternative's own failure names the variant and the alternative", "[variant][hostile]") {
    Envelope env;
    reference_writer forged;
    forged.put(0, 1);
    forged.put(3, 3);   // Unit
    forged.put(127, 7); // hull 127 > 100
    forged.put(0, 1);
    CHECK(failure_of(read_forged(forged, env)) == fail(errc::out_of_range, 4, "Envelope.command<Unit>.hull"));
    CHECK(failure_of(write_error(Envelope{false, Chat{"too long!"}})) ==
          fail(errc::too_large, 4, "Envelope.command<Chat>.text"));
}

TEST_CASE("a top-level std::variant is serialized like a member", "[variant]") {
    using Top = std::variant<std::uint16_t, bool, std::int8_t>;
    // index 2 in 2 bits, then -1 as 0xFF.
    CHECK(write(Top{std::int8_t{-1}}).hex == "FE 03");
    CHECK(write(Top{std::int8_t{-1}}).bits == 10);
    CHECK(round_trip(Top{std::uint16_t{0xBEEF}}) == Top{std::uint16_t{0xBEEF}});
    CHECK(round_trip(Top{true}) == Top{true});
    Top t;
    REQUIRE_FALSE(read_hex("FE 03", t));
    CHECK(t == Top{std::int8_t{-1}});

    const auto bytes = unhex("03 00 00");
    const netser::error e = read_bytes(bytes, t);
    CHECK(e.code == errc::invalid_value);
    CHECK(e.bit == 0);
    // A top-level variant's root is "std::variant"; a bad index names no alternative.
    CHECK(e.path() == "std::variant");
}

TEST_CASE("a variant round-trips random alternatives", "[variant]") {
    std::mt19937 rng(41);
    for (int i = 0; i < 300; ++i) {
        Event v;
        switch (rng() % 3) {
        case 0: v.v = static_cast<std::uint8_t>(rng()); break;
        case 1: v.v = (rng() & 1u) != 0; break;
        default: {
            static constexpr Sparse all[] = {Sparse::a, Sparse::b, Sparse::c};
            v.v = all[rng() % 3];
            break;
        }
        }
        CHECK(round_trip(v) == v);
    }
}

} // namespace variants

// ==========================================================================================
// From tests/reflect/containers_test.cpp (std::optional)
// ==========================================================================================
// encodings/container.hpp, containers: std::array and C arrays (no count), std::vector (vector<bool>
// too), std::string, std::optional (presence bit), std::map / std::unordered_map
// (attributes on the mapped values), std::set (attributes on the keys). Element
// attributes, forged counts, duplicate keys, and no allocation for a count that
// cannot fit.

namespace containers_optional {

using netser::errc;
using namespace reflect_test;

namespace containers_test {

struct Maybe {
    std::optional<std::uint8_t> v;
    std::optional<Unit> unit;
    bool operator==(const Maybe&) const = default;
};
NETSER_STRUCT(Maybe, (v, netser::range(0, 15)), unit)

} // namespace containers_test

using namespace containers_test;

// --- optional -----------------------------------------------------------------

TEST_CASE("an optional sends a presence bit, then the value with the member's attributes", "[containers][optional]") {
    // v: present, 9 in 4 bits; unit: absent.
    CHECK(write(Maybe{9, std::nullopt}).hex == "13");
    CHECK(write(Maybe{9, std::nullopt}).bits == 6);
    CHECK(write(Maybe{}).hex == "00");
    CHECK(write(Maybe{}).bits == 2);
    // v absent; unit present: hull 100 in 7 bits, alive.
    CHECK(write(Maybe{std::nullopt, Unit{100, true}}).hex == "92 03");
    for (int v = 0; v <= 15; ++v) {
        const Maybe m{static_cast<std::uint8_t>(v), Unit{static_cast<std::uint8_t>(v * 6), v % 2 == 0}};
        CHECK(round_trip(m) == m);
    }
}

TEST_CASE("reading an absent optional resets a present one", "[containers][optional]") {
    Maybe m{3, Unit{}};
    REQUIRE_FALSE(read_hex("00", m));
    CHECK(m == Maybe{});
}

TEST_CASE("an optional rejects a value outside the member's range", "[containers][optional][hostile]") {
    CHECK(failure_of(write_error(Maybe{16, std::nullopt})) == fail(errc::out_of_range, 1, "Maybe.v"));
    Maybe m;
    reference_writer forged;
    forged.put(0, 1);
    forged.put(1, 1);
    forged.put(101, 7); // unit.hull 101 > 100
    forged.put(1, 1);
    CHECK(failure_of(read_forged(forged, m)) == fail(errc::out_of_range, 2, "Maybe.unit.hull"));
    CHECK(failure_of(read_hex("02", m)) == fail(errc::overflow, 2, "Maybe.unit.hull"));
}

} // namespace containers_optional

// ==========================================================================================
// From tests/game/embedding_test.cpp
// ==========================================================================================
// Embedding (encodings/optional.hpp): owned data behind a std::unique_ptr is
// sent in place, after a presence bit, like a std::optional. Attributes on the member
// apply to the pointee.

namespace embedding {

using netser::errc;
using namespace game_test;

namespace embedding_test {

struct Inventory {
    std::uint8_t gold = 0;
    bool full = false;
    bool operator==(const Inventory&) const = default;
};
NETSER_STRUCT(Inventory, (gold, netser::range(0, 100)), full)

struct Owner {
    std::unique_ptr<Inventory> inv;
    std::unique_ptr<int> score;
};
NETSER_STRUCT(Owner, inv, (score, netser::range(0, 100)))

// Not an aggregate (the declared constructor): NETSER_STRUCT's member count check through
// Boost.PFR does not compile on clang 14 for an aggregate with a vector of unique_ptr.
struct Crew {
    Crew() = default;
    std::vector<std::unique_ptr<Inventory>> bags;
};
NETSER_STRUCT(Crew, (bags, netser::max_size(4)))

// A chain of owned nodes: each level is one presence bit and a value.
struct Node {
    std::uint8_t value = 0;
    std::unique_ptr<Node> next;
};
NETSER_STRUCT(Node, value, next)

bool same(const std::unique_ptr<Inventory>& a, const std::unique_ptr<Inventory>& b) {
    return a ? (b && *a == *b) : !b;
}

bool same(const std::unique_ptr<int>& a, const std::unique_ptr<int>& b) { return a ? (b && *a == *b) : !b; }

} // namespace embedding_test

using namespace embedding_test;

// inv: 1, gold 42 in 7 bits, full 1; score: 0.  1 | 42 << 1 | 1 << 8 = 0x155. 10 bits.
TEST_CASE("a unique_ptr is embedded as a presence bit and the value", "[game][embedding][golden]") {
    Owner in;
    in.inv = std::make_unique<Inventory>(Inventory{42, true});
    const auto w = write(in);
    CHECK(w.hex == "55 01");
    CHECK(w.bits == 10);
    STATIC_REQUIRE(netser::max_bits<Owner>() == (1 + 7 + 1) + (1 + 7));

    Owner out;
    out.score = std::make_unique<int>(77); // not sent: reset by the read
    std::size_t bits = 0;
    REQUIRE_FALSE(read_hex("55 01", out, &bits));
    CHECK(bits == 10);
    REQUIRE(out.inv);
    CHECK(*out.inv == Inventory{42, true});
    CHECK_FALSE(out.score);
}

// inv: 0; score: 1, 100 in 7 bits (the member's range applies to the pointee). 0 | 1 << 1 | 100 << 2.
TEST_CASE("attributes on a unique_ptr member apply to the pointee", "[game][embedding][golden]") {
    Owner in;
    in.score = std::make_unique<int>(100);
    CHECK(write(in).hex == "92 01");
    Owner out;
    out.inv = std::make_unique<Inventory>(Inventory{1, true});
    REQUIRE_FALSE(read_hex("92 01", out));
    CHECK_FALSE(out.inv);
    REQUIRE(out.score);
    CHECK(*out.score == 100);
}

TEST_CASE("a null unique_ptr costs one bit and reads as null", "[game][embedding][golden]") {
    const auto w = write(Owner{});
    CHECK(w.hex == "00");
    CHECK(w.bits == 2);
    Owner out;
    out.inv = std::make_unique<Inventory>();
    out.score = std::make_unique<int>(3);
    REQUIRE_FALSE(read_hex("00", out));
    CHECK_FALSE(out.inv);
    CHECK_FALSE(out.score);
}

TEST_CASE("unique_ptr members round trip, null or not", "[game][embedding][random]") {
    std::mt19937_64 rng(53);
    for (int round = 0; round < 500; ++round) {
        Owner in;
        if (rng() % 2) in.inv = std::make_unique<Inventory>(Inventory{static_cast<std::uint8_t>(rng() % 101), rng() % 2 == 0});
        if (rng() % 2) in.score = std::make_unique<int>(static_cast<int>(rng() % 101));
        const auto w = write(in);
        CHECK(w.bits == (in.inv ? 9u : 1u) + (in.score ? 8u : 1u));
        Owner out;
        if (rng() % 2) out.inv = std::make_unique<Inventory>(Inventory{9, true});
        REQUIRE_FALSE(read_bytes(unhex(w.hex), out));
        CHECK(same(out.inv, in.inv));
        CHECK(same(out.score, in.score));
    }
}

TEST_CASE("a vector of unique_ptr embeds each element", "[game][embedding][random]") {
    Crew in;
    in.bags.push_back(std::make_unique<Inventory>(Inventory{10, false}));
    in.bags.push_back(nullptr);
    in.bags.push_back(std::make_unique<Inventory>(Inventory{100, true}));
    const auto w = write(in);
    CHECK(w.bits == 3 + 9 + 1 + 9);
    Crew out;
    REQUIRE_FALSE(read_bytes(unhex(w.hex), out));
    REQUIRE(out.bags.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) CHECK(same(out.bags[i], in.bags[i]));
}

TEST_CASE("a chain of owned nodes round trips", "[game][embedding]") {
    Node head{0, nullptr};
    Node* tail = &head;
    for (std::uint8_t i = 1; i < 50; ++i) {
        tail->next = std::make_unique<Node>(Node{i, nullptr});
        tail = tail->next.get();
    }
    const auto w = write(head);
    CHECK(w.bits == 50 * 9);
    Node out;
    REQUIRE_FALSE(read_bytes(unhex(w.hex), out));
    const Node* n = &out;
    for (std::uint8_t i = 0; i < 50; ++i) {
        REQUIRE(n != nullptr);
        CHECK(n->value == i);
        n = n->next.get();
    }
    CHECK(n == nullptr);
}

TEST_CASE("a hostile embedded value fails with its path", "[game][embedding][hostile]") {
    Owner out;
    // Present, gold code 127 > 100 at bit 1.
    CHECK(failure_of(read_hex("FF 01", out)) == fail(errc::out_of_range, 1, "Owner.inv.gold"));
    CHECK(failure_of(read_hex("", out)) == fail(errc::overflow, 0, "Owner.inv"));
    CHECK(failure_of(read_hex("01", out)) == fail(errc::overflow, 8, "Owner.inv.full"));
    CHECK(failure_of(read_hex("55", out)) == fail(errc::overflow, 8, "Owner.inv.full"));
    CHECK(failure_of(read_hex("55 01", out)) == fail(errc::none, 0, ""));
}

TEST_CASE("writing an embedded value outside its range fails with its path", "[game][embedding][hostile]") {
    Owner in;
    in.score = std::make_unique<int>(101);
    CHECK(failure_of(write_error(in)) == fail(errc::out_of_range, 2, "Owner.score"));
}

// Each node is one presence bit and 8 bits of value: a packet of one bits is an endless
// chain. The stream's nesting limit (64 structs by default) stops it before the stack does.
TEST_CASE("a hostile chain of owned nodes fails with too_large at the nesting limit", "[game][embedding][hostile]") {
    const std::vector<std::byte> ones(1000, std::byte{0xFF});
    Node out;
    const auto e = read_bytes(ones, out);
    CHECK(e.code == errc::too_large);
    CHECK(e.bit == 64 * 9); // the 65th node
}

} // namespace embedding

// ==========================================================================================
// Written with tests/encodings/: std::optional, std::unique_ptr and std::variant against a
// model written from the annotations (a presence bit or an index, then the value), and
// max_bits as the annotations' sum.
// ==========================================================================================

namespace optional_model {

using netser::errc;
using namespace reflect_test;

using netser_test::width_of;

struct Step {
    std::int8_t dx = 0; // range(-3, 3): v + 3 in width_of(6) bits
    bool run = false;
    bool operator==(const Step&) const = default;
};
NETSER_STRUCT(Step, (dx, netser::range(-3, 3)), run)

// Four alternatives: the index in width_of(3) bits; monostate 0 bits, uint8_t 8, Step 4, bool 1.
using Action = std::variant<std::monostate, std::uint8_t, Step, bool>;

struct Holder {
    std::optional<std::uint16_t> hp; // range(0, 300): presence, then v in width_of(300)
    std::unique_ptr<Step> step;      // presence, then the Step
    Action act;
};
NETSER_STRUCT(Holder, (hp, netser::range(0, 300)), step, act)

constexpr std::size_t step_bits = static_cast<std::size_t>(width_of(6) + 1);
// The largest alternative: monostate 0, uint8_t 8, Step, bool 1.
constexpr std::size_t largest_alternative = std::max({std::size_t{0}, std::size_t{8}, step_bits, std::size_t{1}});
constexpr std::size_t holder_max_bits = (1 + static_cast<std::size_t>(width_of(300))) + (1 + step_bits) +
                                        static_cast<std::size_t>(width_of(3)) + largest_alternative;

bool same(const Holder& a, const Holder& b) {
    return a.hp == b.hp && (a.step ? (b.step && *a.step == *b.step) : !b.step) && a.act == b.act;
}

void model_step(reference_writer& w, const Step& s) {
    w.put(static_cast<std::uint64_t>(s.dx + 3), width_of(6));
    w.put(s.run ? 1u : 0u, 1);
}

reference_writer model_of(const Holder& v) {
    reference_writer w;
    w.put(v.hp ? 1u : 0u, 1);
    if (v.hp) w.put(*v.hp, width_of(300));
    w.put(v.step ? 1u : 0u, 1);
    if (v.step) model_step(w, *v.step);
    w.put(v.act.index(), width_of(3));
    if (const auto* u = std::get_if<std::uint8_t>(&v.act)) w.put(*u, 8);
    if (const auto* s = std::get_if<Step>(&v.act)) model_step(w, *s);
    if (const auto* b = std::get_if<bool>(&v.act)) w.put(*b ? 1u : 0u, 1);
    return w;
}

Holder random_holder(std::mt19937& rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    auto step = [&] { return Step{static_cast<std::int8_t>(pick(-3, 3)), pick(0, 1) == 1}; };
    Holder v;
    if (pick(0, 1) == 1) v.hp = static_cast<std::uint16_t>(pick(0, 300));
    if (pick(0, 1) == 1) v.step = std::make_unique<Step>(step());
    switch (pick(0, 3)) {
    case 0: v.act = std::monostate{}; break;
    case 1: v.act = static_cast<std::uint8_t>(pick(0, 255)); break;
    case 2: v.act = step(); break;
    default: v.act = pick(0, 1) == 1; break;
    }
    return v;
}

} // namespace optional_model

TEST_CASE("optional, unique_ptr and variant write what a model of presence bits and indices writes",
          "[optional][variant][model]") {
    using namespace optional_model;
    std::mt19937 rng(40);
    for (int i = 0; i < 500; ++i) {
        const Holder v = random_holder(rng);
        const reference_writer model = model_of(v);
        const written w = write(v);
        INFO("hp " << v.hp.has_value() << " step " << (v.step != nullptr) << " act " << v.act.index());
        CHECK(w.hex == hex(model.bytes()));
        CHECK(w.bits == model.bits());
        CHECK(same(round_trip(v), v));
        Holder r;
        r.hp = 7; // a read resets what the packet says is absent
        r.step = std::make_unique<Step>();
        REQUIRE_FALSE(read_forged(model, r));
        CHECK(same(r, v));
    }
}

TEST_CASE("max_bits of optionals and variants is every presence bit and the largest alternative",
          "[optional][variant][bounds]") {
    using namespace optional_model;
    STATIC_REQUIRE(netser::max_bits<Holder>() == holder_max_bits);
    Holder full;
    full.hp = 300;
    full.step = std::make_unique<Step>(Step{3, true});
    full.act = std::uint8_t{255};
    CHECK(write(full).bits == holder_max_bits);
    const Holder empty{};
    CHECK(write(empty).bits == 1 + 1 + static_cast<std::size_t>(width_of(3)));
}
