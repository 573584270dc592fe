// expect: netser: NETSER_STRUCT needs #include <netser/netser\.hpp>
// <netser/core.hpp> has the primitives, not the reflection layer. Fix: include
// <netser/netser.hpp>.
#include <netser/core.hpp>

namespace game {

struct Position {
    int x = 0;
};
NETSER_STRUCT(Position, x)

} // namespace game
