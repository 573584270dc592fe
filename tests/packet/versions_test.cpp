// Two versions of a message under one protocol id: the CRC matches, so only the decoder
// can tell them apart. The end check (end_of_packet_magic ^ the payload's bit count)
// makes a reader fail unless it consumed exactly the bits the writer wrote; before it,
// a reader that read a bit more or less than was written could succeed on the padding.
//
// Version 1:  Msg { seq: range(0, 1000), 10 bits; inner: Inner { hp: range(0, 100),
// 7 bits; alive: bool }; flag: bool; tail: range(0, 7), 3 bits }, 22 payload bits.
// Each other version adds a bool, removes a member or widens a range by one bit, at the
// end, in the middle or inside the nested struct. Every expected error below is derived
// by hand from the bits (payload bit i is packet bit 32 + i), not taken from netser.

#include "packet_types.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace packet_test;
using netser::errc;

constexpr std::uint32_t shared_id = 0x600DF00Du;

namespace v1 {
struct Inner {
    std::uint8_t hp = 0;
    bool alive = false;
};
NETSER_STRUCT(Inner, (hp, netser::range(0, 100)), alive)
struct Msg {
    std::uint16_t seq = 0;
    Inner inner;
    bool flag = false;
    std::uint8_t tail = 0;
};
NETSER_STRUCT(Msg, (seq, netser::range(0, 1000)), inner, flag, (tail, netser::range(0, 7)))
/// Every member at its largest value: seq 1000, hp 100, alive, flag, tail 7.
Msg largest() { return {1000, {100, true}, true, 7}; }
} // namespace v1

namespace added_end {
using v1::Inner; // unchanged
struct Msg {
    std::uint16_t seq = 0;
    Inner inner;
    bool flag = false;
    std::uint8_t tail = 0;
    bool extra = false;
};
NETSER_STRUCT(Msg, (seq, netser::range(0, 1000)), inner, flag, (tail, netser::range(0, 7)), extra)
Msg largest() { return {1000, {100, true}, true, 7, true}; }
} // namespace added_end

namespace added_middle {
using v1::Inner; // unchanged
struct Msg {
    std::uint16_t seq = 0;
    bool extra = false;
    Inner inner;
    bool flag = false;
    std::uint8_t tail = 0;
};
NETSER_STRUCT(Msg, (seq, netser::range(0, 1000)), extra, inner, flag, (tail, netser::range(0, 7)))
Msg largest() { return {1000, true, {100, true}, true, 7}; }
} // namespace added_middle

namespace added_nested {
struct Inner {
    std::uint8_t hp = 0;
    bool alive = false;
    bool extra = false;
};
NETSER_STRUCT(Inner, (hp, netser::range(0, 100)), alive, extra)
struct Msg {
    std::uint16_t seq = 0;
    Inner inner;
    bool flag = false;
    std::uint8_t tail = 0;
};
NETSER_STRUCT(Msg, (seq, netser::range(0, 1000)), inner, flag, (tail, netser::range(0, 7)))
Msg largest() { return {1000, {100, true, true}, true, 7}; }
} // namespace added_nested

namespace removed_end {
using v1::Inner; // unchanged
struct Msg {
    std::uint16_t seq = 0;
    Inner inner;
    bool flag = false;
};
NETSER_STRUCT(Msg, (seq, netser::range(0, 1000)), inner, flag)
Msg largest() { return {1000, {100, true}, true}; }
} // namespace removed_end

namespace removed_middle {
using v1::Inner; // unchanged
struct Msg {
    std::uint16_t seq = 0;
    Inner inner;
    std::uint8_t tail = 0;
};
NETSER_STRUCT(Msg, (seq, netser::range(0, 1000)), inner, (tail, netser::range(0, 7)))
Msg largest() { return {1000, {100, true}, 7}; }
} // namespace removed_middle

namespace removed_nested {
struct Inner {
    std::uint8_t hp = 0;
};
NETSER_STRUCT(Inner, (hp, netser::range(0, 100)))
struct Msg {
    std::uint16_t seq = 0;
    Inner inner;
    bool flag = false;
    std::uint8_t tail = 0;
};
NETSER_STRUCT(Msg, (seq, netser::range(0, 1000)), inner, flag, (tail, netser::range(0, 7)))
Msg largest() { return {1000, {100}, true, 7}; }
} // namespace removed_nested

namespace widened_end {
using v1::Inner; // unchanged
struct Msg {
    std::uint16_t seq = 0;
    Inner inner;
    bool flag = false;
    std::uint8_t tail = 0;
};
NETSER_STRUCT(Msg, (seq, netser::range(0, 1000)), inner, flag, (tail, netser::range(0, 15)))
Msg largest() { return {1000, {100, true}, true, 15}; }
} // namespace widened_end

