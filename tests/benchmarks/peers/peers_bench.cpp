// netser beside the libraries a game programmer would pick instead, in one process:
// the S94 struct (each its own message) and a 901-cube snapshot (one message), written
// and read by netser, protobuf, FlatBuffers, Cap'n Proto, cereal and MessagePack.
// Every library is handed the same structs and sends the same integer codes (cases.hpp).
// Every round trip is checked before and after it is timed; a library that reads back
// anything else aborts the run. At the end, a table of medians with the ratio to netser.
//
// Without arguments: --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// (arguments given on the command line come after, so they win).

#include "cases.hpp"
#include "codec.hpp"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#ifndef NETSER_PEERS_BUILD
#define NETSER_PEERS_BUILD "unknown flags"
#endif

namespace netser_peers {

namespace {

constexpr std::size_t snapshot_capacity = 64 * 1024;

// netser's sizes, from the annotations: 94 bits in whole bytes; a count in [0, 901]
// (10 bits), then each cube's bits.
constexpr std::size_t netser_s94_bytes = (94 + 7) / 8;
std::size_t netser_snapshot_bytes() {
    std::size_t bits = 10;
    for (const CubeState& c : snapshot_input().cubes) bits += cube_bits(c.interacting);
    return (bits + 7) / 8;
}

void check_s94(std::string_view id, codec& c, const message_slots& slots) {
    std::vector<S94R> out(s94_count);
    if (!c.read_s94(slots, out)) fail(id, "reading its own S94 messages failed");
    for (std::size_t i = 0; i < s94_count; ++i)
        if (!same(out[i], s94_expected()[i])) fail(id, "an S94 read back differs from the quantized input");
    if (id == "netser")
        for (std::size_t i = 0; i < s94_count; ++i)
            if (slots.message(i).size() != netser_s94_bytes) fail(id, "an S94 message is not 12 bytes");
}

void check_snapshot(std::string_view id, codec& c, std::span<const std::byte> bytes) {
    Snapshot out;
    if (!c.read_snapshot(bytes, out)) fail(id, "reading its own snapshot failed");
    if (!(out == snapshot_expected())) fail(id, "the snapshot read back differs from the quantized input");
    if (id == "netser" && bytes.size() != netser_snapshot_bytes())
        fail(id, "the snapshot's size is not the sum of the annotated bits");
}

void set_counters(benchmark::State& state, double bytes, std::size_t structs) {
    state.counters["bytes"] = bytes;
    // Seconds per struct (per S94, per cube), shown as e.g. "12.3ns".
    state.counters["per_struct"] =
        benchmark::Counter(static_cast<double>(structs),
                           benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void s94_write(benchmark::State& state, std::string_view id, codec& c) {
    message_slots slots;
    for (auto _ : state) {
        const bool ok = c.write_s94(s94_input(), slots);
        benchmark::DoNotOptimize(ok);
        benchmark::ClobberMemory();
        if (!ok) fail(id, "an S94 write failed");
    }
    check_s94(id, c, slots);
    set_counters(state, slots.mean_bytes(), s94_count);
}

void s94_read(benchmark::State& state, std::string_view id, codec& c) {
    message_slots slots;
    if (!c.write_s94(s94_input(), slots)) fail(id, "an S94 write failed");
    std::vector<S94R> out(s94_count);
    for (auto _ : state) {
        const bool ok = c.read_s94(slots, out);
        benchmark::DoNotOptimize(ok);
        benchmark::ClobberMemory();
        if (!ok) fail(id, "an S94 read failed");
    }
    for (std::size_t i = 0; i < s94_count; ++i)
        if (!same(out[i], s94_expected()[i])) fail(id, "an S94 read back differs from the quantized input");
    set_counters(state, slots.mean_bytes(), s94_count);
}

void snapshot_write(benchmark::State& state, std::string_view id, codec& c) {
    aligned_bytes buffer(snapshot_capacity);
    std::size_t size = 0;
    for (auto _ : state) {
        size = c.write_snapshot(snapshot_input(), buffer.bytes());
        benchmark::DoNotOptimize(size);
        benchmark::ClobberMemory();
        if (size == 0) fail(id, "the snapshot write failed");
    }
    check_snapshot(id, c, buffer.bytes().first(size));
    set_counters(state, static_cast<double>(size), cube_count);
}

void snapshot_read(benchmark::State& state, std::string_view id, codec& c) {
    aligned_bytes buffer(snapshot_capacity);
    const std::size_t size = c.write_snapshot(snapshot_input(), buffer.bytes());
    if (size == 0) fail(id, "the snapshot write failed");
    const std::span<const std::byte> bytes = buffer.bytes().first(size);
    Snapshot out;
    for (auto _ : state) {
        const bool ok = c.read_snapshot(bytes, out);
        benchmark::DoNotOptimize(ok);
        benchmark::ClobberMemory();
        if (!ok) fail(id, "the snapshot read failed");
    }
    if (!(out == snapshot_expected())) fail(id, "the snapshot read back differs from the quantized input");
    set_counters(state, static_cast<double>(size), cube_count);
}

// The four measurements of each codec, in the order of the table's columns.
struct measurement {
    std::string_view name;
    void (*run)(benchmark::State&, std::string_view, codec&);
};
constexpr measurement measurements[] = {
    {"s94_write", s94_write}, {"s94_read", s94_read}, {"snapshot_write", snapshot_write}, {"snapshot_read", snapshot_read}};

// The console output as usual, then the medians (or the single run's figures) as a table.
class table_reporter : public benchmark::ConsoleReporter {
public:
    explicit table_reporter(const std::vector<named_codec>& codecs) : codecs_(codecs) {}

    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& r : runs) {
            if (r.error_occurred) continue;
            const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
            const bool single = r.run_type == Run::RT_Iteration && r.repetitions <= 1;
            if (!median && !single) continue;
            const auto bytes = r.counters.find("bytes");
            const auto per_struct = r.counters.find("per_struct");
            if (bytes == r.counters.end() || per_struct == r.counters.end()) continue;
            figures_[r.run_name.function_name] = {bytes->second.value, per_struct->second.value * 1e9};
            repetitions_ = median ? r.repetitions : 1;
        }
    }

    void Finalize() override {
        ConsoleReporter::Finalize();
        std::ostream& out = GetOutputStream();
        out << "\npeers_bench: " << (repetitions_ > 1 ? "medians of " + std::to_string(repetitions_) + " runs" : "one run")
            << "; " << NETSER_PEERS_BUILD << "; protobuf " << protobuf_version() << ", FlatBuffers "
            << flatbuffers_version() << ", Cap'n Proto " << capnp_version() << ", cereal " << cereal_version()
            << ", msgpack-cxx " << msgpack_version() << "\n"
            << "(ratio to netser in parentheses; ns per S94 message, ns per cube of the snapshot)\n\n"
            << "| library | bytes / S94 | write ns | read ns | bytes / snapshot | write ns / cube | read ns / cube |\n"
            << "|---|---:|---:|---:|---:|---:|---:|\n";
        for (const named_codec& c : codecs_) {
            out << "| " << c.label;
            for (std::size_t m = 0; m < std::size(measurements); ++m) {
                const figure* f = find(c.id, measurements[m].name);
                const figure* base = find("netser", measurements[m].name);
                if (m == 0 || m == 2) out << " | " << cell(f, base, &figure::bytes, m == 0 ? 1 : 0);
                out << " | " << cell(f, base, &figure::ns, 1);
            }
            out << " |\n";
        }
        out << '\n';
    }

private:
    struct figure {
        double bytes = 0, ns = 0;
    };

    const figure* find(std::string_view id, std::string_view measurement) const {
        const auto it = figures_.find(std::string(measurement) + "/" + std::string(id));
        return it == figures_.end() ? nullptr : &it->second;
    }

    static std::string cell(const figure* f, const figure* base, double figure::*value, int decimals) {
        if (f == nullptr) return "-";
        char text[64];
        if (base == nullptr || f == base || !(base->*value > 0))
            std::snprintf(text, sizeof text, "%.*f", decimals, f->*value);
        else
            std::snprintf(text, sizeof text, "%.*f (%.2fx)", decimals, f->*value, f->*value / (base->*value));
        return text;
    }

    const std::vector<named_codec>& codecs_;
    std::map<std::string, figure, std::less<>> figures_;
    std::int64_t repetitions_ = 1;
};

std::vector<named_codec> all_codecs() {
    std::vector<named_codec> all;
    for (auto make : {netser_codecs, protobuf_codecs, flatbuffers_codecs, capnp_codecs, cereal_codecs, msgpack_codecs})
        for (named_codec& c : make()) all.push_back(std::move(c));
    return all;
}

} // namespace

} // namespace netser_peers

int main(int argc, char** argv) {
    using namespace netser_peers;
    std::vector<std::string> defaults = {"--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true"};
    std::vector<char*> args = {argv[0]};
    for (std::string& d : defaults) args.push_back(d.data());
    for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
    int count = static_cast<int>(args.size());
    benchmark::Initialize(&count, args.data());
    if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;

    const std::vector<named_codec> codecs = all_codecs();
    // Every codec's round trips, checked once before anything is timed.
    for (const named_codec& c : codecs) {
        message_slots slots;
        if (!c.instance->write_s94(s94_input(), slots)) fail(c.id, "an S94 write failed");
        check_s94(c.id, *c.instance, slots);
        aligned_bytes buffer(snapshot_capacity);
        const std::size_t size = c.instance->write_snapshot(snapshot_input(), buffer.bytes());
        if (size == 0) fail(c.id, "the snapshot write failed");
        check_snapshot(c.id, *c.instance, buffer.bytes().first(size));
    }
    for (const measurement& m : measurements)
        for (const named_codec& c : codecs)
            benchmark::RegisterBenchmark((std::string(m.name) + "/" + std::string(c.id)).c_str(), m.run, c.id,
                                         std::ref(*c.instance));

    table_reporter reporter(codecs);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
}
