// expect: netser: World\.players: netser::keyed\(&T::id\) applies to a std::vector<T>
// keyed matches a vector's elements by a member; a map is keyed already (its delta goes by
// key without the attribute). Fix: drop netser::keyed, or make the member a std::vector.
#include <netser/netser.hpp>

#include <cstdint>
#include <map>

namespace game {

struct Player {
    std::uint16_t id = 0;
    std::uint8_t hp = 0;
};
NETSER_STRUCT(Player, id, hp)

struct World {
    std::map<std::uint16_t, Player> players;
};
NETSER_STRUCT(World, (players, netser::max_size(64), netser::keyed(&Player::id)))

bool measure(netser::measure_stream& s, World& v) { return netser::serialize(s, v); }

} // namespace game
