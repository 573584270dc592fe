// expect: netser: NETSER_STRUCT\(game::Position, \.\.\.\) must be placed in the namespace that declares game::Position
// The macro outside T's namespace would never be found by argument-dependent lookup.
// Fix: move NETSER_STRUCT(Position, x) into namespace game.
#include <netser/netser.hpp>

namespace game {

struct Position {
    int x = 0;
};

} // namespace game

NETSER_STRUCT(game::Position, x)
