// serialize_delta on every shape a game protocol has (the fuzz targets' packet types:
// every attribute, every container, rotations, recursion, message unions, extremes):
// random baselines and random changes of every size round trip, a reader ends with
// what a plain read of the value gives, measuring counts what writing writes, and the
// bits stay within max_delta_bits.

#include "delta/delta_types.hpp"
#include "delta/blend.hpp"
#include "fuzz/fuzz_types.hpp"

#include <boost/pfr/core.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

using namespace delta_test;
using namespace netser_fuzz;

namespace {

template <class T>
void check_round_trip(const T& obj, const T& base) {
    std::size_t capacity = write_capacity<T>() * 2;
    if constexpr (statically_bounded<T>) capacity = netser::max_delta_bytes<T>();
    std::vector<std::byte> buffer(capacity);
    netser::write_stream w(buffer.data(), buffer.size());
    const bool ok = netser::serialize_delta(w, obj, base);
    INFO("write error " << netser::to_string(w.error().code) << " at " << w.error().path());
    REQUIRE(ok);
    netser::measure_stream m;
    REQUIRE(netser::serialize_delta(m, obj, base));
    CHECK(m.bits_processed() == w.bits_processed());
    if constexpr (statically_bounded<T>) CHECK(w.bits_processed() <= netser::max_delta_bits<T>());
    const auto bytes = w.finish();
    const netser_test::exact_block block(bytes);
    netser::read_stream r(block.span());
    T out{};
    const bool read_ok = netser::serialize_delta(r, out, base);
    INFO("read error " << netser::to_string(r.error().code) << " at " << r.error().bit << " " << r.error().path());
    REQUIRE(read_ok);
    CHECK(r.bits_processed() == w.bits_processed());
    CHECK(plain_hex(out) == plain_hex(received(obj)));
}

template <class T>
void round_trips(std::uint64_t seed) {
    for (std::uint64_t i = 0; i < 40; ++i) {
        const T base = received(make_value<T>(seed + 2 * i, i % 2 == 0 ? size_mode::small : size_mode::full));
        const T other = make_value<T>(seed + 2 * i + 1, i % 3 == 0 ? size_mode::small : size_mode::full);
        rng r{seed ^ (i * 7919)};
        for (std::uint64_t odds : {1u, 2u, 5u, 50u}) {
            T obj{};
            netser::detail::copy_value(obj, base); // deep: Chain holds std::unique_ptr
            blend(obj, other, r, odds);
            INFO("seed " << seed << " value " << i << " odds 1/" << odds);
            check_round_trip(obj, base);
        }
        INFO("seed " << seed << " value " << i << " unchanged");
        check_round_trip(base, base);
    }
}

} // namespace

namespace delta_float_bits {

struct OneFloat {
    float f = 0;
};
NETSER_STRUCT(OneFloat, f)

struct OneDouble {
    double d = 0;
};
NETSER_STRUCT(OneDouble, d)

/// Raw floats inside the containers a delta walks element by element.
struct FloatSlots {
    std::array<float, 2> a{};
    std::vector<double> v;
    std::optional<float> o;
};
NETSER_STRUCT(FloatSlots, a, (v, netser::max_size(4)), o)

} // namespace delta_float_bits

TEST_CASE("a delta compares raw floats by their bits: -0 against +0 is a change, a NaN against itself is not",
          "[delta][floats]") {
    using namespace delta_float_bits;
    struct pair {
        const char* what;
        std::uint32_t f, base_f;
        std::uint64_t d, base_d;
    };
    const pair pairs[] = {
        {"-0 against +0", 0x80000000u, 0x00000000u, 0x8000000000000000u, 0x0000000000000000u},
        {"+0 against -0", 0x00000000u, 0x80000000u, 0x0000000000000000u, 0x8000000000000000u},
        {"-0 against -0", 0x80000000u, 0x80000000u, 0x8000000000000000u, 0x8000000000000000u},
        {"a NaN against the same NaN", 0x7FC00001u, 0x7FC00001u, 0x7FF8000000000001u, 0x7FF8000000000001u},
        {"a NaN against a NaN of another payload", 0x7FC00001u, 0x7FC00002u, 0x7FF8000000000001u, 0x7FF8000000000002u},
        {"a negative NaN against the positive one", 0xFFC00001u, 0x7FC00001u, 0xFFF8000000000001u, 0x7FF8000000000001u},
        {"a signalling NaN against the same", 0x7F800001u, 0x7F800001u, 0x7FF0000000000001u, 0x7FF0000000000001u},
        {"a signalling NaN against its quiet NaN", 0x7F800001u, 0x7FC00001u, 0x7FF0000000000001u, 0x7FF8000000000001u},
    };
    // obj against base: 1 bit when the bits are the same, else the changed bits and the
    // value whole (raw floats send no difference); a reader, fresh or holding the
    // baseline's value or obj's own, ends with obj's bits.
    const auto check = [](const auto& obj, const auto& base, bool same_bits, std::size_t changed_bits) {
        std::size_t bits = 0;
        const std::string packet = delta_hex(obj, base, &bits);
        CHECK(bits == (same_bits ? 1 : changed_bits));
        using T = std::remove_cvref_t<decltype(obj)>;
        for (const T& held : {T{}, base, obj}) {
            T out = held;
            REQUIRE_FALSE(read_delta(packet, out, base));
            CHECK(plain_hex(out) == plain_hex(obj));
        }
    };
    for (const pair& p : pairs) {
        INFO(p.what);
        const float f = std::bit_cast<float>(p.f), base_f = std::bit_cast<float>(p.base_f);
        const double d = std::bit_cast<double>(p.d), base_d = std::bit_cast<double>(p.base_d);
        check(OneFloat{f}, OneFloat{base_f}, p.f == p.base_f, 1 + 1 + 32);
        check(OneDouble{d}, OneDouble{base_d}, p.d == p.base_d, 1 + 1 + 64);
        // The struct's and a's changed bits, a's list as changed bits (2 are fewer than 3
        // relative indices) and both elements; v: its changed bit, count kept, both
        // elements; o: its changed bit, present, the value.
        const std::size_t slots_changed = 1 + (1 + 1 + 2 * (1 + 32)) + (1 + 1 + 1 + 2 * (1 + 64)) + (1 + 1 + 32);
        check(FloatSlots{{f, f}, {d, d}, f}, FloatSlots{{base_f, base_f}, {base_d, base_d}, base_f},
              p.f == p.base_f && p.d == p.base_d, slots_changed);
    }
}

