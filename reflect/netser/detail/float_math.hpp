#pragma once

// The few <cmath> functions the reflection layer needs (quaternions, unit vectors,
// netser::finite). On GCC and Clang they are the builtins that libstdc++ and libc++
// implement std::sqrt & co. with (same results, same code), because <cmath> alone
// would add about a tenth to the compile time of every file that includes
// <netser/netser.hpp>.

#if defined(__GNUC__) || defined(__clang__)

namespace netser::detail::fp {
inline float abs(float x) noexcept { return __builtin_fabsf(x); }
inline float sqrt(float x) noexcept { return __builtin_sqrtf(x); }
inline double sqrt(double x) noexcept { return __builtin_sqrt(x); }
inline float fma(float a, float b, float c) noexcept { return __builtin_fmaf(a, b, c); }
inline double fma(double a, double b, double c) noexcept { return __builtin_fma(a, b, c); }
inline bool is_finite(float x) noexcept { return __builtin_isfinite(x); }
inline bool is_finite(double x) noexcept { return __builtin_isfinite(x); }
inline bool is_inf(float x) noexcept { return __builtin_isinf(x); }
inline bool sign_bit(float x) noexcept { return __builtin_signbit(x); }
inline float copysign(float magnitude, float sign) noexcept { return __builtin_copysignf(magnitude, sign); }
} // namespace netser::detail::fp

#else

#include <cmath>

namespace netser::detail::fp {
inline float abs(float x) noexcept { return std::fabs(x); }
inline float sqrt(float x) noexcept { return std::sqrt(x); }
inline double sqrt(double x) noexcept { return std::sqrt(x); }
inline float fma(float a, float b, float c) noexcept { return std::fma(a, b, c); }
inline double fma(double a, double b, double c) noexcept { return std::fma(a, b, c); }
inline bool is_finite(float x) noexcept { return std::isfinite(x); }
inline bool is_finite(double x) noexcept { return std::isfinite(x); }
inline bool is_inf(float x) noexcept { return std::isinf(x); }
inline bool sign_bit(float x) noexcept { return std::signbit(x); }
inline float copysign(float magnitude, float sign) noexcept { return std::copysign(magnitude, sign); }
} // namespace netser::detail::fp

#endif
