// expect: netser: this type is declared with NETSER_EXTERN and its description \(NETSER_STRUCT\) is not in this file
// Velocity is described in another file (with ranges); here it would be a plain aggregate
// of two 16-bit fields. Fix: include its NETSER_STRUCT where a struct nests it.
#include <netser/netser.hpp>

#include <cstdint>

namespace game {

struct Velocity {
    std::int16_t dx = 0;
    std::int16_t dy = 0;
};
NETSER_EXTERN(Velocity);

struct Body {
    std::uint8_t id = 0;
    Velocity velocity;
};
NETSER_STRUCT(Body, id, velocity)

bool measure(netser::measure_stream& s, Body& v) { return netser::serialize(s, v); }

} // namespace game
