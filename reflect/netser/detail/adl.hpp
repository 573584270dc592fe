#pragma once

#include <concepts>

// Finds a user's own serialize(Stream&, T&) (Glenn-style) and serialize_delta(Stream&,
// T&, const T&) through argument-dependent lookup only.
namespace netser::detail::adl {

// Hide every other `serialize` / `serialize_delta` (netser's own function objects among
// them) from ordinary lookup.
void serialize() = delete;
void serialize_delta() = delete;

template <class S, class T>
concept has_serialize = requires(S& s, T& v) {
    { serialize(s, v) } -> std::convertible_to<bool>;
};

template <class S, class T>
concept has_serialize_delta = requires(S& s, T& v, const T& b) {
    { serialize_delta(s, v, b) } -> std::convertible_to<bool>;
};

template <class S, class T>
bool call(S& s, T& v) {
    return serialize(s, v);
}

template <class S, class T>
bool call_delta(S& s, T& v, const T& b) {
    return serialize_delta(s, v, b);
}

} // namespace netser::detail::adl
