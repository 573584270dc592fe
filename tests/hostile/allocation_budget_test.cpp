// The allocation budget (read_stream::max_allocation): elements whose bits do not pay for
// their bytes (no bits: sparse slots, one-value ranges; or more than 128 bytes a bit) are
// charged before they are allocated, the others are bounded by the bits they take, so
// what a packet makes the reader allocate is bounded by a function of its size whatever
// the type: the budget (by default 1 MiB plus 1 KiB per packet byte) plus 1 KiB per packet
// byte. The shapes here are the ones that escaped the static bound: sparse slots and
// zero-bit elements cost no bits, and a recursive type repeats them at every level
// (512 MB from a valid 1,198-byte packet before the budget).

#include "hostile/hostile_types.hpp"

#include <random>

using netser::errc;

namespace budget_test {

// A tree whose nodes are sparse vectors of children: absent slots take no bits.
struct SNode {
    std::vector<std::optional<SNode>> kids;
};
NETSER_STRUCT(SNode, (kids, netser::sparse, netser::max_size(65535)))

struct SNodeWide {
    std::vector<std::optional<SNodeWide>> kids;
};
NETSER_STRUCT(SNodeWide, (kids, netser::sparse, netser::max_size(1 << 20)))

// Zero-bit elements in a recursive type.
struct ZNode {
    std::vector<std::uint8_t> zeros;
    std::vector<ZNode> kids;
};
NETSER_STRUCT(ZNode, (zeros, netser::max_size(4000), netser::range(7, 7)), (kids, netser::max_size(2)))

// The max_size of N's kids.
template <class N>
inline constexpr std::int64_t max_slots = std::is_same_v<N, SNode> ? 65535 : (1 << 20);

/// A chain of `levels` SNodes, each declaring `slots` slots with its child in slot 0,
/// forged with the core primitives (the writer would need the slots in memory).
template <class N>
std::vector<std::byte> forged_chain(int levels, int slots) {
    std::vector<std::byte> buffer(64 + static_cast<std::size_t>(levels) * 16);
    netser::write_stream w(buffer.data(), buffer.size());
    const int count_bits = netser::bits_required(0, max_slots<N>);
    for (int level = 0; level < levels; ++level) {
        std::uint64_t count = static_cast<std::uint64_t>(slots);
        REQUIRE(w.process_bits(count, count_bits));
        if (level + 1 == levels) break; // the leaf: no child
        int previous = -1, first = 0;
        REQUIRE(netser::serialize_relative_index(w, previous, first, slots));
    }
    for (int level = 0; level < levels; ++level) {
        int previous = level + 1 == levels ? -1 : 0, end = slots;
        REQUIRE(netser::serialize_relative_index(w, previous, end, slots));
    }
    const auto bytes = w.finish();
    return {bytes.begin(), bytes.end()};
}

// What a read of `bytes` bytes may allocate: the budget, and what the bits pay for.
std::size_t allocation_bound(std::size_t budget, std::size_t bytes) {
    return budget + netser::detail::paid_bytes_per_bit * 8 * bytes;
}

template <class T>
struct budget_read {
    netser::error error;
    std::size_t charged = 0;
    std::size_t budget = 0;
    hostile::alloc_totals heap;
};

template <class T>
budget_read<T> read_with_budget(std::span<const std::byte> bytes, std::size_t budget = 0) {
    budget_read<T> out;
    const hostile::exact_block block(bytes);
    netser::read_stream r(block.span());
    if (budget != 0) r.set_max_allocation(budget);
    {
        T value;
        hostile::alloc_scope scope;
        (void)netser::serialize(r, value);
        out.heap = scope.totals();
    }
    out.error = r.error();
    out.charged = r.allocated();
    out.budget = r.max_allocation();
    return out;
}

std::string path_to_level(int level, std::string_view root) {
    std::string path(root);
    for (int i = 0; i < level; ++i) path += ".kids[0]";
    return path + ".kids";
}

} // namespace budget_test

using namespace budget_test;

TEST_CASE("the default budget is 1 MiB plus 1 KiB per packet byte", "[hostile][memory][budget]") {
    CHECK(netser::read_stream::default_max_allocation(0) == 1u << 20);
    CHECK(netser::read_stream::default_max_allocation(1200) == (1u << 20) + 1200u * 1024u);
    CHECK(netser::read_stream::default_max_allocation(SIZE_MAX) == SIZE_MAX); // saturates
    const std::byte packet[10]{};
    netser::read_stream r(packet, sizeof packet);
    CHECK(r.max_allocation() == (1u << 20) + 10u * 1024u);
    CHECK(r.allocated() == 0);
}

