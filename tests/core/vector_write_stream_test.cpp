// vector_write_stream: a std::vector<std::byte> that grows as needed (capacity first,
// then doubling, up to max_bytes), and finish() leaves exactly the bytes written. The
// bytes must be those of the reference writer whatever the growth steps fall on. The
// fixed-buffer write_stream's empty span (every non-empty write fails) is checked too.

#include "core/test_util.hpp"

#include <random>

using netser::errc;
using netser_test::hex;
using netser_test::low_mask;
using netser_test::reference_writer;

namespace {

/// Writes a random sequence of bit fields (1..64 bits) and aligned byte blocks to
/// both a growable stream and the reference writer, and returns the expected bytes.
std::vector<std::byte> write_random(netser::vector_write_stream& w, std::mt19937_64& rng, int values) {
    reference_writer ref;
    for (int i = 0; i < values; ++i) {
        if (rng() % 8 == 0) {
            std::vector<std::byte> block(static_cast<std::size_t>(rng() % 40));
            for (std::byte& b : block) b = static_cast<std::byte>(rng());
            REQUIRE(netser::serialize_bytes(w, std::span<std::byte>(block)));
            ref.align();
            ref.put_bytes(block);
        } else {
            const int n = static_cast<int>(rng() % 64) + 1;
            const std::uint64_t v = rng() & low_mask(n);
            std::uint64_t copy = v;
            REQUIRE(netser::serialize_bits(w, copy, n));
            ref.put(v, n);
        }
    }
    return ref.bytes();
}

} // namespace

TEST_CASE("a vector_write_stream writes the reference bytes whatever it grows through", "[stream][growable]") {
    std::mt19937_64 rng(20240917);
    for (int round = 0; round < 200; ++round) {
        std::vector<std::byte> out; // empty: every size is reached by growing
        netser::vector_write_stream w(out);
        const std::vector<std::byte> expected = write_random(w, rng, round * 3);
        const std::span<const std::byte> bytes = w.finish();
        INFO("round " << round);
        CHECK(bytes.data() == out.data());
        CHECK(bytes.size() == out.size());
        CHECK(out.size() == w.bytes_processed());
        CHECK(hex(out) == hex(expected));
    }
}

TEST_CASE("a vector_write_stream uses the vector's capacity before it allocates", "[stream][growable]") {
    std::vector<std::byte> out;
    out.reserve(100);
    const std::byte* const storage = out.data();
    netser::vector_write_stream w(out);
    CHECK(w.bits_remaining() == netser::vector_write_stream::default_max_bytes * 8);
    for (int i = 0; i < 100; ++i) {
        std::uint32_t v = static_cast<std::uint32_t>(i);
        REQUIRE(netser::serialize_bits(w, v, 8));
    }
    CHECK(w.finish().size() == 100);
    CHECK(out.data() == storage); // no reallocation
    CHECK(out.size() == 100);
    CHECK(std::to_integer<int>(out[99]) == 99);
}

TEST_CASE("a vector_write_stream overwrites what the vector held and finishes at the bytes written",
          "[stream][growable]") {
    std::vector<std::byte> out(3, std::byte{0xFF});
    netser::vector_write_stream w(out);
    std::uint32_t v = 0x5;
    REQUIRE(netser::serialize_bits(w, v, 4));
    CHECK(hex(w.finish()) == "05");
    CHECK(hex(out) == "05");

    // Writing goes on after finish(): the vector grows again from there.
    std::uint64_t big = 0x0123456789ABCDEFull;
    REQUIRE(netser::serialize_bits(w, big, 64));
    REQUIRE(netser::serialize_bits(w, big, 64));
    reference_writer ref;
    ref.put(5, 4);
    ref.put(big, 64);
    ref.put(big, 64);
    CHECK(hex(w.finish()) == hex(ref.bytes()));
    CHECK(hex(out) == hex(ref.bytes()));
}

