// The one file that compiles extern_messages.hpp's serialize code.

#include "reflect/extern_messages.hpp"

namespace extern_test {

BOOST_DESCRIBE_ENUM(Gait, walk, run, sprint)
NETSER_STRUCT(Move, (dx, netser::range(-500, 500)), (dy, netser::range(-500, 500)), gait)

NETSER_INSTANTIATE(Pose)
NETSER_INSTANTIATE(Move)
NETSER_INSTANTIATE(Secret)
NETSER_INSTANTIATE(Cells<2, 3>)

// Move's serialize code compiled here, for the test to compare the wire with.
bool write_move_here(netser::write_stream& s, const Move& m) {
    return netser::detail::basic_serialize_fn<false>{}(s, m);
}

} // namespace extern_test
