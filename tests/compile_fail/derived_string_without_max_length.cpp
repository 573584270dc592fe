// expect: netser: Hero\.name: std::string member needs netser::max_length\(N\)
// NETSER_DERIVED_STRUCT names its own members (the base has its own description).
// Fix: (name, netser::max_length(16)).
#include <netser/netser.hpp>

#include <string>

namespace game {

struct Actor {
    int id = 0;
};
NETSER_STRUCT(Actor, id)

struct Hero : Actor {
    int level = 0;
    std::string name;
};
NETSER_DERIVED_STRUCT(Hero, (Actor), level, name)

bool measure(netser::measure_stream& s, Hero& v) { return netser::serialize(s, v); }

} // namespace game
