// expect: netser: netser::unit_vector needs #include <netser/unit_vector\.hpp>
// forbid: this user attribute
// Fix: include <netser/unit_vector.hpp> (or <netser/netser.hpp>).
#include <netser/reflect.hpp>

namespace game {

struct Vec3 {
    float x = 0, y = 0, z = 1;
};
NETSER_STRUCT(Vec3, x, y, z)

struct Ray {
    Vec3 direction;
};
NETSER_STRUCT(Ray, (direction, netser::unit_vector{12}))

bool measure(netser::measure_stream& s, Ray& v) { return netser::serialize(s, v); }

} // namespace game
