// serialize_string carries text as the reference serialize library reads it: valid
// UTF-8 without NUL, on write and on read, else invalid_value at the string's first
// bit. serialize_raw_string has the same wire for any bytes. is_valid_string is checked
// against an independent decoder (code points, not byte ranges) over every 1- and
// 2-byte string and every 3- and 4-byte string of the lead bytes that need care.

#include "core/test_util.hpp"

#include <random>

using netser::errc;
using netser_test::check_golden;
using netser_test::exact_block;
using netser_test::hex;
using netser_test::reference_writer;

namespace {

/// RFC 3629 by decoding: a lead byte gives the length, continuation bytes are
/// 10xxxxxx, the code point must need that length, be at most U+10FFFF and not a
/// surrogate; and (netser's rule on top) not U+0000.
bool independent_valid(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        std::size_t length = 0;
        std::uint32_t cp = 0;
        if ((b & 0x80u) == 0) length = 1, cp = b;
        else if ((b & 0xE0u) == 0xC0u) length = 2, cp = b & 0x1Fu;
        else if ((b & 0xF0u) == 0xE0u) length = 3, cp = b & 0x0Fu;
        else if ((b & 0xF8u) == 0xF0u) length = 4, cp = b & 0x07u;
        else return false;
        if (s.size() - i < length) return false;
        for (std::size_t k = 1; k < length; ++k) {
            const auto c = static_cast<unsigned char>(s[i + k]);
            if ((c & 0xC0u) != 0x80u) return false;
            cp = cp << 6 | (c & 0x3Fu);
        }
        const std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0) return false;
        i += length;
    }
    return true;
}

std::string bytes_of(std::initializer_list<unsigned> bytes) {
    std::string s;
    for (const unsigned b : bytes) s += static_cast<char>(b);
    return s;
}

/// Text refused by the rule, one of each kind.
struct refused {
    const char* kind;
    std::string text;
};
const std::vector<refused>& refused_strings() {
    static const std::vector<refused> all = {
        {"NUL", bytes_of({0x00})},
        {"NUL inside", bytes_of({'a', 0x00, 'b'})},
        {"overlong NUL", bytes_of({0xC0, 0x80})},
        {"overlong 2-byte (C1)", bytes_of({0xC1, 0xBF})},
        {"overlong 3-byte", bytes_of({0xE0, 0x80, 0x80})},
        {"overlong 3-byte, largest", bytes_of({0xE0, 0x9F, 0xBF})},
        {"overlong 4-byte", bytes_of({0xF0, 0x80, 0x80, 0x80})},
        {"overlong 4-byte, largest", bytes_of({0xF0, 0x8F, 0xBF, 0xBF})},
        {"surrogate U+D800", bytes_of({0xED, 0xA0, 0x80})},
        {"surrogate U+DFFF", bytes_of({0xED, 0xBF, 0xBF})},
        {"surrogate pair as two", bytes_of({0xED, 0xA0, 0xBD, 0xED, 0xB2, 0xA9})},
        {"U+110000", bytes_of({0xF4, 0x90, 0x80, 0x80})},
        {"lead F5", bytes_of({0xF5, 0x80, 0x80, 0x80})},
        {"lead FF", bytes_of({0xFF})},
        {"truncated 2-byte", bytes_of({0xC3})},
        {"truncated 3-byte", bytes_of({0xE2, 0x82})},
        {"truncated 4-byte", bytes_of({0xF0, 0x9D, 0x84})},
        {"truncated, then ASCII", bytes_of({0xC3, 'A'})},
        {"truncated at the end", bytes_of({'o', 'k', 0xE2, 0x82})},
        {"lone continuation 80", bytes_of({0x80})},
        {"lone continuation BF", bytes_of({0xBF})},
        {"continuation after ASCII", bytes_of({'A', 0x80})},
        {"one continuation too many", bytes_of({0xC3, 0xA9, 0xA9})},
    };
    return all;
}

} // namespace

