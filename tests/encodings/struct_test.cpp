// encodings/struct.hpp: described structs (NETSER_STRUCT, NETSER_DERIVED_STRUCT, NETSER_CLASS),
// member modifiers skip / only_if / check, packed runs, and plain aggregates. The family's
// tests, one file (tests/encodings/README.md has the whole table).
//
// Where each aspect is covered:
//   wire bits     here: the macro's order, bases first, empty structs, only_if, skip, aggregates,
//                 packed runs ("a vector of small structs: one word per element...").
//   model         here: "a derived struct writes what a model of bases first, then the macro's
//                 order, writes" (reference_writer); packed runs against the core primitives one
//                 at a time; round trips of only_if with the flag set and clear.
//   bounds        here: "max_bits of a struct is its bases' and members' bounds...", max_bits of
//                 empty, derived, nested and aggregate structs and of packed runs;
//                 tests/reflect/bounds_test.cpp (Nested).
//   hostile       here: failures named by member and base, only_if's hostile codes, skip never
//                 read past, aggregates' fields by index, packed runs cut at every byte;
//                 tests/hostile/ (every packet type: bit flips, truncation, nesting_test.cpp).
//                 check: tests/packet/check_test.cpp and check_disabled_test.cpp.
//   compile-fail  tests/compile_fail/: only_if only_if_later_member.cpp, only_if_not_bool.cpp;
//                 plain_aggregate aggregate_with_string.cpp, aggregate_member_with_string.cpp,
//                 aggregate_member_in_header.cpp, max_bits_late_mistake.cpp; no_encoding
//                 pointer_member.cpp; the macro itself: missing_member.cpp, wrong_namespace.cpp,
//                 too_many_members.cpp, struct_with_core_only.cpp, attribute_typo.cpp
//                 (broken_description); NETSER_EXTERN: extern_without_description.cpp,
//                 extern_wrong_namespace.cpp.

#include "reflect/test_types.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

// ==========================================================================================
// From tests/reflect/description_test.cpp
// ==========================================================================================
// description.hpp: NETSER_STRUCT (bare and parenthesised members, the order of the
// macro), NETSER_DERIVED_STRUCT (bases first), NETSER_CLASS (private members), a
// struct with no members, nested described structs with default encodings.

namespace description {

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

} // namespace description

// ==========================================================================================
// From tests/reflect/attributes_test.cpp (only_if, skip)
// ==========================================================================================
// attributes.hpp: every member attribute, each with a golden vector derived by hand
// from the wire format, a random round trip and a hostile read.

