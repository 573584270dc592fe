#pragma once

// Function attributes shared by the headers.

#if defined(__GNUC__)
// Failure paths: kept out of line so the success path stays small (and compiles fast).
#  define NETSER_COLD __attribute__((cold, noinline))
// The thin layers of the visitor and the primitives: always inlined, so that reflected
// code costs what hand-written code costs (compilers otherwise stop at some depth).
#  define NETSER_INLINE __attribute__((always_inline)) inline
#else
#  define NETSER_COLD
#  define NETSER_INLINE inline
#endif
