// The client: takes every datagram that reaches its port and reads it as a delta
// packet against its ring of decoded snapshots (netser::read_delta_packet: the CRC, the
// header, the baseline it names and that baseline's fingerprint, the delta body, the end
// check). It checks each snapshot bit for bit against what the server recorded it would
// hold, and every cube at the full state within the quantization bounds of the true
// state; keeps the snapshot as a baseline and acknowledges it (netser::ack_window).

#include "demo.hpp"
#include "link.hpp"
#include "pcap.hpp"

#include <netser/acks.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>

namespace snapshot {

namespace {

// Float rounding in encode/decode, far below every quantization step.
constexpr double epsilon = 1e-4;

enum field : std::size_t { interacting, position_xy_axes, position_height, rotation };

std::vector<field_error> make_fields() {
    const double e = orientation_codec.params().max_error();
    return {
        {"interacting", 0.0, 0, 0},
        {"position.x, position.y (m)", position_xy.params().max_error() + epsilon, 0, 0},
        {"position.z (m)", position_z.params().max_error() + epsilon, 0, 0},
        // smallest three: each sent component within e; the rebuilt largest one (>= 1/2)
        // within 6e(1 + e). Compared after aligning signs (q and -q are one rotation).
        {"orientation, largest component error", 6.0 * e * (1.0 + e) + epsilon, 0, 0},
    };
}

double orientation_error(const quat& decoded, const quat& truth) {
    const double dot = double{decoded.x} * truth.x + double{decoded.y} * truth.y + double{decoded.z} * truth.z +
                       double{decoded.w} * truth.w;
    const double s = dot < 0 ? -1.0 : 1.0;
    return std::max({std::fabs(decoded.x - s * truth.x), std::fabs(decoded.y - s * truth.y),
                     std::fabs(decoded.z - s * truth.z), std::fabs(decoded.w - s * truth.w)});
}

double distance(float a, float b) { return std::fabs(double{a} - double{b}); }

class verifier {
public:
    explicit verifier(client_report& report) : report_(report) { report_.fields = make_fields(); }

    // A decoded snapshot: bit for bit what the server recorded the client would hold.
    // Each cube is either at the full state (the server's quantized state), and then
    // within the quantization bounds of the true state, or behind it: a change the
    // budget left for a later packet.
    void check(std::uint16_t sequence, const DeltaSnapshot& decoded, const truth_history& history) {
        ++report_.rebuilt;
        if (!history.get(sequence, held_, truth_)) {
            ++report_.rebuilt_mismatches;
            note("snapshot %u: no such snapshot on the server", unsigned{sequence});
            return;
        }
        if (!same_snapshot(decoded, held_)) {
            ++report_.rebuilt_mismatches;
            std::size_t differing = 0;
            for (std::size_t i = 0; i < cube_count; ++i)
                if (!same_cube(decoded.cubes[i], held_.cubes[i])) ++differing;
            note("snapshot %u: %zu cubes differ from what the server recorded", unsigned{sequence}, differing);
        }
        for (std::size_t i = 0; i < cube_count; ++i) full_.cubes[i] = to_delta(truth_[i]);
        if (netser::as_received(full_, full_)) {
            ++report_.rebuilt_mismatches;
            note("snapshot %u: the server's state does not encode", unsigned{sequence});
            return;
        }
        std::size_t behind = 0;
        for (std::size_t i = 0; i < cube_count; ++i) {
            if (!same_cube(decoded.cubes[i], full_.cubes[i])) {
                ++behind;
                continue;
            }
            ++report_.cubes_checked;
            check_cube(sequence, i, decoded.cubes[i], truth_[i]);
        }
        report_.behind += behind;
        report_.behind_max = std::max(report_.behind_max, behind);
        if (behind != 0) ++report_.behind_snapshots;
    }

    template <class... A>
    void note(const char* format, A... args) {
        if (report_.notes.size() >= 10) return;
        char line[200];
        std::snprintf(line, sizeof line, format, args...);
        report_.notes.emplace_back(line);
    }

private:
    void check_cube(std::uint16_t sequence, std::size_t index, const DeltaCube& got, const CubeState& truth) {
        bool ok = record(interacting, got.interacting == truth.interacting ? 0.0 : 1.0);
        ok &= record(position_xy_axes, std::max(distance(got.position.x, truth.position.x),
                                                distance(got.position.y, truth.position.y)));
        ok &= record(position_height, distance(got.position.z, truth.position.z));
        ok &= record(rotation, orientation_error(got.orientation, truth.orientation));
        if (!ok) {
            ++report_.mismatches;
            note("snapshot %u cube %zu: %s error %g above its bound %g", unsigned{sequence}, index, failed_->name,
                 failed_error_, failed_->bound);
        }
    }

