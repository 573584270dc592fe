// Compiled with NETSER_DISABLE_CHECKS (tests/CMakeLists.txt): check attributes put no
// bits on the wire and leave no trace in the schema hash; nothing else changes, and the
// end-of-packet check, part of the packet format, stays.
//
// The rest of the executable is compiled with checks on, so this TU uses only its own
// types (checks_off::*): no netser template is instantiated on the same types with the
// two settings. It does not include packet_types.hpp for the same reason, and calls
// schema_hash only in constant expressions (its helpers are keyed on attribute types,
// which both settings share).

#if !defined(NETSER_DISABLE_CHECKS)
#error "check_disabled_test.cpp must be compiled with NETSER_DISABLE_CHECKS"
#endif

#include "core/test_util.hpp"

#include <netser/netser.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace checks_off {

// check_test.cpp's Sectioned, same name and members, compiled here without checks.
struct Sectioned {
    std::uint8_t header = 0;
    std::uint16_t body = 0;
    bool operator==(const Sectioned&) const = default;
};
NETSER_STRUCT(Sectioned, (header, netser::range(0, 7)), (body, netser::check("section"), netser::range(0, 1000)))

// The same struct with another check name...
namespace renamed {
struct Sectioned {
    std::uint8_t header = 0;
    std::uint16_t body = 0;
    bool operator==(const Sectioned&) const = default;
};
NETSER_STRUCT(Sectioned, (header, netser::range(0, 7)), (body, netser::check("other"), netser::range(0, 1000)))
} // namespace renamed

// ...and without any check.
namespace plain {
struct Sectioned {
    std::uint8_t header = 0;
    std::uint16_t body = 0;
    bool operator==(const Sectioned&) const = default;
};
NETSER_STRUCT(Sectioned, (header, netser::range(0, 7)), (body, netser::range(0, 1000)))
} // namespace plain

} // namespace checks_off

namespace {

using netser_test::exact_block;
using netser_test::hex;

template <class T>
std::vector<std::byte> packet_of(const T& msg) {
    std::vector<std::byte> buffer(netser::max_packet_bytes<T>());
    const netser::packet_write_result w = netser::write_packet(std::span<std::byte>(buffer), msg);
    REQUIRE_FALSE(w.error);
    return {w.bytes.begin(), w.bytes.end()};
}

} // namespace

TEST_CASE("NETSER_DISABLE_CHECKS turns checks off", "[check][disabled]") {
    STATIC_REQUIRE_FALSE(netser::checks_enabled);
}

TEST_CASE("with checks disabled a check attribute puts no bits on the wire", "[check][disabled]") {
    std::vector<std::byte> buffer(16);
    netser::write_stream w{std::span<std::byte>(buffer)};
    const checks_off::Sectioned value{5, 777};
    REQUIRE(netser::serialize(w, value));
    CHECK(w.bits_processed() == 3 + 10);
    CHECK(hex(w.finish()) == "4D 18"); // 5 | 777 << 3, no align, no magic

    netser::measure_stream m;
    REQUIRE(netser::serialize(m, value));
    CHECK(m.bits_processed() == 13);
    STATIC_REQUIRE(netser::max_bits<checks_off::Sectioned>() == 13);
    STATIC_REQUIRE(netser::max_bits<checks_off::Sectioned>() == netser::max_bits<checks_off::plain::Sectioned>());
}

TEST_CASE("with checks disabled a check attribute leaves no trace in the schema hash", "[check][disabled]") {
    constexpr std::uint32_t with_check = netser::schema_hash<checks_off::Sectioned>();
    constexpr std::uint32_t renamed = netser::schema_hash<checks_off::renamed::Sectioned>();
    constexpr std::uint32_t without = netser::schema_hash<checks_off::plain::Sectioned>();
    STATIC_REQUIRE(with_check == without);
    STATIC_REQUIRE(renamed == without);
    STATIC_REQUIRE(without == 0x3CDBCD6Cu);    // golden: the struct without check attributes
    STATIC_REQUIRE(with_check != 0x38F8A6E2u); // check_test.cpp's golden, with the check on
}

TEST_CASE("with checks disabled packets keep their CRC and end-of-packet check", "[check][disabled][packet]") {
    const std::vector<std::byte> packet = packet_of(checks_off::Sectioned{5, 777});
    CHECK(packet.size() == 4 + 2 + 4);
    CHECK(packet == packet_of(checks_off::plain::Sectioned{5, 777}));
    // 13 payload bits: the end value is 0x4724C6F4 ^ 13 = 0x4724C6F9.
    CHECK(hex(std::span<const std::byte>(packet).subspan(4)) == "4D 18 F9 C6 24 47");

    // The check names are gone: a reader with another name reads the packet.
    checks_off::renamed::Sectioned got;
    const exact_block block(packet);
    REQUIRE_FALSE(netser::read_packet(block.span(), got));
    CHECK(got == checks_off::renamed::Sectioned{5, 777});

    // The end-of-packet check still runs: change its magic, re-CRC, and the read fails there.
    std::vector<std::byte> forged = packet;
    forged[9] ^= std::byte{0x01};
    // schema_hash only in constant expressions here: see the note at the top.
    constexpr std::uint32_t id = netser::schema_hash<checks_off::Sectioned>();
    const std::uint32_t crc = netser::detail::packet_crc(id, std::span<const std::byte>(forged).subspan(4));
    for (std::size_t i = 0; i < 4; ++i) forged[i] = static_cast<std::byte>(crc >> (8 * i));
    checks_off::Sectioned got2;
    const exact_block forged_block(forged);
    const netser::error e = netser::read_packet(forged_block.span(), got2);
    CHECK(e.code == netser::errc::check_failed);
    CHECK(e.bit == 32 + 3 + 10); // the end check's first bit, before its align padding
}
