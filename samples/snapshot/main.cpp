// The main demo: a snapshot stream of 901 cubes over real UDP on 127.0.0.1.
//
// Three threads, three sockets: the server simulates the cubes and sends 60
// snapshots a second, each cut into slices of at most 1200 bytes; the client decodes
// them with netser::read_packet and checks every cube against the server's state; a
// hostile sender fires noise, damaged copies, foreign and forged packets at the
// client the whole time. The report compares three encodings of the same cubes,
// shows where the bits go (netser::profile_stream), and fails the run (exit code 1)
// unless every cube verified and every hostile packet was rejected.
//
//   snapshot [--seconds S] [--svg PATH] [--verbose]

#include "demo.hpp"

#include <algorithm>
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
    std::printf("usage: snapshot [--seconds S] [--svg PATH] [--verbose]\n"
                "  --seconds S   run time in seconds, fractions allowed (default 5)\n"
                "  --svg PATH    where to write the bit budget chart (default snapshot_budget.svg)\n"
                "  --verbose     print one decoded snapshot slice with netser::to_string\n");
}

bool parse(int argc, char** argv, options& opt) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--seconds" && has_value) {
            char* end = nullptr;
            opt.seconds = std::strtod(argv[++i], &end);
            if (end == argv[i] || *end != '\0' || !(opt.seconds > 0.0 && opt.seconds <= 3600.0)) {
                std::fprintf(stderr, "snapshot: --seconds needs a number in (0, 3600]\n");
                return false;
            }
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

void print_stages(const server_report& s) {
    const stage_stats& raw = s.stages[0];
    std::printf("\nencoding stages, mean over %zu snapshots of %zu cubes "
                "(bytes include each packet's CRC and end check)\n",
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
    const stage_stats& sent = s.stages[2];
    std::printf("  sent stage per snapshot: %zu to %zu bytes; largest packet %zu bytes (limit %zu)\n",
                sent.min_bytes, sent.max_bytes, sent.largest_packet, packet_budget);
}

void print_sample(const SnapshotSlice& slice) {
    // A whole slice is 82 cubes; show the first moving cube with its neighbours.
    const auto moving =
        std::find_if(slice.cubes.begin(), slice.cubes.end(), [](const CubeState& c) { return c.interacting; });
    const std::size_t at = static_cast<std::size_t>(moving - slice.cubes.begin());
    const std::size_t from = at == 0 ? 0 : at - 1, count = std::min<std::size_t>(3, slice.cubes.size() - from);
    SnapshotSlice shown{slice.sequence, static_cast<std::uint16_t>(slice.first_cube + from),
                        {slice.cubes.begin() + static_cast<std::ptrdiff_t>(from),
                         slice.cubes.begin() + static_cast<std::ptrdiff_t>(from + count)}};
    std::string text = netser::to_string(shown);
    // One cube per line.
    for (std::size_t p = 0; (p = text.find("CubeState{", p)) != std::string::npos; p += 15) {
        if (text.compare(p - 2, 2, ", ") == 0) text.erase(--p, 1);
        text.insert(p, "\n    ");
    }
    std::printf("\none decoded slice (--verbose), netser::to_string; %zu of its %zu cubes shown, from cube %zu:\n%s\n",
                count, slice.cubes.size(), std::size_t{shown.first_cube}, text.c_str());
}

void print_verification(const client_report& c, std::size_t snapshots) {
    std::printf("\nverification: %zu cubes checked, %zu mismatches\n", c.cubes_checked, c.mismatches);
    std::printf("  %zu of %zu snapshots arrived complete\n", c.complete_snapshots, snapshots);
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
    std::printf("\n  rejected by read_packet:");
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

    std::printf("netser snapshot demo: %zu cubes, %zu snapshots a second for %g s, UDP on 127.0.0.1\n", cube_count,
                snapshots_per_second, opt.seconds);
    std::printf("  server %s -> client %s <- hostile sender %s\n", net::to_string(server).c_str(),
                net::to_string(client).c_str(), net::to_string(hostile_socket.local_endpoint()).c_str());
    std::fflush(stdout);

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

    print_stages(server_result);
    std::printf("\nsimulation: %zu snapshots, %zu cubes moved (peak %zu at once), %zu moving at the end, "
                "state hash %08x\n",
                server_result.snapshots, server_result.ever_moved, server_result.peak_moving,
                server_result.moving_at_end, server_result.state_hash);
    std::printf("  cubes differing from %zu frames earlier: mean %.1f (min %zu, max %zu) over %zu snapshots\n",
                server_result.change_distance, server_result.changed_mean, server_result.changed_min,
                server_result.changed_max, server_result.change_frames);
    std::printf("  physics step: mean %.3f ms, max %.3f ms\n", server_result.step_mean_ms, server_result.step_max_ms);
    std::printf("real packets: %zu sent, %zu received, %zu accepted, %zu rejected\n", server_result.packets_sent,
                client_result.real_received, client_result.real_accepted, client_result.real_rejected);
    if (opt.verbose && client_result.sample) print_sample(*client_result.sample);
    print_verification(client_result, server_result.snapshots);
    print_hostile(client_result, hostile_result);

    std::printf("\nbit budget of the sent stage: netser::profile_stream over %zu packets (payload bits, "
                "without CRC and end check)\n",
                server_result.budget.packets());
    std::fflush(stdout);
    server_result.budget.print_table(std::cout);
    std::cout.flush();
    std::ofstream svg(opt.svg_path);
    if (svg) server_result.budget.write_svg(svg, "netser snapshot demo: bits per slice packet");
    svg.close();
    const bool svg_ok = static_cast<bool>(svg);
    if (svg_ok) std::printf("bit budget chart: %s\n", opt.svg_path.c_str());
    else std::printf("bit budget chart: could not write %s\n", opt.svg_path.c_str());

    std::vector<std::string> problems;
    if (server_result.failures != 0) problems.push_back("server: " + server_result.first_failure);
    if (client_result.real_accepted == 0) problems.push_back("no real packet was accepted");
    if (client_result.real_rejected != 0) problems.push_back("real packets were rejected");
    if (client_result.mismatches != 0) problems.push_back("cubes out of their quantization bounds");
    if (client_result.hostile_accepted != 0) problems.push_back("hostile packets were accepted");
    if (client_result.hostile_received == 0) problems.push_back("no hostile packet arrived");
    if (hostile_result.send_failures != 0) problems.push_back("the hostile sender could not send");
    if (!svg_ok) problems.push_back("the chart was not written");
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
