// Sparse arrays, the article's example: 4000 slots (std::optional<std::uint16_t> in
// range(0, 1023), 10 bits a value) with 1, 10, 100 and 2000 present, random or clustered.
// First a table of the bits each encoding takes:
//   netser::sparse   relative indices (the ladder), values, the end index
//   presence bits    the same member without the attribute: 1 bit per slot, then values
//   absolute index   the article's first alternative: a 12-bit count, then 12 bits of
//                    index per present slot, then the value
// then Google Benchmark timings of write and read for both netser encodings (the counter
// "bits" repeats the size). `sparse_bench --benchmark_filter=none` prints only the table.

#include <netser/netser.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

namespace sparse_bench {

constexpr std::size_t slots = 4000;
constexpr int value_bits = 10;

using slot_array = std::array<std::optional<std::uint16_t>, slots>;

struct Sparse {
    slot_array slots;
};
NETSER_STRUCT(Sparse, (slots, netser::sparse, netser::range(0, 1023)))

struct Dense {
    slot_array slots;
};
NETSER_STRUCT(Dense, (slots, netser::range(0, 1023)))

enum class pattern { random, clustered };

// `present` slots: uniformly random distinct slots, or runs of 16 consecutive slots in
// randomly chosen 16-slot blocks (the last run shorter). Seeded: the table is reproducible.
slot_array make_slots(std::size_t present, pattern p) {
    std::mt19937_64 rng(4000 + present + (p == pattern::clustered ? 1 : 0));
    slot_array s;
    auto value = [&] { return static_cast<std::uint16_t>(rng() % 1024); };
    if (p == pattern::random) {
        std::vector<std::size_t> order(slots);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::shuffle(order.begin(), order.end(), rng);
        for (std::size_t i = 0; i < present; ++i) s[order[i]] = value();
    } else {
        constexpr std::size_t run = 16;
        std::vector<std::size_t> blocks(slots / run);
        std::iota(blocks.begin(), blocks.end(), std::size_t{0});
        std::shuffle(blocks.begin(), blocks.end(), rng);
        std::size_t left = present;
        for (std::size_t b = 0; left != 0; ++b) {
            const std::size_t n = std::min(run, left);
            for (std::size_t i = 0; i < n; ++i) s[blocks[b] * run + i] = value();
            left -= n;
        }
    }
    return s;
}

template <class T>
std::size_t bits_of(const T& value) {
    netser::measure_stream m;
    if (!netser::serialize(m, value)) {
        std::fprintf(stderr, "measure failed\n");
        std::exit(1);
    }
    return m.bits_processed();
}

// Round trips through the real streams, so the table is not a measurement of measure_stream alone.
template <class T>
bool round_trips(const T& value) {
    std::vector<std::byte> buffer(netser::max_bytes<T>());
    netser::write_stream w(buffer.data(), buffer.size());
    if (!netser::serialize(w, value)) return false;
    const auto packet = w.finish();
    netser::read_stream r(packet.data(), packet.size());
    auto back = std::make_unique<T>();
    return netser::serialize(r, *back) && back->slots == value.slots;
}

constexpr std::size_t counts[] = {1, 10, 100, 2000};

void print_table() {
    const int index_bits = netser::bits_required(0, slots); // the article's 12 bits
    std::printf("4000 slots, values in range(0, 1023) (%d bits); bits per snapshot\n\n", value_bits);
    std::printf("present  pattern    netser::sparse  presence bits  absolute index  sparse index bits/slot\n");
    bool ok = true;
    for (const std::size_t present : counts) {
        for (const pattern p : {pattern::random, pattern::clustered}) {
            const auto sparse = std::make_unique<Sparse>(Sparse{make_slots(present, p)});
            const auto dense = std::make_unique<Dense>(Dense{sparse->slots});
            const std::size_t s = bits_of(*sparse);
            const std::size_t d = bits_of(*dense);
            const std::size_t absolute = static_cast<std::size_t>(index_bits) * (1 + present) + present * value_bits;
            const double per_slot = static_cast<double>(s - present * value_bits) / static_cast<double>(present);
            ok = ok && round_trips(*sparse) && round_trips(*dense) && d == slots + present * value_bits;
            std::printf("%7zu  %-9s  %14zu  %13zu  %14zu  %22.2f\n", present,
                        p == pattern::random ? "random" : "clustered", s, d, absolute, per_slot);
        }
    }
    std::printf("\nnetser::max_bits<Sparse>() = %zu, netser::max_bits<Dense>() = %zu\n\n", netser::max_bits<Sparse>(),
                netser::max_bits<Dense>());
    if (!ok) {
        std::fprintf(stderr, "round trip mismatch\n");
        std::exit(1);
    }
}

template <class T>
void bench_write(benchmark::State& state) {
    const auto value = std::make_unique<T>(T{make_slots(static_cast<std::size_t>(state.range(0)),
                                                        state.range(1) != 0 ? pattern::clustered : pattern::random)});
    std::vector<std::byte> buffer(netser::max_bytes<T>());
    std::size_t bits = 0;
    for (auto _ : state) {
        netser::write_stream w(buffer.data(), buffer.size());
        const bool ok = netser::serialize(w, *value);
        benchmark::DoNotOptimize(ok);
        bits = w.bits_processed();
        benchmark::DoNotOptimize(w.finish().data());
    }
    state.counters["bits"] = static_cast<double>(bits);
}

template <class T>
void bench_read(benchmark::State& state) {
    const auto value = std::make_unique<T>(T{make_slots(static_cast<std::size_t>(state.range(0)),
                                                        state.range(1) != 0 ? pattern::clustered : pattern::random)});
    std::vector<std::byte> buffer(netser::max_bytes<T>());
    netser::write_stream w(buffer.data(), buffer.size());
    if (!netser::serialize(w, *value)) {
        state.SkipWithError("write failed");
        return;
    }
    const auto packet = w.finish();
    auto out = std::make_unique<T>();
    for (auto _ : state) {
        netser::read_stream r(packet.data(), packet.size());
        const bool ok = netser::serialize(r, *out);
        benchmark::DoNotOptimize(ok);
        benchmark::ClobberMemory();
    }
    state.counters["bits"] = static_cast<double>(w.bits_processed());
}

void arguments(benchmark::internal::Benchmark* b) {
    for (const std::size_t present : counts)
        for (const int clustered : {0, 1}) b->Args({static_cast<std::int64_t>(present), clustered});
    b->ArgNames({"present", "clustered"});
}

BENCHMARK(bench_write<Sparse>)->Name("write/sparse")->Apply(arguments);
BENCHMARK(bench_write<Dense>)->Name("write/presence_bits")->Apply(arguments);
BENCHMARK(bench_read<Sparse>)->Name("read/sparse")->Apply(arguments);
BENCHMARK(bench_read<Dense>)->Name("read/presence_bits")->Apply(arguments);

} // namespace sparse_bench

int main(int argc, char** argv) {
    sparse_bench::print_table();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
