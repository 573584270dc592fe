#pragma once

// The three threads of the demo (server, client, hostile sender), what they share
// and what each reports at the end.

#include "cube_world.hpp"
#include "delta_types.hpp"
#include "net.hpp"
#include "snapshot_types.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace snapshot {

struct options {
    double seconds = 5.0;
    std::string svg_path = "snapshot_budget.svg";
    bool verbose = false;
    double loss_percent = 0.0;   ///< datagrams dropped, each direction
    unsigned latency_ms = 0;     ///< one-way delay, each direction
    std::string record_path;     ///< --record: the quantized states, challenge layout
    std::string pcap_path;       ///< --pcap: what the client's port saw and sent
    std::string schema_path;     ///< --schema: schema_json of DeltaSnapshot and netser::ack_message
    std::size_t budget = packet_budget; ///< --budget: bytes per delta packet
    std::uint32_t seed = CubeWorld::default_seed; ///< --seed: the player's path

    std::size_t snapshots() const noexcept;
};

/// By wire sequence number: what the server recorded the client will hold after reading
/// the snapshot (the `held` value of its budgeted write), and the true state of every
/// cube. The ground truth the client checks what it decoded against. (A test harness's
/// view: a real client has no such thing.)
class truth_history {
public:
    void put(std::uint16_t sequence, const DeltaSnapshot& held, const std::vector<CubeState>& cubes);
    /// Snapshot `sequence`; false when unknown (or overwritten).
    bool get(std::uint16_t sequence, DeltaSnapshot& held, std::vector<CubeState>& cubes) const;
    /// Only what the client will hold.
    bool get(std::uint16_t sequence, DeltaSnapshot& held) const;

private:
    struct frame {
        bool valid = false;
        std::uint16_t sequence = 0;
        DeltaSnapshot held;
        std::vector<CubeState> cubes;
    };
    static constexpr std::size_t depth = 256; // a little over 4 s of snapshots
    mutable std::mutex mutex_;
    std::vector<frame> frames_ = std::vector<frame>(depth); // 256 x 901 cubes: on the heap
};

/// The last real packets the server sent, for the hostile sender to damage.
class packet_pool {
public:
    void put(std::span<const std::byte> packet);
    /// A copy of one recent packet (chosen by `pick`); false when none was sent yet.
    bool sample(std::uint32_t pick, std::vector<std::byte>& out) const;

private:
    static constexpr std::size_t depth = 32;
    mutable std::mutex mutex_;
    std::array<std::vector<std::byte>, depth> packets_;
    std::size_t count_ = 0;
};

struct shared_state {
    truth_history truth;
    packet_pool recent;
    std::atomic<bool> server_done{false};
    std::atomic<bool> hostile_done{false};
};

/// Bytes per snapshot of one encoding stage, packet overhead (CRC, end check) included.
struct stage_stats {
    const char* name = "";
    std::size_t snapshots = 0;
    std::size_t packets = 0;
    std::size_t bytes = 0;
    std::size_t cube_bits = 0;
    std::size_t min_bytes = std::numeric_limits<std::size_t>::max();
    std::size_t max_bytes = 0;
    std::size_t largest_packet = 0;
    std::size_t last_bytes = 0; ///< of the last snapshot added

    void add(std::size_t snapshot_bytes, std::size_t snapshot_packets, std::size_t snapshot_cube_bits,
             std::size_t snapshot_largest_packet) noexcept;
    double mean_bytes() const noexcept;
    double kbps() const noexcept; ///< kilobits per second at 60 snapshots per second
};

