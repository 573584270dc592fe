// write_packet / read_packet: [CRC32][payload][align + end-of-packet check]. The CRC
// covers the protocol id (never sent) and every byte after the CRC field. Golden bytes
// are derived by hand with the reference bit writer and an independent bitwise CRC-32;
// hostile packets are forged the same way and re-CRC'd so that they reach the decoder.

#include "packet_types.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <variant>
#include <vector>

namespace {

using namespace packet_test;

namespace v2 {
// Ping's next version: a wider range, so another schema hash.
struct Ping {
    std::uint16_t sequence = 0;
    bool reply = false;
    bool operator==(const Ping&) const = default;
};
NETSER_STRUCT(Ping, (sequence, netser::range(0, 2000)), reply)
} // namespace v2

/// A value no valid packet of the tests decodes to: proof that nothing was decoded.
const Message sentinel = Leave{999, Reason::timeout};

template <class T>
void check_round_trip(const T& msg) {
    const std::vector<std::byte> packet = packet_of(msg);
    T got{};
    const netser::error e = read_exact(packet, got);
    INFO(netser::to_string(e.code) << " at bit " << e.bit << " in " << e.path());
    REQUIRE_FALSE(e);
    CHECK(got == msg);
}

std::vector<std::vector<std::byte>> sample_packets() {
    std::vector<std::vector<std::byte>> out;
    for (const Message& m : sample_messages()) out.push_back(packet_of(m));
    return out;
}

} // namespace

TEST_CASE("write_packet and read_packet round-trip every message of the game", "[packet]") {
    check_round_trip(Ping{677, true});
    check_round_trip(Ping{0, false});
    for (const Message& m : sample_messages()) {
        check_round_trip(m);
        std::visit([](const auto& alternative) { check_round_trip(alternative); }, m);
    }
}

TEST_CASE("random messages round-trip through packets", "[packet][property]") {
    std::mt19937 rng(20240601);
    auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
    for (int i = 0; i < 500; ++i) {
        Chat chat;
        chat.from = static_cast<std::uint16_t>(pick(1024));
        chat.text.assign(pick(121), static_cast<char>(32 + pick(95))); // strings must be UTF-8: printable ASCII
        chat.mentions.resize(pick(5));
        for (auto& m : chat.mentions) m = static_cast<std::uint16_t>(pick(1024));
        check_round_trip(Message{chat});

        Move move;
        move.player = static_cast<std::uint16_t>(pick(1024));
        move.x = static_cast<float>(static_cast<int>(pick(16385)) - 8192) / 16.f; // on the 1/16 grid
        move.y = static_cast<float>(static_cast<int>(pick(16385)) - 8192) / 16.f;
        move.running = pick(2) == 1;
        if (pick(2) == 1) move.target = static_cast<std::uint16_t>(pick(1024));
        check_round_trip(Message{move});
    }
}

TEST_CASE("a Ping packet has the golden bytes derived by hand", "[packet][golden]") {
    const std::uint32_t protocol_id = 0x12345678u;
    // [CRC 32][sequence 677 in 10 bits][reply 1 bit][5 zero bits of align][end magic 32]
    reference_writer ref;
    ref.put(0, 32);
    ref.put(677, 10);
    ref.put(1, 1);
    put_end_check(ref);
    std::vector<std::byte> expected = ref.bytes();
    REQUIRE(expected.size() == 10);
    // The payload is 11 bits: the end value is 0x4724C6F4 ^ 11 = 0x4724C6FF.
    recrc(expected, protocol_id); // bitwise CRC-32 over 78 56 34 12 A5 06 FF C6 24 47
    CHECK(hex(expected) == "ED E9 7C 62 A5 06 FF C6 24 47"); // Python: zlib.crc32 = 0x627CE9ED

    CHECK(hex(packet_of(Ping{677, true}, {protocol_id})) == hex(expected));
    Ping got;
    REQUIRE_FALSE(read_exact(expected, got, {protocol_id}));
    CHECK(got == Ping{677, true});
}

TEST_CASE("the tests' own CRC-32 is the standard one", "[packet][golden]") {
    // The check value of CRC-32 (ISO-HDLC, zlib, Boost.CRC crc_32_type): "123456789".
    const std::string digits = "123456789";
    STATIC_REQUIRE(crc32_bitwise({}) == 0);
    CHECK(crc32_bitwise(std::as_bytes(std::span<const char>(digits))) == 0xCBF43926u);
}

