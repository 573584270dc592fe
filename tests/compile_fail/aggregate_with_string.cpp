// expect: netser: a plain aggregate \(no NETSER_STRUCT\) has default encodings only.*describe the struct with NETSER_STRUCT
// A struct without the macro goes through Boost.PFR with default encodings, and a
// string has none. Fix: NETSER_STRUCT(Hello, id, (name, netser::max_length(16))).
#include <netser/netser.hpp>

#include <string>

namespace game {

struct Hello {
    int id = 0;
    std::string name;
};

bool measure(netser::measure_stream& s, Hello& v) { return netser::serialize(s, v); }

} // namespace game
