// expect: netser: netser::smallest_three needs #include <netser/quaternion\.hpp>
// forbid: this user attribute
// <netser/reflect.hpp> alone does not define the rotation attributes. Fix: include
// <netser/quaternion.hpp> (or <netser/netser.hpp>, which includes it).
#include <netser/reflect.hpp>

namespace game {

struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
};
NETSER_STRUCT(Quat, x, y, z, w)

struct Body {
    Quat rotation;
};
NETSER_STRUCT(Body, (rotation, netser::smallest_three{9}))

bool measure(netser::measure_stream& s, Body& v) { return netser::serialize(s, v); }

} // namespace game
