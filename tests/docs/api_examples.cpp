// The examples of docs/api.md. Each block between "// [api:NAME]" and "// [api:end]"
// is quoted verbatim in docs/api.md; check_api_examples.py fails when a ```cpp
// block of docs/api.md is not found here, so the documentation cannot drift.
#include <netser/netser.hpp>
#include <netser/predicted_delta_packet.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace api_docs {

// [api:NETSER_STRUCT]
enum class Weapon : std::uint8_t { none, rifle, rocket };
BOOST_DESCRIBE_ENUM(Weapon, none, rifle, rocket)

struct Player {
    int health = 100;
    float x = 0.f;
    bool moving = false;
    Weapon weapon = Weapon::none;
    std::string name;
};
NETSER_STRUCT(Player,
              (health, netser::range(0, 100)),           // 7 bits
              (x, netser::quantize(-100.f, 100.f, 0.5f)), // 400 steps: 9 bits
              moving,                                     // 1 bit
              weapon,                                     // 3 values: 2 bits
              (name, netser::max_length(7)))              // length 3 bits, align, bytes
// [api:end]

// [api:NETSER_DERIVED_STRUCT]
struct Entity {
    std::uint16_t id = 0;
};
NETSER_STRUCT(Entity, id)

struct Tank : Entity {
    std::uint8_t ammo = 0;
};
NETSER_DERIVED_STRUCT(Tank, (Entity), ammo) // the base's members first: id, then ammo
// [api:end]

// [api:NETSER_CLASS]
class Account {
public:
    Account() = default;
    Account(int level, bool admin) : level_(level), admin_(admin) {}
    int level() const { return level_; }
    bool admin() const { return admin_; }

private:
    int level_ = 0;
    bool admin_ = false;
    NETSER_CLASS(Account, (level_, netser::range(0, 31)), admin_)
};
// [api:end]

// [api:named]
struct Score {
    int points = 0;
    Player best;
};
// Hand-written, Glenn-style: named() gives each part its member name in error paths.
template <netser::stream S>
bool serialize(S& s, Score& v) {
    return netser::named(s, "points", [&] { return netser::serialize_int(s, v.points, 0, 1000); }) &&
           netser::named(s, "best", [&] { return netser::serialize(s, v.best); });
}
// [api:end]

} // namespace api_docs

using namespace api_docs;

TEST_CASE("api: NETSER_STRUCT", "[api]") {
    // [api:NETSER_STRUCT-use]
    static_assert(netser::max_bits<Player>() == 7 + 9 + 1 + 2 + (3 + 7 + 7 * 8)); // 7: padding, at most
    Player p{42, 10.5f, true, Weapon::rifle, "ann"};
    std::array<std::byte, netser::max_bytes<Player>()> buffer{};
    netser::write_stream w(buffer);
    REQUIRE(netser::serialize(w, p));
    netser::read_stream r(w.finish());
    Player q;
    REQUIRE(netser::serialize(r, q));
    CHECK(q.health == 42);
    CHECK(q.x == 10.5f);
    CHECK(q.weapon == Weapon::rifle);
    CHECK(q.name == "ann");
    // [api:end]
}

TEST_CASE("api: NETSER_DERIVED_STRUCT and NETSER_CLASS", "[api]") {
    // [api:NETSER_DERIVED_STRUCT-use]
    static_assert(netser::max_bits<Tank>() == 16 + 8);
    Tank t;
    t.id = 7;
    t.ammo = 3;
    CHECK(netser::to_string(t) == "Tank{Entity{id=7}, ammo=3}");
    // [api:end]

    // [api:NETSER_CLASS-use]
    static_assert(netser::max_bits<Account>() == 5 + 1);
    std::vector<std::byte> bytes;
    netser::vector_write_stream w(bytes);
    Account sent{17, true};
    REQUIRE(netser::serialize(w, sent));
    netser::read_stream r(w.finish());
    Account a;
    REQUIRE(netser::serialize(r, a));
    CHECK(a.level() == 17);
    CHECK(a.admin());
    // [api:end]
}

