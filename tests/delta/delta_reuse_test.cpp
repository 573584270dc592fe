// A delta read into an object that held anything leaves it exactly as a read into a
// fresh object: values the read does not send (skip members of elements that are new,
// elements past the count) are not kept from what the object held.

#include "delta/delta_types.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace delta_reuse_test {

struct Item {
    std::uint16_t id = 0;
    float x = 0.f;
    int cache = -1; // never sent: a fresh Item has -1
    std::string tag;
    bool operator==(const Item&) const = default;
};
NETSER_STRUCT(Item, id, (x, netser::quantize(-100.f, 100.f, 0.5f)), (cache, netser::skip), (tag, netser::max_length(8)))

struct Group {
    std::vector<Item> members;
    bool operator==(const Group&) const = default;
};
NETSER_STRUCT(Group, (members, netser::max_size(4)))

struct World {
    std::vector<Item> items;
    std::optional<Item> focus;
    std::map<std::uint8_t, Item> by_slot;
    std::array<Item, 2> pair{};
    std::vector<Group> groups;
    bool operator==(const World&) const = default;
};
NETSER_STRUCT(World, (items, netser::max_size(8)), focus, (by_slot, netser::max_size(4)), pair,
              (groups, netser::max_size(3)))

Item random_item(std::mt19937& rng) {
    Item i;
    i.id = static_cast<std::uint16_t>(rng() % 5);
    i.x = static_cast<float>(static_cast<int>(rng() % 401) - 200) * 0.5f;
    i.cache = static_cast<int>(rng() % 1000);
    i.tag = std::string(rng() % 4, static_cast<char>('a' + rng() % 3));
    return i;
}

World random_world(std::mt19937& rng) {
    World w;
    w.items.resize(rng() % 9);
    for (Item& i : w.items) i = random_item(rng);
    if (rng() % 2 != 0) w.focus = random_item(rng);
    for (std::size_t n = rng() % 5; n != 0; --n) w.by_slot[static_cast<std::uint8_t>(rng() % 8)] = random_item(rng);
    for (Item& i : w.pair) i = random_item(rng);
    w.groups.resize(rng() % 4);
    for (auto& g : w.groups) {
        g.members.resize(rng() % 5);
        for (Item& i : g.members) i = random_item(rng);
    }
    return w;
}

} // namespace delta_reuse_test

using namespace delta_reuse_test;

TEST_CASE("a delta read into a reused object gives what a read into a fresh one gives", "[delta][hostile]") {
    std::mt19937 rng(20261127);
    std::size_t differed_from_junk = 0;
    for (int round = 0; round < 300; ++round) {
        World base, value;
        REQUIRE_FALSE(netser::as_received(random_world(rng), base));
        REQUIRE_FALSE(netser::as_received(random_world(rng), value));
        if (round % 3 == 0) { // few changes: mostly the baseline
            World near = base;
            if (!near.items.empty()) near.items.back().id = static_cast<std::uint16_t>((near.items.back().id + 1) % 5);
            near.items.push_back(random_item(rng));
            if (near.items.size() > 8) near.items.erase(near.items.begin());
            REQUIRE_FALSE(netser::as_received(near, value));
        }
        std::vector<std::byte> buffer(netser::max_delta_bytes<World>());
        netser::write_stream w(buffer.data(), buffer.size());
        REQUIRE(netser::serialize_delta(w, value, base));
        const auto bytes = w.finish();

        World fresh;
        netser::read_stream r1(bytes);
        REQUIRE(netser::serialize_delta(r1, fresh, base));

        World reused = random_world(rng); // anything, with skip members set
        for (int i = 0; i < 8; ++i) reused.items.push_back(random_item(rng));
        netser::read_stream r2(bytes);
        REQUIRE(netser::serialize_delta(r2, reused, base));
        INFO("round " << round);
        CHECK(reused == fresh);
        CHECK(r2.bits_processed() == r1.bits_processed());
        // What was sent arrived: the same plain bytes as the value.
        World sent = fresh;
        for (Item& i : sent.items) i.cache = -1;
        World expected = value;
        for (Item& i : expected.items) i.cache = -1;
        CHECK(sent.items == expected.items);
        if (fresh.items.size() > base.items.size()) {
            // The new elements are fresh: their skip member is the default.
            for (std::size_t i = base.items.size(); i < fresh.items.size(); ++i) CHECK(fresh.items[i].cache == -1);
            ++differed_from_junk;
        }
    }
    CHECK(differed_from_junk > 50); // the case the fix is about came up often
}
