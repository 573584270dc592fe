// schema_hash<T>(): a compile-time fingerprint of the reflected layout. Each pair of
// structs below has the same name (in two namespaces) and differs in exactly one
// thing, so a pair can only hash the same if that one thing is left out of the hash.

#include "packet_types.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace schema_test {

#define SCHEMA_TEST_POS(X_RANGE, HP_TYPE, HEADING_Q, ITEMS_MAX, NAME_MAX)                                   \
    struct Pos {                                                                                             \
        std::int32_t x = 0;                                                                                  \
        HP_TYPE hp = 0;                                                                                      \
        float heading = 0;                                                                                   \
        std::vector<std::uint16_t> items;                                                                    \
        std::string name;                                                                                    \
        bool alive = false;                                                                                  \
    };                                                                                                       \
    NETSER_STRUCT(Pos, (x, X_RANGE), (hp, netser::range(0, 100)), (heading, HEADING_Q),                     \
                  (items, netser::max_size(ITEMS_MAX)), (name, netser::max_length(NAME_MAX)), alive)

namespace base {
SCHEMA_TEST_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}
namespace same {
SCHEMA_TEST_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}
namespace range_max {
SCHEMA_TEST_POS(netser::range(-100, 101), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}
namespace range_min {
SCHEMA_TEST_POS(netser::range(-99, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}
namespace range_to_bits {
SCHEMA_TEST_POS(netser::bits(8), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}
namespace quantize_resolution {
SCHEMA_TEST_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.25f), 8, 16)
}
namespace quantize_min {
SCHEMA_TEST_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(-1.f, 360.f, 0.5f), 8, 16)
}
namespace quantize_max {
SCHEMA_TEST_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 359.f, 0.5f), 8, 16)
}
namespace max_size_changed {
SCHEMA_TEST_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 9, 16)
}
namespace max_length_changed {
SCHEMA_TEST_POS(netser::range(-100, 100), std::uint8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 17)
}
namespace member_type_changed {
SCHEMA_TEST_POS(netser::range(-100, 100), std::uint16_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}
namespace member_signedness_changed {
SCHEMA_TEST_POS(netser::range(-100, 100), std::int8_t, netser::quantize(0.f, 360.f, 0.5f), 8, 16)
}

#undef SCHEMA_TEST_POS

namespace member_renamed {
struct Pos {
    std::int32_t x = 0;
    std::uint8_t hp = 0;
    float heading = 0;
    std::vector<std::uint16_t> items;
    std::string name;
    bool living = false; // was `alive`
};
NETSER_STRUCT(Pos, (x, netser::range(-100, 100)), (hp, netser::range(0, 100)),
              (heading, netser::quantize(0.f, 360.f, 0.5f)), (items, netser::max_size(8)),
              (name, netser::max_length(16)), living)
} // namespace member_renamed

namespace members_reordered {
struct Pos {
    std::int32_t x = 0;
    std::uint8_t hp = 0;
    float heading = 0;
    std::vector<std::uint16_t> items;
    std::string name;
    bool alive = false;
};
NETSER_STRUCT(Pos, (hp, netser::range(0, 100)), (x, netser::range(-100, 100)), // hp before x
              (heading, netser::quantize(0.f, 360.f, 0.5f)), (items, netser::max_size(8)),
              (name, netser::max_length(16)), alive)
} // namespace members_reordered

namespace attribute_added {
struct Pos {
    std::int32_t x = 0;
    std::uint8_t hp = 0;
    float heading = 0;
    std::vector<std::uint16_t> items;
    std::string name;
    bool alive = false;
};
NETSER_STRUCT(Pos, (x, netser::range(-100, 100)), (hp, netser::range(0, 100), netser::common(100)),
              (heading, netser::quantize(0.f, 360.f, 0.5f)), (items, netser::max_size(8)),
              (name, netser::max_length(16)), alive)
} // namespace attribute_added

namespace struct_renamed {
struct Position {
    std::int32_t x = 0;
    std::uint8_t hp = 0;
    float heading = 0;
    std::vector<std::uint16_t> items;
    std::string name;
    bool alive = false;
};
NETSER_STRUCT(Position, (x, netser::range(-100, 100)), (hp, netser::range(0, 100)),
              (heading, netser::quantize(0.f, 360.f, 0.5f)), (items, netser::max_size(8)),
              (name, netser::max_length(16)), alive)
} // namespace struct_renamed

// Nesting: the outer struct's hash follows its member's layout.
namespace base {
struct Outer {
    Pos pos;
    std::uint8_t kind = 0;
};
NETSER_STRUCT(Outer, pos, kind)
} // namespace base
namespace range_max {
struct Outer {
    Pos pos;
    std::uint8_t kind = 0;
};
NETSER_STRUCT(Outer, pos, kind)
} // namespace range_max

// only_if: which flag gates the member is part of the layout.
namespace gated_by_a {
struct Gated {
    bool a = false, b = false;
    std::uint8_t v = 0;
};
NETSER_STRUCT(Gated, a, b, (v, netser::only_if(&Gated::a)))
} // namespace gated_by_a
namespace gated_by_b {
struct Gated {
    bool a = false, b = false;
    std::uint8_t v = 0;
};
NETSER_STRUCT(Gated, a, b, (v, netser::only_if(&Gated::b)))
} // namespace gated_by_b

// Enums: names, values and count of the enumerators.
namespace enum_base {
BOOST_DEFINE_ENUM_CLASS(Color, red, green, blue)
}
namespace enum_added {
BOOST_DEFINE_ENUM_CLASS(Color, red, green, blue, black)
}
namespace enum_renamed {
BOOST_DEFINE_ENUM_CLASS(Color, red, green, cyan)
}
namespace enum_renumbered {
enum class Color { red, green, blue = 5 };
BOOST_DESCRIBE_ENUM(Color, red, green, blue)
} // namespace enum_renumbered

// A recursive type: the inner Node hashes as a back-reference.
struct Node {
    std::uint8_t value = 0;
    std::vector<Node> children;
};
NETSER_STRUCT(Node, value, (children, netser::max_size(4)))

struct A {
    bool a = false;
};
NETSER_STRUCT(A, a)
struct B {
    bool b = false;
};
NETSER_STRUCT(B, b)

} // namespace schema_test

