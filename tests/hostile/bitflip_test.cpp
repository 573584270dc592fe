// Every single-bit flip of valid packets of every type: no crash, no access outside
// the exactly sized block (ASan / valgrind), and either a failure or values inside
// their declared ranges, within the allocation bound. Through read_packet the same
// flips never get past the CRC.
#include "hostile/hostile_types.hpp"

#include "fuzz/fuzz_common.hpp"

namespace hostile {

TEST_CASE("every single-bit flip fails or decodes within the declared ranges", "[hostile][flip]") {
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        std::size_t failed = 0, decoded = 0;
        for (std::uint64_t seed = 0; seed < 8; ++seed) {
            const packet p = write_value(make_value<T>(seed, seed < 4 ? size_mode::small : size_mode::full));
            for (std::size_t bit = 0; bit < p.bytes.size() * 8; ++bit) {
                INFO(type_names[index] << " seed " << seed << ": bit " << bit << " of " << p.bits);
                auto flipped = p.bytes;
                flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
                const auto r = read_value<T>(flipped);
                check_hostile_read(r, flipped.size());
                ++(r.error ? failed : decoded);
            }
        }
        // Both branches of check_hostile_read ran: flips that fail and flips that decode.
        INFO(type_names[index] << ": " << failed << " flips failed, " << decoded << " decoded");
        CHECK(failed > 0);
        CHECK(decoded > 0);
    });
}

TEST_CASE("every single-bit flip behind a patched CRC fails or decodes within the ranges", "[hostile][flip]") {
    // The CRC recomputed after the flip, as packet_crc_fuzz does: the flip reaches the
    // payload, the end-of-packet check and the trailing-bytes check of read_packet.
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        for (std::uint64_t seed = 0; seed < 3; ++seed) {
            const auto bytes = write_packet_value(make_value<T>(seed, size_mode::small));
            for (std::size_t bit = 32; bit < bytes.size() * 8; ++bit) {
                INFO(type_names[index] << " seed " << seed << ": bit " << bit);
                auto flipped = bytes;
                flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
                netser_fuzz::store_crc(flipped, netser_fuzz::packet_crc<T>(flipped));
                const auto r = read_packet_value<T>(flipped);
                CHECK(r.error.code != netser::errc::bad_crc);
                CHECK(r.heap.bytes <= heap_bound<T>(flipped.size() * 8));
                if (!r.error) {
                    if constexpr (std::is_same_v<T, Node> || std::is_same_v<T, Chain>) CHECK(satisfies_declared(r.value, 64));
                    else CHECK(satisfies_declared(r.value));
                }
            }
            // A byte after the end check, CRC patched: refused as trailing bytes.
            auto longer = bytes;
            longer.push_back(std::byte{0});
            netser_fuzz::store_crc(longer, netser_fuzz::packet_crc<T>(longer));
            CHECK(read_packet_value<T>(longer).error.code == netser::errc::invalid_value);
        }
    });
}

} // namespace hostile
