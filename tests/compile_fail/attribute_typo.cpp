// expect: no matching function for call to [^ ]*range
// forbid: must be placed in the namespace
// forbid: does not list every member
// forbid: netser:[^:]
// A mistake inside an attribute is the compiler's own error, and the only one: the
// macro is not also reported as misplaced. Fix: netser::range(0, 10).
#include <netser/netser.hpp>

namespace game {

struct Position {
    int x = 0;
};
NETSER_STRUCT(Position, (x, netser::range(0, 10, 3)))

bool measure(netser::measure_stream& s, Position& v) { return netser::serialize(s, v); }

} // namespace game