namespace {

template <class T>
constexpr std::uint32_t h = netser::schema_hash<T>();

using namespace schema_test;

} // namespace

TEST_CASE("schema_hash is a compile-time constant", "[schema_hash]") {
    // Compared at compile time with the model's values (the goldens below).
    STATIC_REQUIRE(netser::schema_hash<base::Pos>() == 0xEDD35A27u);
    STATIC_REQUIRE(netser::schema_hash<packet_test::Message>() == 0xAB07329Au);
}

TEST_CASE("two structs with the same name and layout have the same fingerprint", "[schema_hash]") {
    // The control for every pair below: the namespace is not part of the fingerprint.
    CHECK(h<same::Pos> == h<base::Pos>);
}

TEST_CASE("changing a range changes the fingerprint", "[schema_hash]") {
    CHECK(h<range_max::Pos> != h<base::Pos>);
    CHECK(h<range_min::Pos> != h<base::Pos>);
    CHECK(h<range_to_bits::Pos> != h<base::Pos>);
}

TEST_CASE("changing a quantization changes the fingerprint", "[schema_hash]") {
    CHECK(h<quantize_resolution::Pos> != h<base::Pos>);
    CHECK(h<quantize_min::Pos> != h<base::Pos>);
    CHECK(h<quantize_max::Pos> != h<base::Pos>);
}

TEST_CASE("changing a max_size or a max_length changes the fingerprint", "[schema_hash]") {
    CHECK(h<max_size_changed::Pos> != h<base::Pos>);
    CHECK(h<max_length_changed::Pos> != h<base::Pos>);
}

TEST_CASE("renaming a member or the struct changes the fingerprint", "[schema_hash]") {
    CHECK(h<member_renamed::Pos> != h<base::Pos>);
    CHECK(h<struct_renamed::Position> != h<base::Pos>);
}

TEST_CASE("reordering members changes the fingerprint", "[schema_hash]") {
    CHECK(h<members_reordered::Pos> != h<base::Pos>);
}

TEST_CASE("changing a member's type changes the fingerprint, even when its wire encoding is the same",
          "[schema_hash]") {
    CHECK(h<member_type_changed::Pos> != h<base::Pos>);
    CHECK(h<member_signedness_changed::Pos> != h<base::Pos>);
}

TEST_CASE("adding an attribute changes the fingerprint", "[schema_hash]") {
    CHECK(h<attribute_added::Pos> != h<base::Pos>);
}

TEST_CASE("a change inside a nested struct changes the outer fingerprint", "[schema_hash]") {
    CHECK(h<range_max::Outer> != h<base::Outer>);
}

TEST_CASE("the flag named by only_if is part of the fingerprint", "[schema_hash]") {
    CHECK(h<gated_by_a::Gated> != h<gated_by_b::Gated>);
}

TEST_CASE("adding, renaming or renumbering an enumerator changes the fingerprint", "[schema_hash]") {
    CHECK(h<enum_added::Color> != h<enum_base::Color>);
    CHECK(h<enum_renamed::Color> != h<enum_base::Color>);
    CHECK(h<enum_renumbered::Color> != h<enum_base::Color>);
}

TEST_CASE("the order and the number of a variant's alternatives are part of the fingerprint", "[schema_hash]") {
    CHECK(h<std::variant<A, B>> != h<std::variant<B, A>>);
    CHECK(h<std::variant<A, B>> != h<std::variant<A, B, B>>);
    CHECK(h<std::vector<A>> != h<std::optional<A>>);
}

// Golden values: those of the independent model of the token stream written in
// docs/wire_format.md ("Schema fingerprint"), tools/golden_types.py, which ctest's
// netser_golden_model checks against each assertion below (`python3
// tools/golden_types.py --hash` prints them). They use fixed-width types only, so they
// must also hold on big-endian and 32-bit hosts (make s390x, make i686). h<T> is a
// constexpr variable: the values are computed at compile time, and a mismatch is
// reported per value rather than as a compile error.
TEST_CASE("schema_hash gives the golden values on every compiler and platform", "[schema_hash][golden]") {
    CHECK(h<std::uint8_t> == 0x7DD79398u);
    CHECK(h<base::Pos> == 0xEDD35A27u);
    CHECK(h<base::Outer> == 0xA854397Bu);
    CHECK(h<gated_by_a::Gated> == 0x7B033095u);
    CHECK(h<enum_base::Color> == 0x8FD8A786u);
    CHECK(h<Node> == 0x5F75BE72u);
    CHECK(h<packet_test::Ping> == 0x4D1A36ACu);
    CHECK(h<packet_test::Join> == 0xB6819368u);
    CHECK(h<packet_test::Chat> == 0x62067B47u);
    CHECK(h<packet_test::Move> == 0x6D772405u);
    CHECK(h<packet_test::Leave> == 0x195A1FBFu);
    CHECK(h<packet_test::Message> == 0xAB07329Au);
}
