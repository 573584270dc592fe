// The server: 60 times a second, step the world, record the truth, send the snapshot
// as a delta against the newest snapshot the client acknowledged (or the initial
// state), and measure what the plain encodings of the same cubes would cost.

#include "change_counter.hpp"
#include "cube_world.hpp"
#include "demo.hpp"
#include "link.hpp"
#include "recording.hpp"
#include "snapshot_ring.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

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
    (void)netser::serialize(m, value); // a value the demo has just sent: it measures
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


// The delta encoder's state: what was sent (as the client will decode it), the newest
// acknowledged snapshot, and the packets of the current snapshot.
class delta_sender {
public:
    delta_sender(const DeltaSnapshot& initial, server_report& report, std::ostream* sent_log)
        : ring_(initial), report_(report), sent_log_(sent_log) {}

    // An acknowledgement from the client: snapshot `sequence` is held whole there.
    void acked(std::uint16_t sequence) {
        const auto it = sent_at_.find(sequence);
        if (it == sent_at_.end() || ring_.find(sequence) == nullptr) return; // unknown or too old
        if (!newest_acked_ || it->second > newest_acked_->second) newest_acked_ = {sequence, it->second};
    }

    // Encodes snapshot n (already as_received) against the best baseline, into parts
    // of at most packet_budget bytes; each part is handed to send(bytes).
    template <class Send>
    bool send(std::size_t n, const DeltaSnapshot& current, Send&& send_packet) {
        const std::uint16_t sequence = wire_sequence(n);
        std::uint16_t base_sequence = initial_sequence;
        if (newest_acked_ && n - newest_acked_->second < snapshot_ring::depth) base_sequence = newest_acked_->first;
        const DeltaSnapshot* base = ring_.find(base_sequence);
        if (base == nullptr) base = ring_.find(base_sequence = initial_sequence);
        const std::size_t age = base_sequence == initial_sequence ? n + 1 : n - newest_acked_->second;
        if (base_sequence == initial_sequence) ++report_.against_initial;
        age_total_ += age;
        report_.baseline_age_max = std::max(report_.baseline_age_max, age);

        changed_.clear();
        for (std::size_t i = 0; i < cube_count; ++i)
            if (!same_cube(current.cubes[i], base->cubes[i])) changed_.push_back(i);
        report_.changed_vs_baseline += changed_.size();

        // As few parts as fit: each takes a run of the changed cubes, the others as in the baseline.
        std::size_t parts = 1;
        while (!fits(current, *base, parts)) {
            if (++parts > max_parts) return false;
        }
        if (parts > 1) ++report_.split_snapshots;
        std::size_t bytes = 0, largest = 0, body_bits = 0;
        for (std::size_t p = 0; p < parts; ++p) {
            make_part(current, *base, p, parts);
            const netser::packet_write_result packet =
                netser::write_delta_packet(packet_, {sequence, base_sequence}, part_, *base);
            if (packet.error) return false;
            if (!report_.budget.profile_delta(part_, *base)) return false;
            const std::size_t bits = delta_bits(part_, *base);
            report_.delta_body_bits += bits;
            body_bits += bits;
            bytes += packet.bytes.size();
            largest = std::max(largest, packet.bytes.size());
            if (sent_log_ != nullptr) log_part(sequence, base_sequence, p, parts, current, *base);
            send_packet(packet.bytes);
        }
        report_.stages[3].add(bytes, parts, body_bits, largest);
        ring_.put(sequence, current);
        sent_at_[sequence] = n;
        return true;
    }

    double baseline_age_mean(std::size_t snapshots) const noexcept {
        return snapshots == 0 ? 0.0 : static_cast<double>(age_total_) / static_cast<double>(snapshots);
    }

private:
    static std::size_t delta_bits(const DeltaSnapshot& msg, const DeltaSnapshot& base) {
        netser::measure_stream m;
        (void)netser::serialize_delta(m, msg, base); // written just before: it measures
        return m.bits_processed();
    }

    // Part p of `parts`: the baseline with the p-th run of changed cubes from current.
    void make_part(const DeltaSnapshot& current, const DeltaSnapshot& base, std::size_t p, std::size_t parts) {
        part_ = base;
        part_.part = static_cast<std::uint8_t>(p);
        part_.parts = static_cast<std::uint8_t>(parts);
        const std::size_t from = changed_.size() * p / parts, to = changed_.size() * (p + 1) / parts;
        for (std::size_t k = from; k < to; ++k) part_.cubes[changed_[k]] = current.cubes[changed_[k]];
    }

