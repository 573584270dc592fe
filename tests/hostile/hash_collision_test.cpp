// Hash tables filled from a packet: keys chosen to share a bucket would make a read
// quadratic (each insertion walks every key before it in its bucket; 23 s for a 1 MiB
// message). A read refuses a key that makes its bucket hold more than
// max_keys_per_bucket keys, so each insertion compares at most that many keys: the
// work per key is bounded whatever the keys, as SECURITY.md states. The key comparisons
// are counted here (timings are for tests/benchmarks/hash_collision_bench.cpp).

#include "hostile/hostile_types.hpp"

#include <random>
#include <unordered_map>

using netser::errc;

namespace hash_test {

std::size_t comparisons = 0;

// std::equal_to that counts: every key the table walks past is one comparison.
struct counting_equal {
    bool operator()(std::uint32_t a, std::uint32_t b) const noexcept {
        ++comparisons;
        return a == b;
    }
};

struct Table {
    std::unordered_map<std::uint32_t, std::uint8_t, std::hash<std::uint32_t>, counting_equal> m;
};
NETSER_STRUCT(Table, (m, netser::max_size(1 << 16)))

constexpr std::size_t limit = netser::detail::max_keys_per_bucket;

// The bucket count a reader's table has for n keys (it reserves n in a fresh table).
std::size_t buckets_for(std::size_t n) {
    decltype(Table::m) probe;
    probe.reserve(n);
    return probe.bucket_count();
}

/// n keys: random, or `per_bucket` keys in each bucket the reader will use.
std::vector<std::uint32_t> keys(std::size_t n, std::size_t per_bucket, std::uint32_t seed) {
    std::vector<std::uint32_t> out;
    if (per_bucket == 0) {
        std::mt19937 rng(seed);
        std::unordered_map<std::uint32_t, int> seen;
        while (out.size() < n)
            if (const auto k = static_cast<std::uint32_t>(rng()); seen.emplace(k, 0).second) out.push_back(k);
    } else {
        const std::size_t buckets = buckets_for(n);
        for (std::size_t i = 0; out.size() < n; ++i) // bucket i % (n / per_bucket), one key per round
            out.push_back(static_cast<std::uint32_t>(i % (n / per_bucket) + (i / (n / per_bucket)) * buckets));
    }
    return out;
}

/// A packet of a Table with these keys, forged field by field (the writer's own table
/// would take quadratic time to build with colliding keys): the count, then key and value.
std::vector<std::byte> table_packet(const std::vector<std::uint32_t>& k) {
    std::vector<std::byte> buffer(8 + k.size() * 5);
    netser::write_stream w(buffer.data(), buffer.size());
    std::uint64_t count = k.size();
    REQUIRE(w.process_bits(count, 17));
    for (std::uint32_t key : k) {
        std::uint64_t code = key, value = 1;
        REQUIRE(w.process_bits(code, 32));
        REQUIRE(w.process_bits(value, 8));
    }
    const auto bytes = w.finish();
    return {bytes.begin(), bytes.end()};
}

struct read_cost {
    netser::error error;
    std::size_t comparisons = 0;
    std::size_t size = 0;
};

read_cost read_table(const std::vector<std::byte>& packet, Table& t) {
    comparisons = 0;
    netser::read_stream r(packet);
    (void)netser::serialize(r, t);
    return {r.error(), comparisons, t.m.size()};
}

} // namespace hash_test

using namespace hash_test;

TEST_CASE("keys that crowd one bucket past the limit are refused at the first key too many", "[hostile][hash]") {
    const std::size_t n = 4096;
    std::vector<std::uint32_t> k;
    const std::size_t buckets = buckets_for(n);
    for (std::size_t i = 0; i < n; ++i) k.push_back(static_cast<std::uint32_t>(i * buckets)); // all in bucket 0
    Table t;
    const read_cost c = read_table(table_packet(k), t);
    CHECK(c.error.code == errc::too_large);
    CHECK(c.error.path() == "Table.m[16]");
    CHECK(c.error.bit == 17 + limit * 40);
    CHECK(c.comparisons <= limit * (limit + 1) / 2);
}

TEST_CASE("every key costs at most max_keys_per_bucket comparisons, whatever the keys", "[hostile][hash]") {
    for (const std::size_t n : {64u, 1024u, 16384u}) {
        for (const std::size_t per_bucket : {std::size_t{0}, std::size_t{1}, std::size_t{8}, limit}) {
            INFO(n << " keys, " << per_bucket << " per bucket (0: random)");
            Table t;
            const read_cost c = read_table(table_packet(keys(n, per_bucket, 7)), t);
            REQUIRE_FALSE(c.error);
            CHECK(c.size == n);
            CHECK(c.comparisons <= n * limit);
        }
        // Random keys compare about once a key at most (a bucket holds one or two).
        Table t;
        const read_cost random = read_table(table_packet(keys(n, 0, 9)), t);
        CHECK(random.comparisons <= n);
    }
}

TEST_CASE("the same packet meets the same buckets in a fresh table and in a reused one", "[hostile][hash]") {
    const auto packet = table_packet(keys(1024, limit, 3));
    Table fresh;
    REQUIRE_FALSE(read_table(packet, fresh).error);
    Table reused;
    reused.m.reserve(1 << 16); // other buckets, where these keys would not crowd
    for (std::uint32_t i = 0; i < 5000; ++i) reused.m.emplace(i, 2);
    const read_cost c = read_table(packet, reused);
    CHECK_FALSE(c.error);
    CHECK(reused.m.size() == fresh.m.size());
    CHECK(fresh.m == reused.m);
    const auto crowded = table_packet(keys(1024, limit + 1, 3));
    CHECK(read_table(crowded, fresh).error.code == errc::too_large);
    CHECK(read_table(crowded, reused).error.code == errc::too_large);
}
