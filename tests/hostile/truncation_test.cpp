// Truncation at every bit length, for every packet type. A packet cut to fewer whole
// bytes than the write produced must fail with overflow (the reader sees the same
// bits up to the cut, then runs out); a packet cut at any bit, the rest of its last
// byte zeroed, must fail or decode to values inside their declared ranges. Either way
// nothing outside the exactly sized block is touched and the allocation bound holds.
#include "hostile/hostile_types.hpp"

#include <algorithm>

namespace hostile {

TEST_CASE("a packet cut short by whole bytes fails with overflow", "[hostile][truncation]") {
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        for (std::uint64_t seed = 0; seed < 6; ++seed) {
            const packet p = write_value(make_value<T>(seed, seed < 3 ? size_mode::small : size_mode::full));
            for (std::size_t n = 0; n * 8 < p.bits; ++n) {
                INFO(type_names[index] << " seed " << seed << ": " << n << " of " << p.bytes.size() << " bytes");
                const auto r = read_value<T>(std::span<const std::byte>(p.bytes).first(n));
                REQUIRE(r.error.code == netser::errc::overflow);
                CHECK(r.error.bit <= n * 8);
                CHECK(r.heap.bytes <= heap_bound<T>(n * 8));
            }
        }
    });
}

TEST_CASE("a packet cut at every bit length fails or decodes within its ranges", "[hostile][truncation]") {
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        for (std::uint64_t seed = 0; seed < 4; ++seed) {
            const packet p = write_value(make_value<T>(seed, size_mode::small));
            for (std::size_t bits = 0; bits < p.bits; ++bits) {
                INFO(type_names[index] << " seed " << seed << ": cut at bit " << bits << " of " << p.bits);
                std::vector<std::byte> cut(p.bytes.begin(), p.bytes.begin() + static_cast<std::ptrdiff_t>((bits + 7) / 8));
                if (bits % 8 != 0) cut.back() &= static_cast<std::byte>((1u << (bits % 8)) - 1);
                check_hostile_read(read_value<T>(cut), cut.size());
            }
        }
    });
}

TEST_CASE("a packet reads the same at any alignment of its first byte", "[hostile][truncation]") {
    // The packet ends where the block ends: a byte read past it is an ASan report, a
    // misaligned wide load a UBSan one.
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        for (std::uint64_t seed = 0; seed < 3; ++seed) {
            const packet p = write_value(make_value<T>(seed));
            for (std::size_t offset = 1; offset < 8; ++offset) {
                INFO(type_names[index] << " seed " << seed << " offset " << offset);
                exact_block block(p.bytes.size() + offset);
                std::copy(p.bytes.begin(), p.bytes.end(), block.data() + offset);
                T value{};
                netser::read_stream r(block.data() + offset, p.bytes.size());
                REQUIRE(netser::serialize(r, value));
                CHECK(r.bits_processed() == p.bits);
                CHECK(write_value(value).bytes == write_value(read_value<T>(p.bytes).value).bytes);
            }
        }
    });
}

TEST_CASE("a failed read stays failed, with its first error", "[hostile][truncation]") {
    const packet p = write_value(make_value<Player>(5));
    const exact_block block(std::span<const std::byte>(p.bytes).first(p.bytes.size() / 2));
    netser::read_stream r(block.span());
    Player value;
    REQUIRE_FALSE(netser::serialize(r, value));
    const netser::error first = r.error();
    CHECK(first.code == netser::errc::overflow);
    // Every later call fails and keeps the first error; nothing more is read.
    std::uint64_t bits = 0;
    CHECK_FALSE(r.process_bits(bits, 1));
    CHECK_FALSE(r.process_bits(bits, 0));
    CHECK_FALSE(r.align());
    CHECK(r.bits_remaining() == 0);
    Player again;
    CHECK_FALSE(netser::serialize(r, again));
    CHECK(r.error().code == first.code);
    CHECK(r.error().bit == first.bit);
    CHECK(r.bits_processed() <= block.size() * 8);
}

} // namespace hostile
