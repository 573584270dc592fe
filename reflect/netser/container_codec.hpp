#pragma once

#include <netser/attributes.hpp>
#include <netser/bits_required.hpp>
#include <netser/bounds.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/encoding.hpp>
#include <netser/primitives.hpp>
#include <netser/visitor.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// Containers: strings, arrays (no count on the wire), vectors, maps and sets (a count
// in [0, max_size], checked before anything is allocated, then the elements).

namespace netser::detail {

template <stream S>
bool apply_encoding(S& s, std::string& v, text_encoding e) {
    const std::size_t at = s.bits_processed();
    if (!S::is_reading && !e.raw_bytes && !valid_utf8(v)) [[unlikely]]
        return s.fail(errc::invalid_value, at);
    if (!serialize_string(s, v, e.max_length)) return false;
    if (S::is_reading && !e.raw_bytes && !valid_utf8(v)) [[unlikely]]
        return s.fail(errc::invalid_value, at);
    return true;
}

/// A count in [0, max]: checked against max (too_large) and, on read, against the bits
/// left for `min_element_bits` each (overflow), before anything is allocated.
template <stream S>
NETSER_INLINE bool serialize_count(S& s, std::uint64_t& count, std::size_t max,
                                   std::size_t min_element_bits) noexcept {
    const std::size_t at = s.bits_processed();
    if constexpr (!S::is_reading)
        if (count > max) [[unlikely]] return s.fail(errc::too_large, at);
    if (!s.process_bits(count, bits_required_for_span(max))) return false;
    if constexpr (S::is_reading) {
        if (count > max) [[unlikely]] return s.fail(errc::too_large, at);
        if (min_element_bits != 0 && count > s.bits_remaining() / min_element_bits) [[unlikely]]
            return s.fail(errc::overflow, at);
    }
    return true;
}

template <stream S, class T, class Allocator, class E>
bool apply_encoding(S& s, std::vector<T, Allocator>& v, sequence_encoding<E> e) {
    std::uint64_t count = v.size();
    if (!serialize_count(s, count, e.max_size, e.min_element_bits)) return false;
    if constexpr (S::is_reading) {
        v.clear();
        v.resize(static_cast<std::size_t>(count));
    }
    for (std::size_t i = 0; i < v.size(); ++i)
        if (!apply_encoding(s, v[i], e.element)) [[unlikely]] return fail_at_index(s, i);
    return true;
}

template <class P, stream S, class T>
bool serialize_elements(S& s, T* first, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        if constexpr (profiling_stream<S>) s.enter_element();
        const bool ok = serialize_value<P>(s, first[i]);
        if constexpr (profiling_stream<S>) s.leave();
        if (!ok) [[unlikely]] return fail_at_index(s, i);
    }
    return true;
}

// The elements of a std::array or C array, as a pointer and a count.
template <class T>
NETSER_INLINE auto* array_data(T& v) noexcept {
    if constexpr (std::is_array_v<T>) return &v[0];
    else return v.data();
}
template <class T>
constexpr std::size_t array_size() noexcept {
    if constexpr (std::is_array_v<T>) return std::extent_v<T>;
    else return std::tuple_size<T>::value;
}

template <stream S, class T, class P>
NETSER_INLINE bool apply_encoding(S& s, T& v, array_encoding<P>) {
    return serialize_elements<P>(s, array_data(v), array_size<T>());
}

template <stream S, class T, class P>
bool apply_encoding(S& s, T& v, vector_encoding<P>) {
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    using EP = without<P, attr_kind::max_size>;
    using E = typename T::value_type;
    std::uint64_t count = v.size();
    if (!serialize_count(s, count, max, min_bits_value<EP, E>())) return false;
    if constexpr (S::is_reading) {
        v.clear();
        v.resize(static_cast<std::size_t>(count));
    }
    if constexpr (std::is_same_v<E, bool>) {
        for (std::size_t i = 0; i < v.size(); ++i) {
            bool b = v[i];
            if (!serialize_value<EP>(s, b)) [[unlikely]] return fail_at_index(s, i);
            if constexpr (S::is_reading) v[i] = b;
        }
        return true;
    } else {
        return serialize_elements<EP>(s, v.data(), v.size());
    }
}

// std::map / std::unordered_map (attributes apply to the mapped values) and std::set
// (they apply to the keys). A key sent twice fails the read with invalid_value.
template <stream S, class T, class P>
bool apply_encoding(S& s, T& c, associative_encoding<P>) {
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    using EP = without<P, attr_kind::max_size>;
    using K = typename T::key_type;
    constexpr bool is_map_type = is_map<T>::value;
    using KP = std::conditional_t<is_map_type, no_attrs, EP>;
    constexpr std::size_t min_element = [] {
        if constexpr (is_map_type) return min_bits_value<KP, K>() + min_bits_value<EP, typename T::mapped_type>();
        else return min_bits_value<KP, K>();
    }();
    std::uint64_t count = c.size();
    if (!serialize_count(s, count, max, min_element)) return false;
    if constexpr (S::is_reading) {
        c.clear();
        for (std::size_t i = 0; i < count; ++i) {
            const std::size_t at = s.bits_processed();
            K key{};
            if (!serialize_value<KP>(s, key)) [[unlikely]] return fail_at_index(s, i);
            bool inserted = false;
            if constexpr (is_map_type) {
                typename T::mapped_type value{};
                if (!serialize_value<EP>(s, value)) [[unlikely]] return fail_at_index(s, i);
                inserted = c.emplace(std::move(key), std::move(value)).second;
            } else {
                inserted = c.insert(std::move(key)).second;
            }
            if (!inserted) [[unlikely]] {
                s.fail(errc::invalid_value, at);
                return fail_at_index(s, i);
            }
        }
        return true;
    } else {
        std::size_t i = 0;
        for (auto& element : c) {
            if constexpr (is_map_type) {
                K key = element.first;
                if (!serialize_value<KP>(s, key) || !serialize_value<EP>(s, element.second)) [[unlikely]]
                    return fail_at_index(s, i);
            } else {
                K key = element;
                if (!serialize_value<KP>(s, key)) [[unlikely]] return fail_at_index(s, i);
            }
            ++i;
        }
        return true;
    }
}

} // namespace netser::detail
