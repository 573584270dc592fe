// Rotations: smallest_three(b) and unit_quaternion(b) written and read through
// NETSER_STRUCT, next to the baseline they are held to, a struct of four floats each
// quantized in [-1, 1] to the same b bits (plain_b). Target: a rotation write costs at
// most 2x the baseline's write, measured in the same run. The counter time_per_struct
// gives ns per quaternion. The inputs are seeded random unit quaternions, drawn once
// outside the timed loops.
//
//   cmake --build build --target quaternion_bench -j2
//   build/tests/benchmarks/quaternion_bench --benchmark_repetitions=9
//       --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
// (medians of interleaved repetitions: steadier on a shared machine)
//
// `quaternion_bench --once <write|read>/<name>` (e.g. write/smallest_three_9) runs one pass
// over the inputs outside the benchmark loop, `--setup <write|read>/<name>` everything but
// that pass: tests/benchmarks/callgrind_quaternion.sh counts both with callgrind, for the
// instructions per quaternion with g++ and clang++.

#include <netser/netser.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <random>
#include <string_view>
#include <vector>

namespace {

constexpr std::size_t quaternion_count = 10'000;

struct Quat {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};

// The baseline: four floats quantized in [-1, 1] with 2^b - 2 steps, b bits each.
struct Plain9 {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};
NETSER_STRUCT(Plain9, (x, netser::quantize(-1.f, 1.f, 2.f / 510)), (y, netser::quantize(-1.f, 1.f, 2.f / 510)),
              (z, netser::quantize(-1.f, 1.f, 2.f / 510)), (w, netser::quantize(-1.f, 1.f, 2.f / 510)))
struct Plain12 {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};
NETSER_STRUCT(Plain12, (x, netser::quantize(-1.f, 1.f, 2.f / 4094)), (y, netser::quantize(-1.f, 1.f, 2.f / 4094)),
              (z, netser::quantize(-1.f, 1.f, 2.f / 4094)), (w, netser::quantize(-1.f, 1.f, 2.f / 4094)))
struct Plain16 {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};
NETSER_STRUCT(Plain16, (x, netser::quantize(-1.f, 1.f, 2.f / 65534)), (y, netser::quantize(-1.f, 1.f, 2.f / 65534)),
              (z, netser::quantize(-1.f, 1.f, 2.f / 65534)), (w, netser::quantize(-1.f, 1.f, 2.f / 65534)))
static_assert(netser::max_bits<Plain9>() == 4 * 9 && netser::max_bits<Plain12>() == 4 * 12 &&
              netser::max_bits<Plain16>() == 4 * 16);

struct SmallestThree9 {
    Quat q;
};
NETSER_STRUCT(SmallestThree9, (q, netser::smallest_three{9}))
struct SmallestThree12 {
    Quat q;
};
NETSER_STRUCT(SmallestThree12, (q, netser::smallest_three{12}))
struct SmallestThree16 {
    Quat q;
};
NETSER_STRUCT(SmallestThree16, (q, netser::smallest_three{16}))

struct UnitQuaternion9 {
    Quat q;
};
NETSER_STRUCT(UnitQuaternion9, (q, netser::unit_quaternion{9}))
struct UnitQuaternion12 {
    Quat q;
};
NETSER_STRUCT(UnitQuaternion12, (q, netser::unit_quaternion{12}))
struct UnitQuaternion16 {
    Quat q;
};
NETSER_STRUCT(UnitQuaternion16, (q, netser::unit_quaternion{16}))

// Uniformly distributed unit quaternions (Shoemake), the same on every run.
const std::vector<Quat>& quaternions() {
    static const std::vector<Quat> v = [] {
        std::mt19937_64 rng(20240615);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        std::vector<Quat> out(quaternion_count);
        for (Quat& q : out) {
            const double u1 = u(rng), u2 = u(rng), u3 = u(rng);
            const double a = std::sqrt(1 - u1), b = std::sqrt(u1), turn = 2 * std::numbers::pi;
            q = {static_cast<float>(a * std::sin(turn * u2)), static_cast<float>(a * std::cos(turn * u2)),
                 static_cast<float>(b * std::sin(turn * u3)), static_cast<float>(b * std::cos(turn * u3))};
        }
        return out;
    }();
    return v;
}

template <class T>
T make(const Quat& q) {
    T t;
    if constexpr (requires { t.q; }) t.q = q;
    else t = {q.x, q.y, q.z, q.w};
    return t;
}

template <class T>
const std::vector<T>& inputs() {
    static const std::vector<T> v = [] {
        std::vector<T> out;
        out.reserve(quaternion_count);
        for (const Quat& q : quaternions()) out.push_back(make<T>(q));
        return out;
    }();
    return v;
}

template <class T>
constexpr std::size_t packet_bytes = (quaternion_count * netser::max_bits<T>() + 7) / 8;

// The packet of all the inputs, written once.
template <class T>
const std::vector<std::byte>& packet() {
    static const std::vector<std::byte> bytes = [] {
        std::vector<std::byte> b(packet_bytes<T>);
        netser::write_stream w(b);
        for (const T& t : inputs<T>())
            if (!netser::serialize(w, t)) std::abort();
        if (w.finish().size() != b.size()) std::abort();
        return b;
    }();
    return bytes;
}

void set_counters(benchmark::State& state, std::size_t bytes) {
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(quaternion_count));
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
    // An inverted iteration-invariant rate: seconds per quaternion, shown as e.g. "9.1ns".
    state.counters["time_per_struct"] = benchmark::Counter(static_cast<double>(quaternion_count),
                                                         benchmark::Counter::kIsIterationInvariantRate |
                                                             benchmark::Counter::kInvert);
}

