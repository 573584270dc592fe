// A std::variant of message structs as the packet body: the index in
// bits_required(0, N - 1) bits, then the alternative. read_packet fills the
// alternative the packet names; an index past the end fails with invalid_value.

#include "packet_types.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace union_test {

// Plain aggregates (Boost.PFR, default encodings): one bit each.
template <int I>
struct Alt {
    bool on = false;
    bool operator==(const Alt&) const = default;
};

// Five alternatives in 3 bits: indices 5, 6 and 7 are past the end.
using Message5 = std::variant<packet_test::Join, packet_test::Chat, packet_test::Move, packet_test::Leave,
                              packet_test::Ping>;

template <class... Ts>
struct overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
overloaded(Ts...) -> overloaded<Ts...>;

} // namespace union_test

namespace {

using namespace packet_test;
using namespace union_test;

template <class V>
std::size_t measured_bits(const V& v) {
    netser::measure_stream m;
    REQUIRE(netser::serialize(m, v));
    return m.bits_processed();
}

/// A packet whose payload is `index` in `index_bits` bits followed by `rest`, re-CRC'd.
std::vector<std::byte> forged_index_packet(std::uint32_t protocol_id, std::uint64_t index, int index_bits) {
    reference_writer ref;
    ref.put(0, 32);
    ref.put(index, index_bits);
    ref.put(0, 64); // room for whatever the decoder would read next
    put_end_check(ref);
    std::vector<std::byte> packet = ref.bytes();
    recrc(packet, protocol_id);
    return packet;
}

} // namespace

TEST_CASE("a variant's index costs bits_required(0, N - 1) bits", "[union]") {
    CHECK(measured_bits(std::variant<Alt<0>>{}) == 0 + 1);
    CHECK(measured_bits(std::variant<Alt<0>, Alt<1>>{}) == 1 + 1);
    CHECK(measured_bits(std::variant<Alt<0>, Alt<1>, Alt<2>>{}) == 2 + 1);
    CHECK(measured_bits(std::variant<Alt<0>, Alt<1>, Alt<2>, Alt<3>>{Alt<3>{}}) == 2 + 1);
    CHECK(measured_bits(std::variant<Alt<0>, Alt<1>, Alt<2>, Alt<3>, Alt<4>>{Alt<4>{}}) == 3 + 1);
    CHECK(measured_bits(std::variant<Alt<0>, Alt<1>, Alt<2>, Alt<3>, Alt<4>, Alt<5>, Alt<6>, Alt<7>>{}) == 3 + 1);
    CHECK(measured_bits(std::variant<Alt<0>, Alt<1>, Alt<2>, Alt<3>, Alt<4>, Alt<5>, Alt<6>, Alt<7>, Alt<8>>{}) ==
          4 + 1);
    STATIC_REQUIRE(netser::bits_required(0, 3) == 2);
    STATIC_REQUIRE(netser::max_bits<std::variant<Alt<0>, Alt<1>, Alt<2>, Alt<3>, Alt<4>>>() == 3 + 1);
}

TEST_CASE("a Message packet has the bytes derived by hand", "[union][golden]") {
    // Leave{5, kicked}: index 3 in 2 bits, player 5 in 10 bits, reason 2 in 2 bits,
    // 2 bits of align, end magic ^ 14. The protocol id is the golden schema hash of Message.
    reference_writer ref;
    ref.put(0, 32);
    ref.put(3, 2);
    ref.put(5, 10);
    ref.put(2, 2);
    put_end_check(ref);
    std::vector<std::byte> expected = ref.bytes();
    recrc(expected, 0xAB07329Au);
    CHECK(hex(expected).substr(12) == "17 20 FA C6 24 47"); // 14 payload bits: 0x4724C6F4 ^ 14
    CHECK(hex(packet_of(Message{Leave{5, Reason::kicked}})) == hex(expected));
}

TEST_CASE("read_packet fills the alternative the packet names", "[union]") {
    for (const Message& sent : sample_messages()) {
        const std::vector<std::byte> packet = packet_of(sent);
        // Start from every other alternative, so the read has to switch it.
        for (const Message& start : {Message{Join{"z", Team::green, 9}}, Message{Chat{}}, Message{Move{}},
                                     Message{Leave{1, Reason::timeout}}}) {
            Message got = start;
            REQUIRE_FALSE(read_exact(packet, got));
            CHECK(got.index() == sent.index());
            CHECK(got == sent);
        }
    }
}

TEST_CASE("a read Message dispatches with std::visit", "[union]") {
    std::string seen;
    for (const Message& sent : sample_messages()) {
        Message got;
        REQUIRE_FALSE(read_exact(packet_of(sent), got));
        std::visit(overloaded{
                       // Appended in two steps: g++ 12 warns (falsely) on "C" + std::string at -O3.
                       [&](const Join& j) { seen.append("J").append(j.name); },
                       [&](const Chat& c) { seen.append("C").append(std::to_string(c.from)); },
                       [&](const Move& m) { seen.append("M").append(std::to_string(m.player)); },
                       [&](const Leave& l) { seen.append("L").append(std::to_string(l.player)); },
                   },
                   got);
    }
    CHECK(seen == "JaliceJC7C1023M3M1023L12");
}

TEST_CASE("a forged index past the end fails with invalid_value", "[union][hostile]") {
    // Message3: 3 alternatives in 2 bits, so index 3 is the only one past the end.
    {
        const std::vector<std::byte> packet = forged_index_packet(netser::schema_hash<Message3>(), 3, 2);
        Message3 got;
        const netser::error e = read_exact(packet, got);
        CHECK(e.code == netser::errc::invalid_value);
        CHECK(e.bit == 32);
        CHECK(e.path() == "std::variant"); // a top-level variant's root; a bad index names no alternative
    }
    // Message5: 5 alternatives in 3 bits: 5, 6 and 7 are past the end.
    for (std::uint64_t index = 5; index < 8; ++index) {
        const std::vector<std::byte> packet = forged_index_packet(netser::schema_hash<Message5>(), index, 3);
        Message5 got;
        const netser::error e = read_exact(packet, got);
        INFO("index " << index);
        CHECK(e.code == netser::errc::invalid_value);
        CHECK(e.bit == 32);
    }
    // Inside a struct the failure has a member path.
    {
        reference_writer ref;
        ref.put(0, 32);
        ref.put(77, 8); // sequence
        ref.put(3, 2);  // body: index 3 of 3 alternatives
        ref.put(0, 64);
        put_end_check(ref);
        std::vector<std::byte> packet = ref.bytes();
        recrc(packet, netser::schema_hash<Envelope>());
        Envelope got;
        const netser::error e = read_exact(packet, got);
        CHECK(e.code == netser::errc::invalid_value);
        CHECK(e.bit == 40);
        CHECK(e.path() == "Envelope.body");
    }
}

TEST_CASE("every index inside the range is decoded, every one past it rejected", "[union][hostile]") {
    // The forger's control for the test above: with the same zero payload, indices 0..4
    // of Message5 decode (to default-like values) or fail for another reason, never as a bad index.
    for (std::uint64_t index = 0; index < 5; ++index) {
        const std::vector<std::byte> packet = forged_index_packet(netser::schema_hash<Message5>(), index, 3);
        Message5 got;
        const netser::error e = read_exact(packet, got);
        INFO("index " << index << ": " << netser::to_string(e.code) << " at bit " << e.bit << " in " << e.path());
        CHECK((e.code != netser::errc::invalid_value || e.bit != 32));
        if (!e) CHECK(got.index() == index);
    }
}
