// The server: 60 times a second, step the world, write the snapshot as one delta packet
// within the byte budget (netser::delta_budget) against the newest snapshot the client
// acknowledged (or the initial state), record what the client will hold, send it, and
// measure what the plain encodings of the same cubes would cost, and a predicted,
// range-coded delta packet of the whole snapshot.

#include "change_counter.hpp"
#include "cube_world.hpp"
#include "demo.hpp"
#include "link.hpp"
#include "recording.hpp"

#include <netser/acks.hpp>
#include <netser/delta_budget.hpp>
#include <netser/predicted_delta_packet.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
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


// Which changed cubes go first when a snapshot's changes do not all fit the budget, after
// Glenn Fiedler's "State Synchronization": the player cube (where the action and the
// camera are) above all, then the cubes that move (left out, their error on the client
// grows every frame), then the cubes at rest (one that came to rest somewhere new is
// wrong on the client, but no more so each frame). delta_budget adds these to a score per
// cube that only sending resets: a cube at rest left out for ten snapshots counts as
// much as a moving one, so none waits for ever.
struct cube_priority {
    const DeltaSnapshot* current; // the snapshot being written: the cubes scored are its own

    double operator()(const DeltaCube& cube) const noexcept {
        if (&cube == &current->cubes[CubeWorld::player]) return 1000.0;
        return cube.interacting ? 10.0 : 1.0;
    }
};

// The delta encoder's state for the one client: what it will hold after each packet (a
// netser::baseline_ring fed by its acks) and each cube's accumulated priority.
class delta_sender {
public:
    delta_sender(const DeltaSnapshot& initial, std::size_t budget, server_report& report, std::ostream* sent_log)
        : ring_(ring_capacity, initial), predicted_ring_(ring_capacity, converted(initial)), budget_(budget),
          report_(report), sent_log_(sent_log), packet_(packet_budget), sent_at_(ring_capacity),
          waiting_(cube_count) {
        if (!ring_.ok() || !predicted_ring_.ok()) throw std::runtime_error("the initial snapshot does not encode");
    }

    // An acknowledgement from the client: the snapshots it holds, now baselines (of the
    // sent stream and of the measured predicted one, which shares its sequence numbers).
    void acked(const netser::ack_message& ack) {
        netser::apply_ack(ring_, ack);
        netser::apply_ack(predicted_ring_, ack);
    }

    // Writes snapshot n (already as_received) as one packet of at most the budget against
    // the newest snapshot the client acknowledged. held receives what the client will
    // hold after reading it; the packet's bytes are returned (empty on failure).
    std::span<const std::byte> write(std::size_t n, std::uint16_t sequence, const DeltaSnapshot& current,
                                     DeltaSnapshot& held) {
        const netser::baseline_entry<DeltaSnapshot>& base = ring_.newest_acked();
        const bool initial = base.sequence == netser::initial_sequence;
        const std::size_t age = initial ? n + 1 : n - sent_at_[base.sequence % ring_capacity];
        if (initial) ++report_.against_initial;
        age_total_ += age;
        report_.baseline_age_max = std::max(report_.baseline_age_max, age);

        const netser::budgeted_write_result packet =
            budget_.write(packet_, sequence, current, base, held, cube_priority{&current});
        if (packet.error) return {};
        if (packet.bytes.size() > budget_.max_bytes()) ++report_.over_budget;
        if (!report_.budget.profile_delta(held, base.value)) return {};
        const std::size_t body_bits = delta_bits(held, base.value);
        report_.delta_body_bits += body_bits;
        report_.stages[3].add(packet.bytes.size(), 1, body_bits, packet.bytes.size());
        count_deferred(packet.sent, packet.deferred, current, held);
        if (sent_log_ != nullptr) log_packet(sequence, base, held, packet);

        if (ring_.put(sequence, held) == nullptr) return {};
        sent_at_[sequence % ring_capacity] = n;
        measure_predicted(sequence, current);
        return packet.bytes;
    }

    double baseline_age_mean(std::size_t snapshots) const noexcept {
        return snapshots == 0 ? 0.0 : static_cast<double>(age_total_) / static_cast<double>(snapshots);
    }

private:
    static bool same_predicted(const PredictedSnapshot& a, const PredictedSnapshot& b) noexcept {
        const auto cube = [](const PredictedCube& c) { return DeltaCube{c.interacting, c.position, c.orientation}; };
        for (std::size_t i = 0; i < cube_count; ++i)
            if (!same_cube(cube(a.cubes[i]), cube(b.cubes[i]))) return false;
        return true;
    }

