// The main demo: a snapshot stream of 901 cubes over real UDP on 127.0.0.1.
//
// Three threads, three sockets: the server simulates the cubes and sends 60
// snapshots a second, each as one delta packet of at most 1200 bytes against the newest
// snapshot the client acknowledged (netser::delta_budget: the changed cubes by priority,
// the rest in later packets); the client reads them against its netser::baseline_ring,
// checks every snapshot bit for bit against what the server recorded it would hold and
// acknowledges it (netser::ack_window); a hostile sender fires noise, damaged copies,
// foreign and forged packets at the client the whole time. --loss and --latency put a lossy, slow
// path between server and client, both ways. The report compares the plain encodings
// of the same cubes with the delta stream, shows where the bits go
// (netser::profile_stream), and fails the run (exit code 1) unless every snapshot
// decoded bit for bit, no packet went over the budget and every hostile packet was
// rejected.
//
//   snapshot [--seconds S] [--seed N] [--loss P] [--latency MS] [--budget BYTES]
//            [--record FILE] [--pcap FILE] [--schema FILE] [--svg PATH] [--verbose]

#include "demo.hpp"

#include <netser/acks.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

namespace snapshot {
namespace {

void usage() {
    std::printf("usage: snapshot [--seconds S] [--seed N] [--loss P] [--latency MS] [--budget BYTES]\n"
                "                [--record FILE] [--pcap FILE] [--schema FILE] [--svg PATH] [--verbose]\n"
                "  --seconds S    run time in seconds, fractions allowed (default 5)\n"
                "  --seed N       the player's path (default %u): the same seed gives the same run\n"
                "  --loss P       drop P%% of the datagrams, both ways (default 0, at most 50)\n"
                "  --latency MS   delay every datagram MS milliseconds, both ways (default 0, at most 1000)\n"
                "  --budget BYTES bytes per delta packet (default and at most 1200, at least 64): a smaller\n"
                "                 budget leaves changes for later packets\n"
                "  --record FILE  write the quantized states in the snapshot-compression challenge's layout\n"
                "  --pcap FILE    write what the client's port received and sent as a pcap capture\n"
                "                 (and FILE.sent.jsonl: each delta packet's header and changed cubes)\n"
                "  --schema FILE  write netser::schema_json of the delta snapshot (and FILE.ack.json of\n"
                "                 netser::ack_message)\n"
                "  --svg PATH     where to write the bit budget chart (default snapshot_budget.svg)\n"
                "  --verbose      print cubes of one rebuilt snapshot with netser::to_string\n",
                static_cast<unsigned>(CubeWorld::default_seed));
}

// A number in [low, high] from argv, or a message and false.
bool parse_number(const char* text, const char* name, double low, double high, double& out) {
    char* end = nullptr;
    out = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(out >= low && out <= high)) {
        std::fprintf(stderr, "snapshot: %s needs a number in [%g, %g]\n", name, low, high);
        return false;
    }
    return true;
}

bool parse(int argc, char** argv, options& opt) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--seconds" && has_value) {
            if (!parse_number(argv[++i], "--seconds", 0.01, 3600.0, opt.seconds)) return false;
        } else if (arg == "--seed" && has_value) {
            double seed = 0;
            if (!parse_number(argv[++i], "--seed", 0.0, 4294967295.0, seed)) return false;
            if (seed != std::floor(seed)) {
                std::fprintf(stderr, "snapshot: --seed needs a whole number\n");
                return false;
            }
            opt.seed = static_cast<std::uint32_t>(seed);
        } else if (arg == "--loss" && has_value) {
            if (!parse_number(argv[++i], "--loss", 0.0, 50.0, opt.loss_percent)) return false;
        } else if (arg == "--latency" && has_value) {
            double ms = 0;
            if (!parse_number(argv[++i], "--latency", 0.0, 1000.0, ms)) return false;
            opt.latency_ms = static_cast<unsigned>(ms);
        } else if (arg == "--budget" && has_value) {
            double bytes = 0;
            if (!parse_number(argv[++i], "--budget", 64.0, static_cast<double>(packet_budget), bytes)) return false;
            opt.budget = static_cast<std::size_t>(bytes);
        } else if (arg == "--record" && has_value) {
            opt.record_path = argv[++i];
        } else if (arg == "--pcap" && has_value) {
            opt.pcap_path = argv[++i];
        } else if (arg == "--schema" && has_value) {
            opt.schema_path = argv[++i];
        } else if (arg == "--svg" && has_value) {
            opt.svg_path = argv[++i];
        } else if (arg == "--verbose") {
            opt.verbose = true;
        } else if (arg == "--help" || arg == "-h") {
            usage();
            std::exit(0);
        } else {
            usage();
            return false;
        }
    }
    return true;
}

