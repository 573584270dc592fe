// expect: netser: Score\.points: an integer member takes netser::range, netser::bits or netser::common
// quantize is about floats. Fix: netser::range(0, 100) on the int, or make it a float.
#include <netser/netser.hpp>

namespace game {

struct Score {
    int points = 0;
};
NETSER_STRUCT(Score, (points, netser::quantize(0.f, 100.f, 1.f)))

bool measure(netser::measure_stream& s, Score& v) { return netser::serialize(s, v); }

} // namespace game
