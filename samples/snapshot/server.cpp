// The server: 60 times a second, step the world, record the truth, cut the snapshot
// into slices of each stage, send the last stage's packets and measure the others.

#include "change_counter.hpp"
#include "cube_world.hpp"
#include "demo.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

namespace snapshot {

namespace {

// Cubes [first, first + n) of the snapshot as a slice of one stage.
template <class Slice, class Convert>
void fill_slice(Slice& slice, std::uint32_t sequence, const std::vector<CubeState>& cubes, std::size_t first,
                std::size_t n, Convert convert) {
    slice.sequence = sequence;
    slice.first_cube = static_cast<std::uint16_t>(first);
    slice.cubes.resize(n);
    for (std::size_t i = 0; i < n; ++i) slice.cubes[i] = convert(cubes[first + i]);
}

// The bytes write_packet would produce for msg: CRC + payload (whole bytes) + end check.
template <class T>
std::size_t measured_packet_bytes(const T& msg) {
    netser::measure_stream m;
    if (!netser::serialize(m, msg)) return 0;
    return netser::packet_overhead_bytes + m.bytes_processed();
}

template <class T>
std::size_t measured_bits(const T& value) {
    netser::measure_stream m;
    netser::serialize(m, value);
    return m.bits_processed();
}

// A stage that is only measured: its bytes per snapshot, as if sent in its own slices.
template <class Slice, class Convert>
void measure_stage(stage_stats& stats, Slice& slice, std::size_t per_slice, std::uint32_t sequence,
                   const std::vector<CubeState>& cubes, Convert convert, server_report& report) {
    std::size_t bytes = 0, packets = 0, cube_bits = 0, largest = 0;
    for (std::size_t first = 0; first < cubes.size(); first += per_slice) {
        fill_slice(slice, sequence, cubes, first, std::min(per_slice, cubes.size() - first), convert);
        const std::size_t n = measured_packet_bytes(slice);
        if (n == 0 || n > packet_budget) {
            if (report.failures++ == 0) report.first_failure = std::string("measure failed: ") + stats.name;
        }
        for (const auto& cube : slice.cubes) cube_bits += measured_bits(cube);
        bytes += n;
        largest = std::max(largest, n);
        ++packets;
    }
    stats.add(bytes, packets, cube_bits, largest);
}

} // namespace

void run_server(const options& opt, net::udp::socket& socket, const net::udp::endpoint& client, shared_state& shared,
                server_report& report) {
    report.stages[0].name = "1 raw floats";
    report.stages[1].name = "2 quantized + smallest-three orientation";
    report.stages[2].name = "3 + velocity only while moving (sent)";

    CubeWorld world;
    std::vector<CubeState> cubes(cube_count);
    const auto take_states = [&] {
        for (std::size_t i = 0; i < cube_count; ++i) cubes[i] = world.state(i);
    };
    change_counter changes;
    take_states();
    changes.add(cubes); // the initial state: the baseline of the first comparisons
    RawSlice raw;
    QuantizedSlice quantized;
    SnapshotSlice slice;
    std::array<std::byte, packet_budget> buffer{};

    using clock = std::chrono::steady_clock;
    const auto interval = std::chrono::duration_cast<clock::duration>(
        std::chrono::duration<double>(1.0 / static_cast<double>(snapshots_per_second)));
    auto next = clock::now();
    const std::size_t snapshots = opt.snapshots();
    double step_total_ms = 0;

    for (std::size_t n = 0; n < snapshots; ++n) {
        std::this_thread::sleep_until(next);
        next += interval;

        const auto step_start = clock::now();
        world.step();
        const double step_ms = std::chrono::duration<double, std::milli>(clock::now() - step_start).count();
        step_total_ms += step_ms;
        report.step_max_ms = std::max(report.step_max_ms, step_ms);
        const auto sequence = static_cast<std::uint32_t>(n);
        take_states();
        shared.truth.put(sequence, cubes); // before sending: the client can always look it up
        report.peak_moving = std::max(report.peak_moving, world.moving());
        if (!changes.add(cubes) && report.failures++ == 0)
            report.first_failure = "a cube's state does not encode (NaN)";

        // Stage 3: written, profiled and sent, one packet per slice.
        std::size_t bytes = 0, packets = 0, cube_bits = 0, largest = 0;
        for (std::size_t first = 0; first < cube_count; first += cubes_per_slice) {
            fill_slice(slice, sequence, cubes, first, std::min(cubes_per_slice, cube_count - first),
                       [](const CubeState& c) { return c; });
            const netser::packet_write_result packet = netser::write_packet(buffer, slice);
            if (packet.error) {
                if (report.failures++ == 0)
                    report.first_failure = "write_packet failed: " + std::string(netser::to_string(packet.error.code)) +
                                           " at " + std::string(packet.error.path());
                continue;
            }
            // The measure stream counts exactly what the writer writes.
            if (measured_packet_bytes(slice) != packet.bytes.size() && report.failures++ == 0)
                report.first_failure = "measure and write disagree";
            if (!net::send(socket, client, packet.bytes) && report.failures++ == 0)
                report.first_failure = "send_to failed";
            report.budget.profile(slice);
            shared.recent.put(packet.bytes);
            for (const auto& cube : slice.cubes) cube_bits += measured_bits(cube);
            bytes += packet.bytes.size();
            largest = std::max(largest, packet.bytes.size());
            ++packets;
        }
        report.stages[2].add(bytes, packets, cube_bits, largest);
        report.packets_sent += packets;

        // Stages 1 and 2: measured only.
        measure_stage(report.stages[0], raw, raw_cubes_per_slice, sequence, cubes, to_raw, report);
        measure_stage(report.stages[1], quantized, cubes_per_slice, sequence, cubes, to_quantized, report);

        if ((n + 1) % snapshots_per_second == 0)
            std::printf("  t=%zus  snapshot %4zu  %3zu cubes moving  %2zu packets  %5zu bytes\n",
                        (n + 1) / snapshots_per_second, n + 1, world.moving(), packets, bytes);
        ++report.snapshots;
    }

    report.change_distance = changes.distance();
    report.change_frames = changes.frames();
    report.changed_mean = changes.mean();
    report.changed_min = changes.min();
    report.changed_max = changes.max();
    report.step_mean_ms = report.snapshots == 0 ? 0.0 : step_total_ms / static_cast<double>(report.snapshots);
    report.ever_moved = world.ever_moved();
    report.moving_at_end = world.moving();
    report.state_hash = world.state_hash();
    shared.server_done = true;
}

} // namespace snapshot