namespace attributes_struct {

using netser::errc;
using namespace reflect_test;

namespace attributes_test {

// only_if: vx (14 bits) and note only when moving.
struct Mover {
    bool moving = false;
    float vx = 0;
    std::string note;
    bool operator==(const Mover&) const = default;
};
NETSER_STRUCT(Mover, moving,
    (vx, netser::quantize(-50.f, 50.f, 0.01f), netser::only_if(&Mover::moving)),
    (note, netser::max_length(3), netser::only_if(&Mover::moving)))

// only_if on members with default member initializers: a read resets them to those.
struct Lamp {
    bool lit = false;
    std::uint8_t brightness = 200;
    bool operator==(const Lamp&) const = default;
};
NETSER_STRUCT(Lamp, lit, (brightness, netser::only_if(&Lamp::lit)))

// skip: never sent, whatever its type (this string has no max_length).
struct Skipping {
    int a = 0;
    int cache = 0;
    std::string scratch;
    bool operator==(const Skipping&) const = default;
};
NETSER_STRUCT(Skipping, (a, netser::range(0, 7)), (cache, netser::skip), (scratch, netser::skip))

// skip on a member whose struct holds what has no encoding (a plain aggregate with a
// string): never sent, so never looked into for mistakes either.
struct Greeting {
    int id = 0;
    std::string text;
};
struct GreetingCache {
    Greeting last;
};
NETSER_STRUCT(GreetingCache, last)
struct SkippingCache {
    int a = 0;
    GreetingCache cache;
};
NETSER_STRUCT(SkippingCache, (a, netser::range(0, 7)), (cache, netser::skip))

} // namespace attributes_test

using namespace attributes_test;

// --- only_if ------------------------------------------------------------------

TEST_CASE("only_if sends the member only when the flag is true", "[attributes][only_if]") {
    CHECK(write(Mover{false, 3.f, "abc"}).hex == "00");
    CHECK(write(Mover{false, 3.f, "abc"}).bits == 1);
    // moving 1; vx 25 -> code 7500 of 10000 in 14 bits; note "ab": length 2, align, 61 62.
    CHECK(write(Mover{true, 25.f, "ab"}).hex == "99 3A 01 61 62");
    CHECK(write(Mover{true, 25.f, "ab"}).bits == 40);
    Mover m;
    REQUIRE_FALSE(read_hex("99 3A 01 61 62", m));
    CHECK(m == Mover{true, 25.f, "ab"});
}

TEST_CASE("only_if resets the member to its default when the flag read is false", "[attributes][only_if]") {
    Mover m{true, 7.f, "xyz"};
    std::size_t bits = 0;
    REQUIRE_FALSE(read_hex("00", m, &bits));
    CHECK(bits == 1);
    CHECK(m == Mover{false, 0.f, ""});
}

TEST_CASE("only_if resets the member to its default member initializer", "[attributes][only_if]") {
    Lamp l{true, 7};
    REQUIRE_FALSE(read_hex("00", l));
    CHECK(l == Lamp{false, 200});
    REQUIRE_FALSE(read_hex("0F 00", l)); // lit, then brightness 7 in 8 bits from bit 1
    CHECK(l == Lamp{true, 7});
}

TEST_CASE("only_if round-trips with the flag set and clear", "[attributes][only_if]") {
    std::mt19937 rng(7);
    for (int i = 0; i < 500; ++i) {
        Mover v;
        v.moving = i % 2 == 0;
        v.vx = std::uniform_real_distribution<float>(-50.f, 50.f)(rng);
        v.note = std::string(static_cast<std::size_t>(std::uniform_int_distribution<int>(0, 3)(rng)), 'n');
        const Mover r = round_trip(v);
        CHECK(r.moving == v.moving);
        if (v.moving) {
            CHECK(std::fabs(r.vx - v.vx) <= 0.00501f);
            CHECK(r.note == v.note);
        } else {
            CHECK(r.vx == 0.f);
            CHECK(r.note.empty());
        }
    }
}

TEST_CASE("only_if reads the member's hostile codes when the flag is set", "[attributes][only_if][hostile]") {
    Mover m;
    reference_writer forged;
    forged.put(1, 1);
    forged.put(16383, 14); // vx code > max_int 10000
    forged.put(0, 9);
    CHECK(failure_of(read_forged(forged, m)) == fail(errc::out_of_range, 1, "Mover.vx"));
    CHECK(failure_of(read_hex("01", m)) == fail(errc::overflow, 1, "Mover.vx"));
    // The flag clear: a bad value is never read, however the rest of the packet looks.
    CHECK_FALSE(read_hex("FE FF FF FF", m));
}

// --- skip ---------------------------------------------------------------------

TEST_CASE("skip never sends the member and leaves it untouched on read", "[attributes][skip]") {
    CHECK(write(Skipping{5, 99, "scratch"}).hex == "05");
    CHECK(write(Skipping{5, 99, "scratch"}).bits == 3);
    Skipping s{0, 42, "keep"};
    std::size_t bits = 0;
    REQUIRE_FALSE(read_hex("05", s, &bits));
    CHECK(bits == 3);
    CHECK(s == Skipping{5, 42, "keep"});
}

TEST_CASE("skip's member is not looked into, even when its struct could not be sent", "[attributes][skip]") {
    SkippingCache v;
    v.a = 5;
    v.cache.last = {7, "hello"};
    CHECK(write(v).hex == "05");
    CHECK(netser::max_bits<SkippingCache>() == 3);
    SkippingCache r;
    r.cache.last = {1, "kept"};
    REQUIRE_FALSE(read_hex("05", r));
    CHECK(r.a == 5);
    CHECK(r.cache.last.text == "kept");
    std::array<std::byte, 8> buffer{};
    netser::write_stream w(buffer.data(), buffer.size());
    CHECK(netser::serialize_delta(w, v, SkippingCache{}));
}

TEST_CASE("skip round-trips the other members and never reads past them", "[attributes][skip][hostile]") {
    for (int a = 0; a <= 7; ++a) {
        const Skipping r = round_trip(Skipping{a, a * 10, "x"});
        CHECK(r == Skipping{a, 0, ""});
    }
    Skipping s{0, 42, "keep"};
    CHECK(failure_of(read_hex("", s)) == fail(errc::overflow, 0, "Skipping.a"));
    CHECK(s.cache == 42);
    CHECK(s.scratch == "keep");
}

} // namespace attributes_struct

