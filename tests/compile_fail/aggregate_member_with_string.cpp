// expect: netser: Packet\.hello: a plain aggregate \(no NETSER_STRUCT\) has default encodings only.*describe the struct with NETSER_STRUCT
// NETSER_STRUCT(Packet) cannot look into Hello (it may be described later), so this is
// found when Packet is first encoded, and reported there once, by the member's name.
// Fix: NETSER_STRUCT(Hello, id, (name, netser::max_length(16))).
#include <netser/netser.hpp>

#include <string>

namespace game {

struct Hello {
    int id = 0;
    std::string name;
};

struct Packet {
    int seq = 0;
    Hello hello;
};
NETSER_STRUCT(Packet, seq, hello)

bool measure(netser::measure_stream& s, Packet& v) { return netser::serialize(s, v); }

} // namespace game
