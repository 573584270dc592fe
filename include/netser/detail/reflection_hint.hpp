#pragma once
#if defined(__GNUC__) // g++ reports the mistake at the macro's line, without a note per level
#  pragma GCC system_header
#endif

// NETSER_STRUCT & co. come with the reflection layer. With the core alone, these
// stand-ins say which header to include; <netser/netser.hpp> replaces them.

#ifndef NETSER_STRUCT
#  define NETSER_STRUCT(T, ...) NETSER_DETAIL_NEEDS_REFLECTION(NETSER_STRUCT)
#  define NETSER_DERIVED_STRUCT(T, ...) NETSER_DETAIL_NEEDS_REFLECTION(NETSER_DERIVED_STRUCT)
#  define NETSER_CLASS(T, ...) NETSER_DETAIL_NEEDS_REFLECTION(NETSER_CLASS)
#  define NETSER_DETAIL_NEEDS_REFLECTION(M)                                                              \
      static_assert(false, "netser: " #M " needs #include <netser/netser.hpp> (the reflection layer, on " \
                           "Boost.Describe and Boost.PFR); <netser/core.hpp> has the primitives only");
#endif