// ==========================================================================================
// From tests/reflect/packed_test.cpp
// ==========================================================================================
// Members with fixed-width encodings in a row go through the bit-packer together
// (encodings/struct.hpp, "packed runs"). These tests hold the packed code to what member-by-member
// code gives: the same bits (checked against the core primitives, which have golden
// vectors of their own), and the same errors: the first failing member, at its own
// bit, with its own name, whether it fails for its value or for lack of room.

namespace packed {

namespace packed_test {

using namespace reflect_test;
using netser::errc;

// Widths 3 1 0 15 10 7 | 32 16 | 64 | 1 | 64 | 8: two runs of several members, then
// members alone (a run stops before 56 bits).
struct Dense {
    std::uint8_t a = 0;   // range 0..7: 3 bits
    bool b = false;       // 1
    int c = 5;            // range 5..5: 0 bits
    float d = 0.f;        // quantize -100..100 at 0.01: 20000 steps, 15 bits
    std::uint16_t e = 0;  // bits(10)
    int f = 0;            // range -50..50: 7 bits
    std::uint32_t g = 0;  // 32
    std::int16_t h = 0;   // 16
    double i = 0.0;       // 64
    bool j = false;       // 1
    std::int64_t k = 0;   // full int64 range: 64
    std::uint8_t l = 0;   // range 0..200: 8
};
NETSER_STRUCT(Dense,
    (a, netser::range(0, 7)),
    b,
    (c, netser::range(5, 5)),
    (d, netser::quantize(-100.f, 100.f, 0.01f)),
    (e, netser::bits(10)),
    (f, netser::range(-50, 50)),
    g,
    h,
    i,
    j,
    (k, netser::range(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max())),
    (l, netser::range(0, 200)))

constexpr const char* names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};
constexpr int widths[] = {3, 1, 0, 15, 10, 7, 32, 16, 64, 1, 64, 8};
constexpr netser::quantization dq = netser::quantization::make(-100.f, 100.f, 0.01f);

std::size_t start_of(std::size_t member) {
    std::size_t bit = 0;
    for (std::size_t m = 0; m < member; ++m) bit += static_cast<std::size_t>(widths[m]);
    return bit;
}

// A member without attributes: its two's complement bits.
template <netser::stream S>
bool serialize_twos_complement(S& s, std::int16_t& v) {
    auto u = static_cast<std::uint16_t>(v);
    if (!netser::serialize_bits(s, u, 16)) return false;
    v = static_cast<std::int16_t>(u);
    return true;
}

// The same members, one primitive at a time.
template <netser::stream S>
bool serialize_by_hand(S& s, Dense& v) {
    return netser::serialize_int(s, v.a, 0, 7) && netser::serialize_bool(s, v.b) && netser::serialize_int(s, v.c, 5, 5) &&
           netser::serialize_quantized(s, v.d, dq) && netser::serialize_bits(s, v.e, 10) &&
           netser::serialize_int(s, v.f, -50, 50) && netser::serialize_bits(s, v.g, 32) &&
           serialize_twos_complement(s, v.h) &&
           netser::serialize_double(s, v.i) && netser::serialize_bool(s, v.j) &&
           netser::serialize_int(s, v.k, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()) &&
           netser::serialize_int(s, v.l, 0, 200);
}

Dense random_dense(std::mt19937_64& rng) {
    Dense v;
    v.a = static_cast<std::uint8_t>(rng() % 8);
    v.b = rng() % 2 != 0;
    v.d = std::uniform_real_distribution<float>(-100.f, 100.f)(rng);
    v.e = static_cast<std::uint16_t>(rng() % 1024);
    v.f = static_cast<int>(rng() % 101) - 50;
    v.g = static_cast<std::uint32_t>(rng());
    v.h = static_cast<std::int16_t>(rng());
    v.i = std::bit_cast<double>(rng());
    v.j = rng() % 2 != 0;
    v.k = static_cast<std::int64_t>(rng());
    v.l = static_cast<std::uint8_t>(rng() % 201);
    return v;
}

bool same_bits(const Dense& x, const Dense& y) {
    return x.a == y.a && x.b == y.b && x.c == y.c && std::bit_cast<std::uint32_t>(x.d) == std::bit_cast<std::uint32_t>(y.d) &&
           x.e == y.e && x.f == y.f && x.g == y.g && x.h == y.h &&
           std::bit_cast<std::uint64_t>(x.i) == std::bit_cast<std::uint64_t>(y.i) && x.j == y.j && x.k == y.k && x.l == y.l;
}

TEST_CASE("packed members write and read what the primitives one at a time do", "[packed]") {
    static_assert(netser::max_bits<Dense>() == 221);
    std::mt19937_64 rng(20261121);
    for (int n = 0; n < 3000; ++n) {
        Dense v = random_dense(rng);
        std::vector<std::byte> packed(64), by_hand(64);
        netser::write_stream w1(packed.data(), packed.size()), w2(by_hand.data(), by_hand.size());
        REQUIRE(netser::serialize(w1, v));
        REQUIRE(serialize_by_hand(w2, v));
        REQUIRE(w1.bits_processed() == 221);
        REQUIRE(w2.bits_processed() == 221);
        w1.finish();
        w2.finish();
        REQUIRE(hex(packed) == hex(by_hand));

        Dense reflected{}, primitive{};
        netser::read_stream r1(packed.data(), 28), r2(packed.data(), 28);
        REQUIRE(netser::serialize(r1, reflected));
        REQUIRE(serialize_by_hand(r2, primitive));
        CHECK(r1.bits_processed() == 221);
        CHECK(same_bits(reflected, primitive));
    }
}

TEST_CASE("a packet cut at every byte fails at the first member that does not fit", "[packed][hostile]") {
    std::mt19937_64 rng(7);
    Dense v = random_dense(rng);
    const auto bytes = netser_test::unhex(write(v).hex);
    REQUIRE(bytes.size() == 28);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        std::size_t member = 0;
        while (start_of(member) + static_cast<std::size_t>(widths[member]) <= n * 8) ++member;
        INFO("cut to " << n << " bytes");
        Dense out;
        CHECK(failure_of(read_bytes(std::span(bytes).first(n), out)) ==
              fail(errc::overflow, start_of(member), std::string("Dense.") + names[member]));
    }
}

