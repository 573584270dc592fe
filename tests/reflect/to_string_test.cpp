// netser::to_string and netser::io::operator<<: member names and values, for logs.
#include "reflect/test_types.hpp"

#include <map>
#include <sstream>
#include <variant>

namespace to_string_test {

using namespace reflect_test;

struct Plain { // no macro: Boost.PFR
    int a;
    double b;
};

struct Mixed {
    std::map<int, std::string> names;
    std::variant<int, Unit> either;
    std::optional<std::int8_t> maybe;
    char letter = 'A';
    Sparse sparse = Sparse::a;
    std::array<bool, 2> flags{};
};
NETSER_STRUCT(Mixed, (names, netser::max_size(4), netser::max_length(8)), either, maybe, letter, sparse, flags)

TEST_CASE("to_string prints described structs with names and values", "[to_string]") {
    Player p;
    p.health = 100;
    p.x = 1.5f;
    p.y = -2.f;
    p.moving = true;
    p.vx = 0.25f;
    p.weapon = Weapon::rifle;
    p.name = "Ann";
    p.inventory = {1, 2};
    p.target = 7;
    CHECK(netser::to_string(p) ==
          "Player{health=100, x=1.5, y=-2, moving=true, vx=0.25, weapon=rifle, name=\"Ann\", inventory=[1, 2], "
          "target=7}");
    p.target.reset();
    p.inventory.clear();
    CHECK(netser::to_string(p).ends_with("inventory=[], target=none}"));

    Squad squad{3, {Unit{10, true}, Unit{0, false}}};
    CHECK(netser::to_string(squad) == "Squad{id=3, units=[Unit{hull=10, alive=true}, Unit{hull=0, alive=false}]}");
}

TEST_CASE("to_string prints containers, variants, characters and undeclared enum values", "[to_string]") {
    Mixed m;
    m.names = {{2, "b"}, {1, "a"}};
    m.either = Unit{5, false};
    m.maybe = -3;
    m.sparse = static_cast<Sparse>(4); // a gap of the sparse enum
    m.flags = {true, false};
    CHECK(netser::to_string(m) == "Mixed{names={1: \"a\", 2: \"b\"}, either=Unit{hull=5, alive=false}, maybe=-3, "
                                  "letter=65, sparse=(4), flags=[true, false]}");
    m.either = 9;
    m.maybe.reset();
    m.sparse = Sparse::c;
    CHECK(netser::to_string(m).find("either=9, maybe=none, letter=65, sparse=c") != std::string::npos);
}

TEST_CASE("to_string prints plain aggregates through Boost.PFR, and operator<< prints described structs",
          "[to_string]") {
    CHECK(netser::to_string(Plain{1, 2.5}) == "{1, 2.5}");
    using netser::io::operator<<;
    std::ostringstream os;
    os << Unit{7, true};
    CHECK(os.str() == "Unit{hull=7, alive=true}");
}

} // namespace to_string_test