void print_stages(const server_report& s, std::size_t budget) {
    const stage_stats& raw = s.stages[0];
    std::printf("\nencoding stages, mean over %zu snapshots of %zu cubes "
                "(bytes include each packet's CRC, end check and delta header)\n",
                raw.snapshots, cube_count);
    std::printf("  %-42s %9s %8s %15s %11s %7s\n", "stage", "bits/cube", "packets", "bytes/snapshot", "kbps@60Hz",
                "vs raw");
    for (const stage_stats& st : s.stages) {
        const double cubes = static_cast<double>(st.snapshots * cube_count);
        std::printf("  %-42s %9.1f %8.1f %15.0f %11.0f %6.1f%%\n", st.name,
                    cubes > 0 ? static_cast<double>(st.cube_bits) / cubes : 0.0,
                    st.snapshots > 0 ? static_cast<double>(st.packets) / static_cast<double>(st.snapshots) : 0.0,
                    st.mean_bytes(), st.kbps(), 100.0 * st.mean_bytes() / std::max(raw.mean_bytes(), 1.0));
    }
    const stage_stats& sent = s.stages[3];
    std::printf("  delta stage per snapshot: %zu to %zu bytes; largest packet %zu bytes (budget %zu); "
                "%zu packets over budget\n",
                sent.min_bytes, sent.max_bytes, sent.largest_packet, budget, s.over_budget);
    std::printf("  deferred: %zu changes in %zu snapshots (at most %zu in one, longest run %zu snapshots); "
                "a cube stayed behind the full state at most %zu snapshots in a row (%zu cube-snapshots behind)\n",
                s.deferred, s.deferred_snapshots, s.deferred_max, s.deferred_run, s.longest_wait, s.behind_total);

    // Where a changed cube's bits go, from the profile of every delta packet: which
    // cubes changed (the element list), then per cube its members and their flags.
    const auto rows = s.budget.rows();
    const auto total = [&](std::string_view path) {
        for (const netser::profile_row& r : rows)
            if (r.path == path) return r.mean * static_cast<double>(s.budget.packets());
        return 0.0;
    };
    // Per change the packets carried (the deferred ones cost nothing yet).
    const double changed = static_cast<double>(s.sent_changes);
    if (changed > 0) {
        const double list = total("DeltaSnapshot.cubes") - total("DeltaSnapshot.cubes[]");
        const double position = total("DeltaSnapshot.cubes[].position");
        const double orientation = total("DeltaSnapshot.cubes[].orientation");
        const double flags = total("DeltaSnapshot.cubes[]") - position - orientation;
        std::printf("  delta: %.1f cubes changed per snapshot against its baseline, %.1f sent (%.1f snapshots old "
                    "on average, at most %zu; %zu against the initial state)\n",
                    static_cast<double>(s.changed_vs_baseline) / static_cast<double>(std::max<std::size_t>(s.snapshots, 1)),
                    changed / static_cast<double>(std::max<std::size_t>(s.snapshots, 1)), s.baseline_age_mean,
                    s.baseline_age_max, s.against_initial);
        std::printf("  bits per changed cube: %.1f = index %.1f + position %.1f + orientation %.1f + flags %.1f\n",
                    (list + position + orientation + flags) / changed, list / changed, position / changed,
                    orientation / changed, flags / changed);
    }
}

void print_sample(const DeltaSnapshot& snapshot) {
    // Show the first moving cube with its neighbours.
    const auto moving = std::find_if(snapshot.cubes.begin(), snapshot.cubes.end(),
                                     [](const DeltaCube& c) { return c.interacting; });
    const std::size_t at = static_cast<std::size_t>(moving - snapshot.cubes.begin());
    const std::size_t from = at == 0 ? 0 : at - 1, count = std::min<std::size_t>(3, cube_count - from);
    std::printf("\nthree cubes of one decoded snapshot (--verbose), netser::to_string, from cube %zu:\n", from);
    for (std::size_t i = from; i < from + count; ++i)
        std::printf("  %s\n", netser::to_string(snapshot.cubes[i]).c_str());
}

