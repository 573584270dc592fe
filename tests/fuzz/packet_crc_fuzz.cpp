// Whole packets through netser::read_packet, with the CRC recomputed and patched in
// first. Without the patch a random mutation passes the CRC-32 once in 2^32 tries, so
// the fuzzer would never see the payload and end-of-packet checks behind it; with it,
// every mutation reaches them. The CRC is computed here from the documented layout
// (fuzz_common.hpp), so a packet the library refuses with bad_crc is a finding too.
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    netser_fuzz::visit_type(data[0] % netser_fuzz::type_count, [&]<class T>(std::type_identity<T>) {
        const std::string_view type = netser_fuzz::type_names[data[0] % netser_fuzz::type_count];
        auto packet = netser_fuzz::packet_of(data, size);
        if (packet.size() >= 4) netser_fuzz::store_crc(packet.span(), netser_fuzz::packet_crc<T>(packet.span()));
        T value{};
        const netser::error e = netser::read_packet(packet.span(), value);
        if (e.code == netser::errc::bad_crc) netser_fuzz::finding("a packet with a patched CRC is refused with bad_crc", type, &e);
        if (e.code == netser::errc::none) {
            netser_fuzz::check_read_value(value, packet.size() * 8, packet.size() * 8, type);
            // read_packet refuses trailing bytes: a success consumed the whole packet.
            std::vector<std::byte> again(packet.size() + 16);
            const auto w = netser::write_packet(std::span<std::byte>(again), value);
            if (w.error) netser_fuzz::finding("a packet that read successfully does not write back", type, &w.error);
        } else if (e.bit > packet.size() * 8) {
            netser_fuzz::finding("a failed packet read reports a bit past its end", type, &e);
        }
    });
    return 0;
}