TEST_CASE("serialize_string writes UTF-8 text as the golden vectors", "[primitives][string][utf8]") {
    auto with_max = [](std::size_t max_length) {
        return [max_length](auto& s, std::string& v) { return netser::serialize_string(s, v, max_length); };
    };
    check_golden("02 C3 A9", with_max(15), std::string("\xC3\xA9"));
    check_golden("0A 61 C3 A9 E2 82 AC F0 9D 84 9E", with_max(15),
                 std::string("a\xC3\xA9\xE2\x82\xAC\xF0\x9D\x84\x9E"));
    check_golden("04 F4 8F BF BF", with_max(7), std::string("\xF4\x8F\xBF\xBF"));
}

TEST_CASE("serialize_raw_string writes any bytes as the golden vector", "[primitives][string][raw]") {
    check_golden(
        "07 00 FF C0 80 ED A0 80",
        [](auto& s, std::string& v) { return netser::serialize_raw_string(s, v, 7); },
        bytes_of({0x00, 0xFF, 0xC0, 0x80, 0xED, 0xA0, 0x80}));
}

TEST_CASE("is_valid_string accepts the boundaries of every UTF-8 length", "[utf8]") {
    for (const std::string& s :
         {std::string(), bytes_of({0x01}), bytes_of({0x7F}), bytes_of({0xC2, 0x80}), bytes_of({0xDF, 0xBF}),
          bytes_of({0xE0, 0xA0, 0x80}), bytes_of({0xED, 0x9F, 0xBF}), bytes_of({0xEE, 0x80, 0x80}),
          bytes_of({0xEF, 0xBF, 0xBF}), bytes_of({0xF0, 0x90, 0x80, 0x80}), bytes_of({0xF4, 0x8F, 0xBF, 0xBF})}) {
        INFO(hex(std::as_bytes(std::span<const char>(s))));
        CHECK(netser::is_valid_string(s));
        CHECK(independent_valid(s));
    }
    STATIC_REQUIRE(netser::is_valid_string("plain ASCII"));
    STATIC_REQUIRE_FALSE(netser::is_valid_string(std::string_view("a\0b", 3)));
}

TEST_CASE("is_valid_string refuses every kind of invalid UTF-8 and NUL", "[utf8]") {
    for (const refused& r : refused_strings()) {
        INFO(r.kind);
        CHECK_FALSE(netser::is_valid_string(r.text));
        CHECK_FALSE(independent_valid(r.text)); // the oracle agrees that it is invalid
    }
}

TEST_CASE("is_valid_string agrees with an independent decoder on every short string", "[utf8][exhaustive]") {
    std::size_t checked = 0;
    std::string s;
    for (unsigned a = 0; a < 256; ++a) {
        s.assign(1, static_cast<char>(a));
        REQUIRE(netser::is_valid_string(s) == independent_valid(s));
        for (unsigned b = 0; b < 256; ++b) {
            s.assign({static_cast<char>(a), static_cast<char>(b)});
            REQUIRE(netser::is_valid_string(s) == independent_valid(s));
            checked += 2;
        }
    }
    // Three bytes for every lead from C0 up (the ones with length and range rules).
    for (unsigned a = 0xC0; a < 256; ++a)
        for (unsigned b = 0; b < 256; ++b)
            for (unsigned c = 0; c < 256; ++c) {
                s.assign({static_cast<char>(a), static_cast<char>(b), static_cast<char>(c)});
                REQUIRE(netser::is_valid_string(s) == independent_valid(s));
                ++checked;
            }
    // Four bytes for the leads F0..F4 with continuation bytes and their neighbours.
    const unsigned edges[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF};
    for (unsigned a = 0xF0; a <= 0xF7; ++a)
        for (unsigned b : edges)
            for (unsigned c : edges)
                for (unsigned d : edges) {
                    s.assign({static_cast<char>(a), static_cast<char>(b), static_cast<char>(c), static_cast<char>(d)});
                    REQUIRE(netser::is_valid_string(s) == independent_valid(s));
                    ++checked;
                }
    CHECK(checked > 4'000'000);
}

