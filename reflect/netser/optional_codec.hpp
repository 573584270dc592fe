#pragma once

#include <netser/bits_required.hpp>
#include <netser/description.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/encoding.hpp>
#include <netser/primitives.hpp>
#include <netser/visitor.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

// Values that may be absent or one of several: std::optional and std::unique_ptr (a
// presence bit, then the value), std::variant (the index, then the alternative).
// Delta: the presence bit or the index, then the value's delta body when the baseline
// has a value of the same kind, else the value whole.

namespace netser::detail {

// The presence bit of an optional or unique_ptr v: written from v, or read into it (a
// reader resets v, or gives it a default value to read into). False when the stream
// failed; `present` says whether a value follows.
template <stream S, class T>
NETSER_INLINE bool serialize_presence(S& s, T& v, bool& present) {
    present = static_cast<bool>(v);
    if (!serialize_bool(s, present)) return false;
    if constexpr (S::is_reading) {
        if (present) engage(v);
        else v.reset();
    }
    return true;
}

template <stream S, class T, class P>
NETSER_INLINE bool apply_encoding(S& s, T& v, optional_encoding<P>) {
    bool present;
    return serialize_presence(s, v, present) && (!present || serialize_value<P>(s, *v));
}

// The same for a value with a value encoding: one function per stream, type and kind
// of encoding, whatever its parameters.
template <stream S, class T, class E>
NETSER_INLINE bool apply_encoding(S& s, std::optional<T>& v, const optional_value<E>& e) {
    bool present;
    return serialize_presence(s, v, present) && (!present || apply_encoding(s, *v, e.value));
}

// A variant's index, as a profile's own row ("command.index()").
template <stream S>
NETSER_INLINE bool process_variant_index(S& s, std::uint64_t& index, int bits) {
    if constexpr (profiling_stream<S>) {
        s.enter_index();
        const bool ok = s.process_bits(index, bits);
        s.leave();
        return ok;
    } else {
        return s.process_bits(index, bits);
    }
}

// An alternative, named by its type in the error path and the profile ("command<Move>").
template <stream S, class A>
NETSER_COLD bool failed_in_alternative(S& s) noexcept {
    s.error().prepend_alternative(value_name<A>());
    return false;
}
template <stream S, class A, class F>
NETSER_INLINE bool with_alternative_name(S& s, F&& f) {
    if constexpr (profiling_stream<S>) s.enter_alternative(value_name<A>());
    const bool ok = f();
    if constexpr (profiling_stream<S>) s.leave();
    return ok || failed_in_alternative<S, A>(s);
}

// Alternative I of v (a reader makes it the held one first).
template <std::size_t I, stream S, class... E>
NETSER_INLINE bool serialize_alternative(S& s, std::variant<E...>& v) {
    using A = std::variant_alternative_t<I, std::variant<E...>>;
    if constexpr (S::is_reading) v.template emplace<I>();
    A& alternative = *std::get_if<I>(&v);
    return with_alternative_name<S, A>(s, [&] { return serialize_value<no_attrs>(s, alternative); });
}

// Alternative `index` of v (below N).
template <stream S, class... E, std::size_t... I>
NETSER_INLINE bool serialize_held(S& s, std::variant<E...>& v, std::uint64_t index, std::index_sequence<I...>) {
    bool ok = false;
    (void)((index == I && (ok = serialize_alternative<I>(s, v), true)) || ...);
    return ok;
}

// The index in bits_required(0, N - 1) bits, then the alternative (default encodings),
// chosen by comparing the index, not by std::visit: its table of function pointers
// keeps every alternative out of line.
template <stream S, class... E>
NETSER_INLINE_LARGE bool apply_encoding(S& s, std::variant<E...>& v, variant_encoding) {
    constexpr std::size_t n = sizeof...(E);
    const std::size_t at = s.bits_processed();
    std::uint64_t index = v.index();
    if constexpr (!S::is_reading)
        if (v.valueless_by_exception()) [[unlikely]] return s.fail(errc::invalid_value, at);
    if (!process_variant_index(s, index, bits_required_for_span(n - 1))) return false;
    if constexpr (S::is_reading)
        if (index >= n) [[unlikely]] return s.fail(errc::invalid_value, at);
    return serialize_held(s, v, index, std::index_sequence_for<E...>{});
}

// ---- delta --------------------------------------------------------------------------

template <class T, class P>
bool same_encoded(const T& v, const T& b, optional_encoding<P>) {
    if (!v || !b) return !v && !b;
    return same_value<P>(*v, *b);
}

template <stream S, class T, class P>
bool apply_delta(S& s, T& v, const T& b, optional_encoding<P>, const delta_params&) {
    bool present;
    if (!serialize_presence(s, v, present)) return false;
    if (!present) return true;
    if (b) return delta_body<P>(s, *v, *b);
    return serialize_value<P>(s, *v);
}

// f(alternative I of v) for the I that v holds.
template <class... E, class F>
bool with_alternative(std::size_t index, F&& f) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        bool result = false;
        (void)((index == I ? (result = f(std::integral_constant<std::size_t, I>{}), true) : false) || ...);
        return result;
    }(std::index_sequence_for<E...>{});
}

