// A snapshot session over a real transport: one server and 8 clients over ENet on
// 127.0.0.1, in one process and one thread that services every host in turn.
//
// Clients join one after another, each behind its own simulated path (loss for
// unreliable packets, latency both ways). A joining client says hello; its first
// snapshot is a delta against the initial baseline, sent reliably (ENet fragments it);
// once it acks that, it gets a budgeted delta every tick, unreliable, against the
// newest snapshot it acked. Every snapshot a client accepts is checked bit for bit
// against what the server recorded it would hold. Exit code 1 on any mismatch, any
// packet over the budget, any packet that fails to read, or a client that never joined.
//
//   session [--seconds S] [--clients N] [--budget BYTES] [--seed N]

#include "client.hpp"
#include "server.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <numbers>
#include <string>
#include <thread>
#include <vector>

namespace session {
namespace {

struct options {
    double seconds = 10;
    std::size_t clients = 8;
    std::size_t budget = max_budget;
    std::uint32_t seed = 1;
};

bool parse(int argc, char** argv, options& opt) {
    const auto number = [](const char* text, double low, double high, double& out) {
        char* end = nullptr;
        out = std::strtod(text, &end);
        return end != text && *end == '\0' && out >= low && out <= high;
    };
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string arg = argv[i];
        double v = 0;
        if (arg == "--seconds" && number(argv[i + 1], 0.5, 3600, v)) opt.seconds = v;
        else if (arg == "--clients" && number(argv[i + 1], 1, 63, v)) opt.clients = static_cast<std::size_t>(v);
        else if (arg == "--budget" && number(argv[i + 1], 64, max_budget, v)) opt.budget = static_cast<std::size_t>(v);
        else if (arg == "--seed" && number(argv[i + 1], 0, 4294967295.0, v)) opt.seed = static_cast<std::uint32_t>(v);
        else return false;
    }
    return argc % 2 == 1;
}

// Client i joins at i * 0.4 s (sooner in short runs), loses 0 to 10 % of the unreliable
// packets each way, waits 0 to 80 ms each way, and looks at a point on a circle.
client_config config_of(std::size_t i, const options& opt) {
    const double n = static_cast<double>(opt.clients), last = std::max(1.0, n - 1);
    const double angle = 2 * std::numbers::pi * static_cast<double>(i) / n;
    client_config c;
    c.index = i;
    c.join_at = static_cast<double>(i) * std::min(0.4, opt.seconds / (2 * n));
    c.loss = 0.10 * static_cast<double>(i) / last;
    c.latency = std::chrono::milliseconds(std::lround(80.0 * static_cast<double>(i * 3 % opt.clients) / last));
    c.poi_x = static_cast<float>(40 * std::cos(angle));
    c.poi_y = static_cast<float>(40 * std::sin(angle));
    c.budget = opt.budget;
    return c;
}

int run(const options& opt) {
    Ledger ledger(opt.clients);
    Server server(opt.seed, opt.budget, ledger);
    const World initial = Simulation::initial(opt.seed);
    std::vector<std::unique_ptr<Client>> clients;
    for (std::size_t i = 0; i < opt.clients; ++i)
        clients.push_back(std::make_unique<Client>(config_of(i, opt), initial, ledger));

    std::printf("session: %zu clients over ENet on 127.0.0.1:%u, %g s, %d snapshots/s, budget %zu bytes, seed %u\n",
                opt.clients, server.address().port, opt.seconds, ticks_per_second, opt.budget, opt.seed);
    std::printf("world: %zu units (marching 2 s, halting 1 s), up to %zu players coming and going (keyed by id)\n\n",
                unit_count, max_players);

    const auto start = clock::now(), end = start + std::chrono::duration_cast<clock::duration>(
                                                           std::chrono::duration<double>(opt.seconds));
    const auto tick = std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(1.0 / ticks_per_second));
    auto next_tick = start;
    for (auto now = start; now < end; now = clock::now()) {
        for (auto& c : clients) c->service(start, now, server.address());
        server.service();
        if (now >= next_tick) {
            server.tick();
            next_tick = std::max(next_tick + tick, now - tick); // a late tick does not make a burst
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }

    std::printf("client  join_s  loss_%%  latency_ms  first_bytes  packets  dropped    kbps  over_budget  accepted"
                "  missing_baseline  baseline_mismatch  errors  mismatches  full  lag\n");
    client_stats total;
    std::size_t joined = 0;
    double kbps_total = 0;
    for (const auto& c : clients) {
        const client_stats& s = c->stats();
        const double connected = s.connected ? std::chrono::duration<double>(end - s.connected_at).count() : 0;
        const double kbps = connected > 0 ? static_cast<double>(s.bytes) * 8 / connected / 1000 : 0;
        std::printf("%6zu  %6.2f  %6.1f  %10lld  %11zu  %7zu  %7zu  %6.1f  %11zu  %8zu  %16zu  %17zu  %6zu  %10zu  %4zu  %3zu\n",
                    c->config().index, c->config().join_at, 100 * c->config().loss,
                    static_cast<long long>(c->config().latency.count()), s.join_bytes, s.packets, c->dropped(), kbps, s.over_budget,
                    s.accepted, s.missing_baseline, s.baseline_mismatch, s.errors, s.mismatches, s.full, s.lag);
        joined += s.joined ? 1 : 0;
        kbps_total += kbps;
        total.packets += s.packets, total.over_budget += s.over_budget, total.accepted += s.accepted;
        total.missing_baseline += s.missing_baseline, total.baseline_mismatch += s.baseline_mismatch;
        total.errors += s.errors, total.mismatches += s.mismatches, total.lag = std::max(total.lag, s.lag);
    }
    std::printf("(packets: snapshots delivered to the client; dropped: by its simulated path, snapshots and acks;\n"
                " full: snapshots that were the server's whole state; lag: most snapshots in a row behind it)\n");
    const server_stats& sv = server.stats();
    std::printf("\ntotal: %zu of %zu clients joined, %zu packets, %.1f kbps, %zu over budget, %zu accepted, "
                "%zu missing_baseline, %zu baseline_mismatch, %zu errors, %zu mismatches, lag at most %zu packets\n",
                joined, opt.clients, total.packets, kbps_total, total.over_budget, total.accepted,
                total.missing_baseline, total.baseline_mismatch, total.errors, total.mismatches, total.lag);
    std::printf("server: %zu snapshots, %zu late joins (largest first snapshot %zu bytes, reliable), %zu deltas "
                "(largest %zu bytes, %zu over budget), %zu changes sent, %zu deferred, %zu acks, %zu foreign, "
                "%zu write failures\n",
                sv.snapshots, sv.late_joins, sv.join_bytes_max, sv.deltas, sv.largest_delta, sv.over_budget,
                sv.sent_changes, sv.deferred, sv.acks, sv.foreign, sv.write_failures);

    const auto percent = [](std::size_t part, std::size_t whole) {
        return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
    };
    std::printf("priority: after each delta, %.1f%% of the units within %g m of the client's point of interest "
                "were behind the full state, %.1f%% of the others\n",
                percent(sv.near_behind, sv.near), static_cast<double>(near_distance), percent(sv.far_behind, sv.far));

    const bool pass = joined == opt.clients && total.mismatches == 0 && total.over_budget == 0 && total.errors == 0 &&
                      sv.over_budget == 0 && sv.foreign == 0 && sv.write_failures == 0;
    std::printf("result: %s\n", pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
}

} // namespace
} // namespace session

int main(int argc, char** argv) {
    session::options opt;
    if (!session::parse(argc, argv, opt)) {
        std::fprintf(stderr, "usage: session [--seconds S] [--clients N] [--budget BYTES] [--seed N]\n"
                             "  --seconds S     run time (default 10, at least 0.5)\n"
                             "  --clients N     clients, 1 to 63 (default 8)\n"
                             "  --budget BYTES  bytes per delta packet, 64 to 1200 (default 1200)\n"
                             "  --seed N        the world's seed (default 1)\n");
        return 2;
    }
    if (enet_initialize() != 0) {
        std::fprintf(stderr, "session: cannot initialize ENet\n");
        return 1;
    }
    int rc = 1;
    try {
        rc = session::run(opt);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "session: %s\n", e.what());
    }
    enet_deinitialize();
    return rc;
}
