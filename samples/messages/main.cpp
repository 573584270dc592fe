// A message union: every message of a small chat game travels as one packet type,
// std::variant<Join, Chat, Move, Leave>. write_packet puts a CRC32 in front (it also
// covers a protocol id that is never sent) and an end-of-packet check behind;
// read_packet rejects anything damaged or foreign before decoding a single member.
// The receiver dispatches on the alternative with std::visit.

#include <netser/netser.hpp>

#include <boost/describe/enum.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace chat {

BOOST_DEFINE_ENUM_CLASS(Team, red, blue) // 1 bit

struct Join {
    std::string name;
    Team team = Team::red;
};
NETSER_STRUCT(Join, (name, netser::max_length(16)), team)

struct Chat {
    std::uint16_t from = 0;
    std::string text;
};
NETSER_STRUCT(Chat, (from, netser::range(0, 1023)), (text, netser::max_length(120)))

struct Move {
    std::uint16_t player = 0;
    float x = 0, y = 0;
};
NETSER_STRUCT(Move,
    (player, netser::range(0, 1023)),
    (x, netser::quantize(-512.f, 512.f, 0.0625f)),
    (y, netser::quantize(-512.f, 512.f, 0.0625f)))

struct Leave {
    std::uint16_t player = 0;
    bool kicked = false;
};
NETSER_STRUCT(Leave, (player, netser::range(0, 1023)), kicked)

/// The packet body: the alternative's index costs bits_required(0, 3) = 2 bits.
using Message = std::variant<Join, Chat, Move, Leave>;

} // namespace chat

namespace {

// The usual helper for std::visit with one lambda per alternative.
template <class... F>
struct overloaded : F... {
    using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;

void print_bytes(std::span<const std::byte> bytes) {
    std::printf("  %2zu bytes:", bytes.size());
    for (const std::byte b : bytes) std::printf(" %02X", std::to_integer<unsigned>(b));
    std::printf("\n");
}

// What the receiver does with each message.
void handle(const chat::Message& message) {
    std::visit(overloaded{
                   [](const chat::Join& m) {
                       std::printf("  -> join: %s (team %s)\n", m.name.c_str(),
                                   m.team == chat::Team::red ? "red" : "blue");
                   },
                   [](const chat::Chat& m) { std::printf("  -> chat from %u: %s\n", unsigned{m.from}, m.text.c_str()); },
                   [](const chat::Move& m) {
                       std::printf("  -> move: player %u to (%.4g, %.4g)\n", unsigned{m.player}, double{m.x}, double{m.y});
                   },
                   [](const chat::Leave& m) {
                       std::printf("  -> leave: player %u%s\n", unsigned{m.player}, m.kicked ? " (kicked)" : "");
                   },
               },
               message);
}

} // namespace

int main() {
    // The protocol id defaults to schema_hash<Message>(): a peer built from another
    // version of these structs has another id, so its packets fail the CRC.
    std::printf("schema hash of Message: %08X, largest packet: %zu bytes\n",
                unsigned{netser::schema_hash<chat::Message>()}, netser::max_packet_bytes<chat::Message>());

    const std::vector<chat::Message> outbox = {
        chat::Join{"alice", chat::Team::blue},
        chat::Chat{7, "hello, world"},
        chat::Move{7, 100.5f, -7.25f},
        chat::Leave{7, false},
    };

    std::array<std::byte, netser::max_packet_bytes<chat::Message>()> buffer{};
    for (const chat::Message& message : outbox) {
        const netser::packet_write_result w = netser::write_packet(buffer, message);
        if (w.error) {
            std::printf("write failed: %s in %.*s\n", netser::to_string(w.error.code).data(),
                        static_cast<int>(w.error.path().size()), w.error.path().data());
            return 1;
        }
        print_bytes(w.bytes);

        chat::Message received;
        const netser::error e = netser::read_packet(w.bytes, received);
        if (e) {
            std::printf("read failed: %s at bit %zu\n", netser::to_string(e.code).data(), e.bit);
            return 1;
        }
        handle(received);
    }

    // A packet of another protocol: same structs, but its writer set its own id (a
    // hash of a name and a version). The id is never sent; it only changes the CRC.
    const netser::packet_options other_protocol{.protocol_id = netser::check_magic("chat game v2")};
    const netser::packet_write_result foreign =
        netser::write_packet(buffer, chat::Message{chat::Chat{9, "from another game"}}, other_protocol);
    if (foreign.error) return 1;
    std::printf("a packet from protocol %08X:\n", unsigned{*other_protocol.protocol_id});
    print_bytes(foreign.bytes);

    chat::Message received = chat::Leave{0, false};
    const netser::error e = netser::read_packet(foreign.bytes, received);
    std::printf("  -> rejected: %s (nothing decoded: still holds alternative %zu)\n",
                netser::to_string(e.code).data(), received.index());
    return e.code == netser::errc::bad_crc ? 0 : 1;
}
