// Budgeted, prioritized delta writes (delta_budget.hpp): every packet fits its budget,
// the reader holds exactly the `held` value the writer gets back, the most important
// changes go first, and nothing starves.

#include "core/test_util.hpp"
#include "session/session_types.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

using netser::errc;
using namespace session_test;

namespace {

// One writer and one reader that acks every packet as it arrives: the writer stores
// `held` per sequence number and writes against the newest acked snapshot.
template <class T, auto... Members>
struct session_link {
    netser::delta_budget<Members...> budget{budget_bytes};
    netser::baseline_ring<T> writer{64};
    reader_side<T> reader{64};
    std::uint16_t sequence = netser::initial_sequence;
    std::vector<std::byte> buffer = std::vector<std::byte>(4096);
    T held{};
    T decoded{};
    std::size_t largest = 0;

    template <class Priority = netser::equal_priority>
    netser::budgeted_write_result send(const T& now, Priority priority = {}) {
        sequence = netser::next_sequence(sequence);
        const auto& base = writer.newest_acked();
        auto r = budget.write(buffer, sequence, now, base, held, priority);
        if (r.error) return r;
        largest = r.bytes.size() > largest ? r.bytes.size() : largest;
        REQUIRE(writer.put(sequence, held) != nullptr);
        const netser::error e = reader.receive(r.bytes, decoded);
        REQUIRE_FALSE(e);
        REQUIRE(decoded == held); // the reader holds what the writer was told
        netser::apply_ack(writer, reader.acks.ack());
        return r;
    }
};

} // namespace

TEST_CASE("901 cubes changed at once reach the reader in budgeted packets", "[session][budget]") {
    std::mt19937 rng(901);
    Scene world;
    world.frame = 1;
    for (std::size_t i = 0; i < cube_count; ++i)
        world.cubes[i] = {static_cast<std::uint16_t>(i * 4), static_cast<std::uint16_t>(4095 - i), 7, true};
    session_link<Scene, &Scene::cubes> l;
    std::size_t packets = 0, sent = 0;
    while (!(l.decoded == world)) {
        const auto r = l.send(world);
        REQUIRE_FALSE(r.error);
        CHECK(r.bytes.size() <= budget_bytes);
        CHECK(r.sent > 0);
        CHECK(r.sent + r.deferred == cube_count - sent);
        sent += r.sent;
        REQUIRE(++packets <= 6); // 901 cubes of 35 bits and their indices: 4 packets of 1200 bytes
    }
    CHECK(sent == cube_count);
    CHECK(packets >= 4); // 901 * 35 bits do not fit in 3 packets: the budget was used
    // Unchanged: the packet is its header and 2 bits.
    const auto r = l.send(world);
    REQUIRE_FALSE(r.error);
    CHECK(r.sent == 0);
    CHECK(r.deferred == 0);
}

TEST_CASE("the changes with the highest priority go first", "[session][budget]") {
    Scene base, now;
    for (std::size_t i = 0; i < cube_count; ++i) now.cubes[i] = {static_cast<std::uint16_t>(i), 1, 2, true};
    // Priority: the cube's x (its index): the highest indices first.
    const auto by_x = [](const Cube& c) { return static_cast<double>(c.x); };
    netser::delta_budget<&Scene::cubes> budget(600);
    std::vector<std::byte> buffer(600);
    Scene held;
    const auto r = budget.write(buffer, {1, 0}, now, base, held, by_x);
    REQUIRE_FALSE(r.error);
    REQUIRE(r.sent > 0);
    REQUIRE(r.deferred > 0);
    CHECK(r.bytes.size() <= 600);
    for (std::size_t i = 0; i < cube_count; ++i) {
        const bool went = held.cubes[i] == now.cubes[i];
        CHECK(went == (i >= cube_count - r.sent));
        if (!went) CHECK(held.cubes[i] == base.cubes[i]);
    }
    CHECK(held.frame == now.frame);
}

