#pragma once

#include <netser/attributes.hpp>
#include <netser/bits_required.hpp>
#include <netser/description.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/container.hpp>
#include <netser/encodings/protocol.hpp>
#include <netser/relative_index.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

// Keyed deltas: entities that come and go. A map, a set, or a vector with
// netser::keyed(&T::id) sends its delta by key, not by position (docs/wire_format.md,
// "Keyed deltas"): the baseline's entries that were removed or changed, then the added
// entries, then (a keyed vector) the order. The baseline's entries are named by their
// place in the reference order both sides compute: a map's or set's sorted by key code
// (so an unordered_map gives the same wire on every host), a keyed vector's in its own
// order. Plain encodings are the containers' own (encodings/container.hpp).

namespace netser::detail {

/// The tag of a std::vector with netser::keyed, with its attributes P.
template <class P>
struct keyed_encoding {};

// ---- the key ------------------------------------------------------------------------

// The keyed attribute's member of E, when it is an integer or enum member of E's own
// description that is always sent: its index, its attributes, its code.
template <class P, class E>
struct vector_key {
    static constexpr auto pointer = P::value.template get<attr_kind::keyed>().key;
    static constexpr std::size_t index = flag_index<E>(pointer);
    static constexpr std::size_t members = boost::mp11::mp_size<described_members<E>>::value;

