// bit_reader: reads what the wire format says, from packets in exactly sized heap
// blocks (AddressSanitizer sees any byte read outside them) and at odd pointer
// alignments (UndefinedBehaviorSanitizer sees misaligned loads). The oracle is
// reference_read, a naive bit-by-bit reader (test_util.hpp).

#include "test_util.hpp"

#include <netser/bit_reader.hpp>

#include <array>
#include <random>

using netser::bit_reader;
using netser_test::exact_block;
using netser_test::low_mask;
using netser_test::reference_read;
using netser_test::reference_writer;
using netser_test::unhex;

namespace {

std::vector<std::byte> random_bytes(std::mt19937_64& rng, std::size_t n) {
    std::vector<std::byte> out(n);
    for (auto& b : out) b = static_cast<std::byte>(rng() & 0xFFu);
    return out;
}

// Reads random widths from `r` over `packet` until the packet is used up, checking
// each value against the oracle and each refusal against the bits left.
void read_all_randomly(bit_reader& r, std::span<const std::byte> packet, std::mt19937_64& rng) {
    std::size_t at = 0;
    const std::size_t total = packet.size() * 8;
    while (at < total) {
        const int n = static_cast<int>(rng() % 65);
        std::uint64_t value = 0xDEADDEADDEADDEAD;
        if (static_cast<std::size_t>(n) > total - at) {
            REQUIRE_FALSE(r.read_bits(value, n));
            CHECK(r.bits_read() == at); // nothing consumed
            continue;
        }
        REQUIRE(r.read_bits(value, n));
        CHECK(value == reference_read(packet, at, n));
        at += static_cast<std::size_t>(n);
        CHECK(r.bits_read() == at);
    }
    std::uint64_t value = 0;
    CHECK_FALSE(r.read_bits(value, 1));
    CHECK(r.read_bits(value, 0));
    CHECK(r.bits_remaining() == 0);
}

} // namespace

TEST_CASE("bit_reader reads 8D 06 as 13 in 5 bits then 52 in 6 bits", "[bit_reader]") {
    const exact_block packet(unhex("8D 06"));
    bit_reader r(packet.data(), packet.size());
    std::uint64_t a = 0, b = 0, rest = 99;
    REQUIRE(r.read_bits(a, 5));
    REQUIRE(r.read_bits(b, 6));
    CHECK(a == 13);
    CHECK(b == 52);
    REQUIRE(r.read_bits(rest, 5)); // the unused high bits of the last byte
    CHECK(rest == 0);
    CHECK_FALSE(r.read_bits(rest, 1));
}

TEST_CASE("bit_reader reads the golden vectors of the wire format document", "[bit_reader]") {
    std::uint64_t v = 0, w = 0;
    SECTION("bits_33: the low 32 bits come first") {
        const exact_block packet(unhex("00 00 00 00 01"));
        bit_reader r(packet.span());
        REQUIRE(r.read_bits(v, 33));
        CHECK(v == std::uint64_t{1} << 32);
    }
    SECTION("bits_64") {
        const exact_block packet(unhex("F0 DE BC 9A 78 56 34 12"));
        bit_reader r(packet.span());
        REQUIRE(r.read_bits(v, 64));
        CHECK(v == 0x123456789ABCDEF0);
    }
    SECTION("bits_unaligned_64") {
        const exact_block packet(unhex("81 90 A1 B2 C3 D4 E5 F6 07"));
        bit_reader r(packet.span());
        REQUIRE(r.read_bits(w, 3));
        REQUIRE(r.read_bits(v, 64));
        CHECK(w == 1);
        CHECK(v == 0xFEDCBA9876543210);
    }
}

TEST_CASE("bit_reader reads every width from 1 to 64 bits least significant bit first at every bit offset",
          "[bit_reader]") {
    std::mt19937_64 rng(11);
    for (int offset = 0; offset < 40; ++offset) {
        for (int n = 1; n <= 64; ++n) {
            const std::uint64_t prefix = rng() & low_mask(offset);
            const std::uint64_t value = rng() & low_mask(n);
            reference_writer ref;
            ref.put(prefix, offset);
            ref.put(value, n);
            const exact_block packet(ref.bytes());
            bit_reader r(packet.data(), packet.size());
            std::uint64_t got_prefix = 0, got = 0;
            INFO("offset " << offset << ", width " << n);
            REQUIRE(r.read_bits(got_prefix, offset));
            REQUIRE(r.read_bits(got, n));
            CHECK(got_prefix == prefix);
            CHECK(got == value);
        }
    }
}