    bool record(field f, double error) {
        field_error& fe = report_.fields[f];
        fe.worst = std::max(fe.worst, error);
        ++fe.checked;
        if (error <= fe.bound) return true;
        failed_ = &fe;
        failed_error_ = error;
        return false;
    }

    client_report& report_;
    std::vector<CubeState> truth_;
    DeltaSnapshot held_; // what the server recorded
    DeltaSnapshot full_; // the server's quantized state
    const field_error* failed_ = nullptr; // the last field out of bounds, for the note
    double failed_error_ = 0;
};

bool has_moving_cube(const DeltaSnapshot& s) {
    return std::any_of(s.cubes.begin(), s.cubes.end(), [](const DeltaCube& c) { return c.interacting; });
}

} // namespace

void run_client(const options& opt, boost::asio::io_context& io, net::udp::socket& socket,
                const net::udp::endpoint& server, shared_state& shared, client_report& report) {
    using namespace std::chrono_literals;
    using clock = std::chrono::steady_clock;
    verifier verify(report);
    std::vector<std::byte> buffer(65536); // any datagram arrives whole
    netser::baseline_ring<DeltaSnapshot> held(ring_capacity, initial_snapshot());
    netser::ack_window acks;
    auto decoded = std::make_unique<DeltaSnapshot>();
    const std::size_t sample_from = std::min<std::size_t>(30, opt.snapshots() / 2);
    std::optional<pcap_writer> capture;
    if (!opt.pcap_path.empty()) capture.emplace(opt.pcap_path);
    const net::udp::endpoint self = socket.local_endpoint();
    net::udp::endpoint from;

    delay_line link(opt.loss_percent, std::chrono::milliseconds(opt.latency_ms), 0x636C6E74);
    std::array<std::byte, 32> ack_buffer{};
    const auto acknowledge = [&](std::uint16_t sequence) {
        acks.accepted(sequence);
        const netser::packet_write_result ack = netser::write_packet(ack_buffer, acks.ack());
        if (ack.error) return;
        ++report.acks_sent;
        if (!link.push(ack.bytes, clock::now())) ++report.acks_dropped;
    };
    const auto deliver = [&] {
        link.flush(clock::now(), [&](std::span<const std::byte> bytes) {
            if (net::send(socket, server, bytes) && capture) capture->write(self, server, bytes);
        });
    };

    const auto deadline = clock::now() +
                          std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(opt.seconds)) +
                          std::chrono::milliseconds(opt.latency_ms) + 5s;
    while (clock::now() < deadline) {
        deliver();
        auto wait = std::chrono::milliseconds(50);
        if (const auto due = link.next_due())
            wait = std::clamp(std::chrono::duration_cast<std::chrono::milliseconds>(*due - clock::now()), 0ms, wait);
        const auto size = net::receive_for(io, socket, buffer, from, std::max(wait, 1ms));
        if (!size) {
            if (shared.server_done && shared.hostile_done && link.empty()) break; // and silence: all arrived
            continue;
        }
        const std::span<const std::byte> bytes(buffer.data(), *size);
        if (capture) capture->write(from, self, bytes);
        // Test harness only: who sent it, for the counts. Whether the packet is used
        // is decided by the reader alone.
        const bool real = from == server;
        ++(real ? report.real_received : report.hostile_received);
        if (real && *size > opt.budget) ++report.real_over_budget;

        // The CRC and the header; the baseline it names, found in the ring and compared by
        // fingerprint; the body and the end check. A refused packet changes nothing.
        netser::delta_header header;
        const netser::error e = netser::read_delta_packet(bytes, *decoded, held, &header);
        if (e) {
            if (real && e.code == netser::errc::missing_baseline) {
                ++report.real_missing_baseline; // not an error: the baseline fell out of the ring
            } else if (real) {
                ++report.real_rejected;
                verify.note("a real packet was rejected: %s at bit %zu (%.*s)",
                            std::string(netser::to_string(e.code)).c_str(), e.bit,
                            static_cast<int>(e.path().size()), e.path().data());
            } else {
                ++report.hostile_rejected[e.code];
            }
            continue; // nothing of a rejected packet is applied
        }

        ++(real ? report.real_accepted : report.hostile_accepted);
        if (!real) verify.note("a hostile packet was accepted (%zu bytes)", *size);
        verify.check(header.sequence, *decoded, shared.truth);
        if (held.put(header.sequence, *decoded) == nullptr) verify.note("snapshot %u: not kept", unsigned{header.sequence});
        acknowledge(header.sequence);
        if (opt.verbose && real && !report.sample && report.rebuilt >= sample_from && has_moving_cube(*decoded))
            report.sample = *decoded;
    }
    if (capture && !capture->ok()) verify.note("could not write the capture %s", opt.pcap_path.c_str());
}

} // namespace snapshot
