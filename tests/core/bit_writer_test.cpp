// bit_writer: the LSB-first wire, every width, every buffer size and alignment, and
// never a byte written outside the buffer. The oracle is reference_writer, a naive
// bit-by-bit model of the wire format (test_util.hpp); the fixed vectors come from
// tools/golden.py and the book.

#include "test_util.hpp"

#include <netser/bit_writer.hpp>

#include <array>
#include <random>

using netser::bit_writer;
using netser_test::hex;
using netser_test::low_mask;
using netser_test::reference_writer;

namespace {

constexpr std::byte guard{0xA5};
constexpr std::size_t guard_size = 16;

// A buffer of `size` bytes at `offset` from a 16-aligned base, with guard bytes on
// both sides, so a write one byte before or after the buffer is seen.
class guarded_buffer {
public:
    guarded_buffer(std::size_t size, std::size_t offset, std::byte fill = std::byte{0x5A})
        : offset_(guard_size + offset), size_(size) {
        REQUIRE(offset_ + size + guard_size <= storage_.size());
        storage_.fill(guard);
        for (std::size_t i = 0; i < size; ++i) storage_[offset_ + i] = fill;
    }
    std::byte* data() noexcept { return storage_.data() + offset_; }
    std::size_t size() const noexcept { return size_; }
    bool guards_intact() const noexcept {
        for (std::size_t i = 0; i < storage_.size(); ++i)
            if ((i < offset_ || i >= offset_ + size_) && storage_[i] != guard) return false;
        return true;
    }

private:
    alignas(16) std::array<std::byte, 128> storage_;
    std::size_t offset_;
    std::size_t size_;
};

std::vector<std::byte> to_vector(std::span<const std::byte> s) { return {s.begin(), s.end()}; }

} // namespace

TEST_CASE("bit_writer writes the book example 13 in 5 bits then 52 in 6 bits as 8D 06", "[bit_writer]") {
    std::array<std::byte, 4> buffer{};
    bit_writer w(buffer);
    REQUIRE(w.write_bits(13, 5));
    REQUIRE(w.write_bits(52, 6));
    CHECK(w.bits_written() == 11);
    CHECK(hex(w.finish()) == "8D 06");
}

TEST_CASE("bit_writer writes the golden vectors of the wire format document", "[bit_writer]") {
    std::array<std::byte, 16> buffer{};
    SECTION("bits_32") {
        bit_writer w(buffer);
        REQUIRE(w.write_bits(0xDEADBEEF, 32));
        CHECK(hex(w.finish()) == "EF BE AD DE");
    }
    SECTION("bits_33: the low 32 bits come first") {
        bit_writer w(buffer);
        REQUIRE(w.write_bits(std::uint64_t{1} << 32, 33));
        CHECK(hex(w.finish()) == "00 00 00 00 01");
    }
    SECTION("bits_64") {
        bit_writer w(buffer);
        REQUIRE(w.write_bits(0x123456789ABCDEF0, 64));
        CHECK(hex(w.finish()) == "F0 DE BC 9A 78 56 34 12");
    }
    SECTION("bits_unaligned_64") {
        bit_writer w(buffer);
        REQUIRE(w.write_bits(1, 3));
        REQUIRE(w.write_bits(0xFEDCBA9876543210, 64));
        CHECK(hex(w.finish()) == "81 90 A1 B2 C3 D4 E5 F6 07");
    }
    SECTION("bits_mixed") {
        bit_writer w(buffer);
        REQUIRE(w.write_bits(5, 3));
        REQUIRE(w.write_bits(0x1FF, 9));
        REQUIRE(w.write_bits(0, 1));
        REQUIRE(w.write_bits(0x3FFFF, 18));
        REQUIRE(w.write_bits(1, 1));
        CHECK(hex(w.finish()) == "FD EF FF FF");
    }
}

TEST_CASE("bit_writer writes every width from 1 to 64 bits least significant bit first at every bit offset",
          "[bit_writer]") {
    std::mt19937_64 rng(1);
    for (int offset = 0; offset < 40; ++offset) {
        for (int n = 1; n <= 64; ++n) {
            const std::uint64_t prefix = rng() & low_mask(offset);
            const std::uint64_t value = rng() & low_mask(n);
            reference_writer ref;
            ref.put(prefix, offset);
            ref.put(value, n);
            std::array<std::byte, 16> buffer{};
            bit_writer w(buffer);
            REQUIRE(w.write_bits(prefix, offset));
            REQUIRE(w.write_bits(value, n));
            INFO("offset " << offset << ", width " << n);
            CHECK(w.bits_written() == static_cast<std::size_t>(offset + n));
            CHECK(to_vector(w.finish()) == ref.bytes());
        }
    }
}

TEST_CASE("bit_writer ignores the bits of a value above its width", "[bit_writer]") {
    std::array<std::byte, 16> buffer{};
    bit_writer w(buffer);
    REQUIRE(w.write_bits(0xFF, 4));
    REQUIRE(w.write_bits(~std::uint64_t{0}, 33));
    REQUIRE(w.write_bits(0, 3));
    // 4 ones, 33 ones, 3 zeros: 37 ones then zeros.
    CHECK(hex(w.finish()) == "FF FF FF FF 1F");
}

