// A message header: smallest_three (for quaternions) put on a 3-vector.
#pragma once
#include <netser/netser.hpp>

namespace game {

struct Vec3 {
    float x = 0, y = 0, z = 0;
};
NETSER_STRUCT(Vec3, x, y, z)

struct Body {
    Vec3 rotation;
};
NETSER_STRUCT(Body, (rotation, netser::smallest_three{9}))

} // namespace game