// One pass over the inputs: the functions the benchmarks time and callgrind counts.
// flatten: everything they call is inlined (but the out-of-line rare paths), for the
// plain structs and the rotations alike. Without it g++ stops inlining partway through
// this file of 18 instantiations (its budget of growth per translation unit), so the
// bit writer was inlined into some of them and called from others.
template <class T>
[[gnu::noinline, gnu::flatten]] bool write_all(const std::vector<T>& in, std::vector<std::byte>& buffer) {
    netser::write_stream w(buffer);
    bool ok = true;
    for (const T& t : in) ok &= netser::serialize(w, t);
    return ok && w.finish().size() == buffer.size();
}

template <class T>
[[gnu::noinline, gnu::flatten]] bool read_all(const std::vector<std::byte>& bytes, std::vector<T>& out) {
    netser::read_stream r(bytes);
    bool ok = true;
    for (T& t : out) ok &= netser::serialize(r, t);
    return ok;
}

template <class T>
void write(benchmark::State& state) {
    const std::vector<T>& in = inputs<T>();
    std::vector<std::byte> buffer(packet_bytes<T>);
    for (auto _ : state) {
        const bool ok = write_all(in, buffer);
        benchmark::DoNotOptimize(buffer.data());
        benchmark::ClobberMemory();
        if (!ok) state.SkipWithError("write failed");
    }
    if (buffer != packet<T>()) state.SkipWithError("the written bytes differ from the first write's");
    set_counters(state, buffer.size());
}

// What was read writes back to the same packet (encode(decode(encode(q))) == encode(q)).
template <class T>
bool writes_back(const std::vector<T>& out, const std::vector<std::byte>& bytes) {
    std::vector<std::byte> again(bytes.size());
    return write_all(out, again) && again == bytes;
}

template <class T>
void read(benchmark::State& state) {
    const std::vector<std::byte>& bytes = packet<T>();
    std::vector<T> out(quaternion_count);
    for (auto _ : state) {
        const bool ok = read_all(bytes, out);
        benchmark::ClobberMemory();
        if (!ok) state.SkipWithError("read failed");
    }
    if (!writes_back(out, bytes)) state.SkipWithError("the read values do not write back to the packet");
    set_counters(state, bytes.size());
}

// For callgrind: the inputs and the packet of one benchmark, then (unless setup_only) one
// pass of it. The script counts the instructions of both runs: the difference is the
// pass's alone. False when the pass fails.
struct once_entry {
    std::string_view name;
    bool (*run)(bool setup_only);
};

template <class T>
bool once_write(bool setup_only) {
    const std::vector<T>& in = inputs<T>();
    std::vector<std::byte> buffer(packet_bytes<T>);
    benchmark::DoNotOptimize(packet<T>().data());
    return setup_only || write_all(in, buffer);
}

template <class T>
bool once_read(bool setup_only) {
    const std::vector<std::byte>& bytes = packet<T>();
    std::vector<T> out(quaternion_count);
    return setup_only || read_all(bytes, out);
}

#define NETSER_QUATERNION_BENCHMARKS(X)                                                                         \
    X(Plain9, "plain_9")                                                                                           \
    X(SmallestThree9, "smallest_three_9")                                                                          \
    X(UnitQuaternion9, "unit_quaternion_9")                                                                        \
    X(Plain12, "plain_12")                                                                                         \
    X(SmallestThree12, "smallest_three_12")                                                                        \
    X(UnitQuaternion12, "unit_quaternion_12")                                                                      \
    X(Plain16, "plain_16")                                                                                         \
    X(SmallestThree16, "smallest_three_16")                                                                        \
    X(UnitQuaternion16, "unit_quaternion_16")

#define NETSER_REGISTER_WRITE(T, name) BENCHMARK(write<T>)->Name("write/" name);
#define NETSER_REGISTER_READ(T, name) BENCHMARK(read<T>)->Name("read/" name);
NETSER_QUATERNION_BENCHMARKS(NETSER_REGISTER_WRITE)
NETSER_QUATERNION_BENCHMARKS(NETSER_REGISTER_READ)

#define NETSER_ONCE_WRITE(T, name) {"write/" name, &once_write<T>},
#define NETSER_ONCE_READ(T, name) {"read/" name, &once_read<T>},
constexpr once_entry once_entries[] = {NETSER_QUATERNION_BENCHMARKS(NETSER_ONCE_WRITE)
                                           NETSER_QUATERNION_BENCHMARKS(NETSER_ONCE_READ)};

} // namespace

int main(int argc, char** argv) {
    const bool setup = argc == 3 && std::strcmp(argv[1], "--setup") == 0;
    if (setup || (argc == 3 && std::strcmp(argv[1], "--once") == 0)) {
        for (const once_entry& e : once_entries)
            if (e.name == argv[2]) return e.run(setup) ? 0 : 1;
        std::fprintf(stderr, "quaternion_bench: no benchmark %s\n", argv[2]);
        return 2;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