    static constexpr bool valid() noexcept {
        if constexpr (index >= members) {
            return false;
        } else {
            using MP = member_attrs<E, index>;
            using M = member_type<E, index>;
            if constexpr (!std::is_integral_v<M> && !std::is_enum_v<M>) return false;
            else if constexpr (has_attr<MP, attr_kind::skip> || has_attr<MP, attr_kind::only_if>) return false;
            else return is_fixed_width<encoding_t<value_provider<MP>, M>>;
        }
    }
    static errc code(const E& e, std::uint64_t& c) noexcept {
        using MP = value_provider<member_attrs<E, index>>;
        return to_code(e.*pointer, encoding_v<MP, member_type<E, index>>, c);
    }
};

template <class A, class E>
inline constexpr bool keyed_on = false;
template <class C, class M, class E>
inline constexpr bool keyed_on<keyed_attr<C, M>, E> = std::is_same_v<C, E>;

/// netser::keyed: a vector (max_size required) of described structs keyed by a member.
template <class P, class T, bool Shallow>
constexpr auto keyed_encoding_of() noexcept {
    using VP = without<P, attr_kind::keyed>;
    if constexpr (!is_vector<T>::value) {
        return invalid_encoding<P, misuse::keyed>{};
    } else {
        using E = typename T::value_type;
        using A = std::remove_cvref_t<decltype(P::value.template get<attr_kind::keyed>())>;
        constexpr auto inner = vector_encoding_of<VP, T, Shallow>();
        using IE = std::remove_const_t<decltype(inner)>;
        if constexpr (is_invalid<IE>) return inner;
        else if constexpr (Shallow && opaque_type<E> && !described<E>) return inner; // the full classification looks
        else if constexpr (!described<E> || !keyed_on<A, E>) return invalid_encoding<P, misuse::keyed>{};
        else if constexpr (!vector_key<P, E>::valid()) return invalid_encoding<P, misuse::keyed>{};
        else return keyed_encoding<P>{};
    }
}

// A map's or set's key takes the attributes of its family's plain encoding.
template <class P, class T>
using map_key_provider = std::conditional_t<is_map<T>::value, no_attrs, without<P, attr_kind::max_size>>;

/// Whether a map's or set's delta goes by key: its keys have fixed-width codes to sort
/// by (integers, enums, bools, floats); other keys (strings, structs) send a changed
/// container whole.
template <class P, class T>
inline constexpr bool keyed_by_code =
    is_fixed_width<encoding_t<map_key_provider<P, T>, typename T::key_type>>;

// ---- plain encoding and sameness: the vector's ------------------------------------

template <stream S, class T, class P>
NETSER_INLINE bool apply_encoding(S& s, T& v, keyed_encoding<P>) {
    return apply_encoding(s, v, vector_encoding<without<P, attr_kind::keyed>>{});
}

template <class T, class P>
bool same_encoded(const T& v, const T& b, keyed_encoding<P>) {
    return same_encoded(v, b, vector_encoding<without<P, attr_kind::keyed>>{});
}

// ---- delta --------------------------------------------------------------------------

// The removed and changed entries of the baseline's nb, in reference order
// (delta_elements); a touched entry's body is body(j). Nothing when the baseline is empty.
template <stream S, class Touched, class Body, class Keep>
bool touched_entries(S& s, std::size_t nb, Touched&& touched, Body&& body, Keep&& keep) {
    return nb == 0 || delta_elements(s, nb, touched, body, keep);
}

// The count of added entries, at most max with the `kept` ones (too_large), checked
// against the bits left and the allocation budget before anything is allocated.
template <stream S>
bool added_count(S& s, std::uint64_t& count, std::size_t kept, std::size_t max, std::size_t min_element_bits,
                 std::size_t element_bytes) {
    const std::size_t at = s.bits_processed();
    if (!serialize_count(s, count, max, min_element_bits, element_bytes)) return false;
    if (count > max - kept) [[unlikely]] return s.fail(errc::too_large, at);
    return true;
}

// The entries of a map or set for which take(entry) holds, sorted by key code (the
// reference order of a baseline's entries, and the order of the added ones).
template <class KP, stream S, class T, class Take>
bool by_key_code(S& s, const T& c, Take&& take, std::vector<const typename T::value_type*>& out) {
    std::vector<keyed_entry> keys;
    std::vector<const typename T::value_type*> entries;
    for (const auto& e : c) {
        if (!take(e)) continue;
        std::uint64_t code = 0;
        if (const errc err = to_code(entry_key(e), encoding_v<KP, typename T::key_type>, code); err != errc::none)
            [[unlikely]] return s.fail(err, s.bits_processed());
        keys.push_back({code, entries.size()});
        entries.push_back(&e);
    }
    sort_by_code(keys); // a container's keys have distinct codes
    out.resize(keys.size());
    for (std::size_t j = 0; j < keys.size(); ++j) out[j] = entries[keys[j].index];
    return true;
}
inline constexpr auto every_entry = [](const auto&) noexcept { return true; };

// An empty container like c (its hash, comparison and allocator).
template <class T>
T empty_like(const T& c) {
    if constexpr (is_hashed<T>) return T(0, c.hash_function(), c.key_eq(), c.get_allocator());
    else return T(c.key_comp(), c.get_allocator());
}

template <class P, stream S, class T>
bool write_keyed_container(S& s, T& v, const T& b) {
    using KP = map_key_provider<P, T>;
    using EP = without<P, attr_kind::max_size>;
    using K = typename T::key_type;
    constexpr bool is_map_type = is_map<T>::value;
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    if (v.size() > max) [[unlikely]] return s.fail(errc::too_large, s.bits_processed());
    std::vector<const typename T::value_type*> base;
    if (!by_key_code<KP>(s, b, every_entry, base)) return false;
    // Each baseline entry's value in v (null: removed).
    std::vector<typename T::value_type*> match(base.size());
    for (std::size_t j = 0; j < base.size(); ++j) {
        const auto it = v.find(entry_key(*base[j]));
        match[j] = it == v.end() ? nullptr : const_cast<typename T::value_type*>(&*it);
    }
    const auto touched = [&](std::size_t j) {
        if (match[j] == nullptr) return true;
        if constexpr (is_map_type) return !same_value<EP>(match[j]->second, base[j]->second);
        else return false;
    };
    const auto body = [&](std::size_t j) {
        if constexpr (is_map_type) { // a set's touched entry can only be removed
            bool removed = match[j] == nullptr;
            if (!serialize_bool(s, removed)) return fail_at_index(s, j);
            if (!removed) return element_delta<EP>(s, match[j]->second, base[j]->second, j);
        }
        return true;
    };
    if (!touched_entries(s, base.size(), touched, body, [](std::size_t) {})) return false;
    // The added entries, by key code.
    std::vector<const typename T::value_type*> added;
    if (!by_key_code<KP>(s, v, [&](const auto& e) { return b.find(entry_key(e)) == b.end(); }, added)) return false;
    std::uint64_t count = added.size();
    if (!added_count(s, count, v.size() - added.size(), max, 0, 0)) return false;
    for (std::size_t k = 0; k < added.size(); ++k) {
        auto& e = const_cast<typename T::value_type&>(*added[k]); // writers only read it
        K key = entry_key(e);
        bool ok = serialize_value<KP>(s, key);
        if constexpr (is_map_type) ok = ok && serialize_value<EP>(s, e.second);
        if (!ok) [[unlikely]] return fail_at_index(s, k);
    }
    return true;
}

// What a read keeps of a map's changed values (a set has none).
template <class T>
struct changed_values {
    using type = char;
};
template <class T>
    requires requires { typename T::mapped_type; }
struct changed_values<T> {
    using type = typename T::mapped_type;
};

template <class P, stream S, class T>
bool read_keyed_container(S& s, T& v, const T& b) {
    using KP = map_key_provider<P, T>;
    using EP = without<P, attr_kind::max_size>;
    using K = typename T::key_type;
    constexpr bool is_map_type = is_map<T>::value;
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    const std::size_t at = s.bits_processed();
    if (b.size() > max) [[unlikely]] return s.fail(errc::too_large, at); // a baseline above max_size
    std::vector<const typename T::value_type*> base;
    if (!by_key_code<KP>(s, b, every_entry, base)) return false;
    // The survivors first (a changed one's new value aside), so that the table is sized
    // once for the whole result: an insertion never rehashes, and each one, kept keys
    // included, is refused when it crowds its bucket (a baseline's keys chosen to share
    // the buckets of a smaller table would otherwise make every later read quadratic).
    struct survivor {
        const typename T::value_type* base;
        std::size_t changed; // its new value in `values`, or no_entry
    };
    std::vector<survivor> kept;
    std::vector<typename changed_values<T>::type> values;
    const auto keep = [&](std::size_t j) { kept.push_back({base[j], no_entry}); };
    const auto body = [&](std::size_t j) {
        if constexpr (is_map_type) {
            bool removed = false;
            if (!serialize_bool(s, removed)) return fail_at_index(s, j);
            if (removed) return true;
            values.emplace_back();
            if (!element_delta<EP>(s, values.back(), base[j]->second, j)) return false;
            kept.push_back({base[j], values.size() - 1});
        }
        return true;
    };
    if (!touched_entries(s, base.size(), [](std::size_t) { return false; }, body, keep)) return false;
    constexpr std::size_t min_element = [] {
        if constexpr (is_map_type) return min_bits_value<KP, K>() + min_bits_value<EP, typename T::mapped_type>();
        else return min_bits_value<KP, K>();
    }();
    std::uint64_t count = 0;
    if (!added_count(s, count, kept.size(), max, min_element, element_footprint<T>())) return false;
    // Filled aside: v is left as it was when the read fails.
    T fresh = empty_like(v);
    if constexpr (is_hashed<T>) fresh.reserve(kept.size() + static_cast<std::size_t>(count));
    const auto crowded = [&](typename T::iterator it) {
        if constexpr (is_hashed<T>) return crowded_bucket(fresh, it);
        else return false;
    };
    for (const survivor& e : kept) {
        typename T::iterator it;
        if constexpr (is_map_type) {
            it = fresh.emplace(e.base->first, typename T::mapped_type{}).first;
            if (e.changed == no_entry) copy_value(it->second, e.base->second);
            else it->second = std::move(values[e.changed]);
        } else {
            it = fresh.insert(*e.base).first;
        }
        if (crowded(it)) [[unlikely]] return s.fail(errc::too_large, at);
    }
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t element_at = s.bits_processed();
        K key{};
        if (!serialize_value<KP>(s, key)) [[unlikely]] return fail_at_index(s, k);
        std::pair<typename T::iterator, bool> inserted;
        if constexpr (is_map_type) {
            typename T::mapped_type value{};
            if (!serialize_value<EP>(s, value)) [[unlikely]] return fail_at_index(s, k);
            inserted = fresh.emplace(std::move(key), std::move(value));
        } else {
            inserted = fresh.insert(std::move(key));
        }
        if (!inserted.second) [[unlikely]] { // a key the baseline keeps, or one added twice
            s.fail(errc::invalid_value, element_at);
            return fail_at_index(s, k);
        }
        if (crowded(inserted.first)) [[unlikely]] {
            s.fail(errc::too_large, element_at);
            return fail_at_index(s, k);
        }
    }
    v.swap(fresh);
    return true;
}

