// expect: netser: Health\.hp: netser::bits\(n\) needs 1 <= n <= the member type's width
// A std::uint8_t has 8 bits. Fix: netser::bits(8) or fewer, or a wider member.
#include <netser/netser.hpp>

#include <cstdint>

namespace game {

struct Health {
    std::uint8_t hp = 0;
};
NETSER_STRUCT(Health, (hp, netser::bits(9)))

bool measure(netser::measure_stream& s, Health& v) { return netser::serialize(s, v); }

} // namespace game
