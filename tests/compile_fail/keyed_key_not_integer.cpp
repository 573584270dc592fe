// expect: netser: World\.shots: netser::keyed\(&T::id\) applies to a std::vector<T> with netser::max_size\(N\), T a described struct and id an integer or enum member
// The key must be an integer or enum member: a float has no exact identity. Fix:
// netser::keyed(&Shot::id) on an integer id member.
#include <netser/netser.hpp>

#include <cstdint>
#include <vector>

namespace game {

struct Shot {
    float x = 0.f;
    std::uint16_t id = 0;
};
NETSER_STRUCT(Shot, x, id)

struct World {
    std::vector<Shot> shots;
};
NETSER_STRUCT(World, (shots, netser::max_size(64), netser::keyed(&Shot::x)))

bool measure(netser::measure_stream& s, World& v) { return netser::serialize(s, v); }

} // namespace game
