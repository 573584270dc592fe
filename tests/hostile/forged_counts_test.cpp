// Forged counts and lengths, written by hand with a write_stream: 0, max, max + 1,
// 2^31 and 2^32 - 1 in 32-bit count fields, and every code above max in the small
// ones of the packet types. A count above max fails with too_large, one whose
// elements cannot fit in the bits left with overflow, both at the count's first bit
// and before anything is allocated.
#include "hostile/hostile_types.hpp"

namespace hostile {

namespace {

// A 32-bit count and 64 bits of zeros after it: far too few for a big count.
std::vector<std::byte> count_packet(std::uint64_t count) { return forge().put(count, 32).put(0, 64).bytes(); }

template <class T>
void check_forged_count(std::uint64_t count, netser::errc expected, std::string_view path) {
    INFO("count " << count);
    const auto bytes = count_packet(count);
    const auto r = read_value<T>(bytes);
    CHECK(r.error.code == expected);
    if (expected != netser::errc::none) {
        CHECK(r.error.bit == 0);
        CHECK(r.error.path() == path);
        CHECK(r.heap.calls == 0);
    }
}

template <class T>
void check_big_counts(std::uint64_t max, std::string_view path) {
    using netser::errc;
    check_forged_count<T>(max, errc::overflow, path);
    check_forged_count<T>(two_31, two_31 > max ? errc::too_large : errc::overflow, path);
    check_forged_count<T>(two_32_minus_1, two_32_minus_1 > max ? errc::too_large : errc::overflow, path);
    if (max + 1 <= two_32_minus_1) check_forged_count<T>(max + 1, errc::too_large, path);
}

} // namespace

TEST_CASE("forged 32-bit counts: 0 reads empty, max, max + 1, 2^31 and 2^32 - 1 are refused", "[hostile][counts]") {
    SECTION("std::vector, max_size 2^32 - 2") {
        const auto zero = read_value<HugeList>(count_packet(0));
        CHECK_FALSE(zero.error);
        CHECK(zero.value.v.empty());
        CHECK(zero.heap.calls == 0);
        check_big_counts<HugeList>(0xfffffffe, "HugeList.v");
    }
    SECTION("std::string, max_length 2^32 - 2") {
        const auto zero = read_value<HugeText>(forge().put(0, 32).bytes());
        CHECK_FALSE(zero.error);
        CHECK(zero.value.s.empty());
        check_big_counts<HugeText>(0xfffffffe, "HugeText.s");
    }
    SECTION("std::map, max_size 2^31") {
        CHECK_FALSE(read_value<HugeMap>(count_packet(0)).error);
        check_big_counts<HugeMap>(two_31, "HugeMap.m");
    }
    SECTION("std::set, max_size 2^32 - 2") {
        CHECK_FALSE(read_value<HugeSet>(count_packet(0)).error);
        check_big_counts<HugeSet>(0xfffffffe, "HugeSet.s");
    }
    SECTION("std::vector<std::string>, max_size 2^32 - 2") {
        CHECK_FALSE(read_value<HugeStrings>(count_packet(0)).error);
        check_big_counts<HugeStrings>(0xfffffffe, "HugeStrings.v");
    }
}

TEST_CASE("a count of exactly max reads when its elements are there", "[hostile][counts]") {
    forge f;
    f.put(8, 4);
    for (std::uint64_t i = 0; i < 8; ++i) f.put(i * 100, 10);
    const auto full = f.bytes();
    const auto r = read_value<SmallList>(full);
    REQUIRE_FALSE(r.error);
    CHECK(r.value.v.size() == 8);
    CHECK(r.value.v[7] == 700);
    // One element short: overflow before allocating.
    const auto short_one = read_value<SmallList>(std::span<const std::byte>(full).first((4 + 7 * 10) / 8));
    CHECK(short_one.error.code == netser::errc::overflow);
    CHECK(short_one.heap.calls == 0);
}

TEST_CASE("every count code above max_size fails with too_large", "[hostile][counts]") {
    SECTION("SmallList: max 8 in 4 bits") {
        for (std::uint64_t c = 9; c < 16; ++c) {
            INFO("count " << c);
            forge f;
            f.put(c, 4);
            for (int i = 0; i < 16; ++i) f.put(0, 10);
            const auto r = read_value<SmallList>(f.bytes());
            CHECK(r.error.code == netser::errc::too_large);
            CHECK(r.heap.calls == 0);
        }
    }
    SECTION("Inventory.names: max 4 in 3 bits, the first field") {
        for (std::uint64_t c = 5; c < 8; ++c) {
            forge f;
            f.put(c, 3).put(0, 64).put(0, 64).put(0, 64);
            const auto r = read_value<Inventory>(f.bytes());
            CHECK(r.error.code == netser::errc::too_large);
            CHECK(r.error.bit == 0);
            CHECK(r.error.path() == "Inventory.names");
            CHECK(r.heap.calls == 0);
        }
    }
    SECTION("Node.kids: max 4 in 3 bits after v") {
        for (std::uint64_t c = 5; c < 8; ++c) {
            const auto r = read_value<Node>(forge().put(1000, 11).put(c, 3).put(0, 64).put(0, 64).bytes());
            CHECK(r.error.code == netser::errc::too_large);
            CHECK(r.error.bit == 11);
            CHECK(r.error.path() == "Node.kids");
        }
    }
    SECTION("Entities.marks: a sparse vector of max 20 slots in 5 bits") {
        for (std::uint64_t c = 21; c < 32; ++c) {
            forge f;
            f.put(0, 6).put(201 - 126, 7); // units: the end sentinel 200, six clear flags then 201 in [126, 201]
            const std::size_t at = f.bits();
            f.put(c, 5).put(0, 64);
            const auto r = read_value<Entities>(f.bytes());
            CHECK(r.error.code == netser::errc::too_large);
            CHECK(r.error.bit == at);
            CHECK(r.error.path() == "Entities.marks");
            CHECK(r.heap.calls == 0);
        }
    }
    SECTION("a string element of a vector: max_length 100 in 7 bits") {
        for (std::uint64_t length = 101; length < 128; ++length) {
            const auto r = read_value<HugeStrings>(forge().put(1, 32).put(length, 7).align().put(0, 64).bytes());
            CHECK(r.error.code == netser::errc::too_large);
            CHECK(r.error.bit == 32);
            CHECK(r.error.path() == "HugeStrings.v[0]");
        }
    }
}

} // namespace hostile