TEST_CASE("serialize_string refuses invalid text on write at the string's first bit, writing nothing of it",
          "[primitives][string][utf8]") {
    for (const refused& r : refused_strings()) {
        INFO(r.kind);
        std::vector<std::byte> buffer(64);
        netser::write_stream w(buffer.data(), buffer.size());
        std::uint32_t prefix = 5;
        REQUIRE(netser::serialize_bits(w, prefix, 3));
        std::string text = r.text;
        CHECK_FALSE(netser::serialize_string(w, text, 15));
        CHECK(w.error().code == errc::invalid_value);
        CHECK(w.error().bit == 3);
        CHECK(w.bits_processed() == 3);
        CHECK(text == r.text); // the caller's string is untouched

        netser::measure_stream m; // measuring refuses what writing refuses
        CHECK_FALSE(netser::serialize_string(m, text, 15));
        CHECK(m.error().code == errc::invalid_value);

        // The raw function writes the same text, with the same wire as a checked string.
        netser::write_stream raw(buffer.data(), buffer.size());
        REQUIRE(netser::serialize_bits(raw, prefix, 3));
        REQUIRE(netser::serialize_raw_string(raw, text, 15));
        reference_writer ref;
        ref.put(5, 3);
        ref.put(text.size(), 4);
        ref.align();
        for (const char c : text) ref.put(static_cast<unsigned char>(c), 8);
        CHECK(hex(raw.finish()) == hex(ref.bytes()));
    }
}

TEST_CASE("serialize_string refuses invalid text on read at the string's first bit and leaves the string empty",
          "[primitives][string][utf8]") {
    for (const refused& r : refused_strings()) {
        INFO(r.kind);
        reference_writer ref; // 3 bits, then the string as serialize_raw_string sends it
        ref.put(5, 3);
        ref.put(r.text.size(), 4);
        ref.align();
        for (const char c : r.text) ref.put(static_cast<unsigned char>(c), 8);
        const exact_block packet(ref.bytes());

        netser::read_stream s(packet.span());
        std::uint32_t prefix = 0;
        REQUIRE(netser::serialize_bits(s, prefix, 3));
        std::string got = "previous";
        CHECK_FALSE(netser::serialize_string(s, got, 15));
        CHECK(s.error().code == errc::invalid_value);
        CHECK(s.error().bit == 3);
        CHECK(got.empty());

        netser::read_stream raw(packet.span());
        REQUIRE(netser::serialize_bits(raw, prefix, 3));
        REQUIRE(netser::serialize_raw_string(raw, got, 15));
        CHECK(got == r.text);
        CHECK(raw.bytes_processed() == packet.size());
    }
}

TEST_CASE("a string that is too long fails with too_large before its bytes are looked at", "[primitives][string]") {
    std::vector<std::byte> buffer(64);
    netser::write_stream w(buffer.data(), buffer.size());
    std::string text(5, '\0'); // invalid and too long: the length is checked first
    CHECK_FALSE(netser::serialize_string(w, text, 4));
    CHECK(w.error().code == errc::too_large);
    CHECK(w.error().bit == 0);
}

TEST_CASE("serialize_string round trips random valid UTF-8", "[primitives][string][utf8][random]") {
    std::mt19937_64 rng(17);
    // Code points of every length, away from NUL and the surrogates.
    auto encode = [](std::uint32_t cp, std::string& out) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    };
    const std::uint32_t limits[] = {0x80, 0x800, 0x10000, 0x110000};
    for (int round = 0; round < 2000; ++round) {
        std::string text;
        const int chars = static_cast<int>(rng() % 20);
        for (int i = 0; i < chars; ++i) {
            std::uint32_t cp = 0;
            do {
                cp = static_cast<std::uint32_t>(rng() % limits[rng() % 4]);
            } while (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF));
            encode(cp, text);
        }
        const std::size_t max_length = text.size() + static_cast<std::size_t>(rng() % 10);
        REQUIRE(independent_valid(text));
        std::vector<std::byte> buffer(128);
        netser::write_stream w(buffer.data(), buffer.size());
        REQUIRE(netser::serialize_string(w, text, max_length));
        const auto bytes = w.finish();
        const exact_block in(bytes);
        netser::read_stream r(in.span());
        std::string got;
        REQUIRE(netser::serialize_string(r, got, max_length));
        CHECK(got == text);
    }
}
