// expect: netser: Inventory\.items: std::vector member needs netser::max_size\(N\)
// The packet functions name a mistake as serialize does, in as few lines: here the
// README's first lines, a buffer of max_packet_bytes and write_packet.
// Fix: (items, netser::max_size(16)).
#include <netser/netser.hpp>

#include <cstddef>
#include <vector>

namespace game {

struct Inventory {
    int gold = 0;
    std::vector<int> items;
};
NETSER_STRUCT(Inventory, (gold, netser::range(0, 9999)), items)

bool send(const Inventory& v) {
    std::byte buffer[netser::max_packet_bytes<Inventory>()];
    return netser::write_packet(buffer, v).error.code == netser::errc::none;
}

} // namespace game