void print_verification(const client_report& c) {
    std::printf("\nverification: %zu snapshots rebuilt from deltas, %zu differ from what the server recorded "
                "the client holds, bit for bit\n",
                c.rebuilt, c.rebuilt_mismatches);
    std::printf("  behind the full state: %zu cubes in %zu snapshots (at most %zu in one)\n", c.behind,
                c.behind_snapshots, c.behind_max);
    std::printf("  %zu cubes checked against the true state, %zu out of bounds\n", c.cubes_checked, c.mismatches);
    std::printf("  %-42s %12s %12s %10s\n", "field", "worst error", "bound", "cubes");
    for (const field_error& f : c.fields)
        std::printf("  %-42s %12.6f %12.6f %10zu\n", f.name, f.worst, f.bound, f.checked);
}

void print_hostile(const client_report& c, const hostile_report& h) {
    std::printf("\nhostile: %zu sent, %zu received, %zu rejected, %zu accepted\n", h.total(), c.hostile_received,
                c.hostile_rejected_total(), c.hostile_accepted);
    std::printf("  sent:");
    for (std::size_t k = 0; k < hostile_kind_count; ++k)
        std::printf("%s %s %zu", k == 0 ? "" : ",", to_string(static_cast<hostile_kind>(k)), h.sent[k]);
    std::printf("\n  rejected by the delta packet reader:");
    bool first = true;
    for (const auto& [code, count] : c.hostile_rejected) {
        std::printf("%s %s %zu", first ? "" : ",", std::string(netser::to_string(code)).c_str(), count);
        first = false;
    }
    std::printf("\n");
}

