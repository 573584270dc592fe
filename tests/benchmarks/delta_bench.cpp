// Delta compression in ns per cube: a 901-cube snapshot (the demo's cube: a flag,
// position quantized at 1/512 m, a smallest_three orientation) written and read
// against a baseline with 100 cubes changed, beside the plain write and read of the
// same snapshot, and the unchanged case (1 bit). A second shape, 64 players of 10
// members in a vector, covers vectors and other encodings. Per-item counters:
// ns_per_cube / ns_per_player.
//
//   build/tests/benchmarks/delta_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include "reflected_types.hpp"

#include <netser/netser.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

namespace bench {

struct Position {
    float x = 0.f, y = 0.f, z = 0.f;
};
NETSER_STRUCT(Position, (x, netser::quantize(-64.f, 64.f, 1.f / 512.f)), (y, netser::quantize(-64.f, 64.f, 1.f / 512.f)),
              (z, netser::quantize(0.f, 32.f, 1.f / 512.f)))

struct Quat {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};
NETSER_STRUCT(Quat, x, y, z, w)

struct Cube {
    bool interacting = false;
    Position position;
    Quat orientation;
};
NETSER_STRUCT(Cube, interacting, position, (orientation, netser::smallest_three{9}))

struct Snapshot {
    std::array<Cube, 901> cubes;
};
NETSER_STRUCT(Snapshot, cubes)

struct Players {
    std::vector<netser_bench::Player10R> players;
};
NETSER_STRUCT(Players, (players, netser::max_size(64)))

} // namespace bench