TEST_CASE("api: write_stream and read_stream", "[api]") {
    // [api:write_stream]
    std::array<std::byte, 4> buffer{};
    netser::write_stream w(buffer); // or write_stream(void* data, std::size_t size)
    std::uint32_t level = 5;
    bool alive = true;
    REQUIRE(netser::serialize_int(w, level, 0, 9)); // 4 bits
    REQUIRE(netser::serialize_bool(w, alive));      // 1 bit
    CHECK(w.bits_processed() == 5);
    std::span<const std::byte> bytes = w.finish(); // pads to a whole byte
    CHECK(bytes.size() == 1);
    CHECK(bytes[0] == std::byte{0x15}); // LSB first: 0101 then 1
    // [api:end]

    // [api:read_stream]
    netser::read_stream r(bytes); // or read_stream(const void* data, std::size_t size)
    std::uint32_t level_in = 0;
    bool alive_in = false;
    REQUIRE(netser::serialize_int(r, level_in, 0, 9));
    REQUIRE(netser::serialize_bool(r, alive_in));
    CHECK(level_in == 5);
    CHECK(alive_in);
    CHECK(r.bits_remaining() == 3);
    // Reading past the end fails with overflow, at the bit where it happened.
    std::uint32_t more = 0;
    CHECK_FALSE(netser::serialize_bits(r, more, 8));
    CHECK(r.error().code == netser::errc::overflow);
    CHECK(r.error().bit == 5);
    // [api:end]
}

TEST_CASE("api: measure_stream and vector_write_stream", "[api]") {
    // [api:measure_stream]
    Player p{100, 0.f, false, Weapon::none, "bob"};
    netser::measure_stream m;
    REQUIRE(netser::serialize(m, p));
    CHECK(m.bits_processed() == 7 + 9 + 1 + 2 + 3 + 2 + 3 * 8); // 2 bits of padding
    CHECK(m.bytes_processed() == 6);
    // [api:end]

    // [api:vector_write_stream]
    std::vector<std::byte> out;                         // grows as needed
    netser::vector_write_stream w(out, /*max_bytes=*/4); // default_max_bytes: 16 MiB
    REQUIRE(netser::serialize(w, p) == false);           // 48 bits do not fit in 4 bytes
    CHECK(w.error().code == netser::errc::overflow);

    std::vector<std::byte> out2;
    netser::vector_write_stream w2(out2);
    REQUIRE(netser::serialize(w2, p));
    w2.finish(); // out2 now holds exactly the bytes written
    CHECK(out2.size() == 6);
    // [api:end]
}

TEST_CASE("api: serialize primitives", "[api]") {
    // [api:primitives]
    std::vector<std::byte> out;
    netser::vector_write_stream w(out);
    std::uint8_t flags = 0b101;
    int hp = -3;
    bool on = true;
    float f = 1.25f;
    double d = 2.5;
    float speed = 3.f;
    std::string text = "hi";
    std::array<std::byte, 2> blob{std::byte{1}, std::byte{2}};
    REQUIRE(netser::serialize_bits(w, flags, 3));                      // unsigned, 3 bits
    REQUIRE(netser::serialize_int(w, hp, -10, 10));                    // 21 values: 5 bits
    REQUIRE(netser::serialize_bool(w, on));                            // 1 bit
    REQUIRE(netser::serialize_float(w, f));                            // 32 bits
    REQUIRE(netser::serialize_double(w, d));                           // 64 bits
    REQUIRE(netser::serialize_quantized(w, speed, 0.f, 10.f, 0.5f));   // 21 steps: 5 bits
    REQUIRE(netser::serialize_string(w, text, 15));                    // UTF-8, no NUL
    REQUIRE(netser::serialize_bytes(w, std::span<std::byte>(blob)));   // align, then 2 bytes
    REQUIRE(netser::serialize_check(w, netser::check_magic("end")));   // align, 32 bits
    REQUIRE(netser::serialize_align(w));
    w.finish();

    netser::read_stream r(out);
    std::uint8_t flags_in = 0;
    int hp_in = 0;
    bool on_in = false;
    float f_in = 0.f, speed_in = 0.f;
    double d_in = 0;
    std::string text_in;
    std::array<std::byte, 2> blob_in{};
    REQUIRE(netser::serialize_bits(r, flags_in, 3));
    REQUIRE(netser::serialize_int(r, hp_in, -10, 10));
    REQUIRE(netser::serialize_bool(r, on_in));
    REQUIRE(netser::serialize_float(r, f_in));
    REQUIRE(netser::serialize_double(r, d_in));
    REQUIRE(netser::serialize_quantized(r, speed_in, 0.f, 10.f, 0.5f));
    REQUIRE(netser::serialize_string(r, text_in, 15));
    REQUIRE(netser::serialize_bytes(r, std::span<std::byte>(blob_in)));
    REQUIRE(netser::serialize_check(r, netser::check_magic("end")));
    REQUIRE(netser::serialize_align(r));
    CHECK(flags_in == 0b101);
    CHECK(hp_in == -3);
    CHECK(on_in);
    CHECK(f_in == 1.25f);
    CHECK(d_in == 2.5);
    CHECK(speed_in == 3.f);
    CHECK(text_in == "hi");
    CHECK(blob_in == blob);
    // [api:end]
}

