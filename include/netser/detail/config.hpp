#pragma once

// Function attributes shared by the headers: the only place they are spelled, with a
// branch per compiler family. Any other compiler gets plain functions, which are
// correct, only maybe slower.

#if defined(__GNUC__) // g++ and clang
// Failure paths: kept out of line so the success path stays small (and compiles fast).
#  define NETSER_COLD __attribute__((cold, noinline))
// The thin layers of the visitor and the primitives: always inlined, so that reflected
// code costs what hand-written code costs (compilers otherwise stop at some depth).
#  define NETSER_INLINE __attribute__((always_inline)) inline
// Rare paths that should not be inlined into their callers, without being cold.
#  define NETSER_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#  define NETSER_COLD __declspec(noinline)
#  define NETSER_INLINE __forceinline
#  define NETSER_NOINLINE __declspec(noinline)
#else
#  define NETSER_COLD
#  define NETSER_INLINE inline
#  define NETSER_NOINLINE
#endif

// A vector's loop over its elements. Out of line, the element's encoding (range,
// quantization) is a run-time value and every element pays for it: clang 14 leaves the
// loop out of line (1.2-1.3 times the instructions of hand-written code on a struct with
// a vector), g++ 12 inlines it unasked, and forcing it there costs g++ a fifth more
// compile time for nothing.
#if defined(__clang__)
#  define NETSER_INLINE_LOOP NETSER_INLINE
#else
#  define NETSER_INLINE_LOOP inline
#endif
