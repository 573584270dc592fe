#pragma once

#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

// A small JSON text writer for netser::schema_json: the layout of Python's
// json.dumps(indent=2) (one item per line, two spaces per level, "[]" and "{}" when
// empty), numbers written with std::to_chars so that the text is the same from every
// compiler and host. Only what schema_json needs; a template, so that a translation
// unit that never writes a schema compiles none of it.

namespace netser::detail {

template <class Out = std::string>
class json_writer {
public:
    Out text;

    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void begin_array() { open('['); }
    void end_array() { close(']'); }

    /// The key of the next value in the current object.
    void key(std::string_view k) {
        item();
        quoted(k);
        text += ": ";
        keyed_ = true;
    }

    void string(std::string_view s) {
        item();
        quoted(s);
    }
    void boolean(bool b) {
        item();
        text += b ? "true" : "false";
    }
    void null() {
        item();
        text += "null";
    }
    /// An integer: a JSON number when |v| < 2^53 (exact in every JSON reader), else a
    /// string of its decimal digits.
    template <class I>
        requires std::is_integral_v<I>
    void integer(I v) {
        item();
        constexpr std::int64_t exact = std::int64_t{1} << 53;
        bool small = false;
        if constexpr (std::is_signed_v<I>) small = static_cast<std::int64_t>(v) > -exact && static_cast<std::int64_t>(v) < exact;
        else small = static_cast<std::uint64_t>(v) < static_cast<std::uint64_t>(exact);
        if (!small) text += '"';
        digits(v);
        if (!small) text += '"';
    }
    /// "0x" and the value in `width` lowercase hex digits, as a JSON string.
    void hex(std::uint64_t v, int width) {
        item();
        text += "\"0x";
        for (int i = width - 1; i >= 0; --i) text += "0123456789abcdef"[(v >> (4 * i)) & 0xf];
        text += '"';
    }
    /// An IEEE float, exactly: {"f32": "0x3c23d70a", "value": 0.01} (or "f64" with 16 hex
    /// digits). value is the shortest decimal that reads back as the same float, or the
    /// string "inf", "-inf" or "nan".
    template <class F>
        requires std::is_floating_point_v<F>
    void real(F v) {
        static_assert(sizeof(F) == 4 || sizeof(F) == 8, "netser: schema_json writes float and double only");
        begin_object();
        if constexpr (sizeof(F) == 4) {
            key("f32");
            hex(std::bit_cast<std::uint32_t>(v), 8);
        } else {
            key("f64");
            hex(std::bit_cast<std::uint64_t>(v), 16);
        }
        key("value");
        if (v != v) {
            string("nan");
        } else if (v > std::numeric_limits<F>::max()) {
            string("inf");
        } else if (v < -std::numeric_limits<F>::max()) {
            string("-inf");
        } else {
            item();
            char buf[64];
            const auto r = std::to_chars(buf, buf + sizeof buf, v);
            text.append(buf, r.ptr);
        }
        end_object();
    }

private:
    // Whether the container at each depth has an item yet (up to 64 levels).
    std::uint64_t has_items_ = 0;
    int depth_ = 0;
    bool keyed_ = false;

    void item() {
        if (keyed_) { // the value of a key: on the key's line
            keyed_ = false;
            return;
        }
        if (depth_ == 0) return;
        const std::uint64_t bit = std::uint64_t{1} << (depth_ - 1);
        if (has_items_ & bit) text += ',';
        has_items_ |= bit;
        newline(depth_);
    }
    void open(char c) {
        item();
        text += c;
        ++depth_;
        has_items_ &= ~(std::uint64_t{1} << (depth_ - 1));
    }
    void close(char c) {
        const bool had = (has_items_ >> (depth_ - 1)) & 1u;
        --depth_;
        if (had) newline(depth_);
        text += c;
    }
    void newline(int depth) {
        text += '\n';
        text.append(static_cast<std::size_t>(2 * depth), ' ');
    }
    void quoted(std::string_view s) {
        text += '"';
        for (char ch : s) {
            const auto c = static_cast<unsigned char>(ch);
            if (c == '"' || c == '\\') {
                text += '\\';
                text += ch;
            } else if (c < 0x20) {
                text += "\\u00";
                text += "0123456789abcdef"[c >> 4];
                text += "0123456789abcdef"[c & 0xf];
            } else {
                text += ch;
            }
        }
        text += '"';
    }
    template <class I>
    void digits(I v) {
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        text.append(buf, r.ptr);
    }
};

} // namespace netser::detail