TEST_CASE("api: max_bits and max_bytes", "[api]") {
    // [api:max_bits]
    static_assert(netser::max_bits<Player>() == 85);  // the name's padding counted as 7 bits
    static_assert(netser::max_bytes<Player>() == 11); // ceil(85 / 8)
    static_assert(netser::max_bits<std::uint16_t>() == 16);
    std::array<std::byte, netser::max_bytes<Player>()> buffer{}; // always large enough
    Player longest{100, 100.f, true, Weapon::rocket, "1234567"};
    netser::write_stream w(buffer);
    CHECK(netser::serialize(w, longest));
    CHECK(w.bits_processed() == 80); // 22 bits, 2 of padding, 7 bytes: <= max_bits
    // [api:end]
}

namespace api_docs {
// [api:attributes-struct]
struct Shot {
    std::uint8_t kind = 0;
    std::vector<std::uint16_t> targets;
    bool has_power = false;
    int power = 0;
};
NETSER_STRUCT(Shot,
              (kind, netser::range(0, 3), netser::common(0)), // flag, then 2 bits if not 0
              (targets, netser::max_size(4), netser::range(0, 1023)),
              has_power,
              (power, netser::range(0, 100), netser::only_if(&Shot::has_power)))
// [api:end]
} // namespace api_docs

TEST_CASE("api: attributes round trip", "[api]") {
    // [api:attributes-use]
    static_assert(netser::max_bits<Shot>() == (1 + 2) + (3 + 4 * 10) + 1 + 7);
    Shot s{0, {5, 1000}, false, 50};
    std::vector<std::byte> out;
    netser::vector_write_stream w(out);
    REQUIRE(netser::serialize(w, s));
    CHECK(w.bits_processed() == 1 + (3 + 2 * 10) + 1); // power is not sent
    netser::read_stream r(w.finish());
    Shot t;
    REQUIRE(netser::serialize(r, t));
    CHECK(t.targets == std::vector<std::uint16_t>{5, 1000});
    CHECK(t.power == 0);
    // [api:end]
}

TEST_CASE("api: error", "[api]") {
    // [api:error]
    Player p{101, 0.f, false, Weapon::none, ""}; // health is declared range(0, 100)
    netser::measure_stream m;
    CHECK_FALSE(netser::serialize(m, p));
    const netser::error& e = m.error();
    CHECK(e); // explicit operator bool: true when code != errc::none
    CHECK(e.code == netser::errc::out_of_range);
    CHECK(e.bit == 0);
    CHECK(e.path() == "Player.health");
    CHECK(netser::to_string(e.code) == "out_of_range");
    CHECK(netser::to_string(netser::errc::missing_baseline) == "missing_baseline");
    // [api:end]

    // [api:describe]
    // One sentence for a log line; another schema or version is pointed at the diff tool.
    CHECK(netser::describe(netser::errc::bad_crc).find("compare with netser_schema_diff.py") != std::string_view::npos);
    CHECK(netser::describe(netser::errc::check_failed).find("another schema or version") != std::string_view::npos);
    // [api:end]

    // [api:named-use]
    Score score{5, Player{101, 0.f, false, Weapon::none, ""}};
    netser::measure_stream m2;
    CHECK_FALSE(netser::serialize(m2, score));
    CHECK(m2.error().path() == "api_docs::Score.best.health"); // the root: Score's name as the compiler spells it
    score.points = 1001;
    netser::measure_stream m3;
    CHECK_FALSE(netser::serialize(m3, score));
    CHECK(m3.error().path() == "api_docs::Score.points");
    // [api:end]
}