int run(const options& opt) {
    boost::asio::io_context server_io, client_io, hostile_io;
    net::udp::socket server_socket = net::open_loopback(server_io);
    net::udp::socket client_socket = net::open_loopback(client_io);
    net::udp::socket hostile_socket = net::open_loopback(hostile_io);
    const net::udp::endpoint server = server_socket.local_endpoint();
    const net::udp::endpoint client = client_socket.local_endpoint();

    std::printf("netser snapshot demo: %zu cubes, %zu snapshots a second for %g s, seed %u, UDP on 127.0.0.1\n",
                cube_count, snapshots_per_second, opt.seconds, static_cast<unsigned>(opt.seed));
    std::printf("  server %s -> client %s <- hostile sender %s\n", net::to_string(server).c_str(),
                net::to_string(client).c_str(), net::to_string(hostile_socket.local_endpoint()).c_str());
    std::printf("  link: %g%% loss and %u ms latency each way; delta packets of at most %zu bytes\n", opt.loss_percent,
                opt.latency_ms, opt.budget);
    std::fflush(stdout);
    if (!opt.schema_path.empty()) {
        // For tools/netser_dissector.py and the other schema tools.
        std::ofstream(opt.schema_path) << netser::schema_json<DeltaSnapshot>();
        std::ofstream(opt.schema_path + ".ack.json") << netser::schema_json<netser::ack_message>();
    }

    shared_state shared;
    server_report server_result;
    client_report client_result;
    hostile_report hostile_result;
    std::exception_ptr failures[3];
    const auto guarded = [](std::exception_ptr& failure, auto body) {
        return [&failure, body] {
            try {
                body();
            } catch (...) {
                failure = std::current_exception();
            }
        };
    };
    std::thread client_thread(guarded(failures[0], [&] {
        run_client(opt, client_io, client_socket, server, shared, client_result);
    }));
    std::thread hostile_thread(guarded(failures[1], [&] {
        run_hostile(hostile_socket, client, shared, hostile_result);
    }));
    std::thread server_thread(guarded(failures[2], [&] {
        run_server(opt, server_socket, client, shared, server_result);
    }));
    server_thread.join();
    shared.server_done = true; // also when the server failed: the others stop
    hostile_thread.join();
    shared.hostile_done = true;
    client_thread.join();
    for (const std::exception_ptr& f : failures)
        if (f) std::rethrow_exception(f);

    print_stages(server_result, opt.budget);
    std::printf("\nsimulation: %zu snapshots, %zu cubes moved (peak %zu at once), %zu moving at the end, "
                "state hash %08x\n",
                server_result.snapshots, server_result.ever_moved, server_result.peak_moving,
                server_result.moving_at_end, server_result.state_hash);
    std::printf("  cubes differing from %zu frames earlier: mean %.1f (min %zu, max %zu) over %zu snapshots; "
                "z changed in %.1f%% of the changed positions, the largest component in %.1f%% of the changed "
                "orientations\n",
                server_result.change_distance, server_result.changed_mean, server_result.changed_min,
                server_result.changed_max, server_result.change_frames, 100.0 * server_result.z_share,
                100.0 * server_result.largest_switch_share);
    std::printf("  physics step: mean %.3f ms, max %.3f ms\n", server_result.step_mean_ms, server_result.step_max_ms);
    std::printf("real packets: %zu sent, %zu dropped by --loss, %zu received, %zu accepted, %zu rejected, "
                "%zu naming a baseline no longer held, %zu over budget\n",
                server_result.packets_sent, server_result.packets_dropped, client_result.real_received,
                client_result.real_accepted, client_result.real_rejected, client_result.real_missing_baseline,
                client_result.real_over_budget);
    std::printf("acks: %zu sent, %zu dropped by --loss, %zu received by the server\n", client_result.acks_sent,
                client_result.acks_dropped, server_result.acks_received);
    if (opt.verbose && client_result.sample) print_sample(*client_result.sample);
    print_verification(client_result);
    print_hostile(client_result, hostile_result);

    std::printf("\nbit budget of the delta stage: netser::profile_stream::profile_delta over %zu packets "
                "(delta body bits, without CRC, header and end check)\n",
                server_result.budget.packets());
    std::fflush(stdout);
    server_result.budget.print_table(std::cout);
    std::cout.flush();
    std::ofstream svg(opt.svg_path);
    if (svg) server_result.budget.write_svg(svg, "netser snapshot demo: bits per delta packet");
    svg.close();
    const bool svg_ok = static_cast<bool>(svg);
    if (svg_ok) std::printf("bit budget chart: %s\n", opt.svg_path.c_str());
    else std::printf("bit budget chart: could not write %s\n", opt.svg_path.c_str());

    std::vector<std::string> problems;
    if (server_result.failures != 0) problems.push_back("server: " + server_result.first_failure);
    if (client_result.real_accepted == 0) problems.push_back("no real packet was accepted");
    if (client_result.real_rejected != 0) problems.push_back("real packets were rejected");
    if (client_result.mismatches != 0) problems.push_back("cubes out of their quantization bounds");
    if (client_result.rebuilt == 0) problems.push_back("no snapshot was rebuilt");
    if (client_result.rebuilt_mismatches != 0) problems.push_back("decoded snapshots differ from the server's record");
    if (server_result.over_budget != 0 || client_result.real_over_budget != 0)
        problems.push_back("packets went over the budget");

    if (client_result.hostile_accepted != 0) problems.push_back("hostile packets were accepted");
    if (client_result.hostile_received == 0) problems.push_back("no hostile packet arrived");
    if (hostile_result.send_failures != 0) problems.push_back("the hostile sender could not send");
    if (!svg_ok) problems.push_back("the chart was not written");
    if (!opt.record_path.empty())
        std::printf("recording: %zu frames of %zu cubes in %s\n", server_result.snapshots + 1, cube_count,
                    opt.record_path.c_str());
    if (!opt.pcap_path.empty()) std::printf("capture: %s\n", opt.pcap_path.c_str());
    for (const std::string& n : client_result.notes) problems.push_back("client: " + n);

    for (const std::string& p : problems) std::printf("problem: %s\n", p.c_str());
    std::printf("\nresult: %s\n", problems.empty() ? "PASS" : "FAIL");
    return problems.empty() ? 0 : 1;
}

} // namespace
} // namespace snapshot

int main(int argc, char** argv) {
    snapshot::options opt;
    if (!snapshot::parse(argc, argv, opt)) return 2;
    try {
        return snapshot::run(opt);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "snapshot: %s\n", e.what());
        return 1;
    }
}