TEST_CASE("an out-of-range code before the cut is reported, not the cut", "[packed][hostile]") {
    SECTION("a quantized code above max_int") {
        reference_writer w;
        w.put(0, 3);
        w.put(1, 1);
        w.put(dq.max_int + 1, 15); // d
        w.put(0, 5);               // part of e: the packet ends inside e
        Dense out;
        CHECK(failure_of(read_forged(w, out)) == fail(errc::out_of_range, 4, "Dense.d"));
        CHECK(out.a == 0);
        CHECK(out.b); // the members before the failure were read
    }
    SECTION("a range code above max - min, in a whole run") {
        reference_writer w;
        w.put(0, 3 + 1 + 15 + 10);
        w.put(101, 7); // f: codes 101..127 are outside -50..50
        put_zeros(w, 221 - 36);
        Dense out;
        CHECK(failure_of(read_forged(w, out)) == fail(errc::out_of_range, 29, "Dense.f"));
    }
    SECTION("the last member of the struct, alone") {
        reference_writer w;
        put_zeros(w, 213);
        w.put(201, 8);
        Dense out;
        CHECK(failure_of(read_forged(w, out)) == fail(errc::out_of_range, 213, "Dense.l"));
    }
}

netser::error write_into(const Dense& v, std::size_t capacity) {
    std::vector<std::byte> buffer(capacity);
    netser::write_stream w(buffer.data(), buffer.size());
    CHECK_FALSE(netser::serialize(w, v));
    return w.error();
}

TEST_CASE("a packed write fails at the first member that is bad or does not fit", "[packed][hostile]") {
    Dense v;
    SECTION("out of room before a bad value: overflow at the member that does not fit") {
        v.f = 51; // bad, but e (bits 19..28) does not fit 3 bytes first
        CHECK(failure_of(write_into(v, 3)) == fail(errc::overflow, 19, "Dense.e"));
    }
    SECTION("a bad value that would not fit either: its own error") {
        v.d = std::numeric_limits<float>::quiet_NaN(); // bits 4..18, 2 bytes hold 16 bits
        CHECK(failure_of(write_into(v, 2)) == fail(errc::invalid_value, 4, "Dense.d"));
    }
    SECTION("bad values anywhere in a run, with room to spare") {
        for (std::size_t member : {0u, 4u, 5u}) {
            Dense bad;
            if (member == 0) bad.a = 8;
            if (member == 4) bad.e = 1024;
            if (member == 5) bad.f = -51;
            INFO("member " << names[member]);
            CHECK(failure_of(write_error(bad)) == fail(errc::out_of_range, start_of(member), std::string("Dense.") + names[member]));
        }
        Dense constant;
        constant.c = 4;
        CHECK(failure_of(write_error(constant)) == fail(errc::out_of_range, 4, "Dense.c"));
    }
    SECTION("every buffer size: overflow at the first member that does not fit") {
        for (std::size_t n = 0; n < 28; ++n) {
            std::size_t member = 0;
            while (start_of(member) + static_cast<std::size_t>(widths[member]) <= n * 8) ++member;
            INFO(n << " bytes");
            CHECK(failure_of(write_into(v, n)) == fail(errc::overflow, start_of(member), std::string("Dense.") + names[member]));
        }
    }
}

} // namespace packed_test

} // namespace packed