// std::map / std::unordered_map / std::set / std::unordered_set by key.
template <stream S, class T, class P>
bool apply_delta(S& s, T& v, const T& b, associative_encoding<P> e, const delta_params&) {
    if constexpr (!keyed_by_code<P, T>) return apply_encoding(s, v, e);
    else if constexpr (S::is_reading) return read_keyed_container<P>(s, v, b);
    else return write_keyed_container<P>(s, v, b);
}

// ---- keyed vectors: the order ------------------------------------------------------

// A keyed vector's elements are first rebuilt in the kept order: the baseline's
// survivors in the baseline's order, then the added ones as sent. The order field says
// how the writer's order differs: 0, not at all; 10, it is sorted by key code; 11, some
// elements moved (those outside a longest increasing run of kept-order places): their
// count, then for each by its new position, that position (a relative index) and its
// place in the kept order (counted from the end, where swap-remove takes them from).

// Which of the n elements stay in place: a longest increasing subsequence of q.
inline std::vector<bool> longest_increasing(const std::vector<std::size_t>& q) {
    const std::size_t n = q.size();
    std::vector<std::size_t> tails, tail_index, parent(n, no_entry);
    for (std::size_t i = 0; i < n; ++i) {
        std::size_t k = 0, end = tails.size(); // the leftmost pile whose top is above q[i]
        while (k < end) {
            const std::size_t mid = k + (end - k) / 2;
            if (tails[mid] < q[i]) k = mid + 1;
            else end = mid;
        }
        if (k == tails.size()) {
            tails.push_back(q[i]);
            tail_index.push_back(i);
        } else {
            tails[k] = q[i];
            tail_index[k] = i;
        }
        if (k > 0) parent[i] = tail_index[k - 1];
    }
    std::vector<bool> in(n, false);
    for (std::size_t i = tails.empty() ? no_entry : tail_index.back(); i != no_entry; i = parent[i]) in[i] = true;
    return in;
}