TEST_CASE("delta round trips of every packet type of the fuzz targets", "[delta]") {
    round_trips<Player>(100);
    round_trips<Inventory>(200);
    round_trips<Entities>(300);
    round_trips<Body>(400);
    round_trips<Envelope>(600);
    round_trips<Extremes>(700);
}

TEST_CASE("delta round trips of recursive types (trees, chains of unique_ptr)", "[delta]") {
    round_trips<Node>(500);
    round_trips<Chain>(800);
}

TEST_CASE("an unchanged value of any type is one bit", "[delta]") {
    for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        const T v = received(make_value<T>(index + 1000));
        std::size_t bits = 0;
        delta_hex(v, v, &bits);
        CHECK(bits == 1);
    });
}

TEST_CASE("as_received gives what a reader holds: quantized values decoded, only_if members reset", "[delta]") {
    const Mover m = received(Mover{false, 3.3f});
    CHECK_FALSE(m.moving);
    CHECK(m.velocity == 0.f);
    const Mover moving = received(Mover{true, 3.333f});
    CHECK(moving.velocity == netser::quantization::make(-10.f, 10.f, 0.01f).decode(1333));
}

TEST_CASE("a writer whose baseline is not what the reader holds desynchronises the reader", "[delta]") {
    // The writer keeps its raw state (velocity 5 while not moving) as the baseline; the
    // reader holds what it received (velocity reset to 0). When the cube moves again at
    // 5.1, the writer sends a difference of 10 codes from 5, and the reader adds them to 0.
    const Mover raw_base{false, 5.f};
    const Mover reader_base = received(raw_base);
    const Mover obj{true, 5.1f};
    const std::string packet = delta_hex(obj, raw_base);
    Mover wrong{};
    REQUIRE_FALSE(read_delta(packet, wrong, reader_base));
    CHECK(wrong.moving);
    CHECK(plain_hex(wrong) != plain_hex(received(obj)));
    CHECK(wrong.velocity < 1.f); // 0.1, not 5.1
    // With the received value as the baseline, the reader ends where a plain read would.
    const std::string right_packet = delta_hex(obj, reader_base);
    Mover right{};
    REQUIRE_FALSE(read_delta(right_packet, right, reader_base));
    CHECK(plain_hex(right) == plain_hex(received(obj)));
}

TEST_CASE("a value that cannot be written fails the delta write with its error and member path", "[delta]") {
    Small base{};
    Small obj{};
    obj.level = 16; // above range(0, 15)
    std::vector<std::byte> buffer(64);
    netser::write_stream w(buffer.data(), buffer.size());
    CHECK_FALSE(netser::serialize_delta(w, obj, base));
    CHECK(w.error().code == netser::errc::out_of_range);
    CHECK(w.error().path() == "Small.level");
    CHECK(w.error().bit == 3); // after the struct's, flag's and level's changed bits
    // A baseline that cannot be written fails too, at the member, whatever the value.
    Small bad_base{};
    bad_base.level = 40;
    obj.level = 3;
    netser::write_stream w2(buffer.data(), buffer.size());
    CHECK_FALSE(netser::serialize_delta(w2, obj, bad_base));
    CHECK(w2.error().code == netser::errc::out_of_range);
    CHECK(w2.error().path() == "Small.level");
}

namespace {
struct QuantizedList {
    std::vector<float> v;
};
NETSER_STRUCT(QuantizedList, (v, netser::max_size(8), netser::quantize(-1.f, 1.f, 0.01f)))
} // namespace

// A vector of quantized floats (a sequence of fixed-width codes) has a delta: it did not
// compile (its elements' same_encoded was declared after the vector's).
TEST_CASE("a vector of quantized floats is sent as a delta", "[delta]") {
    QuantizedList base, value;
    REQUIRE_FALSE(netser::as_received(QuantizedList{{0.5f, 0.25f, -1.f}}, base));
    REQUIRE_FALSE(netser::as_received(QuantizedList{{0.5f, 0.26f, -1.f, 1.f}}, value));
    std::array<std::byte, 64> buffer{};
    netser::write_stream w(buffer);
    REQUIRE(netser::serialize_delta(w, value, base));
    const auto bytes = w.finish();
    netser::read_stream r(bytes);
    QuantizedList out;
    REQUIRE(netser::serialize_delta(r, out, base));
    CHECK(out.v == value.v);
    netser::measure_stream m;
    REQUIRE(netser::serialize_delta(m, base, base));
    CHECK(m.bits_processed() == 1);
}
