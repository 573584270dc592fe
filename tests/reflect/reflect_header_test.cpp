// <netser/reflect.hpp> alone is enough to describe structs and write, read and measure
// them (the lighter include docs/api.md names for files that only serialize): this file
// includes nothing else of netser (core/hex.hpp includes none).

#include <netser/reflect.hpp>

// What reflect.hpp leaves to the files that use them (libstdc++'s include guards, read
// before anything else is included).
#if defined(__GLIBCXX__) && (defined(_GLIBCXX_MEMORY) || defined(_GLIBCXX_OSTREAM) || defined(_GLIBCXX_MAP) || \
                             defined(_GLIBCXX_SET) || defined(_GLIBCXX_UNORDERED_MAP) || defined(_GLIBCXX_ALGORITHM))
#define NETSER_TEST_REFLECT_HEAVY_INCLUDES 1
#else
#define NETSER_TEST_REFLECT_HEAVY_INCLUDES 0
#endif

#include "core/hex.hpp"

#include <boost/describe/enum.hpp>
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace reflect_header_test {

BOOST_DEFINE_ENUM_CLASS(Stance, stand, crouch, prone)

struct Small {
    bool alive = false;
    int hp = 0;
    bool operator==(const Small&) const = default;
};
NETSER_STRUCT(Small, alive, (hp, netser::range(0, 100), netser::common(100)))

struct Full {
    Stance stance = Stance::stand;
    float x = 0.f;
    std::optional<int> target;
    std::string name;
    std::vector<std::uint8_t> items;
    Small small;
    bool operator==(const Full&) const = default;
};
NETSER_STRUCT(Full, stance, (x, netser::quantize(-10.f, 10.f, 0.5f)), (target, netser::range(0, 63)),
              (name, netser::max_length(8)), (items, netser::max_size(4), netser::range(0, 200)), small)

template <class T>
std::vector<std::byte> write(T& v) {
    std::vector<std::byte> out;
    netser::vector_write_stream w(out);
    REQUIRE(netser::serialize(w, v));
    w.finish();
    return out;
}

TEST_CASE("reflect.hpp includes neither <memory>, <ostream>, <map>, <set>, <unordered_map> nor <algorithm>") {
    CHECK(NETSER_TEST_REFLECT_HEAVY_INCLUDES == 0);
}

TEST_CASE("reflect.hpp alone: golden bytes of a common value and its plain encoding") {
    // alive (1 bit), then hp: the flag 1 and no index (one common value)...
    Small common{true, 100};
    CHECK(netser_test::hex(write(common)) == "03");
    // ...or the flag 0 and 7 in bits_required(0, 100) = 7 bits, at bit 2.
    Small plain{false, 7};
    CHECK(netser_test::hex(write(plain)) == "1C 00");
}

TEST_CASE("reflect.hpp alone: write, read and measure a struct of every kind of member") {
    Full v{Stance::prone, 2.5f, 42, "ann", {1, 2, 200}, {true, 55}};
    const std::vector<std::byte> wire = write(v);

    netser::measure_stream m;
    REQUIRE(netser::serialize(m, v));
    CHECK((m.bits_processed() + 7) / 8 == wire.size());
    CHECK(m.bits_processed() <= netser::max_bits<Full>());

    Full back;
    netser::read_stream r(wire);
    REQUIRE(netser::serialize(r, back));
    CHECK(back == v);
    CHECK(r.bits_processed() == m.bits_processed());

    // An item out of its range fails the write, naming the member.
    v.items = {201};
    std::vector<std::byte> out;
    netser::vector_write_stream w(out);
    CHECK_FALSE(netser::serialize(w, v));
    CHECK(w.error().code == netser::errc::out_of_range);
    CHECK(w.error().path().find("items") != std::string_view::npos);
}

} // namespace reflect_header_test
