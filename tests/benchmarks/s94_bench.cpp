// S94: 100,000 structs of 94 bits each written, read and measured through the
// hand-written serialize function. Target at -O2: <= 5 ns per struct to write and
// to read. The counter time_per_struct gives the figure directly.

#include "reflected_types.hpp"
#include "s94.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

using netser_bench::S94;

constexpr std::size_t struct_count = 100'000;
constexpr std::size_t packet_bytes = (struct_count * netser_bench::s94_bits + 7) / 8;

std::vector<S94> make_input() {
    std::mt19937 rng(94);
    std::uniform_real_distribution<float> position(-1000.f, 1000.f);
    std::uniform_int_distribution<int> health(0, 100);
    std::vector<S94> v(struct_count);
    for (S94& s : v) {
        s.x = position(rng);
        s.y = position(rng);
        s.z = position(rng);
        s.health = health(rng);
        s.alive = (rng() & 1u) != 0;
        s.id = static_cast<std::uint32_t>(rng());
    }
    return v;
}

const std::vector<S94>& input() {
    static const std::vector<S94> v = make_input();
    return v;
}

// The packet of all the input structs.
const std::vector<std::byte>& packet() {
    static const std::vector<std::byte> bytes = [] {
        std::vector<std::byte> b(packet_bytes);
        netser::write_stream w(b);
        for (S94 s : input())
            if (!serialize(w, s)) std::abort();
        if (w.finish().size() != packet_bytes) std::abort();
        return b;
    }();
    return bytes;
}

// What reading must give: the inputs with the positions through the quantizer.
bool check_read(const std::vector<S94>& out) {
    constexpr const netser::quantization& q = S94::position_quantization;
    for (std::size_t i = 0; i < struct_count; ++i) {
        S94 expected = input()[i];
        expected.x = q.decode(q.encode(expected.x));
        expected.y = q.decode(q.encode(expected.y));
        expected.z = q.decode(q.encode(expected.z));
        if (!(out[i] == expected)) return false;
    }
    return true;
}

void set_counters(benchmark::State& state) {
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(struct_count));
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(packet_bytes));
    // An inverted iteration-invariant rate: seconds per struct, shown as e.g. "4.2ns".
    state.counters["time_per_struct"] = benchmark::Counter(static_cast<double>(struct_count),
                                                         benchmark::Counter::kIsIterationInvariantRate |
                                                             benchmark::Counter::kInvert);
}

void s94_write(benchmark::State& state) {
    const std::vector<S94>& in = input();
    std::vector<std::byte> buffer(packet_bytes);
    for (auto _ : state) {
        netser::write_stream w(buffer);
        bool ok = true;
        for (std::size_t i = 0; i < struct_count; ++i) {
            S94 s = in[i];
            ok &= serialize(w, s);
        }
        benchmark::DoNotOptimize(w.finish().data());
        benchmark::ClobberMemory();
        if (!ok) state.SkipWithError("write failed");
    }
    if (buffer != packet()) state.SkipWithError("written bytes differ from the reference packet");
    set_counters(state);
}
BENCHMARK(s94_write);

void s94_read(benchmark::State& state) {
    const std::vector<std::byte>& bytes = packet();
    std::vector<S94> out(struct_count);
    for (auto _ : state) {
        netser::read_stream r(bytes);
        bool ok = true;
        for (std::size_t i = 0; i < struct_count; ++i) ok &= serialize(r, out[i]);
        benchmark::ClobberMemory();
        if (!ok) state.SkipWithError("read failed");
    }
    if (!check_read(out)) state.SkipWithError("read values differ from the quantized inputs");
    set_counters(state);
}
BENCHMARK(s94_read);

void s94_measure(benchmark::State& state) {
    const std::vector<S94>& in = input();
    std::size_t bits = 0;
    for (auto _ : state) {
        netser::measure_stream m;
        bool ok = true;
        for (std::size_t i = 0; i < struct_count; ++i) {
            S94 s = in[i];
            ok &= serialize(m, s);
        }
        bits = m.bits_processed();
        benchmark::DoNotOptimize(m.bits_processed()); // the const& form: GCC miscompiles 1.7's T& one
        if (!ok) state.SkipWithError("measure failed");
    }
    if (bits != struct_count * netser_bench::s94_bits) state.SkipWithError("measure disagrees with 94 bits per struct");
    set_counters(state);
}
BENCHMARK(s94_measure);

// The same struct through NETSER_STRUCT (netser_bench::S94R): same bytes, same values.
using netser_bench::S94R;

S94R reflected(const S94& h) {
    S94R r;
    r.x = h.x;
    r.y = h.y;
    r.z = h.z;
    r.health = h.health;
    r.alive = h.alive;
    r.id = h.id;
    return r;
}

const std::vector<S94R>& reflected_input() {
    static const std::vector<S94R> v = [] {
        std::vector<S94R> out;
        for (const S94& h : input()) out.push_back(reflected(h));
        return out;
    }();
    return v;
}

void s94_write_reflected(benchmark::State& state) {
    const std::vector<S94R>& in = reflected_input();
    std::vector<std::byte> buffer(packet_bytes);
    for (auto _ : state) {
        netser::write_stream w(buffer);
        bool ok = true;
        for (std::size_t i = 0; i < struct_count; ++i) ok &= netser::serialize(w, in[i]);
        benchmark::DoNotOptimize(w.finish().data());
        benchmark::ClobberMemory();
        if (!ok) state.SkipWithError("write failed");
    }
    if (buffer != packet()) state.SkipWithError("reflected bytes differ from the hand-written packet");
    set_counters(state);
}
BENCHMARK(s94_write_reflected);

void s94_read_reflected(benchmark::State& state) {
    const std::vector<std::byte>& bytes = packet();
    std::vector<S94R> out(struct_count);
    for (auto _ : state) {
        netser::read_stream r(bytes);
        bool ok = true;
        for (std::size_t i = 0; i < struct_count; ++i) ok &= netser::serialize(r, out[i]);
        benchmark::ClobberMemory();
        if (!ok) state.SkipWithError("read failed");
    }
    std::vector<S94> as_hand(struct_count);
    for (std::size_t i = 0; i < struct_count; ++i)
        as_hand[i] = S94{out[i].x, out[i].y, out[i].z, out[i].health, out[i].alive, out[i].id};
    if (!check_read(as_hand)) state.SkipWithError("read values differ from the quantized inputs");
    set_counters(state);
}
BENCHMARK(s94_read_reflected);

void s94_measure_reflected(benchmark::State& state) {
    const std::vector<S94R>& in = reflected_input();
    std::size_t bits = 0;
    for (auto _ : state) {
        netser::measure_stream m;
        bool ok = true;
        for (std::size_t i = 0; i < struct_count; ++i) ok &= netser::serialize(m, in[i]);
        bits = m.bits_processed();
        benchmark::DoNotOptimize(m.bits_processed());
        if (!ok) state.SkipWithError("measure failed");
    }
    if (bits != struct_count * netser_bench::s94_bits) state.SkipWithError("measure disagrees with 94 bits per struct");
    set_counters(state);
}
BENCHMARK(s94_measure_reflected);

} // namespace

BENCHMARK_MAIN();