TEST_CASE("bit_writer accepts zero-width writes anywhere and rejects widths outside 0..64", "[bit_writer]") {
    std::array<std::byte, 2> buffer{};
    bit_writer w(buffer);
    CHECK(w.write_bits(0xFFFF, 0));
    CHECK(w.bits_written() == 0);
    CHECK(w.write_bits(3, 2));
    CHECK(w.write_bits(1, 0));
    CHECK_FALSE(w.write_bits(0, 65));
    CHECK_FALSE(w.write_bits(0, -1));
    CHECK_FALSE(w.write_bits(0, 1000));
    CHECK(w.bits_written() == 2);
    CHECK(hex(w.finish()) == "03");
    // Filled exactly, a zero-width write still fits.
    CHECK(w.write_bits(0, 14));
    CHECK(w.write_bits(0, 0));
    CHECK(w.bits_available() == 0);
}

TEST_CASE("bit_writer fills buffers of every size from 0 to 17 bytes exactly and never writes past them",
          "[bit_writer]") {
    std::mt19937_64 rng(2);
    for (std::size_t size = 0; size <= 17; ++size) {
        for (int round = 0; round < 200; ++round) {
            guarded_buffer buffer(size, 0);
            bit_writer w(buffer.data(), buffer.size());
            reference_writer ref;
            INFO("size " << size << ", round " << round);
            // Random widths until one does not fit, then widths that do.
            for (;;) {
                const int n = static_cast<int>(rng() % 65);
                const std::uint64_t value = rng() & low_mask(n);
                const std::size_t left = size * 8 - ref.bits();
                if (static_cast<std::size_t>(n) > left) {
                    REQUIRE_FALSE(w.write_bits(value, n));
                    CHECK(w.bits_written() == ref.bits()); // nothing of the failing value
                    CHECK(w.bits_available() == left);
                    if (left == 0) break;
                    continue;
                }
                REQUIRE(w.write_bits(value, n));
                ref.put(value, n);
            }
            CHECK(w.bits_written() == size * 8);
            CHECK(w.bytes_written() == size);
            CHECK(to_vector(w.finish()) == ref.bytes());
            CHECK(buffer.guards_intact());
        }
    }
}

TEST_CASE("bit_writer fails for a value that does not fit and writes nothing of it", "[bit_writer]") {
    for (std::size_t size = 0; size <= 17; ++size) {
        for (int used = 0; used <= 64 && static_cast<std::size_t>(used) <= size * 8; ++used) {
            const int too_many = static_cast<int>(size * 8) - used + 1;
            if (too_many > 64) continue;
            guarded_buffer buffer(size, 0, std::byte{0});
            bit_writer w(buffer.data(), buffer.size());
            reference_writer ref;
            REQUIRE(w.write_bits(0, used));
            ref.put(0, used);
            INFO("size " << size << ", used " << used);
            CHECK_FALSE(w.write_bits(~std::uint64_t{0}, too_many));
            CHECK(w.bits_written() == static_cast<std::size_t>(used));
            // The ones of the failing value are nowhere: every byte of the buffer is still zero.
            w.finish();
            for (std::size_t i = 0; i < size; ++i) CHECK(buffer.data()[i] == std::byte{0});
            CHECK(buffer.guards_intact());
        }
    }
}

TEST_CASE("bit_writer works at odd pointer alignments", "[bit_writer]") {
    std::mt19937_64 rng(3);
    for (const std::size_t offset : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{7}}) {
        for (std::size_t size = 0; size <= 17; ++size) {
            guarded_buffer buffer(size, offset);
            bit_writer w(buffer.data(), buffer.size());
            reference_writer ref;
            INFO("offset " << offset << ", size " << size);
            for (int i = 0; i < 100; ++i) {
                const int n = static_cast<int>(1 + rng() % 64);
                const std::uint64_t value = rng();
                if (w.write_bits(value, n)) ref.put(value, n);
                else CHECK(ref.bits() + static_cast<std::size_t>(n) > size * 8);
            }
            CHECK(to_vector(w.finish()) == ref.bytes());
            CHECK(buffer.guards_intact());
        }
    }
}

