// expect: netser: Door\.open: a bool member takes no encoding attribute
// A bool is always 1 bit. Fix: write the member bare.
#include <netser/netser.hpp>

namespace game {

struct Door {
    bool open = false;
};
NETSER_STRUCT(Door, (open, netser::range(0, 1)))

bool measure(netser::measure_stream& s, Door& v) { return netser::serialize(s, v); }

} // namespace game
