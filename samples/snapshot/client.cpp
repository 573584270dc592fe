// The client: takes every datagram that reaches its port, lets read_packet decide
// whether it is a snapshot slice, applies what is accepted and checks each cube
// against the server's state within the quantization bounds.

#include "demo.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <span>

namespace snapshot {

namespace {

// Float rounding in encode/decode, far below every quantization step.
constexpr double epsilon = 1e-4;

enum field : std::size_t { interacting, position_xy_axes, position_height, velocity_sent, velocity_not_sent, rotation };

std::vector<field_error> make_fields() {
    const double e = orientation_codec.params().max_error();
    return {
        {"interacting", 0.0, 0, 0},
        {"position.x, position.y (m)", position_xy.params().max_error() + epsilon, 0, 0},
        {"position.z (m)", position_z.params().max_error() + epsilon, 0, 0},
        {"linear_velocity, sent while moving (m/s)", velocity.params().max_error() + epsilon, 0, 0},
        {"linear_velocity, not sent at rest (m/s)", 0.0, 0, 0},
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
    verifier(std::size_t snapshots, client_report& report)
        : report_(report), received_(snapshots, 0), truth_(cubes_per_slice) {
        report_.fields = make_fields();
    }

    void check(const SnapshotSlice& slice, const truth_history& history) {
        const std::size_t first = slice.first_cube, n = slice.cubes.size();
        if (n > truth_.size() || first + n > cube_count ||
            !history.get(slice.sequence, first, std::span(truth_.data(), n))) {
            report_.mismatches += std::max<std::size_t>(n, 1);
            note("snapshot %u cubes %zu..%zu: no such cubes on the server", slice.sequence, first, first + n);
            return;
        }
        for (std::size_t k = 0; k < n; ++k) check_cube(slice.sequence, first + k, slice.cubes[k], truth_[k]);
        report_.cubes_checked += n;
        if (slice.sequence < received_.size()) {
            received_[slice.sequence] += n;
            if (received_[slice.sequence] == cube_count) ++report_.complete_snapshots;
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
    void check_cube(std::uint32_t sequence, std::size_t index, const CubeState& got, const CubeState& truth) {
        bool ok = record(interacting, got.interacting == truth.interacting ? 0.0 : 1.0);
        ok &= record(position_xy_axes, std::max(distance(got.position.x, truth.position.x),
                                                distance(got.position.y, truth.position.y)));
        ok &= record(position_height, distance(got.position.z, truth.position.z));
        const double velocity_error = std::max({distance(got.linear_velocity.x, truth.linear_velocity.x),
                                                distance(got.linear_velocity.y, truth.linear_velocity.y),
                                                distance(got.linear_velocity.z, truth.linear_velocity.z)});
        if (got.interacting) {
            ok &= record(velocity_sent, velocity_error);
        } else {
            // Not on the wire: read as zero, and the server's cube is at rest.
            const vec3& v = got.linear_velocity;
            const bool zero = v.x == 0.f && v.y == 0.f && v.z == 0.f;
            ok &= record(velocity_not_sent, zero ? velocity_error : 1.0 + velocity_error);
        }
        ok &= record(rotation, orientation_error(got.orientation, truth.orientation));
        if (!ok) {
            ++report_.mismatches;
            note("snapshot %u cube %zu: %s error %g above its bound %g", sequence, index, failed_->name,
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
    std::vector<std::size_t> received_; // cubes received per snapshot
    std::vector<CubeState> truth_;
    const field_error* failed_ = nullptr; // the last field out of bounds, for the note
    double failed_error_ = 0;
};

bool has_moving_cube(const SnapshotSlice& slice) {
    return std::any_of(slice.cubes.begin(), slice.cubes.end(), [](const CubeState& c) { return c.interacting; });
}

} // namespace

void run_client(const options& opt, boost::asio::io_context& io, net::udp::socket& socket,
                const net::udp::endpoint& server, shared_state& shared, client_report& report) {
    using namespace std::chrono_literals;
    verifier verify(opt.snapshots(), report);
    std::vector<std::byte> buffer(65536); // any datagram arrives whole
    std::vector<CubeState> world(cube_count);
    std::vector<std::int64_t> world_sequence(cube_count, -1);
    const std::size_t sample_from = std::min<std::size_t>(30, opt.snapshots() / 2);
    SnapshotSlice slice;
    net::udp::endpoint from;

    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(opt.seconds)) + 5s;
    while (std::chrono::steady_clock::now() < deadline) {
        const auto size = net::receive_for(io, socket, buffer, from, 50ms);
        if (!size) {
            if (shared.server_done && shared.hostile_done) break; // and 50 ms of silence: all arrived
            continue;
        }
        // Test harness only: who sent it, for the counts. Whether the packet is used
        // is decided by read_packet alone.
        const bool real = from == server;
        ++(real ? report.real_received : report.hostile_received);

        const netser::error e = netser::read_packet(std::span<const std::byte>(buffer.data(), *size), slice);
        if (e) {
            if (real) {
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
        verify.check(slice, shared.truth);

        // Apply: the newest state of every cube in the slice.
        for (std::size_t k = 0; k < slice.cubes.size(); ++k) {
            const std::size_t i = std::size_t{slice.first_cube} + k;
            if (i < cube_count && std::int64_t{slice.sequence} > world_sequence[i]) {
                world[i] = slice.cubes[k];
                world_sequence[i] = slice.sequence;
            }
        }
        if (opt.verbose && real && !report.sample && slice.sequence >= sample_from && has_moving_cube(slice))
            report.sample = slice;
    }
}

} // namespace snapshot