// Writes the order of v's n >= 2 elements: q[i] is element i's place in the kept
// order, sorted whether v is sorted by key code.
template <stream S>
bool write_order(S& s, const std::vector<std::size_t>& q, bool sorted) {
    const std::size_t n = q.size();
    bool moved = false;
    for (std::size_t i = 0; i < n && !moved; ++i) moved = q[i] != i;
    if (!serialize_bool(s, moved)) return false;
    if (!moved) return true;
    bool listed = !sorted;
    if (!serialize_bool(s, listed)) return false;
    if (!listed) return true;
    const std::vector<bool> stays = longest_increasing(q);
    std::uint64_t count = 0;
    for (const bool stay : stays) count += stay ? 0u : 1u;
    if (!s.process_bits(count, bits_required_for_span(n))) return false;
    int previous = -1;
    const int source_bits = bits_required_for_span(n - 1);
    for (std::size_t i = 0; i < n; ++i) {
        if (stays[i]) continue;
        int target = static_cast<int>(i);
        std::uint64_t from_end = n - 1 - q[i];
        if (!serialize_relative_index(s, previous, target, static_cast<int>(n)) ||
            !s.process_bits(from_end, source_bits))
            return false;
    }
    return true;
}

// Reads the order of v's n >= 2 elements (in the kept order) and puts them in it;
// codes[i] is element i's key code.
template <stream S, class T>
bool read_order(S& s, T& v, const std::vector<std::uint64_t>& codes) {
    const std::size_t n = v.size();
    const std::size_t at = s.bits_processed();
    bool moved = false, listed = false;
    if (!serialize_bool(s, moved)) return false;
    if (!moved) return true;
    if (!serialize_bool(s, listed)) return false;
    std::vector<std::size_t> order(n); // order[position] = place in the kept order
    if (!listed) {
        std::vector<keyed_entry> sorted(n);
        for (std::size_t i = 0; i < n; ++i) sorted[i] = {codes[i], i};
        sort_by_code(sorted);
        for (std::size_t i = 0; i < n; ++i) order[i] = sorted[i].index;
    } else {
        std::uint64_t count = 0;
        if (!s.process_bits(count, bits_required_for_span(n))) return false;
        if (count > n) [[unlikely]] return s.fail(errc::out_of_range, at);
        std::vector<std::size_t> source(n, no_entry);
        std::vector<bool> taken(n, false);
        const int source_bits = bits_required_for_span(n - 1);
        int previous = -1;
        for (std::uint64_t k = 0; k < count; ++k) {
            const std::size_t move_at = s.bits_processed();
            int target = 0;
            std::uint64_t from_end = 0;
            if (!serialize_relative_index(s, previous, target, static_cast<int>(n)) ||
                !s.process_bits(from_end, source_bits))
                return false;
            if (static_cast<std::size_t>(target) >= n || from_end >= n) [[unlikely]]
                return s.fail(errc::out_of_range, move_at);
            const std::size_t place = n - 1 - static_cast<std::size_t>(from_end);
            if (taken[place]) [[unlikely]] return s.fail(errc::invalid_value, move_at); // moved twice
            taken[place] = true;
            source[static_cast<std::size_t>(target)] = place;
        }
        std::size_t next = 0; // the unmoved ones fill the other positions in the kept order
        for (std::size_t i = 0; i < n; ++i) {
            if (source[i] != no_entry) {
                order[i] = source[i];
                continue;
            }
            while (taken[next]) ++next; // as many unmoved places as free positions
            order[i] = next++;
        }
    }
    T arranged(v.get_allocator());
    arranged.reserve(n);
    for (std::size_t i = 0; i < n; ++i) arranged.push_back(std::move(v[order[i]]));
    v.swap(arranged);
    return true;
}

