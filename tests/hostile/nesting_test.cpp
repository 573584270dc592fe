// The nesting limit: a recursive type (the tree Node, the chain of optionals Chain)
// nests at most 64 levels deep by default; deeper fails with too_large, on read and
// on write, and read_stream::set_max_depth changes the limit. A forged packet that
// nests without end stops at the limit: no stack exhaustion, time bounded by the limit.
#include "hostile/hostile_types.hpp"

namespace hostile {

namespace {

/// A line of `depth` nodes, each with one kid but the last (no end when open_end).
std::vector<std::byte> node_line(std::size_t depth, bool open_end = false) {
    forge f(2 * depth + 8); // 14 bits a node
    for (std::size_t i = 0; i < depth; ++i) f.put(1000 + i % 7, 11).put(i + 1 < depth || open_end ? 1 : 0, 3);
    return f.bytes();
}

/// A chain of `depth` links: v, then the presence bit of next.
std::vector<std::byte> chain_line(std::size_t depth, bool open_end = false) {
    forge f(2 * depth + 8); // 9 bits a link
    for (std::size_t i = 0; i < depth; ++i) f.put(i % 256, 8).put(i + 1 < depth || open_end ? 1 : 0, 1);
    return f.bytes();
}

std::size_t node_depth(const Node& n) {
    std::size_t d = 1;
    for (const Node* at = &n; !at->kids.empty(); at = &at->kids[0]) ++d;
    return d;
}

} // namespace

TEST_CASE("a tree nests 64 deep by default and fails with too_large at 65", "[hostile][nesting]") {
    const auto ok = read_value<Node>(node_line(64));
    REQUIRE_FALSE(ok.error);
    CHECK(node_depth(ok.value) == 64);
    CHECK(ok.heap.bytes <= heap_bound<Node>(64 * node_min_bits));

    const auto deep = read_value<Node>(node_line(65));
    CHECK(deep.error.code == netser::errc::too_large);
    CHECK(deep.error.bit == 64 * node_min_bits); // where the 65th node starts
    // The path of 64 levels does not fit the error's 200 characters: the outermost part is "...".
    CHECK(deep.error.path().starts_with("..."));
    CHECK(deep.error.path().ends_with(".kids[0].kids[0]"));
    CHECK(deep.heap.bytes <= heap_bound<Node>(65 * node_min_bits));
}

TEST_CASE("the nesting limit is configurable with set_max_depth", "[hostile][nesting]") {
    for (std::size_t limit : {std::size_t{1}, std::size_t{2}, std::size_t{8}, std::size_t{100}, std::size_t{300}}) {
        INFO("limit " << limit);
        const auto ok = read_value<Node>(node_line(limit), limit);
        CHECK_FALSE(ok.error);
        const auto deep = read_value<Node>(node_line(limit + 1), limit);
        CHECK(deep.error.code == netser::errc::too_large);
        const auto chain_ok = read_value<Chain>(chain_line(limit), limit);
        CHECK_FALSE(chain_ok.error);
        const auto chain_deep = read_value<Chain>(chain_line(limit + 1), limit);
        CHECK(chain_deep.error.code == netser::errc::too_large);
    }
    SECTION("0 refuses even the outermost struct") {
        CHECK(read_value<Node>(node_line(1), 0).error.code == netser::errc::too_large);
    }
    SECTION("structs that cannot recurse do not count") {
        // Only recursive types can nest without bound: the others pay nothing.
        const packet p = write_value(Envelope{7, Ping{3, true}});
        CHECK_FALSE(read_value<Envelope>(p.bytes, 0).error);
    }
}

TEST_CASE("a chain of optionals nests 64 deep by default", "[hostile][nesting]") {
    const auto ok = read_value<Chain>(chain_line(64));
    REQUIRE_FALSE(ok.error);
    CHECK(satisfies_declared(ok.value));
    CHECK(ok.heap.calls == 63);
    const auto deep = read_value<Chain>(chain_line(65));
    CHECK(deep.error.code == netser::errc::too_large);
    CHECK(deep.heap.bytes <= heap_bound<Chain>(0));
}

TEST_CASE("a forged packet that nests without end stops at the limit", "[hostile][nesting]") {
    // 100000 levels announced: the read stops at level 65, far before the end.
    const auto tree = read_value<Node>(node_line(100000, true));
    CHECK(tree.error.code == netser::errc::too_large);
    CHECK(tree.bits <= 65 * node_min_bits);
    CHECK(tree.heap.bytes <= heap_bound<Node>(65 * node_min_bits));
    const auto chain = read_value<Chain>(chain_line(100000, true));
    CHECK(chain.error.code == netser::errc::too_large);
    CHECK(chain.heap.bytes <= heap_bound<Chain>(0));
}

TEST_CASE("writing and measuring past the nesting limit fail too", "[hostile][nesting]") {
    CHECK_FALSE(write_value(node_chain(64)).bytes.empty());
    const Node deep = node_chain(65);
    std::vector<std::byte> buffer(4096);
    netser::write_stream w{std::span<std::byte>(buffer)};
    CHECK_FALSE(netser::serialize(w, deep));
    CHECK(w.error().code == netser::errc::too_large);
    netser::measure_stream m;
    CHECK_FALSE(netser::serialize(m, deep));
    CHECK(m.error().code == netser::errc::too_large);
}

} // namespace hostile
