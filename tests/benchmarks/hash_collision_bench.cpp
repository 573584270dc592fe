// Reading a hash table whose keys a peer chose (SECURITY.md, "Bounded time"): time per
// read of a std::unordered_map<uint32, uint8> of 1,024 and 131,072 keys (131,072 keys
// are a 655 KB message), with random keys, with max_keys_per_bucket (16) keys in every
// bucket the reader uses (the worst a packet can be and still be read), and with every
// key in one bucket (refused at the 17th key). A std::map of the same random keys beside.
//
// Compare the "crowded" rows with the "random" rows of the same size: the ratio is the
// bound SECURITY.md states. Before the bucket limit, one bucket of 131,072 keys took
// thousands of times the random read.

#include <netser/netser.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <random>
#include <unordered_map>
#include <vector>

namespace {

struct Table {
    std::unordered_map<std::uint32_t, std::uint8_t> m;
};
NETSER_STRUCT(Table, (m, netser::max_size(1 << 18)))

struct Tree {
    std::map<std::uint32_t, std::uint8_t> m;
};
NETSER_STRUCT(Tree, (m, netser::max_size(1 << 18)))

enum class shape { random, crowded, one_bucket };

std::vector<std::uint32_t> keys(std::size_t n, shape how) {
    std::vector<std::uint32_t> out;
    decltype(Table::m) probe;
    probe.reserve(n);
    const std::size_t buckets = probe.bucket_count();
    const std::size_t per = netser::detail::max_keys_per_bucket;
    std::mt19937 rng(7);
    std::unordered_map<std::uint32_t, int> seen;
    while (out.size() < n) {
        const std::size_t i = out.size();
        std::uint32_t k = 0;
        if (how == shape::random) k = static_cast<std::uint32_t>(rng());
        else if (how == shape::crowded) k = static_cast<std::uint32_t>(i % (n / per) + (i / (n / per)) * buckets);
        else k = static_cast<std::uint32_t>(i * buckets);
        if (how != shape::random || seen.emplace(k, 0).second) out.push_back(k);
    }
    return out;
}

// The packet a writer sends for these keys (forged field by field: a writer's own table
// of colliding keys would take quadratic time to build).
std::vector<std::byte> packet(const std::vector<std::uint32_t>& k) {
    std::vector<std::byte> buffer(8 + k.size() * 5);
    netser::write_stream w(buffer.data(), buffer.size());
    std::uint64_t count = k.size();
    bool ok = w.process_bits(count, 19);
    for (std::uint32_t key : k) {
        std::uint64_t code = key, value = 1;
        ok = ok && w.process_bits(code, 32) && w.process_bits(value, 8);
    }
    if (!ok) std::abort();
    const auto bytes = w.finish();
    return {bytes.begin(), bytes.end()};
}

template <class T>
void read_keys(benchmark::State& state, shape how) {
    const auto bytes = packet(keys(static_cast<std::size_t>(state.range(0)), how));
    bool ok = true;
    for (auto _ : state) {
        T t;
        netser::read_stream r(bytes);
        ok = netser::serialize(r, t);
        benchmark::DoNotOptimize(t);
    }
    state.counters["read_ok"] = ok ? 1 : 0;
    state.counters["bytes"] = static_cast<double>(bytes.size());
}

void BM_unordered_random(benchmark::State& s) { read_keys<Table>(s, shape::random); }
void BM_unordered_crowded(benchmark::State& s) { read_keys<Table>(s, shape::crowded); }
void BM_unordered_one_bucket(benchmark::State& s) { read_keys<Table>(s, shape::one_bucket); }
void BM_map_random(benchmark::State& s) { read_keys<Tree>(s, shape::random); }

BENCHMARK(BM_unordered_random)->Arg(1024)->Arg(1 << 17)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_unordered_crowded)->Arg(1024)->Arg(1 << 17)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_unordered_one_bucket)->Arg(1024)->Arg(1 << 17)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_map_random)->Arg(1024)->Arg(1 << 17)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