namespace widened_middle {
using v1::Inner; // unchanged
struct Msg {
    std::uint16_t seq = 0;
    Inner inner;
    bool flag = false;
    std::uint8_t tail = 0;
};
NETSER_STRUCT(Msg, (seq, netser::range(0, 2000)), inner, flag, (tail, netser::range(0, 7)))
Msg largest() { return {2000, {100, true}, true, 7}; }
} // namespace widened_middle

namespace widened_nested {
struct Inner {
    std::uint8_t hp = 0;
    bool alive = false;
};
NETSER_STRUCT(Inner, (hp, netser::range(0, 200)), alive)
struct Msg {
    std::uint16_t seq = 0;
    Inner inner;
    bool flag = false;
    std::uint8_t tail = 0;
};
NETSER_STRUCT(Msg, (seq, netser::range(0, 1000)), inner, flag, (tail, netser::range(0, 7)))
Msg largest() { return {1000, {200, true}, true, 7}; }
} // namespace widened_nested

struct expected {
    errc code;
    std::size_t bit;
    std::string path;
};

/// Writes `sent` as a packet under the shared id and reads it as a Reader: the read
/// must fail with exactly `want`. With `payload_decodes`, the payload alone (bytes 4 ..
/// n - 5, on a bare stream) must decode as a Reader: only the end check can catch it.
template <class Reader, class Writer>
void check_read_fails(const Writer& sent, const expected& want, bool payload_decodes) {
    const std::vector<std::byte> packet = packet_of(sent, {shared_id});
    Reader got{};
    const netser::error e = read_exact(packet, got, {shared_id});
    INFO("packet " << hex(packet));
    CHECK(e.code == want.code);
    CHECK(e.bit == want.bit);
    CHECK(e.path() == want.path);
    if (payload_decodes) {
        const std::span<const std::byte> payload = std::span<const std::byte>(packet).subspan(4, packet.size() - 8);
        netser::read_stream bare(payload);
        Reader again{};
        CHECK(netser::serialize(bare, again));
    }
}

/// Both directions between version 1 and version V, with all-zero messages (payloads
/// that decode either way: only the end check catches them) and with the largest
/// values. pv is version V's payload in bits (version 1's is 22).
template <class V>
void check_versions(const V& v_largest, std::size_t pv, const expected& v1_read_as_v,
                    const expected& v_read_as_v1) {
    {
        INFO("version 1, all zero, read as version V");
        check_read_fails<V>(v1::Msg{}, {errc::check_failed, 32 + pv, ""}, true);
    }
    {
        INFO("version V, all zero, read as version 1");
        check_read_fails<v1::Msg>(V{}, {errc::check_failed, 32 + 22, ""}, true);
    }
    {
        INFO("version 1, largest values, read as version V");
        check_read_fails<V>(v1::largest(), v1_read_as_v, false);
    }
    {
        INFO("version V, largest values, read as version 1");
        check_read_fails<v1::Msg>(v_largest, v_read_as_v1, false);
    }
}

// Version 1's largest payload, bit by bit (LSB first): seq 1000 in bits 0..9 =
// 0 0 0 1 0 1 1 1 1 1; hp 100 in bits 10..16 = 0 0 1 0 0 1 1; alive bit 17 = 1;
// flag bit 18 = 1; tail 7 in bits 19..21 = 1 1 1; padding bits 22, 23 = 0 0.

} // namespace