// ==========================================================================================
// From tests/reflect/packed_elements_test.cpp
// ==========================================================================================
// A vector or array of flat structs whose members all fit one packed run (a roster of
// {team, score, alive}: 17 bits) is written and read a word per element after one room
// check for all of them. These tests hold it to what member-by-member code gives: the
// bits (a golden vector worked out from the wire, and the core primitives), and the
// errors of a bad element anywhere (its member, its bit, its index), of a cut packet and
// of a full buffer.

namespace packed_elements {

namespace packed_elements_test {

struct Entry {
    std::uint8_t team = 0;   // 2 bits
    std::uint16_t score = 0; // 14 bits (codes 10000..16383 are not scores)
    bool alive = false;      // 1 bit
    bool operator==(const Entry&) const = default;
};
NETSER_STRUCT(Entry, (team, netser::range(0, 3)), (score, netser::range(0, 9999)), alive)

struct Team {
    std::vector<Entry> entries; // a count of 5 bits, then 17 bits an entry
    std::array<Entry, 12> bench{};
    bool operator==(const Team&) const = default;
};
NETSER_STRUCT(Team, (entries, netser::max_size(16)), bench)

constexpr std::size_t entry_bits = 17;

// The entry as the core primitives write it, one member at a time.
template <netser::stream S>
bool entry_by_hand(S& s, Entry& e) {
    return netser::serialize_int(s, e.team, 0, 3) && netser::serialize_int(s, e.score, 0, 9999) &&
           netser::serialize_bool(s, e.alive);
}
template <netser::stream S>
bool team_by_hand(S& s, Team& t) {
    std::uint32_t n = static_cast<std::uint32_t>(t.entries.size());
    if (!netser::serialize_int(s, n, 0u, 16u)) return false;
    if constexpr (S::is_reading) t.entries.resize(n);
    for (auto& e : t.entries)
        if (!entry_by_hand(s, e)) return false;
    for (auto& e : t.bench)
        if (!entry_by_hand(s, e)) return false;
    return true;
}

Team random_team(std::mt19937& rng) {
    Team t;
    t.entries.resize(rng() % 17);
    auto fill = [&](Entry& e) {
        e.team = static_cast<std::uint8_t>(rng() % 4);
        e.score = static_cast<std::uint16_t>(rng() % 10000);
        e.alive = (rng() & 1) != 0;
    };
    for (auto& e : t.entries) fill(e);
    for (auto& e : t.bench) fill(e);
    return t;
}

std::string team_hex(Team t) {
    return netser_test::write_hex([&](auto& s) { return netser::serialize(s, t); }, 1024);
}

} // namespace packed_elements_test

using namespace packed_elements_test;
using netser::errc;

TEST_CASE("a vector of small structs: one word per element, as the wire says", "[packed][golden]") {
    // count 2 (5 bits), then team 1 | score 2 << 2 | alive << 16 and team 3 | score 9999 << 2.
    Team t;
    t.entries = {{1, 2, true}, {3, 9999, false}};
    const std::string hex = team_hex(t);
    CHECK(hex.substr(0, 14) == "22 01 E0 0F 27"); // the bench of 12 zero entries follows
    std::size_t bits = 0;
    Team back;
    REQUIRE_FALSE(netser_test::read_hex(hex, [&](auto& s) { return netser::serialize(s, back); }, &bits));
    CHECK(bits == 5 + 2 * entry_bits + 12 * entry_bits);
    CHECK(back == t);
}

TEST_CASE("a vector of small structs writes and reads what the primitives one at a time do", "[packed]") {
    std::mt19937 rng(17);
    for (int i = 0; i < 300; ++i) {
        Team t = random_team(rng);
        Team by_hand = t;
        CHECK(team_hex(t) == netser_test::write_hex([&](auto& s) { return team_by_hand(s, by_hand); }, 1024));
        Team back;
        back.entries.assign(rng() % 20, Entry{3, 7, true}); // a reused vector, of any size
        REQUIRE_FALSE(netser_test::read_hex(team_hex(t), [&](auto& s) { return netser::serialize(s, back); }));
        CHECK(back == t);
    }
}

TEST_CASE("a bad code in any element is reported at its member, bit and index", "[packed][hostile]") {
    std::mt19937 rng(5);
    Team t = random_team(rng);
    t.entries.resize(16);
    for (std::size_t k = 0; k < t.entries.size() + t.bench.size(); ++k) {
        const bool in_vector = k < t.entries.size();
        const std::size_t index = in_vector ? k : k - t.entries.size();
        INFO("element " << k);
        // The score's code is 14 bits at bit 2 of the element: 16383 is no score.
        std::vector<std::byte> packet = netser_test::unhex(team_hex(t));
        const std::size_t at = 5 + k * entry_bits + 2;
        for (std::size_t b = 0; b < 14; ++b)
            packet[(at + b) / 8] |= std::byte{static_cast<unsigned char>(1u << ((at + b) % 8))};
        Team back;
        const netser::error e =
            netser_test::read_hex(netser_test::hex(packet), [&](auto& s) { return netser::serialize(s, back); });
        CHECK(e.code == errc::out_of_range);
        CHECK(e.bit == at);
        CHECK(e.path() == std::string("Team.") + (in_vector ? "entries[" : "bench[") + std::to_string(index) + "].score");
        // The elements before it are read.
        for (std::size_t j = 0; j < std::min(k, t.entries.size()); ++j) CHECK(back.entries[j] == t.entries[j]);
    }
}

TEST_CASE("a bad value in any element fails the write at its member, bit and index", "[packed][hostile]") {
    std::mt19937 rng(6);
    Team t = random_team(rng);
    t.entries.resize(16);
    for (std::size_t k = 0; k < t.entries.size() + t.bench.size(); ++k) {
        INFO("element " << k);
        Team bad = t;
        Entry& e = k < t.entries.size() ? bad.entries[k] : bad.bench[k - t.entries.size()];
        e.team = 4; // above range(0, 3)
        std::vector<std::byte> buffer(1024);
        netser::write_stream w(buffer.data(), buffer.size());
        CHECK_FALSE(netser::serialize(w, bad));
        CHECK(w.error().code == errc::out_of_range);
        CHECK(w.error().bit == 5 + k * entry_bits);
        const std::size_t index = k < t.entries.size() ? k : k - t.entries.size();
        CHECK(w.error().path() ==
              std::string("Team.") + (k < t.entries.size() ? "entries[" : "bench[") + std::to_string(index) + "].team");
        // The elements before it are written as they would be alone.
        std::vector<std::byte> good(1024);
        netser::write_stream g(good.data(), good.size());
        REQUIRE(netser::serialize(g, t));
        const auto written = w.finish();
        const auto expected = g.finish();
        const std::size_t whole = (5 + k * entry_bits) / 8;
        CHECK(std::equal(written.begin(), written.begin() + static_cast<std::ptrdiff_t>(whole), expected.begin()));
    }
}

TEST_CASE("a cut packet or a full buffer fails with overflow at the element that does not fit", "[packed][hostile]") {
    std::mt19937 rng(9);
    Team t = random_team(rng);
    t.entries.resize(16);
    const std::vector<std::byte> packet = netser_test::unhex(team_hex(t));
    const std::size_t total = 5 + 28 * entry_bits;
    for (std::size_t cut = 0; cut < packet.size(); ++cut) {
        INFO("cut at byte " << cut);
        const netser_test::exact_block block(std::vector<std::byte>(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(cut)));
        netser::read_stream r(block.data(), block.size());
        Team back;
        CHECK_FALSE(netser::serialize(r, back));
        CHECK(r.error().code == errc::overflow);
        const std::size_t vector_end = 5 + 16 * entry_bits;
        if (cut * 8 < vector_end) { // the count is refused: its entries are not all there
            CHECK(r.error().path() == "Team.entries");
            CHECK(r.error().bit == 0);
        } else { // the first member that is not all there, in the first such bench element
            const std::size_t k = (cut * 8 - vector_end) / entry_bits;
            const std::size_t there = cut * 8 - vector_end - k * entry_bits; // of its 17 bits
            const std::size_t offset = there < 2 ? 0 : there < 16 ? 2 : 16;
            const char* member = there < 2 ? "team" : there < 16 ? "score" : "alive";
            CHECK(r.error().path() == "Team.bench[" + std::to_string(k) + "]." + member);
            CHECK(r.error().bit == vector_end + k * entry_bits + offset);
        }
    }
    for (std::size_t room = 0; room <= packet.size(); ++room) {
        INFO("room " << room);
        std::vector<std::byte> buffer(room);
        netser::write_stream w(buffer.data(), buffer.size());
        std::vector<std::byte> grown;
        netser::vector_write_stream g(grown, room);
        const bool fits = room * 8 >= total;
        CHECK(netser::serialize(w, t) == fits);
        CHECK(netser::serialize(g, t) == fits);
        if (fits) {
            CHECK(netser_test::hex(w.finish()) == netser_test::hex(packet));
            CHECK(netser_test::hex(g.finish()) == netser_test::hex(packet));
        } else {
            CHECK(w.error().code == errc::overflow);
            CHECK(g.error().code == errc::overflow);
        }
    }
}

} // namespace packed_elements

