// Bounded memory: this executable replaces the global operator new / delete with
// counting versions, so a test can see every byte a read asks for. A read allocates at
// most its type's static bound (hostile_types.hpp: heap_bound) for valid, random and
// hostile packets; a count that cannot fit in the bits left is refused before anything
// is allocated; and a packet that fails its CRC allocates nothing at all.
#include "hostile/hostile_types.hpp"

#include <cstdlib>
#include <new>

namespace {

bool counting = false;
hostile::alloc_totals totals;

void* allocate(std::size_t n, std::size_t alignment = 0) noexcept {
    if (counting) {
        totals.bytes += n;
        ++totals.calls;
    }
    if (n == 0) n = 1;
    if (alignment > alignof(std::max_align_t)) {
        const std::size_t rounded = (n + alignment - 1) / alignment * alignment;
        return std::aligned_alloc(alignment, rounded);
    }
    return std::malloc(n);
}

void* allocate_or_throw(std::size_t n, std::size_t alignment = 0) {
    void* p = allocate(n, alignment);
    if (p == nullptr) throw std::bad_alloc();
    return p;
}

// Out of line, so that GCC does not pair an inlined operator delete's free() with
// the operator new it saw (-Wmismatched-new-delete): here both are malloc / free.
#if defined(__GNUC__)
__attribute__((noinline))
#endif
void release(void* p) noexcept {
    std::free(p);
}

} // namespace

void hostile::start_counting() noexcept {
    totals = {};
    counting = true;
}

hostile::alloc_totals hostile::stop_counting() noexcept {
    counting = false;
    return totals;
}

// The replaceable allocation functions ([new.delete]): all of them, so none bypasses the count.
void* operator new(std::size_t n) { return allocate_or_throw(n); }
void* operator new[](std::size_t n) { return allocate_or_throw(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate(n); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }

namespace hostile {
namespace {

constexpr int values_per_type = 24;

template <class T>
void check_random_bytes(std::uint64_t seed) {
    rng r{seed};
    for (int i = 0; i < 300; ++i) {
        std::vector<std::byte> bytes(static_cast<std::size_t>(r.below(600)));
        // Mostly ones or mostly zeros as well as uniform bytes: long counts and long runs.
        const std::uint64_t style = r.below(3);
        for (auto& b : bytes) {
            const auto x = r.next();
            b = static_cast<std::byte>(style == 0 ? x : style == 1 ? (x | (x >> 8) | (x >> 16)) : (x & (x >> 8) & (x >> 16)));
        }
        check_hostile_read(read_value<T>(bytes), bytes.size());
    }
}

void* volatile escaped_pointer = nullptr;

} // namespace

TEST_CASE("the counting allocator sees every operator new", "[hostile][memory]") {
    alloc_scope scope;
    auto* one = new int(1);
    auto* many = new std::uint64_t[10];
    std::string s(100, 'x');
    // Seen from outside, or clang -O2 elides the new/delete pairs.
    escaped_pointer = one;
    escaped_pointer = many;
    const alloc_totals t = scope.totals();
    delete one;
    delete[] many;
    CHECK(t.calls == 3);
    CHECK(t.bytes >= sizeof(int) + 10 * sizeof(std::uint64_t) + 101);
}

TEST_CASE("a read allocates at most its type's static bound, for valid values", "[hostile][memory]") {
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        INFO(type_names[index]);
        std::size_t largest = 0;
        for (int k = 0; k < values_per_type; ++k) {
            const packet p = write_value(make_value<T>(static_cast<std::uint64_t>(k)));
            const auto r = read_value<T>(p.bytes);
            REQUIRE_FALSE(r.error);
            CHECK(r.heap.bytes <= heap_bound<T>(p.bytes.size() * 8));
            largest = std::max(largest, r.heap.bytes);
        }
        // The bound is not vacuous: the largest values come close to it.
        if constexpr (std::is_same_v<T, Player> || std::is_same_v<T, Entities> || std::is_same_v<T, Body>)
            CHECK(largest * 2 >= heap_bound<T>(0));
    });
}

TEST_CASE("a read allocates at most its type's static bound, for random bytes", "[hostile][memory]") {
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        INFO(type_names[index]);
        check_random_bytes<T>(1000 + index);
    });
}

