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
    // The hash in the golden is schema_hash<Shot>(), the model's value (tools/golden_types.py).
    CHECK(netser::schema_hash<Shot>() == 0x331d2d8bu);
    CHECK(netser::schema_json<Shot>() == golden("Shot.schema.json"));
}

/// How many times `key` opens an object in the document's "types" (each struct once).
std::size_t definitions(const std::string& document, const std::string& key) {
    const std::string opening = "\n    \"" + key + "\": {";
    std::size_t count = 0;
    for (std::size_t at = document.find(opening); at != std::string::npos; at = document.find(opening, at + 1)) ++count;
    return count;
}

TEST_CASE("schema_json is the same text on every call, whatever was asked before", "[schema]") {
    // Each call builds its document from nothing: the calls in between (other roots that
    // share Message's structs) leave nothing behind, in Message's text or in theirs.
    const std::string first = netser::schema_json<packet_test::Message>();
    CHECK(first.find("\"schema_hash_hex\": \"0xab07329a\"") != std::string::npos); // schema_hash_test.cpp's golden
    for (const char* name : {"Join", "Chat", "Move", "Leave"}) {
        INFO(name);
        CHECK(definitions(first, name) == 1);
    }
    CHECK(netser::schema_json<packet_test::Ping>() == golden("Ping.schema.json"));
    CHECK(netser::schema_json<Shot>() == golden("Shot.schema.json"));
    const std::string join = netser::schema_json<packet_test::Join>();
    CHECK(definitions(join, "Join") == 1);
    CHECK(definitions(join, "Chat") == 0);
    CHECK(netser::schema_json<packet_test::Message>() == first);
}

} // namespace schema_json_test
