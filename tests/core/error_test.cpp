// netser::error: the member path built while a failure unwinds, its bounded buffer,
// and the names of the error codes.

#include "test_util.hpp"

#include <array>
#include <limits>
#include <string>

using netser::errc;

TEST_CASE("a default error is no error, at bit 0, with an empty path", "[error]") {
    const netser::error e;
    CHECK_FALSE(e);
    CHECK(e.code == errc::none);
    CHECK(e.bit == 0);
    CHECK(e.path().empty());
}

TEST_CASE("an error converts to true when it has a code", "[error]") {
    netser::error e;
    e.code = errc::overflow;
    CHECK(static_cast<bool>(e));
}

TEST_CASE("the path is built from the innermost member outwards as Squad.units[1].hull", "[error]") {
    netser::error e;
    e.prepend_member("hull");
    CHECK(e.path() == "hull");
    e.prepend_index(1);
    CHECK(e.path() == "[1].hull");
    e.prepend_member("units");
    CHECK(e.path() == "units[1].hull");
    e.prepend_member("Squad");
    CHECK(e.path() == "Squad.units[1].hull");
}

TEST_CASE("nested indices and members join without extra separators", "[error]") {
    netser::error e;
    e.prepend_index(3);
    e.prepend_index(2);
    e.prepend_member("grid");
    CHECK(e.path() == "grid[2][3]");

    netser::error f;
    f.prepend_member("x");
    f.prepend_member("position");
    f.prepend_index(0);
    f.prepend_index(12);
    f.prepend_member("players");
    f.prepend_member("Snapshot");
    CHECK(f.path() == "Snapshot.players[12][0].position.x");
}

TEST_CASE("a variant's alternative joins as <Name>, between the variant and the alternative's members", "[error]") {
    netser::error e;
    e.prepend_member("dx");
    e.prepend_alternative("Move");
    CHECK(e.path() == "<Move>.dx");
    e.prepend_member("command");
    CHECK(e.path() == "command<Move>.dx");
    e.prepend_index(2);
    e.prepend_member("orders");
    e.prepend_member("Envelope");
    CHECK(e.path() == "Envelope.orders[2].command<Move>.dx");

    // An alternative that fails as a whole (no member inside), and one inside an element.
    netser::error f;
    f.prepend_alternative("unsigned char");
    f.prepend_member("value");
    CHECK(f.path() == "value<unsigned char>");
    netser::error g;
    g.prepend_member("text");
    g.prepend_alternative("Chat");
    g.prepend_index(1);
    g.prepend_member("queue");
    CHECK(g.path() == "queue[1]<Chat>.text");
}

TEST_CASE("indices print in decimal, from 0 to the largest size_t", "[error]") {
    netser::error e;
    e.prepend_index(0);
    CHECK(e.path() == "[0]");
    netser::error f;
    f.prepend_index(std::numeric_limits<std::size_t>::max());
    CHECK(f.path() == "[" + std::to_string(std::numeric_limits<std::size_t>::max()) + "]");
    netser::error g;
    g.prepend_index(1234567890);
    CHECK(g.path() == "[1234567890]");
}

TEST_CASE("prepend_raw puts text verbatim in front of the path", "[error]") {
    netser::error e;
    e.prepend_member("health");
    e.prepend_raw("<Player>");
    CHECK(e.path() == "<Player>health");
}

TEST_CASE("an alternative's name that does not fit is cut like a member's", "[error]") {
    netser::error e;
    e.prepend_member("leaf");
    e.prepend_alternative(std::string(netser::error::path_capacity, 'A'));
    CHECK(e.path() == "...leaf");
    e.prepend_member("outer"); // sealed once cut
    CHECK(e.path() == "...leaf");
}

TEST_CASE("a path longer than the buffer keeps its innermost part behind a leading ...", "[error]") {
    netser::error e;
    e.prepend_member("leaf");
    for (int depth = 0; depth < 100; ++depth) e.prepend_member("member");
    const auto path = e.path();
    CHECK(path.size() <= netser::error::path_capacity);
    CHECK(path.substr(0, 3) == "...");
    CHECK(path.substr(path.size() - 12) == ".member.leaf");
    // The text after "..." is whole members: "member." repeated, then "leaf".
    const auto tail = path.substr(3);
    CHECK(tail.size() % 7 == 4);
    // Once truncated, further prepends change nothing.
    const std::string before(path);
    e.prepend_member("Outer");
    e.prepend_index(5);
    CHECK(e.path() == before);
}

