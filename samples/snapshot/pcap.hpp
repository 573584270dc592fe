#pragma once

// --pcap FILE: the UDP datagrams the client's port received (real and hostile) and the
// acknowledgements it sent, as a standard pcap capture (link type RAW: each record an
// IPv4 header, a UDP header and the payload), for Wireshark or tshark with the
// dissector tools/netser_dissector.py generates.

#include "net.hpp"

#include <chrono>
#include <cstddef>
#include <fstream>
#include <mutex>
#include <span>
#include <string>

namespace snapshot {

class pcap_writer {
public:
    /// Opens path and writes the file header; check ok().
    explicit pcap_writer(const std::string& path);
    bool ok() const noexcept { return static_cast<bool>(out_); }
    /// One datagram from `from` to `to`, stamped with the wall clock.
    void write(const net::udp::endpoint& from, const net::udp::endpoint& to, std::span<const std::byte> payload);
    std::size_t records() const noexcept { return records_; }

private:
    std::mutex mutex_;
    std::ofstream out_;
    std::size_t records_ = 0;
    std::uint16_t ip_id_ = 0;
};

} // namespace snapshot