TEST_CASE("a packet that fails its CRC allocates nothing", "[hostile][memory]") {
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        INFO(type_names[index]);
        for (int k = 0; k < 4; ++k) {
            const auto bytes = write_packet_value(make_value<T>(static_cast<std::uint64_t>(k)));
            REQUIRE_FALSE(read_packet_value<T>(bytes).error);
            // Every single-bit flip, CRC field included: CRC-32 catches them all.
            for (std::size_t bit = 0; bit < bytes.size() * 8; ++bit) {
                auto flipped = bytes;
                flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
                const auto r = read_packet_value<T>(flipped);
                INFO("bit " << bit);
                REQUIRE(r.error.code == netser::errc::bad_crc);
                REQUIRE(r.heap.calls == 0);
                REQUIRE(r.heap.bytes == 0);
            }
            // Another protocol id: the same bytes fail the CRC.
            netser::packet_options other;
            other.protocol_id = netser::schema_hash<T>() ^ 1u;
            T value{};
            alloc_scope scope;
            const netser::error e = netser::read_packet(std::span<const std::byte>(bytes), value, other);
            const alloc_totals t = scope.totals();
            CHECK(e.code == netser::errc::bad_crc);
            CHECK(t.calls == 0);
        }
    });
}

TEST_CASE("a count whose elements cannot fit in the bits left is refused before allocating", "[hostile][memory]") {
    SECTION("vector: max_size elements of 32 bits announced, 64 bits sent") {
        auto bytes = forge().put(1000, 32).put(1, 32).put(2, 32).bytes();
        const auto r = read_value<HugeList>(bytes);
        CHECK(r.error.code == netser::errc::overflow);
        CHECK(r.error.bit == 0);
        CHECK(r.heap.calls == 0);
    }
    SECTION("vector: exactly enough bits is accepted") {
        auto bytes = forge().put(2, 32).put(1, 32).put(2, 32).bytes();
        const auto r = read_value<HugeList>(bytes);
        REQUIRE_FALSE(r.error);
        CHECK(r.value.v == std::vector<std::uint32_t>{1, 2});
        CHECK(r.heap.bytes == 2 * sizeof(std::uint32_t));
    }
    SECTION("string: a length past the bytes left") {
        auto bytes = forge().put(9, 32).align().text("12345678").bytes();
        const auto r = read_value<HugeText>(bytes);
        CHECK(r.error.code == netser::errc::overflow);
        CHECK(r.heap.calls == 0);
    }
    SECTION("map, set and vector of strings") {
        auto bytes = forge().put(100, 32).put(0, 32).bytes();
        const auto m = read_value<HugeMap>(bytes);
        CHECK(m.error.code == netser::errc::overflow);
        CHECK(m.heap.calls == 0);
        const auto s = read_value<HugeSet>(bytes);
        CHECK(s.error.code == netser::errc::overflow);
        CHECK(s.heap.calls == 0);
        const auto v = read_value<HugeStrings>(bytes);
        CHECK(v.error.code == netser::errc::overflow);
        CHECK(v.heap.calls == 0);
    }
    SECTION("the tree: four kids announced, bits for one") {
        auto bytes = forge().put(1000, 11).put(4, 3).put(1000, 11).put(0, 3).bytes();
        const auto r = read_value<Node>(bytes);
        CHECK(r.error.code == netser::errc::overflow);
        CHECK(r.heap.calls == 0);
    }
}

TEST_CASE("slots that take no bits are bounded by max_size alone", "[hostile][memory]") {
    // Not proportional to the packet: a sparse vector's absent slots and zero-bit
    // elements cost nothing on the wire, so max_size is their only limit (SECURITY.md).
    SECTION("sparse vector: 1000 slots from 4 bytes") {
        // The count, then the end sentinel 1000 at distance 1001 from -1: six clear
        // ladder flags and the distance in [126, 1001].
        auto bytes = forge().put(1000, 10).put(0, 6).put(1001 - 126, 10).bytes();
        const auto r = read_value<SparseSlots>(bytes);
        INFO(netser::to_string(r.error.code) << " " << r.error.path());
        CHECK_FALSE(r.error);
        CHECK(r.value.v.size() == 1000);
        CHECK(r.heap.bytes <= 1000 * sizeof(std::optional<std::uint8_t>));
    }
    SECTION("zero-bit elements: 1000 from 2 bytes") {
        auto bytes = forge().put(1000, 10).bytes();
        const auto r = read_value<ZeroBitElements>(bytes);
        CHECK_FALSE(r.error);
        CHECK(r.value.v.size() == 1000);
        CHECK(r.heap.bytes <= 1000 * sizeof(std::uint8_t));
    }
}

} // namespace hostile
