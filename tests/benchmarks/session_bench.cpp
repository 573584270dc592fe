// Snapshot sessions: what a budgeted write costs beside a plain delta packet, and what the
// baseline fingerprint costs per packet. Shapes: 901 cubes (12 + 12 + 10 + 1 bits each)
// with 30, 300 and 901 changed against the baseline, under a 1200-byte budget (30 fit
// whole; 300 and 901 do not, so the budget searches for the most that fit); and a keyed
// roster of 150 players with spawns, despawns and score changes.
//   session_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <netser/netser.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace session_bench {

struct Cube {
    std::uint16_t x = 0, y = 0, z = 0;
    bool moving = false;
};
NETSER_STRUCT(Cube, (x, netser::range(0, 4095)), (y, netser::range(0, 4095)), (z, netser::range(0, 1023)), moving)

struct Scene {
    std::uint32_t frame = 0;
    std::array<Cube, 901> cubes{};
};
NETSER_STRUCT(Scene, frame, cubes)

struct Player {
    std::uint16_t id = 0;
    std::uint16_t score = 0;
    std::uint8_t team = 0;
};
NETSER_STRUCT(Player, id, (score, netser::range(0, 9999)), (team, netser::range(0, 3)))

struct Roster {
    std::vector<Player> players;
};
NETSER_STRUCT(Roster, (players, netser::max_size(256), netser::keyed(&Player::id)))

constexpr std::size_t budget = 1200;

// A baseline of 901 resting cubes and a snapshot with `changed` of them moved.
std::pair<Scene, Scene> scenes(std::size_t changed) {
    std::mt19937 rng(1);
    Scene base;
    for (auto& c : base.cubes)
        c = {static_cast<std::uint16_t>(rng() % 4096), static_cast<std::uint16_t>(rng() % 4096),
             static_cast<std::uint16_t>(rng() % 1024), false};
    Scene now = base;
    now.frame = 1;
    for (std::size_t i = 0; i < changed; ++i) {
        Cube& c = now.cubes[(i * 7919) % now.cubes.size()];
        c.x = static_cast<std::uint16_t>((c.x + 1 + rng() % 64) % 4096);
        c.moving = true;
    }
    return {base, now};
}

std::pair<Roster, Roster> rosters() {
    std::mt19937 rng(2);
    Roster base, now;
    for (std::uint16_t i = 0; i < 150; ++i)
        base.players.push_back({static_cast<std::uint16_t>(i * 37), static_cast<std::uint16_t>(rng() % 10000), 1});
    now = base;
    now.players.erase(now.players.begin() + 10, now.players.begin() + 20);
    for (std::uint16_t i = 0; i < 10; ++i) now.players.push_back({static_cast<std::uint16_t>(9000 + i), 0, 2});
    for (std::size_t i = 0; i < now.players.size(); i += 3) now.players[i].score = static_cast<std::uint16_t>(rng() % 10000);
    return {base, now};
}

// Budgeted writes of now against base, again and again with one delta_budget (its
// accumulators move between writes, as a session's do).
template <auto Member, class T>
void budgeted(benchmark::State& state, const T& base, const T& now, std::size_t max_bytes) {
    netser::baseline_ring<T> ring(8, base);
    netser::delta_budget<Member> b(max_bytes);
    std::vector<std::byte> buffer(budget);
    T held;
    std::size_t sent = 0;
    for (auto _ : state) {
        auto r = b.write(buffer, 1, now, ring.initial(), held);
        if (r.error) state.SkipWithError("write failed");
        sent = r.sent;
        benchmark::DoNotOptimize(r.bytes.data());
    }
    state.counters["sent"] = static_cast<double>(sent);
}

void budgeted_cubes(benchmark::State& state) {
    const auto [base, now] = scenes(static_cast<std::size_t>(state.range(0)));
    budgeted<&Scene::cubes>(state, base, now, budget);
}
BENCHMARK(budgeted_cubes)->Arg(30)->Arg(300)->Arg(901);

// The same snapshot as one unbudgeted delta packet (the ring's cached fingerprint).
void delta_packet_cubes(benchmark::State& state) {
    const auto [base, now] = scenes(static_cast<std::size_t>(state.range(0)));
    netser::baseline_ring<Scene> ring(8, base);
    std::vector<std::byte> buffer(netser::max_delta_packet_bytes<Scene>());
    for (auto _ : state) {
        auto r = netser::write_delta_packet(std::span<std::byte>(buffer), 1, now, ring.initial());
        if (r.error) state.SkipWithError("write failed");
        benchmark::DoNotOptimize(r.bytes.data());
    }
}
BENCHMARK(delta_packet_cubes)->Arg(30)->Arg(300)->Arg(901);

// The fingerprint of a 901-cube baseline: paid per packet when the baseline is given by
// value (write_delta_packet with a const T&, read with a const T*), once per snapshot
// with a baseline_ring.
void fingerprint_cubes(benchmark::State& state) {
    const auto [base, now] = scenes(0);
    for (auto _ : state) benchmark::DoNotOptimize(netser::baseline_fingerprint(base));
}
BENCHMARK(fingerprint_cubes);

void read_with_ring_cubes(benchmark::State& state) {
    const auto [base, now] = scenes(static_cast<std::size_t>(state.range(0)));
    netser::baseline_ring<Scene> ring(8, base);
    std::vector<std::byte> packet;
    if (netser::write_delta_packet(packet, 1, now, ring.initial()).error) state.SkipWithError("write failed");
    Scene out;
    for (auto _ : state) {
        if (netser::read_delta_packet(packet, out, ring)) state.SkipWithError("read failed");
        benchmark::DoNotOptimize(out.frame);
    }
}
BENCHMARK(read_with_ring_cubes)->Arg(30)->Arg(300);

void budgeted_roster(benchmark::State& state) {
    const auto [base, now] = rosters();
    budgeted<&Roster::players>(state, base, now, static_cast<std::size_t>(state.range(0)));
}
BENCHMARK(budgeted_roster)->Arg(1200)->Arg(100);

void delta_packet_roster(benchmark::State& state) {
    const auto [base, now] = rosters();
    netser::baseline_ring<Roster> ring(8, base);
    std::vector<std::byte> buffer(4096);
    for (auto _ : state) {
        auto r = netser::write_delta_packet(std::span<std::byte>(buffer), 1, now, ring.initial());
        if (r.error) state.SkipWithError("write failed");
        benchmark::DoNotOptimize(r.bytes.data());
    }
}
BENCHMARK(delta_packet_roster);

} // namespace session_bench

BENCHMARK_MAIN();
