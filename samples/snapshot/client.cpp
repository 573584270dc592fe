// The client: takes every datagram that reaches its port and reads it as a delta
// packet in stages (CRC, header, the baseline it names, the delta body, the end check).
// It rebuilds each snapshot from its baseline and parts, checks it bit for bit against
// the server's quantized state and within the quantization bounds of the true state,
// keeps it as a baseline and acknowledges it.

#include "demo.hpp"
#include "link.hpp"
#include "pcap.hpp"
#include "snapshot_ring.hpp"

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

    // A rebuilt snapshot: bit for bit the server's quantized state, and within the
    // quantization bounds of its true state.
    void check(std::uint16_t sequence, const DeltaSnapshot& rebuilt, const truth_history& history) {
        ++report_.rebuilt;
        if (!history.get(sequence, truth_)) {
            ++report_.rebuilt_mismatches;
            note("snapshot %u: no such snapshot on the server", unsigned{sequence});
            return;
        }
        for (std::size_t i = 0; i < cube_count; ++i) expected_.cubes[i] = to_delta(truth_[i]);
        if (netser::as_received(expected_, expected_)) {
            ++report_.rebuilt_mismatches;
            note("snapshot %u: the server's state does not encode", unsigned{sequence});
            return;
        }
        std::size_t differing = 0;
        for (std::size_t i = 0; i < cube_count; ++i) {
            if (!same_cube(rebuilt.cubes[i], expected_.cubes[i])) ++differing;
            check_cube(sequence, i, rebuilt.cubes[i], truth_[i]);
        }
        report_.cubes_checked += cube_count;
        if (differing != 0) {
            ++report_.rebuilt_mismatches;
            note("snapshot %u: %zu cubes differ from the server's quantized state", unsigned{sequence}, differing);
        }
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
    DeltaSnapshot expected_;
    const field_error* failed_ = nullptr; // the last field out of bounds, for the note
    double failed_error_ = 0;
};

// Snapshots whose parts are arriving: each starts as a copy of its baseline, and every
// part brings the cubes that differ from the baseline in it.
class assembler {
public:
    struct done {
        std::uint16_t sequence;
        DeltaSnapshot* snapshot;
    };

    // Adds a decoded part; the whole snapshot once its last part came, else nothing.
    // False when the part does not fit the parts already seen (refused, nothing applied).
    bool add(std::uint16_t sequence, std::uint16_t base_sequence, const DeltaSnapshot& base,
             const DeltaSnapshot& part, std::optional<done>& complete) {
        complete.reset();
        if (part.parts == 0 || part.part >= part.parts) return false;
        pending* p = find(sequence);
        if (p == nullptr) {
            p = &slots_[next_++ % slots_.size()]; // the oldest pending snapshot is given up
            if (p->active) ++given_up_;
            *p = pending{true, sequence, base_sequence, part.parts, 0, base};
        }
        if (p->base_sequence != base_sequence || p->parts != part.parts) return false;
        if (p->received & (1u << part.part)) return true; // a duplicate
        for (std::size_t i = 0; i < cube_count; ++i)
            if (!same_cube(part.cubes[i], base.cubes[i])) p->snapshot.cubes[i] = part.cubes[i];
        p->received |= 1u << part.part;
        if (p->received == full(p->parts)) {
            p->active = false;
            complete = done{sequence, &p->snapshot};
        }
        return true;
    }

    /// Snapshots of which some part never came: given up, or still waiting at the end.
    std::size_t incomplete() const noexcept {
        return given_up_ + static_cast<std::size_t>(std::count_if(slots_.begin(), slots_.end(),
                                                                  [](const pending& p) { return p.active; }));
    }

private:
    struct pending {
        bool active = false;
        std::uint16_t sequence = 0, base_sequence = 0;
        std::uint8_t parts = 1;
        std::uint32_t received = 0; // a bit per part
        DeltaSnapshot snapshot;     // parts 0 and 1 (whole), once complete
    };
    static std::uint32_t full(std::uint8_t parts) noexcept { return (std::uint32_t{1} << parts) - 1; }
    pending* find(std::uint16_t sequence) noexcept {
        for (pending& p : slots_)
            if (p.active && p.sequence == sequence) return &p;
        return nullptr;
    }
    std::array<pending, 8> slots_{};
    std::size_t next_ = 0;
    std::size_t given_up_ = 0;
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
    snapshot_ring held(initial_snapshot());
    auto rebuilt = std::make_unique<assembler>();
    auto part = std::make_unique<DeltaSnapshot>();
    const std::size_t sample_from = std::min<std::size_t>(30, opt.snapshots() / 2);
    std::optional<pcap_writer> capture;
    if (!opt.pcap_path.empty()) capture.emplace(opt.pcap_path);
    const net::udp::endpoint self = socket.local_endpoint();
    net::udp::endpoint from;

    delay_line link(opt.loss_percent, std::chrono::milliseconds(opt.latency_ms), 0x636C6E74);
    std::array<std::byte, 16> ack_buffer{};
    const auto acknowledge = [&](std::uint16_t sequence) {
        const netser::packet_write_result ack = netser::write_packet(ack_buffer, Ack{sequence});
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

        // Stage by stage: the CRC and the header; the baseline it names; the body.
        netser::delta_packet_reader<DeltaSnapshot> reader(bytes);
        const DeltaSnapshot* base = reader.error() ? nullptr : held.find(reader.header().baseline);
        netser::error e = reader.read(*part, base);
        std::optional<assembler::done> complete;
        if (!e && !rebuilt->add(reader.header().sequence, reader.header().baseline, *base, *part, complete)) {
            e.code = netser::errc::invalid_value; // parts that do not fit together
            e.bit = 0;
        }
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
        if (!complete) continue;
        DeltaSnapshot& whole = *complete->snapshot;
        whole.part = 0;
        whole.parts = 1;
        verify.check(complete->sequence, whole, shared.truth);
        held.put(complete->sequence, whole);
        acknowledge(complete->sequence);
        if (opt.verbose && real && !report.sample && report.rebuilt >= sample_from && has_moving_cube(whole))
            report.sample = whole;
    }
    report.incomplete = rebuilt->incomplete();
    if (capture && !capture->ok()) verify.note("could not write the capture %s", opt.pcap_path.c_str());
}

} // namespace snapshot
