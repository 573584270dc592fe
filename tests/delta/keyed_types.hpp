#pragma once

// Types of the keyed delta goldens (tests/delta/keyed_golden_test.cpp, the delta_keyed_*
// and delta_sparse_slots rows of docs/wire_format.md), also exported with their schemas
// by tests/schema/schema_export.cpp for the reference decoder's golden deltas.

#include <netser/netser.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace keyed_golden {

// Every container holds at most 8 (a count of bits_required(0, 8) = 4 bits); values in
// range(0, 100) (codes [0, 100]: the default ladder keeps the rungs [1, 1] and [2, 16]).

/// Map keys take no attributes: a raw uint16 (16 bits, its own code).
struct Scores {
    std::map<std::uint16_t, std::uint8_t> m;
    bool operator==(const Scores&) const = default;
};
NETSER_STRUCT(Scores, (m, netser::max_size(8), netser::range(0, 100)))

struct HashScores {
    std::unordered_map<std::uint16_t, std::uint8_t> m;
    bool operator==(const HashScores&) const = default;
};
NETSER_STRUCT(HashScores, (m, netser::max_size(8), netser::range(0, 100)))

/// Signed keys: the code of a raw int16 is its two's complement bits, so -1 (0xFFFF)
/// comes after 7 in the reference order.
struct Tags {
    std::set<std::int16_t> s;
    bool operator==(const Tags&) const = default;
};
NETSER_STRUCT(Tags, (s, netser::max_size(8)))

struct Unit {
    std::uint16_t id = 0;
    std::uint8_t hp = 0;
    bool operator==(const Unit&) const = default;
};
NETSER_STRUCT(Unit, id, (hp, netser::range(0, 100)))

struct Units {
    std::vector<Unit> units;
    bool operator==(const Units&) const = default;
};
NETSER_STRUCT(Units, (units, netser::max_size(8), netser::keyed(&Unit::id)))

struct Slots8 {
    std::array<std::optional<std::uint8_t>, 8> slots{};
    bool operator==(const Slots8&) const = default;
};
NETSER_STRUCT(Slots8, (slots, netser::sparse, netser::range(0, 100)))

} // namespace keyed_golden
