// expect: netser: Ship\.heading: this user attribute must state its bits: a max_bits\(\) member, a wire\(\)
// The codec states an 8-bit wire and max_bits() 9: one of them is wrong, and the schema
// tools would decode the wire. Fix: make them agree, or drop max_bits() (the wire states it).
#include <netser/netser.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

namespace game {

struct step_t {
    static constexpr auto wire() { return netser::wire(netser::wire_code("step", 8)); }
    static constexpr std::size_t max_bits() { return 9; }
    template <class S>
    bool serialize(S& s, float& v) const {
        std::array<std::uint64_t, 1> code{static_cast<std::uint64_t>(v)};
        return netser::serialize_wire(s, wire(), code);
    }
};
inline constexpr step_t step{};

struct Ship {
    float heading = 0;
};
NETSER_STRUCT(Ship, (heading, step))

bool measure(netser::measure_stream& s, Ship& v) { return netser::serialize(s, v); }

} // namespace game
