// The adaptive binary range coder (include/netser/range_coder.hpp): ns per coded bit.
// A "packet" is 3072 bits (about 100 cubes of 30 coded bits); its models start from
// the prior every packet, as the entropy stage's do. Counter ns_per_bit; run with
// --benchmark_repetitions=5 --benchmark_report_aggregates_only=true for medians.
//
//   adaptive/skewed   p(1) = 0.05 over 16 contexts (a residual's likely bits)
//   adaptive/mixed    p(1) from 0.01 to 0.5 by context (what a cube's contexts look like)
//   adaptive/uniform  p(1) = 0.5: every branch on the bit unpredictable
//   direct            equiprobable bits, 8 per call
//   tree              a 4-bit bit tree of fresh models per call, small values likely

#include <netser/range_coder.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

constexpr std::size_t packet_bits = 3072;
constexpr std::size_t contexts = 16;

class lcg {
public:
    explicit lcg(std::uint64_t seed) : state_(seed) {}
    std::uint32_t next() {
        state_ = state_ * 6364136223846793005u + 1442695040888963407u;
        return static_cast<std::uint32_t>(state_ >> 32);
    }

private:
    std::uint64_t state_;
};

enum class source { skewed, mixed, uniform };

// Bit i uses context i % 16; its probability of a 1 in per mille.
std::uint32_t ones_per_mille(source s, std::size_t context) {
    static constexpr std::array<std::uint32_t, contexts> mixed{10, 20, 50, 50, 80, 100, 150, 200,
                                                               30, 60, 250, 300, 400, 500, 15, 120};
    switch (s) {
    case source::skewed: return 50;
    case source::mixed: return mixed[context];
    default: return 500;
    }
}

std::vector<std::uint8_t> make_bits(source s) {
    lcg g(static_cast<std::uint64_t>(s) + 1);
    std::vector<std::uint8_t> bits(packet_bits);
    for (std::size_t i = 0; i < packet_bits; ++i)
        bits[i] = g.next() % 1000 < ones_per_mille(s, i % contexts) ? 1 : 0;
    return bits;
}