TEST_CASE("a path that exactly fills the buffer is kept whole", "[error]") {
    netser::error e;
    const std::string name(netser::error::path_capacity - 3, 'a'); // room for "..." is kept
    e.prepend_member(name);
    CHECK(e.path() == name);
    netser::error f;
    f.prepend_member(std::string(netser::error::path_capacity - 2, 'b'));
    CHECK(f.path() == "...");
}

TEST_CASE("to_string names every error code", "[error]") {
    CHECK(netser::to_string(errc::none) == "none");
    CHECK(netser::to_string(errc::overflow) == "overflow");
    CHECK(netser::to_string(errc::out_of_range) == "out_of_range");
    CHECK(netser::to_string(errc::invalid_value) == "invalid_value");
    CHECK(netser::to_string(errc::too_large) == "too_large");
    CHECK(netser::to_string(errc::check_failed) == "check_failed");
    CHECK(netser::to_string(errc::bad_crc) == "bad_crc");
    CHECK(netser::to_string(errc::bad_protocol) == "bad_protocol");
    CHECK(netser::to_string(static_cast<errc>(200)) == "unknown");
    static_assert(netser::to_string(errc::overflow) == "overflow");
}

TEST_CASE("a stream failure records the code and bit and the caller adds the path", "[error]") {
    // A hand-written nested serialize: the caller prepends names while the failure unwinds.
    struct ship {
        int hull = 0;
    };
    struct squad {
        ship units[2];
    };
    auto serialize_ship = [](auto& s, ship& sh) {
        if (netser::serialize_int(s, sh.hull, 0, 100)) return true;
        s.error().prepend_member("hull");
        return false;
    };
    auto serialize_squad = [&](auto& s, squad& sq) {
        for (std::size_t i = 0; i < 2; ++i) {
            if (!serialize_ship(s, sq.units[i])) {
                s.error().prepend_index(i);
                s.error().prepend_member("units");
                s.error().prepend_member("Squad");
                return false;
            }
        }
        return true;
    };
    squad sq;
    sq.units[0].hull = 50;
    sq.units[1].hull = 101;
    std::array<std::byte, 4> buffer{};
    netser::write_stream w(buffer);
    CHECK_FALSE(serialize_squad(w, sq));
    CHECK(w.error().code == errc::out_of_range);
    CHECK(w.error().bit == 7);
    CHECK(w.error().path() == "Squad.units[1].hull");
}

TEST_CASE("a nested root stays provisional: name_member replaces it, other prepends keep it", "[error]") {
    netser::error e;
    e.prepend_member("x");
    e.prepend_root("Inner", true); // a serialize called from hand-written code
    CHECK(e.path() == "Inner.x");
    e.name_member("pc"); // netser::named around that call
    CHECK(e.path() == "pc.x");
    e.prepend_root("Outer"); // the top: final
    CHECK(e.path() == "Outer.pc.x");
    e.prepend_member("later");
    e.name_member("later");
    CHECK(e.path() == "Outer.pc.x");

    netser::error kept;
    kept.prepend_member("x");
    kept.prepend_root("Inner", true);
    kept.prepend_member("o"); // a described struct's member around the hand-written one
    CHECK(kept.path() == "o.Inner.x");
    kept.name_member("named"); // the root is no longer outermost: nothing is replaced
    CHECK(kept.path() == "named.o.Inner.x");

    netser::error indexed;
    indexed.prepend_index(3);
    indexed.prepend_root("Inner", true);
    CHECK(indexed.path() == "Inner[3]");
    indexed.name_member("list");
    CHECK(indexed.path() == "list[3]");

    netser::error bare;
    bare.prepend_root("Inner", true); // the root alone
    bare.name_member("pc");
    CHECK(bare.path() == "pc");
}

TEST_CASE("names prepended after code went on past a failure are left out", "[error]") {
    // A hand-written function failed a primitive, then called a serialize anyway.
    netser::error e;
    e.note_continued();
    e.prepend_member("first_member_of_the_nested_struct");
    e.prepend_index(2);
    e.prepend_alternative("Move");
    e.prepend_raw("raw");
    CHECK(e.path().empty());
    e.prepend_root("Nested", true); // the serialize that went on: no root, names resume
    e.prepend_member("o2");
    e.prepend_root("Holder");
    CHECK(e.path() == "Holder.o2");

    netser::error top;
    top.prepend_member("hull");
    top.prepend_root("Squad"); // a first call failed
    top.note_continued();      // a second call on the failed stream
    top.prepend_member("id");
    top.prepend_root("Squad");
    CHECK(top.path() == "Squad.hull");

    netser::error ended;
    ended.note_continued();
    ended.prepend_member("ignored");
    ended.end_continued(); // the hand-written function returned
    ended.prepend_member("member");
    CHECK(ended.path() == "member");
}
