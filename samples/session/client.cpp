#include "client.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace session {

Client::Client(const client_config& config, const World& initial, Ledger& ledger)
    : config_(config), ledger_(ledger),
      in_(config.loss * 100, config.latency, static_cast<std::uint32_t>(2 * config.index + 1)),
      out_(config.loss * 100, config.latency, static_cast<std::uint32_t>(2 * config.index + 2)),
      ring_(ring_capacity, initial) {
    host_ = enet_host_create(nullptr, 1, channel_count, 0, 0);
    if (host_ == nullptr) throw std::runtime_error("cannot create an ENet client host");
}

Client::~Client() { enet_host_destroy(host_); }

void Client::service(clock::time_point start, clock::time_point now, const ENetAddress& server) {
    if (peer_ == nullptr) {
        if (now - start < std::chrono::duration<double>(config_.join_at)) return;
        peer_ = enet_host_connect(host_, &server, channel_count, 0);
        if (peer_ == nullptr) throw std::runtime_error("cannot connect an ENet client");
    }
    ENetEvent event;
    while (enet_host_service(host_, &event, 0) > 0) {
        if (event.type == ENET_EVENT_TYPE_CONNECT) {
            stats_.connected = true;
            stats_.connected_at = now;
            send(Hello{static_cast<std::uint8_t>(config_.index), config_.poi_x, config_.poi_y}, reliable_channel, now);
        } else if (event.type == ENET_EVENT_TYPE_RECEIVE) {
            const bool reliable = (event.packet->flags & ENET_PACKET_FLAG_RELIABLE) != 0;
            in_.push({reinterpret_cast<const std::byte*>(event.packet->data), event.packet->dataLength}, now,
                     event.channelID, !reliable);
            enet_packet_destroy(event.packet);
        }
    }
    in_.flush(now, [&](std::span<const std::byte> bytes, std::uint8_t channel) { read(bytes, channel, now); });
    out_.flush(now, [&](std::span<const std::byte> bytes, std::uint8_t channel) {
        const enet_uint32 flags = channel == reliable_channel ? ENET_PACKET_FLAG_RELIABLE : 0;
        enet_peer_send(peer_, channel, enet_packet_create(bytes.data(), bytes.size(), flags));
    });
    enet_host_flush(host_);
}

void Client::read(std::span<const std::byte> bytes, std::uint8_t channel, clock::time_point now) {
    ++stats_.packets;
    stats_.bytes += bytes.size();
    if (channel == unreliable_channel && bytes.size() > config_.budget) ++stats_.over_budget;

    netser::delta_header header;
    if (const netser::error e = netser::read_delta_packet(bytes, decoded_, ring_, &header)) {
        if (e.code == netser::errc::missing_baseline) ++stats_.missing_baseline;
        else if (e.code == netser::errc::baseline_mismatch) ++stats_.baseline_mismatch;
        else ++stats_.errors;
        return;
    }
    // Older than what it holds: ignored (ENet's sequencing drops these before).
    if (newest_ != netser::initial_sequence && !netser::sequence_newer(header.sequence, newest_)) return;
    // The late join: the first snapshot, reliable, against the initial baseline.
    if (!stats_.joined) {
        if (channel != reliable_channel || header.baseline != netser::initial_sequence) {
            ++stats_.errors;
            return;
        }
        stats_.joined = true;
        stats_.join_bytes = bytes.size();
    }
    ring_.put(header.sequence, decoded_);
    acks_.accepted(header.sequence);
    newest_ = header.sequence;
    ++stats_.accepted;

    const Ledger::expected* expected = ledger_.find(config_.index, header.sequence);
    if (expected == nullptr || !same_world(expected->held, decoded_)) {
        ++stats_.mismatches;
    } else if (expected->full) {
        ++stats_.full;
        behind_ = 0;
    } else {
        stats_.lag = std::max(stats_.lag, ++behind_);
    }
    ledger_.forget_through(config_.index, header.sequence);
    // The ack of the late-join snapshot goes reliably: the server sends nothing else
    // until it has it.
    send(acks_.ack(), channel, now);
}

template <class T>
void Client::send(const T& message, std::uint8_t channel, clock::time_point now) {
    std::vector<std::byte> packet;
    if (netser::write_packet(packet, message).error) throw std::runtime_error("a client message does not encode");
    out_.push(packet, now, channel, channel != reliable_channel);
}

} // namespace session