TEST_CASE("the end-of-packet magic is the FNV-1a hash of its name", "[packet][golden]") {
    STATIC_REQUIRE(netser::end_of_packet_magic == end_magic);
    STATIC_REQUIRE(netser::check_magic("netser end of packet") == 0x4724C6F4u);
}

TEST_CASE("the default protocol id is the schema hash", "[packet]") {
    const Ping ping{677, true};
    const std::vector<std::byte> packet = packet_of(ping);
    CHECK(packet == packet_of(ping, {netser::schema_hash<Ping>()}));
    CHECK(crc_field(packet) == reference_packet_crc(0x4D1A36ACu, packet)); // the golden schema hash of Ping
    CHECK(hex(packet) == "40 AE 84 51 A5 06 FF C6 24 47"); // Python: zlib.crc32 = 0x5184AE40
}

TEST_CASE("every packet carries the standard CRC-32 of its protocol id and the bytes after the CRC",
          "[packet]") {
    for (const Message& m : sample_messages()) {
        const std::vector<std::byte> packet = packet_of(m);
        CHECK(crc_field(packet) == reference_packet_crc(netser::schema_hash<Message>(), packet));
        const std::vector<std::byte> custom = packet_of(m, {0xC0FFEEu});
        CHECK(crc_field(custom) == reference_packet_crc(0xC0FFEEu, custom));
    }
}

TEST_CASE("between the CRC and the end check a packet holds the bytes of a bare stream", "[packet]") {
    for (const Message& m : sample_messages()) {
        std::vector<std::byte> buffer(netser::max_bytes<Message>());
        netser::write_stream w{std::span<std::byte>(buffer)};
        REQUIRE(netser::serialize(w, m));
        const auto bare = w.finish();
        const std::vector<std::byte> packet = packet_of(m);
        REQUIRE(packet.size() == 4 + bare.size() + 4);
        CHECK(hex(std::span<const std::byte>(packet).subspan(4, bare.size())) == hex(bare));
        const auto payload_bits = static_cast<std::uint32_t>(w.bits_processed());
        reference_writer end;
        end.put(end_magic ^ payload_bits, 32);
        CHECK(hex(std::span<const std::byte>(packet).last(4)) == hex(end.bytes()));
    }
}

TEST_CASE("the protocol id changes the CRC but is never sent", "[packet]") {
    const Message m = Join{"bob", Team::green, 7};
    const std::vector<std::byte> a = packet_of(m, {1});
    const std::vector<std::byte> b = packet_of(m, {2});
    REQUIRE(a.size() == b.size());
    CHECK(crc_field(a) != crc_field(b));
    CHECK(std::vector<std::byte>(a.begin() + 4, a.end()) == std::vector<std::byte>(b.begin() + 4, b.end()));
}

TEST_CASE("a packet with another protocol id fails with bad_crc before any member is decoded", "[packet]") {
    for (const std::vector<std::byte>& packet : [] {
             std::vector<std::vector<std::byte>> out;
             for (const Message& m : sample_messages()) out.push_back(packet_of(m, {0x0BADF00Du}));
             return out;
         }()) {
        for (const std::uint32_t reader_id : {0x0BADF00Eu, 0u, netser::schema_hash<Message>()}) {
            Message got = sentinel;
            const netser::error e = read_exact(packet, got, {reader_id});
            CHECK(e.code == netser::errc::bad_crc);
            CHECK(e.bit == 0);
            CHECK(e.path().empty());
            CHECK(got == sentinel);
        }
        Message got = sentinel; // the default id, the schema hash, is another id too
        CHECK(read_exact(packet, got).code == netser::errc::bad_crc);
        CHECK(got == sentinel);
        CHECK_FALSE(read_exact(packet, got, {0x0BADF00Du}));
    }
}

TEST_CASE("a packet of another schema fails with bad_crc before any member is decoded", "[packet]") {
    // Same wire up to the range of `sequence`: only the schema hash tells them apart.
    const std::vector<std::byte> old_packet = packet_of(Ping{5, true});
    v2::Ping newer{1999, false};
    CHECK(read_exact(old_packet, newer).code == netser::errc::bad_crc);
    CHECK(newer == v2::Ping{1999, false});

    const std::vector<std::byte> new_packet = packet_of(v2::Ping{5, true});
    Ping older{999, false};
    CHECK(read_exact(new_packet, older).code == netser::errc::bad_crc);
    CHECK(older == Ping{999, false});

    // A bare Join is not a Message holding a Join, and a Message is not a Message3.
    Message got = sentinel;
    CHECK(read_exact(packet_of(Join{"alice", Team::blue, 42}), got).code == netser::errc::bad_crc);
    CHECK(got == sentinel);
    Message3 got3 = Chat{1, "untouched", {}};
    CHECK(read_exact(packet_of(Message{Join{"alice", Team::blue, 42}}), got3).code == netser::errc::bad_crc);
    CHECK(got3 == Message3{Chat{1, "untouched", {}}});
}