    bool fits(const DeltaSnapshot& current, const DeltaSnapshot& base, std::size_t parts) {
        for (std::size_t p = 0; p < parts; ++p) {
            make_part(current, base, p, parts);
            const std::size_t bytes = netser::packet_overhead_bytes + netser::delta_header_bits / 8 +
                                      (delta_bits(part_, base) + 7) / 8;
            if (bytes > packet_budget) return false;
        }
        return true;
    }

    // One line of JSON per packet (with --pcap): what it carries, for the capture test:
    // its header, and each changed cube's index, codes and baseline codes as recorded.
    void log_part(std::uint16_t sequence, std::uint16_t base_sequence, std::size_t p, std::size_t parts,
                  const DeltaSnapshot& current, const DeltaSnapshot& base) {
        std::ostream& o = *sent_log_;
        o << "{\"sequence\": " << sequence << ", \"baseline\": " << base_sequence << ", \"part\": " << p
          << ", \"parts\": " << parts << ", \"changed\": [";
        const std::size_t from = changed_.size() * p / parts, to = changed_.size() * (p + 1) / parts;
        const auto codes = [&o](const DeltaCube& c) {
            const auto r = recorded_codes(c);
            o << '[';
            for (std::size_t k = 0; k < r.size(); ++k) o << (k ? ", " : "") << r[k];
            o << ']';
        };
        for (std::size_t k = from; k < to; ++k) {
            const std::size_t i = changed_[k];
            o << (k > from ? ", " : "") << "{\"index\": " << i << ", \"codes\": ";
            codes(current.cubes[i]);
            o << ", \"baseline_codes\": ";
            codes(base.cubes[i]);
            o << '}';
        }
        o << "]}\n";
    }

    snapshot_ring ring_;
    server_report& report_;
    std::ostream* sent_log_;
    std::map<std::uint16_t, std::size_t> sent_at_; // wire sequence -> snapshot number
    std::optional<std::pair<std::uint16_t, std::size_t>> newest_acked_;
    std::vector<std::size_t> changed_;
    DeltaSnapshot part_;
    std::vector<std::byte> packet_;
    std::size_t age_total_ = 0;
};

// The snapshot as the client will hold it after decoding.
DeltaSnapshot quantized_snapshot(const std::vector<CubeState>& cubes) {
    DeltaSnapshot s;
    for (std::size_t i = 0; i < cube_count; ++i) s.cubes[i] = to_delta(cubes[i]);
    DeltaSnapshot out;
    if (netser::as_received(s, out)) throw std::runtime_error("a cube's state does not encode");
    return out;
}

} // namespace

DeltaSnapshot initial_snapshot() {
    CubeWorld world;
    std::vector<CubeState> cubes(cube_count);
    for (std::size_t i = 0; i < cube_count; ++i) cubes[i] = world.state(i);
    return quantized_snapshot(cubes);
}