template <class P, stream S, class T>
bool write_keyed_vector(S& s, T& v, const T& b) {
    using EP = without<P, attr_kind::max_size, attr_kind::keyed>;
    using E = typename T::value_type;
    using key = vector_key<P, E>;
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    const std::size_t at = s.bits_processed();
    const std::size_t n = v.size(), nb = b.size();
    if (n > max) [[unlikely]] return s.fail(errc::too_large, at);
    const auto codes = [&](const T& c, std::vector<keyed_entry>& out) {
        out.resize(c.size());
        for (std::size_t i = 0; i < c.size(); ++i) {
            out[i].index = i;
            if (const errc e = key::code(c[i], out[i].code); e != errc::none) [[unlikely]] {
                s.fail(e, at);
                return fail_at_index(s, i);
            }
        }
        const std::size_t repeated = sort_by_code(out);
        if (repeated != no_entry) [[unlikely]] { // two elements with one key
            s.fail(errc::invalid_value, at);
            return fail_at_index(s, repeated);
        }
        return true;
    };
    std::vector<keyed_entry> vs, bs;
    if (!codes(b, bs) || !codes(v, vs)) return false;
    std::vector<std::size_t> match(nb, no_entry), from(n, no_entry);
    for (std::size_t i = 0, j = 0; i < n && j < nb;) {
        if (vs[i].code < bs[j].code) ++i;
        else if (bs[j].code < vs[i].code) ++j;
        else {
            match[bs[j].index] = vs[i].index;
            from[vs[i].index] = bs[j].index;
            ++i, ++j;
        }
    }
    const auto touched = [&](std::size_t j) { return match[j] == no_entry || !same_value<EP>(v[match[j]], b[j]); };
    const auto body = [&](std::size_t j) {
        bool removed = match[j] == no_entry;
        if (!serialize_bool(s, removed)) return fail_at_index(s, j);
        return removed || element_delta<EP>(s, v[match[j]], b[j], match[j]);
    };
    if (!touched_entries(s, nb, touched, body, [](std::size_t) {})) return false;
    std::uint64_t count = 0;
    for (const std::size_t f : from) count += f == no_entry ? 1u : 0u;
    if (!added_count(s, count, n - static_cast<std::size_t>(count), max, 0, 0)) return false;
    for (std::size_t i = 0; i < n; ++i)
        if (from[i] == no_entry && !element_plain<EP>(s, v[i], i)) [[unlikely]] return false;
    if (n < 2) return true;
    std::vector<std::size_t> q(n);
    std::size_t place = 0;
    for (std::size_t j = 0; j < nb; ++j)
        if (match[j] != no_entry) q[match[j]] = place++;
    for (std::size_t i = 0; i < n; ++i)
        if (from[i] == no_entry) q[i] = place++;
    bool sorted = true;
    for (std::size_t i = 0; i < n && sorted; ++i) sorted = vs[i].index == i;
    return write_order(s, q, sorted);
}

