// Embedding (encodings/optional.hpp): owned data behind a std::unique_ptr is
// sent in place, after a presence bit, like a std::optional. Attributes on the member
// apply to the pointee.

#include "game/game_types.hpp"

#include <memory>

using netser::errc;
using namespace game_test;

namespace embedding_test {

struct Inventory {
    std::uint8_t gold = 0;
    bool full = false;
    bool operator==(const Inventory&) const = default;
};
NETSER_STRUCT(Inventory, (gold, netser::range(0, 100)), full)

struct Owner {
    std::unique_ptr<Inventory> inv;
    std::unique_ptr<int> score;
};
NETSER_STRUCT(Owner, inv, (score, netser::range(0, 100)))

// Not an aggregate (the declared constructor): NETSER_STRUCT's member count check through
// Boost.PFR does not compile on clang 14 for an aggregate with a vector of unique_ptr.
struct Crew {
    Crew() = default;
    std::vector<std::unique_ptr<Inventory>> bags;
};
NETSER_STRUCT(Crew, (bags, netser::max_size(4)))

// A chain of owned nodes: each level is one presence bit and a value.
struct Node {
    std::uint8_t value = 0;
    std::unique_ptr<Node> next;
};
NETSER_STRUCT(Node, value, next)

bool same(const std::unique_ptr<Inventory>& a, const std::unique_ptr<Inventory>& b) {
    return a ? (b && *a == *b) : !b;
}

bool same(const std::unique_ptr<int>& a, const std::unique_ptr<int>& b) { return a ? (b && *a == *b) : !b; }

} // namespace embedding_test

using namespace embedding_test;

// inv: 1, gold 42 in 7 bits, full 1; score: 0.  1 | 42 << 1 | 1 << 8 = 0x155. 10 bits.
TEST_CASE("a unique_ptr is embedded as a presence bit and the value", "[game][embedding][golden]") {
    Owner in;
    in.inv = std::make_unique<Inventory>(Inventory{42, true});
    const auto w = write(in);
    CHECK(w.hex == "55 01");
    CHECK(w.bits == 10);
    STATIC_REQUIRE(netser::max_bits<Owner>() == (1 + 7 + 1) + (1 + 7));

    Owner out;
    out.score = std::make_unique<int>(77); // not sent: reset by the read
    std::size_t bits = 0;
    REQUIRE_FALSE(read_hex("55 01", out, &bits));
    CHECK(bits == 10);
    REQUIRE(out.inv);
    CHECK(*out.inv == Inventory{42, true});
    CHECK_FALSE(out.score);
}

// inv: 0; score: 1, 100 in 7 bits (the member's range applies to the pointee). 0 | 1 << 1 | 100 << 2.
TEST_CASE("attributes on a unique_ptr member apply to the pointee", "[game][embedding][golden]") {
    Owner in;
    in.score = std::make_unique<int>(100);
    CHECK(write(in).hex == "92 01");
    Owner out;
    out.inv = std::make_unique<Inventory>(Inventory{1, true});
    REQUIRE_FALSE(read_hex("92 01", out));
    CHECK_FALSE(out.inv);
    REQUIRE(out.score);
    CHECK(*out.score == 100);
}

TEST_CASE("a null unique_ptr costs one bit and reads as null", "[game][embedding][golden]") {
    const auto w = write(Owner{});
    CHECK(w.hex == "00");
    CHECK(w.bits == 2);
    Owner out;
    out.inv = std::make_unique<Inventory>();
    out.score = std::make_unique<int>(3);
    REQUIRE_FALSE(read_hex("00", out));
    CHECK_FALSE(out.inv);
    CHECK_FALSE(out.score);
}

TEST_CASE("unique_ptr members round trip, null or not", "[game][embedding][random]") {
    std::mt19937_64 rng(53);
    for (int round = 0; round < 500; ++round) {
        Owner in;
        if (rng() % 2) in.inv = std::make_unique<Inventory>(Inventory{static_cast<std::uint8_t>(rng() % 101), rng() % 2 == 0});
        if (rng() % 2) in.score = std::make_unique<int>(static_cast<int>(rng() % 101));
        const auto w = write(in);
        CHECK(w.bits == (in.inv ? 9u : 1u) + (in.score ? 8u : 1u));
        Owner out;
        if (rng() % 2) out.inv = std::make_unique<Inventory>(Inventory{9, true});
        REQUIRE_FALSE(read_bytes(unhex(w.hex), out));
        CHECK(same(out.inv, in.inv));
        CHECK(same(out.score, in.score));
    }
}

TEST_CASE("a vector of unique_ptr embeds each element", "[game][embedding][random]") {
    Crew in;
    in.bags.push_back(std::make_unique<Inventory>(Inventory{10, false}));
    in.bags.push_back(nullptr);
    in.bags.push_back(std::make_unique<Inventory>(Inventory{100, true}));
    const auto w = write(in);
    CHECK(w.bits == 3 + 9 + 1 + 9);
    Crew out;
    REQUIRE_FALSE(read_bytes(unhex(w.hex), out));
    REQUIRE(out.bags.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) CHECK(same(out.bags[i], in.bags[i]));
}

TEST_CASE("a chain of owned nodes round trips", "[game][embedding]") {
    Node head{0, nullptr};
    Node* tail = &head;
    for (std::uint8_t i = 1; i < 50; ++i) {
        tail->next = std::make_unique<Node>(Node{i, nullptr});
        tail = tail->next.get();
    }
    const auto w = write(head);
    CHECK(w.bits == 50 * 9);
    Node out;
    REQUIRE_FALSE(read_bytes(unhex(w.hex), out));
    const Node* n = &out;
    for (std::uint8_t i = 0; i < 50; ++i) {
        REQUIRE(n != nullptr);
        CHECK(n->value == i);
        n = n->next.get();
    }
    CHECK(n == nullptr);
}

TEST_CASE("a hostile embedded value fails with its path", "[game][embedding][hostile]") {
    Owner out;
    // Present, gold code 127 > 100 at bit 1.
    CHECK(failure_of(read_hex("FF 01", out)) == fail(errc::out_of_range, 1, "Owner.inv.gold"));
    CHECK(failure_of(read_hex("", out)) == fail(errc::overflow, 0, "Owner.inv"));
    CHECK(failure_of(read_hex("01", out)) == fail(errc::overflow, 8, "Owner.inv.full"));
    CHECK(failure_of(read_hex("55", out)) == fail(errc::overflow, 8, "Owner.inv.full"));
    CHECK(failure_of(read_hex("55 01", out)) == fail(errc::none, 0, ""));
}

TEST_CASE("writing an embedded value outside its range fails with its path", "[game][embedding][hostile]") {
    Owner in;
    in.score = std::make_unique<int>(101);
    CHECK(failure_of(write_error(in)) == fail(errc::out_of_range, 2, "Owner.score"));
}

// Each node is one presence bit and 8 bits of value: a packet of one bits is an endless
// chain. The stream's nesting limit (64 structs by default) stops it before the stack does.
TEST_CASE("a hostile chain of owned nodes fails with too_large at the nesting limit", "[game][embedding][hostile]") {
    const std::vector<std::byte> ones(1000, std::byte{0xFF});
    Node out;
    const auto e = read_bytes(ones, out);
    CHECK(e.code == errc::too_large);
    CHECK(e.bit == 64 * 9); // the 65th node
}
