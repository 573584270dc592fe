// expect: netser: Profile\.name: a std::string member takes only netser::max_length and netser::raw_bytes
// A string's limit is its length in bytes. Fix: (name, netser::max_length(16)).
#include <netser/netser.hpp>

#include <string>

namespace game {

struct Profile {
    std::string name;
};
NETSER_STRUCT(Profile, (name, netser::max_length(16), netser::max_size(16)))

bool measure(netser::measure_stream& s, Profile& v) { return netser::serialize(s, v); }

} // namespace game
