#pragma once

// Hex text of bytes, for golden vectors. Apart from the other test helpers, and
// without any netser header, so that a test can check what one header brings alone.

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace netser_test {

/// "8D 06": upper-case hex bytes separated by one space ("" when empty).
inline std::string hex(std::span<const std::byte> bytes) {
    static constexpr char digits[] = "0123456789ABCDEF";
    std::string out;
    for (const std::byte b : bytes) {
        if (!out.empty()) out += ' ';
        const auto v = std::to_integer<unsigned>(b);
        out += digits[v >> 4];
        out += digits[v & 15u];
    }
    return out;
}

/// The bytes of "8D 06" (spaces optional).
inline std::vector<std::byte> unhex(std::string_view text) {
    auto nibble = [](char c) -> unsigned {
        if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
        if (c >= 'A' && c <= 'F') return static_cast<unsigned>(c - 'A' + 10);
        if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
        throw std::invalid_argument("bad hex digit");
    };
    std::vector<std::byte> out;
    std::size_t i = 0;
    while (i < text.size()) {
        if (text[i] == ' ') {
            ++i;
            continue;
        }
        if (i + 1 >= text.size()) throw std::invalid_argument("odd number of hex digits");
        out.push_back(static_cast<std::byte>((nibble(text[i]) << 4) | nibble(text[i + 1])));
        i += 2;
    }
    return out;
}

} // namespace netser_test
