// expect: netser: Event\.payload: a std::variant member takes no attribute
// The alternatives use their default encodings; the range would be silently ignored.
// Fix: write the member bare, or make the alternative a described struct with a range.
#include <netser/netser.hpp>

#include <variant>

namespace game {

struct Event {
    std::variant<int, bool> payload;
};
NETSER_STRUCT(Event, (payload, netser::range(0, 3)))

bool measure(netser::measure_stream& s, Event& v) { return netser::serialize(s, v); }

} // namespace game
