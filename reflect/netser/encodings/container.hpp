#pragma once

#include <netser/attributes.hpp>
#include <netser/bits_required.hpp>
#include <netser/bounds.hpp>
#include <netser/detail/schema_hasher.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/protocol.hpp>
#include <netser/encodings/scalar.hpp> // the fixed-width elements of sequences (same_encoded, apply_delta)
#include <netser/primitives.hpp>
#include <netser/relative_index.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// Containers: strings, arrays (no count on the wire), vectors, maps and sets (a count
// in [0, max_size], checked before anything is allocated, then the elements).
// Delta: arrays and vectors send only the elements that changed (delta_elements);
// a changed string is sent whole; maps and sets go by key (encodings/keyed.hpp).

namespace netser::detail {

// ---- classification -------------------------------------------------------------

/// std::array and C arrays: every element with the array's attributes.
template <class P, class T, bool Shallow>
constexpr auto array_encoding_of() noexcept {
    if constexpr (std::is_array_v<T>)
        return valid_or<P, misuse_of<P, std::remove_extent_t<T>, Shallow>, array_encoding<P>>{};
    else
        return valid_or<P, misuse_of<P, typename T::value_type, Shallow>, array_encoding<P>>{};
}

/// std::string: max_length required, raw_bytes allowed, nothing else.
template <class P, class T>
constexpr auto text_encoding_of() noexcept {
    if constexpr (!has_attr<P, attr_kind::max_length>)
        return invalid_encoding<P, misuse::string_max_length>{};
    else if constexpr (!only_kinds<P, attr_kind::max_length, attr_kind::raw_bytes>)
        return invalid_encoding<P, misuse::string_attribute>{};
    else
        return text_encoding{P::value.template get<attr_kind::max_length>().n, has_attr<P, attr_kind::raw_bytes>};
}

/// std::vector: max_size required; the elements take the other attributes. A vector of
/// value encodings is a value itself (sequence_encoding), else the visitor walks it.
template <class P, class T, bool Shallow>
constexpr auto vector_encoding_of() noexcept {
    using E = typename T::value_type;
    using EP = without<P, attr_kind::max_size>;
    if constexpr (!has_attr<P, attr_kind::max_size>) {
        return invalid_encoding<P, misuse::vector_max_size>{};
    } else {
        constexpr auto element = classify<EP, E, shallow_for<Shallow, E>>();
        using EE = std::remove_const_t<decltype(element)>;
        if constexpr (is_invalid<EE>)
            return invalid_encoding<P, misuse_in<EE>>{};
        else if constexpr (std::is_same_v<E, bool> || !is_value_encoding<EE>)
            return vector_encoding<P>{};
        else
            return sequence_encoding<EE>{P::value.template get<attr_kind::max_size>().n, min_bits_value<EP, E>(),
                                         element};
    }
}

/// std::map, std::unordered_map, std::set, std::unordered_set: max_size required; keys
/// take no attribute, values (a set's keys) take the others.
template <class P, class T, bool Shallow>
constexpr auto associative_encoding_of() noexcept {
    using EP = without<P, attr_kind::max_size>;
    if constexpr (!has_attr<P, attr_kind::max_size>)
        return invalid_encoding<P, misuse::map_max_size>{};
    else if constexpr (is_map<T>::value)
        return valid_or<P,
                        first_of({misuse_of<no_attrs, typename T::key_type, Shallow>,
                                  misuse_of<EP, typename T::mapped_type, Shallow>}),
                        associative_encoding<P>>{};
    else
        return valid_or<P, misuse_of<EP, typename T::key_type, Shallow>, associative_encoding<P>>{};
}


template <stream S>
bool apply_encoding(S& s, std::string& v, text_encoding e) {
    return serialize_string_bytes(s, v, e.max_length, !e.raw_bytes); // serialize_string / serialize_raw_string
}

template <stream S>
bool apply_delta(S& s, std::string& v, const std::string&, text_encoding e, const delta_params&) {
    return apply_encoding(s, v, e);
}

/// A count in [0, max]: checked against max (too_large) and, on read, against the bits
/// left for `min_element_bits` each (overflow) and against the read's allocation budget
/// for `element_bytes` each (too_large, for elements their bits do not pay for), before
/// anything is allocated.
template <stream S>
NETSER_INLINE bool serialize_count(S& s, std::uint64_t& count, std::size_t max, std::size_t min_element_bits,
                                   std::size_t element_bytes) noexcept {
    const std::size_t at = s.bits_processed();
    if constexpr (!S::is_reading)
        if (count > max) [[unlikely]] return s.fail(errc::too_large, at);
    if (!s.process_bits(count, bits_required_for_span(max))) return false;
    if constexpr (S::is_reading) {
        if (count > max) [[unlikely]] return s.fail(errc::too_large, at);
        if (min_element_bits != 0 && count > s.bits_remaining() / min_element_bits) [[unlikely]]
            return s.fail(errc::overflow, at);
        return charge_allocation(s, static_cast<std::size_t>(count), element_bytes, min_element_bits, at);
    }
    return true;
}

/// What a reader charges its allocation budget per element of a container C: the
/// element, and for node-based containers (maps, sets) the node's links and, for hashed
/// ones, a bucket.
template <class C>
constexpr std::size_t element_footprint() noexcept {
    using V = typename C::value_type;
    if constexpr (std::is_same_v<V, bool>) return 1; // std::vector<bool>: a byte, generously
    else if constexpr (requires(const C& c) { c.bucket_count(); }) return sizeof(V) + 5 * sizeof(void*);
    else if constexpr (requires { typename C::key_type; }) return sizeof(V) + 4 * sizeof(void*);
    else return sizeof(V);
}

inline bool same_encoded(const std::string& v, const std::string& b, text_encoding e) noexcept {
    return v.size() <= e.max_length && v == b && (e.raw_bytes || is_valid_string(v));
}

template <stream S, class T, class Allocator, class E>
NETSER_INLINE_LARGE bool apply_encoding(S& s, std::vector<T, Allocator>& v, sequence_encoding<E> e) {
    std::uint64_t count = v.size();
    if (!serialize_count(s, count, e.max_size, e.min_element_bits, sizeof(T))) return false;
    // Every element's read assigns it, so the old elements need no reset (no memset).
    if constexpr (S::is_reading) v.resize(static_cast<std::size_t>(count));
    // Through a pointer and a count: a store to a char element may alias v's own
    // pointers, which would make v.size() and v[i] reload them on every element.
    T* const first = v.data();
    T* const last = first + v.size();
    for (T* p = first; p != last; ++p)
        if (!apply_encoding(s, *p, e.element)) [[unlikely]]
            return fail_at_index(s, static_cast<std::size_t>(p - first));
    return true;
}

// Elements that are one packed run each go a word at a time after one room check
// (serialize_packed_elements, encodings/struct.hpp); the others, and from the first bad
// code on, one by one.
template <class P, class S, class T>
inline constexpr bool packed_elements = !profiling_stream<S> && requires(S& s, T* first, std::size_t n) {
    { serialize_packed_elements(s, first, n, encoding_v<P, T>, std::false_type{}) } -> std::same_as<std::size_t>;
};

// stale: how many of the first elements hold a reused vector's old values, which a read
// starts from their defaults (packed elements only; the others are cleared before).
template <class P, bool Fresh = false, stream S, class T>
NETSER_INLINE_LARGE bool serialize_elements(S& s, T* first, std::size_t n, [[maybe_unused]] std::size_t stale = 0) {
    T* p = first;
    if constexpr (packed_elements<P, S, T>)
        p += serialize_packed_elements(s, first, n, encoding_v<P, T>, std::bool_constant<Fresh>{});
    for (T* last = first + n; p != last; ++p) {
        if constexpr (Fresh && S::is_reading)
            if (p < first + stale) *p = T{};
        if constexpr (profiling_stream<S>) s.enter_element();
        const bool ok = serialize_value<P>(s, *p);
        if constexpr (profiling_stream<S>) s.leave();
        if (!ok) [[unlikely]] return fail_at_index(s, static_cast<std::size_t>(p - first));
    }
    return true;
}

// The elements of a std::array or C array, as a pointer and a count.
template <class T>
NETSER_INLINE auto* array_data(T& v) noexcept { // T may be const
    if constexpr (std::is_array_v<T>) return &v[0];
    else return v.data();
}
template <class T>
constexpr std::size_t array_size() noexcept {
    if constexpr (std::is_array_v<T>) return std::extent_v<T>;
    else return std::tuple_size<T>::value;
}
template <class T>
using array_element_t = std::remove_cvref_t<decltype(*array_data(std::declval<T&>()))>;

// A short array element by element, without a loop, as a compiler unrolls a short
// hand-written loop (3 floats and 4 bytes: 0.82 times the hand-written instructions with
// g++ -O2, where the loop took 0.98 times; g++ -O3 still merges more of hand-written
// code's work: 1.14 times).
template <class P, stream S, class T, std::size_t... I>
NETSER_INLINE bool serialize_unrolled(S& s, T* first, std::index_sequence<I...>) {
    if constexpr (profiling_stream<S>) return serialize_elements<P>(s, first, sizeof...(I));
    else return ((serialize_value<P>(s, first[I]) || fail_at_index(s, I)) && ...);
}

template <stream S, class T, class P>
NETSER_INLINE bool apply_encoding(S& s, T& v, array_encoding<P>) {
    if constexpr (array_size<T>() <= 8) return serialize_unrolled<P>(s, array_data(v), std::make_index_sequence<array_size<T>()>{});
    else return serialize_elements<P>(s, array_data(v), array_size<T>());
}

template <stream S, class T, class P>
NETSER_INLINE_LARGE bool apply_encoding(S& s, T& v, vector_encoding<P>) {
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    using EP = without<P, attr_kind::max_size>;
    using E = typename T::value_type;
    std::uint64_t count = v.size();
    if (!serialize_count(s, count, max, min_bits_value<EP, E>(), element_footprint<T>())) return false;
    [[maybe_unused]] std::size_t stale = 0;
    if constexpr (S::is_reading) {
        // Every element starts from its default: a read of packed elements resets the
        // ones the vector kept (serialize_elements), the others are cleared first.
        if constexpr (packed_elements<EP, S, E>) stale = v.size() < count ? v.size() : static_cast<std::size_t>(count);
        else v.clear();
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
        return serialize_elements<EP, S::is_reading && packed_elements<EP, S, E>>(s, v.data(), v.size(), stale);
    }
}

// A hash table (std::unordered_map) filled from a packet: keys chosen to share a bucket
// would make each insertion walk all the others (23 s for a 1 MiB message), so a read
// refuses a key that makes its bucket hold more than max_keys_per_bucket (too_large).
// Keys a hash spreads fill a bucket that far with a chance below 1e-14 per bucket.
template <class T>
concept is_hashed = requires(const T& c) { c.bucket_count(); };

inline constexpr std::size_t max_keys_per_bucket = 16;

// Whether the bucket of the element at `it` holds more than max_keys_per_bucket keys.
// (Counted up to one more: the walk is as short as the bound, whatever the bucket.)
template <class T>
bool crowded_bucket(const T& c, typename T::const_iterator it) {
    const std::size_t bucket = [&] {
        if constexpr (is_map<T>::value) return c.bucket(it->first);
        else return c.bucket(*it);
    }();
    std::size_t keys = 0;
    for (auto i = c.begin(bucket), end = c.end(bucket); i != end; ++i)
        if (++keys > max_keys_per_bucket) return true;
    return false;
}

// ---- entries by key code: keyed deltas and hash tables' plain order ------------------

template <class E>
decltype(auto) entry_key(const E& e) noexcept {
    if constexpr (requires { e.first; }) return (e.first);
    else return (e);
}

inline constexpr std::size_t no_entry = static_cast<std::size_t>(-1);

// An entry of a container by its key's code: what keyed deltas sort and match.
struct keyed_entry {
    std::uint64_t code;
    std::size_t index;
};
constexpr bool operator<(const keyed_entry& a, const keyed_entry& b) noexcept {
    return a.code < b.code || (a.code == b.code && a.index < b.index);
}
// Sorts entries listed in index order by code, stably: a radix sort, least significant
// byte first, one pass per byte the largest code has (two for 16-bit ids). (No
// <algorithm> in reflect.hpp's diet, and qsort took half of a delta write's time.)
inline void sort_entries(std::vector<keyed_entry>& e) {
    std::uint64_t bits = 0;
    for (const keyed_entry& x : e) bits |= x.code;
    std::vector<keyed_entry> scratch(e.size());
    for (int shift = 0; shift < 64 && (bits >> shift) != 0; shift += 8) {
        std::size_t start[257] = {};
        for (const keyed_entry& x : e) ++start[((x.code >> shift) & 0xffu) + 1];
        for (std::size_t i = 0; i < 256; ++i) start[i + 1] += start[i];
        for (const keyed_entry& x : e) scratch[start[(x.code >> shift) & 0xffu]++] = x;
        e.swap(scratch);
    }
}

// Sorts entries listed in index order by code (an already sorted list, as a map's or a
// sorted vector's, is only checked); the index of an entry whose code another also has,
// or no_entry.
inline std::size_t sort_by_code(std::vector<keyed_entry>& e) {
    bool sorted = true;
    for (std::size_t i = 1; i < e.size() && sorted; ++i) sorted = !(e[i] < e[i - 1]);
    if (!sorted) sort_entries(e);
    for (std::size_t i = 1; i < e.size(); ++i)
        if (e[i].code == e[i - 1].code) return e[i].index > e[i - 1].index ? e[i].index : e[i - 1].index;
    return no_entry;
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
    if (!serialize_count(s, count, max, min_element, element_footprint<T>())) return false;
    if constexpr (S::is_reading) {
        if constexpr (is_hashed<T>) {
            // A table sized for the count alone, whatever c held: the same packet meets
            // the same buckets, and nothing rehashes while reading.
            T fresh(0, c.hash_function(), c.key_eq(), c.get_allocator());
            fresh.reserve(static_cast<std::size_t>(count));
            c.swap(fresh);
        } else {
            c.clear();
        }
        for (std::size_t i = 0; i < count; ++i) {
            const std::size_t at = s.bits_processed();
            K key{};
            if (!serialize_value<KP>(s, key)) [[unlikely]] return fail_at_index(s, i);
            std::pair<typename T::iterator, bool> inserted;
            if constexpr (is_map_type) {
                typename T::mapped_type value{};
                if (!serialize_value<EP>(s, value)) [[unlikely]] return fail_at_index(s, i);
                inserted = c.emplace(std::move(key), std::move(value));
            } else {
                inserted = c.insert(std::move(key));
            }
            if (!inserted.second) [[unlikely]] {
                s.fail(errc::invalid_value, at);
                return fail_at_index(s, i);
            }
            if constexpr (is_hashed<T>) {
                if (crowded_bucket(c, inserted.first)) [[unlikely]] {
                    s.fail(errc::too_large, at);
                    return fail_at_index(s, i);
                }
            }
        }
        return true;
    } else {
        const auto write_entry = [&](auto& element, std::size_t i) {
            if constexpr (is_map_type) {
                K key = element.first;
                if (!serialize_value<KP>(s, key) || !serialize_value<EP>(s, element.second)) [[unlikely]]
                    return fail_at_index(s, i);
            } else {
                K key = element;
                if (!serialize_value<KP>(s, key)) [[unlikely]] return fail_at_index(s, i);
            }
            return true;
        };
        if constexpr (is_hashed<T> && is_fixed_width<encoding_t<KP, K>>) {
            // A hash table's own order depends on its history and its library: its
            // entries go sorted by key code, so equal contents give equal bytes.
            std::vector<keyed_entry> keys;
            std::vector<decltype(&*c.begin())> entries;
            keys.reserve(c.size());
            entries.reserve(c.size());
            for (auto& element : c) {
                std::uint64_t code = 0;
                if (const errc e = to_code(entry_key(element), encoding_v<KP, K>, code); e != errc::none) [[unlikely]] {
                    s.fail(e, s.bits_processed());
                    return fail_at_index(s, entries.size());
                }
                keys.push_back({code, entries.size()});
                entries.push_back(&element);
            }
            sort_by_code(keys);
            for (std::size_t i = 0; i < keys.size(); ++i)
                if (!write_entry(*entries[keys[i].index], i)) [[unlikely]] return false;
        } else {
            std::size_t i = 0;
            for (auto& element : c)
                if (!write_entry(element, i++)) [[unlikely]] return false;
        }
        return true;
    }
}

// ---- delta --------------------------------------------------------------------------

// The changed tests of a writer's first elements, made while it chooses how to name
// them and remembered for the writing (each element is tested once).
class changed_memo {
public:
    static constexpr std::size_t capacity = 4096;
    /// Tests elements from 0 while keep_going(i), remembering the first `capacity`.
    template <class Changed, class KeepGoing, class Each>
    NETSER_INLINE void test(std::size_t n, Changed& changed, KeepGoing&& keep_going, Each&& each) {
        const std::size_t remembered = n < capacity ? n : capacity;
        for (std::size_t w = 0; w * 64 < remembered; ++w) words_[w] = 0;
        std::size_t i = 0;
        for (; i < n && keep_going(); ++i) {
            const bool c = changed(i);
            if (i < capacity) words_[i / 64] |= std::uint64_t{c ? 1u : 0u} << (i % 64);
            if (c) each(i);
        }
        tested_ = i < capacity ? i : capacity;
    }
    template <class Changed>
    NETSER_INLINE bool changed(std::size_t i, Changed& test) const {
        if (i < tested_) return (words_[i / 64] >> (i % 64) & 1u) != 0;
        return test(i);
    }
    /// The first changed element from i on, or n: the remembered ones a word at a time.
    template <class Changed>
    NETSER_INLINE std::size_t next_changed(std::size_t i, std::size_t n, Changed& test) const {
        if (i < tested_) {
            for (;;) { // the bits past tested_ are clear
                const std::uint64_t rest = words_[i / 64] >> (i % 64);
                if (rest != 0) return i + static_cast<std::size_t>(std::countr_zero(rest));
                i = (i / 64 + 1) * 64;
                if (i >= tested_) break;
            }
            i = tested_; // the untested ones from here
        }
        while (i < n && !test(i)) ++i;
        return i;
    }

private:
    std::uint64_t words_[capacity / 64];
    std::size_t tested_ = 0;
};

/// The n elements of a container against the baseline's: a bit that says how the
/// changed ones are named, then either (0) a changed bit per element or (1) the relative
/// index of each changed one (serialize_relative_index, the ladder of Fiedler's
/// "Serialization Strategies") and the end index n, whichever takes fewer bits (a tie:
/// the changed bits); each changed
/// element is followed by its delta body. changed(i) says whether element i changed
/// (writers), body(i) sends or reads its body, keep(i) gives a reader's element i the
/// baseline's value.
struct no_flags {};
template <stream S, class Changed, class Body, class Keep, class Flags = no_flags>
bool delta_elements(S& s, std::size_t n, Changed&& changed, Body&& body, Keep&& keep, Flags&& flags = {}) {
    const int count = static_cast<int>(n);
    bool listed = false;
    [[maybe_unused]] changed_memo memo;
    // A range stream codes each changed bit in a context of the baseline element's flags.
    constexpr bool flagged = requires { s.element_flags(flags(std::size_t{0})); };
    if constexpr (!S::is_reading && requires { S::listed_below_one_in; }) {
        std::size_t changes = 0;
        memo.test(n, changed, [&] { return changes * S::listed_below_one_in < n; }, [&](std::size_t) { ++changes; });
        listed = changes * S::listed_below_one_in < n;
    } else if constexpr (!S::is_reading) {
        std::size_t cost = 0;
        int previous = -1;
        memo.test(n, changed, [&] { return cost < n; }, [&](std::size_t i) {
            const int current = static_cast<int>(i);
            cost += static_cast<std::size_t>(relative_index_bits(current - previous, count));
            previous = current;
        });
        if (cost < n) cost += static_cast<std::size_t>(relative_index_bits(count - previous, count));
        listed = cost < n;
    }
    if (!serialize_bool(s, listed)) return false;
    if (!listed) {
        for (std::size_t i = 0; i < n; ++i) {
            bool is_changed = false;
            if constexpr (!S::is_reading) is_changed = memo.changed(i, changed);
            if constexpr (flagged) s.element_flags(flags(i));
            if (!serialize_bool(s, is_changed)) [[unlikely]] return fail_at_index(s, i);
            if (is_changed) {
                if (!body(i)) [[unlikely]] return false;
            } else {
                if constexpr (flagged) s.element_flags(0);
                if constexpr (S::is_reading) keep(i);
            }
        }
        return true;
    }
    int previous = -1;
    if constexpr (S::is_reading) {
        // Ends: each index is above the last, and count is the largest.
        for (std::size_t next = 0;;) {
            int current = 0;
            if (!serialize_relative_index(s, previous, current, count)) return false;
            for (const auto index = static_cast<std::size_t>(current); next < index; ++next) keep(next);
            if (current == count) return true;
            if (!body(next)) [[unlikely]] return false;
            ++next;
        }
    } else {
        for (std::size_t i = memo.next_changed(0, n, changed); i < n; i = memo.next_changed(i + 1, n, changed)) {
            int current = static_cast<int>(i);
            if (!serialize_relative_index(s, previous, current, count)) [[unlikely]] return fail_at_index(s, i);
            if (!body(i)) [[unlikely]] return false;
        }
        int end = count;
        return serialize_relative_index(s, previous, end, count);
    }
}

// The delta body of element i, with its place in the error path and the profile.
template <class P, stream S, class T>
NETSER_INLINE bool element_delta(S& s, T& v, const T& b, std::size_t i) {
    if constexpr (profiling_stream<S>) s.enter_element();
    const bool ok = delta_body<P>(s, v, b);
    if constexpr (profiling_stream<S>) s.leave();
    return ok || fail_at_index(s, i);
}
template <class P, stream S, class T>
NETSER_INLINE bool element_plain(S& s, T& v, std::size_t i) {
    if constexpr (profiling_stream<S>) s.enter_element();
    const bool ok = serialize_value<P>(s, v);
    if constexpr (profiling_stream<S>) s.leave();
    return ok || fail_at_index(s, i);
}

inline constexpr std::size_t max_delta_elements = 0x7ffffffe; // the relative index is an int

template <class T, class P>
bool same_encoded(const T& v, const T& b, array_encoding<P>) {
    const auto* vd = array_data(v);
    const auto* bd = array_data(b);
    for (std::size_t i = 0; i < array_size<T>(); ++i)
        if (!same_value<P>(vd[i], bd[i])) return false;
    return true;
}

template <stream S, class T, class P>
bool apply_delta(S& s, T& v, const T& b, array_encoding<P>, const delta_params&) {
    static_assert(array_size<T>() <= max_delta_elements, "netser: delta compression of an array supports at most "
                                                         "2^31 - 2 elements");
    auto* vd = array_data(v);
    const auto* bd = array_data(b);
    return delta_elements(
        s, array_size<T>(), [&](std::size_t i) { return !same_value<P>(vd[i], bd[i]); },
        [&](std::size_t i) { return element_delta<P>(s, vd[i], bd[i], i); },
        [&](std::size_t i) { copy_value(vd[i], bd[i]); }, [&](std::size_t i) { return element_flags(bd[i]); });
}

// A vector against the baseline's: a bit set when the count is the baseline's, else the
// count as in the plain encoding; then the elements both have (delta_elements), then
// the new ones in their plain encoding. A reader checks the count against max_size and
// the new elements against the bits left before anything is allocated.
template <stream S, class V, class Changed, class Body, class Plain>
bool delta_vector(S& s, V& v, const V& b, std::size_t max, std::size_t min_element_bits, Changed&& changed,
                  Body&& body, Plain&& plain) {
    const std::size_t at = s.bits_processed();
    bool same_count = v.size() == b.size();
    if (!serialize_bool(s, same_count)) return false;
    std::uint64_t count = same_count ? b.size() : v.size();
    if (!same_count && !serialize_count(s, count, max, 0, 0)) return false;
    if constexpr (S::is_reading) {
        if (count > max) [[unlikely]] return s.fail(errc::too_large, at); // a baseline above max_size
        if (count > b.size()) { // the new elements: the baseline's are the reader's own
            const std::size_t added = static_cast<std::size_t>(count) - b.size();
            if (min_element_bits != 0 && added > s.bits_remaining() / min_element_bits) [[unlikely]]
                return s.fail(errc::overflow, at);
            if (!charge_allocation(s, added, element_footprint<V>(), min_element_bits, at)) return false;
        }
    }
    const std::size_t both = count < b.size() ? static_cast<std::size_t>(count) : b.size();
    if constexpr (S::is_reading) {
        // The new elements are read into fresh ones, as into a fresh vector: what v held
        // there before (members a read leaves alone, such as skip) is not kept.
        if (v.size() > both) v.resize(both);
        v.resize(static_cast<std::size_t>(count));
    }
    const auto keep = [&](std::size_t i) {
        if constexpr (std::is_same_v<V, std::vector<bool, typename V::allocator_type>>) v[i] = b[i];
        else copy_value(v[i], b[i]);
    };
    if (both != 0 &&
        !delta_elements(s, both, changed, body, keep, [&](std::size_t i) { return element_flags(b[i]); }))
        return false;
    for (std::size_t i = both; i < v.size(); ++i)
        if (!plain(i)) [[unlikely]] return false;
    return true;
}

template <class T, class Allocator, class E>
bool same_encoded(const std::vector<T, Allocator>& v, const std::vector<T, Allocator>& b, const sequence_encoding<E>& e) {
    if (v.size() != b.size() || v.size() > e.max_size) return false;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (!same_encoded(v[i], b[i], e.element)) return false;
    return true;
}

template <stream S, class T, class Allocator, class E>
bool apply_delta(S& s, std::vector<T, Allocator>& v, const std::vector<T, Allocator>& b, const sequence_encoding<E>& e,
                 const delta_params& p) {
    return delta_vector(
        s, v, b, e.max_size, e.min_element_bits, [&](std::size_t i) { return !same_encoded(v[i], b[i], e.element); },
        [&](std::size_t i) { return apply_delta(s, v[i], b[i], e.element, p) || fail_at_index(s, i); },
        [&](std::size_t i) { return apply_encoding(s, v[i], e.element) || fail_at_index(s, i); });
}

template <class T, class P>
bool same_encoded(const T& v, const T& b, vector_encoding<P>) {
    using EP = without<P, attr_kind::max_size>;
    using E = typename T::value_type;
    if (v.size() != b.size() || v.size() > P::value.template get<attr_kind::max_size>().n) return false;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if constexpr (std::is_same_v<E, bool>) { // std::vector<bool> has no element references
            if (v[i] != b[i]) return false;
        } else if (!same_value<EP>(v[i], b[i])) {
            return false;
        }
    }
    return true;
}

