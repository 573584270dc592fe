// A vector or array of flat structs whose members all fit one packed run (a roster of
// {team, score, alive}: 17 bits) is written and read a word per element after one room
// check for all of them. These tests hold it to what member-by-member code gives: the
// bits (a golden vector worked out from the wire, and the core primitives), and the
// errors of a bad element anywhere (its member, its bit, its index), of a cut packet and
// of a full buffer.
#include "reflect/test_types.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

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