TEST_CASE("a vector_write_stream stops at max_bytes with overflow at the value's first bit", "[stream][growable]") {
    std::vector<std::byte> out;
    netser::vector_write_stream w(out, 10); // at most 10 bytes
    CHECK(w.bits_remaining() == 80);
    for (int i = 0; i < 10; ++i) {
        std::uint32_t byte = 0xA0u + static_cast<std::uint32_t>(i);
        REQUIRE(netser::serialize_bits(w, byte, 8));
    }
    CHECK(w.bits_remaining() == 0);
    std::uint32_t one = 1;
    CHECK_FALSE(netser::serialize_bits(w, one, 1));
    CHECK(w.error().code == errc::overflow);
    CHECK(w.error().bit == 80);
    CHECK(hex(w.finish()) == "A0 A1 A2 A3 A4 A5 A6 A7 A8 A9");
    CHECK(out.size() == 10);

    // A block of bytes larger than the cap fails the same way, and nothing is written.
    std::vector<std::byte> other;
    netser::vector_write_stream b(other, 16);
    std::vector<std::byte> block(17, std::byte{1});
    CHECK_FALSE(netser::serialize_bytes(b, std::span<std::byte>(block)));
    CHECK(b.error().code == errc::overflow);
    CHECK(b.error().bit == 0);
    CHECK(b.finish().empty());
    CHECK(other.empty());
}

TEST_CASE("a vector_write_stream grows for byte blocks as for bits", "[stream][growable]") {
    std::vector<std::byte> out;
    netser::vector_write_stream w(out);
    std::vector<std::byte> block(1000);
    for (std::size_t i = 0; i < block.size(); ++i) block[i] = static_cast<std::byte>(i * 7);
    std::uint32_t three = 3;
    REQUIRE(netser::serialize_bits(w, three, 2)); // then 6 bits of align
    REQUIRE(netser::serialize_bytes(w, std::span<std::byte>(block)));
    reference_writer ref;
    ref.put(3, 2);
    ref.align();
    ref.put_bytes(block);
    CHECK(hex(w.finish()) == hex(ref.bytes()));
    CHECK(out.size() == 1001);
}

TEST_CASE("a vector_write_stream that failed stays failed and does not grow", "[stream][growable]") {
    std::vector<std::byte> out;
    netser::vector_write_stream w(out);
    int v = 200;
    CHECK_FALSE(netser::serialize_int(w, v, 0, 100)); // out_of_range at bit 0
    std::uint64_t more = 1;
    CHECK_FALSE(netser::serialize_bits(w, more, 64));
    CHECK(w.error().code == errc::out_of_range);
    CHECK(w.error().bit == 0);
    CHECK(w.bits_remaining() == 0);
    CHECK(w.finish().empty());
    CHECK(out.empty());
}

TEST_CASE("a write into an empty span fails with overflow; only 0-bit values fit", "[stream]") {
    netser::write_stream w(std::span<std::byte>{});
    CHECK(w.bits_remaining() == 0);
    std::uint32_t nothing = 0;
    CHECK(netser::serialize_bits(w, nothing, 0)); // 0 bits fit anywhere
    CHECK(netser::serialize_align(w));
    bool flag = true;
    CHECK_FALSE(netser::serialize_bool(w, flag));
    CHECK(w.error().code == errc::overflow);
    CHECK(w.error().bit == 0);
    CHECK(w.finish().empty());

    netser::write_stream null_buffer(nullptr, 0);
    std::string text = "a";
    CHECK_FALSE(netser::serialize_string(null_buffer, text, 4));
    CHECK(null_buffer.error().code == errc::overflow);
    CHECK(null_buffer.error().bit == 0);
}

// A vector_write_stream is a stream of its own: template code takes it, and code that
// takes a write_stream& (which would write without growing) does not.
static_assert(netser::stream<netser::vector_write_stream>);
static_assert(!std::is_convertible_v<netser::vector_write_stream&, netser::write_stream&>);
static_assert(netser::vector_write_stream::is_writing && !netser::vector_write_stream::is_reading);
