// expect: netser: Clock\.time: netser::quantize applies to float members; make the member a float
// Quantization is float32 arithmetic (docs/wire_format.md). Fix: float time.
#include <netser/netser.hpp>

namespace game {

struct Clock {
    double time = 0;
};
NETSER_STRUCT(Clock, (time, netser::quantize(0.f, 60.f, 0.01f)))

bool measure(netser::measure_stream& s, Clock& v) { return netser::serialize(s, v); }

} // namespace game
