#pragma once

// Function attributes shared by the headers: the only place they are spelled, with a
// branch per compiler family. Any other compiler gets plain functions, which are
// correct, only maybe slower.
//
// NETSER_NO_FORCED_INLINE (define it before any netser header, the same in every
// translation unit): nothing is forced inline, the compiler's own heuristics decide.
// For sanitizer, debug and cross builds, which compile translation units that code
// many types (range-coded ones most) in about half the time, and run slower.

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

#ifdef NETSER_NO_FORCED_INLINE // one override for every compiler above
#  undef NETSER_INLINE
#  define NETSER_INLINE inline
#endif

// Larger bodies that g++ 12 inlines unasked and clang 14 leaves out of line: a
// container's loop over its elements, a variant's alternatives. Out of line, an
// element's encoding (range, quantization) is a run-time value that every element pays
// for, and the stream's state goes through memory: 1.2-1.5 times the instructions of
// hand-written code with clang. Forcing them on g++ costs it 15-20% more compile time
// for nothing.
// (They are templates, so no `inline` keyword either: it raises g++'s own inlining
// limits, which cost it 8% more compile time for the same code.)
// The same for a lambda that such a body calls once per alternative, after its parameter
// list: [&](auto i) NETSER_INLINE_LAMBDA { ... } (g++ 12 inlines it unasked; asked, it moved
// a loop writing variants to its cold section).
#if defined(__clang__) && !defined(NETSER_NO_FORCED_INLINE)
#  define NETSER_INLINE_LARGE NETSER_INLINE
#  define NETSER_INLINE_LAMBDA __attribute__((always_inline))
#else
#  define NETSER_INLINE_LARGE
#  define NETSER_INLINE_LAMBDA
#endif
