// Whole packets through netser::read_packet, as they arrive: the CRC is whatever the
// input says, so almost every input stops at the CRC. What this target checks is the
// gate itself: read_packet reports bad_crc exactly when the stored CRC differs from the
// CRC computed here from the documented layout, and never decodes such a packet.
// packet_crc_fuzz patches the CRC first, to fuzz what lies behind the gate.
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    netser_fuzz::visit_type(data[0] % netser_fuzz::type_count, [&]<class T>(std::type_identity<T>) {
        const std::string_view type = netser_fuzz::type_names[data[0] % netser_fuzz::type_count];
        const auto packet = netser_fuzz::packet_of(data, size);
        T value{};
        const netser::error e = netser::read_packet(packet.span(), value);
        if (packet.size() < 4) {
            if (e.code != netser::errc::overflow) netser_fuzz::finding("a packet shorter than its CRC is not overflow", type, &e);
            return;
        }
        const bool crc_ok = netser_fuzz::stored_crc(packet.span()) == netser_fuzz::packet_crc<T>(packet.span());
        if (!crc_ok && e.code != netser::errc::bad_crc)
            netser_fuzz::finding("a packet with a wrong CRC is not refused with bad_crc", type, &e);
        if (crc_ok && e.code == netser::errc::bad_crc)
            netser_fuzz::finding("a packet with the right CRC is refused with bad_crc", type, &e);
        if (!e) netser_fuzz::check_read_value(value, packet.size() * 8, packet.size() * 8, type);
    });
    return 0;
}