template <stream S, class T, class P>
bool apply_delta(S& s, T& v, const T& b, vector_encoding<P>, const delta_params&) {
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    static_assert(max <= max_delta_elements, "netser: delta compression of a vector supports at most 2^31 - 2 "
                                             "elements");
    using EP = without<P, attr_kind::max_size>;
    using E = typename T::value_type;
    if constexpr (std::is_same_v<E, bool>) {
        // A changed bool is the other one: the changed bit says it all.
        return delta_vector(
            s, v, b, max, 1, [&](std::size_t i) { return v[i] != b[i]; },
            [&](std::size_t i) {
                if constexpr (S::is_reading) v[i] = !b[i];
                return true;
            },
            [&](std::size_t i) {
                bool x = v[i];
                if (!serialize_value<EP>(s, x)) return fail_at_index(s, i);
                if constexpr (S::is_reading) v[i] = x;
                return true;
            });
    } else {
        return delta_vector(
            s, v, b, max, min_bits_value<EP, E>(), [&](std::size_t i) { return !same_value<EP>(v[i], b[i]); },
            [&](std::size_t i) { return element_delta<EP>(s, v[i], b[i], i); },
            [&](std::size_t i) { return element_plain<EP>(s, v[i], i); });
    }
}

// Maps and sets: the same keys with the same values (their delta: encodings/keyed.hpp).
template <class T, class P>
bool same_encoded(const T& v, const T& b, associative_encoding<P>) {
    using EP = without<P, attr_kind::max_size>;
    if (v.size() != b.size() || v.size() > P::value.template get<attr_kind::max_size>().n) return false;
    if constexpr (is_map<T>::value) {
        for (const auto& [key, value] : v) {
            const auto it = b.find(key);
            if (it == b.end() || !same_value<no_attrs>(key, it->first) || !same_value<EP>(value, it->second))
                return false;
        }
    } else { // by lookup: two equal hash sets need not list their keys in one order
        for (const auto& key : v) {
            const auto it = b.find(key);
            if (it == b.end() || !same_value<EP>(key, *it)) return false;
        }
    }
    return true;
}

