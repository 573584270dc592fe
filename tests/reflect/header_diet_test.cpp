// <netser/netser.hpp> leaves the heavy standard headers to the files that use them: it
// recognises std::unique_ptr, std::map, std::unordered_map and std::set without their
// headers, and prints without <ostream> / <sstream> (docs/performance.md: they cost every
// file that includes netser more to parse than the rest of the reflection layer); square
// roots and the like are compiler builtins, not <cmath> (9% of netser.hpp's cost to clang).
// netser.hpp is this file's first include; libstdc++'s include guards say what came with it.

#include <netser/netser.hpp>

#if defined(__GLIBCXX__)
#define NETSER_TEST_STDLIB_GUARDS 1
#if defined(_GLIBCXX_MEMORY)
#define NETSER_TEST_HAS_MEMORY 1
#endif
#if defined(_GLIBCXX_OSTREAM)
#define NETSER_TEST_HAS_OSTREAM 1
#endif
#if defined(_GLIBCXX_SSTREAM)
#define NETSER_TEST_HAS_SSTREAM 1
#endif
#if defined(_GLIBCXX_SET)
#define NETSER_TEST_HAS_SET 1
#endif
#if defined(_GLIBCXX_CMATH)
#define NETSER_TEST_HAS_CMATH 1
#endif
#endif

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>

namespace header_diet_test {

struct Holder {
    std::unique_ptr<int> owned;
    std::map<int, int> scores;
    std::set<int> tags;
    std::unordered_map<int, int> table;
};
NETSER_STRUCT(Holder, (owned, netser::range(0, 7)), (scores, netser::max_size(2), netser::range(0, 3)),
              (tags, netser::max_size(2), netser::range(0, 3)), (table, netser::max_size(1), netser::range(0, 1)))

} // namespace header_diet_test

TEST_CASE("netser.hpp includes neither <memory>, <ostream>, <sstream>, <set> nor <cmath>", "[headers]") {
#if defined(NETSER_TEST_STDLIB_GUARDS)
#if defined(NETSER_TEST_HAS_MEMORY)
    FAIL("<netser/netser.hpp> includes <memory>");
#endif
#if defined(NETSER_TEST_HAS_OSTREAM)
    FAIL("<netser/netser.hpp> includes <ostream>");
#endif
#if defined(NETSER_TEST_HAS_SSTREAM)
    FAIL("<netser/netser.hpp> includes <sstream>");
#endif
#if defined(NETSER_TEST_HAS_SET)
    FAIL("<netser/netser.hpp> includes <set>");
#endif
#if defined(NETSER_TEST_HAS_CMATH)
    FAIL("<netser/netser.hpp> includes <cmath>");
#endif
    SUCCEED("libstdc++'s include guards: none of them");
#else
    SUCCEED("not libstdc++: its include guards are what this test reads");
#endif
}

TEST_CASE("with their headers included by the user, the four types take their encodings", "[headers]") {
    using header_diet_test::Holder;
    Holder h;
    h.owned = std::make_unique<int>(5);
    h.scores = {{1, 2}};
    h.tags = {3};
    h.table = {{1, 1}};
    // owned: presence 1 + 3 bits; scores: count 2 bits + key 32 + value 2; tags: count 2 +
    // 2; table: count 1 + key 32 + value 1.
    CHECK(netser::max_bits<Holder>() == 4 + (2 + 2 * 34) + (2 + 2 * 2) + (1 + 33));
    netser::measure_stream m;
    REQUIRE(netser::serialize(m, h));
    CHECK(m.bits_processed() == 4 + (2 + 34) + (2 + 2) + (1 + 33));
    std::ostringstream os;
    using netser::io::operator<<;
    os << h;
    CHECK(os.str() == "Holder{owned=5, scores={1: 2}, tags=[3], table={1: 1}}");
}
