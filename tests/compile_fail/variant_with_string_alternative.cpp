// expect: netser: Event\.payload: a std::variant alternative has no default encoding
// Alternatives take no attribute, and a string needs max_length. Fix: an alternative
// struct Text { std::string text; } with NETSER_STRUCT(Text, (text, netser::max_length(64))).
#include <netser/netser.hpp>

#include <string>
#include <variant>

namespace game {

struct Event {
    std::variant<int, std::string> payload;
};
NETSER_STRUCT(Event, payload)

bool measure(netser::measure_stream& s, Event& v) { return netser::serialize(s, v); }

} // namespace game