TEST_CASE("bit_reader reads packets in exactly sized heap blocks of 0 to 17 bytes and no byte outside them",
          "[bit_reader]") {
    std::mt19937_64 rng(12);
    for (std::size_t size = 0; size <= 17; ++size) {
        INFO("size " << size);
        for (int round = 0; round < 200; ++round) {
            const exact_block packet(random_bytes(rng, size));
            bit_reader r(packet.data(), packet.size());
            CHECK(r.size_bytes() == size);
            CHECK(r.bits_remaining() == size * 8);
            read_all_randomly(r, packet.span(), rng);
        }
        // The widest reads: 64 bits at a time, then what is left.
        const exact_block packet(random_bytes(rng, size));
        bit_reader r(packet.span());
        std::size_t at = 0;
        std::uint64_t v = 0;
        while (size * 8 - at >= 64) {
            REQUIRE(r.read_bits(v, 64));
            CHECK(v == reference_read(packet.span(), at, 64));
            at += 64;
        }
        const int last = static_cast<int>(size * 8 - at);
        CHECK_FALSE(r.read_bits(v, last + 1));
        REQUIRE(r.read_bits(v, last));
        CHECK(v == reference_read(packet.span(), at, last));
    }
}

TEST_CASE("bit_reader reads at odd pointer alignments up to the exact end of the block", "[bit_reader]") {
    std::mt19937_64 rng(13);
    for (const std::size_t offset : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{7}}) {
        for (std::size_t size = 0; size <= 17; ++size) {
            // The packet starts `offset` bytes into a block and ends exactly where it ends.
            const auto bytes = random_bytes(rng, size);
            exact_block block(offset + size);
            for (std::size_t i = 0; i < size; ++i) block.data()[offset + i] = bytes[i];
            bit_reader r(block.data() + offset, size);
            INFO("offset " << offset << ", size " << size);
            read_all_randomly(r, bytes, rng);
        }
    }
}

TEST_CASE("bit_reader fails without consuming anything when fewer bits are left than asked", "[bit_reader]") {
    const exact_block packet(unhex("FF 01"));
    bit_reader r(packet.span());
    std::uint64_t v = 0;
    REQUIRE(r.read_bits(v, 3));
    CHECK_FALSE(r.read_bits(v, 14));
    CHECK(r.bits_read() == 3);
    CHECK(r.bits_remaining() == 13);
    REQUIRE(r.read_bits(v, 13));
    CHECK(v == 0x3F);
}

TEST_CASE("bit_reader rejects widths outside 0..64", "[bit_reader]") {
    const exact_block packet(unhex("FF FF FF FF FF FF FF FF FF FF"));
    bit_reader r(packet.span());
    std::uint64_t v = 7;
    CHECK_FALSE(r.read_bits(v, 65));
    CHECK_FALSE(r.read_bits(v, -1));
    CHECK(r.bits_read() == 0);
    CHECK(r.read_bits(v, 0));
    CHECK(v == 0);
}

TEST_CASE("bit_reader copies bytes verbatim at any aligned position, including bytes already loaded",
          "[bit_reader]") {
    std::mt19937_64 rng(14);
    for (int round = 0; round < 3000; ++round) {
        const std::size_t size = static_cast<std::size_t>(rng() % 24);
        const exact_block packet(random_bytes(rng, size));
        bit_reader r(packet.span());
        std::size_t at = 0;
        INFO("round " << round << ", size " << size);
        for (int step = 0; step < 12; ++step) {
            if (rng() % 2 == 0) {
                const int n = static_cast<int>(rng() % 40);
                std::uint64_t v = 0;
                if (r.read_bits(v, n)) {
                    CHECK(v == reference_read(packet.span(), at, n));
                    at += static_cast<std::size_t>(n);
                }
            } else {
                const std::size_t n = static_cast<std::size_t>(rng() % 9);
                std::array<std::byte, 8> out{};
                const bool aligned = at % 8 == 0;
                CHECK(r.align_bits() == static_cast<int>((8 - at % 8) % 8));
                const bool ok = r.read_bytes(out.data(), n);
                CHECK(ok == (aligned && at + n * 8 <= size * 8));
                if (ok) {
                    for (std::size_t i = 0; i < n; ++i) CHECK(out[i] == packet.data()[at / 8 + i]);
                    at += n * 8;
                }
            }
            CHECK(r.bits_read() == at);
        }
    }
}

