// expect: netser: Position\.x: netser::delta_ladder\(limits\.\.\.\) needs 1 to 4 increasing limits above 0
// Fix: netser::delta_ladder(4, 8).
#include <netser/netser.hpp>

namespace game {

struct Position {
    int x = 0;
};
NETSER_STRUCT(Position, (x, netser::range(0, 1000), netser::delta_ladder(8, 4)))

bool measure(netser::measure_stream& s, Position& v) { return netser::serialize(s, v); }

} // namespace game