TEST_CASE("flipping any single bit of a valid packet is rejected with bad_crc", "[packet][hostile]") {
    std::vector<std::vector<std::byte>> packets = sample_packets();
    const std::vector<std::byte> ping = packet_of(Ping{677, true});
    std::size_t flips = 0;
    for (const std::vector<std::byte>& packet : packets) {
        for (std::size_t bit = 0; bit < packet.size() * 8; ++bit) {
            std::vector<std::byte> bad = packet;
            bad[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
            Message got = sentinel;
            const netser::error e = read_exact(bad, got);
            INFO("bit " << bit << " of " << hex(packet));
            CHECK(e.code == netser::errc::bad_crc);
            CHECK(got == sentinel);
            ++flips;
        }
    }
    for (std::size_t bit = 0; bit < ping.size() * 8; ++bit) {
        std::vector<std::byte> bad = ping;
        bad[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        Ping got{999, false};
        CHECK(read_exact(bad, got).code == netser::errc::bad_crc);
        CHECK(got == Ping{999, false});
        ++flips;
    }
    CHECK(flips > 1000);
}

TEST_CASE("every truncation of a valid packet is rejected before any member is decoded", "[packet][hostile]") {
    for (const std::vector<std::byte>& packet : sample_packets()) {
        for (std::size_t n = 0; n < packet.size(); ++n) {
            Message got = sentinel;
            const netser::error e = read_exact(std::span<const std::byte>(packet.data(), n), got);
            INFO("first " << n << " bytes of " << hex(packet));
            // Under 4 bytes there is no CRC to read; from 4 bytes on the CRC no longer matches.
            CHECK(e.code == (n < 4 ? netser::errc::overflow : netser::errc::bad_crc));
            CHECK(e.bit == 0);
            CHECK(got == sentinel);
        }
    }
}

TEST_CASE("every truncation with a recomputed CRC is rejected by the decoder with overflow",
          "[packet][hostile]") {
    for (const std::vector<std::byte>& packet : sample_packets()) {
        for (std::size_t n = 4; n < packet.size(); ++n) {
            std::vector<std::byte> bad(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(n));
            recrc(bad, netser::schema_hash<Message>());
            Message got;
            const netser::error e = read_exact(bad, got);
            INFO("first " << n << " bytes of " << hex(packet));
            CHECK(e.code == netser::errc::overflow);
            CHECK(e.bit <= n * 8);
        }
    }
}

TEST_CASE("trailing bytes after the end-of-packet check are rejected", "[packet][hostile]") {
    for (const std::vector<std::byte>& packet : sample_packets()) {
        for (const std::size_t extra : {1u, 2u, 7u}) {
            for (const std::byte fill : {std::byte{0x00}, std::byte{0xFF}}) {
                std::vector<std::byte> bad = packet;
                bad.insert(bad.end(), extra, fill);
                Message got = sentinel;
                CHECK(read_exact(bad, got).code == netser::errc::bad_crc);
                CHECK(got == sentinel);

                recrc(bad, netser::schema_hash<Message>());
                const netser::error e = read_exact(bad, got);
                CHECK(e.code == netser::errc::invalid_value);
                CHECK(e.bit == packet.size() * 8); // the first trailing bit
            }
        }
    }
}

TEST_CASE("non-zero padding is rejected even under a valid CRC", "[packet][hostile]") {
    const std::uint32_t id = netser::schema_hash<Ping>();
    const std::vector<std::byte> good = packet_of(Ping{677, true});
    {
        std::vector<std::byte> same = good; // the forger's control: recrc alone changes nothing
        recrc(same, id);
        REQUIRE(same == good);
    }
    // Bits 43..47 pad the payload up to the end-of-packet check, which starts at bit 43.
    for (std::size_t bit = 43; bit < 48; ++bit) {
        std::vector<std::byte> bad = good;
        bad[bit / 8] |= static_cast<std::byte>(1u << (bit % 8));
        recrc(bad, id);
        Ping got;
        const netser::error e = read_exact(bad, got);
        INFO("padding bit " << bit);
        CHECK(e.code == netser::errc::invalid_value);
        CHECK(e.bit == 43);
    }

    // Inside the payload: Join.name is a 5-bit length at bit 32, 3 bits of align, the bytes.
    const std::uint32_t join_id = netser::schema_hash<Join>();
    const std::vector<std::byte> join = packet_of(Join{"alice", Team::blue, 42});
    for (std::size_t bit = 37; bit < 40; ++bit) {
        std::vector<std::byte> bad = join;
        bad[bit / 8] |= static_cast<std::byte>(1u << (bit % 8));
        recrc(bad, join_id);
        Join got;
        const netser::error e = read_exact(bad, got, {join_id});
        INFO("padding bit " << bit);
        CHECK(e.code == netser::errc::invalid_value);
        CHECK(e.bit == 32); // the string's first bit
        CHECK(e.path() == "Join.name");
    }
}

TEST_CASE("a forged packet with a valid CRC is still decoded as hostile input", "[packet][hostile]") {
    // Join{"ab", blue, level code 127}: level is range(1, 100), 7 bits, codes above 99 fail.
    reference_writer ref;
    ref.put(0, 32);
    ref.put(2, 5); // name length
    ref.align();
    ref.put('a', 8);
    ref.put('b', 8);
    ref.put(1, 2);   // team blue
    ref.put(127, 7); // level
    put_end_check(ref);
    std::vector<std::byte> bad = ref.bytes();
    recrc(bad, netser::schema_hash<Join>());
    Join got;
    netser::error e = read_exact(bad, got);
    CHECK(e.code == netser::errc::out_of_range);
    CHECK(e.bit == 32 + 8 + 16 + 2);
    CHECK(e.path() == "Join.level");

    // The same packet with level code 41 (level 42) is accepted: the forgery is right.
    reference_writer fixed;
    fixed.put(0, 32);
    fixed.put(2, 5);
    fixed.align();
    fixed.put('a', 8);
    fixed.put('b', 8);
    fixed.put(1, 2);
    fixed.put(41, 7);
    put_end_check(fixed);
    std::vector<std::byte> good = fixed.bytes();
    recrc(good, netser::schema_hash<Join>());
    e = read_exact(good, got);
    REQUIRE_FALSE(e);
    CHECK(got == Join{"ab", Team::blue, 42});
    CHECK(good == packet_of(Join{"ab", Team::blue, 42}));
}

TEST_CASE("a buffer too small for the packet fails the write with overflow and no bytes", "[packet]") {
    const Message m = Chat{7, "hello, world", {1, 2, 1023}};
    const std::size_t n = packet_of(m).size();
    for (std::size_t size = 0; size < n; ++size) {
        exact_block buffer(size); // AddressSanitizer sees any write past it
        const netser::packet_write_result w = netser::write_packet(buffer.span(), m);
        INFO("buffer of " << size << " bytes");
        CHECK(w.error.code == netser::errc::overflow);
        CHECK(w.bytes.empty());
    }
    exact_block buffer(n);
    const netser::packet_write_result w = netser::write_packet(buffer.span(), m);
    CHECK_FALSE(w.error);
    CHECK(w.bytes.size() == n);
}

TEST_CASE("a message that cannot be written fails with its member path and no bytes", "[packet]") {
    std::vector<std::byte> buffer(64);
    const netser::packet_write_result w =
        netser::write_packet(std::span<std::byte>(buffer), Join{std::string(17, 'x'), Team::red, 1});
    CHECK(w.error.code == netser::errc::too_large);
    CHECK(w.error.path() == "Join.name");
    CHECK(w.bytes.empty());
}

TEST_CASE("max_packet_bytes is the size of the largest packet", "[packet]") {
    STATIC_REQUIRE(netser::max_packet_bytes<Ping>() == 10);
    CHECK(packet_of(Ping{1000, true}).size() == netser::max_packet_bytes<Ping>());
    CHECK(packet_of(Join{std::string(16, 'j'), Team::green, 100}).size() == netser::max_packet_bytes<Join>());
    CHECK(packet_of(Chat{1023, std::string(120, 'c'), {1, 2, 3, 4}}).size() == netser::max_packet_bytes<Chat>());
    CHECK(packet_of(Move{1, 2.f, 3.f, true, std::uint16_t{4}}).size() == netser::max_packet_bytes<Move>());
    CHECK(packet_of(Message{Chat{1023, std::string(120, 'c'), {1, 2, 3, 4}}}).size() ==
          netser::max_packet_bytes<Message>());
}
