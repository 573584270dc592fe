// expect: netser: Body\.x: a float member takes netser::quantize, netser::common or netser::finite
// range is about integers. Fix: netser::quantize(0.f, 10.f, 0.01f).
#include <netser/netser.hpp>

namespace game {

struct Body {
    float x = 0;
};
NETSER_STRUCT(Body, (x, netser::range(0, 10)))

bool measure(netser::measure_stream& s, Body& v) { return netser::serialize(s, v); }

} // namespace game
