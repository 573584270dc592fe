// description.hpp: NETSER_STRUCT (bare and parenthesised members, the order of the
// macro), NETSER_DERIVED_STRUCT (bases first), NETSER_CLASS (private members), a
// struct with no members, nested described structs with default encodings.

#include "reflect/test_types.hpp"

#include <cstdint>
#include <random>

using netser::errc;
using namespace reflect_test;

namespace description_test {

// Members go on the wire in the order the macro lists them.
struct Order {
    int a = 0;
    int b = 0;
    bool operator==(const Order&) const = default;
};
NETSER_STRUCT(Order, (b, netser::range(0, 3)), (a, netser::range(0, 15)))

class Secret {
public:
    Secret() = default;
    Secret(int a, bool b) : a_(a), b_(b) {}
    int a() const { return a_; }
    bool b() const { return b_; }
    bool operator==(const Secret&) const = default;

private:
    int a_ = 0;
    bool b_ = false;
    NETSER_CLASS(Secret, (a_, netser::range(0, 7)), b_)
};

class Nothing {
    NETSER_CLASS(Nothing)
};

struct Empty {
    bool operator==(const Empty&) const = default;
};
NETSER_STRUCT(Empty)

struct Base {
    std::uint8_t id = 0;
    bool operator==(const Base&) const = default;
};
NETSER_STRUCT(Base, id)

struct Derived : Base {
    bool alive = false;
    bool operator==(const Derived&) const = default;
};
NETSER_DERIVED_STRUCT(Derived, (Base), alive)

struct Tag {
    bool red = false;
    bool operator==(const Tag&) const = default;
};
NETSER_STRUCT(Tag, red)

struct Multi : Base, Tag {
    int level = 0;
    bool operator==(const Multi&) const = default;
};
NETSER_DERIVED_STRUCT(Multi, (Base, Tag), (level, netser::range(0, 2)))

// A struct with a constructor (not an aggregate) and an empty member.
struct Holder {
    Holder() = default;
    explicit Holder(std::uint8_t v) : value(v) {}
    Empty nothing;
    std::uint8_t value = 0;
    Nothing nothing_either;
    bool operator==(const Holder& o) const { return value == o.value; }
};
NETSER_STRUCT(Holder, nothing, value, nothing_either)

// Nested described structs without attributes: their own encodings.
struct Point {
    float x = 0, y = 0;
    bool operator==(const Point&) const = default;
};
NETSER_STRUCT(Point, x, y)

struct Segment {
    Point from, to;
    Derived owner;
    Secret secret;
    bool operator==(const Segment&) const = default;
};
NETSER_STRUCT(Segment, from, to, owner, secret)

namespace deeper::still {
struct Inner {
    std::uint8_t v = 0;
    bool operator==(const Inner&) const = default;
};
NETSER_STRUCT(Inner, (v, netser::bits(4)))
} // namespace deeper::still

// Types with internal linkage: the macros add no declaration a warning could flag
// (clang's -Wunused-function / -Wunneeded-internal-declaration under -Werror).
namespace {
struct Local {
    std::uint8_t v = 0;
};
NETSER_STRUCT(Local, (v, netser::bits(3)))
class LocalClass {
public:
    LocalClass() = default;
    explicit LocalClass(int v) : v_(v) {}
    int v() const { return v_; }

private:
    int v_ = 0;
    NETSER_CLASS(LocalClass, (v_, netser::range(0, 9)))
};
} // namespace

} // namespace description_test

using namespace description_test;

TEST_CASE("NETSER_STRUCT sends the members in the order the macro lists them", "[description]") {
    // b 2 in 2 bits, then a 1 in 4 bits.
    CHECK(write(Order{1, 2}).hex == "06");
    CHECK(write(Order{1, 2}).bits == 6);
    Order o;
    REQUIRE_FALSE(read_hex("06", o));
    CHECK(o == Order{1, 2});
    CHECK(failure_of(write_error(Order{16, 0})) == fail(errc::out_of_range, 2, "Order.a"));
}

