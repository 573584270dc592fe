// Delta reads (netser::serialize_delta on a read_stream) of hostile bytes, for every
// packet type: truncation at every bit, every single-bit flip, forged counts, element
// indices past the end, differences that leave their range, a baseline of another size.
// Each read either fails with a decode error or gives values inside their declared
// ranges, touches nothing outside its exactly sized block and allocates no more than
// the type's bound (recursive types: plus the baseline's own nodes, which an unchanged
// subtree copies).
#include "hostile/hostile_types.hpp"

#include <boost/pfr/core.hpp>

namespace hostile {

namespace {

template <class T>
T received(const T& value) {
    T out{};
    REQUIRE_FALSE(netser::as_received(value, out));
    return out;
}

// A value of T built from base with some values of other.
template <class T>
T changed_from(const T& base, std::uint64_t seed) {
    T obj{};
    netser::detail::copy_value(obj, base);
    const T other = make_value<T>(seed, size_mode::small);
    rng r{seed};
    if constexpr (netser::detail::described<T>) {
        boost::mp11::mp_for_each<netser::detail::described_members<T>>([&](auto d) {
            if constexpr (std::is_copy_assignable_v<std::remove_cvref_t<decltype(obj.*d.pointer)>>)
                if (r.below(3) == 0) obj.*d.pointer = other.*d.pointer;
        });
    }
    return obj;
}

template <class T>
packet write_delta_value(const T& obj, const T& base) {
    packet out;
    std::size_t capacity = write_capacity<T>() * 2;
    if constexpr (statically_bounded<T>) capacity = netser::max_delta_bytes<T>();
    out.bytes.resize(capacity);
    netser::write_stream w{std::span<std::byte>(out.bytes)};
    const bool ok = netser::serialize_delta(w, obj, base);
    INFO("write error " << netser::to_string(w.error().code) << " at " << w.error().path());
    REQUIRE(ok);
    out.bits = w.bits_processed();
    out.bytes.resize(w.finish().size());
    return out;
}

// The bytes a copy of the baseline allocates (an unchanged recursive subtree is copied).
template <class T>
std::size_t copy_heap(const T& base) {
    T copy{};
    alloc_scope scope;
    netser::detail::copy_value(copy, base);
    return scope.totals().bytes;
}

template <class T>
read_result<T> read_delta_value(std::span<const std::byte> bytes, const T& base) {
    read_result<T> out;
    const exact_block block(bytes);
    netser::read_stream r(block.span());
    {
        alloc_scope scope;
        netser::serialize_delta(r, out.value, base);
        out.heap = scope.totals();
    }
    out.error = r.error();
    out.bits = r.bits_processed();
    return out;
}

template <class T>
void check_hostile_delta(const read_result<T>& r, const T& base, std::size_t packet_bytes) {
    INFO("error " << netser::to_string(r.error.code) << " at bit " << r.error.bit << " path " << r.error.path());
    std::size_t bound = heap_bound<T>(packet_bytes * 8);
    if constexpr (!statically_bounded<T>) bound += copy_heap(base);
    CHECK(r.heap.bytes <= bound);
    if (r.error) {
        CHECK(r.error.bit <= packet_bytes * 8);
        using netser::errc;
        CHECK((r.error.code == errc::overflow || r.error.code == errc::out_of_range ||
               r.error.code == errc::invalid_value || r.error.code == errc::too_large ||
               r.error.code == errc::check_failed));
    } else {
        CHECK(r.bits <= packet_bytes * 8);
        if constexpr (std::is_same_v<T, Node> || std::is_same_v<T, Chain>) CHECK(satisfies_declared(r.value, 64));
        else CHECK(satisfies_declared(r.value));
    }
}

} // namespace

TEST_CASE("a delta cut short by whole bytes fails with overflow", "[hostile][delta]") {
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        for (std::uint64_t seed = 0; seed < 4; ++seed) {
            const T base = received(make_value<T>(seed, size_mode::small));
            const packet p = write_delta_value(changed_from(base, seed + 100), base);
            for (std::size_t n = 0; n * 8 < p.bits; ++n) {
                INFO(type_names[index] << " seed " << seed << ": " << n << " of " << p.bytes.size() << " bytes");
                const auto r = read_delta_value<T>(std::span<const std::byte>(p.bytes).first(n), base);
                REQUIRE(r.error.code == netser::errc::overflow);
                check_hostile_delta(r, base, n);
            }
        }
    });
}

TEST_CASE("a delta cut at every bit fails or decodes within its ranges", "[hostile][delta]") {
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        for (std::uint64_t seed = 0; seed < 3; ++seed) {
            const T base = received(make_value<T>(seed + 10, size_mode::small));
            const packet p = write_delta_value(changed_from(base, seed + 200), base);
            for (std::size_t bits = 0; bits < p.bits; ++bits) {
                INFO(type_names[index] << " seed " << seed << ": cut at bit " << bits << " of " << p.bits);
                std::vector<std::byte> cut(p.bytes.begin(), p.bytes.begin() + static_cast<std::ptrdiff_t>((bits + 7) / 8));
                if (bits % 8 != 0) cut.back() &= static_cast<std::byte>((1u << (bits % 8)) - 1);
                check_hostile_delta(read_delta_value<T>(cut, base), base, cut.size());
            }
        }
    });
}