TEST_CASE("charging past the budget fails and charges nothing", "[hostile][memory][budget]") {
    const std::byte packet[1]{};
    netser::read_stream r(packet, sizeof packet);
    r.set_max_allocation(100);
    CHECK(r.charge_allocation(10, 9));
    CHECK(r.allocated() == 90);
    CHECK_FALSE(r.charge_allocation(11, 1));
    CHECK(r.allocated() == 90);
    CHECK(r.charge_allocation(5, 2));
    CHECK_FALSE(r.charge_allocation(SIZE_MAX, 2)); // no overflow in count * size
    CHECK_FALSE(r.charge_allocation(2, SIZE_MAX));
    CHECK(r.charge_allocation(SIZE_MAX, 0));
    r.set_max_allocation(50); // below what was charged: nothing more fits
    CHECK_FALSE(r.charge_allocation(1, 1));
    CHECK(r.charge_allocation(0, 1));
}

TEST_CASE("a chain of sparse nodes stops at the budget, not at 64 levels of slots", "[hostile][memory][budget]") {
    // 63 levels of 65535 slots: 128 MiB of slots for a 310-byte packet without a budget
    // (slots of 32 bytes on 64-bit hosts, 16 on 32-bit ones).
    const auto packet = forged_chain<SNode>(64, 65535);
    CHECK(packet.size() < 400);
    const auto r = read_with_budget<SNode>(packet);
    const std::size_t level_bytes = 65535 * sizeof(std::optional<SNode>);
    const std::size_t levels_in = r.budget / level_bytes; // 0 on 64-bit hosts: over 1 MiB + 310 KiB at once
    CHECK(levels_in < 3);
    CHECK(r.error.code == errc::too_large);
    CHECK(r.error.bit == 17 * levels_in); // each level before: its count (16 bits), its child's index (1)
    CHECK(r.error.path() == path_to_level(static_cast<int>(levels_in), "SNode"));
    CHECK(r.charged == levels_in * level_bytes);
    CHECK(r.heap.bytes <= r.budget);
    CHECK(r.charged <= r.budget);
}

TEST_CASE("a larger budget lets the levels in up to the budget", "[hostile][memory][budget]") {
    const auto packet = forged_chain<SNode>(64, 65535);
    const std::size_t level_bytes = 65535 * sizeof(std::optional<SNode>);
    const std::size_t budget = 3 * level_bytes + level_bytes / 2;
    const auto r = read_with_budget<SNode>(packet, budget);
    CHECK(r.error.code == errc::too_large);
    CHECK(r.error.path() == path_to_level(3, "SNode"));
    CHECK(r.charged == 3 * level_bytes);
    CHECK(r.heap.bytes <= budget);
}

TEST_CASE("a forged count of a million slots is refused before it is allocated", "[hostile][memory][budget]") {
    const auto packet = forged_chain<SNodeWide>(3, 1 << 20);
    const auto r = read_with_budget<SNodeWide>(packet);
    CHECK(r.error.code == errc::too_large);
    CHECK(r.error.path() == "SNodeWide.kids");
    CHECK(r.heap.bytes == 0);
}

TEST_CASE("zero-bit elements in a recursive type are bounded by the budget", "[hostile][memory][budget][long]") {
    // Each node: 4000 zero-bit elements (12 bits of count), then 2 kids: a full binary
    // tree 10 levels deep is 2047 nodes and 8 MB of elements from about 6 KB.
    std::vector<std::byte> buffer(1 << 14);
    netser::write_stream w(buffer.data(), buffer.size());
    const auto node = [&](auto& self, int depth) -> void {
        std::uint64_t zeros = 4000, kids = depth == 0 ? 0 : 2;
        REQUIRE(w.process_bits(zeros, 12));
        REQUIRE(w.process_bits(kids, 2));
        for (std::uint64_t k = 0; k < kids; ++k) self(self, depth - 1);
    };
    node(node, 10);
    const auto bytes = w.finish();
    const auto r = read_with_budget<ZNode>(bytes);
    CHECK(r.error.code == errc::too_large);
    CHECK(r.charged <= r.budget);
    CHECK(r.heap.bytes <= allocation_bound(r.budget, bytes.size()));
    CHECK(r.budget == netser::read_stream::default_max_allocation(bytes.size()));
    // And every cut of it, and random bytes: never past the budget.
    for (std::size_t n = 0; n < bytes.size(); n += 97) {
        const auto cut = read_with_budget<ZNode>(bytes.first(n));
        CHECK(cut.error);
        CHECK(cut.heap.bytes <= allocation_bound(cut.budget, n));
    }
}

