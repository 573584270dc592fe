// schema_json<T>() against documents written by hand from docs/schema.md
// (tests/schema/data/*.schema.json), byte for byte: the layout, the key order, the
// numbers (integers past 2^53 as strings, floats as IEEE bits and shortest decimals).
// The Python tools' tests (tests/schema/test_*.py) check what the documents mean.

#include "packet/packet_types.hpp"

#include <netser/netser.hpp>

#include <boost/describe/enum.hpp>
#include <catch2/catch.hpp>

#include <cstdint>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace schema_json_test {

BOOST_DEFINE_ENUM_CLASS(Team, red, blue)

struct Shot {
    Team team = Team::red;
    bool hit = false;
    float damage = 0;
    std::optional<std::uint8_t> target;
    std::uint64_t stamp = 0;
};
NETSER_STRUCT(Shot, team, hit, (damage, netser::quantize(0.f, 100.f, 0.5f), netser::only_if(&Shot::hit)),
              (target, netser::range(0, 15)),
              (stamp, netser::check("stamp"), netser::range(std::uint64_t{0}, ~std::uint64_t{0})))

std::string golden(const char* name) {
    std::ifstream f(std::string("schema/data/") + name, std::ios::binary);
    REQUIRE(f);
    std::ostringstream text;
    text << f.rdbuf();
    return text.str();
}

TEST_CASE("schema_json of Ping is the document of docs/schema.md", "[schema]") {
    CHECK(netser::schema_json<packet_test::Ping>() == golden("Ping.schema.json"));
}

TEST_CASE("schema_json writes enums, quantization, only_if, optionals, checks and 64-bit ranges", "[schema]") {
    // The hash in the golden is schema_hash<Shot>() (tests/packet/schema_hash_test.cpp checks that function).
    CHECK(netser::schema_hash<Shot>() == 0x331d2d8bu);
    CHECK(netser::schema_json<Shot>() == golden("Shot.schema.json"));
}

TEST_CASE("schema_json is the same text on every call", "[schema]") {
    CHECK(netser::schema_json<packet_test::Message>() == netser::schema_json<packet_test::Message>());
}

} // namespace schema_json_test
