#pragma once

#include <netser/attributes.hpp>
#include <netser/bits_required.hpp>
#include <netser/detail/float_math.hpp>
#include <netser/encoding.hpp>
#include <netser/primitives.hpp>
#include <netser/value_codes.hpp>
#include <netser/visitor.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>

// Scalars: the fixed-width codes (bool, integers, enums, floats; see value_codes.hpp),
// common values around them, and finite floats.

namespace netser::detail {

template <stream S, class T, class E>
    requires is_fixed_width<E>
NETSER_INLINE bool apply_encoding(S& s, T& v, const E& e) noexcept {
    return serialize_code(s, v, e);
}

// common(values...): a flag bit, then the index among the values or the plain encoding.
template <class P, stream S, class T>
NETSER_INLINE bool serialize_with_common(S& s, T& v) {
    constexpr auto plain = plain_encoding_of<P, T>();
    if constexpr (has_attr<P, attr_kind::common>) {
        constexpr auto c = P::value.template get<attr_kind::common>();
        constexpr std::size_t k = std::size(c.values);
        constexpr int index_bits = bits_required_for_span(k - 1);
        if constexpr (std::is_integral_v<T>) {
            constexpr bool fits = [&] {
                for (auto x : c.values)
                    if (!std::in_range<T>(x)) return false;
                return true;
            }();
            static_assert(fits, "netser: every netser::common value must be representable in the member's type");
        }
        const std::size_t at = s.bits_processed();
        std::uint64_t index = k;
        if constexpr (!S::is_reading) {
            for (std::size_t i = 0; i < k; ++i)
                if (v == static_cast<T>(c.values[i])) {
                    index = i;
                    break;
                }
        }
        bool is_common = index < k;
        if (!serialize_bool(s, is_common)) return false;
        // A failure anywhere in the value is reported at its first bit, the flag.
        if (!is_common) return serialize_code(s, v, plain) || failed_from(s, at);
        if (!s.process_bits(index, index_bits)) return failed_from(s, at);
        if constexpr (S::is_reading) {
            if (index >= k) [[unlikely]] return s.fail(errc::out_of_range, at);
            v = static_cast<T>(c.values[index]);
        }
        return true;
    } else {
        return serialize_code(s, v, plain);
    }
}

template <stream S, class T, class P>
NETSER_INLINE bool apply_encoding(S& s, T& v, common_encoding<P>) {
    return serialize_with_common<P>(s, v);
}

// finite: NaN and infinities fail the write and the read.
template <stream S, class T, class P>
NETSER_INLINE bool apply_encoding(S& s, T& v, finite_encoding<P>) {
    const std::size_t at = s.bits_processed();
    if constexpr (!S::is_reading)
        if (!fp::is_finite(v)) [[unlikely]] return s.fail(errc::invalid_value, at);
    if (!serialize_with_common<P>(s, v)) return false;
    if constexpr (S::is_reading)
        if (!fp::is_finite(v)) [[unlikely]] return s.fail(errc::invalid_value, at);
    return true;
}

} // namespace netser::detail