TEST_CASE("bit_reader reads back what a random sequence of mixed widths wrote", "[bit_reader]") {
    std::mt19937_64 rng(15);
    for (int round = 0; round < 2000; ++round) {
        reference_writer ref;
        std::vector<std::pair<std::uint64_t, int>> values;
        const int count = static_cast<int>(rng() % 30);
        for (int i = 0; i < count; ++i) {
            const int n = rng() % 3 == 0 ? static_cast<int>(rng() % 65) : static_cast<int>(rng() % 12);
            const std::uint64_t v = rng() & low_mask(n);
            ref.put(v, n);
            values.emplace_back(v, n);
        }
        const exact_block packet(ref.bytes());
        bit_reader r(packet.span());
        for (const auto& [v, n] : values) {
            std::uint64_t got = 0;
            REQUIRE(r.read_bits(got, n));
            CHECK(got == v);
        }
        CHECK(r.bits_read() == ref.bits());
        CHECK(r.bits_remaining() == packet.size() * 8 - ref.bits());
    }
}

TEST_CASE("bit_reader over every truncation of a packet fails exactly at the first value that crosses the end",
          "[bit_reader]") {
    std::mt19937_64 rng(16);
    for (int round = 0; round < 100; ++round) {
        reference_writer ref;
        std::vector<std::pair<std::uint64_t, int>> values;
        for (int i = 0; i < 12; ++i) {
            const int n = static_cast<int>(1 + rng() % 40);
            const std::uint64_t v = rng() & low_mask(n);
            ref.put(v, n);
            values.emplace_back(v, n);
        }
        const auto full = ref.bytes();
        for (std::size_t cut = 0; cut < full.size(); ++cut) {
            const exact_block packet(std::span<const std::byte>(full.data(), cut));
            bit_reader r(packet.span());
            std::size_t at = 0;
            bool failed = false;
            for (const auto& [v, n] : values) {
                std::uint64_t got = 0;
                const bool fits = at + static_cast<std::size_t>(n) <= cut * 8;
                const bool ok = r.read_bits(got, n);
                CHECK(ok == fits);
                if (!ok) {
                    failed = true;
                    CHECK(r.bits_read() == at);
                    break;
                }
                CHECK(got == v);
                at += static_cast<std::size_t>(n);
            }
            CHECK(failed);
        }
    }
}

TEST_CASE("bit_reader counts bits read, bytes read and bits remaining", "[bit_reader]") {
    const exact_block packet(3);
    bit_reader r(packet.span());
    std::uint64_t v = 0;
    CHECK(r.bits_remaining() == 24);
    REQUIRE(r.read_bits(v, 9));
    CHECK(r.bits_read() == 9);
    CHECK(r.bytes_read() == 2);
    CHECK(r.bits_remaining() == 15);
    REQUIRE(r.read_bits(v, 15));
    CHECK(r.bytes_read() == 3);
    CHECK(r.bits_remaining() == 0);
}

TEST_CASE("bit_reader poison makes every later read fail", "[bit_reader]") {
    const exact_block packet(unhex("FF FF"));
    bit_reader r(packet.span());
    std::uint64_t v = 0;
    REQUIRE(r.read_bits(v, 8));
    r.poison();
    CHECK(r.bits_remaining() == 0);
    CHECK_FALSE(r.read_bits(v, 1));
    CHECK_FALSE(r.read_bits(v, 0));
    std::byte out{};
    CHECK_FALSE(r.read_bytes(&out, 0));
    CHECK_FALSE(r.read_bytes(&out, 1));
}

TEST_CASE("bit_reader reads an empty packet from a null pointer", "[bit_reader]") {
    bit_reader r(nullptr, 0);
    std::uint64_t v = 5;
    CHECK(r.read_bits(v, 0));
    CHECK(v == 0);
    CHECK_FALSE(r.read_bits(v, 1));
    CHECK(r.read_bytes(nullptr, 0));
}
