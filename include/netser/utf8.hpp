#pragma once

#include <cstddef>
#include <string_view>

namespace netser {

/// True when text is what a checked string carries: strict UTF-8 (RFC 3629: no
/// overlong forms, no surrogates U+D800..U+DFFF, nothing above U+10FFFF, no truncated
/// sequence or stray continuation byte) with no NUL byte. serialize_string and the
/// reflected std::string members refuse anything else with invalid_value, on write
/// and on read, as the reference serialize library does; raw bytes have their own
/// functions (serialize_raw_string, the raw_bytes attribute).
constexpr bool is_valid_string(std::string_view text) noexcept {
    std::size_t i = 0;
    const std::size_t n = text.size();
    while (i != n) {
        const auto c = static_cast<unsigned char>(text[i++]);
        if (c < 0x80) {
            if (c == 0) return false;
            continue;
        }
        std::size_t extra = 0;
        unsigned lo = 0x80, hi = 0xbf; // the allowed range of the first continuation byte
        if (c >= 0xc2 && c <= 0xdf) extra = 1;
        else if (c == 0xe0) extra = 2, lo = 0xa0;      // no overlong 3-byte forms
        else if (c == 0xed) extra = 2, hi = 0x9f;      // no surrogates
        else if (c >= 0xe1 && c <= 0xef) extra = 2;
        else if (c == 0xf0) extra = 3, lo = 0x90;      // no overlong 4-byte forms
        else if (c >= 0xf1 && c <= 0xf3) extra = 3;
        else if (c == 0xf4) extra = 3, hi = 0x8f;      // nothing above U+10FFFF
        else return false;                             // 0x80..0xc1 and 0xf5..0xff never start one
        if (n - i < extra) return false;
        const auto first = static_cast<unsigned char>(text[i]);
        if (first < lo || first > hi) return false;
        for (std::size_t k = 1; k < extra; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xc0u) != 0x80u) return false;
        i += extra;
    }
    return true;
}

} // namespace netser