// ==========================================================================================
// From tests/reflect/aggregate_test.cpp
// ==========================================================================================
// encodings/struct.hpp, plain aggregates (no macro) through Boost.PFR: every field with its
// default encoding, fields named "field<i>" in error paths; attributes on an
// aggregate member apply to each of its fields.
// (Not in a namespace of its own: the error paths below name aggregate_test::Gear.)

using netser::errc;
using namespace reflect_test;

namespace aggregate_test {

struct Plain {
    std::uint8_t a = 0;
    bool b = false;
    std::int16_t c = 0;
    bool operator==(const Plain&) const = default;
};

struct Gear {
    Plain plain;
    Weapon weapon = Weapon::none;
    Unit unit; // a described struct inside an aggregate
    bool operator==(const Gear&) const = default;
};

struct RGB {
    float r = 0, g = 0, b = 0;
    bool operator==(const RGB&) const = default;
};

struct Colored {
    RGB color;
    Plain plain; // no attributes: defaults
    bool operator==(const Colored&) const = default;
};
NETSER_STRUCT(Colored, (color, netser::quantize(0.f, 1.f, 0.125f)), plain)

} // namespace aggregate_test

using namespace aggregate_test;

TEST_CASE("a plain aggregate sends its fields in order with their default encodings", "[aggregate]") {
    // a 0x12 in 8 bits; b 1 bit; c -2 as 0xFFFE in 16 bits.
    CHECK(write(Plain{0x12, true, -2}).hex == "12 FD FF 01");
    CHECK(write(Plain{0x12, true, -2}).bits == 25);
    Plain p;
    REQUIRE_FALSE(read_hex("12 FD FF 01", p));
    CHECK(p == Plain{0x12, true, -2});
    static_assert(netser::max_bits<Plain>() == 25);
}

