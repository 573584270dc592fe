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
    baseline_mismatch, ///< a delta packet read against a baseline other than the one it was written against
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
    case errc::baseline_mismatch: return "baseline_mismatch";
    }
    return "unknown";
}

/// One sentence on an error code for a log line: what went wrong and where to look.
/// A packet of another schema or version fails its CRC (the schema hash is folded into
/// it) or, with a shared protocol id, its end check: both say to compare the schemas.
constexpr std::string_view describe(errc e) noexcept {
    switch (e) {
    case errc::none: return "no error";
    case errc::overflow: return "not enough bits: the buffer is full, or the packet ends before the value";
    case errc::out_of_range: return "a value or code outside its declared range";
    case errc::invalid_value:
        return "a value the encoding refuses (padding, enum, variant index, NaN, text, repeated key, trailing "
               "bytes)";
    case errc::too_large:
        return "a count or length above its declared limit, too deep a nesting, or past the read's allocation "
               "budget";
    case errc::check_failed:
        return "a check value does not match: the reader consumed other bits than the writer wrote (another schema "
               "or version? compare with netser_schema_diff.py)";
    case errc::bad_crc:
        return "the packet's CRC does not match: damaged, from another program, or another schema or version? "
               "compare with netser_schema_diff.py";
    case errc::bad_protocol:
        return "the packet belongs to another protocol (another schema or version? compare with "
               "netser_schema_diff.py)";
    case errc::missing_baseline: return "the delta packet's baseline is no longer held by the reader";
    case errc::baseline_mismatch:
        return "the reader's baseline under that sequence number is not the one the delta packet was written against "
               "(its fingerprint differs): a stale or wrapped sequence number, or another start state";
    }
    return "unknown error";
}

/// A failure: its code, the bit offset of the value that failed and the member path.
/// The path is built from the innermost member outwards while the failure unwinds,
/// into a fixed buffer: no allocation, and no work at all on success.
struct [[nodiscard]] error {
    static constexpr std::size_t path_capacity = 200; // below 256: offsets fit a byte

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
        if (sealed_ || continued_) return;
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

    /// Prepends the name of the type a serialize was called on ("Snapshot"), the root of
    /// the path. Called from hand-written code (`nested`: a user's serialize function that
    /// netser called, or netser::named), the root stays provisional while it is the
    /// outermost part: name_member() replaces it with the member's name ("Outer.pc.x"
    /// rather than "Outer.Inner.x"), any other prepend keeps it. Otherwise the path is
    /// complete and sealed: a later call on the failed stream leaves it alone. A serialize
    /// that only continued on a failed stream (see note_continued) adds nothing.
    NETSER_COLD void prepend_root(std::string_view type_name, bool nested = false) noexcept {
        if (continued_) {
            continued_ = false;
            if (!nested) sealed_ = true;
            return;
        }
        if (sealed_) return;
        const std::size_t before = path_begin_;
        prepend_part(type_name);
        if (!nested) {
            sealed_ = true;
            return;
        }
        root_at_ = static_cast<std::uint8_t>(path_begin_);
        root_length_ = static_cast<std::uint8_t>(before - path_begin_);
    }

    /// Prepends the name of the member hand-written code was serializing (netser::named),
    /// in place of a provisional root that a nested serialize put there.
    NETSER_COLD void name_member(std::string_view name) noexcept {
        continued_ = false;
        if (sealed_) return;
        if (root_length_ != 0 && path_begin_ == root_at_) path_begin_ += root_length_;
        root_length_ = 0;
        prepend_part(name);
    }

    /// A stream calls this when a value fails on a stream that had failed before: the
    /// code went on after the first failure (hand-written code without a short-circuit),
    /// so names prepended from here on are not the failure's. They are left out until
    /// the hand-written code returns (end_continued) or the serialize that went on
    /// reaches its root.
    void note_continued() noexcept { continued_ = true; }
    /// The hand-written code that went on after a failure has returned.
    NETSER_COLD void end_continued() noexcept { continued_ = false; }

    /// Ends the path: later prepends leave it as it is.
    void seal() noexcept { sealed_ = true; }

    /// Prepends text verbatim; when full, the outermost part is replaced by "...".
    void prepend_raw(std::string_view text) noexcept {
        if (sealed_ || continued_) return;
        if (text.size() + 3 > path_begin_) return truncate();
        path_begin_ -= text.size();
        // A loop, not memcpy: g++ 12 -O2 reports a false -Wrestrict for the memcpy here.
        for (std::size_t i = 0; i < text.size(); ++i) path_[path_begin_ + i] = text[i];
    }

private:
    // A name or an index, then '.' when a member name follows: "units" + "[1].hull",
    // "command" + "<Move>.dx".
    void prepend_part(std::string_view part) noexcept {
        if (sealed_ || continued_) return;
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
    std::uint8_t root_at_ = 0;     // where the provisional root starts (path_capacity fits)
    std::uint8_t root_length_ = 0; // its length with its separator; 0: none
    bool sealed_ = false;          // full, or finished by seal() or a root
    bool continued_ = false;       // code went on after the failure: see note_continued
};

} // namespace netser
