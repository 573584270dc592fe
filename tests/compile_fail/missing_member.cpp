// expect: netser: NETSER_STRUCT\(Position, \.\.\.\) does not list every member of Position
// An aggregate member left out of the macro is a compile error, not a silent default.
// Fix: list y too (mark a member that must not be sent with netser::skip).
#include <netser/netser.hpp>

namespace game {

struct Position {
    int x = 0;
    int y = 0;
};
NETSER_STRUCT(Position, x)

} // namespace game
