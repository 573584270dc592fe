#pragma once

// Pairs of structs for tests/schema/test_diff.py: two versions of `Pos` (and of what it
// holds) that differ in one thing each. schema_export writes <case>.a.json and
// <case>.b.json; the test says by hand what the diff must print for each.

#include <netser/netser.hpp>

#include <boost/describe/enum.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace diff_types {

// The base version, with every member a case changes; V_... macros give each variant.
#define DIFF_POS(X_ATTR, HP_TYPE, HEADING_Q, ITEMS_MAX, NAME_MAX, ...)                                            \
    BOOST_DEFINE_ENUM_CLASS(Weapon, none, pistol, rifle)                                                    \
    struct Quat {                                                                                            \
        float x = 0, y = 0, z = 0, w = 1;                                                                    \
    };                                                                                                       \
    struct Pos {                                                                                             \
        std::int32_t x = 0;                                                                                  \
        HP_TYPE hp = 0;                                                                                      \
        float heading = 0;                                                                                   \
        std::vector<std::uint16_t> items;                                                                    \
        std::string name;                                                                                    \
        bool alive = false;                                                                                  \
        Weapon weapon = Weapon::none;                                                                        \
        Quat rotation;                                                                                       \
    };                                                                                                       \
    NETSER_STRUCT(Pos, (x, X_ATTR), (hp, netser::range(0, 100) __VA_OPT__(, ) __VA_ARGS__), (heading, HEADING_Q),          \
                  (items, netser::max_size(ITEMS_MAX)), (name, netser::max_length(NAME_MAX)), alive, weapon, \
                  (rotation, netser::smallest_three{9}))

namespace base {
DIFF_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}
namespace same {
DIFF_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}
namespace range_changed {
DIFF_POS(netser::range(-100, 200), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}
namespace range_to_bits {
DIFF_POS(netser::bits(8), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}
namespace quantize_resolution {
DIFF_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.25f), 8, 16)
}
namespace max_size_changed {
DIFF_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 16, 16)
}
namespace max_length_changed {
DIFF_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 40)
}
namespace type_changed {
DIFF_POS(netser::range(-100, 100), std::uint16_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}
namespace attribute_added {
DIFF_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16, netser::common(100))
}
// The delta attributes: the plain encoding stays, the deltas change.
namespace delta_ladder_added {
DIFF_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16, netser::delta_ladder(2, 8))
}
namespace delta_ladder_wide {
DIFF_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16, netser::delta_ladder(4, 64))
}
namespace delta_whole_added {
DIFF_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16, netser::delta_whole)
}

namespace enum_changed {
BOOST_DEFINE_ENUM_CLASS(Weapon, none, pistol, rifle, rocket)
struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
};
struct Pos {
    std::int32_t x = 0;
    std::uint8_t hp = 0;
    float heading = 0;
    std::vector<std::uint16_t> items;
    std::string name;
    bool alive = false;
    Weapon weapon = Weapon::none;
    Quat rotation;
};
NETSER_STRUCT(Pos, (x, netser::range(-100, 100)), (hp, netser::range(0, 100)),
              (heading, netser::quantize(0.f, 360.f, 0.5f)), (items, netser::max_size(8)),
              (name, netser::max_length(16)), alive, weapon, (rotation, netser::smallest_three{9}))
} // namespace enum_changed

// Members removed, added, reordered; only_if, check and a user attribute changed.
namespace members_changed {
BOOST_DEFINE_ENUM_CLASS(Weapon, none, pistol, rifle)
struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
};
struct Pos {
    std::uint8_t hp = 0;       // now before x
    std::int32_t x = 0;
    bool alive = false;        // name removed; now before heading, whose only_if flag it is
    float heading = 0;
    std::vector<std::uint16_t> items;
    Weapon weapon = Weapon::none;
    Quat rotation;
    std::uint16_t score = 0;   // added
};
NETSER_STRUCT(Pos, (hp, netser::range(0, 100)), (x, netser::range(-100, 100)), alive,
              (heading, netser::quantize(0.f, 360.f, 0.5f), netser::only_if(&Pos::alive)),
              (items, netser::check("items"), netser::max_size(8)), weapon,
              (rotation, netser::smallest_three{10}), (score, netser::range(0, 1000)))
} // namespace members_changed

