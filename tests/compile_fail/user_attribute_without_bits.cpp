// expect: netser: Ship\.heading: this user attribute must state its bits: a max_bits\(\) member, a wire\(\)
// The codec says nothing of its size, so netser::max_bits<Ship>() and the read's early
// refusal of forged counts have nothing to add up. Fix: give it max_bits(), or a wire().
#include <netser/netser.hpp>

#include <cstddef>

namespace game {

struct angle_t {
    template <class S>
    bool serialize(S& s, float& v) const {
        return netser::serialize_quantized(s, v, 0.f, 360.f, 1.5f);
    }
};
inline constexpr angle_t angle{};

struct Ship {
    float heading = 0;
};
NETSER_STRUCT(Ship, (heading, angle))

bool measure(netser::measure_stream& s, Ship& v) { return netser::serialize(s, v); }

} // namespace game
