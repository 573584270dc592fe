#include "server.hpp"

#include <netser/packet_kind.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace session {

namespace {

// Which changes go first when a snapshot's do not all fit the budget: players above
// all (few, and what a player looks at), then units by closeness to the client's point
// of interest, moving ones twice as much. delta_budget adds these to a score per
// element that only sending resets, so the far units go too, later.
struct interest {
    float x, y;

    double operator()(const Player&) const noexcept { return 1000.0; }
    double operator()(const Unit& u) const noexcept {
        const double distance = std::hypot(static_cast<double>(u.x - x), static_cast<double>(u.y - y));
        return (u.moving ? 2.0 : 1.0) * 16.0 / (1.0 + distance / 8.0);
    }
};

} // namespace

Server::Server(std::uint32_t seed, std::size_t budget, Ledger& ledger)
    : world_(seed), initial_(Simulation::initial(seed)), budget_(budget), ledger_(ledger), packet_(budget) {
    ENetAddress address{};
    enet_address_set_host_ip(&address, "127.0.0.1");
    address.port = 0; // any free port
    host_ = enet_host_create(&address, 64, channel_count, 0, 0);
    if (host_ == nullptr || enet_socket_get_address(host_->socket, &host_->address) != 0)
        throw std::runtime_error("cannot create the ENet server host");
}

Server::~Server() { enet_host_destroy(host_); }

void Server::service() {
    ENetEvent event;
    while (enet_host_service(host_, &event, 0) > 0) {
        if (event.type == ENET_EVENT_TYPE_CONNECT) {
            // The simulated loss is the only loss: ENet's throttle never drops a packet.
            enet_peer_throttle_configure(event.peer, ENET_PEER_PACKET_THROTTLE_INTERVAL,
                                         ENET_PEER_PACKET_THROTTLE_SCALE, 0);
        } else if (event.type == ENET_EVENT_TYPE_RECEIVE) {
            receive(event.peer, {reinterpret_cast<const std::byte*>(event.packet->data), event.packet->dataLength});
            enet_packet_destroy(event.packet);
        } else if (event.type == ENET_EVENT_TYPE_DISCONNECT) {
            std::erase_if(remotes_, [&](const auto& r) { return r.first == event.peer; });
        }
    }
}

void Server::receive(ENetPeer* peer, std::span<const std::byte> bytes) {
    const auto it = std::find_if(remotes_.begin(), remotes_.end(), [&](const auto& r) { return r.first == peer; });
    switch (netser::packet_kind_of<netser::ack_message, Hello>(bytes).value_or(2)) {
    case 0: {
        netser::ack_message ack;
        if (it == remotes_.end() || netser::read_packet(bytes, ack)) break;
        netser::apply_ack(it->second->ring, ack);
        ++stats_.acks;
        return;
    }
    case 1: {
        Hello hello;
        if (it != remotes_.end() || netser::read_packet(bytes, hello) || hello.client >= ledger_.clients()) break;
        remotes_.emplace_back(peer, std::make_unique<remote>(initial_, budget_, hello));
        return;
    }
    default:
        break;
    }
    ++stats_.foreign;
}

void Server::tick() {
    world_.step();
    sequence_ = netser::next_sequence(sequence_);
    ++stats_.snapshots;
    for (auto& [peer, r] : remotes_) send(*r, peer, sequence_);
    enet_host_flush(host_);
}

void Server::send(remote& r, ENetPeer* peer, std::uint16_t sequence) {
    const World& now = world_.snapshot();
    if (!r.join_sent) {
        // Late join: the whole state against the initial baseline, reliable.
        const auto written = netser::write_delta_packet(join_packet_, sequence, now, r.ring.initial());
        if (written.error || r.ring.put(sequence, now) == nullptr) {
            ++stats_.write_failures;
            return;
        }
        ledger_.record(r.client, sequence, now, true);
        enet_peer_send(peer, reliable_channel,
                       enet_packet_create(written.bytes.data(), written.bytes.size(), ENET_PACKET_FLAG_RELIABLE));
        r.join_sent = true;
        ++stats_.late_joins;
        stats_.join_bytes_max = std::max(stats_.join_bytes_max, written.bytes.size());
        return;
    }
    const auto& baseline = r.ring.newest_acked();
    if (baseline.sequence == netser::initial_sequence) return; // the join snapshot is not acked yet

    const auto written = r.budget.write(packet_, sequence, now, baseline, held_, interest{r.poi_x, r.poi_y});
    if (written.error || r.ring.put(sequence, held_) == nullptr) {
        ++stats_.write_failures;
        return;
    }
    ledger_.record(r.client, sequence, held_, same_world(held_, now));
    enet_peer_send(peer, unreliable_channel, enet_packet_create(written.bytes.data(), written.bytes.size(), 0));
    ++stats_.deltas;
    stats_.largest_delta = std::max(stats_.largest_delta, written.bytes.size());
    if (written.bytes.size() > budget_) ++stats_.over_budget;
    stats_.sent_changes += written.sent;
    stats_.deferred += written.deferred;
    for (std::size_t i = 0; i < unit_count; ++i) {
        const Unit& u = now.units[i];
        const bool near = std::hypot(u.x - r.poi_x, u.y - r.poi_y) < near_distance;
        const bool behind = !same_unit(held_.units[i], u);
        (near ? stats_.near : stats_.far) += 1;
        (near ? stats_.near_behind : stats_.far_behind) += behind ? 1 : 0;
    }
}

} // namespace session
