// expect: netser: Clock\.time: long double has no wire encoding; use float or double
// Its width differs between platforms. Fix: double time.
#include <netser/netser.hpp>

namespace game {

struct Clock {
    long double time = 0;
};
NETSER_STRUCT(Clock, time)

bool measure(netser::measure_stream& s, Clock& v) { return netser::serialize(s, v); }

} // namespace game
