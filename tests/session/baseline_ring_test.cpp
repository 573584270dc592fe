// The baseline ring (baseline_ring.hpp) and acks (acks.hpp): storing what the reader
// will hold by 16-bit sequence number, finding, acking, evicting, and the wrap-around;
// the ack window's history bits and its golden packet.

#include "core/test_util.hpp"
#include "session/session_types.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using netser::errc;
using namespace session_test;

TEST_CASE("a ring refuses a capacity that is not a power of two up to 32768", "[session][ring]") {
    CHECK(netser::baseline_ring<Ping>(64).ok());
    CHECK(netser::baseline_ring<Ping>(32768).ok());
    CHECK_FALSE(netser::baseline_ring<Ping>(0).ok());
    CHECK_FALSE(netser::baseline_ring<Ping>(48).ok());
    CHECK_FALSE(netser::baseline_ring<Ping>(65536).ok());
    netser::baseline_ring<Ping> bad(48);
    CHECK(bad.put(1, Ping{}) == nullptr);
    CHECK(bad.find(netser::initial_sequence) != nullptr); // the initial entry stays
    // An initial value without a plain encoding.
    CHECK_FALSE(netser::baseline_ring<Ping>(8, Ping{2000, false}).ok());
}

TEST_CASE("a ring finds what it holds and forgets what its slots lost", "[session][ring]") {
    netser::baseline_ring<Ping> ring(4, Ping{9, false});
    const auto& initial = *ring.find(netser::initial_sequence);
    CHECK(initial.value == Ping{9, false});
    CHECK(initial.acked);
    CHECK(ring.put(netser::initial_sequence, Ping{}) == nullptr); // never a snapshot's number
    CHECK(ring.put(1, Ping{1, false}) != nullptr);
    CHECK(ring.put(2, Ping{2, false}) != nullptr);
    CHECK(ring.find(1)->value == Ping{1, false});
    CHECK(ring.find(3) == nullptr);
    CHECK(ring.newest()->sequence == 2);
    CHECK_FALSE(ring.find(2)->acked);
    CHECK(ring.put(5, Ping{5, false}) != nullptr); // slot of 1
    CHECK(ring.find(1) == nullptr);
    CHECK(ring.find(5)->value == Ping{5, false});
    CHECK(ring.put(1000, Ping{1001, false}) == nullptr); // no plain encoding: nothing stored
    CHECK(ring.find(1000) == nullptr);
}

TEST_CASE("the newest acked snapshot is the next baseline, the initial one until an ack", "[session][ring]") {
    netser::baseline_ring<Ping> ring(8);
    CHECK(ring.newest_acked().sequence == netser::initial_sequence);
    ring.put(1, Ping{1, false});
    ring.put(2, Ping{2, false});
    ring.put(3, Ping{3, false});
    CHECK(ring.acknowledge(2));
    CHECK(ring.newest_acked().sequence == 2);
    CHECK(ring.acknowledge(1)); // an older ack arriving late changes nothing
    CHECK(ring.newest_acked().sequence == 2);
    CHECK_FALSE(ring.acknowledge(7)); // never stored
    ring.evict_before(2);
    CHECK(ring.find(1) == nullptr);
    CHECK(ring.find(2) != nullptr);
    CHECK(ring.find(3) != nullptr);
    ring.clear();
    CHECK(ring.find(2) == nullptr);
    CHECK(ring.newest_acked().sequence == netser::initial_sequence);
}

TEST_CASE("a ring keeps working across the 16-bit wrap-around", "[session][ring]") {
    netser::baseline_ring<Ping> ring(16);
    std::uint16_t s = 65500;
    for (int i = 0; i < 100; ++i) {
        s = netser::next_sequence(s);
        REQUIRE(ring.put(s, Ping{static_cast<std::uint16_t>(i), false}) != nullptr);
        REQUIRE(ring.acknowledge(s));
        REQUIRE(ring.newest_acked().sequence == s);
        REQUIRE(ring.newest()->sequence == s);
        ring.evict_before(s);
        REQUIRE(ring.find(s)->value.sequence == i);
    }
    CHECK(s == 65); // 65500 + 100, skipping 0
}