TEST_CASE("api: allocation budget", "[api]") {
    // [api:budget]
    std::vector<std::byte> packet(100);
    netser::read_stream r(packet);
    CHECK(r.max_allocation() == netser::read_stream::default_max_allocation(100)); // 1 MiB + 100 KiB
    r.set_max_allocation(4096); // this read may allocate 4 KiB in all
    CHECK(r.charge_allocation(100, 8)); // what the containers do before they allocate
    CHECK(r.allocated() == 800);
    CHECK_FALSE(r.charge_allocation(1000, 8)); // past the budget: the container fails with too_large
    CHECK(r.allocated() == 800);
    // [api:end]
}

TEST_CASE("api: to_string and operator<<", "[api]") {
    // [api:to_string]
    Tank t;
    t.id = 1;
    t.ammo = 2;
    CHECK(netser::to_string(t) == "Tank{Entity{id=1}, ammo=2}");

    using netser::io::operator<<;
    std::ostringstream os;
    os << t;
    CHECK(os.str() == "Tank{Entity{id=1}, ammo=2}");
    // [api:end]
}

TEST_CASE("api: packets", "[api]") {
    // [api:write_packet]
    Player p{42, -20.f, true, Weapon::rocket, "zed"};
    std::array<std::byte, netser::max_packet_bytes<Player>()> buffer{};
    static_assert(netser::max_packet_bytes<Player>() == 8 + netser::max_bytes<Player>());
    netser::packet_write_result sent = netser::write_packet(buffer, p);
    REQUIRE_FALSE(sent.error);
    CHECK(sent.bytes.size() <= buffer.size());

    std::vector<std::byte> packet; // or into a vector that grows
    REQUIRE_FALSE(netser::write_packet(packet, p).error);
    CHECK(packet.size() == sent.bytes.size());
    // [api:end]

    // [api:read_packet]
    Player q;
    netser::error e = netser::read_packet(sent.bytes, q);
    REQUIRE_FALSE(e);
    CHECK(q.name == "zed");

    // Another protocol id (the default is schema_hash<Player>()) fails the CRC.
    netser::packet_options other;
    other.protocol_id = 0x1234;
    CHECK(netser::read_packet(sent.bytes, q, other).code == netser::errc::bad_crc);

    // A flipped bit fails the CRC too, before anything is decoded.
    packet[5] ^= std::byte{0x01};
    CHECK(netser::read_packet(packet.data(), packet.size(), q).code == netser::errc::bad_crc);
    // [api:end]
}

TEST_CASE("api: profile_stream", "[api]") {
    // [api:profile_stream]
    netser::profile_stream prof;
    REQUIRE(prof.profile(Player{1, 0.f, false, Weapon::none, ""}));   // 19 + 3 + 2 padding: 24
    REQUIRE(prof.profile(Player{2, 0.f, false, Weapon::none, "ab"})); // 24 + 16: 40
    CHECK(prof.packets() == 2);
    const std::vector<netser::profile_row> rows = prof.rows();
    REQUIRE(rows.size() == 6); // Player, then its 5 members in wire order
    CHECK(rows[0].path == "Player");
    CHECK(rows[0].mean == 32.0);
    CHECK(rows[5].path == "Player.name");
    CHECK(rows[5].min == 5); // length, padding
    CHECK(rows[5].max == 21); // length, padding, 2 bytes

    std::ostringstream table, svg;
    prof.print_table(table); // path, mean bits, share, min, max
    prof.write_svg(svg, "Player budget");
    CHECK(table.str().find("health") != std::string::npos);
    CHECK(svg.str().find("<svg") != std::string::npos);

    netser::profile_stream delta_prof;
    Player base{1, 0.f, false, Weapon::none, ""};
    REQUIRE(delta_prof.profile_delta(base, base)); // the bits of serialize_delta
    CHECK(delta_prof.rows().front().mean == double(delta_prof.bits_processed()));
    // [api:end]
}

namespace api_docs {
// [api:delta-types]
struct Cube {
    std::uint16_t id = 0;
    int x = 0;
};
NETSER_STRUCT(Cube, id, (x, netser::range(-1000, 1000)))

struct Scene {
    std::uint32_t frame = 0;
    std::vector<Cube> cubes;
};
NETSER_STRUCT(Scene, frame, (cubes, netser::max_size(64)))
// [api:end]
} // namespace api_docs