template <class... E>
bool same_encoded(const std::variant<E...>& v, const std::variant<E...>& b, variant_encoding) {
    if (v.index() != b.index() || v.valueless_by_exception()) return false;
    return with_alternative<E...>(v.index(), [&](auto i) {
        return same_value<no_attrs>(std::get<decltype(i)::value>(v), std::get<decltype(i)::value>(b));
    });
}

template <stream S, class... E>
bool apply_delta(S& s, std::variant<E...>& v, const std::variant<E...>& b, variant_encoding, const delta_params&) {
    constexpr std::size_t n = sizeof...(E);
    const std::size_t at = s.bits_processed();
    std::uint64_t index = v.index();
    if constexpr (!S::is_reading)
        if (v.valueless_by_exception()) [[unlikely]] return s.fail(errc::invalid_value, at);
    if (!process_variant_index(s, index, bits_required_for_span(n - 1))) return false;
    if constexpr (S::is_reading) {
        if (index >= n) [[unlikely]] return s.fail(errc::invalid_value, at);
    }
    return with_alternative<E...>(static_cast<std::size_t>(index), [&](auto i) {
        if constexpr (S::is_reading) v.template emplace<decltype(i)::value>();
        auto& alternative = std::get<decltype(i)::value>(v);
        using A = std::remove_cvref_t<decltype(alternative)>;
        return with_alternative_name<S, A>(s, [&] {
            if (b.index() == decltype(i)::value)
                return delta_body<no_attrs>(s, alternative, std::get<decltype(i)::value>(b));
            return serialize_value<no_attrs>(s, alternative);
        });
    });
}

template <class T, class P>
constexpr bit_bounds delta_bounds(optional_encoding<P>, const delta_params&) noexcept {
    using E = std::remove_cvref_t<decltype(*std::declval<T&>())>;
    const bit_bounds e = worst_of(delta_body_bounds<P, E>(), value_bounds<P, E>());
    return {0, 1 + e.max, e.bounded};
}

template <class T>
constexpr bit_bounds delta_bounds(variant_encoding, const delta_params&) noexcept {
    return []<class... E>(std::variant<E...>*) {
        const auto index_bits = static_cast<std::size_t>(bits_required_for_span(sizeof...(E) - 1));
        bit_bounds e{};
        ((e = worst_of(e, worst_of(delta_body_bounds<no_attrs, E>(), value_bounds<no_attrs, E>()))), ...);
        return bit_bounds{0, index_bits + e.max, e.bounded};
    }(static_cast<T*>(nullptr));
}

} // namespace netser::detail
