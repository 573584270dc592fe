// The same message written by two separately compiled translation units, one built at
// -O0 and one at -O3 (tu_writer_o0.cpp, tu_writer_o3.cpp): the packets are byte for
// byte the same, and each TU reads the other's. Each TU has its own Snapshot types
// (anonymous namespace in packet_types.hpp), so the linker cannot merge their netser
// instantiations into one copy.

#include "packet_types.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace packet_test;

TEST_CASE("two TUs built with different optimisation flags agree on the schema hash", "[cross_tu]") {
    constexpr std::uint32_t here = netser::schema_hash<Snapshot>();
    CHECK(cross_tu::schema_o0() == here); // computed at run time in the -O0 TU
    CHECK(cross_tu::schema_o3() == here);
}

TEST_CASE("the same message written at -O0 and at -O3 gives byte-identical packets", "[cross_tu]") {
    for (std::uint32_t seed = 0; seed < 300; ++seed) {
        const std::vector<std::byte> a = cross_tu::write_o0(seed);
        const std::vector<std::byte> b = cross_tu::write_o3(seed);
        INFO("seed " << seed);
        REQUIRE_FALSE(a.empty());
        CHECK(hex(a) == hex(b));
        CHECK(a == write_snapshot(seed)); // and this TU, at the build's own level, agrees too
    }
}

TEST_CASE("each TU reads the packet written by the other", "[cross_tu]") {
    for (std::uint32_t seed = 0; seed < 300; ++seed) {
        INFO("seed " << seed);
        CHECK(cross_tu::read_o3(cross_tu::write_o0(seed), seed) == "");
        CHECK(cross_tu::read_o0(cross_tu::write_o3(seed), seed) == "");
        CHECK(cross_tu::read_o0(cross_tu::write_o0(seed), seed) == "");
    }
}

TEST_CASE("the cross-TU messages are not trivial", "[cross_tu]") {
    // The seeds above cover units, optional targets, only_if speeds and both variant
    // alternatives: check that a few packets really are long and different.
    std::size_t longest = 0;
    std::vector<std::byte> first = cross_tu::write_o0(0);
    bool all_same = true;
    for (std::uint32_t seed = 1; seed < 50; ++seed) {
        const std::vector<std::byte> p = cross_tu::write_o0(seed);
        longest = std::max(longest, p.size());
        all_same = all_same && p == first;
    }
    CHECK(longest > 100);
    CHECK_FALSE(all_same);
}