void run_server(const options& opt, net::udp::socket& socket, const net::udp::endpoint& client, shared_state& shared,
                server_report& report) {
    report.stages[0].name = "1 raw floats";
    report.stages[1].name = "2 quantized + smallest-three orientation";
    report.stages[2].name = "3 + velocity only while moving";
    report.stages[3].name = "4 delta vs acked, no velocity (sent)";

    CubeWorld world;
    std::vector<CubeState> cubes(cube_count);
    const auto take_states = [&] {
        for (std::size_t i = 0; i < cube_count; ++i) cubes[i] = world.state(i);
    };
    change_counter changes;
    take_states();
    changes.add(cubes); // the initial state: the baseline of the first comparisons
    const DeltaSnapshot initial = quantized_snapshot(cubes);
    std::optional<std::ofstream> sent_log;
    if (!opt.pcap_path.empty()) sent_log.emplace(opt.pcap_path + ".sent.jsonl");
    delta_sender sender(initial, report, sent_log ? &*sent_log : nullptr);
    std::optional<recording_writer> recording;
    if (!opt.record_path.empty()) {
        recording.emplace(opt.record_path);
        recording->write(initial);
    }
    RawSlice raw;
    QuantizedSlice quantized;
    SnapshotSlice slice;

    using clock = std::chrono::steady_clock;
    delay_line link(opt.loss_percent, std::chrono::milliseconds(opt.latency_ms), 0x73657276);
    const auto deliver = [&](clock::time_point now) {
        link.flush(now, [&](std::span<const std::byte> bytes) {
            if (!net::send(socket, client, bytes) && report.failures++ == 0) report.first_failure = "send_to failed";
        });
    };
    // Acknowledgements, without blocking: every datagram waiting at the server's port.
    socket.non_blocking(true);
    std::array<std::byte, 512> ack_buffer{};
    const auto read_acks = [&] {
        for (;;) {
            net::udp::endpoint from;
            boost::system::error_code ec;
            const std::size_t size = socket.receive_from(boost::asio::buffer(ack_buffer), from, 0, ec);
            if (ec) return;
            Ack ack;
            if (netser::read_packet(std::span<const std::byte>(ack_buffer.data(), size), ack)) {
                ++report.acks_rejected;
                continue;
            }
            ++report.acks_received;
            sender.acked(ack.sequence);
        }
    };
    // Until `until`: deliver what the link holds as it falls due, and take acks.
    const auto wait_until = [&](clock::time_point until) {
        for (;;) {
            const auto now = clock::now();
            deliver(now);
            read_acks();
            if (now >= until) return;
            auto wake = std::min(until, now + std::chrono::milliseconds(1));
            if (const auto due = link.next_due()) wake = std::min(wake, *due);
            std::this_thread::sleep_until(wake);
        }
    };

    const auto interval = std::chrono::duration_cast<clock::duration>(
        std::chrono::duration<double>(1.0 / static_cast<double>(snapshots_per_second)));
    auto next = clock::now();
    const std::size_t snapshots = opt.snapshots();
    double step_total_ms = 0;

    for (std::size_t n = 0; n < snapshots; ++n) {
        wait_until(next);
        next += interval;

        const auto step_start = clock::now();
        world.step();
        const double step_ms = std::chrono::duration<double, std::milli>(clock::now() - step_start).count();
        step_total_ms += step_ms;
        report.step_max_ms = std::max(report.step_max_ms, step_ms);
        take_states();
        shared.truth.put(wire_sequence(n), cubes); // before sending: the client can always look it up
        report.peak_moving = std::max(report.peak_moving, world.moving());
        if (!changes.add(cubes) && report.failures++ == 0)
            report.first_failure = "a cube's state does not encode (NaN)";

        // Stage 4: the delta, written, profiled and sent through the link.
        const DeltaSnapshot current = quantized_snapshot(cubes);
        if (recording) recording->write(current);
        std::size_t packets = 0;
        const bool sent = sender.send(n, current, [&](std::span<const std::byte> bytes) {
            ++packets;
            ++report.packets_sent;
            link.push(bytes, clock::now());
            shared.recent.put(bytes);
        });
        if (!sent && report.failures++ == 0) report.first_failure = "write_delta_packet failed";

        // Stages 1 to 3: measured only.
        const auto sequence = static_cast<std::uint32_t>(n);
        measure_stage(report.stages[0], raw, raw_cubes_per_slice, sequence, cubes, to_raw, report);
        measure_stage(report.stages[1], quantized, cubes_per_slice, sequence, cubes, to_quantized, report);
        measure_stage(report.stages[2], slice, cubes_per_slice, sequence, cubes,
                      [](const CubeState& c) { return c; }, report);

        if ((n + 1) % snapshots_per_second == 0)
            std::printf("  t=%zus  snapshot %4zu  %3zu cubes moving  %zu packet(s)  %4zu bytes  %zu changes in 6 frames\n",
                        (n + 1) / snapshots_per_second, n + 1, world.moving(), packets,
                        report.stages[3].last_bytes, changes.last());
        ++report.snapshots;
    }
    // What is still on its way.
    while (const auto due = link.next_due()) wait_until(*due);
    wait_until(clock::now() + std::chrono::milliseconds(100) + std::chrono::milliseconds(opt.latency_ms)); // late acks

    report.packets_dropped = link.dropped();
    report.baseline_age_mean = sender.baseline_age_mean(report.snapshots);
    report.change_distance = changes.distance();
    report.change_frames = changes.frames();
    report.changed_mean = changes.mean();
    report.changed_min = changes.min();
    report.changed_max = changes.max();
    report.step_mean_ms = report.snapshots == 0 ? 0.0 : step_total_ms / static_cast<double>(report.snapshots);
    report.ever_moved = world.ever_moved();
    report.moving_at_end = world.moving();
    report.state_hash = world.state_hash();
    if (recording && !recording->ok() && report.failures++ == 0) report.first_failure = "could not write the recording";
    shared.server_done = true;
}

} // namespace snapshot
