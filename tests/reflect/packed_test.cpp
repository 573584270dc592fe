// Members with fixed-width encodings in a row go through the bit-packer together
// (encodings/struct.hpp, "packed runs"). These tests hold the packed code to what member-by-member
// code gives: the same bits (checked against the core primitives, which have golden
// vectors of their own), and the same errors: the first failing member, at its own
// bit, with its own name, whether it fails for its value or for lack of room.
#include "reflect/test_types.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <random>

namespace packed_test {

using namespace reflect_test;
using netser::errc;

// Widths 3 1 0 15 10 7 | 32 16 | 64 | 1 | 64 | 8: two runs of several members, then
// members alone (a run stops before 56 bits).
struct Dense {
    std::uint8_t a = 0;   // range 0..7: 3 bits
    bool b = false;       // 1
    int c = 5;            // range 5..5: 0 bits
    float d = 0.f;        // quantize -100..100 at 0.01: 20000 steps, 15 bits
    std::uint16_t e = 0;  // bits(10)
    int f = 0;            // range -50..50: 7 bits
    std::uint32_t g = 0;  // 32
    std::int16_t h = 0;   // 16
    double i = 0.0;       // 64
    bool j = false;       // 1
    std::int64_t k = 0;   // full int64 range: 64
    std::uint8_t l = 0;   // range 0..200: 8
};
NETSER_STRUCT(Dense,
    (a, netser::range(0, 7)),
    b,
    (c, netser::range(5, 5)),
    (d, netser::quantize(-100.f, 100.f, 0.01f)),
    (e, netser::bits(10)),
    (f, netser::range(-50, 50)),
    g,
    h,
    i,
    j,
    (k, netser::range(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max())),
    (l, netser::range(0, 200)))

constexpr const char* names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};
constexpr int widths[] = {3, 1, 0, 15, 10, 7, 32, 16, 64, 1, 64, 8};
constexpr netser::quantization dq = netser::quantization::make(-100.f, 100.f, 0.01f);

std::size_t start_of(std::size_t member) {
    std::size_t bit = 0;
    for (std::size_t m = 0; m < member; ++m) bit += static_cast<std::size_t>(widths[m]);
    return bit;
}

// A member without attributes: its two's complement bits.
template <netser::stream S>
bool serialize_twos_complement(S& s, std::int16_t& v) {
    auto u = static_cast<std::uint16_t>(v);
    if (!netser::serialize_bits(s, u, 16)) return false;
    v = static_cast<std::int16_t>(u);
    return true;
}

// The same members, one primitive at a time.
template <netser::stream S>
bool serialize_by_hand(S& s, Dense& v) {
    return netser::serialize_int(s, v.a, 0, 7) && netser::serialize_bool(s, v.b) && netser::serialize_int(s, v.c, 5, 5) &&
           netser::serialize_quantized(s, v.d, dq) && netser::serialize_bits(s, v.e, 10) &&
           netser::serialize_int(s, v.f, -50, 50) && netser::serialize_bits(s, v.g, 32) &&
           serialize_twos_complement(s, v.h) &&
           netser::serialize_double(s, v.i) && netser::serialize_bool(s, v.j) &&
           netser::serialize_int(s, v.k, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()) &&
           netser::serialize_int(s, v.l, 0, 200);
}

Dense random_dense(std::mt19937_64& rng) {
    Dense v;
    v.a = static_cast<std::uint8_t>(rng() % 8);
    v.b = rng() % 2 != 0;
    v.d = std::uniform_real_distribution<float>(-100.f, 100.f)(rng);
    v.e = static_cast<std::uint16_t>(rng() % 1024);
    v.f = static_cast<int>(rng() % 101) - 50;
    v.g = static_cast<std::uint32_t>(rng());
    v.h = static_cast<std::int16_t>(rng());
    v.i = std::bit_cast<double>(rng());
    v.j = rng() % 2 != 0;
    v.k = static_cast<std::int64_t>(rng());
    v.l = static_cast<std::uint8_t>(rng() % 201);
    return v;
}

bool same_bits(const Dense& x, const Dense& y) {
    return x.a == y.a && x.b == y.b && x.c == y.c && std::bit_cast<std::uint32_t>(x.d) == std::bit_cast<std::uint32_t>(y.d) &&
           x.e == y.e && x.f == y.f && x.g == y.g && x.h == y.h &&
           std::bit_cast<std::uint64_t>(x.i) == std::bit_cast<std::uint64_t>(y.i) && x.j == y.j && x.k == y.k && x.l == y.l;
}