TEST_CASE("the end check catches a reader that reads more or fewer bits than were written",
          "[packet][hostile][versions]") {
    // Version 1 itself reads its own packets.
    v1::Msg got;
    REQUIRE_FALSE(read_exact(packet_of(v1::largest(), {shared_id}), got, {shared_id}));

    SECTION("a bool added at the end") {
        // v1 read as V: extra is padding bit 22 (0), then bit 23 is padding again, and
        // the end value is magic ^ 22 where V expects magic ^ 23.
        // V read as v1: v1 stops at bit 22, where V wrote extra = 1: non-zero padding.
        check_versions(added_end::largest(), 23, {errc::check_failed, 55, ""},
                       {errc::invalid_value, 54, ""});
    }
    SECTION("a bool added in the middle") {
        // v1 read as V: extra = bit 10 (0); hp = bits 11..17 = 0 1 0 0 1 1 1 = 114 > 100.
        // V read as v1 (V: seq 0..9, extra 10 = 1, hp 11..17, alive 18, flag 19, tail
        // 20..22): hp = bits 10..16 = 1 0 0 1 0 0 1 = 73, alive 1, flag 1, tail 1 1 1,
        // padding bit 22 = 1.
        check_versions(added_middle::largest(), 23, {errc::out_of_range, 43, "Msg.inner.hp"},
                       {errc::invalid_value, 54, ""});
    }
    SECTION("a bool added inside the nested struct") {
        // v1 read as V: extra = bit 18 (1), flag = bit 19 (1), tail = bits 20..22 = 1 1 0
        // = 3; padding bit 23 = 0; magic ^ 22 where V expects magic ^ 23.
        // V read as v1 (V: alive 17, extra 18, flag 19, tail 20..22 = 1 1 1): tail = bits
        // 19..21 = 7, padding bit 22 = 1.
        check_versions(added_nested::largest(), 23, {errc::check_failed, 55, ""},
                       {errc::invalid_value, 54, ""});
    }
    SECTION("the last member removed") {
        // v1 read as V: V stops at bit 19; padding bits 19..23 = 1 1 1 0 0.
        // V read as v1 (V: 19 bits, padding 19..23 zero, end value at byte 3 as v1
        // expects): tail = bits 19..21 = 0; magic ^ 19 where v1 expects magic ^ 22.
        check_versions(removed_end::largest(), 19, {errc::invalid_value, 51, ""},
                       {errc::check_failed, 54, ""});
    }
    SECTION("a member removed in the middle") {
        // v1 read as V (no flag): tail = bits 18..20 = 1 1 1; padding bits 21..23 = 1 0 0.
        // V read as v1 (V: tail 18..20, 21 bits): flag = bit 18 = 1, tail = bits 19..21 =
        // 1 1 0 = 3; padding 22, 23 zero; magic ^ 21 where v1 expects magic ^ 22.
        check_versions(removed_middle::largest(), 21, {errc::invalid_value, 53, ""},
                       {errc::check_failed, 54, ""});
    }
    SECTION("a member removed inside the nested struct") {
        // v1 read as V (no alive): flag = bit 17 = 1, tail = bits 18..20 = 7; padding
        // bits 21..23 = 1 0 0.
        // V read as v1 (V: flag 17, tail 18..20): alive = 1, flag = 1, tail = bits 19..21
        // = 1 1 0 = 3; magic ^ 21 where v1 expects magic ^ 22.
        check_versions(removed_nested::largest(), 21, {errc::invalid_value, 53, ""},
                       {errc::check_failed, 54, ""});
    }
    SECTION("the last member widened by one bit") {
        // v1 read as V: tail = bits 19..22 = 1 1 1 0 = 7; padding bit 23 = 0; magic ^ 22
        // where V expects magic ^ 23.
        // V read as v1 (V: tail 15 in bits 19..22): tail = 7, padding bit 22 = 1.
        check_versions(widened_end::largest(), 23, {errc::check_failed, 55, ""},
                       {errc::invalid_value, 54, ""});
    }
    SECTION("a member in the middle widened by one bit") {
        // v1 read as V: seq = bits 0..10 = 1000 (bit 10 is 0); hp = bits 11..17 = 114.
        // V read as v1 (V: seq 2000 in bits 0..10 = 0 0 0 0 1 0 1 1 1 1 1, hp 11..17,
        // alive 18, flag 19, tail 20..22): seq = 976, hp = bits 10..16 = 73, alive 1,
        // flag 1, tail 7, padding bit 22 = 1.
        check_versions(widened_middle::largest(), 23, {errc::out_of_range, 43, "Msg.inner.hp"},
                       {errc::invalid_value, 54, ""});
    }
    SECTION("a member inside the nested struct widened by one bit") {
        // v1 read as V: hp = bits 10..17 = 0 0 1 0 0 1 1 1 = 228 > 200.
        // V read as v1 (V: hp 200 in bits 10..17 = 0 0 0 1 0 0 1 1, alive 18, flag 19,
        // tail 20..22): hp = bits 10..16 = 72, alive 1, flag 1, tail 7, padding bit 22 = 1.
        check_versions(widened_nested::largest(), 23, {errc::out_of_range, 42, "Msg.inner.hp"},
                       {errc::invalid_value, 54, ""});
    }
}

TEST_CASE("the end value is the end-of-packet magic xor the payload's bits", "[packet][golden]") {
    STATIC_REQUIRE(netser::end_of_packet_value(0) == end_magic);
    STATIC_REQUIRE(netser::end_of_packet_value(11) == 0x4724C6FFu);
    STATIC_REQUIRE(netser::end_of_packet_value(22) == (0x4724C6F4u ^ 22u));
    // Modulo 2^32: only the low 32 bits of the count.
    STATIC_REQUIRE(netser::end_of_packet_value(std::size_t{0xFFFFFFFFu}) == (0x4724C6F4u ^ 0xFFFFFFFFu));
    if constexpr (sizeof(std::size_t) > 4)
        CHECK(netser::end_of_packet_value(static_cast<std::size_t>((std::uint64_t{1} << 32) + 5)) == (end_magic ^ 5u));

    // v1's packet of all zeros, by hand: 22 zero bits, 2 of padding, end value magic ^ 22.
    reference_writer ref;
    ref.put(0, 32);
    ref.put(0, 22);
    put_end_check(ref);
    std::vector<std::byte> expected = ref.bytes();
    recrc(expected, shared_id);
    CHECK(hex(std::span<const std::byte>(expected).subspan(4)) == "00 00 00 E2 C6 24 47");
    CHECK(hex(packet_of(v1::Msg{}, {shared_id})) == hex(expected));
}
