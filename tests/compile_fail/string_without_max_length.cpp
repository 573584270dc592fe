// expect: netser: Profile\.name: std::string member needs netser::max_length\(N\)
// Fix: (name, netser::max_length(16)).
#include <netser/netser.hpp>

#include <string>

namespace game {

struct Profile {
    std::string name;
};
NETSER_STRUCT(Profile, name)

bool measure(netser::measure_stream& s, Profile& v) { return netser::serialize(s, v); }

} // namespace game
