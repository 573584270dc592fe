// expect: netser: delta_budget's members are arrays, vectors, sparse containers, keyed vectors, or maps
// A budget chooses which changed elements of a container go in a packet; a scalar member
// has no elements to choose. Fix: name a container member (the entities), not a field.
#include <netser/netser.hpp>

#include <array>
#include <cstdint>

namespace game {

struct Cube {
    std::uint16_t x = 0;
};
NETSER_STRUCT(Cube, x)

struct Scene {
    std::uint32_t frame = 0;
    std::array<Cube, 8> cubes{};
};
NETSER_STRUCT(Scene, frame, cubes)

netser::delta_budget<&Scene::frame> budget(1200);

} // namespace game