namespace {

using bench::Snapshot;

template <class T>
std::unique_ptr<T> received(const T& value) {
    auto out = std::make_unique<T>();
    if (netser::as_received(value, *out)) std::abort();
    return out;
}

bench::Quat rotation(std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (;;) {
        bench::Quat q{u(rng), u(rng), u(rng), u(rng)};
        const float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        if (n > 0.01f && n <= 1.f) {
            const float k = 1.f / std::sqrt(n);
            return {q.x * k, q.y * k, q.z * k, q.w * k};
        }
    }
}

// A grid at rest (the baseline, as received) and the same with `changed` cubes moved a
// few centimetres and turned a little.
struct snapshots {
    std::unique_ptr<Snapshot> base, now;
};
const snapshots& cube_snapshots() {
    static const snapshots s = [] {
        std::mt19937 rng(901);
        auto grid = std::make_unique<Snapshot>();
        for (std::size_t i = 0; i < 901; ++i)
            grid->cubes[i] = {false, {static_cast<float>(i % 30) * 2.f - 30.f, static_cast<float>(i / 30) * 2.f - 30.f, 0.5f},
                              rotation(rng)};
        snapshots out{received(*grid), nullptr};
        auto now = std::make_unique<Snapshot>(*out.base);
        std::uniform_real_distribution<float> step(-0.1f, 0.1f);
        for (std::size_t i = 0; i < 901; i += 9) {
            bench::Cube& c = now->cubes[i];
            c.interacting = true;
            c.position.x += step(rng);
            c.position.y += step(rng);
            c.orientation = {c.orientation.x + step(rng), c.orientation.y, c.orientation.z, c.orientation.w};
            const float n = std::sqrt(c.orientation.x * c.orientation.x + c.orientation.y * c.orientation.y +
                                      c.orientation.z * c.orientation.z + c.orientation.w * c.orientation.w);
            c.orientation = {c.orientation.x / n, c.orientation.y / n, c.orientation.z / n, c.orientation.w / n};
        }
        out.now = received(*now);
        return out;
    }();
    return s;
}

void per_item(benchmark::State& state, std::size_t items, const char* name) {
    state.counters[name] = benchmark::Counter(static_cast<double>(items),
                                              benchmark::Counter::kIsIterationInvariantRate |
                                                  benchmark::Counter::kInvert);
}

std::vector<std::byte>& buffer() {
    static std::vector<std::byte> b(netser::max_delta_bytes<Snapshot>() + netser::max_bytes<Snapshot>());
    return b;
}

void snapshot_plain_write(benchmark::State& state) {
    const Snapshot& now = *cube_snapshots().now;
    for (auto _ : state) {
        netser::write_stream w(buffer().data(), buffer().size());
        if (!netser::serialize(w, now)) std::abort();
        benchmark::DoNotOptimize(w.finish().data());
    }
    per_item(state, 901, "ns_per_cube");
}

void snapshot_plain_read(benchmark::State& state) {
    const Snapshot& now = *cube_snapshots().now;
    std::vector<std::byte> packet(buffer().size());
    netser::write_stream w(packet.data(), packet.size());
    if (!netser::serialize(w, now)) std::abort();
    const auto bytes = w.finish();
    auto out = std::make_unique<Snapshot>();
    for (auto _ : state) {
        netser::read_stream r(bytes.data(), bytes.size());
        if (!netser::serialize(r, *out)) std::abort();
        benchmark::DoNotOptimize(out.get());
    }
    per_item(state, 901, "ns_per_cube");
}

void snapshot_delta_write(benchmark::State& state, bool unchanged) {
    const Snapshot& base = *cube_snapshots().base;
    const Snapshot& now = unchanged ? base : *cube_snapshots().now;
    std::size_t bits = 0;
    for (auto _ : state) {
        netser::write_stream w(buffer().data(), buffer().size());
        if (!netser::serialize_delta(w, now, base)) std::abort();
        bits = w.bits_processed();
        benchmark::DoNotOptimize(w.finish().data());
    }
    per_item(state, 901, "ns_per_cube");
    state.counters["bits"] = static_cast<double>(bits);
}

void snapshot_delta_read(benchmark::State& state, bool unchanged) {
    const Snapshot& base = *cube_snapshots().base;
    const Snapshot& now = unchanged ? base : *cube_snapshots().now;
    std::vector<std::byte> packet(buffer().size());
    netser::write_stream w(packet.data(), packet.size());
    if (!netser::serialize_delta(w, now, base)) std::abort();
    const auto bytes = w.finish();
    auto out = std::make_unique<Snapshot>();
    for (auto _ : state) {
        netser::read_stream r(bytes.data(), bytes.size());
        if (!netser::serialize_delta(r, *out, base)) std::abort();
        benchmark::DoNotOptimize(out.get());
    }
    if (std::memcmp(static_cast<const void*>(out.get()), static_cast<const void*>(&now), sizeof now) != 0) std::abort();
    per_item(state, 901, "ns_per_cube");
}

// 64 players, a third of them changed a little.
struct player_sets {
    bench::Players base, now;
};
const player_sets& players() {
    static const player_sets p = [] {
        std::mt19937 rng(64);
        std::uniform_real_distribution<float> pos(-1000.f, 1000.f), nudge(-2.f, 2.f);
        bench::Players b;
        b.players.resize(64);
        for (auto& pl : b.players) {
            pl.id = static_cast<std::uint32_t>(rng());
            pl.health = static_cast<int>(rng() % 101);
            pl.x = pos(rng);
            pl.y = pos(rng);
            pl.z = pos(rng);
            pl.weapon = static_cast<std::uint8_t>(rng() % 8);
            pl.ammo = static_cast<std::uint16_t>(rng() % 1024);
        }
        player_sets out{*received(b), {}};
        out.now = out.base;
        for (std::size_t i = 0; i < 64; i += 3) {
            out.now.players[i].x += nudge(rng);
            out.now.players[i].moving = !out.now.players[i].moving;
        }
        return out;
    }();
    return p;
}

void players_delta_write(benchmark::State& state) {
    const auto& p = players();
    for (auto _ : state) {
        netser::write_stream w(buffer().data(), buffer().size());
        if (!netser::serialize_delta(w, p.now, p.base)) std::abort();
        benchmark::DoNotOptimize(w.finish().data());
    }
    per_item(state, 64, "ns_per_player");
}

void players_delta_read(benchmark::State& state) {
    const auto& p = players();
    std::vector<std::byte> packet(buffer().size());
    netser::write_stream w(packet.data(), packet.size());
    if (!netser::serialize_delta(w, p.now, p.base)) std::abort();
    const auto bytes = w.finish();
    bench::Players out;
    for (auto _ : state) {
        netser::read_stream r(bytes.data(), bytes.size());
        if (!netser::serialize_delta(r, out, p.base)) std::abort();
        benchmark::DoNotOptimize(out.players.data());
    }
    per_item(state, 64, "ns_per_player");
}

} // namespace

BENCHMARK(snapshot_plain_write);
BENCHMARK(snapshot_plain_read);
BENCHMARK_CAPTURE(snapshot_delta_write, changed_100, false);
BENCHMARK_CAPTURE(snapshot_delta_read, changed_100, false);
BENCHMARK_CAPTURE(snapshot_delta_write, unchanged, true);
BENCHMARK_CAPTURE(snapshot_delta_read, unchanged, true);
BENCHMARK(players_delta_write);
BENCHMARK(players_delta_read);

BENCHMARK_MAIN();
