// netser::check("name"): before its member, align then the 32-bit check_magic(name).
// A reader whose layout has gone out of step with the writer's fails there, with
// check_failed, the check's first bit and the member path. check_disabled_test.cpp
// is the same suite compiled with NETSER_DISABLE_CHECKS.

#include "packet_types.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace check_test {

struct Sectioned {
    std::uint8_t header = 0;
    std::uint16_t body = 0;
    bool operator==(const Sectioned&) const = default;
};
NETSER_STRUCT(Sectioned, (header, netser::range(0, 7)), (body, netser::check("section"), netser::range(0, 1000)))

struct Outer {
    std::uint8_t tag = 0;
    Sectioned inner;
};
NETSER_STRUCT(Outer, tag, inner)

// The same layout with another check name.
namespace other {
struct Sectioned {
    std::uint8_t header = 0;
    std::uint16_t body = 0;
};
NETSER_STRUCT(Sectioned, (header, netser::range(0, 7)), (body, netser::check("other"), netser::range(0, 1000)))

struct Outer {
    std::uint8_t tag = 0;
    Sectioned inner;
};
NETSER_STRUCT(Outer, tag, inner)
} // namespace other

// A check at a byte boundary needs no padding.
struct Aligned {
    std::uint8_t a = 0;
    std::uint8_t b = 0;
};
NETSER_STRUCT(Aligned, a, (b, netser::check("b")))

// The check goes with its member: not sent when only_if leaves the member out.
struct Gated {
    bool has = false;
    std::uint8_t value = 0;
};
NETSER_STRUCT(Gated, has, (value, netser::check("value"), netser::only_if(&Gated::has)))

// A writer and a reader out of step: the writer has one more byte before the check.
namespace writer {
struct Desync {
    std::uint8_t a = 0, extra = 0, b = 0;
};
NETSER_STRUCT(Desync, a, extra, (b, netser::check("s2")))
struct Short {
    std::uint8_t a = 0, extra = 0;
};
NETSER_STRUCT(Short, a, extra)
} // namespace writer
namespace reader {
struct Desync {
    std::uint8_t a = 0, b = 0;
};
NETSER_STRUCT(Desync, a, (b, netser::check("s2")))
struct Short {
    std::uint8_t a = 0;
};
NETSER_STRUCT(Short, a)
} // namespace reader

} // namespace check_test

namespace {

using namespace check_test;
using packet_test::exact_block;
using packet_test::hex;
using packet_test::reference_writer;

template <class T>
std::vector<std::byte> bytes_of(const T& value) {
    std::vector<std::byte> buffer(64);
    netser::write_stream w{std::span<std::byte>(buffer)};
    REQUIRE(netser::serialize(w, value));
    netser::measure_stream m;
    REQUIRE(netser::serialize(m, value));
    CHECK(m.bits_processed() == w.bits_processed());
    const auto bytes = w.finish();
    return {bytes.begin(), bytes.end()};
}

template <class T>
netser::error read_bytes(std::span<const std::byte> bytes, T& value) {
    const exact_block block(bytes);
    netser::read_stream r(block.span());
    const bool ok = netser::serialize(r, value);
    CHECK(ok == !r.error());
    return r.error();
}

} // namespace

TEST_CASE("checks are enabled unless NETSER_DISABLE_CHECKS is defined", "[check]") {
    STATIC_REQUIRE(netser::checks_enabled);
}

TEST_CASE("a check's magic is the FNV-1a hash of its name", "[check][golden]") {
    // Values from an independent Python FNV-1a.
    STATIC_REQUIRE(netser::check_magic("section") == 0xFCDD0CCCu);
    STATIC_REQUIRE(netser::check_magic("other") == 0xC87D8DF5u);
    STATIC_REQUIRE(netser::check_magic("") == 0x811C9DC5u);
    STATIC_REQUIRE(netser::check("section").magic == 0xFCDD0CCCu);
}

TEST_CASE("a check attribute writes align and the magic of its name before its member", "[check][golden]") {
    // header 5 in 3 bits, 5 bits of align, magic 0xFCDD0CCC, body 777 in 10 bits.
    reference_writer ref;
    ref.put(5, 3);
    ref.align();
    ref.put(0xFCDD0CCCu, 32);
    ref.put(777, 10);
    CHECK(hex(ref.bytes()) == "05 CC 0C DD FC 09 03");
    CHECK(hex(bytes_of(Sectioned{5, 777})) == hex(ref.bytes()));

    netser::measure_stream m;
    const Sectioned value{5, 777};
    REQUIRE(netser::serialize(m, value));
    CHECK(m.bits_processed() == 3 + 5 + 32 + 10);
    STATIC_REQUIRE(netser::max_bits<Sectioned>() == 3 + 7 + 32 + 10); // up to 7 bits of align

    Sectioned got;
    REQUIRE_FALSE(read_bytes(ref.bytes(), got));
    CHECK(got == Sectioned{5, 777});
}

