// The three streams: sticky errors with the code and bit of the first failure,
// measure_stream counting exactly what write_stream writes, and the counters.

#include "test_util.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <variant>

using netser::errc;
using netser_test::exact_block;
using netser_test::hex;
using netser_test::unhex;

static_assert(netser::stream<netser::write_stream>);
static_assert(netser::stream<netser::read_stream>);
static_assert(netser::stream<netser::measure_stream>);
static_assert(netser::write_stream::is_writing && !netser::write_stream::is_reading);
static_assert(!netser::read_stream::is_writing && netser::read_stream::is_reading);
static_assert(netser::measure_stream::is_writing && !netser::measure_stream::is_reading);
static_assert(!netser::stream<int>);

namespace {

// A user stream (a profiler, say) that wraps a measure_stream and counts calls: the
// concept is all the primitives need.
struct counting_stream {
    static constexpr bool is_writing = true;
    static constexpr bool is_reading = false;
    netser::measure_stream inner;
    int calls = 0;
    bool process_bits(std::uint64_t v, int n) { return ++calls, inner.process_bits(v, n); }
    bool process_bytes(const std::byte* p, std::size_t n) { return ++calls, inner.process_bytes(p, n); }
    bool align() { return ++calls, inner.align(); }
    int align_bits() const { return inner.align_bits(); }
    bool fail(errc code, std::size_t bit) { return inner.fail(code, bit); }
    std::size_t bits_processed() const { return inner.bits_processed(); }
    std::size_t bits_remaining() const { return inner.bits_remaining(); }
    const netser::error& error() const { return inner.error(); }
    netser::error& error() { return inner.error(); }
};
static_assert(netser::stream<counting_stream>);

// One random primitive with its value, for the measure/write/read agreement test.
struct op {
    int kind = 0;
    std::uint64_t bits_value = 0;
    int bits = 0;
    std::int64_t int_value = 0, lo = 0, hi = 0;
    bool flag = false;
    float f = 0.f;
    double d = 0.0;
    std::string text;
    std::size_t max_length = 0;
    std::vector<std::byte> block;
    int previous = -1, current = 0, max = 0;
};

constexpr int op_kinds = 12;

op random_op(std::mt19937_64& rng) {
    op o;
    o.kind = static_cast<int>(rng() % op_kinds);
    o.bits = static_cast<int>(rng() % 65);
    o.bits_value = rng() & netser_test::low_mask(o.bits);
    o.lo = static_cast<std::int64_t>(rng() % 2000) - 1000;
    o.hi = o.lo + static_cast<std::int64_t>(rng() % 100000);
    o.int_value = o.lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(o.hi - o.lo + 1));
    o.flag = rng() % 2 == 0;
    o.f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
    o.d = std::bit_cast<double>(rng());
    o.max_length = static_cast<std::size_t>(rng() % 40);
    o.text.assign(static_cast<std::size_t>(rng() % (o.max_length + 1)), 'x');
    for (auto& c : o.text) c = static_cast<char>('a' + rng() % 26);
    o.block.resize(static_cast<std::size_t>(rng() % 6));
    for (auto& b : o.block) b = static_cast<std::byte>(rng() & 0xFFu);
    o.max = static_cast<int>(1 + rng() % 3000);
    o.previous = static_cast<int>(rng() % static_cast<std::uint64_t>(o.max + 1)) - 1;
    o.current = o.previous + 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(o.max - o.previous));
    if (o.kind == 10) o.f = static_cast<float>(static_cast<double>(rng() % 20001) / 10.0 - 1000.0);
    return o;
}

// Applies one op to any stream; on a read stream `o` receives what was read.
template <class S>
bool apply(S& s, op& o) {
    switch (o.kind) {
    case 0: return netser::serialize_bits(s, o.bits_value, o.bits);
    case 1: return netser::serialize_int(s, o.int_value, o.lo, o.hi);
    case 2: return netser::serialize_bool(s, o.flag);
    case 3: return netser::serialize_float(s, o.f);
    case 4: return netser::serialize_double(s, o.d);
    case 5: return netser::serialize_align(s);
    case 6: return netser::serialize_bytes(s, std::span<std::byte>(o.block));
    case 7: return netser::serialize_string(s, o.text, o.max_length);
    case 8: return netser::serialize_check(s, 0xC0FFEE42u);
    case 9: return netser::serialize_relative_index(s, o.previous, o.current, o.max);
    case 10: return netser::serialize_quantized(s, o.f, -1000.f, 1000.f, 0.01f);
    default: {
        std::uint8_t small = static_cast<std::uint8_t>(o.bits_value & 0x7Fu);
        const bool ok = netser::serialize_int(s, small, 0, 127);
        o.bits_value = small;
        return ok;
    }
    }
}