    static PredictedSnapshot converted(const DeltaSnapshot& s) {
        PredictedSnapshot p;
        for (std::size_t i = 0; i < cube_count; ++i) p.cubes[i] = to_predicted(s.cubes[i]);
        return p;
    }

    // Stage 5, measured only: the whole snapshot (no budget) as a predicted delta packet,
    // range-coded with the library's default prior, against the newest acknowledged
    // snapshot and up to two acknowledged ones just before it (netser::predict_linear
    // extrapolates from them); read back against the same ring and compared. Its ring
    // holds what a client of this stream would hold: every snapshot whole.
    void measure_predicted(std::uint16_t sequence, const DeltaSnapshot& current) {
        stage_stats& stage = report_.stages[4];
        const netser::baseline_entry<PredictedSnapshot>* named[netser::max_predicted_baselines] = {};
        std::size_t count = 0;
        named[count++] = &predicted_ring_.newest_acked();
        while (count < netser::max_predicted_baselines && named[count - 1]->sequence != netser::initial_sequence) {
            const auto older = static_cast<std::uint16_t>(named[count - 1]->sequence - 1);
            if (older == netser::initial_sequence) break;
            const auto* e = predicted_ring_.find(older);
            if (e == nullptr || !e->acked) break;
            named[count++] = e;
        }
        *predicted_msg_ = converted(current);
        netser::packet_options options;
        options.range = &netser::default_range_prior();
        const netser::packet_write_result packet = netser::write_predicted_delta_packet(
            predicted_packet_, sequence, *predicted_msg_, {named, count}, *predicted_scratch_, options);
        const bool read_back =
            !packet.error &&
            !netser::read_predicted_delta_packet(packet.bytes, *predicted_read_, predicted_ring_, *predicted_scratch_,
                                                 nullptr, options) &&
            same_predicted(*predicted_read_, *predicted_msg_);
        if (!read_back || predicted_ring_.put(sequence, *predicted_msg_) == nullptr) {
            if (report_.failures++ == 0) report_.first_failure = "the predicted range-coded packet did not read back";
            return;
        }
        // The CRC and the bit-packed header (sequence, count, baselines, fingerprint):
        // the rest is the range coder's.
        const std::size_t header_bytes = 4 + (16 + 2 + 16 * count + 32 + 7) / 8;
        stage.add(packet.bytes.size(), 1, (packet.bytes.size() - header_bytes) * 8, packet.bytes.size());
    }

    static std::size_t delta_bits(const DeltaSnapshot& msg, const DeltaSnapshot& base) {
        netser::measure_stream m;
        (void)netser::serialize_delta(m, msg, base); // written just before: it measures
        return m.bits_processed();
    }

    // The changes left for later, and how long each cube stays behind the full state on
    // the client: consecutive snapshots whose held state is not the current one.
    void count_deferred(std::size_t sent, std::size_t deferred, const DeltaSnapshot& current,
                        const DeltaSnapshot& held) {
        report_.changed_vs_baseline += sent + deferred;
        report_.sent_changes += sent;
        report_.deferred += deferred;
        report_.deferred_max = std::max(report_.deferred_max, deferred);
        run_ = deferred == 0 ? 0 : run_ + 1;
        if (deferred != 0) ++report_.deferred_snapshots;
        report_.deferred_run = std::max(report_.deferred_run, run_);
        for (std::size_t i = 0; i < cube_count; ++i) {
            if (same_cube(held.cubes[i], current.cubes[i])) {
                waiting_[i] = 0;
                continue;
            }
            ++report_.behind_total;
            report_.longest_wait = std::max(report_.longest_wait, ++waiting_[i]);
        }
    }

    // One line of JSON per packet (with --pcap): what it carries, for the capture test:
    // its header, its size, how many changes it left for later, and each cube it changes
    // (index, codes and baseline codes as recorded).
    void log_packet(std::uint16_t sequence, const netser::baseline_entry<DeltaSnapshot>& base,
                    const DeltaSnapshot& held, const netser::budgeted_write_result& packet) {
        std::ostream& o = *sent_log_;
        o << "{\"sequence\": " << sequence << ", \"baseline\": " << base.sequence
          << ", \"fingerprint\": " << base.fingerprint << ", \"bytes\": " << packet.bytes.size()
          << ", \"deferred\": " << packet.deferred << ", \"changed\": [";
        const auto codes = [&o](const DeltaCube& c) {
            const auto r = recorded_codes(c);
            o << '[';
            for (std::size_t k = 0; k < r.size(); ++k) o << (k ? ", " : "") << r[k];
            o << ']';
        };
        bool first = true;
        for (std::size_t i = 0; i < cube_count; ++i) {
            if (same_cube(held.cubes[i], base.value.cubes[i])) continue;
            o << (first ? "" : ", ") << "{\"index\": " << i << ", \"codes\": ";
            codes(held.cubes[i]);
            o << ", \"baseline_codes\": ";
            codes(base.value.cubes[i]);
            o << '}';
            first = false;
        }
        o << "]}\n";
    }

