#pragma once

#include <netser/detail/adl.hpp>
#include <netser/encoding.hpp>
#include <netser/stream.hpp>

// User codecs: a user attribute (a type with serialize(stream, value) const) is the
// codec of the member it is written on; a user type with an ADL serialize(Stream&, T&)
// function (Glenn-style) is its own codec wherever it appears.

namespace netser::detail {

template <stream S, class T, class P>
NETSER_INLINE bool apply_encoding(S& s, T& v, user_attribute_encoding<P>) {
    return P::value.user().serialize(s, v);
}

template <stream S, class T>
NETSER_INLINE bool apply_encoding(S& s, T& v, user_type_encoding) {
    return adl::call(s, v);
}

} // namespace netser::detail
