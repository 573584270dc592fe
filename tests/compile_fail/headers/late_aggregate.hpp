// A message header, as a game keeps them: the mistake is reported from here, through
// one more level of #include.
#pragma once
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

} // namespace game
