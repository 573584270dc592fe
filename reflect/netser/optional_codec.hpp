#pragma once

#include <netser/bits_required.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/encoding.hpp>
#include <netser/primitives.hpp>
#include <netser/visitor.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <variant>

// Values that may be absent or one of several: std::optional and std::unique_ptr (a
// presence bit, then the value), std::variant (the index, then the alternative).

namespace netser::detail {

template <stream S, class T, class P>
bool apply_encoding(S& s, T& v, optional_encoding<P>) {
    bool present = static_cast<bool>(v);
    if (!serialize_bool(s, present)) return false;
    if constexpr (S::is_reading) {
        if (!present) {
            v.reset();
            return true;
        }
        if constexpr (is_unique_ptr<T>::value) v = std::make_unique<typename T::element_type>();
        else v.emplace();
    }
    if (!present) return true;
    return serialize_value<P>(s, *v);
}

// The index in bits_required(0, N - 1) bits, then the alternative (default encodings).
template <stream S, class... E>
bool apply_encoding(S& s, std::variant<E...>& v, variant_encoding) {
    constexpr std::size_t n = sizeof...(E);
    const std::size_t at = s.bits_processed();
    std::uint64_t index = v.index();
    if constexpr (!S::is_reading)
        if (v.valueless_by_exception()) [[unlikely]] return s.fail(errc::invalid_value, at);
    if (!s.process_bits(index, bits_required_for_span(n - 1))) return false;
    if constexpr (S::is_reading) {
        if (index >= n) [[unlikely]] return s.fail(errc::invalid_value, at);
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (void)((index == I ? (v.template emplace<I>(), true) : false) || ...);
        }(std::index_sequence_for<E...>{});
    }
    return std::visit([&](auto& alternative) { return serialize_value<no_attrs>(s, alternative); }, v);
}

} // namespace netser::detail