TEST_CASE("every single-bit flip of a delta fails or decodes within the declared ranges", "[hostile][delta]") {
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        std::size_t failed = 0, decoded = 0;
        for (std::uint64_t seed = 0; seed < 4; ++seed) {
            const T base = received(make_value<T>(seed + 20, seed < 2 ? size_mode::small : size_mode::full));
            const packet p = write_delta_value(changed_from(base, seed + 300), base);
            for (std::size_t bit = 0; bit < p.bytes.size() * 8; ++bit) {
                INFO(type_names[index] << " seed " << seed << ": bit " << bit << " of " << p.bits);
                auto flipped = p.bytes;
                flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
                const auto r = read_delta_value<T>(flipped, base);
                check_hostile_delta(r, base, flipped.size());
                ++(r.error ? failed : decoded);
            }
        }
        INFO(type_names[index] << ": " << failed << " flips failed, " << decoded << " decoded");
        CHECK(failed + decoded > 0);
    });
}

TEST_CASE("a delta read against another baseline (another size, other values) fails or stays in range",
          "[hostile][delta]") {
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        for (std::uint64_t seed = 0; seed < 6; ++seed) {
            const T base = received(make_value<T>(seed + 30, size_mode::full));
            const packet p = write_delta_value(changed_from(base, seed + 400), base);
            for (std::uint64_t other = 0; other < 4; ++other) {
                const T wrong = received(make_value<T>(seed * 10 + other + 500, other % 2 ? size_mode::small : size_mode::full));
                INFO(type_names[index] << " seed " << seed << " other baseline " << other);
                check_hostile_delta(read_delta_value<T>(p.bytes, wrong), wrong, p.bytes.size());
            }
        }
    });
}

TEST_CASE("a forged vector count above max_size or past the packet fails before anything is allocated",
          "[hostile][delta]") {
    const SmallList base{{1, 2, 3}};
    // struct changed, v changed, count not the same, count 9 (> max_size 8) in 4 bits.
    auto above = forge{}.put(1, 1).put(1, 1).put(0, 1).put(9, 4).bytes();
    auto r = read_delta_value<SmallList>(above, base);
    CHECK(r.error.code == netser::errc::too_large);
    CHECK(r.error.path() == "SmallList.v");
    CHECK(r.heap.bytes == 0);
    // count 8: five new elements of 10 bits each cannot fit in what is left.
    auto past = forge{}.put(1, 1).put(1, 1).put(0, 1).put(8, 4).put(0, 1).put(0, 3).bytes();
    r = read_delta_value<SmallList>(past, base);
    CHECK(r.error.code == netser::errc::overflow);
    CHECK(r.heap.bytes == 0);
}

TEST_CASE("a forged element index past the end fails with out_of_range", "[hostile][delta]") {
    const SmallList list{{1, 2, 3, 4, 5, 6, 7, 8}};
    // SmallList: struct, member, same count (1), element list by indices (1), then a
    // relative index from -1 of d = 11 (past the 8 elements): 0, 0, 1 (rung [6,13]), 5 in 3.
    auto bytes = forge{}.put(1, 1).put(1, 1).put(1, 1).put(1, 1).put(0, 1).put(0, 1).put(1, 1).put(5, 3).bytes();
    const auto r = read_delta_value<SmallList>(bytes, list);
    CHECK(r.error.code == netser::errc::out_of_range);
    CHECK(r.error.path() == "SmallList.v");
    CHECK(r.error.bit == 4);
}

TEST_CASE("a forged difference that leaves the value's range fails with out_of_range", "[hostile][delta]") {
    // Ranged.a is range(0, 100): code 100 - 0; against a = 95, a difference of +10 leaves it.
    Ranged base{};
    base.a = 95;
    base = received(base);
    // struct 1, a 1, rung [1,1] no (0), rung [2,16] yes (1), sign 0, 10 - 2 = 8 in 4 bits.
    auto bytes = forge{}.put(1, 1).put(1, 1).put(0, 1).put(1, 1).put(0, 1).put(8, 4).bytes();
    const auto r = read_delta_value<Ranged>(bytes, base);
    CHECK(r.error.code == netser::errc::out_of_range);
    CHECK(r.error.path() == "Ranged.a");
    CHECK(r.error.bit == 2);
    // The same below 0: 3 - 10.
    base.a = 3;
    auto below = forge{}.put(1, 1).put(1, 1).put(0, 1).put(1, 1).put(1, 1).put(8, 4).bytes();
    CHECK(read_delta_value<Ranged>(below, base).error.code == netser::errc::out_of_range);
}
} // namespace hostile