TEST_CASE("api: serialize_delta", "[api]") {
    // [api:serialize_delta]
    Scene baseline{10, {{1, 5}, {2, 6}, {3, 7}}};
    Scene now = baseline;
    now.frame = 11;
    now.cubes[1].x = -6;

    std::vector<std::byte> out;
    netser::vector_write_stream w(out);
    REQUIRE(netser::serialize_delta(w, now, baseline));
    netser::measure_stream full;
    REQUIRE(netser::serialize(full, now));
    CHECK(w.bits_processed() < full.bits_processed()); // only the changes

    netser::read_stream r(w.finish());
    Scene got;
    REQUIRE(netser::serialize_delta(r, got, baseline)); // the baseline plus the changes
    CHECK(got.frame == 11);
    CHECK(got.cubes[1].x == -6);
    CHECK(got.cubes[2].x == 7);

    static_assert(netser::max_delta_bytes<Scene>() == (netser::max_delta_bits<Scene>() + 7) / 8);
    // [api:end]
}

namespace api_docs {
// [api:keyed-types]
struct Projectile {
    std::uint16_t id = 0; // the game's entity id, any 16-bit value
    int x = 0;
};
NETSER_STRUCT(Projectile, id, (x, netser::range(-1000, 1000)))

struct World {
    std::vector<Projectile> shots;          // matched by id, in any order
    std::map<std::uint16_t, Cube> cubes;    // maps and sets go by key without an attribute
};
NETSER_STRUCT(World, (shots, netser::max_size(256), netser::keyed(&Projectile::id)),
              (cubes, netser::max_size(256)))
// [api:end]
} // namespace api_docs

TEST_CASE("api: keyed deltas", "[api]") {
    // [api:keyed]
    World before;
    before.shots = {{4711, 0}, {90, 10}, {12, 20}};
    before.cubes = {{7, {7, 1}}, {300, {300, 2}}};
    World now = before;
    now.shots[1] = now.shots.back(); // 90 despawns: swap-remove
    now.shots.pop_back();
    now.shots.push_back({5, 0});     // 5 spawns
    now.shots[0].x = 1;              // 4711 moves
    now.cubes.erase(7);
    now.cubes[9] = {9, 3};

    std::vector<std::byte> out;
    netser::vector_write_stream w(out);
    REQUIRE(netser::serialize_delta(w, now, before));
    netser::read_stream r(w.finish());
    World got;
    REQUIRE(netser::serialize_delta(r, got, before));
    CHECK(got.shots.size() == 3);
    CHECK(got.shots[1].id == 12);    // the writer's order
    CHECK(got.shots[2].id == 5);
    CHECK(got.cubes.count(9) == 1);

    World twice = now;
    twice.shots.push_back({5, 1}); // a key twice
    netser::measure_stream m;
    CHECK_FALSE(netser::serialize_delta(m, twice, before));
    CHECK(m.error().code == netser::errc::invalid_value);
    // [api:end]
}

TEST_CASE("api: as_received", "[api]") {
    // [api:as_received]
    Player sent{50, 1.3f, false, Weapon::none, "x"};
    Player held; // what the reader will hold after reading `sent`
    REQUIRE_FALSE(netser::as_received(sent, held));
    CHECK(held.x == 1.5f); // quantized to the 0.5 grid
    // A writer keeps `held`, not `sent`, as the baseline of its next delta.
    // [api:end]
}

TEST_CASE("api: delta packets", "[api]") {
    // [api:write_delta_packet]
    Scene s10{10, {{1, 5}, {2, 6}}};
    Scene s11 = s10;
    s11.frame = 11;
    s11.cubes[0].x = 50;
    std::array<std::byte, netser::max_delta_packet_bytes<Scene>()> buffer{};
    netser::delta_header header{/*sequence=*/11, /*baseline=*/10};
    netser::packet_write_result sent = netser::write_delta_packet(buffer, header, s11, s10);
    REQUIRE_FALSE(sent.error);
    // [api:end]

    // [api:delta_packet_reader]
    std::map<std::uint16_t, Scene> held{{10, s10}}; // the reader's snapshots
    netser::delta_packet_reader<Scene> reader(sent.bytes);
    REQUIRE_FALSE(reader.error()); // the CRC matched and the header was read
    CHECK(reader.header().sequence == 11);
    CHECK(reader.header().baseline == 10);
    auto it = held.find(reader.header().baseline);
    Scene got;
    REQUIRE_FALSE(reader.read(got, it == held.end() ? nullptr : &it->second));
    CHECK(got.cubes[0].x == 50);
    // [api:end]

    // [api:read_delta_packet]
    auto lookup = [&](std::uint16_t seq) -> const Scene* {
        auto found = held.find(seq);
        return found == held.end() ? nullptr : &found->second;
    };
    Scene again;
    netser::delta_header h;
    REQUIRE_FALSE(netser::read_delta_packet(sent.bytes, again, lookup, &h));
    CHECK(h.sequence == 11);
    CHECK(again.frame == 11);

    held.clear(); // baseline 10 dropped: missing_baseline, `again` left untouched
    Scene none;
    CHECK(netser::read_delta_packet(sent.bytes, none, lookup).code == netser::errc::missing_baseline);
    CHECK(none.frame == 0);
    // [api:end]
}