struct server_report {
    /// raw, quantized, velocity while moving, delta (sent), predicted and range-coded
    std::array<stage_stats, 5> stages;
    netser::profile_stream budget;     ///< over every sent delta packet
    std::size_t snapshots = 0;
    std::size_t packets_sent = 0;    ///< handed to the link (before loss)
    std::size_t packets_dropped = 0; ///< by --loss
    std::size_t acks_received = 0;
    std::size_t acks_rejected = 0;   ///< datagrams at the server's port that were no ack_message
    std::size_t against_initial = 0; ///< snapshots sent against the initial state (no usable ack)
    double baseline_age_mean = 0;    ///< snapshots between a snapshot and its baseline
    std::size_t baseline_age_max = 0;
    std::size_t over_budget = 0;     ///< packets longer than the budget (delta_budget never writes one)
    std::size_t changed_vs_baseline = 0; ///< cubes that differed from their baseline, summed
    std::size_t sent_changes = 0;    ///< ... of which the packets carried
    std::size_t deferred = 0;        ///< ... left for later packets (the budget was spent)
    std::size_t deferred_snapshots = 0; ///< snapshots that left some change for later
    std::size_t deferred_max = 0;    ///< the most changes one snapshot left for later
    std::size_t deferred_run = 0;    ///< the longest run of consecutive such snapshots
    std::size_t behind_total = 0;    ///< cubes the client will hold behind the full state, summed
    std::size_t longest_wait = 0;    ///< the most consecutive snapshots one cube stayed behind
    std::size_t delta_body_bits = 0; ///< serialize_delta bits, summed over packets
    std::size_t failures = 0; ///< write, send or measure-vs-write disagreements
    std::string first_failure;
    std::size_t ever_moved = 0;
    std::size_t peak_moving = 0;
    std::size_t moving_at_end = 0;
    std::uint32_t state_hash = 0;
    /// Cubes whose sent state (DeltaCube) differs from the snapshot change_distance
    /// earlier (the initial state counts as the one before the first snapshot).
    std::size_t change_distance = 0;
    std::size_t change_frames = 0;
    double changed_mean = 0;
    std::size_t changed_min = 0;
    std::size_t changed_max = 0;
    double z_share = 0;              ///< of the changed positions, those whose z code changed
    double largest_switch_share = 0; ///< of the changed orientations, those whose largest component changed
    double step_mean_ms = 0; ///< CubeWorld::step, wall clock
    double step_max_ms = 0;
};

/// The worst error seen in one field of the decoded cubes, and what it may be.
struct field_error {
    const char* name = "";
    double bound = 0;
    double worst = 0;
    std::size_t checked = 0;
};

struct client_report {
    std::size_t real_received = 0;
    std::size_t real_accepted = 0;
    std::size_t real_rejected = 0;
    std::size_t real_missing_baseline = 0; ///< refused: baseline no longer held (not an error)
    std::size_t real_over_budget = 0;      ///< real packets longer than the budget
    std::size_t rebuilt = 0;               ///< snapshots decoded and checked bit for bit
    std::size_t rebuilt_mismatches = 0;    ///< ... that differed from what the server recorded
    std::size_t behind = 0;                ///< decoded cubes not (yet) at the full state, summed
    std::size_t behind_snapshots = 0;      ///< decoded snapshots with such cubes
    std::size_t behind_max = 0;            ///< the most in one snapshot
    std::size_t acks_sent = 0;
    std::size_t acks_dropped = 0;
    std::size_t hostile_received = 0;
    std::size_t hostile_accepted = 0;
    std::map<netser::errc, std::size_t> hostile_rejected; ///< by read_packet's error code
    std::size_t cubes_checked = 0; ///< cubes at the full state, checked against the true state
    std::size_t mismatches = 0;
    std::vector<field_error> fields;
    std::vector<std::string> notes; ///< the first problems, in words
    std::optional<DeltaSnapshot> sample; ///< a rebuilt snapshot with moving cubes, for --verbose

    std::size_t hostile_rejected_total() const noexcept;
};

enum class hostile_kind : std::uint8_t {
    random_bytes,
    truncated,
    bit_flipped,
    other_protocol,
    other_schema,
    forged_crc,
    unknown_baseline,
    wrong_baseline,
};
inline constexpr std::size_t hostile_kind_count = 8;
const char* to_string(hostile_kind k) noexcept;

struct hostile_report {
    std::array<std::size_t, hostile_kind_count> sent{};
    std::size_t send_failures = 0;

    std::size_t total() const noexcept;
};

/// The initial state as the client holds it (the scene is deterministic, and starts the
/// same for every seed): the baseline named by sequence 0.
DeltaSnapshot initial_snapshot();

/// Simulates, sends each snapshot as one budgeted delta packet against the newest
/// acknowledged one, records what the client will hold, measures the plain stages.
void run_server(const options& opt, net::udp::socket& socket, const net::udp::endpoint& client, shared_state& shared,
                server_report& report);

/// Receives everything, reads delta packets against its ring of decoded snapshots,
/// verifies them, acknowledges them.
void run_client(const options& opt, boost::asio::io_context& io, net::udp::socket& socket,
                const net::udp::endpoint& server, shared_state& shared, client_report& report);

/// Sends damaged, foreign and forged packets at the client until the server is done.
void run_hostile(net::udp::socket& socket, const net::udp::endpoint& client, shared_state& shared,
                 hostile_report& report);

} // namespace snapshot
