// encodings/optional.hpp, std::variant: the index in bits_required(0, N - 1) bits, then the
// alternative with its default encoding; an index past the end fails with
// invalid_value. A variant can also be the top-level object.

#include "reflect/test_types.hpp"

#include <cstdint>
#include <random>
#include <variant>

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