TEST_CASE("a steady stream of high-priority changes starves nothing", "[session][budget]") {
    std::mt19937 rng(7);
    Scene world;
    session_link<Scene, &Scene::cubes> l;
    // Cubes 0..399 change every packet with priority 20; the others change once, now,
    // with priority 1. The hot ones alone never fit a packet.
    constexpr std::size_t hot = 400;
    for (std::size_t i = hot; i < cube_count; ++i) world.cubes[i] = {5, 5, 5, true};
    const auto priority = [](const Cube& c) { return c.moving ? 1.0 : 20.0; };
    std::size_t packets = 0;
    std::size_t deferred_hot_seen = 0;
    const auto cold_arrived = [&] {
        for (std::size_t i = hot; i < cube_count; ++i)
            if (!(l.decoded.cubes[i] == world.cubes[i])) return false;
        return true;
    };
    while (!cold_arrived()) {
        for (std::size_t i = 0; i < hot; ++i)
            world.cubes[i] = {static_cast<std::uint16_t>(rng() % 4096), static_cast<std::uint16_t>(rng() % 4096),
                              static_cast<std::uint16_t>(rng() % 1024), false};
        const auto r = l.send(world, priority);
        REQUIRE_FALSE(r.error);
        CHECK(r.bytes.size() <= budget_bytes);
        deferred_hot_seen += r.deferred > cube_count - hot ? 1 : 0;
        // A priority-1 change waits while a priority-20 one is ahead of it: about 20
        // packets times the hot cubes' share, never without bound.
        REQUIRE(++packets <= 200);
    }
    CHECK(packets > 2);         // the cold cubes had to wait: the hot ones went first
    CHECK(deferred_hot_seen > 0); // and the hot ones alone overflowed the budget
}

TEST_CASE("entities that come and go converge under a budget, whatever the container", "[session][budget]") {
    std::mt19937 rng(2929);
    Arena world;
    session_link<Arena, &Arena::players, &Arena::flags, &Arena::pickups, &Arena::debris> l;
    std::uniform_int_distribution<int> id(0, 999);
    for (int step = 0; step < 60; ++step) {
        world.tick = static_cast<std::uint16_t>(step);
        // Spawn, despawn, change and reorder players; flags, pickups and debris churn.
        for (int k = 0; k < 15 && world.players.size() < 200; ++k) {
            const auto pid = static_cast<std::uint16_t>(id(rng));
            bool taken = false;
            for (const Player& p : world.players) taken = taken || p.id == pid;
            if (!taken) world.players.push_back({pid, static_cast<std::uint16_t>(rng() % 10000), 1});
        }
        for (int k = 0; k < 5 && !world.players.empty(); ++k)
            world.players.erase(world.players.begin() + static_cast<std::ptrdiff_t>(rng() % world.players.size()));
        for (Player& p : world.players)
            if (rng() % 3 == 0) p.score = static_cast<std::uint16_t>(rng() % 10000);
        if (world.players.size() > 2) std::swap(world.players.front(), world.players.back());
        world.flags[static_cast<std::uint16_t>(rng() % 60)] = static_cast<std::uint16_t>(rng());
        if (world.flags.size() > 40) world.flags.erase(world.flags.begin());
        world.pickups[static_cast<std::uint16_t>(rng() % 500)] = static_cast<std::uint8_t>(rng());
        if (world.pickups.size() > 50) world.pickups.erase(world.pickups.begin());
        world.debris.resize(rng() % 300);
        for (Cube& c : world.debris) c.x = static_cast<std::uint16_t>(rng() % 4096);
        const auto r = l.send(world);
        INFO(netser::to_string(r.error.code) << " at " << r.error.bit << ": " << r.error.path());
        REQUIRE_FALSE(r.error);
        CHECK(r.bytes.size() <= budget_bytes);
    }
    // The world stops: the reader catches up within a few packets.
    int packets = 0;
    while (!(l.decoded == world)) {
        const auto r = l.send(world);
        REQUIRE_FALSE(r.error);
        CHECK(r.bytes.size() <= budget_bytes);
        REQUIRE(++packets <= 20);
    }
    CHECK(l.decoded.players == world.players); // the order too
}

TEST_CASE("a budget too small for the packet without changes fails and changes nothing", "[session][budget]") {
    Scene base, first, now;
    // The failed write sees cubes 500..599 changed; the next one cubes 0..599. Had the
    // failed write moved their accumulators, 500..599 would go first.
    for (std::size_t i = 500; i < 600; ++i) first.cubes[i].x = static_cast<std::uint16_t>(i);
    for (std::size_t i = 0; i < 600; ++i) now.cubes[i].x = static_cast<std::uint16_t>(i + 1);
    netser::delta_budget<&Scene::cubes> budget(budget_bytes);
    std::vector<std::byte> tiny(12), room(budget_bytes);
    Scene held;
    held.frame = 77;
    const auto failed = budget.write(tiny, {1, 0}, first, base, held);
    CHECK(failed.error.code == errc::overflow);
    CHECK(failed.bytes.empty());
    CHECK(held.frame == 77);

    // The same packet as a fresh budget's: the oldest (lowest) indices first.
    netser::delta_budget<&Scene::cubes> fresh(budget_bytes);
    Scene held_fresh;
    const auto a = budget.write(room, {1, 0}, now, base, held);
    REQUIRE_FALSE(a.error);
    REQUIRE(a.deferred > 0);
    const std::vector<std::byte> packet(a.bytes.begin(), a.bytes.end());
    const auto b = fresh.write(room, {1, 0}, now, base, held_fresh);
    REQUIRE_FALSE(b.error);
    CHECK(netser_test::hex(packet) == netser_test::hex(b.bytes));
    CHECK(held == held_fresh);
    CHECK(held.cubes[0] == now.cubes[0]);
    CHECK(held.cubes[599] == base.cubes[599]);
}

