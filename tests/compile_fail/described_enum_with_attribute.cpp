// expect: netser: Player\.weapon: a described enum member takes no encoding attribute
// A described enum's enumerators set its bits. Fix: write weapon bare.
#include <netser/netser.hpp>

namespace game {

BOOST_DEFINE_ENUM_CLASS(Weapon, none, pistol, rifle)

struct Player {
    Weapon weapon = Weapon::none;
};
NETSER_STRUCT(Player, (weapon, netser::bits(3)))

bool measure(netser::measure_stream& s, Player& v) { return netser::serialize(s, v); }

} // namespace game
