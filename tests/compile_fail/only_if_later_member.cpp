// expect: netser: Mover\.vx: netser::only_if\(&T::flag\) must name a bool member listed before this one
// The reader must know the flag before it meets the member. Fix: list moving before vx.
#include <netser/netser.hpp>

namespace game {

struct Mover {
    float vx = 0;
    bool moving = false;
};
NETSER_STRUCT(Mover, (vx, netser::only_if(&Mover::moving)), moving)

bool measure(netser::measure_stream& s, Mover& v) { return netser::serialize(s, v); }

} // namespace game
