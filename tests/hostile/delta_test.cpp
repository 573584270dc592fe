// Delta reads (netser::serialize_delta on a read_stream) of hostile bytes, for every
// packet type: truncation at every bit, every single-bit flip, forged counts, element
// indices past the end, differences that leave their range, a baseline of another size.
// Each read either fails with a decode error or gives values inside their declared
// ranges, touches nothing outside its exactly sized block and allocates no more than
// the type's bound (recursive types: plus the baseline's own nodes, which an unchanged
// subtree copies).
#include "hostile/hostile_types.hpp"

#include <boost/pfr/core.hpp>

#include <cmath>

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
void check_hostile_delta(const read_result<T>& r, const T& base, std::size_t packet_bytes) {
    INFO("error " << netser::to_string(r.error.code) << " at bit " << r.error.bit << " path " << r.error.path());
    std::size_t bound = heap_bound<T>(packet_bytes * 8);
    if constexpr (!statically_bounded<T>) bound += copy_heap(base);
    CHECK(r.heap.bytes <= bound);
    check_read_outcome(r, packet_bytes);
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
    std::size_t failed_in_all = 0;
    for_each_type([&]<class T>(std::type_identity<T>, std::size_t index) {
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
        // Every type's decoded flips had their values checked (a Chain's deltas decode
        // whatever bit flips), and flips of the others fail: both branches ran.
        INFO(type_names[index] << ": " << failed << " flips failed, " << decoded << " decoded");
        CHECK(decoded > 0);
        failed_in_all += failed;
    });
    CHECK(failed_in_all > 0);
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

// --- smallest_three's own delta (OneRotation: smallest_three{7}, codes [0, 126], the
// default ladder fitted to them: rungs [1, 1] and [2, 16], else the code in 7 bits) ------

namespace {

Quat unit(float x, float y, float z, float w) {
    const float n = std::sqrt(x * x + y * y + z * z + w * w);
    return {x / n, y / n, z / n, w / n};
}

// The fields the baseline encodes to (a reader computes them the same way).
netser::detail::smallest_three_fields fields_of(const OneRotation& r) {
    const netser::smallest_three codec{7};
    return netser::detail::smallest_three_write({r.q.x, r.q.y, r.q.z, r.q.w}, codec.params());
}

// A rotation read from a delta is a unit quaternion whose plain encoding reads back to
// the same bits (the codec's fixed point).
void check_rotation(const OneRotation& r) {
    const double n = double{r.q.x} * r.q.x + double{r.q.y} * r.q.y + double{r.q.z} * r.q.z + double{r.q.w} * r.q.w;
    CHECK(std::fabs(n - 1) < 1e-5);
    const packet first = write_value(r);
    const auto again = read_value<OneRotation>(first.bytes);
    REQUIRE_FALSE(again.error);
    CHECK(write_value(again.value).bytes == first.bytes);
}

// A delta read of a rotation fails with a decode error, allocating nothing, or gives a
// rotation as above.
void check_rotation_read(const read_result<OneRotation>& r, std::size_t packet_bytes) {
    INFO("error " << netser::to_string(r.error.code) << " at bit " << r.error.bit << " path " << r.error.path());
    CHECK(r.heap.bytes == 0);
    if (r.error) {
        CHECK(r.error.bit <= packet_bytes * 8);
        CHECK((r.error.code == netser::errc::overflow || r.error.code == netser::errc::out_of_range));
    } else {
        CHECK(r.bits <= packet_bytes * 8);
        check_rotation(r.value);
    }
}

} // namespace

TEST_CASE("a forged smallest_three delta whose code leaves [0, max_int] fails with out_of_range at the rotation",
          "[hostile][delta][quaternion]") {
    REQUIRE(netser::smallest_three{7}.params().max_int == 126);
    const OneRotation identity = received(OneRotation{{0, 0, 0, 1}});
    REQUIRE(fields_of(identity).largest == 3);
    REQUIRE(fields_of(identity).codes == std::array<std::uint32_t, 3>{63, 63, 63});
    const auto expect_out_of_range = [](const std::vector<std::byte>& bytes, const OneRotation& base) {
        const auto r = read_delta_value<OneRotation>(bytes, base);
        CHECK(r.error.code == netser::errc::out_of_range);
        CHECK(r.error.bit == 1); // the rotation's first bit, after the struct's changed bit
        CHECK(r.error.path() == "OneRotation.q");
    };
    // struct 1, rotation 1, same largest 1, x changed 1, two clear rung flags, then the
    // fallback code 127 = 2^7 - 1, above max_int.
    expect_out_of_range(forge{}.put(1, 1).put(1, 1).put(1, 1).put(1, 1).put(0, 2).put(127, 7).put(0, 2).bytes(),
                        identity);
    // "Another largest" with the step 3 (there are three others).
    expect_out_of_range(forge{}.put(1, 1).put(1, 1).put(0, 1).put(3, 2).put(63, 21).bytes(), identity);
    // The same code 127 after a switch to x (step 0): y changed, two clear rung flags, 127.
    expect_out_of_range(forge{}.put(1, 1).put(1, 1).put(0, 1).put(0, 2).put(1, 1).put(0, 2).put(127, 7).put(0, 2).bytes(),
                        identity);
    // Rung [2, 16] with offset 15 (in 4 bits): |d| = 17, above the rung.
    expect_out_of_range(forge{}.put(1, 1).put(1, 1).put(1, 1).put(1, 1).put(0, 1).put(1, 1).put(0, 1).put(15, 4)
                            .put(0, 2).bytes(),
                        identity);
    // A difference below 0: x near -b (a small code), d = -(code + 1).
    const OneRotation low = received(OneRotation{unit(-0.62f, 0, 0, 0.7846f)});
    const std::uint32_t x = fields_of(low).codes[0];
    REQUIRE(fields_of(low).largest == 3);
    REQUIRE(x >= 1);
    REQUIRE(x <= 15);
    expect_out_of_range(forge{}.put(1, 1).put(1, 1).put(1, 1).put(1, 1).put(0, 1).put(1, 1).put(1, 1).put(x + 1 - 2, 4)
                            .put(0, 2).bytes(),
                        low);
    // And above max_int from a large code: y near +b, d = +(126 - code + 1).
    const OneRotation high = received(OneRotation{unit(0, 0.7f, 0, 0.714f)});
    const std::uint32_t y = fields_of(high).codes[1];
    REQUIRE(fields_of(high).largest == 3);
    REQUIRE(126 - y + 1 >= 2);
    REQUIRE(126 - y + 1 <= 16);
    expect_out_of_range(forge{}.put(1, 1).put(1, 1).put(1, 1).put(0, 1).put(1, 1).put(0, 1).put(1, 1).put(0, 1)
                            .put(126 - y + 1 - 2, 4).put(0, 1).bytes(),
                        high);
}

TEST_CASE("smallest_three deltas of small turns cut at every bit or with any bit flipped fail or read as a rotation",
          "[hostile][delta][quaternion]") {
    rng r{77};
    std::size_t same_largest = 0, failed = 0, decoded = 0;
    for (int i = 0; i < 60; ++i) {
        const auto component = [&] { return static_cast<float>(static_cast<std::int64_t>(r.below(2001)) - 1000) / 1000.f; };
        const OneRotation base = received(OneRotation{unit(component(), component(), component(), component() + 2.5f)});
        const auto turn = [&] { return static_cast<float>(static_cast<std::int64_t>(r.below(41)) - 20) / 1000.f; };
        const OneRotation now =
            received(OneRotation{unit(base.q.x + turn(), base.q.y + turn(), base.q.z + turn(), base.q.w + turn())});
        const packet p = write_delta_value(now, base);
        // struct 1, rotation 1, then the same-largest bit.
        const bool same = p.bits > 3 && (std::to_integer<unsigned>(p.bytes[0]) >> 2 & 1u) == 1u;
        same_largest += same ? 1 : 0;
        const auto back = read_delta_value<OneRotation>(p.bytes, base);
        REQUIRE_FALSE(back.error);
        CHECK(write_value(back.value).bytes == write_value(now).bytes);
        CHECK(p.bits <= netser::max_delta_bits<OneRotation>());
        for (std::size_t bits = 0; bits < p.bits; ++bits) {
            std::vector<std::byte> cut(p.bytes.begin(), p.bytes.begin() + static_cast<std::ptrdiff_t>((bits + 7) / 8));
            if (bits % 8 != 0) cut.back() &= static_cast<std::byte>((1u << (bits % 8)) - 1);
            INFO("turn " << i << ", cut at bit " << bits << " of " << p.bits);
            check_rotation_read(read_delta_value<OneRotation>(cut, base), cut.size());
        }
        for (std::size_t bit = 0; bit < p.bytes.size() * 8; ++bit) {
            auto flipped = p.bytes;
            flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
            const auto f = read_delta_value<OneRotation>(flipped, base);
            INFO("turn " << i << ", bit " << bit << " of " << p.bits << " flipped");
            check_rotation_read(f, flipped.size());
            if (f.error) CHECK(f.error.bit <= 1);
            ++(f.error ? failed : decoded);
        }
    }
    INFO(same_largest << " of 60 small turns kept the largest component; flips: " << failed << " failed, " << decoded
                      << " decoded");
    CHECK(same_largest >= 50);
    CHECK(failed > 0);
    CHECK(decoded > 0);
}
} // namespace hostile
