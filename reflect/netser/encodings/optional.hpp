#pragma once

#include <netser/bits_required.hpp>
#include <netser/description.hpp>
#include <netser/detail/schema_hasher.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/protocol.hpp>
#include <netser/primitives.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

// Values that may be absent or one of several: std::optional and std::unique_ptr (a
// presence bit, then the value), std::variant (the index, then the alternative).
// Delta: the presence bit or the index, then the value's delta body when the baseline
// has a value of the same kind, else the value whole.

namespace netser::detail {

// ---- classification -------------------------------------------------------------

/// std::optional and std::unique_ptr: the value takes the attributes.
template <class P, class T, bool Shallow>
constexpr auto optional_encoding_of() noexcept {
    using E = std::remove_cvref_t<decltype(*std::declval<T&>())>;
    return valid_or<P, misuse_of<P, E, Shallow>, optional_encoding<P>>{};
}

/// std::variant: no attribute (an alternative has no member to take it); every
/// alternative must have an encoding of its own.
template <class P, class T, bool Shallow>
constexpr auto variant_encoding_of() noexcept {
    if constexpr (pack_of<P>::encoding_size != 0) {
        return invalid_encoding<P, misuse::variant_attribute>{};
    } else {
        constexpr bool alternatives_ok = []<class... E>(std::variant<E...>*) {
            return first_of({misuse::none, misuse_of<no_attrs, E, Shallow>...}) == misuse::none;
        }(static_cast<T*>(nullptr));
        return valid_or<P, alternatives_ok ? misuse::none : misuse::variant_alternative, variant_encoding>{};
    }
}


// The presence bit of an optional or unique_ptr v: written from v, or read into it (a
// reader resets v, or gives it a default value to read into). False when the stream
// failed; `present` says whether a value follows.
template <stream S, class T>
NETSER_INLINE bool serialize_presence(S& s, T& v, bool& present) {
    present = static_cast<bool>(v);
    if (!serialize_bool(s, present)) return false;
    if constexpr (S::is_reading) {
        if (present) {
            if constexpr (is_unique_ptr<T>::value) // an owned object paid for by its presence bit, unless large
                if (!charge_allocation(s, 1, sizeof(typename T::element_type), 1, s.bits_processed() - 1))
                    return false;
            engage(v);
        } else {
            v.reset();
        }
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

// f(std::integral_constant<std::size_t, I>{}) for the I that equals index (below
// sizeof...(I)); chosen by comparing the index, not by std::visit: its table of
// function pointers keeps every alternative out of line.
template <class F, std::size_t... I>
NETSER_INLINE bool with_index(std::size_t index, F& f, std::index_sequence<I...>) {
    bool result = false;
    (void)((index == I && (result = f(std::integral_constant<std::size_t, I>{}), true)) || ...);
    return result;
}
template <class... E, class F>
NETSER_INLINE bool with_alternative(std::size_t index, F&& f) {
    return with_index(index, f, std::index_sequence_for<E...>{});
}

// A variant's index (v.index() when writing) in bits_required(0, N - 1) bits: written
// (a valueless v fails), or read and checked below N.
template <stream S, class... E>
NETSER_INLINE bool serialize_variant_index(S& s, const std::variant<E...>& v, std::uint64_t& index) {
    constexpr std::size_t n = sizeof...(E);
    const std::size_t at = s.bits_processed();
    if constexpr (!S::is_reading)
        if (v.valueless_by_exception()) [[unlikely]] return s.fail(errc::invalid_value, at);
    if (!process_variant_index(s, index, bits_required_for_span(n - 1))) return false;
    if constexpr (S::is_reading)
        if (index >= n) [[unlikely]] return s.fail(errc::invalid_value, at);
    return true;
}

// Alternative I of v (a reader makes it the held one first): whole, or as a delta body
// against b's when B is a variant pointer and *b holds alternative I too.
template <std::size_t I, stream S, class... E, class B = std::nullptr_t>
NETSER_INLINE bool serialize_alternative(S& s, std::variant<E...>& v, B b = nullptr) {
    using A = std::variant_alternative_t<I, std::variant<E...>>;
    if constexpr (S::is_reading) v.template emplace<I>();
    A& alternative = *std::get_if<I>(&v);
    return with_alternative_name<S, A>(s, [&] {
        if constexpr (!std::is_same_v<B, std::nullptr_t>)
            if (b->index() == I) return delta_body<no_attrs>(s, alternative, *std::get_if<I>(b));
        return serialize_value<no_attrs>(s, alternative);
    });
}

// The index, then the alternative (default encodings).
template <stream S, class... E>
NETSER_INLINE_LARGE bool apply_encoding(S& s, std::variant<E...>& v, variant_encoding) {
    std::uint64_t index = v.index();
    if (!serialize_variant_index(s, v, index)) return false;
    return with_alternative<E...>(static_cast<std::size_t>(index),
                                  [&](auto i) NETSER_INLINE_LAMBDA { return serialize_alternative<i()>(s, v); });
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

template <class... E>
bool same_encoded(const std::variant<E...>& v, const std::variant<E...>& b, variant_encoding) {
    if (v.index() != b.index() || v.valueless_by_exception()) return false;
    return with_alternative<E...>(v.index(), [&](auto i) {
        return same_value<no_attrs>(std::get<decltype(i)::value>(v), std::get<decltype(i)::value>(b));
    });
}

template <stream S, class... E>
bool apply_delta(S& s, std::variant<E...>& v, const std::variant<E...>& b, variant_encoding, const delta_params&) {
    std::uint64_t index = v.index();
    if (!serialize_variant_index(s, v, index)) return false;
    return with_alternative<E...>(static_cast<std::size_t>(index),
                                  [&](auto i) NETSER_INLINE_LAMBDA { return serialize_alternative<i()>(s, v, &b); });
}

// ---- bounds -------------------------------------------------------------------------

// The presence bit, then the value.
template <class P, class T, class Q>
constexpr bit_bounds family_bounds(optional_encoding<Q>) noexcept {
    using E = std::remove_cvref_t<decltype(*std::declval<T&>())>;
    constexpr bit_bounds e = value_bounds<P, E>();
    return {1, 1 + e.max, e.bounded};
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(optional_encoding<Q>) noexcept {
    return 1;
}

// The index, then the alternative.
template <class P, class T>
constexpr bit_bounds family_bounds(variant_encoding) noexcept {
    return []<class... E>(std::variant<E...>*) {
        const auto index_bits = static_cast<std::size_t>(bits_required_for_span(sizeof...(E) - 1));
        // Each alternative's bounds once (a constant evaluation is not memoized).
        constexpr bit_bounds alternatives[] = {value_bounds<no_attrs, E>()...};
        bit_bounds all{~std::size_t{0}, 0, true};
        for (const bit_bounds& b : alternatives) {
            all.min = b.min < all.min ? b.min : all.min;
            all.max = b.max > all.max ? b.max : all.max;
            all.bounded = all.bounded && b.bounded;
        }
        return bit_bounds{index_bits + all.min, index_bits + all.max, all.bounded};
    }(static_cast<T*>(nullptr));
}
template <class P, class T>
constexpr std::size_t family_min_bits(variant_encoding) noexcept {
    return static_cast<std::size_t>(bits_required_for_span(std::variant_size_v<T> - 1));
}

// ---- delta bounds -------------------------------------------------------------------

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

// ---- schema node ----------------------------------------------------------------------

template <class P>
inline constexpr std::string_view schema_delta_body<optional_encoding<P>> = "optional";
template <>
inline constexpr std::string_view schema_delta_body<variant_encoding> = "variant";

template <class P, class T, class B, class Q>
bool family_schema(B& b, optional_encoding<Q>) {
    schema_string(b, "kind", "optional");
    schema_string(b, "holder", is_optional<T>::value ? "optional" : "unique_ptr");
    b.out.key("value");
    schema_encoding<P, std::remove_cvref_t<decltype(*std::declval<T&>())>>(b);
    return true;
}

template <class P, class T, class B>
bool family_schema(B& b, variant_encoding) {
    schema_string(b, "kind", "variant");
    schema_integer(b, "index_bits", bits_required_for_span(std::variant_size_v<T> - 1));
    b.out.key("alternatives");
    b.out.begin_array();
    [&]<class... E>(std::variant<E...>*) {
        (schema_part<no_attrs, E>(b, schema_type_string<E>(b), false), ...);
    }(static_cast<T*>(nullptr));
    b.out.end_array();
    return true;
}

// ---- the types on their own: schema hash tokens and type names --------------------------

struct optional_type_tag {}; // std::optional, std::unique_ptr (the same wire)
struct variant_type_tag {};

// What an optional or a unique_ptr holds.
template <class T>
using held_type_t = std::remove_cvref_t<decltype(*std::declval<T&>())>;

template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, optional_type_tag) noexcept {
    h.text("optional");
    hash_type<held_type_t<T>, Visiting...>(h);
}
template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, variant_type_tag) noexcept {
    []<class... E>(schema_hasher& hh, std::variant<E...>*) {
        hh.text("variant");
        hh.number(sizeof...(E));
        (hash_type<E, Visiting...>(hh), ...);
    }(h, static_cast<T*>(nullptr));
}

template <class T, class B>
void family_type_name(B& b, std::string& s, optional_type_tag) {
    s += is_unique_ptr<T>::value ? "unique_ptr<" : "optional<";
    schema_type_name<held_type_t<T>>(b, s);
    s += '>';
}
template <class T, class B>
void family_type_name(B& b, std::string& s, variant_type_tag) {
    [&]<class... E>(std::variant<E...>*) {
        s += "variant<";
        bool first = true;
        ((s += first ? "" : ", ", first = false, schema_type_name<E>(b, s)), ...);
        s += '>';
    }(static_cast<T*>(nullptr));
}

} // namespace netser::detail
