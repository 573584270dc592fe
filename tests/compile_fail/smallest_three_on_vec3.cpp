// expect: netser: Body\.rotation: this user attribute has no serialize\(stream, value\) for the member's type
// smallest_three encodes quaternions (x, y, z, w); on a Vec3 it has no codec. Found when
// Body is first encoded (Vec3 could have been given a codec after the macro), and named.
#include "headers/late_smallest_three.hpp"

bool measure(netser::measure_stream& s, game::Body& v) { return netser::serialize(s, v); }
