// The entropy-coded stage in ns per cube: serialize_delta of the 901-cube snapshot (100
// cubes changed; delta_shapes.hpp) through range_write_stream / range_read_stream with
// the library's default prior, beside the bit-packed delta of the same values measured
// in the same run; and the 64-player vector, a second shape. Counters: ns_per_cube or
// ns_per_player, and the packet's bytes.
//
//   build/tests/benchmarks/entropy_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include "delta_shapes.hpp"

#include <netser/range_stream.hpp>

#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

namespace {

using bench::Snapshot;
using bench::cube_snapshots;
using bench::players;

void per_item(benchmark::State& state, std::size_t items, const char* name, std::size_t bytes) {
    state.counters[name] = benchmark::Counter(static_cast<double>(items), benchmark::Counter::kIsIterationInvariantRate |
                                                                              benchmark::Counter::kInvert);
    state.counters["bytes"] = static_cast<double>(bytes);
}

std::vector<std::byte>& buffer() {
    static std::vector<std::byte> b(netser::max_delta_bytes<Snapshot>() + 64);
    return b;
}

template <bool Range, class T>
std::vector<std::byte> delta_of(const T& now, const T& base) {
    std::vector<std::byte> out(netser::max_delta_bytes<T>() + 64);
    if constexpr (Range) {
        netser::range_write_stream w(out);
        if (!netser::serialize_delta(w, now, base)) std::abort();
        const auto bytes = w.finish();
        out.resize(bytes.size());
    } else {
        netser::write_stream w(out.data(), out.size());
        if (!netser::serialize_delta(w, now, base)) std::abort();
        out.resize(w.finish().size());
    }
    return out;
}

template <bool Range>
void snapshot_delta_write(benchmark::State& state) {
    const Snapshot& base = *cube_snapshots().base;
    const Snapshot& now = *cube_snapshots().now;
    std::size_t bytes = 0;
    for (auto _ : state) {
        if constexpr (Range) {
            netser::range_write_stream w(buffer());
            if (!netser::serialize_delta(w, now, base)) std::abort();
            bytes = w.finish().size();
        } else {
            netser::write_stream w(buffer().data(), buffer().size());
            if (!netser::serialize_delta(w, now, base)) std::abort();
            bytes = w.finish().size();
        }
        benchmark::DoNotOptimize(buffer().data());
    }
    per_item(state, 901, "ns_per_cube", bytes);
}

template <bool Range>
void snapshot_delta_read(benchmark::State& state) {
    const Snapshot& base = *cube_snapshots().base;
    const Snapshot& now = *cube_snapshots().now;
    const std::vector<std::byte> packet = delta_of<Range>(now, base);
    auto out = std::make_unique<Snapshot>();
    for (auto _ : state) {
        if constexpr (Range) {
            netser::range_read_stream r(packet);
            if (!netser::serialize_delta(r, *out, base)) std::abort();
        } else {
            netser::read_stream r(packet.data(), packet.size());
            if (!netser::serialize_delta(r, *out, base)) std::abort();
        }
        benchmark::DoNotOptimize(out.get());
    }
    if (std::memcmp(static_cast<const void*>(out.get()), static_cast<const void*>(&now), sizeof now) != 0) std::abort();
    per_item(state, 901, "ns_per_cube", packet.size());
}

template <bool Range>
void players_delta_write(benchmark::State& state) {
    const auto& p = players();
    std::size_t bytes = 0;
    for (auto _ : state) {
        if constexpr (Range) {
            netser::range_write_stream w(buffer());
            if (!netser::serialize_delta(w, p.now, p.base)) std::abort();
            bytes = w.finish().size();
        } else {
            netser::write_stream w(buffer().data(), buffer().size());
            if (!netser::serialize_delta(w, p.now, p.base)) std::abort();
            bytes = w.finish().size();
        }
        benchmark::DoNotOptimize(buffer().data());
    }
    per_item(state, p.now.players.size(), "ns_per_player", bytes);
}

template <bool Range>
void players_delta_read(benchmark::State& state) {
    const auto& p = players();
    const std::vector<std::byte> packet = delta_of<Range>(p.now, p.base);
    bench::Players out;
    for (auto _ : state) {
        if constexpr (Range) {
            netser::range_read_stream r(packet);
            if (!netser::serialize_delta(r, out, p.base)) std::abort();
        } else {
            netser::read_stream r(packet.data(), packet.size());
            if (!netser::serialize_delta(r, out, p.base)) std::abort();
        }
        benchmark::DoNotOptimize(&out);
    }
    per_item(state, p.now.players.size(), "ns_per_player", packet.size());
}

BENCHMARK(snapshot_delta_write<false>)->Name("snapshot_delta_write/bit_packed");
BENCHMARK(snapshot_delta_write<true>)->Name("snapshot_delta_write/range_coded");
BENCHMARK(snapshot_delta_read<false>)->Name("snapshot_delta_read/bit_packed");
BENCHMARK(snapshot_delta_read<true>)->Name("snapshot_delta_read/range_coded");
BENCHMARK(players_delta_write<false>)->Name("players_delta_write/bit_packed");
BENCHMARK(players_delta_write<true>)->Name("players_delta_write/range_coded");
BENCHMARK(players_delta_read<false>)->Name("players_delta_read/bit_packed");
BENCHMARK(players_delta_read<true>)->Name("players_delta_read/range_coded");

} // namespace

BENCHMARK_MAIN();
