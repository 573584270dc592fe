// expect: netser: Bag\.items: std::vector member needs netser::max_size\(N\)
// A mistake in a described struct that a plain aggregate holds, inside the encoded struct.
// Fix: (items, netser::max_size(16)).
#include <netser/netser.hpp>

#include <vector>

namespace game {

struct Bag {
    std::vector<int> items;
};
NETSER_STRUCT(Bag, items)

struct Slot { // a plain aggregate: no NETSER_STRUCT
    int x = 0;
    Bag bag;
};

struct Player {
    Slot slot;
};
NETSER_STRUCT(Player, slot)

bool measure(netser::measure_stream& s, Player& v) { return netser::serialize(s, v); }

} // namespace game
