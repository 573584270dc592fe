// expect: netser: Mover\.vx: netser::only_if\(&T::flag\) must name a bool member listed before this one
// forbid: no matching function
// The flag is a float. Fix: make it a bool (e.g. bool moving), listed before vx.
#include <netser/netser.hpp>

namespace game {

struct Mover {
    float speed = 0;
    float vx = 0;
};
NETSER_STRUCT(Mover, speed, (vx, netser::only_if(&Mover::speed)))

bool measure(netser::measure_stream& s, Mover& v) { return netser::serialize(s, v); }

} // namespace game