// ---- bounds -------------------------------------------------------------------------

template <class P, class T, class Q>
constexpr bit_bounds family_bounds(array_encoding<Q>) noexcept {
    using E = array_element_t<T>;
    constexpr bit_bounds e = value_bounds<P, E>();
    constexpr std::size_t n = array_size<T>();
    return {e.min * n, e.max * n, e.bounded};
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(array_encoding<Q>) noexcept {
    using E = array_element_t<T>;
    return min_bits_value<P, E>() * array_size<T>();
}

// The length, the alignment, the bytes.
template <class P, class T>
constexpr bit_bounds family_bounds(text_encoding e) noexcept {
    const auto length_bits = static_cast<std::size_t>(bits_required_for_span(e.max_length));
    return {length_bits, length_bits + 7 + 8 * e.max_length};
}
template <class P, class T>
constexpr std::size_t family_min_bits(text_encoding e) noexcept {
    return static_cast<std::size_t>(bits_required_for_span(e.max_length));
}

// Vectors, maps and sets: the count, then the elements; their fewest bits are the count's.
template <class P, class T>
constexpr bit_bounds counted_container_bounds() noexcept {
    using EP = without<P, attr_kind::max_size>;
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    if constexpr (is_map<T>::value)
        return counted_bounds<max, value_bounds<no_attrs, typename T::key_type>() +
                                       value_bounds<EP, typename T::mapped_type>()>();
    else if constexpr (is_set<T>::value)
        return counted_bounds<max, value_bounds<EP, typename T::key_type>()>();
    else
        return counted_bounds<max, value_bounds<EP, typename T::value_type>()>();
}
template <class P, class T>
constexpr std::size_t count_min_bits() noexcept {
    return static_cast<std::size_t>(bits_required_for_span(P::value.template get<attr_kind::max_size>().n));
}
template <class P, class T, class E>
constexpr bit_bounds family_bounds(const sequence_encoding<E>&) noexcept {
    return counted_container_bounds<P, T>();
}
template <class P, class T, class E>
constexpr std::size_t family_min_bits(const sequence_encoding<E>&) noexcept {
    return count_min_bits<P, T>();
}
template <class P, class T, class Q>
constexpr bit_bounds family_bounds(vector_encoding<Q>) noexcept {
    return counted_container_bounds<P, T>();
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(vector_encoding<Q>) noexcept {
    return count_min_bits<P, T>();
}
template <class P, class T, class Q>
constexpr bit_bounds family_bounds(associative_encoding<Q>) noexcept {
    return counted_container_bounds<P, T>();
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(associative_encoding<Q>) noexcept {
    return count_min_bits<P, T>();
}

// A vector of codes sends its elements' code differences: the ladder fitted to them.
template <class T, class E>
constexpr delta_params family_delta_params(const difference_ladder& ladder, const sequence_encoding<E>& e) noexcept {
    if constexpr (is_fixed_width<E>) return {effective_ladder(ladder, code_max<typename T::value_type>(e.element))};
    else return {};
}

// ---- delta bounds -------------------------------------------------------------------

constexpr bit_bounds text_bounds(text_encoding e) noexcept {
    return {0, static_cast<std::size_t>(bits_required_for_span(e.max_length)) + 7 + 8 * e.max_length};
}
template <class T>
constexpr bit_bounds delta_bounds(text_encoding e, const delta_params&) noexcept {
    return text_bounds(e);
}

// A vector of at most max elements whose delta bodies take at most `body` bits and
// plain values `plain`: the count bit and count, the element list's bit and its
// changed bits (a list of indices is only sent when smaller), then the values.
constexpr bit_bounds vector_delta_bounds(std::size_t max, bit_bounds body, bit_bounds plain) noexcept {
    const bit_bounds e = worst_of(body, plain);
    return {0, 1 + static_cast<std::size_t>(bits_required_for_span(max)) + 1 + max * (1 + e.max), e.bounded};
}

template <class T, class E>
constexpr bit_bounds delta_bounds(const sequence_encoding<E>& e, const delta_params& p) noexcept {
    using V = typename T::value_type;
    bit_bounds plain{};
    if constexpr (is_fixed_width<E>) plain = {0, static_cast<std::size_t>(code_bits<V>(e.element))};
    else plain = text_bounds(e.element);
    return vector_delta_bounds(e.max_size, delta_bounds<V>(e.element, p), plain);
}

template <class T, class P>
constexpr bit_bounds delta_bounds(vector_encoding<P>, const delta_params&) noexcept {
    using EP = without<P, attr_kind::max_size>;
    using E = typename T::value_type;
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    if constexpr (std::is_same_v<E, bool>) return vector_delta_bounds(max, {0, 0}, {0, 1});
    else return vector_delta_bounds(max, delta_body_bounds<EP, E>(), value_bounds<EP, E>());
}

template <class T, class P>
constexpr bit_bounds delta_bounds(array_encoding<P>, const delta_params&) noexcept {
    using E = array_element_t<T>;
    constexpr std::size_t n = array_size<T>();
    constexpr bit_bounds body = delta_body_bounds<P, E>();
    return {0, 1 + n + n * body.max, body.bounded};
}

// ---- schema node ----------------------------------------------------------------------

template <class P>
inline constexpr std::string_view schema_delta_body<array_encoding<P>> = "elements";
template <class E>
inline constexpr std::string_view schema_delta_body<sequence_encoding<E>> = "vector";
template <class P>
inline constexpr std::string_view schema_delta_body<vector_encoding<P>> = "vector";

template <class P, class T, class B, class Q>
bool family_schema(B& b, array_encoding<Q>) {
    using E = array_element_t<T>;
    schema_string(b, "kind", "array");
    schema_integer(b, "length", array_size<T>());
    b.out.key("element");
    schema_encoding<P, E>(b);
    return true;
}

template <class P, class T, class B>
bool family_schema(B& b, text_encoding e) {
    schema_string(b, "kind", "string");
    schema_integer(b, "max_length", e.max_length);
    schema_integer(b, "length_bits", bits_required_for_span(e.max_length));
    schema_string(b, "content", e.raw_bytes ? "bytes" : "utf8_without_nul");
    return true;
}

// Vectors, sets and maps: the count, then the elements (a map's: key, then value).
template <class P, class T, class B>
bool counted_schema(B& b) {
    constexpr std::size_t n = P::value.template get<attr_kind::max_size>().n;
    using EP = without<P, attr_kind::max_size>;
    auto& o = b.out;
    schema_string(b, "kind", is_vector<T>::value ? "vector" : is_set<T>::value ? "set" : "map");
    schema_integer(b, "max_size", n);
    schema_integer(b, "count_bits", bits_required_for_span(n));
    if constexpr (is_map<T>::value) {
        schema_integer(b, "element_min_bits", min_bits_value<no_attrs, typename T::key_type>() +
                                                  min_bits_value<EP, typename T::mapped_type>());
        o.key("key");
        schema_encoding<no_attrs, typename T::key_type>(b);
        o.key("value");
        schema_encoding<EP, typename T::mapped_type>(b);
    } else {
        using E = typename T::value_type;
        schema_integer(b, "element_min_bits", min_bits_value<EP, E>());
        o.key("element");
        schema_encoding<EP, E>(b);
    }
    return true;
}
template <class P, class T, class B, class E>
bool family_schema(B& b, const sequence_encoding<E>&) {
    return counted_schema<P, T>(b);
}
template <class P, class T, class B, class Q>
bool family_schema(B& b, vector_encoding<Q>) {
    return counted_schema<P, T>(b);
}
template <class P, class T, class B, class Q>
bool family_schema(B& b, associative_encoding<Q>) {
    return counted_schema<P, T>(b);
}

// ---- the types on their own: schema hash tokens and type names --------------------------

struct array_type_tag {}; // C arrays and std::array
struct text_type_tag {};  // std::string
struct vector_type_tag {};
struct map_type_tag {};   // std::map, std::unordered_map
struct set_type_tag {};   // std::set, std::unordered_set

template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, array_type_tag) noexcept {
    h.text("array");
    h.number(array_size<T>());
    hash_type<array_element_t<T>, Visiting...>(h);
}
template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, text_type_tag) noexcept {
    h.text("string");
}
template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, vector_type_tag) noexcept {
    h.text("vector");
    hash_type<typename T::value_type, Visiting...>(h);
}
template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, map_type_tag) noexcept {
    h.text("map");
    hash_type<typename T::key_type, Visiting...>(h);
    hash_type<typename T::mapped_type, Visiting...>(h);
}
template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, set_type_tag) noexcept {
    h.text("set");
    hash_type<typename T::key_type, Visiting...>(h);
}

template <class T, class B>
void family_type_name(B& b, std::string& s, array_type_tag) {
    s += "array<";
    schema_type_name<array_element_t<T>>(b, s);
    s += ", ";
    s += std::to_string(array_size<T>());
    s += '>';
}
template <class T, class B>
void family_type_name(B&, std::string& s, text_type_tag) {
    s += "string";
}
template <class T, class B>
void family_type_name(B& b, std::string& s, vector_type_tag) {
    s += "vector<";
    schema_type_name<typename T::value_type>(b, s);
    s += '>';
}
template <class T, class B>
void family_type_name(B& b, std::string& s, map_type_tag) {
    s += "map<";
    schema_type_name<typename T::key_type>(b, s);
    s += ", ";
    schema_type_name<typename T::mapped_type>(b, s);
    s += '>';
}
template <class T, class B>
void family_type_name(B& b, std::string& s, set_type_tag) {
    s += "set<";
    schema_type_name<typename T::value_type>(b, s);
    s += '>';
}

} // namespace netser::detail