template <class P, stream S, class T>
bool read_keyed_vector(S& s, T& v, const T& b) {
    using EP = without<P, attr_kind::max_size, attr_kind::keyed>;
    using E = typename T::value_type;
    using key = vector_key<P, E>;
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    const std::size_t at = s.bits_processed();
    const std::size_t nb = b.size();
    if (nb > max) [[unlikely]] return s.fail(errc::too_large, at); // a baseline above max_size
    std::vector<std::uint64_t> base_codes(nb), codes;
    for (std::size_t j = 0; j < nb; ++j)
        if (const errc e = key::code(b[j], base_codes[j]); e != errc::none) [[unlikely]] return s.fail(e, at);
    T out(v.get_allocator()); // filled aside: v is left as it was when the read fails
    out.reserve(nb);
    codes.reserve(nb);
    const auto keep = [&](std::size_t j) {
        out.emplace_back();
        copy_value(out.back(), b[j]);
        codes.push_back(base_codes[j]);
    };
    const auto body = [&](std::size_t j) {
        const std::size_t element_at = s.bits_processed();
        bool removed = false;
        if (!serialize_bool(s, removed)) return fail_at_index(s, j);
        if (removed) return true;
        out.emplace_back();
        if (!element_delta<EP>(s, out.back(), b[j], j)) return false;
        std::uint64_t code = 0;
        if (key::code(out.back(), code) != errc::none || code != base_codes[j]) [[unlikely]] { // a changed key
            s.fail(errc::invalid_value, element_at);
            return fail_at_index(s, j);
        }
        codes.push_back(code);
        return true;
    };
    if (!touched_entries(s, nb, [](std::size_t) { return false; }, body, keep)) return false;
    const std::size_t kept = out.size();
    std::uint64_t count = 0;
    if (!added_count(s, count, kept, max, min_bits_value<EP, E>(), element_footprint<T>())) return false;
    std::vector<std::size_t> added_at(static_cast<std::size_t>(count));
    for (std::size_t k = 0; k < added_at.size(); ++k) {
        added_at[k] = s.bits_processed();
        out.emplace_back();
        if (!element_plain<EP>(s, out.back(), kept + k)) [[unlikely]] return false;
        std::uint64_t code = 0;
        if (const errc e = key::code(out.back(), code); e != errc::none) [[unlikely]] return s.fail(e, added_at[k]);
        codes.push_back(code);
    }
    // A key kept from the baseline, or added twice.
    std::vector<keyed_entry> sorted(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) sorted[i] = {codes[i], i};
    const std::size_t repeated = sort_by_code(sorted);
    if (repeated != no_entry) [[unlikely]] {
        s.fail(errc::invalid_value, repeated >= kept ? added_at[repeated - kept] : at);
        return fail_at_index(s, repeated);
    }
    if (out.size() >= 2 && !read_order(s, out, codes)) return false;
    v.swap(out);
    return true;
}

