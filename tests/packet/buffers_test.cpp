// The buffers users have: write_packet into a growable std::vector<std::byte>,
// read_packet from (const void*, size) as recvfrom gives it, reflected structs on a
// vector_write_stream, and an empty span (overflow).

#include "packet_types.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace packet_test;
using netser::errc;

/// Many small structs in a row: each is one packed run whose room is checked first.
struct Tick {
    std::uint16_t frame = 0;
    bool fire = false;
    std::int8_t turn = 0;
    bool operator==(const Tick&) const = default;
};
NETSER_STRUCT(Tick, (frame, netser::range(0, 1000)), fire, (turn, netser::range(-8, 7)))

} // namespace

TEST_CASE("write_packet into a std::vector gives the bytes of write_packet into a span", "[packet][buffers]") {
    for (const Message& m : sample_messages()) {
        const std::vector<std::byte> expected = packet_of(m);
        std::vector<std::byte> out; // empty: it grows
        const netser::packet_write_result w = netser::write_packet(out, m);
        REQUIRE_FALSE(w.error);
        CHECK(out == expected);
        CHECK(w.bytes.data() == out.data());
        CHECK(w.bytes.size() == out.size());

        // A vector kept from one packet to the next does not allocate again.
        const std::byte* const storage = out.data();
        REQUIRE_FALSE(netser::write_packet(out, m).error);
        CHECK(out.data() == storage);
        CHECK(out == expected);
    }
}

TEST_CASE("write_packet into a std::vector grows past its first sizes for a long message", "[packet][buffers]") {
    Join big{std::string(16, 'x'), Team::green, 100};
    Chat chat{5, std::string(120, 'y'), {1, 2, 3, 4}};
    std::vector<std::byte> out(3, std::byte{0xEE}); // small, and holding old bytes
    REQUIRE_FALSE(netser::write_packet(out, Message{chat}).error);
    CHECK(out == packet_of(Message{chat}));
    REQUIRE_FALSE(netser::write_packet(out, big).error);
    CHECK(out == packet_of(big)); // shorter than before: exactly the packet
}

TEST_CASE("write_packet into a std::vector leaves it empty when the message cannot be written", "[packet][buffers]") {
    std::vector<std::byte> out = packet_of(Ping{1, true});
    const netser::packet_write_result w = netser::write_packet(out, Join{std::string(17, 'x'), Team::red, 1});
    CHECK(w.error.code == errc::too_large);
    CHECK(w.error.bit == 32);
    CHECK(w.error.path() == "Join.name");
    CHECK(w.bytes.empty());
    CHECK(out.empty());
}

TEST_CASE("write_packet into an empty span fails with overflow at bit 0", "[packet][buffers]") {
    const netser::packet_write_result w = netser::write_packet(std::span<std::byte>{}, Ping{677, true});
    CHECK(w.error.code == errc::overflow);
    CHECK(w.error.bit == 0);
    CHECK(w.bytes.empty());
}

TEST_CASE("read_packet reads (const void*, size) as a socket gives them", "[packet][buffers]") {
    const std::vector<std::byte> packet = packet_of(Ping{677, true});
    unsigned char datagram[1500] = {}; // as recvfrom fills it (zeroed: the test reads one byte past the packet)
    std::memcpy(datagram, packet.data(), packet.size());
    const std::size_t received = packet.size();

    Ping got;
    REQUIRE_FALSE(netser::read_packet(datagram, received, got));
    CHECK(got == Ping{677, true});

    // The size is the packet's end: one byte more is a trailing byte, one less a bad CRC.
    CHECK(netser::read_packet(datagram, received + 1, got).code == errc::bad_crc);
    CHECK(netser::read_packet(datagram, received - 1, got).code == errc::bad_crc);
    CHECK(netser::read_packet(static_cast<const void*>(nullptr), 0, got).code == errc::overflow);

    // The options go through as well.
    const std::vector<std::byte> custom = packet_of(Ping{5, false}, {0xC0FFEEu});
    REQUIRE_FALSE(netser::read_packet(custom.data(), custom.size(), got, {0xC0FFEEu}));
    CHECK(got == Ping{5, false});
}

TEST_CASE("reflected structs write the same bytes on a vector_write_stream as on a write_stream", "[packet][buffers]") {
    std::vector<Tick> ticks(3000);
    for (std::size_t i = 0; i < ticks.size(); ++i)
        ticks[i] = Tick{static_cast<std::uint16_t>(i % 1001), i % 3 == 0, static_cast<std::int8_t>(static_cast<int>(i % 16) - 8)};

    std::vector<std::byte> fixed(netser::max_bytes<Tick>() * ticks.size());
    netser::write_stream f{std::span<std::byte>(fixed)};
    std::vector<std::byte> grown; // grows every few hundred structs at first
    netser::vector_write_stream g(grown);
    for (const Tick& t : ticks) {
        REQUIRE(netser::serialize(f, t));
        REQUIRE(netser::serialize(g, t)); // the room check before a run must count the growth
    }
    const auto a = f.finish();
    const auto b = g.finish();
    CHECK(std::vector<std::byte>(a.begin(), a.end()) == grown);
    CHECK(b.size() == (15 * ticks.size() + 7) / 8);

    // A vector_write_stream capped below what is needed fails at the run's first member.
    std::vector<std::byte> small;
    netser::vector_write_stream capped(small, 2); // 16 bits: one Tick (15 bits) and no more
    REQUIRE(netser::serialize(capped, ticks[0]));
    CHECK_FALSE(netser::serialize(capped, ticks[1]));
    CHECK(capped.error().code == errc::overflow);
    CHECK(capped.error().bit == 15);
    CHECK(capped.error().path() == "Tick.frame");
}
