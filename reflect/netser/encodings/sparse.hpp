#pragma once

#include <netser/attributes.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/container.hpp>
#include <netser/encodings/optional.hpp>
#include <netser/encodings/protocol.hpp>
#include <netser/relative_index.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>

// netser::sparse (the sparse array of Glenn Fiedler's "Serialization Strategies"): the
// present elements of an array of optionals as (relative index, value) pairs, then the
// end sentinel (the slot count). Delta: by slot, the slots that changed.

namespace netser::detail {

/// The tag of a netser::sparse array of optionals, with its attributes P.
template <class P>
struct sparse_encoding {};

// ---- classification -------------------------------------------------------------

/// netser::sparse: an array of optionals, or a vector of them with max_size; the
/// elements' values take the other attributes.
template <class P, class T, bool Shallow>
constexpr auto sparse_encoding_of() noexcept {
    if constexpr (!has_optional_elements<T>) {
        return invalid_encoding<P, misuse::sparse>{};
    } else if constexpr (is_vector<T>::value && !has_attr<P, attr_kind::max_size>) {
        return invalid_encoding<P, misuse::vector_max_size>{};
    } else {
        using EP = without<P, attr_kind::sparse, attr_kind::max_size>;
        return valid_or<P, misuse_of<EP, typename T::value_type::value_type, Shallow>, sparse_encoding<P>>{};
    }
}


template <stream S, class T, class P>
bool apply_encoding(S& s, T& v, sparse_encoding<P>) {
    using EP = without<P, attr_kind::sparse, attr_kind::max_size>;
    if constexpr (is_vector<T>::value) {
        constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
        static_assert(max < 0x7fffffff, "netser: netser::sparse supports at most 2^31 - 2 slots");
        std::uint64_t count = v.size();
        // Absent slots take no bits: the allocation budget is what bounds them.
        if (!serialize_count(s, count, max, 0, element_footprint<T>())) return false;
        if constexpr (S::is_reading) {
            v.clear();
            v.resize(static_cast<std::size_t>(count));
        }
    } else {
        static_assert(std::tuple_size_v<T> < 0x7fffffff, "netser: netser::sparse supports at most 2^31 - 2 slots");
        if constexpr (S::is_reading)
            for (auto& e : v) e.reset();
    }
    const int slots = static_cast<int>(v.size());
    int previous = -1;
    if constexpr (S::is_reading) {
        for (;;) { // ends: every index is larger than the last, and slots is the largest
            int current = 0;
            if (!serialize_relative_index(s, previous, current, slots)) return false;
            if (current == slots) return true;
            auto& slot = v[static_cast<std::size_t>(current)];
            slot.emplace();
            if (!serialize_value<EP>(s, *slot)) [[unlikely]] return fail_at_index(s, static_cast<std::size_t>(current));
        }
    } else {
        for (int i = 0; i < slots; ++i) {
            auto& slot = v[static_cast<std::size_t>(i)];
            if (!slot) continue;
            int current = i;
            if (!serialize_relative_index(s, previous, current, slots) || !serialize_value<EP>(s, *slot)) [[unlikely]]
                return fail_at_index(s, static_cast<std::size_t>(i));
        }
        int end = slots;
        return serialize_relative_index(s, previous, end, slots);
    }
}

template <class T, class P>
bool same_encoded(const T& v, const T& b, sparse_encoding<P>) {
    using EP = without<P, attr_kind::sparse, attr_kind::max_size>;
    if (v.size() != b.size()) return false;
    if constexpr (is_vector<T>::value)
        if (v.size() > P::value.template get<attr_kind::max_size>().n) return false;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i] || !b[i]) {
            if (v[i] || b[i]) return false;
        } else if (!same_value<EP>(*v[i], *b[i])) {
            return false;
        }
    }
    return true;
}