TEST_CASE("aggregates nest with described structs and enums both ways", "[aggregate]") {
    const Gear g{{1, false, 2}, Weapon::rifle, {50, false}};
    // plain 25 bits; weapon 2 bits; unit 7 + 1 bits.
    CHECK(write(g).bits == 25 + 2 + 8);
    CHECK(round_trip(g) == g);
    std::mt19937 rng(51);
    for (int i = 0; i < 200; ++i) {
        const Gear v{{static_cast<std::uint8_t>(rng()), (rng() & 1u) != 0, static_cast<std::int16_t>(rng())},
                     static_cast<Weapon>(rng() % 4),
                     {static_cast<std::uint8_t>(rng() % 101), (rng() & 1u) != 0}};
        CHECK(round_trip(v) == v);
    }
    static_assert(netser::max_bits<Gear>() == 35);
}

TEST_CASE("a failure inside an aggregate names the field by its index", "[aggregate][hostile]") {
    Gear g;
    reference_writer forged;
    forged.put(0, 25);
    forged.put(0, 2);
    forged.put(101, 7); // unit.hull 101 > 100
    forged.put(0, 1);
    const netser::error e = read_forged(forged, g);
    CHECK(e.code == errc::out_of_range);
    CHECK(e.bit == 27);
    CHECK(e.path() == "aggregate_test::Gear.field2.hull");
    CHECK(failure_of(read_hex("00 00 00", g)) == fail(errc::overflow, 9, "aggregate_test::Gear.field0.field2"));
    Gear bad = Gear{{}, static_cast<Weapon>(9), {}};
    CHECK(write_error(bad).path() == "aggregate_test::Gear.field1");
}

TEST_CASE("attributes on an aggregate member apply to each of its fields", "[aggregate][quantize]") {
    // r 0, g 0.5, b 1 -> codes 0, 4, 8 in 4 bits each; then plain's 25 bits from bit 12.
    const Colored c{{0.f, 0.5f, 1.f}, {0x12, true, -2}};
    CHECK(write(c).hex == "40 28 D1 FF 1F");
    CHECK(write(c).bits == 12 + 25);
    CHECK(round_trip(c) == c);
    Colored r;
    reference_writer forged;
    forged.put(0, 4);
    forged.put(9, 4); // g code 9 > max_int 8
    forged.put(0, 4 + 25);
    CHECK(failure_of(read_forged(forged, r)) == fail(errc::out_of_range, 4, "Colored.color.field1"));
}

