// expect: netser: NETSER_EXTERN\(T\) must name a non-const class or enum type and be placed in the namespace that declares it
// Argument-dependent lookup looks for the compiled functions in Move's namespace only:
// declared elsewhere, serialize would never call them. Fix: say it inside namespace game.
#include <netser/netser.hpp>

#include <cstdint>

namespace game {

struct Move {
    std::int16_t dx = 0;
};
NETSER_STRUCT(Move, (dx, netser::range(-500, 500)))

} // namespace game

namespace net {

NETSER_EXTERN(game::Move);

} // namespace net
