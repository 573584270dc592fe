// Raw bit_writer / bit_reader throughput: a 64 KiB buffer filled with fields of one
// width (a compile-time constant, as after inlining a primitive), and a mix of widths
// only known at run time. MB/s counts the bytes of the packed buffer.

#include <netser/bit_reader.hpp>
#include <netser/bit_writer.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace {

constexpr std::size_t buffer_bytes = 64 * 1024;

// Random values, cycled through so the benchmark measures the packer, not the source.
const std::array<std::uint64_t, 256>& values() {
    static const std::array<std::uint64_t, 256> v = [] {
        std::mt19937_64 rng(42);
        std::array<std::uint64_t, 256> a{};
        for (auto& x : a) x = rng();
        return a;
    }();
    return v;
}

constexpr std::uint64_t mask(int bits) { return bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

// Widths of the mixed case: what a typical packet holds (bools, small ints, quantized floats, ids).
constexpr std::array<int, 16> mixed_widths{1, 7, 18, 18, 18, 32, 1, 3, 13, 64, 5, 2, 9, 24, 1, 16};
constexpr std::size_t mixed_bits_per_cycle = [] {
    std::size_t n = 0;
    for (int w : mixed_widths) n += static_cast<std::size_t>(w);
    return n;
}();
constexpr std::size_t mixed_cycles = buffer_bytes * 8 / mixed_bits_per_cycle;
constexpr std::size_t mixed_fields = mixed_cycles * mixed_widths.size();
constexpr std::size_t mixed_bytes = mixed_cycles * mixed_bits_per_cycle / 8;

template <int Bits>
void write_fixed(benchmark::State& state) {
    constexpr std::size_t fields = buffer_bytes * 8 / Bits;
    const auto& v = values();
    std::vector<std::byte> buffer(buffer_bytes);
    for (auto _ : state) {
        netser::bit_writer w(buffer.data(), buffer.size());
        bool ok = true;
        for (std::size_t i = 0; i < fields; ++i) ok &= w.write_bits(v[i % 256] & mask(Bits), Bits);
        benchmark::DoNotOptimize(w.finish().data());
        benchmark::ClobberMemory();
        if (!ok) state.SkipWithError("write failed");
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(fields * Bits / 8));
}

template <int Bits>
void read_fixed(benchmark::State& state) {
    constexpr std::size_t fields = buffer_bytes * 8 / Bits;
    const auto& v = values();
    std::vector<std::byte> buffer(buffer_bytes);
    {
        netser::bit_writer w(buffer.data(), buffer.size());
        for (std::size_t i = 0; i < fields; ++i) w.write_bits(v[i % 256] & mask(Bits), Bits);
        w.finish();
    }
    std::uint64_t sum = 0;
    for (auto _ : state) {
        netser::bit_reader r(buffer.data(), buffer.size());
        bool ok = true;
        sum = 0;
        for (std::size_t i = 0; i < fields; ++i) {
            std::uint64_t x = 0;
            ok &= r.read_bits(x, Bits);
            sum += x;
        }
        benchmark::DoNotOptimize(sum + 0); // the const& form: GCC miscompiles 1.7's T& one
        if (!ok) state.SkipWithError("read failed");
    }
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < fields; ++i) expected += v[i % 256] & mask(Bits);
    if (sum != expected) state.SkipWithError("read values differ from the written ones");
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(fields * Bits / 8));
}

void write_mixed(benchmark::State& state) {
    const auto& v = values();
    std::vector<std::byte> buffer(buffer_bytes);
    for (auto _ : state) {
        netser::bit_writer w(buffer.data(), buffer.size());
        bool ok = true;
        for (std::size_t i = 0; i < mixed_fields; ++i) {
            const int bits = mixed_widths[i % mixed_widths.size()];
            ok &= w.write_bits(v[i % 256] & mask(bits), bits);
        }
        benchmark::DoNotOptimize(w.finish().data());
        benchmark::ClobberMemory();
        if (!ok) state.SkipWithError("write failed");
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(mixed_bytes));
}

void read_mixed(benchmark::State& state) {
    const auto& v = values();
    std::vector<std::byte> buffer(buffer_bytes);
    {
        netser::bit_writer w(buffer.data(), buffer.size());
        for (std::size_t i = 0; i < mixed_fields; ++i) {
            const int bits = mixed_widths[i % mixed_widths.size()];
            w.write_bits(v[i % 256] & mask(bits), bits);
        }
        w.finish();
    }
    std::uint64_t sum = 0;
    for (auto _ : state) {
        netser::bit_reader r(buffer.data(), buffer.size());
        bool ok = true;
        sum = 0;
        for (std::size_t i = 0; i < mixed_fields; ++i) {
            std::uint64_t x = 0;
            ok &= r.read_bits(x, mixed_widths[i % mixed_widths.size()]);
            sum += x;
        }
        benchmark::DoNotOptimize(sum + 0); // the const& form: GCC miscompiles 1.7's T& one
        if (!ok) state.SkipWithError("read failed");
    }
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < mixed_fields; ++i) expected += v[i % 256] & mask(mixed_widths[i % mixed_widths.size()]);
    if (sum != expected) state.SkipWithError("read values differ from the written ones");
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(mixed_bytes));
}

BENCHMARK_TEMPLATE(write_fixed, 1);
BENCHMARK_TEMPLATE(write_fixed, 7);
BENCHMARK_TEMPLATE(write_fixed, 13);
BENCHMARK_TEMPLATE(write_fixed, 32);
BENCHMARK_TEMPLATE(write_fixed, 64);
BENCHMARK(write_mixed);
BENCHMARK_TEMPLATE(read_fixed, 1);
BENCHMARK_TEMPLATE(read_fixed, 7);
BENCHMARK_TEMPLATE(read_fixed, 13);
BENCHMARK_TEMPLATE(read_fixed, 32);
BENCHMARK_TEMPLATE(read_fixed, 64);
BENCHMARK(read_mixed);

} // namespace

BENCHMARK_MAIN();
