// expect: netser: Packet\.hello: a plain aggregate \(no NETSER_STRUCT\)
// max_bits meets the same mistake first, and names it as serialize does.
#include "headers/late_aggregate.hpp"

static_assert(netser::max_bits<game::Packet>() > 0);
