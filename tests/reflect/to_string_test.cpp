// netser::to_string and netser::io::operator<<: member names and values, for logs.
#include "reflect/test_types.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
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

struct Numbers {
    float f = 0;
    double d = 0;
    std::int64_t wide = 0;
    std::uint64_t unsigned_wide = 0;
    const int* where = nullptr;
};

// What std::ostream prints for the same values, the way to_string printed them before it
// built its text without <sstream>.
std::string streamed(const Numbers& n) {
    std::ostringstream os;
    os << '{' << n.f << ", " << n.d << ", " << n.wide << ", " << n.unsigned_wide << ", ";
    if (n.where == nullptr) os << "null";
    else os << static_cast<const void*>(n.where);
    os << '}';
    return os.str();
}

TEST_CASE("to_string prints numbers and pointers as std::ostream does by default", "[to_string]") {
    const int target = 0;
    std::vector<Numbers> cases = {
        {0.f, -0.0, 0, 0, nullptr},
        {1e-7f, 123456789.0, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::uint64_t>::max(),
         &target},
        {std::numeric_limits<float>::infinity(), -std::numeric_limits<double>::infinity(), -1, 1, nullptr},
        {std::numeric_limits<float>::max(), std::numeric_limits<double>::denorm_min(), 7, 8, &target},
        {std::nanf(""), 0.1 + 0.2, 0, 0, nullptr},
    };
    std::mt19937_64 rng(15);
    std::uniform_real_distribution<double> mantissa(-10.0, 10.0);
    std::uniform_int_distribution<int> exponent(-40, 40);
    for (int i = 0; i < 2000; ++i) {
        const double v = std::ldexp(mantissa(rng), exponent(rng));
        cases.push_back({static_cast<float>(v), v, static_cast<std::int64_t>(rng()), rng(), nullptr});
    }
    for (const Numbers& n : cases) {
        INFO(streamed(n));
        CHECK(netser::to_string(n) == streamed(n));
    }
}

} // namespace to_string_test
