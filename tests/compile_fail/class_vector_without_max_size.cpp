// expect: netser: Bag\.items_: std::vector member needs netser::max_size\(N\)
// NETSER_CLASS checks its (private) members by name too. Fix: (items_, netser::max_size(16)).
#include <netser/netser.hpp>

#include <vector>

namespace game {

class Bag {
public:
    std::size_t size() const { return items_.size(); }

private:
    std::vector<int> items_;
    NETSER_CLASS(Bag, items_)
};

bool measure(netser::measure_stream& s, Bag& v) { return netser::serialize(s, v); }

} // namespace game
