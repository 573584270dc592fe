// expect: netser: Body\.x: netser::quantize\(min, max, resolution\) needs finite min < max, resolution > 0
// min and max are swapped. Fix: netser::quantize(-10.f, 10.f, 0.1f).
#include <netser/netser.hpp>

namespace game {

struct Body {
    float x = 0;
};
NETSER_STRUCT(Body, (x, netser::quantize(10.f, -10.f, 0.1f)))

bool measure(netser::measure_stream& s, Body& v) { return netser::serialize(s, v); }

} // namespace game
