// expect: netser: Inventory\.items: std::vector member needs netser::max_size\(N\)
// A count with no limit would let a hostile packet allocate without bound.
// Fix: (items, netser::max_size(16)).
#include <netser/netser.hpp>

#include <vector>

namespace game {

struct Inventory {
    std::vector<int> items;
};
NETSER_STRUCT(Inventory, items)

bool measure(netser::measure_stream& s, Inventory& v) { return netser::serialize(s, v); }

} // namespace game
