// expect: netser: Health\.hp: every netser::common value must be representable in the member's type
// 300 does not fit a std::uint8_t. Fix: netser::common(255), or a wider member.
#include <netser/netser.hpp>

#include <cstdint>

namespace game {

struct Health {
    std::uint8_t hp = 0;
};
NETSER_STRUCT(Health, (hp, netser::common(100, 300)))

bool measure(netser::measure_stream& s, Health& v) { return netser::serialize(s, v); }

} // namespace game