TEST_CASE("an ack window names the newest snapshot and the 32 before it", "[session][acks]") {
    netser::ack_window w;
    CHECK(w.ack().newest == netser::initial_sequence);
    w.accepted(netser::initial_sequence); // the initial baseline is never acked
    CHECK(w.ack().newest == netser::initial_sequence);
    w.accepted(10);
    w.accepted(12);
    w.accepted(11); // late
    w.accepted(8);
    CHECK(w.ack().newest == 12);
    CHECK(w.ack().previous == 0b1011u); // 11, 10, (9 missing), 8
    w.accepted(44); // 32 ahead: 12 becomes bit 31, the rest falls off
    CHECK(w.ack().newest == 44);
    CHECK(w.ack().previous == (1u << 31));
    w.accepted(100); // far ahead: the history is gone
    CHECK(w.ack().previous == 0u);
    w.accepted(std::uint16_t{65534});
    CHECK(w.ack().newest == 100); // half a circle behind: older, outside the history
    w.reset();
    w.accepted(65535);
    w.accepted(1); // across the wrap: 1 is 2 steps after 65535 on the circle
    CHECK(w.ack().newest == 1);
    CHECK(w.ack().previous == 0b10u);
}

TEST_CASE("an ack's golden packet", "[session][acks]") {
    // ack_message{newest 0x1234, previous 0x80000001}: 16 + 32 bits, little-endian bit
    // order: 34 12, 01 00 00 80; 48 bits: end check magic 0x4724C6F4 ^ 48 = 0x4724C6C4.
    // CRC: zlib.crc32(bytes([0x78,0x56,0x34,0x12]) + payload + end check) with protocol id 0x12345678.
    const netser::ack_message ack{0x1234, 0x80000001u};
    std::vector<std::byte> packet;
    REQUIRE_FALSE(netser::write_packet(packet, ack, {.protocol_id = 0x12345678u}).error);
    CHECK(netser_test::hex(std::span<const std::byte>(packet).subspan(4)) == "34 12 01 00 00 80 C4 C6 24 47");
    netser::ack_message back;
    REQUIRE_FALSE(netser::read_packet(packet, back, {.protocol_id = 0x12345678u}));
    CHECK(back.newest == 0x1234);
    CHECK(back.previous == 0x80000001u);
}

TEST_CASE("apply_ack marks every named snapshot the ring holds and evicts older ones", "[session][acks]") {
    netser::baseline_ring<Ping> ring(64);
    for (std::uint16_t s = 1; s <= 40; ++s) ring.put(s, Ping{s, false});
    netser::ack_window w;
    for (int s : {30, 31, 33, 35}) w.accepted(static_cast<std::uint16_t>(s));
    CHECK(netser::apply_ack(ring, w.ack()) == 4);
    CHECK(ring.newest_acked().sequence == 35);
    CHECK(ring.find(29) == nullptr); // evicted: older than the newest acked
    CHECK(ring.find(36) != nullptr);
    // Forged: sequences never sent, every history bit set.
    CHECK(netser::apply_ack(ring, {60000, 0xffffffffu}) == 0);
    CHECK(ring.newest_acked().sequence == 35);
    CHECK(netser::apply_ack(ring, {netser::initial_sequence, 0xffffffffu}) == 0);
}

TEST_CASE("packet_kind_of tells plain and delta packets of several kinds apart", "[session][kinds]") {
    std::vector<std::byte> ack, ping, delta, other;
    REQUIRE_FALSE(netser::write_packet(ack, netser::ack_message{5, 1}).error);
    REQUIRE_FALSE(netser::write_packet(ping, Ping{3, true}).error);
    REQUIRE_FALSE(netser::write_delta_packet(delta, {2, 1}, Ping{4, true}, Ping{3, true}).error);
    REQUIRE_FALSE(netser::write_packet(other, Ping{3, true}, {.protocol_id = 77u}).error);

    using kinds = std::tuple<netser::ack_message, Ping, netser::delta_of<Ping>>;
    const auto kind = [](const std::vector<std::byte>& p) {
        return netser::packet_kind_of<netser::ack_message, Ping, netser::delta_of<Ping>,
                                      netser::with_protocol_id<Ping, 77u>>(p.data(), p.size());
    };
    static_assert(std::tuple_size_v<kinds> == 3);
    CHECK(kind(ack) == std::optional<std::size_t>(0));
    CHECK(kind(ping) == std::optional<std::size_t>(1));
    CHECK(kind(delta) == std::optional<std::size_t>(2));
    CHECK(kind(other) == std::optional<std::size_t>(3));
    std::vector<std::byte> damaged = ping;
    damaged.back() ^= std::byte{1};
    CHECK_FALSE(kind(damaged).has_value());
    CHECK_FALSE(kind(std::vector<std::byte>(3)).has_value());
    CHECK_FALSE(kind(std::vector<std::byte>()).has_value());
}