#undef DIFF_POS

// A nested struct changed: the path goes through the outer struct's member.
namespace nested_a {
struct Vec2 {
    float x = 0, y = 0;
};
NETSER_STRUCT(Vec2, (x, netser::quantize(-1000.f, 1000.f, 0.002f)), (y, netser::quantize(-1000.f, 1000.f, 0.002f)))
struct Cube {
    std::uint16_t id = 0;
    Vec2 position;
    std::variant<Vec2, std::uint8_t> extra;
};
NETSER_STRUCT(Cube, id, position, extra)
} // namespace nested_a
namespace nested_b {
struct Vec2 {
    float x = 0, y = 0;
};
NETSER_STRUCT(Vec2, (x, netser::quantize(-1000.f, 1000.f, 0.001f)), (y, netser::quantize(-1000.f, 1000.f, 0.002f)))
struct Cube {
    std::uint16_t id = 0;
    Vec2 position;
    std::variant<Vec2, std::uint8_t, bool> extra;
};
NETSER_STRUCT(Cube, id, position, extra)
} // namespace nested_b

// smallest_three's own delta ladder (its schema hash covers it).
namespace spin_a {
struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
};
struct Spin {
    Quat q;
};
NETSER_STRUCT(Spin, (q, netser::smallest_three{9}))
} // namespace spin_a
namespace spin_b {
struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
};
struct Spin {
    Quat q;
};
NETSER_STRUCT(Spin, (q, netser::smallest_three{9, netser::difference_ladder{{2, 4, 8, 32}, 4}}))
} // namespace spin_b

inline void write_schema(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

/// <dir>/<case>.a.json and <case>.b.json for each case.
inline void export_pairs(const std::filesystem::path& dir) {
    const std::string base_json = netser::schema_json<base::Pos>();
    auto pair = [&](const char* name, const std::string& b) {
        write_schema(dir / (std::string(name) + ".a.json"), base_json);
        write_schema(dir / (std::string(name) + ".b.json"), b);
    };
    pair("same", netser::schema_json<same::Pos>());
    pair("range_changed", netser::schema_json<range_changed::Pos>());
    pair("range_to_bits", netser::schema_json<range_to_bits::Pos>());
    pair("quantize_resolution", netser::schema_json<quantize_resolution::Pos>());
    pair("max_size_changed", netser::schema_json<max_size_changed::Pos>());
    pair("max_length_changed", netser::schema_json<max_length_changed::Pos>());
    pair("type_changed", netser::schema_json<type_changed::Pos>());
    pair("attribute_added", netser::schema_json<attribute_added::Pos>());
    pair("delta_ladder_added", netser::schema_json<delta_ladder_added::Pos>());
    pair("delta_whole_added", netser::schema_json<delta_whole_added::Pos>());
    write_schema(dir / "delta_ladder_changed.a.json", netser::schema_json<delta_ladder_added::Pos>());
    write_schema(dir / "delta_ladder_changed.b.json", netser::schema_json<delta_ladder_wide::Pos>());
    pair("enum_changed", netser::schema_json<enum_changed::Pos>());
    pair("members_changed", netser::schema_json<members_changed::Pos>());
    write_schema(dir / "smallest_three_ladder.a.json", netser::schema_json<spin_a::Spin>());
    write_schema(dir / "smallest_three_ladder.b.json", netser::schema_json<spin_b::Spin>());
    write_schema(dir / "nested.a.json", netser::schema_json<nested_a::Cube>());
    write_schema(dir / "nested.b.json", netser::schema_json<nested_b::Cube>());
}

} // namespace diff_types