std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }
std::uint64_t bits_of(double d) { return std::bit_cast<std::uint64_t>(d); }

} // namespace

TEST_CASE("measure_stream counts exactly the bits write_stream writes for random sequences of every primitive",
          "[stream]") {
    std::mt19937_64 rng(21);
    for (int round = 0; round < 1500; ++round) {
        std::vector<op> ops(static_cast<std::size_t>(rng() % 25));
        for (auto& o : ops) o = random_op(rng);
        std::vector<std::byte> buffer(4096);
        netser::write_stream w(buffer.data(), buffer.size());
        netser::measure_stream m;
        INFO("round " << round);
        for (const auto& o : ops) {
            op for_write = o, for_measure = o;
            REQUIRE(apply(w, for_write));
            REQUIRE(apply(m, for_measure));
            REQUIRE(m.bits_processed() == w.bits_processed());
            REQUIRE(m.align_bits() == w.align_bits());
        }
        CHECK(m.bytes_processed() == w.bytes_processed());
        const auto packet = w.finish();
        CHECK(packet.size() == w.bytes_processed());

        // And a read of the packet gives back every value, consuming the same bits.
        const exact_block block(packet);
        netser::read_stream r(block.data(), block.size());
        for (const auto& o : ops) {
            op got = o;
            got.bits_value = 0;
            got.int_value = o.lo;
            got.f = 0.f;
            got.d = 0.0;
            got.text.clear();
            for (auto& b : got.block) b = std::byte{0};
            got.current = -7;
            REQUIRE(apply(r, got));
            switch (o.kind) {
            case 0: CHECK(got.bits_value == o.bits_value); break;
            case 11: CHECK(got.bits_value == (o.bits_value & 0x7Fu)); break;
            case 1: CHECK(got.int_value == o.int_value); break;
            case 2: CHECK(got.flag == o.flag); break;
            case 3: CHECK(bits_of(got.f) == bits_of(o.f)); break;
            case 4: CHECK(bits_of(got.d) == bits_of(o.d)); break;
            case 6: CHECK(got.block == o.block); break;
            case 7: CHECK(got.text == o.text); break;
            case 9: CHECK(got.current == o.current); CHECK(got.previous == o.current); break;
            case 10: CHECK(std::fabs(got.f - o.f) <= 0.0051f); break;
            default: break;
            }
        }
        CHECK(r.bits_processed() == w.bits_processed());
        CHECK_FALSE(r.error());
    }
}

TEST_CASE("measure_stream pads for align as a writer that starts at start_bit would", "[stream]") {
    for (std::size_t start = 0; start < 24; ++start) {
        for (int before = 0; before < 20; ++before) {
            netser::measure_stream m(start);
            std::vector<std::byte> buffer(16);
            netser::write_stream w(buffer.data(), buffer.size());
            REQUIRE(w.process_bits(0, static_cast<int>(start))); // the writer really is at start_bit
            const std::size_t base = w.bits_processed();
            REQUIRE(m.process_bits(0, before));
            REQUIRE(w.process_bits(0, before));
            REQUIRE(m.align());
            REQUIRE(w.align());
            INFO("start " << start << ", before " << before);
            CHECK(m.bits_processed() == w.bits_processed() - base);
            CHECK(m.align_bits() == 0);
        }
    }
    netser::measure_stream at3(3);
    CHECK(at3.align_bits() == 5);
    REQUIRE(netser::serialize_align(at3));
    CHECK(at3.bits_processed() == 5);
    netser::measure_stream at0;
    REQUIRE(netser::serialize_align(at0));
    CHECK(at0.bits_processed() == 0);
}

TEST_CASE("a write that runs out of room fails with overflow at the first bit of the value, keeping earlier bytes",
          "[stream]") {
    std::array<std::byte, 2> buffer{};
    netser::write_stream w(buffer);
    std::uint32_t a = 13, b = 52, c = 0x3F;
    REQUIRE(netser::serialize_bits(w, a, 5));
    REQUIRE(netser::serialize_bits(w, b, 6));
    CHECK_FALSE(netser::serialize_bits(w, c, 6)); // 11 + 6 > 16
    CHECK(w.error().code == errc::overflow);
    CHECK(w.error().bit == 11);
    CHECK(w.bits_processed() == 11);
    CHECK(hex(w.finish()) == "8D 06");
}

