// profile_stream: the bit budget per member path, over several packets. Expected
// figures are derived by hand from the wire format and cross-checked with
// measure_stream on the same values.
#include "reflect/test_types.hpp"

#include <sstream>
#include <variant>

namespace profile_test {

using namespace reflect_test;

struct Cube {
    float x = 0.f, y = 0.f; // quantize(-100, 100, 0.5): 400 steps, 9 bits each
    bool at_rest = false;   // 1 bit
};
NETSER_STRUCT(Cube, (x, netser::quantize(-100.f, 100.f, 0.5f)), (y, netser::quantize(-100.f, 100.f, 0.5f)), at_rest)

struct Scene {
    std::uint8_t frame = 0;  // 8 bits
    std::vector<Cube> cubes; // count in 3 bits (max 7), then 19 bits per cube
    std::string label;       // length in 2 bits (max 3), align, bytes
};
NETSER_STRUCT(Scene, frame, (cubes, netser::max_size(7)), (label, netser::max_length(3)))

// A: 8 + (3 + 2 * 19) + (2 + 5 padding) = 56 bits. B: 8 + 3 + (2 + 3 padding + 16) = 32 bits.
Scene scene_a() { return {1, {Cube{1.f, 2.f, true}, Cube{-3.f, 4.f, false}}, ""}; }
Scene scene_b() { return {2, {}, "ab"}; }

// A message union: an index in 2 bits, then the alternative.
struct Move {
    std::int16_t dx = 0, dy = 0; // 16 bits each
};
NETSER_STRUCT(Move, dx, dy)
struct Chat {
    std::string text; // length in 3 bits (max 7), align, bytes
};
NETSER_STRUCT(Chat, (text, netser::max_length(7)))
using Body = std::variant<std::monostate, Move, Chat>;
struct Packet {
    std::uint8_t seq = 0; // 8 bits
    Body body;
};
NETSER_STRUCT(Packet, seq, body)

// A name longer than the table's first column used to be.
struct AMessageWithAVeryLongNameThatDoesNotFitTheDefaultFirstColumnOfTheTable {
    std::uint8_t kind = 0;
};
NETSER_STRUCT(AMessageWithAVeryLongNameThatDoesNotFitTheDefaultFirstColumnOfTheTable, kind)

const netser::profile_row* find(const std::vector<netser::profile_row>& rows, std::string_view path) {
    for (const auto& r : rows)
        if (r.path == path) return &r;
    return nullptr;
}

TEST_CASE("profile_stream adds up the bits of every member path", "[profile]") {
    REQUIRE(write(scene_a()).bits == 56);
    REQUIRE(write(scene_b()).bits == 32);

    netser::profile_stream p;
    REQUIRE(p.profile(scene_a()));
    REQUIRE(p.profile(scene_b()));
    CHECK(p.packets() == 2);
    const auto rows = p.rows();

    struct expected {
        const char* path;
        int depth;
        double mean;
        std::size_t min, max;
    };
    // In tree order: a member before its children, siblings in wire order. A path a
    // packet does not reach (no cube in B) has min 0.
    const expected want[] = {
        {"Scene", 0, 44.0, 32, 56},
        {"Scene.frame", 1, 8.0, 8, 8},
        {"Scene.cubes", 1, 22.0, 3, 41},
        {"Scene.cubes[]", 1, 19.0, 0, 38},
        {"Scene.cubes[].x", 2, 9.0, 0, 18},
        {"Scene.cubes[].y", 2, 9.0, 0, 18},
        {"Scene.cubes[].at_rest", 2, 1.0, 0, 2},
        {"Scene.label", 1, 14.0, 7, 21},
    };
    REQUIRE(rows.size() == std::size(want));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        INFO("row " << i << ": " << rows[i].path);
        CHECK(rows[i].path == want[i].path);
        CHECK(rows[i].depth == want[i].depth);
        CHECK(rows[i].mean == want[i].mean);
        CHECK(rows[i].min == want[i].min);
        CHECK(rows[i].max == want[i].max);
        CHECK(rows[i].share == Approx(want[i].mean / 44.0));
    }
}

TEST_CASE("profile_stream agrees with measure_stream on random packets", "[profile]") {
    std::mt19937 rng(5);
    netser::profile_stream p;
    std::size_t total = 0;
    const int packets = 200;
    for (int i = 0; i < packets; ++i) {
        const Player player = random_player(rng);
        total += write(player).bits;
        REQUIRE(p.profile(player));
    }
    const auto rows = p.rows();
    REQUIRE(!rows.empty());
    CHECK(rows.front().path == "Player");
    CHECK(rows.front().mean == Approx(static_cast<double>(total) / packets));
    // Fixed-width members cost their width in every packet.
    const auto* x = find(rows, "Player.x");
    REQUIRE(x != nullptr);
    CHECK(x->mean == 16.0); // quantize(-2000, 2000, 0.1): 40000 steps
    CHECK(x->min == 16);
    CHECK(x->max == 16);
    const auto* weapon = find(rows, "Player.weapon");
    REQUIRE(weapon != nullptr);
    CHECK(weapon->mean == 2.0);
    // The members of a struct add up to the struct.
    double members = 0;
    for (const auto& r : rows)
        if (r.depth == 1 && r.path.find('[') == std::string::npos) members += r.mean;
    CHECK(members == Approx(rows.front().mean));
}

