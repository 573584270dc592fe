// expect: netser: Lobby\.names: std::string member needs netser::max_length\(N\)
// Attributes that are not about the container apply to its elements. Fix:
// (names, netser::max_size(8), netser::max_length(16)).
#include <netser/netser.hpp>

#include <string>
#include <vector>

namespace game {

struct Lobby {
    std::vector<std::string> names;
};
NETSER_STRUCT(Lobby, (names, netser::max_size(8)))

bool measure(netser::measure_stream& s, Lobby& v) { return netser::serialize(s, v); }

} // namespace game
