// expect: netser: a user type's netser_wire\(\) needs fields of 1 to 32 bits with codes that fit them
// Rgb's codec states a 16-bit wire and netser_max_bits 24: one of them is wrong, and the
// schema tools would decode the wire. Fix: make them agree, or drop netser_max_bits (the
// wire states it). A type's codec is not a member's, so the message has no member name
// (asked of a struct that holds it, clang adds three notes more than here).
#include <netser/netser.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

namespace game {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
};
constexpr auto netser_wire(const Rgb*) {
    return netser::wire(netser::wire_code("r", 5), netser::wire_code("g", 6), netser::wire_code("b", 5));
}
constexpr std::size_t netser_max_bits(const Rgb*) { return 24; }
template <class S>
bool serialize(S& s, Rgb& c) {
    std::array<std::uint64_t, 3> codes{c.r, c.g, c.b};
    return netser::serialize_wire(s, netser_wire(&c), codes);
}

static_assert(netser::max_bits<Rgb>() == 16);

} // namespace game
