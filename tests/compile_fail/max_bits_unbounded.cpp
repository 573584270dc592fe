// expect: netser: max_bits needs a bound for every member
// A type with its own serialize function has no known size unless it states one.
// Fix: constexpr std::size_t netser_max_bits(const Blob*) { return 8; } next to it.
#include <netser/netser.hpp>

#include <cstdint>

namespace game {

struct Blob {
    std::uint8_t v = 0;
};
template <class Stream>
bool serialize(Stream& s, Blob& b) {
    return netser::serialize_bits(s, b.v, 8);
}

struct Holder {
    Blob blob;
};
NETSER_STRUCT(Holder, blob)

std::size_t bound() { return netser::max_bits<Holder>(); }

} // namespace game
