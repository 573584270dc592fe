// expect: netser: Grid\.cells: netser::sparse applies to std::array<std::optional<T>, N>
// sparse sends the present elements of an array of optionals. Fix:
// std::array<std::optional<int>, 8> cells, or drop netser::sparse.
#include <netser/netser.hpp>

#include <array>

namespace game {

struct Grid {
    std::array<int, 8> cells{};
};
NETSER_STRUCT(Grid, (cells, netser::sparse))

bool measure(netser::measure_stream& s, Grid& v) { return netser::serialize(s, v); }

} // namespace game
