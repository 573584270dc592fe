// Sequence numbers (include/netser/sequence.hpp): the wrap skips the initial baseline's
// number, and newer is decided over half the 16-bit circle.

#include <netser/sequence.hpp>

#include <catch2/catch.hpp>

#include <cstdint>

TEST_CASE("next_sequence counts up and skips the initial baseline's number on wrap-around", "[session][sequence]") {
    CHECK(netser::next_sequence(netser::initial_sequence) == 1);
    CHECK(netser::next_sequence(1) == 2);
    CHECK(netser::next_sequence(65534) == 65535);
    CHECK(netser::next_sequence(65535) == 1);
    std::uint16_t s = 0;
    for (int i = 0; i < 200000; ++i) {
        s = netser::next_sequence(s);
        REQUIRE(s != netser::initial_sequence);
    }
}

TEST_CASE("sequence_newer holds for up to half the circle ahead, across the wrap", "[session][sequence]") {
    CHECK(netser::sequence_newer(2, 1));
    CHECK_FALSE(netser::sequence_newer(1, 2));
    CHECK_FALSE(netser::sequence_newer(7, 7));
    CHECK(netser::sequence_newer(3, 65530)); // wrapped
    CHECK_FALSE(netser::sequence_newer(65530, 3));
    CHECK(netser::sequence_newer(static_cast<std::uint16_t>(100 + 32767), 100));
    CHECK_FALSE(netser::sequence_newer(static_cast<std::uint16_t>(100 + 32768), 100));
    CHECK(netser::sequence_distance(3, 65530) == 9);
}