TEST_CASE("profile_stream refuses what a write refuses, and prints its table and chart", "[profile]") {
    netser::profile_stream p;
    Scene bad = scene_a();
    bad.label = "four"; // longer than max_length(3)
    CHECK_FALSE(p.profile(bad));
    CHECK(p.error().code == netser::errc::too_large);

    netser::profile_stream q;
    REQUIRE(q.profile(scene_a()));
    std::ostringstream table, svg;
    q.print_table(table);
    q.write_svg(svg, "a <title> & more");
    CHECK(table.str().find("member path") != std::string::npos);
    CHECK(table.str().find("    x ") != std::string::npos); // depth 2, indented by 4
    CHECK(svg.str().rfind("<svg", 0) == 0);
    CHECK(svg.str().find("a &lt;title&gt; &amp; more") != std::string::npos);
    CHECK(svg.str().find(">at_rest<") != std::string::npos);
    CHECK(svg.str().find("</svg>") != std::string::npos);
}

TEST_CASE("profile_stream counts a variant's index and each alternative in rows of their own", "[profile][variant]") {
    // A: 8 + 2 + Move (16 + 16) = 42 bits. B: 8 + 2 + Chat (3 + 3 padding + 16) = 32 bits.
    // C: 8 + 2 + monostate (nothing) = 10 bits.
    const Packet a{1, Move{1, 2}}, b{2, Chat{"hi"}}, c{3, std::monostate{}};
    REQUIRE(write(a).bits == 42);
    REQUIRE(write(b).bits == 32);
    REQUIRE(write(c).bits == 10);

    netser::profile_stream p;
    REQUIRE(p.profile(a));
    REQUIRE(p.profile(b));
    REQUIRE(p.profile(c));
    const auto rows = p.rows();

    struct expected {
        const char* path;
        const char* label;
        int depth;
        double sum; // over the three packets
        std::size_t min, max;
    };
    // The alternatives are children of the variant, apart from each other (a packet
    // that holds another alternative counts 0 bits in them), after the index.
    const expected want[] = {
        {"Packet", "Packet", 0, 84, 10, 42},
        {"Packet.seq", "seq", 1, 24, 8, 8},
        {"Packet.body", "body", 1, 60, 2, 34},
        {"Packet.body.index()", "index()", 2, 6, 2, 2},
        {"Packet.body<Move>", "<Move>", 2, 32, 0, 32},
        {"Packet.body<Move>.dx", "dx", 3, 16, 0, 16},
        {"Packet.body<Move>.dy", "dy", 3, 16, 0, 16},
        {"Packet.body<Chat>", "<Chat>", 2, 22, 0, 22},
        {"Packet.body<Chat>.text", "text", 3, 22, 0, 22},
        {"Packet.body<std::monostate>", "<std::monostate>", 2, 0, 0, 0},
    };
    REQUIRE(rows.size() == std::size(want));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        INFO("row " << i << ": " << rows[i].path);
        CHECK(rows[i].path == want[i].path);
        CHECK(rows[i].label == want[i].label);
        CHECK(rows[i].depth == want[i].depth);
        CHECK(rows[i].mean == Approx(want[i].sum / 3));
        CHECK(rows[i].min == want[i].min);
        CHECK(rows[i].max == want[i].max);
    }

    std::ostringstream table;
    p.print_table(table);
    CHECK(table.str().find("\n    index() ") != std::string::npos);
    CHECK(table.str().find("\n    <Move> ") != std::string::npos);
    CHECK(table.str().find("\n      dx ") != std::string::npos);

    // A top-level variant: its root is std::variant.
    netser::profile_stream q;
    REQUIRE(q.profile(Body{Move{}}));
    const auto top = q.rows();
    REQUIRE(top.size() == 5);
    CHECK(top[0].path == "std::variant");
    CHECK(top[0].mean == 34);
    CHECK(top[1].path == "std::variant.index()");
    CHECK(top[1].mean == 2);
    CHECK(top[2].path == "std::variant<Move>");
    CHECK(top[2].mean == 32);
    CHECK(top[3].path == "std::variant<Move>.dx");
}

TEST_CASE("profile_stream's delta profile names the alternatives too", "[profile][variant]") {
    netser::profile_stream p;
    const Packet base{1, Move{1, 2}};
    REQUIRE(p.profile_delta(Packet{1, Move{1, 3}}, base));
    const auto rows = p.rows();
    CHECK(find(rows, "Packet.body.index()") != nullptr);
    CHECK(find(rows, "Packet.body<Move>.dy") != nullptr);
    CHECK(find(rows, "Packet.body.dy") == nullptr);
}

TEST_CASE("a root name longer than the first column keeps the table's columns aligned", "[profile]") {
    using Long = AMessageWithAVeryLongNameThatDoesNotFitTheDefaultFirstColumnOfTheTable;
    netser::profile_stream p;
    REQUIRE(p.profile(Long{}));
    std::ostringstream table, svg;
    p.print_table(table);
    std::istringstream lines(table.str());
    std::string header, line;
    REQUIRE(std::getline(lines, header));
    // Every line as wide as the header: the numbers stay under their titles.
    int n = 0;
    while (std::getline(lines, line)) {
        INFO(line);
        CHECK(line.size() == header.size());
        ++n;
    }
    CHECK(n == 2);
    CHECK(header.find("mean bits") > std::string_view("AMessageWithAVeryLongNameThatDoesNotFitTheDefaultFirstColumnOfTheTable").size());

    // The chart's bars start after the longest label (12 px monospace: about 7 px a character).
    p.write_svg(svg);
    const auto at = svg.str().find("<rect x=\"");
    REQUIRE(at != std::string::npos);
    const int x = std::stoi(svg.str().substr(at + 9));
    CHECK(x >= 10 + 7 * 70);
}

} // namespace profile_test
