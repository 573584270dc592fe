// expect: netser: Body\.pos: an integer member takes netser::range, netser::bits or netser::common
// The attributes of a struct member apply to the struct's members (here ints), which
// is found when Body is first encoded, and named. Fix: netser::range(0, 100), or float members.
#include <netser/netser.hpp>

namespace game {

struct IVec {
    int x = 0, y = 0;
};
NETSER_STRUCT(IVec, x, y)

struct Body {
    IVec pos;
};
NETSER_STRUCT(Body, (pos, netser::quantize(0.f, 10.f, 0.1f)))

bool measure(netser::measure_stream& s, Body& v) { return netser::serialize(s, v); }

} // namespace game
