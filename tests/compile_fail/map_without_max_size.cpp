// expect: netser: Table\.scores: std::map / std::unordered_map / std::set member needs netser::max_size\(N\)
// Fix: (scores, netser::max_size(32)).
#include <netser/netser.hpp>

#include <cstdint>
#include <map>

namespace game {

struct Table {
    std::map<std::uint8_t, int> scores;
};
NETSER_STRUCT(Table, scores)

bool measure(netser::measure_stream& s, Table& v) { return netser::serialize(s, v); }

} // namespace game