void set_counters(benchmark::State& state, std::size_t bits_per_packet, std::size_t bytes) {
    state.counters["ns_per_bit"] = benchmark::Counter(
        static_cast<double>(bits_per_packet) * 1e-9,
        benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["bytes"] = static_cast<double>(bytes);
}

void encode_adaptive(benchmark::State& state, source s) {
    const auto bits = make_bits(s);
    std::vector<std::byte> buffer(packet_bits);
    std::size_t size = 0;
    for (auto _ : state) {
        std::array<netser::bit_probability, contexts> models{};
        netser::range_encoder e(buffer.data(), buffer.size());
        for (std::size_t i = 0; i < packet_bits; i += contexts)
            for (std::size_t c = 0; c < contexts; ++c) e.encode(models[c], bits[i + c]);
        if (!e.finish()) state.SkipWithError("overflow");
        size = e.bytes().size();
        benchmark::DoNotOptimize(buffer.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, packet_bits, size);
}

void decode_adaptive(benchmark::State& state, source s) {
    const auto bits = make_bits(s);
    std::vector<std::byte> buffer(packet_bits);
    std::array<netser::bit_probability, contexts> models{};
    netser::range_encoder e(buffer.data(), buffer.size());
    for (std::size_t i = 0; i < packet_bits; ++i) e.encode(models[i % contexts], bits[i]);
    e.finish();
    const auto packet = e.bytes();
    for (auto _ : state) {
        std::array<netser::bit_probability, contexts> m{};
        netser::range_decoder d(packet.data(), packet.size());
        unsigned ones = 0;
        for (std::size_t i = 0; i < packet_bits; i += contexts)
            for (std::size_t c = 0; c < contexts; ++c) ones += d.decode(m[c]);
        benchmark::DoNotOptimize(ones);
        if (!d.ended_cleanly()) state.SkipWithError("not clean");
    }
    set_counters(state, packet_bits, packet.size());
}

void encode_direct(benchmark::State& state) {
    lcg g(9);
    std::vector<std::uint64_t> values(packet_bits / 8);
    for (auto& v : values) v = g.next() & 0xffu;
    std::vector<std::byte> buffer(packet_bits);
    for (auto _ : state) {
        netser::range_encoder e(buffer.data(), buffer.size());
        for (const std::uint64_t v : values) e.encode_equiprobable(v, 8);
        if (!e.finish()) state.SkipWithError("overflow");
        benchmark::DoNotOptimize(buffer.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, packet_bits, packet_bits / 8);
}

void decode_direct(benchmark::State& state) {
    lcg g(9);
    std::vector<std::byte> buffer(packet_bits);
    netser::range_encoder e(buffer.data(), buffer.size());
    for (std::size_t i = 0; i < packet_bits / 8; ++i) e.encode_equiprobable(g.next() & 0xffu, 8);
    e.finish();
    const auto packet = e.bytes();
    for (auto _ : state) {
        netser::range_decoder d(packet.data(), packet.size());
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < packet_bits / 8; ++i) sum += d.decode_equiprobable(8);
        benchmark::DoNotOptimize(sum);
        if (!d.ended_cleanly()) state.SkipWithError("not clean");
    }
    set_counters(state, packet_bits, packet.size());
}

// 4-bit values, small ones likely (a residual's magnitude).
std::vector<std::uint32_t> tree_values() {
    lcg g(11);
    std::vector<std::uint32_t> v(packet_bits / 4);
    for (auto& x : v) {
        const std::uint32_t r = g.next() % 100;
        x = r < 50 ? 0 : r < 75 ? 1 : r < 87 ? 2 : r < 94 ? 3 : 4 + r % 12;
    }
    return v;
}

void encode_tree(benchmark::State& state) {
    const auto values = tree_values();
    std::vector<std::byte> buffer(packet_bits);
    std::size_t size = 0;
    for (auto _ : state) {
        std::array<netser::bit_probability, 16> models{};
        netser::range_encoder e(buffer.data(), buffer.size());
        for (const std::uint32_t v : values) e.encode_tree(models.data(), v, 4);
        if (!e.finish()) state.SkipWithError("overflow");
        size = e.bytes().size();
        benchmark::DoNotOptimize(buffer.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, packet_bits, size);
}

void decode_tree(benchmark::State& state) {
    const auto values = tree_values();
    std::vector<std::byte> buffer(packet_bits);
    std::array<netser::bit_probability, 16> models{};
    netser::range_encoder e(buffer.data(), buffer.size());
    for (const std::uint32_t v : values) e.encode_tree(models.data(), v, 4);
    e.finish();
    const auto packet = e.bytes();
    for (auto _ : state) {
        std::array<netser::bit_probability, 16> m{};
        netser::range_decoder d(packet.data(), packet.size());
        std::uint32_t sum = 0;
        for (std::size_t i = 0; i < values.size(); ++i) sum += d.decode_tree(m.data(), 4);
        benchmark::DoNotOptimize(sum);
        if (!d.ended_cleanly()) state.SkipWithError("not clean");
    }
    set_counters(state, packet_bits, packet.size());
}

} // namespace

BENCHMARK_CAPTURE(encode_adaptive, skewed, source::skewed);
BENCHMARK_CAPTURE(decode_adaptive, skewed, source::skewed);
BENCHMARK_CAPTURE(encode_adaptive, mixed, source::mixed);
BENCHMARK_CAPTURE(decode_adaptive, mixed, source::mixed);
BENCHMARK_CAPTURE(encode_adaptive, uniform, source::uniform);
BENCHMARK_CAPTURE(decode_adaptive, uniform, source::uniform);
BENCHMARK(encode_direct);
BENCHMARK(decode_direct);
BENCHMARK(encode_tree);
BENCHMARK(decode_tree);

BENCHMARK_MAIN();