TEST_CASE("errors are sticky: after a failure every call fails and the first code and bit are kept", "[stream]") {
    std::array<std::byte, 16> buffer{};
    std::uint32_t small = 3;
    int value = 500;
    bool flag = true;
    float f = 1.f;
    double d = 1.0;
    std::string text = "abc";
    int previous = -1, current = 0;
    std::array<std::byte, 2> block{};
    auto every_call_fails = [&](auto& s) {
        const netser::error before = s.error();
        std::uint64_t raw = 0;
        CHECK_FALSE(s.process_bits(raw, 0));
        CHECK_FALSE(s.align());
        CHECK_FALSE(netser::serialize_bits(s, small, 2));
        CHECK_FALSE(netser::serialize_int(s, value, 0, 1000));
        CHECK_FALSE(netser::serialize_bool(s, flag));
        CHECK_FALSE(netser::serialize_float(s, f));
        CHECK_FALSE(netser::serialize_double(s, d));
        CHECK_FALSE(netser::serialize_quantized(s, f, 0.f, 2.f, 0.5f));
        CHECK_FALSE(netser::serialize_align(s));
        CHECK_FALSE(netser::serialize_bytes(s, std::span<std::byte>(block)));
        CHECK_FALSE(netser::serialize_string(s, text, 10));
        CHECK_FALSE(netser::serialize_check(s, 1u));
        CHECK_FALSE(netser::serialize_relative_index(s, previous, current, 10));
        // A different failure now does not replace the first one.
        CHECK_FALSE(s.fail(errc::bad_crc, 999));
        CHECK(s.error().code == before.code);
        CHECK(s.error().bit == before.bit);
        CHECK(s.bits_processed() == before.bit); // nothing moved since the failure
    };
    SECTION("write_stream after out_of_range") {
        netser::write_stream w(buffer);
        REQUIRE(netser::serialize_bits(w, small, 2));
        int bad = 2000;
        CHECK_FALSE(netser::serialize_int(w, bad, 0, 1000));
        CHECK(w.error().code == errc::out_of_range);
        CHECK(w.error().bit == 2);
        every_call_fails(w);
        CHECK(hex(w.finish()) == "03");
    }
    SECTION("read_stream after overflow") {
        const exact_block packet(unhex("FF"));
        netser::read_stream r(packet.data(), packet.size());
        REQUIRE(netser::serialize_bits(r, small, 2));
        CHECK_FALSE(netser::serialize_int(r, value, 0, 1000)); // 10 bits, 6 left
        CHECK(r.error().code == errc::overflow);
        CHECK(r.error().bit == 2);
        CHECK(r.bits_remaining() == 0);
        every_call_fails(r);
    }
    SECTION("measure_stream after invalid_value") {
        netser::measure_stream m;
        REQUIRE(netser::serialize_bits(m, small, 2));
        float nan = std::numeric_limits<float>::quiet_NaN();
        CHECK_FALSE(netser::serialize_quantized(m, nan, 0.f, 1.f, 0.1f));
        CHECK(m.error().code == errc::invalid_value);
        CHECK(m.error().bit == 2);
        CHECK(m.bits_remaining() == 0);
        every_call_fails(m);
    }
}

TEST_CASE("error bit is the offset of the first bit of the value that failed", "[stream]") {
    SECTION("read overflow in the middle of the packet") {
        std::size_t bits = 0;
        const auto e = netser_test::read_hex("8D 06", [](auto& s) {
            std::uint8_t a = 0, b = 0, c = 0;
            return netser::serialize_bits(s, a, 5) && netser::serialize_bits(s, b, 6) &&
                   netser::serialize_bits(s, c, 6);
        }, &bits);
        CHECK(e.code == errc::overflow);
        CHECK(e.bit == 11);
        CHECK(bits == 11);
    }
    SECTION("read out_of_range after other values") {
        // int 5 in [0,7] (3 bits), then int [0,8] reads code 15: out of range at bit 3.
        const auto e = netser_test::read_hex("7D", [](auto& s) {
            int a = 0, b = 0;
            return netser::serialize_int(s, a, 0, 7) && netser::serialize_int(s, b, 0, 8);
        });
        CHECK(e.code == errc::out_of_range);
        CHECK(e.bit == 3);
    }
    SECTION("non-zero padding fails at the first padding bit") {
        const auto e = netser_test::read_hex("FF", [](auto& s) {
            bool b = false;
            return netser::serialize_bool(s, b) && netser::serialize_align(s);
        });
        CHECK(e.code == errc::invalid_value);
        CHECK(e.bit == 1);
    }
    SECTION("a string whose bytes do not fit in the buffer fails at the string's first bit") {
        std::array<std::byte, 4> buffer{};
        netser::write_stream w(buffer);
        bool b = true;
        std::string text = "hello";
        REQUIRE(netser::serialize_bool(w, b));
        CHECK_FALSE(netser::serialize_string(w, text, 16));
        CHECK(w.error().code == errc::overflow);
        CHECK(w.error().bit == 1);
    }
    SECTION("a check whose magic does not fit fails at the check's first bit") {
        std::array<std::byte, 4> buffer{};
        netser::write_stream w(buffer);
        std::uint8_t x = 5;
        REQUIRE(netser::serialize_bits(w, x, 3));
        CHECK_FALSE(netser::serialize_check(w, 0x12345678u));
        CHECK(w.error().code == errc::overflow);
        CHECK(w.error().bit == 3);
    }
}

