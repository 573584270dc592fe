#pragma once

// The visitor: each value's encoding is chosen once from its type and its attributes
// (encoding_of in <netser/encoding.hpp>, with a provider P whose P::value is the
// constant attr_pack), and apply_encoding has one overload per family of encodings,
// each in the header of its family:
//
//   scalar_codec.hpp     fixed-width codes (bool, integers, enums, floats), common, finite
//   container_codec.hpp  strings, arrays, vectors, maps and sets
//   optional_codec.hpp   std::optional, std::unique_ptr, std::variant
//   sparse_codec.hpp     netser::sparse arrays of optionals
//   struct_codec.hpp     described structs (bases, members, packed runs) and aggregates
//   user_codec.hpp       user attributes and user types with their own serialize

#include <netser/container_codec.hpp>
#include <netser/encoding.hpp>
#include <netser/optional_codec.hpp>
#include <netser/scalar_codec.hpp>
#include <netser/sparse_codec.hpp>
#include <netser/struct_codec.hpp>
#include <netser/user_codec.hpp>
#include <netser/visitor.hpp>

namespace netser::detail {

template <class P, stream S, class T>
NETSER_INLINE bool serialize_value(S& s, T& v) {
    return apply_encoding(s, v, encoding_v<P, T>);
}

} // namespace netser::detail