// Delta by slot: the slots that appeared, disappeared or changed, named as an array's
// (or a vector's) changed elements are; each one's body is its presence bit, then, when
// present, the value's delta body if the baseline's slot held one, else its plain
// encoding (an optional's delta body). A vector's new slots: presence bit and value.
template <stream S, class T, class P>
bool apply_delta(S& s, T& v, const T& b, sparse_encoding<P>, const delta_params&) {
    using EP = without<P, attr_kind::sparse, attr_kind::max_size>;
    constexpr optional_encoding<EP> slot{};
    const auto changed = [&](std::size_t i) { return !same_encoded(v[i], b[i], slot); };
    const auto body = [&](std::size_t i) { return apply_delta(s, v[i], b[i], slot, delta_params{}) || fail_at_index(s, i); };
    if constexpr (is_vector<T>::value) {
        constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
        return delta_vector(s, v, b, max, 1, changed, body,
                            [&](std::size_t i) { return apply_encoding(s, v[i], slot) || fail_at_index(s, i); });
    } else {
        return delta_elements(s, v.size(), changed, body, [&](std::size_t i) { copy_value(v[i], b[i]); });
    }
}

// The (relative index, value) pairs and the end sentinel, after the slot count of a
// vector; an empty array is its end sentinel alone.
template <class P, class T, class Q>
constexpr bit_bounds family_bounds(sparse_encoding<Q>) noexcept {
    using E = typename T::value_type::value_type;
    constexpr bit_bounds e = value_bounds<without<P, attr_kind::sparse, attr_kind::max_size>, E>();
    if constexpr (is_vector<T>::value) {
        constexpr std::size_t n = P::value.template get<attr_kind::max_size>().n;
        const auto count_bits = static_cast<std::size_t>(bits_required_for_span(n));
        const auto index_bits = static_cast<std::size_t>(relative_index_max_bits(static_cast<int>(n)));
        return {count_bits + 1, count_bits + (n + 1) * index_bits + n * e.max, e.bounded};
    } else {
        constexpr std::size_t n = std::tuple_size_v<T>;
        const auto index_bits = static_cast<std::size_t>(relative_index_max_bits(static_cast<int>(n)));
        return {1, (n + 1) * index_bits + n * e.max, e.bounded};
    }
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(sparse_encoding<Q>) noexcept {
    return 1;
}

template <class T, class P>
constexpr bit_bounds delta_bounds(sparse_encoding<P>, const delta_params&) noexcept {
    using EP = without<P, attr_kind::sparse, attr_kind::max_size>;
    using E = typename T::value_type::value_type;
    // A slot's body: the presence bit, then the larger of the value's delta body and plain.
    constexpr bit_bounds body = bit_bounds{0, 1} + worst_of(delta_body_bounds<EP, E>(), value_bounds<EP, E>());
    if constexpr (is_vector<T>::value) {
        return vector_delta_bounds(P::value.template get<attr_kind::max_size>().n, body,
                                   bit_bounds{0, 1} + value_bounds<EP, E>());
    } else {
        constexpr std::size_t n = std::tuple_size_v<T>;
        return {0, 1 + n + n * body.max, body.bounded};
    }
}

template <class T, class P>
constexpr std::string_view family_delta_form(sparse_encoding<P>) noexcept {
    return is_vector<T>::value ? "vector_slots" : "slots";
}

// ---- schema node ----------------------------------------------------------------------

template <class P, class T, class B, class Q>
bool family_schema(B& b, sparse_encoding<Q>) {
    using EP = without<P, attr_kind::sparse, attr_kind::max_size>;
    schema_string(b, "kind", "sparse");
    if constexpr (is_vector<T>::value) {
        constexpr std::size_t n = P::value.template get<attr_kind::max_size>().n;
        schema_string(b, "container", "vector");
        schema_integer(b, "max_size", n);
        schema_integer(b, "count_bits", bits_required_for_span(n));
    } else {
        schema_string(b, "container", "array");
        schema_integer(b, "length", std::tuple_size_v<T>);
    }
    b.out.key("element");
    schema_encoding<EP, typename T::value_type::value_type>(b);
    return true;
}

} // namespace netser::detail