TEST_CASE("bits_processed and bytes_processed count the bits actually written and read", "[stream]") {
    std::array<std::byte, 8> buffer{};
    netser::write_stream w(buffer);
    netser::measure_stream m;
    auto write = [](auto& s) {
        std::uint32_t v = 1;
        return netser::serialize_bits(s, v, 9);
    };
    REQUIRE(write(w));
    REQUIRE(write(m));
    CHECK(w.bits_processed() == 9);
    CHECK(w.bytes_processed() == 2);
    CHECK(m.bits_processed() == 9);
    CHECK(m.bytes_processed() == 2);
    CHECK(w.bits_remaining() == 55);
    const auto out = w.finish();
    CHECK(out.size() == 2);
    CHECK(w.bits_processed() == 9); // finish adds no padding to the count
    CHECK(hex(out) == "01 00");

    netser::read_stream r(out);
    std::uint32_t v = 0;
    REQUIRE(netser::serialize_bits(r, v, 9));
    CHECK(v == 1);
    CHECK(r.bits_processed() == 9);
    CHECK(r.bytes_processed() == 2);
    CHECK(r.bits_remaining() == 7);
}

TEST_CASE("finish returns the bytes written with the unused high bits of the last byte zero", "[stream]") {
    std::array<std::byte, 8> buffer;
    buffer.fill(std::byte{0xFF});
    netser::write_stream w(buffer.data(), buffer.size());
    bool t = true, f = false;
    REQUIRE(netser::serialize_bool(w, t));
    REQUIRE(netser::serialize_bool(w, f));
    REQUIRE(netser::serialize_bool(w, t));
    const auto out = w.finish();
    CHECK(out.data() == buffer.data());
    CHECK(hex(out) == "05"); // golden bool_101
}

TEST_CASE("an empty write finishes as an empty packet", "[stream]") {
    netser::write_stream w(nullptr, 0);
    CHECK(w.finish().empty());
    bool b = true;
    CHECK_FALSE(netser::serialize_bool(w, b));
    CHECK(w.error().code == errc::overflow);
    CHECK(w.error().bit == 0);
}

TEST_CASE("read_stream fails with overflow past the end and reports the bits it has left", "[stream]") {
    const exact_block packet(unhex("AB"));
    netser::read_stream r(packet.span());
    CHECK(r.bits_remaining() == 8);
    std::uint16_t v = 0;
    CHECK_FALSE(netser::serialize_bits(r, v, 9));
    CHECK(r.error().code == errc::overflow);
    CHECK(r.error().bit == 0);
    CHECK(r.bits_processed() == 0);
}

TEST_CASE("process_bytes on an unaligned stream fails on every stream", "[stream]") {
    std::array<std::byte, 4> buffer{};
    std::array<std::byte, 1> one{};
    netser::write_stream w(buffer);
    REQUIRE(w.process_bits(1, 1));
    CHECK_FALSE(w.process_bytes(one.data(), 1));
    CHECK(w.error());
    netser::measure_stream m;
    REQUIRE(m.process_bits(1, 1));
    CHECK_FALSE(m.process_bytes(one.data(), 1));
    CHECK(m.error());
    const exact_block packet(unhex("00 00"));
    netser::read_stream r(packet.span());
    std::uint64_t v = 0;
    REQUIRE(r.process_bits(v, 1));
    CHECK_FALSE(r.process_bytes(one.data(), 1));
    CHECK(r.error());
}

TEST_CASE("measure_stream never runs out of room", "[stream]") {
    netser::measure_stream m;
    CHECK(m.bits_remaining() >= std::numeric_limits<std::size_t>::max() / 4);
    std::uint64_t big = ~std::uint64_t{0};
    for (int i = 0; i < 10000; ++i) REQUIRE(netser::serialize_bits(m, big, 64));
    CHECK(m.bits_processed() == 640000);
    CHECK_FALSE(m.process_bits(0, 65));
    CHECK(m.error().code == errc::overflow);
}

TEST_CASE("a user type that models the stream concept drives the primitives", "[stream]") {
    counting_stream s;
    int v = 42;
    std::string text = "hi";
    REQUIRE(netser::serialize_int(s, v, 0, 100));
    REQUIRE(netser::serialize_string(s, text, 16));
    CHECK(s.bits_processed() == 7 + 5 + 4 + 16);
    CHECK(s.calls >= 3);
}

TEST_CASE("streams carry a caller context pointer", "[stream]") {
    int state = 0;
    netser::measure_stream m;
    CHECK(m.context() == nullptr);
    m.set_context(&state);
    CHECK(m.context() == &state);
}
