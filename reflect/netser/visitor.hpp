#pragma once

#include <netser/detail/config.hpp>
#include <netser/encoding.hpp>
#include <netser/stream.hpp>

#include <cstddef>
#include <string_view>

// What the codec families share: the entry point of the walk over a value (defined in
// <netser/codec.hpp> once every family is declared), the hooks a profiling stream
// gets, nesting limits and the error path of an element.

namespace netser::detail {

/// Writes, reads or measures v with attributes P: apply_encoding(s, v, encoding_v<P, T>),
/// one overload per family of encodings.
template <class P, stream S, class T>
NETSER_INLINE bool serialize_value(S& s, T& v);

/// A misuse, already reported by the static_assert of encoding_of.
template <stream S, class T>
bool apply_encoding(S&, T&, invalid_encoding) noexcept {
    return false;
}

// A stream that wants to know where its bits go (profile_stream) is told when each
// member and element starts and ends; other streams pay nothing.
template <class S>
concept profiling_stream = requires(S& s, std::string_view name) {
    s.enter_member(name);
    s.enter_element();
    s.leave();
};

template <class P, stream S, class T>
NETSER_INLINE bool profiled_value(S& s, T& v, [[maybe_unused]] std::string_view name) {
    if constexpr (profiling_stream<S>) {
        s.enter_member(name);
        const bool ok = serialize_value<P>(s, v);
        s.leave();
        return ok;
    } else {
        return serialize_value<P>(s, v);
    }
}

/// Adds "[i]" to the error path of a failed element.
template <stream S>
NETSER_COLD bool fail_at_index(S& s, std::size_t i) noexcept {
    s.error().prepend_index(i);
    return false;
}

// Recursive structs nest at most s.max_depth() deep (64 by default), so a hostile packet
// cannot exhaust the stack: deeper fails with too_large. Other structs cannot nest
// without bound and pay nothing.
template <stream S>
NETSER_INLINE bool enter_nested(S& s) noexcept {
    if constexpr (requires { s.enter_nested(); }) {
        if (!s.enter_nested()) [[unlikely]] {
            s.leave_nested();
            return s.fail(errc::too_large, s.bits_processed());
        }
    }
    return true;
}

template <stream S>
NETSER_INLINE bool leave_nested(S& s, bool ok) noexcept {
    if constexpr (requires { s.leave_nested(); }) s.leave_nested();
    return ok;
}

} // namespace netser::detail