TEST_CASE("api: snapshot sessions", "[api]") {
    // [api:baseline_ring]
    // The writer keeps, per reader, what that reader will hold; the reader what it decoded.
    // Both start from the same initial baseline (sequence 0): here an empty scene.
    netser::baseline_ring<Scene> server_side(/*capacity=*/64, Scene{});
    netser::baseline_ring<Scene> client_side(64, Scene{});
    netser::ack_window acks; // the reader's record, for its acks
    // [api:end]

    // [api:delta_budget]
    Scene world{1, {}};
    for (std::uint16_t i = 0; i < 64; ++i) world.cubes.push_back({i, i * 10});
    // Changed cubes go by accumulated priority; the packet never exceeds 100 bytes.
    netser::delta_budget<&Scene::cubes> budget(/*max_bytes=*/100);
    const auto near_first = [](const Cube& c) { return c.x < 200 ? 10.0 : 1.0; };
    std::array<std::byte, 1200> buffer{};
    Scene held; // what the reader will hold after this packet
    std::uint16_t sequence = netser::next_sequence(netser::initial_sequence);
    netser::budgeted_write_result r =
        budget.write(buffer, sequence, world, server_side.newest_acked(), held, near_first);
    REQUIRE_FALSE(r.error);
    CHECK(r.bytes.size() <= 100);
    CHECK(r.sent + r.deferred == 64); // the first packet of a late joiner: everything changed
    server_side.put(sequence, held);
    // [api:end]

    // [api:read_delta_packet_ring]
    Scene got;
    netser::delta_header h;
    REQUIRE_FALSE(netser::read_delta_packet(r.bytes, got, client_side, &h)); // fingerprint checked
    CHECK(got.cubes.size() == held.cubes.size()); // exactly `held`
    client_side.put(h.sequence, got);
    acks.accepted(h.sequence);
    // [api:end]

    // [api:apply_ack]
    std::vector<std::byte> ack_packet;
    REQUIRE_FALSE(netser::write_packet(ack_packet, acks.ack()).error); // 48 bits
    netser::ack_message ack;
    REQUIRE_FALSE(netser::read_packet(ack_packet, ack));
    netser::apply_ack(server_side, ack); // marks it acked, evicts older snapshots
    CHECK(server_side.newest_acked().sequence == sequence); // the next delta's baseline
    // [api:end]

    // [api:packet_kind_of]
    // One port, several kinds: the kind whose CRC matches.
    switch (netser::packet_kind_of<netser::ack_message, netser::delta_of<Scene>>(ack_packet).value_or(99)) {
    case 0: /* read_packet<netser::ack_message> */ break;
    case 1: /* read_delta_packet<Scene> */ FAIL("an ack"); break;
    default: FAIL("damaged or foreign"); break;
    }
    CHECK(netser::packet_kind_of<netser::ack_message, netser::delta_of<Scene>>(r.bytes) == 1u);
    // [api:end]

    // [api:baseline_mismatch]
    // A baseline other than the packet's, under the same sequence number: refused.
    netser::baseline_ring<Scene> stale(64, Scene{7, {}}); // another start state
    Scene untouched;
    CHECK(netser::read_delta_packet(r.bytes, untouched, stale).code == netser::errc::baseline_mismatch);
    CHECK(netser::baseline_fingerprint(Scene{}) != netser::baseline_fingerprint(Scene{7, {}}));
    // [api:end]
}

struct Ball {
    float x = 0.f, z = 0.f;
    bool held = false;
};
NETSER_STRUCT(Ball, (x, netser::quantize(-64.f, 64.f, 1.f / 512), netser::predict_linear),
              (z, netser::quantize(0.f, 32.f, 1.f / 512), netser::predict_linear(3, 4)), held)

