// expect: netser: Mover\.vx: netser::only_if\(&T::flag\) must name a bool member listed before this one
// The checks by name run when a walk first meets the struct: here the schema's, with no
// serialize in the file. Fix: list moving before vx.
#include <netser/netser.hpp>

#include <string>

namespace game {

struct Mover {
    float vx = 0;
    bool moving = false;
};
NETSER_STRUCT(Mover, (vx, netser::only_if(&Mover::moving)), moving)

std::string layout() { return netser::schema_json<Mover>(); }

} // namespace game