// ==========================================================================================
// Written with tests/encodings/: a derived struct with only_if and skip against a model of
// the wire (bases first, then the members in the order the macro lists them), and max_bits
// as the annotations' sum.
// ==========================================================================================

namespace struct_model {

using netser::errc;
using namespace reflect_test;

using netser_test::width_of;

struct Base {
    std::uint8_t a = 0; // range(0, 20)
    bool f = false;
};
NETSER_STRUCT(Base, (a, netser::range(0, 20)), f)

// Declared x, y, moving, speed, cache; listed y, x, moving, speed, cache.
struct Derived : Base {
    std::int16_t x = 0;    // range(-500, 500)
    std::uint32_t y = 0;   // bits(20)
    bool moving = false;
    std::uint8_t speed = 9; // range(0, 50), only when moving; reset to 9 otherwise
    int cache = 0;         // skip
};
NETSER_DERIVED_STRUCT(Derived, (Base),
    (y, netser::bits(20)),
    (x, netser::range(-500, 500)),
    moving,
    (speed, netser::range(0, 50), netser::only_if(&Derived::moving)),
    (cache, netser::skip))

constexpr std::size_t derived_max_bits =
    static_cast<std::size_t>(width_of(20) + 1 + 20 + width_of(1000) + 1 + width_of(50));

reference_writer model_of(const Derived& v) {
    reference_writer w;
    w.put(v.a, width_of(20));
    w.put(v.f ? 1u : 0u, 1);
    w.put(v.y, 20);
    w.put(static_cast<std::uint64_t>(v.x + 500), width_of(1000));
    w.put(v.moving ? 1u : 0u, 1);
    if (v.moving) w.put(v.speed, width_of(50));
    return w;
}

/// What a reader holds: the speed is its default when not moving, the cache untouched.
bool same_on_wire(const Derived& read, const Derived& v, int cache) {
    return read.a == v.a && read.f == v.f && read.y == v.y && read.x == v.x && read.moving == v.moving &&
           read.speed == (v.moving ? v.speed : 9) && read.cache == cache;
}

Derived random_derived(std::mt19937& rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    Derived v;
    v.a = static_cast<std::uint8_t>(pick(0, 20));
    v.f = pick(0, 1) == 1;
    v.x = static_cast<std::int16_t>(pick(-500, 500));
    v.y = static_cast<std::uint32_t>(pick(0, (1 << 20) - 1));
    v.moving = pick(0, 1) == 1;
    v.speed = static_cast<std::uint8_t>(pick(0, 50));
    v.cache = pick(1, 1000);
    return v;
}

} // namespace struct_model

TEST_CASE("a derived struct writes what a model of bases first, then the macro's order, writes", "[struct][model]") {
    using namespace struct_model;
    std::mt19937 rng(50);
    for (int i = 0; i < 500; ++i) {
        const Derived v = random_derived(rng);
        const reference_writer model = model_of(v);
        const written w = write(v);
        INFO("moving " << v.moving);
        CHECK(w.hex == hex(model.bytes()));
        CHECK(w.bits == model.bits());
        CHECK(same_on_wire(round_trip(v), v, 0));
        Derived r;
        r.speed = 33;
        r.cache = -1;
        REQUIRE_FALSE(read_forged(model, r));
        CHECK(same_on_wire(r, v, -1));
    }
}

TEST_CASE("max_bits of a struct is its bases' and members' bounds, an only_if member counted, a skipped one not",
          "[struct][bounds]") {
    using namespace struct_model;
    STATIC_REQUIRE(netser::max_bits<Derived>() == derived_max_bits);
    STATIC_REQUIRE(netser::max_bits<Base>() == static_cast<std::size_t>(width_of(20) + 1));
    Derived moving;
    moving.moving = true;
    CHECK(write(moving).bits == derived_max_bits);
    Derived still;
    CHECK(write(still).bits == derived_max_bits - static_cast<std::size_t>(width_of(50)));
    // A member's bad code is reported at its own bit, in the macro's order.
    reference_writer forged;
    forged.put(0, width_of(20) + 1 + 20);
    forged.put(1001, width_of(1000)); // x code 1001 > 1000
    forged.put(0, 1);
    Derived r;
    CHECK(failure_of(read_forged(forged, r)) ==
          fail(errc::out_of_range, static_cast<std::size_t>(width_of(20) + 1 + 20), "Derived.x"));
}
