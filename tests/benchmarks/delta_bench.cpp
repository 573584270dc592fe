// Delta compression in ns per cube: a 901-cube snapshot (the demo's cube: a flag,
// position quantized at 1/512 m, a smallest_three orientation) written and read
// against a baseline with 100 cubes changed, beside the plain write and read of the
// same snapshot, and the unchanged case (1 bit). A second shape, 64 players of 10
// members in a vector, covers vectors and other encodings. Per-item counters:
// ns_per_cube / ns_per_player.
//
//   build/tests/benchmarks/delta_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include "delta_shapes.hpp"

#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

namespace {

using bench::Snapshot;
using bench::cube_snapshots;
using bench::players;

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
