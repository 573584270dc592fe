// The late-join recipe (docs/sessions.md): a new client's first packet is a delta against
// the initial baseline both sides construct (sequence 0), carries its own sequence
// number, and becomes the client's first acked baseline; a client whose initial state
// differs refuses it with baseline_mismatch.

#include "core/test_util.hpp"
#include "session/session_types.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

using netser::errc;
using namespace session_test;

namespace {

// The shared start state: a level whose cubes start where its layout puts them.
Scene start_state() {
    Scene s;
    for (std::size_t i = 0; i < cube_count; ++i)
        s.cubes[i] = {static_cast<std::uint16_t>(i % 30 * 100), static_cast<std::uint16_t>(i / 30 * 100), 0, false};
    return s;
}

} // namespace

TEST_CASE("a late joiner's first packet is a delta against the initial baseline, then an acked baseline",
          "[session][late_join]") {
    std::mt19937 rng(11);
    Scene world = start_state();
    world.frame = 5000;
    move_cubes(world, rng, 500); // the game has been running

    netser::baseline_ring<Scene> server_side(64, start_state());
    reader_side<Scene> client(64, start_state());

    // Sent reliably (the transport fragments it): a budget as large as the worst case.
    netser::delta_budget<&Scene::cubes> first_budget(netser::max_delta_packet_bytes<Scene>());
    std::vector<std::byte> buffer(netser::max_delta_packet_bytes<Scene>());
    Scene held;
    const std::uint16_t first = netser::next_sequence(41); // any number but 0
    REQUIRE(server_side.newest_acked().sequence == netser::initial_sequence);
    const auto r = first_budget.write(buffer, first, world, server_side.newest_acked(), held);
    REQUIRE_FALSE(r.error);
    CHECK(r.deferred == 0);
    CHECK(held == world);
    server_side.put(first, held);

    netser::delta_packet_reader<Scene> peek(r.bytes);
    REQUIRE_FALSE(peek.error());
    CHECK(peek.header().baseline == netser::initial_sequence);
    CHECK(peek.header().sequence == first);

    Scene got;
    REQUIRE_FALSE(client.receive(r.bytes, got));
    CHECK(got == world);
    CHECK(netser::apply_ack(server_side, client.acks.ack()) == 1);
    CHECK(server_side.newest_acked().sequence == first);

    // From then on, unreliable deltas within 1200 bytes against acked snapshots.
    netser::delta_budget<&Scene::cubes> budget(budget_bytes);
    std::uint16_t sequence = first;
    for (int tick = 0; tick < 20; ++tick) {
        world.frame++;
        move_cubes(world, rng, 40);
        sequence = netser::next_sequence(sequence);
        const auto& base = server_side.newest_acked();
        CHECK(base.sequence != netser::initial_sequence);
        const auto d = budget.write(buffer, sequence, world, base, held);
        REQUIRE_FALSE(d.error);
        CHECK(d.bytes.size() <= budget_bytes);
        server_side.put(sequence, held);
        REQUIRE_FALSE(client.receive(d.bytes, got));
        CHECK(got == held);
        netser::apply_ack(server_side, client.acks.ack());
    }
}

TEST_CASE("a late joiner with another initial state refuses its first packet", "[session][late_join]") {
    Scene world = start_state();
    world.frame = 9;
    netser::baseline_ring<Scene> server_side(8, start_state());
    Scene other = start_state();
    other.cubes[17].z = 1; // one cube one step off
    reader_side<Scene> client(8, other);
    std::vector<std::byte> packet;
    REQUIRE_FALSE(netser::write_delta_packet(packet, 1, world, server_side.newest_acked()).error);
    Scene got;
    got.frame = 3;
    const netser::error e = client.receive(packet, got);
    CHECK(e.code == errc::baseline_mismatch);
    CHECK(e.bit == 64);
    CHECK(got.frame == 3);
    CHECK(client.acks.ack().newest == netser::initial_sequence); // nothing accepted
}