TEST_CASE("api: predicted delta packets", "[api]") {
    // [api:predicted_delta_packet]
    netser::baseline_ring<Ball> ring(64); // the writer's: what the reader acked
    ring.put(10, Ball{1.f, 2.f, false});
    ring.put(11, Ball{1.5f, 2.f, false});
    // Sent against the extrapolation of snapshots 11 and 10 to 17: x at 1.5 + 6 * 0.5 = 4.5.
    const std::array<const netser::baseline_entry<Ball>*, 2> baselines{ring.find(11), ring.find(10)};
    Ball prediction; // scratch: keep one per writer and reader
    std::vector<std::byte> packet;
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 17, Ball{4.5f, 2.f, true}, baselines, prediction).error);
    CHECK(prediction.x == 4.5f);
    // [api:end]

    // [api:read_predicted_delta_packet]
    Ball got;
    netser::predicted_delta_header h;
    REQUIRE_FALSE(netser::read_predicted_delta_packet(packet, got, ring, prediction, &h));
    CHECK(h.count == 2);
    CHECK(got.x == 4.5f);
    CHECK(got.held);
    // [api:end]

    // [api:predicted_baseline]
    Ball p;
    const Ball b10{1.f, 2.f, false}, b11{1.5f, 2.f, false};
    netser::predicted_baseline(p, netser::prediction_spacing{/*ahead=*/6, /*span=*/1}, b11, &b10);
    CHECK(p.x == 4.5f);
    // [api:end]
}

TEST_CASE("api: range-coded streams", "[api]") {
    Scene s10{10, {{1, 5}, {2, 6}}};
    Scene s11 = s10;
    s11.cubes[0].x = 50;
    // [api:range_write_stream]
    std::array<std::byte, 256> buffer{};
    netser::range_write_stream w(buffer); // the library's default prior
    REQUIRE(netser::serialize_delta(w, s11, s10));
    std::span<const std::byte> coded = w.finish(); // the coder's bytes (empty on failure)
    REQUIRE_FALSE(coded.empty());
    // [api:end]

    // [api:range_read_stream]
    netser::range_read_stream r(coded);
    Scene got;
    REQUIRE(netser::serialize_delta(r, got, s10));
    CHECK(r.ended_cleanly()); // the bytes end exactly where the values do
    CHECK(got.cubes[0].x == 50);
    // [api:end]

    // [api:range_prior]
    netser::range_statistics counts; // train on packets like the ones you will send
    for (int i = 0; i < 100; ++i) {
        netser::range_write_stream t(buffer);
        t.set_statistics(&counts);
        REQUIRE(netser::serialize_delta(t, s11, s10));
        REQUIRE_FALSE(t.finish().empty());
    }
    const std::vector<netser::range_prior_entry> entries = netser::trained_prior_entries(counts);
    const netser::range_prior trained(entries); // compile the entries in: delta_recording --write-prior
    netser::range_write_stream tw(buffer, trained);
    REQUIRE(netser::serialize_delta(tw, s11, s10));
    CHECK(tw.finish().size() <= coded.size());
    // [api:end]

    // [api:range_packet]
    netser::baseline_ring<Ball> ring(64);
    ring.put(10, Ball{1.f, 2.f, false});
    const std::array<const netser::baseline_entry<Ball>*, 1> baseline{ring.find(10)};
    netser::packet_options range_coded;
    range_coded.range = &netser::default_range_prior(); // both sides must agree
    Ball scratch, ball;
    std::vector<std::byte> packet;
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 11, Ball{1.25f, 2.f, true}, baseline, scratch,
                                                       range_coded).error);
    REQUIRE_FALSE(netser::read_predicted_delta_packet(packet, ball, ring, scratch, nullptr, range_coded));
    CHECK(ball.x == 1.25f);
    // [api:end]
}

TEST_CASE("api: schema_hash and schema_json", "[api]") {
    // [api:schema_hash]
    constexpr std::uint32_t hash = netser::schema_hash<Player>(); // at compile time
    static_assert(hash != netser::schema_hash<Tank>());
    static_assert(hash == netser::schema_hash<Player>());
    // write_packet / read_packet use it as the default protocol id.
    // [api:end]

    // [api:schema_json]
    const std::string json = netser::schema_json<Player>();
    CHECK(json.find("\"format\": \"netser-schema\"") != std::string::npos);
    CHECK(json.find("\"max_bits\": 85") != std::string::npos);
    CHECK(json.find("\"root_name\": \"Player\"") != std::string::npos);
    // [api:end]
}