template <stream S, class T, class P>
bool apply_delta(S& s, T& v, const T& b, keyed_encoding<P>, const delta_params&) {
    static_assert(P::value.template get<attr_kind::max_size>().n <= max_delta_elements,
                  "netser: delta compression of a vector supports at most 2^31 - 2 elements");
    if constexpr (S::is_reading) return read_keyed_vector<P>(s, v, b);
    else return write_keyed_vector<P>(s, v, b);
}

// ---- bounds -------------------------------------------------------------------------

template <class P, class T, class Q>
constexpr bit_bounds family_bounds(keyed_encoding<Q>) noexcept {
    return counted_container_bounds<without<P, attr_kind::keyed>, T>();
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(keyed_encoding<Q>) noexcept {
    return count_min_bits<P, T>();
}

// The touched list (its bit, a bit and a removed bit per entry at most, the bodies),
// the added count and entries, and a keyed vector's order field.
constexpr bit_bounds keyed_delta_bounds(std::size_t max, std::size_t flag_bits, bit_bounds body, bit_bounds added,
                                        std::size_t order_bits) noexcept {
    const auto count_bits = static_cast<std::size_t>(bits_required_for_span(max));
    return {0, 1 + max * (1 + flag_bits + body.max) + count_bits + max * added.max + order_bits,
            body.bounded && added.bounded};
}

template <class T, class P>
constexpr bit_bounds delta_bounds(keyed_encoding<P>, const delta_params&) noexcept {
    using EP = without<P, attr_kind::max_size, attr_kind::keyed>;
    using E = typename T::value_type;
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    const auto index_bits = static_cast<std::size_t>(relative_index_max_bits(static_cast<int>(max)));
    const auto count_bits = static_cast<std::size_t>(bits_required_for_span(max));
    const std::size_t order = 2 + count_bits + max * (index_bits + count_bits);
    return keyed_delta_bounds(max, 1, delta_body_bounds<EP, E>(), value_bounds<EP, E>(), order);
}

template <class T, class P>
constexpr bit_bounds delta_bounds(associative_encoding<P>, const delta_params&) noexcept {
    using KP = map_key_provider<P, T>;
    using EP = without<P, attr_kind::max_size>;
    constexpr std::size_t max = P::value.template get<attr_kind::max_size>().n;
    if constexpr (!keyed_by_code<P, T>) {
        return value_bounds<P, T>();
    } else if constexpr (is_map<T>::value) {
        using V = typename T::mapped_type;
        return keyed_delta_bounds(max, 1, delta_body_bounds<EP, V>(),
                                  value_bounds<KP, typename T::key_type>() + value_bounds<EP, V>(), 0);
    } else {
        return keyed_delta_bounds(max, 0, {0, 0}, value_bounds<KP, typename T::key_type>(), 0);
    }
}

// ---- schema node ----------------------------------------------------------------------

template <class P, class T, class B, class Q>
bool family_schema(B& b, keyed_encoding<Q>) {
    counted_schema<without<P, attr_kind::keyed>, T>(b);
    schema_string(b, "key", flag_member_name(P::value.template get<attr_kind::keyed>().key));
    return true;
}

template <class T, class P>
constexpr std::string_view family_delta_form(keyed_encoding<P>) noexcept {
    return "keyed";
}
template <class T, class P>
constexpr std::string_view family_delta_form(associative_encoding<P>) noexcept {
    return keyed_by_code<P, T> ? "keyed" : "plain";
}

} // namespace netser::detail