TEST_CASE("a check at a byte boundary adds no padding", "[check][golden]") {
    CHECK(hex(bytes_of(Aligned{0xAB, 0xCD})) == "AB E5 2D 0C E7 CD"); // magic of "b" is 0xE70C2DE5
}

TEST_CASE("a reader with another check name fails with check_failed at the check and with the member path",
          "[check]") {
    const std::vector<std::byte> bytes = bytes_of(Sectioned{5, 777});
    other::Sectioned got;
    const netser::error e = read_bytes(bytes, got);
    CHECK(e.code == netser::errc::check_failed);
    CHECK(e.bit == 3); // the check's first bit: its align padding is part of it
    CHECK(e.path() == "Sectioned.body");
    CHECK(got.body == 0); // the member after the check was not read
}

TEST_CASE("a check failure inside a nested struct reports the full member path", "[check]") {
    const std::vector<std::byte> bytes = bytes_of(Outer{9, {5, 777}});
    other::Outer got;
    const netser::error e = read_bytes(bytes, got);
    CHECK(e.code == netser::errc::check_failed);
    CHECK(e.bit == 8 + 3);
    CHECK(e.path() == "Outer.inner.body");
}

TEST_CASE("in a packet the check fails at the same place, after the 32-bit CRC", "[check][packet]") {
    // Only a shared protocol id gets past the CRC: the schema hashes differ.
    const std::vector<std::byte> packet = packet_test::packet_of(Sectioned{5, 777}, {42});
    other::Sectioned got;
    const netser::error e = packet_test::read_exact(packet, got, {42});
    CHECK(e.code == netser::errc::check_failed);
    CHECK(e.bit == 32 + 3);
    CHECK(e.path() == "Sectioned.body");
}

TEST_CASE("the check name is part of the schema hash, so default protocol ids reject first", "[check][packet]") {
    STATIC_REQUIRE(netser::schema_hash<Sectioned>() != netser::schema_hash<other::Sectioned>());
    constexpr std::uint32_t golden = netser::schema_hash<Sectioned>();
    CHECK(golden == 0x38F8A6E2u); // cross-checked like the goldens of schema_hash_test.cpp
    other::Sectioned got{1, 2};
    const netser::error e = packet_test::read_exact(packet_test::packet_of(Sectioned{5, 777}), got);
    CHECK(e.code == netser::errc::bad_crc);
    CHECK(got.header == 1);
    CHECK(got.body == 2);
}

TEST_CASE("a check goes with its member: none is sent when only_if leaves the member out", "[check]") {
    netser::measure_stream off;
    const Gated without{false, 0};
    REQUIRE(netser::serialize(off, without));
    CHECK(off.bits_processed() == 1);
    netser::measure_stream on;
    const Gated with{true, 200};
    REQUIRE(netser::serialize(on, with));
    CHECK(on.bits_processed() == 1 + 7 + 32 + 8);
    CHECK(hex(bytes_of(Gated{true, 200})) == "01 CA D3 5E 42 C8"); // magic of "value" is 0x425ED3CA
}

TEST_CASE("a reader out of step with the writer fails at the next check", "[check]") {
    const std::vector<std::byte> bytes = bytes_of(writer::Desync{1, 2, 3});
    reader::Desync got;
    const netser::error e = read_bytes(bytes, got);
    CHECK(e.code == netser::errc::check_failed);
    CHECK(e.bit == 8);
    CHECK(e.path() == "Desync.b");
}

TEST_CASE("the end-of-packet check catches a reader that expects less than was written", "[check][packet]") {
    const std::vector<std::byte> packet = packet_test::packet_of(writer::Short{1, 2}, {7});
    reader::Short got;
    const netser::error e = packet_test::read_exact(packet, got, {7});
    CHECK(e.code == netser::errc::check_failed);
    CHECK(e.bit == 32 + 8);
    CHECK(e.path().empty()); // the end check belongs to the packet, not to a member
}