TEST_CASE("left-out changes keep their scores; sent and unchanged elements start again", "[session][budget]") {
    Scene base, now;
    for (std::size_t i = 0; i < 600; ++i) now.cubes[i].x = static_cast<std::uint16_t>(i + 1);
    netser::delta_budget<&Scene::cubes> budget(budget_bytes);
    std::vector<std::byte> room(budget_bytes);
    Scene held;
    const auto a = budget.write(room, {1, 0}, now, base, held);
    REQUIRE_FALSE(a.error);
    REQUIRE(a.deferred > 0);
    const std::size_t first_sent = a.sent;
    // Against the same baseline again: the ones left out have waited, so they go first.
    const auto b = budget.write(room, {2, 0}, now, base, held);
    REQUIRE_FALSE(b.error);
    const std::size_t waited = a.deferred < b.sent ? a.deferred : b.sent;
    for (std::size_t i = first_sent; i < first_sent + waited; ++i) CHECK(held.cubes[i] == now.cubes[i]);
    // Cubes sent the first time wait behind them: only what room is left goes.
    const std::size_t again = b.sent - waited;
    for (std::size_t i = 0; i < first_sent; ++i) CHECK((held.cubes[i] == now.cubes[i]) == (i < again));
}

TEST_CASE("a budgeted write fails on a value out of range, naming it", "[session][budget]") {
    Scene base, now;
    now.cubes[5].z = 2000; // z is [0, 1023]
    netser::delta_budget<&Scene::cubes> budget(1200);
    std::vector<std::byte> buffer(1200);
    Scene held;
    const auto r = budget.write(buffer, {1, 0}, now, base, held);
    CHECK(r.error.code == errc::out_of_range);
    CHECK(std::string(r.error.path()) == "Scene.cubes[5].z");
}

namespace {

// Players that differ between a and b, by id: changed, added or removed.
std::size_t player_changes(const std::vector<Player>& a, const std::vector<Player>& b) {
    std::size_t n = 0;
    for (const Player& p : a) {
        const auto it = std::find_if(b.begin(), b.end(), [&](const Player& q) { return q.id == p.id; });
        n += it == b.end() || !(*it == p) ? 1u : 0u;
    }
    for (const Player& q : b)
        n += std::none_of(a.begin(), a.end(), [&](const Player& p) { return p.id == q.id; }) ? 1u : 0u;
    return n;
}

} // namespace

TEST_CASE("a keyed vector reordered under a tight budget keeps every removal left for later", "[session][budget]") {
    // The message reorders the survivors: removals left for later go beside their
    // baseline neighbours, wherever those moved (a fuzzer found them lost).
    std::mt19937 rng(473);
    for (int round = 0; round < 300; ++round) {
        Arena base, now;
        for (int i = 0; i < 12; ++i)
            if (rng() % 2 != 0) base.players.push_back({static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(rng() % 100), 0});
        for (int i = 0; i < 12; ++i)
            if (rng() % 2 != 0) now.players.push_back({static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(rng() % 100), 1});
        std::shuffle(now.players.begin(), now.players.end(), rng);
        netser::delta_budget<&Arena::players> budget(28 + rng() % 40);
        std::vector<std::byte> buffer(256);
        Arena held;
        const auto r = budget.write(buffer, {1, 0}, now, base, held);
        if (r.error) {
            REQUIRE(r.error.code == errc::overflow);
            continue;
        }
        Arena read;
        REQUIRE_FALSE(netser::read_delta_packet(r.bytes, read, [&](std::uint16_t) { return &base; }));
        REQUIRE(read == held);
        INFO("round " << round);
        REQUIRE(player_changes(held.players, base.players) == r.sent);
        REQUIRE(player_changes(now.players, base.players) == r.sent + r.deferred);
    }
}
