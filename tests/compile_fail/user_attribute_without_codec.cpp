// expect: netser: Ship\.heading: this user attribute has no serialize\(stream, value\) for the member's type
// angle256 encodes floats; heading is an int. Fix: make heading a float, or give
// angle256 a serialize(S&, int&).
#include <netser/netser.hpp>

#include <cstddef>

namespace game {

struct angle256 {
    template <class S>
    bool serialize(S& s, float& v) const {
        return netser::serialize_quantized(s, v, 0.f, 360.f, 1.5f);
    }
    static constexpr std::size_t max_bits() { return 8; }
};

struct Ship {
    int heading = 0;
};
NETSER_STRUCT(Ship, (heading, angle256{}))

bool measure(netser::measure_stream& s, Ship& v) { return netser::serialize(s, v); }

} // namespace game