TEST_CASE("packed members write and read what the primitives one at a time do", "[packed]") {
    static_assert(netser::max_bits<Dense>() == 221);
    std::mt19937_64 rng(20261121);
    for (int n = 0; n < 3000; ++n) {
        Dense v = random_dense(rng);
        std::vector<std::byte> packed(64), by_hand(64);
        netser::write_stream w1(packed.data(), packed.size()), w2(by_hand.data(), by_hand.size());
        REQUIRE(netser::serialize(w1, v));
        REQUIRE(serialize_by_hand(w2, v));
        REQUIRE(w1.bits_processed() == 221);
        REQUIRE(w2.bits_processed() == 221);
        w1.finish();
        w2.finish();
        REQUIRE(hex(packed) == hex(by_hand));

        Dense reflected{}, primitive{};
        netser::read_stream r1(packed.data(), 28), r2(packed.data(), 28);
        REQUIRE(netser::serialize(r1, reflected));
        REQUIRE(serialize_by_hand(r2, primitive));
        CHECK(r1.bits_processed() == 221);
        CHECK(same_bits(reflected, primitive));
    }
}

TEST_CASE("a packet cut at every byte fails at the first member that does not fit", "[packed][hostile]") {
    std::mt19937_64 rng(7);
    Dense v = random_dense(rng);
    const auto bytes = netser_test::unhex(write(v).hex);
    REQUIRE(bytes.size() == 28);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        std::size_t member = 0;
        while (start_of(member) + static_cast<std::size_t>(widths[member]) <= n * 8) ++member;
        INFO("cut to " << n << " bytes");
        Dense out;
        CHECK(failure_of(read_bytes(std::span(bytes).first(n), out)) ==
              fail(errc::overflow, start_of(member), std::string("Dense.") + names[member]));
    }
}

TEST_CASE("an out-of-range code before the cut is reported, not the cut", "[packed][hostile]") {
    SECTION("a quantized code above max_int") {
        reference_writer w;
        w.put(0, 3);
        w.put(1, 1);
        w.put(dq.max_int + 1, 15); // d
        w.put(0, 5);               // part of e: the packet ends inside e
        Dense out;
        CHECK(failure_of(read_forged(w, out)) == fail(errc::out_of_range, 4, "Dense.d"));
        CHECK(out.a == 0);
        CHECK(out.b); // the members before the failure were read
    }
    SECTION("a range code above max - min, in a whole run") {
        reference_writer w;
        w.put(0, 3 + 1 + 15 + 10);
        w.put(101, 7); // f: codes 101..127 are outside -50..50
        put_zeros(w, 221 - 36);
        Dense out;
        CHECK(failure_of(read_forged(w, out)) == fail(errc::out_of_range, 29, "Dense.f"));
    }
    SECTION("the last member of the struct, alone") {
        reference_writer w;
        put_zeros(w, 213);
        w.put(201, 8);
        Dense out;
        CHECK(failure_of(read_forged(w, out)) == fail(errc::out_of_range, 213, "Dense.l"));
    }
}

netser::error write_into(const Dense& v, std::size_t capacity) {
    std::vector<std::byte> buffer(capacity);
    netser::write_stream w(buffer.data(), buffer.size());
    CHECK_FALSE(netser::serialize(w, v));
    return w.error();
}

TEST_CASE("a packed write fails at the first member that is bad or does not fit", "[packed][hostile]") {
    Dense v;
    SECTION("out of room before a bad value: overflow at the member that does not fit") {
        v.f = 51; // bad, but e (bits 19..28) does not fit 3 bytes first
        CHECK(failure_of(write_into(v, 3)) == fail(errc::overflow, 19, "Dense.e"));
    }
    SECTION("a bad value that would not fit either: its own error") {
        v.d = std::numeric_limits<float>::quiet_NaN(); // bits 4..18, 2 bytes hold 16 bits
        CHECK(failure_of(write_into(v, 2)) == fail(errc::invalid_value, 4, "Dense.d"));
    }
    SECTION("bad values anywhere in a run, with room to spare") {
        for (std::size_t member : {0u, 4u, 5u}) {
            Dense bad;
            if (member == 0) bad.a = 8;
            if (member == 4) bad.e = 1024;
            if (member == 5) bad.f = -51;
            INFO("member " << names[member]);
            CHECK(failure_of(write_error(bad)) == fail(errc::out_of_range, start_of(member), std::string("Dense.") + names[member]));
        }
        Dense constant;
        constant.c = 4;
        CHECK(failure_of(write_error(constant)) == fail(errc::out_of_range, 4, "Dense.c"));
    }
    SECTION("every buffer size: overflow at the first member that does not fit") {
        for (std::size_t n = 0; n < 28; ++n) {
            std::size_t member = 0;
            while (start_of(member) + static_cast<std::size_t>(widths[member]) <= n * 8) ++member;
            INFO(n << " bytes");
            CHECK(failure_of(write_into(v, n)) == fail(errc::overflow, start_of(member), std::string("Dense.") + names[member]));
        }
    }
}

} // namespace packed_test
