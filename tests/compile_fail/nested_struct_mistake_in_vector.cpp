// expect: netser: Bag\.items: std::vector member needs netser::max_size\(N\)
// A mistake in a struct held as the elements of another's vector is named when the outer
// one is first encoded.
// Fix: (items, netser::max_size(16)).
#include <netser/netser.hpp>

#include <vector>

namespace game {

struct Bag {
    std::vector<int> items;
};
NETSER_STRUCT(Bag, items)

struct Player {
    int id = 0;
    std::vector<Bag> bags;
};
NETSER_STRUCT(Player, (id, netser::range(0, 255)), (bags, netser::max_size(4)))

bool measure(netser::measure_stream& s, Player& v) { return netser::serialize(s, v); }

} // namespace game
