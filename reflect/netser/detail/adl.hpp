#pragma once

#include <concepts>

// Finds a user's own serialize(Stream&, T&) (Glenn-style) through argument-dependent
// lookup only.
namespace netser::detail::adl {

// Hides every other `serialize` from ordinary lookup.
void serialize() = delete;

template <class S, class T>
concept has_serialize = requires(S& s, T& v) {
    { serialize(s, v) } -> std::convertible_to<bool>;
};

template <class S, class T>
bool call(S& s, T& v) {
    return serialize(s, v);
}

} // namespace netser::detail::adl
