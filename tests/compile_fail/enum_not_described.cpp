// expect: netser: Door\.state: this enum is not described; use BOOST_DEFINE_ENUM_CLASS / BOOST_DESCRIBE_ENUM
// Fix: BOOST_DESCRIBE_ENUM(State, closed, open) after the enum, or (state, netser::range(0, 1)).
#include <netser/netser.hpp>

namespace game {

enum class State { closed, open };

struct Door {
    State state = State::closed;
};
NETSER_STRUCT(Door, state)

bool measure(netser::measure_stream& s, Door& v) { return netser::serialize(s, v); }

} // namespace game