TEST_CASE("bit_writer random writes of mixed widths give the bytes of the bit-by-bit reference", "[bit_writer]") {
    std::mt19937_64 rng(4);
    for (int round = 0; round < 2000; ++round) {
        const std::size_t size = static_cast<std::size_t>(rng() % 64);
        guarded_buffer buffer(size, static_cast<std::size_t>(rng() % 8));
        bit_writer w(buffer.data(), buffer.size());
        reference_writer ref;
        const int count = static_cast<int>(rng() % 40);
        for (int i = 0; i < count; ++i) {
            // Mostly small widths, some wide ones, a few aligns and byte blocks.
            const auto kind = rng() % 10;
            if (kind == 0) {
                const bool ok = w.write_align();
                if (ok) ref.align();
                continue;
            }
            if (kind == 1 && w.align_bits() == 0) {
                std::array<std::byte, 9> block{};
                for (auto& b : block) b = static_cast<std::byte>(rng() & 0xFFu);
                const std::size_t n = static_cast<std::size_t>(rng() % block.size());
                if (w.write_bytes(block.data(), n)) ref.put_bytes({block.data(), n});
                continue;
            }
            const int n = kind < 7 ? static_cast<int>(rng() % 13) : static_cast<int>(rng() % 65);
            const std::uint64_t value = rng() & low_mask(n);
            if (w.write_bits(value, n)) ref.put(value, n);
        }
        INFO("round " << round);
        CHECK(w.bits_written() == ref.bits());
        CHECK(to_vector(w.finish()) == ref.bytes());
        CHECK(buffer.guards_intact());
    }
}

TEST_CASE("bit_writer finish leaves the unused high bits of the last byte zero", "[bit_writer]") {
    for (int n = 1; n <= 64; ++n) {
        std::array<std::byte, 9> buffer;
        buffer.fill(std::byte{0xFF});
        bit_writer w(buffer);
        REQUIRE(w.write_bits(~std::uint64_t{0}, n));
        const auto out = w.finish();
        INFO("width " << n);
        REQUIRE(out.size() == static_cast<std::size_t>((n + 7) / 8));
        CHECK(std::to_integer<unsigned>(out.back()) == (n % 8 == 0 ? 0xFFu : (1u << (n % 8)) - 1u));
    }
}

TEST_CASE("bit_writer finish can be called more than once and writing goes on after it", "[bit_writer]") {
    std::array<std::byte, 8> buffer{};
    bit_writer w(buffer);
    REQUIRE(w.write_bits(13, 5));
    CHECK(hex(w.finish()) == "0D");
    REQUIRE(w.write_bits(52, 6));
    CHECK(hex(w.finish()) == "8D 06");
    CHECK(hex(w.finish()) == "8D 06");
    REQUIRE(w.write_bits(0xFFFFFF, 24));
    CHECK(hex(w.finish()) == "8D FE FF FF 07");
}

TEST_CASE("bit_writer align pads with zero bits to the next byte boundary", "[bit_writer]") {
    std::array<std::byte, 4> buffer;
    buffer.fill(std::byte{0xFF});
    bit_writer w(buffer);
    CHECK(w.align_bits() == 0);
    REQUIRE(w.write_align()); // a no-op at a boundary
    CHECK(w.bits_written() == 0);
    REQUIRE(w.write_bits(1, 1));
    CHECK(w.align_bits() == 7);
    REQUIRE(w.write_align());
    CHECK(w.bits_written() == 8);
    REQUIRE(w.write_bits(1, 1));
    CHECK(hex(w.finish()) == "01 01"); // golden align_after_1
}

TEST_CASE("bit_writer copies bytes verbatim when aligned and refuses them unaligned or too long", "[bit_writer]") {
    const std::array<std::byte, 4> payload{std::byte{0xDE}, std::byte{0xAD}, std::byte{0xBE}, std::byte{0xEF}};
    guarded_buffer buffer(5, 3);
    bit_writer w(buffer.data(), buffer.size());
    REQUIRE(w.write_bits(1, 1));
    CHECK_FALSE(w.write_bytes(payload.data(), 2)); // not aligned
    REQUIRE(w.write_align());
    CHECK_FALSE(w.write_bytes(payload.data(), 5)); // 5 bytes do not fit in 4
    CHECK(w.bits_written() == 8);
    REQUIRE(w.write_bytes(payload.data(), 4));
    CHECK(w.write_bytes(payload.data(), 0));
    CHECK(hex(w.finish()) == "01 DE AD BE EF");
    CHECK_FALSE(w.write_bits(0, 1));
    CHECK(buffer.guards_intact());
}

TEST_CASE("bit_writer counts bits written, bytes written and bits still available", "[bit_writer]") {
    std::array<std::byte, 3> buffer{};
    bit_writer w(buffer);
    CHECK(w.capacity_bytes() == 3);
    CHECK(w.bits_available() == 24);
    REQUIRE(w.write_bits(0, 9));
    CHECK(w.bits_written() == 9);
    CHECK(w.bytes_written() == 2);
    CHECK(w.bits_available() == 15);
    REQUIRE(w.write_bits(0, 15));
    CHECK(w.bytes_written() == 3);
    CHECK(w.bits_available() == 0);
}

TEST_CASE("bit_writer poison makes every later write fail", "[bit_writer]") {
    std::array<std::byte, 8> buffer{};
    bit_writer w(buffer);
    REQUIRE(w.write_bits(5, 3));
    w.poison();
    CHECK(w.bits_available() == 0);
    CHECK_FALSE(w.write_bits(1, 1));
    CHECK_FALSE(w.write_bits(0, 0));
    CHECK_FALSE(w.write_align());
    CHECK_FALSE(w.write_bytes(buffer.data(), 0));
    CHECK(w.bits_written() == 3);
    CHECK(hex(w.finish()) == "05");
}