TEST_CASE("random bytes never allocate past the budget, for every recursive shape", "[hostile][memory][budget]") {
    std::mt19937 rng(31);
    for (int i = 0; i < 300; ++i) {
        std::vector<std::byte> bytes(1 + rng() % 2000);
        for (auto& b : bytes) b = static_cast<std::byte>(rng());
        if (i % 2 == 0) bytes[0] = bytes[1 % bytes.size()] = std::byte{0xff}; // large counts first
        const auto a = read_with_budget<SNode>(bytes, 1u << 21);
        CHECK(a.heap.bytes <= 1u << 21);
        const auto b = read_with_budget<ZNode>(bytes);
        CHECK(b.heap.bytes <= allocation_bound(b.budget, bytes.size()));
        const auto c = read_with_budget<hostile::SparseSlots>(bytes, 4096);
        CHECK(c.heap.bytes <= 4096);
        if (c.error) CHECK((c.error.code == errc::too_large || c.error.code == errc::overflow ||
                            c.error.code == errc::out_of_range || c.error.code == errc::invalid_value));
    }
}

TEST_CASE("a packet read within its budget is unchanged: read_packet takes the budget from packet_options",
          "[hostile][memory][budget]") {
    SNode tree;
    tree.kids.resize(100);
    tree.kids[3].emplace().kids.resize(50);
    tree.kids[3]->kids[7].emplace();
    std::vector<std::byte> out;
    REQUIRE_FALSE(netser::write_packet(out, tree).error);
    SNode back;
    REQUIRE_FALSE(netser::read_packet(out, back));
    CHECK(back.kids.size() == 100);
    REQUIRE(back.kids[3]);
    CHECK(back.kids[3]->kids.size() == 50);
    CHECK(back.kids[3]->kids[7]);

    netser::packet_options tight;
    tight.max_allocation = 100 * sizeof(std::optional<SNode>); // the root's slots only
    const netser::error e = netser::read_packet(out, back, tight);
    CHECK(e.code == errc::too_large);
    CHECK(e.path() == "SNode.kids[3].kids");
}

TEST_CASE("a delta read charges the elements it adds, not the baseline's", "[hostile][memory][budget]") {
    // Zero-bit elements: every element is charged.
    hostile::ZeroBitElements base, value;
    base.v.assign(600, 5);
    value.v.assign(600, 5);
    value.v.resize(900, 5);
    std::vector<std::byte> buffer(64);
    netser::write_stream w(buffer.data(), buffer.size());
    REQUIRE(netser::serialize_delta(w, base, base));
    const auto same = w.finish();
    netser::read_stream r(same);
    r.set_max_allocation(0); // no element is new: nothing to charge
    hostile::ZeroBitElements out;
    CHECK(netser::serialize_delta(r, out, base));
    CHECK(out.v == base.v);
    CHECK(r.allocated() == 0);

    netser::write_stream w2(buffer.data(), buffer.size());
    REQUIRE(netser::serialize_delta(w2, value, base));
    const auto grown = w2.finish();
    netser::read_stream r2(grown);
    r2.set_max_allocation(300 - 1); // 300 new one-byte elements
    CHECK_FALSE(netser::serialize_delta(r2, out, base));
    CHECK(r2.error().code == errc::too_large);
    CHECK(r2.error().path() == "ZeroBitElements.v");
    netser::read_stream r3(grown);
    r3.set_max_allocation(300);
    CHECK(netser::serialize_delta(r3, out, base));
    CHECK(r3.allocated() == 300);
    CHECK(out.v == value.v);
}

TEST_CASE("elements whose bits pay for them are not charged; the others are", "[hostile][memory][budget]") {
    // 10-bit elements of 2 bytes: bounded by the packet, not charged.
    hostile::SmallList list;
    list.v.assign(8, 3);
    std::vector<std::byte> buffer(64);
    netser::write_stream w(buffer.data(), buffer.size());
    REQUIRE(netser::serialize(w, list));
    const auto bytes = w.finish();
    netser::read_stream r(bytes);
    r.set_max_allocation(0);
    hostile::SmallList out;
    CHECK(netser::serialize(r, out));
    CHECK(out.v == list.v);
    CHECK(r.allocated() == 0);
    // A sparse vector's slots take no bits: every slot is charged.
    hostile::SparseSlots slots;
    slots.v.resize(40);
    slots.v[7] = 1;
    netser::write_stream w2(buffer.data(), buffer.size());
    REQUIRE(netser::serialize(w2, slots));
    const auto sparse = w2.finish();
    netser::read_stream r2(sparse);
    hostile::SparseSlots back;
    CHECK(netser::serialize(r2, back));
    CHECK(r2.allocated() == 40 * sizeof(std::optional<std::uint8_t>));
    STATIC_REQUIRE(netser::detail::paid_bytes_per_bit == 128);
}
