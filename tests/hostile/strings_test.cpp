// Strings: exactly max_length bytes and one more, forged lengths, non-zero padding,
// and text: strings that are not valid UTF-8, or hold a NUL byte, are refused on write
// and on read by default (checked against an independent validator over every 1- and
// 2-byte string and random longer ones); netser::raw_bytes carries any bytes.
#include "hostile/hostile_types.hpp"

#include <string>

namespace hostile {

namespace {

using netser::errc;

// Length in 5 bits (max_length 16), align to byte 1, then the bytes.
std::vector<std::byte> forged_text(std::uint64_t length, std::string_view bytes) {
    return forge().put(length, 5).align().text(bytes).bytes();
}

netser::error write_error(const auto& value) {
    std::vector<std::byte> buffer(64);
    netser::write_stream w{std::span<std::byte>(buffer)};
    (void)netser::serialize(w, value); // the error says how it went
    return w.error();
}

constexpr std::string_view invalid_utf8[] = {
    std::string_view("\0", 1),    // NUL
    std::string_view("ab\0c", 4), // NUL inside
    "\x80",                 // lone continuation byte
    "a\xbf",                // continuation after ASCII
    "\xc0\x80",             // overlong NUL
    "\xc1\xbf",             // overlong 2-byte
    "\xe0\x80\x80",         // overlong 3-byte
    "\xe0\x9f\xbf",         // overlong, just below U+0800
    "\xed\xa0\x80",         // surrogate U+D800
    "\xed\xbf\xbf",         // surrogate U+DFFF
    "\xf0\x8f\xbf\xbf",     // overlong 4-byte
    "\xf4\x90\x80\x80",     // U+110000
    "\xf5\x80\x80\x80",     // lead byte past U+10FFFF
    "\xf8\x88\x80\x80\x80", // 5-byte form
    "\xfe",
    "\xff",
    "\xc3",                 // truncated at the end
    "\xe2\x82",
    "\xf0\x9f\x98",
    "\xc3(",                // bad continuation
    "\xe2\x28\xa1",
    "\xf0\x28\x8c\xbc",
};

constexpr std::string_view valid_edges[] = {
    "\x01", "\x7f", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80",
    "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf",
};

} // namespace

TEST_CASE("a string of exactly max_length reads; one more byte is too_large", "[hostile][strings]") {
    for (const std::string& s : {std::string(16, 'x'), std::string("\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac") + "a",
                                std::string("\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80")}) {
        REQUIRE(s.size() == 16);
        const packet p = write_value(Text{s});
        CHECK(p.bits == 8 + 16 * 8);
        const auto r = read_value<Text>(p.bytes);
        REQUIRE_FALSE(r.error);
        CHECK(r.value.s == s);
    }
    const netser::error e = write_error(Text{std::string(17, 'x')});
    CHECK(e.code == errc::too_large);
    CHECK(e.path() == "Text.s");
    CHECK(write_error(RawText{std::string(17, '\xff')}).code == errc::too_large);
    for (std::uint64_t length = 17; length < 32; ++length) {
        INFO("length " << length);
        const auto r = read_value<Text>(forged_text(length, std::string(32, 'x')));
        CHECK(r.error.code == errc::too_large);
        CHECK(r.error.bit == 0);
        CHECK(r.heap.calls == 0);
    }
    SECTION("a length past the bytes sent is overflow, before allocating") {
        const auto r = read_value<Text>(forged_text(16, std::string(15, 'x')));
        CHECK(r.error.code == errc::overflow);
        CHECK(r.error.bit == 0);
        CHECK(r.heap.calls == 0);
    }
    SECTION("non-zero padding between the length and the bytes is invalid_value") {
        for (std::uint64_t pad = 1; pad < 8; ++pad) {
            const auto r = read_value<Text>(forge().put(1, 5).put(pad, 3).text("x").bytes());
            CHECK(r.error.code == errc::invalid_value);
            CHECK(r.error.bit == 0);
        }
    }
}

TEST_CASE("strings that are not valid UTF-8 or hold a NUL are refused by default", "[hostile][strings]") {
    for (std::string_view bad : invalid_utf8) {
        INFO("bytes " << netser_test::hex(std::as_bytes(std::span(bad.data(), bad.size()))));
        REQUIRE_FALSE(is_text(bad));
        const netser::error w = write_error(Text{std::string(bad)});
        CHECK(w.code == errc::invalid_value);
        CHECK(w.path() == "Text.s");
        const auto r = read_value<Text>(forged_text(bad.size(), bad));
        CHECK(r.error.code == errc::invalid_value);
        CHECK(r.error.bit == 0);
        CHECK(r.error.path() == "Text.s");
    }
    for (std::string_view good : valid_edges) {
        INFO("bytes " << netser_test::hex(std::as_bytes(std::span(good.data(), good.size()))));
        REQUIRE(is_text(good));
        const auto r = read_value<Text>(write_value(Text{std::string(good)}).bytes);
        REQUIRE_FALSE(r.error);
        CHECK(r.value.s == good);
    }
}

TEST_CASE("netser::raw_bytes carries any bytes", "[hostile][strings]") {
    for (std::string_view bad : invalid_utf8) {
        const auto r = read_value<RawText>(write_value(RawText{std::string(bad)}).bytes);
        REQUIRE_FALSE(r.error);
        CHECK(r.value.s == bad);
    }
    std::string all(16, '\0');
    for (int start = 0; start < 256; start += 16) {
        for (int i = 0; i < 16; ++i) all[static_cast<std::size_t>(i)] = static_cast<char>(start + i);
        const auto r = read_value<RawText>(write_value(RawText{all}).bytes);
        REQUIRE_FALSE(r.error);
        CHECK(r.value.s == all);
    }
}

TEST_CASE("the text check agrees with an independent validator", "[hostile][strings][long]") {
    auto agrees = [](const std::string& s) {
        const auto r = read_value<Text>(forged_text(s.size(), s));
        const bool accepted = !r.error;
        if (accepted == is_text(s) && (accepted || r.error.code == errc::invalid_value)) return true;
        UNSCOPED_INFO("bytes " << netser_test::hex(std::as_bytes(std::span(s.data(), s.size()))) << " accepted " << accepted);
        return false;
    };
    std::size_t disagreements = 0;
    for (int a = 0; a < 256; ++a) {
        disagreements += agrees(std::string(1, static_cast<char>(a))) ? 0u : 1u;
        for (int b = 0; b < 256; ++b)
            disagreements += agrees(std::string{static_cast<char>(a), static_cast<char>(b)}) ? 0u : 1u;
    }
    // Longer strings, biased towards the bytes that start and continue sequences.
    rng r{99};
    static constexpr unsigned char interesting[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1,
                                                    0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3,
                                                    0xf4, 0xf5, 0xf7, 0xf8, 0xfe, 0xff};
    for (int i = 0; i < 100000; ++i) {
        std::string s(static_cast<std::size_t>(r.between(3, 16)), '\0');
        for (char& c : s)
            c = static_cast<char>(r.coin() ? interesting[r.below(std::size(interesting))] : r.between(0x80, 0xbf));
        disagreements += agrees(s) ? 0u : 1u;
    }
    CHECK(disagreements == 0);
}

} // namespace hostile
