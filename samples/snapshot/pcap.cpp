#include "pcap.hpp"

#include <boost/endian/conversion.hpp>

#include <array>

namespace snapshot {

namespace {

constexpr std::uint32_t link_type_raw = 101; // LINKTYPE_RAW: records start with the IP header
constexpr std::size_t ip_header = 20, udp_header = 8;

// The IPv4 header checksum: the ones' complement of the ones' complement sum of its
// 16-bit words (RFC 791).
std::uint16_t ip_checksum(const unsigned char* header) {
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < ip_header; i += 2) sum += std::uint32_t{header[i]} << 8 | header[i + 1];
    while (sum >> 16) sum = (sum & 0xFFFFu) + (sum >> 16);
    return static_cast<std::uint16_t>(~sum & 0xFFFFu);
}

} // namespace

pcap_writer::pcap_writer(const std::string& path) : out_(path, std::ios::binary) {
    // The classic pcap file header, little-endian (readers detect the order from the magic).
    unsigned char h[24];
    boost::endian::store_little_u32(h, 0xA1B2C3D4u);
    boost::endian::store_little_u16(h + 4, 2);
    boost::endian::store_little_u16(h + 6, 4);
    boost::endian::store_little_u32(h + 8, 0);      // GMT offset
    boost::endian::store_little_u32(h + 12, 0);     // timestamp accuracy
    boost::endian::store_little_u32(h + 16, 65535); // snapshot length
    boost::endian::store_little_u32(h + 20, link_type_raw);
    out_.write(reinterpret_cast<const char*>(h), sizeof h);
}

void pcap_writer::write(const net::udp::endpoint& from, const net::udp::endpoint& to,
                        std::span<const std::byte> payload) {
    const std::lock_guard lock(mutex_);
    const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(since_epoch).count();
    const std::size_t length = ip_header + udp_header + payload.size();
    if (length > 65535) return;

    unsigned char record[16];
    boost::endian::store_little_u32(record, static_cast<std::uint32_t>(us / 1000000));
    boost::endian::store_little_u32(record + 4, static_cast<std::uint32_t>(us % 1000000));
    boost::endian::store_little_u32(record + 8, static_cast<std::uint32_t>(length));
    boost::endian::store_little_u32(record + 12, static_cast<std::uint32_t>(length));

    std::array<unsigned char, ip_header + udp_header> h{};
    h[0] = 0x45; // IPv4, 5 words of header
    boost::endian::store_big_u16(h.data() + 2, static_cast<std::uint16_t>(length));
    boost::endian::store_big_u16(h.data() + 4, ip_id_++);
    boost::endian::store_big_u16(h.data() + 6, 0x4000); // don't fragment
    h[8] = 64;                                           // time to live
    h[9] = 17;                                           // UDP
    boost::endian::store_big_u32(h.data() + 12, from.address().to_v4().to_uint());
    boost::endian::store_big_u32(h.data() + 16, to.address().to_v4().to_uint());
    boost::endian::store_big_u16(h.data() + 10, ip_checksum(h.data()));
    boost::endian::store_big_u16(h.data() + 20, from.port());
    boost::endian::store_big_u16(h.data() + 22, to.port());
    boost::endian::store_big_u16(h.data() + 24, static_cast<std::uint16_t>(udp_header + payload.size()));
    // UDP checksum 0: "not computed", allowed over IPv4.

    out_.write(reinterpret_cast<const char*>(record), sizeof record);
    out_.write(reinterpret_cast<const char*>(h.data()), static_cast<std::streamsize>(h.size()));
    out_.write(reinterpret_cast<const char*>(payload.data()), static_cast<std::streamsize>(payload.size()));
    ++records_;
}

} // namespace snapshot