    netser::baseline_ring<DeltaSnapshot> ring_;
    netser::baseline_ring<PredictedSnapshot> predicted_ring_;
    std::unique_ptr<PredictedSnapshot> predicted_msg_ = std::make_unique<PredictedSnapshot>();
    std::unique_ptr<PredictedSnapshot> predicted_read_ = std::make_unique<PredictedSnapshot>();
    std::unique_ptr<PredictedSnapshot> predicted_scratch_ = std::make_unique<PredictedSnapshot>();
    std::vector<std::byte> predicted_packet_;
    netser::delta_budget<&DeltaSnapshot::cubes> budget_;
    server_report& report_;
    std::ostream* sent_log_;
    std::vector<std::byte> packet_;
    std::vector<std::size_t> sent_at_; // snapshot number by ring slot (sequence % capacity)
    std::vector<std::size_t> waiting_; // per cube: consecutive snapshots behind
    std::size_t run_ = 0;              // consecutive snapshots that deferred a change
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
    const CubeWorld world; // every seed starts from this state
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
    report.stages[4].name = "5 predicted from acked, range-coded";

    CubeWorld world(opt.seed);
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
    delta_sender sender(initial, opt.budget, report, sent_log ? &*sent_log : nullptr);
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
            netser::ack_message ack;
            if (netser::read_packet(std::span<const std::byte>(ack_buffer.data(), size), ack)) {
                ++report.acks_rejected;
                continue;
            }
            ++report.acks_received;
            sender.acked(ack);
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
    std::uint16_t sequence = netser::initial_sequence;
    auto held = std::make_unique<DeltaSnapshot>(); // what the client will hold after each packet

    for (std::size_t n = 0; n < snapshots; ++n) {
        wait_until(next);
        next += interval;

        const auto step_start = clock::now();
        world.step();
        const double step_ms = std::chrono::duration<double, std::milli>(clock::now() - step_start).count();
        step_total_ms += step_ms;
        report.step_max_ms = std::max(report.step_max_ms, step_ms);
        take_states();
        sequence = netser::next_sequence(sequence);
        report.peak_moving = std::max(report.peak_moving, world.moving());
        if (!changes.add(cubes) && report.failures++ == 0)
            report.first_failure = "a cube's state does not encode (NaN)";

        // Stage 4: the delta, written within the budget, profiled, recorded and sent
        // through the link.
        const DeltaSnapshot current = quantized_snapshot(cubes);
        if (recording) recording->write(current);
        const std::size_t deferred_before = report.deferred;
        const std::span<const std::byte> bytes = sender.write(n, sequence, current, *held);
        if (bytes.empty()) {
            if (report.failures++ == 0) report.first_failure = "the budgeted delta write failed";
        } else {
            shared.truth.put(sequence, *held, cubes); // before sending: the client can always look it up
            ++report.packets_sent;
            link.push(bytes, clock::now());
            shared.recent.put(bytes);
        }

        // Stages 1 to 3: measured only.
        const auto sequence = static_cast<std::uint32_t>(n);
        measure_stage(report.stages[0], raw, raw_cubes_per_slice, sequence, cubes, to_raw, report);
        measure_stage(report.stages[1], quantized, cubes_per_slice, sequence, cubes, to_quantized, report);
        measure_stage(report.stages[2], slice, cubes_per_slice, sequence, cubes,
                      [](const CubeState& c) { return c; }, report);

        if ((n + 1) % snapshots_per_second == 0)
            std::printf("  t=%zus  snapshot %4zu  %3zu cubes moving  %4zu bytes  %3zu deferred  %zu changes in 6 frames\n",
                        (n + 1) / snapshots_per_second, n + 1, world.moving(), report.stages[3].last_bytes,
                        report.deferred - deferred_before, changes.last());
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
    report.z_share = changes.z_share();
    report.largest_switch_share = changes.largest_switch_share();
    report.step_mean_ms = report.snapshots == 0 ? 0.0 : step_total_ms / static_cast<double>(report.snapshots);
    report.ever_moved = world.ever_moved();
    report.moving_at_end = world.moving();
    report.state_hash = world.state_hash();
    if (recording && !recording->ok() && report.failures++ == 0) report.first_failure = "could not write the recording";
    shared.server_done = true;
}

} // namespace snapshot
