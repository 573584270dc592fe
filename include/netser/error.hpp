#pragma once

#include <netser/detail/config.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>


namespace netser {

/// Why a serialization failed.
enum class errc : std::uint8_t {
    none,           ///< no error
    overflow,       ///< not enough bits left (buffer full, packet too short, count cannot fit)
    out_of_range,   ///< an integer (or code) outside its declared range
    invalid_value,  ///< bad padding, undeclared enum value, bad variant index, NaN, bad parameters
    too_large,      ///< a length or count above its declared max_length / max_size
    check_failed,   ///< a serialization check's magic did not match
    bad_crc,        ///< the packet's CRC32 does not match (corrupt, or another protocol)
    bad_protocol,   ///< the packet belongs to another protocol
    missing_baseline, ///< a delta packet names a baseline the reader no longer holds
};

/// The name of an error code, e.g. "out_of_range".
constexpr std::string_view to_string(errc e) noexcept {
    switch (e) {
    case errc::none: return "none";
    case errc::overflow: return "overflow";
    case errc::out_of_range: return "out_of_range";
    case errc::invalid_value: return "invalid_value";
    case errc::too_large: return "too_large";
    case errc::check_failed: return "check_failed";
    case errc::bad_crc: return "bad_crc";
    case errc::bad_protocol: return "bad_protocol";
    case errc::missing_baseline: return "missing_baseline";
    }
    return "unknown";
}

/// A failure: its code, the bit offset of the value that failed and the member path.
/// The path is built from the innermost member outwards while the failure unwinds,
/// into a fixed buffer: no allocation, and no work at all on success.
struct error {
    static constexpr std::size_t path_capacity = 200;

    errc code = errc::none;
    std::size_t bit = 0;

    explicit operator bool() const noexcept { return code != errc::none; }

    /// e.g. "Snapshot.players[3].health", "Envelope.command<Move>.dx"; empty when no
    /// path was recorded.
    std::string_view path() const noexcept {
        return {path_ + path_begin_, path_capacity - path_begin_};
    }

    /// Prepends a member name, adding the '.' separator unless the path starts with an index.
    NETSER_COLD void prepend_member(std::string_view name) noexcept { prepend_part(name); }

    /// Prepends "<name>", the alternative a std::variant holds ("command<Move>.dx"),
    /// adding the '.' separator before a member name that follows.
    NETSER_COLD void prepend_alternative(std::string_view name) noexcept {
        if (sealed_) return;
        const bool dot = path_begin_ != path_capacity && path_[path_begin_] != '[' && path_[path_begin_] != '<';
        if (name.size() + 2 + (dot ? 1u : 0u) + 3 > path_begin_) return truncate();
        if (dot) prepend_raw(".");
        prepend_raw(">");
        prepend_raw(name);
        prepend_raw("<");
    }

    /// Prepends "[index]", adding the '.' separator before a member name that follows.
    NETSER_COLD void prepend_index(std::size_t index) noexcept {
        char digits[24];
        std::size_t n = sizeof digits;
        digits[--n] = ']';
        do {
            digits[--n] = static_cast<char>('0' + index % 10);
            index /= 10;
        } while (index != 0);
        digits[--n] = '[';
        prepend_part({digits + n, sizeof digits - n});
    }

    /// Ends the path: later prepends leave it as it is (a top-level serialize seals it,
    /// so a later call on the failed stream cannot add its own names).
    void seal() noexcept { sealed_ = true; }

    /// Prepends text verbatim; when full, the outermost part is replaced by "...".
    void prepend_raw(std::string_view text) noexcept {
        if (sealed_) return;
        if (text.size() + 3 > path_begin_) return truncate();
        path_begin_ -= text.size();
        // A loop, not memcpy: g++ 12 -O2 reports a false -Wrestrict for the memcpy here.
        for (std::size_t i = 0; i < text.size(); ++i) path_[path_begin_ + i] = text[i];
    }

private:
    // A name or an index, then '.' when a member name follows: "units" + "[1].hull",
    // "command" + "<Move>.dx".
    void prepend_part(std::string_view part) noexcept {
        if (sealed_) return;
        const bool dot = path_begin_ != path_capacity && path_[path_begin_] != '[' && path_[path_begin_] != '<';
        if (part.size() + (dot ? 1u : 0u) + 3 > path_begin_) return truncate();
        if (dot) prepend_raw(".");
        prepend_raw(part);
    }

    // Room is always kept for the "..." that replaces what does not fit.
    void truncate() noexcept {
        path_begin_ -= 3;
        path_[path_begin_] = path_[path_begin_ + 1] = path_[path_begin_ + 2] = '.';
        sealed_ = true;
    }

    char path_[path_capacity] = {};
    std::size_t path_begin_ = path_capacity;
    bool sealed_ = false; // full, or finished by seal()
};

} // namespace netser