TEST_CASE("NETSER_CLASS describes private members", "[description][class]") {
    // a_ 5 in 3 bits, b_ 1.
    CHECK(write(Secret{5, true}).hex == "0D");
    CHECK(write(Secret{5, true}).bits == 4);
    Secret s;
    REQUIRE_FALSE(read_hex("0D", s));
    CHECK(s.a() == 5);
    CHECK(s.b());
    CHECK(failure_of(write_error(Secret{8, true})) == fail(errc::out_of_range, 0, "Secret.a_"));
    for (int a = 0; a <= 7; ++a) CHECK(round_trip(Secret{a, a % 2 == 1}) == Secret{a, a % 2 == 1});
    Secret short_read;
    CHECK(failure_of(read_hex("", short_read)) == fail(errc::overflow, 0, "Secret.a_"));
}

TEST_CASE("a struct or class with no members takes no bits", "[description]") {
    CHECK(write(Empty{}).hex.empty());
    CHECK(write(Empty{}).bits == 0);
    CHECK(write(Nothing{}).bits == 0);
    Empty e;
    std::size_t bits = 1;
    REQUIRE_FALSE(read_hex("", e, &bits));
    CHECK(bits == 0);
    static_assert(netser::max_bits<Empty>() == 0);
    static_assert(netser::max_bits<Nothing>() == 0);
    // Empty members contribute nothing around a real one.
    CHECK(write(Holder{0xC3}).hex == "C3");
    CHECK(round_trip(Holder{0xC3}) == Holder{0xC3});
}

TEST_CASE("NETSER_DERIVED_STRUCT sends the bases first, in the order listed", "[description][derived]") {
    Derived d;
    d.id = 0x7F;
    d.alive = true;
    // id 0x7F (the base), then alive.
    CHECK(write(d).hex == "7F 01");
    CHECK(write(d).bits == 9);
    CHECK(round_trip(d) == d);

    Multi m;
    m.id = 0x80;
    m.red = true;
    m.level = 2;
    // id 0x80, red 1, level 2 in 2 bits.
    CHECK(write(m).hex == "80 05");
    CHECK(write(m).bits == 11);
    CHECK(round_trip(m) == m);
    static_assert(netser::max_bits<Multi>() == 11);
}

TEST_CASE("a derived struct's failures name the base members and its own", "[description][derived][hostile]") {
    Multi m;
    reference_writer forged;
    forged.put(0x80, 8);
    forged.put(1, 1);
    forged.put(3, 2); // level code 3 > 2
    CHECK(failure_of(read_forged(forged, m)) == fail(errc::out_of_range, 9, "Multi.level"));
    CHECK(failure_of(read_hex("80", m)) == fail(errc::overflow, 8, "Multi.red"));
    CHECK(failure_of(read_hex("", m)) == fail(errc::overflow, 0, "Multi.id"));
}

TEST_CASE("nested described structs use their own descriptions", "[description]") {
    Segment s;
    s.from = {1.f, 2.f};
    s.to = {-1.f, -2.f};
    s.owner.id = 9;
    s.owner.alive = true;
    s.secret = Secret{3, false};
    // 4 raw floats, then Derived (9 bits), then Secret (4 bits).
    CHECK(write(s).bits == 4 * 32 + 9 + 4);
    CHECK(round_trip(s) == s);
    static_assert(netser::max_bits<Segment>() == 4 * 32 + 9 + 4);
    s.secret = Secret{9, false};
    CHECK(failure_of(write_error(s)) == fail(errc::out_of_range, 137, "Segment.secret.a_"));
}

TEST_CASE("NETSER_STRUCT and NETSER_CLASS work in an anonymous namespace", "[description]") {
    CHECK(write(Local{5}).hex == "05");
    CHECK(write(Local{5}).bits == 3);
    CHECK(write(LocalClass{9}).hex == "09");
    CHECK(failure_of(write_error(LocalClass{10})) == fail(errc::out_of_range, 0, "LocalClass.v_"));
}

TEST_CASE("NETSER_STRUCT works in nested namespaces and names the type without them", "[description]") {
    using deeper::still::Inner;
    CHECK(write(Inner{0xA}).hex == "0A");
    CHECK(write(Inner{0xA}).bits == 4);
    CHECK(failure_of(write_error(Inner{0x10})) == fail(errc::out_of_range, 0, "Inner.v"));
}
