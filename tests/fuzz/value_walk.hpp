#pragma once

// A walk over every value an object holds, written independently of the library
// (Boost.Describe and Boost.PFR see the members; nothing of netser's own walk is used;
// unordered maps and sets in ascending key order, so equal ones walk alike), and
// what the fuzz targets do with it: the exact bits of a value (floats by their bits, NaN
// payloads and -0.0 included), the members declared netser::skip apart from the others;
// one bit flipped; the skipped members filled with other data (a reused object).

#include <boost/describe/bases.hpp>
#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

namespace netser_fuzz {

/// The members of a described struct declared netser::skip, by name. None unless a type
/// overloads this beside its description (fuzz_types.hpp, which checks the lists against
/// the descriptions).
template <class T>
constexpr std::array<std::string_view, 0> skipped_members(const T*) noexcept {
    return {};
}

namespace walk_detail {

template <class T, template <class...> class Of>
inline constexpr bool is_a = false;
template <template <class...> class Of, class... A>
inline constexpr bool is_a<Of<A...>, Of> = true;

template <class T>
inline constexpr bool is_std_array = false;
template <class E, std::size_t N>
inline constexpr bool is_std_array<std::array<E, N>> = true;

template <class C>
constexpr bool is_skipped(std::string_view member) noexcept {
    for (std::string_view name : skipped_members(static_cast<const C*>(nullptr)))
        if (name == member) return true;
    return false;
}

template <std::size_t N>
using unsigned_of_size = std::conditional_t<
    N == 1, std::uint8_t,
    std::conditional_t<N == 2, std::uint16_t, std::conditional_t<N == 4, std::uint32_t, std::uint64_t>>>;

/// Flips bit `bit` (modulo the width) of a scalar taken as the unsigned integer of its size
/// (so a float's bit 31 is its sign on every host).
template <class L>
void flip_scalar_bit(L& x, std::size_t bit) noexcept {
    using V = unsigned_of_size<sizeof(L)>;
    static_assert(sizeof(V) == sizeof(L));
    V v;
    std::memcpy(&v, &x, sizeof v);
    v = static_cast<V>(v ^ (V{1} << (bit % (8 * sizeof v))));
    std::memcpy(&x, &v, sizeof v);
}

} // namespace walk_detail

/// Calls leaf(x, skipped) for every scalar, enum and string x that `value` holds, and
/// shape(n, skipped) for every count, presence and variant index on the way, in order;
/// `skipped` is true inside a member declared netser::skip. T may be const (then so is x).
template <class T, class Leaf, class Shape>
void walk(T& value, Leaf& leaf, Shape& shape, bool skipped = false) {
    using namespace walk_detail;
    using U = std::remove_const_t<T>;
    const auto inner = [&](auto& part, bool skip) { walk(part, leaf, shape, skip); };
    if constexpr (std::is_arithmetic_v<U> || std::is_enum_v<U> || std::is_same_v<U, std::string>) {
        leaf(value, skipped);
    } else if constexpr (std::is_same_v<U, std::vector<bool>>) {
        shape(value.size(), skipped);
        for (std::size_t i = 0; i < value.size(); ++i) {
            std::conditional_t<std::is_const_v<T>, const bool, bool> bit = value[i];
            leaf(bit, skipped);
            if constexpr (!std::is_const_v<T>) value[i] = bit;
        }
    } else if constexpr (is_a<U, std::vector> || is_a<U, std::map> || is_a<U, std::set>) {
        shape(value.size(), skipped);
        for (auto& element : value) inner(element, skipped);
    } else if constexpr (is_a<U, std::unordered_map> || is_a<U, std::unordered_set>) {
        // In ascending key order: the iteration order of equal tables depends on their
        // history (insertions, bucket count), which is no part of the value.
        shape(value.size(), skipped);
        using E = std::remove_reference_t<decltype(*value.begin())>;
        std::vector<E*> entries;
        entries.reserve(value.size());
        for (auto& element : value) entries.push_back(&element);
        std::sort(entries.begin(), entries.end(), [](const E* a, const E* b) {
            if constexpr (is_a<U, std::unordered_map>) return a->first < b->first;
            else return *a < *b;
        });
        for (E* element : entries) inner(*element, skipped);
    } else if constexpr (is_a<U, std::pair>) {
        inner(value.first, skipped);
        inner(value.second, skipped);
    } else if constexpr (std::is_array_v<U> || is_std_array<U>) {
        for (auto& element : value) inner(element, skipped);
    } else if constexpr (is_a<U, std::optional> || is_a<U, std::unique_ptr>) {
        shape(value ? 1 : 0, skipped);
        if (value) inner(*value, skipped);
    } else if constexpr (is_a<U, std::variant>) {
        shape(value.index(), skipped);
        std::visit([&](auto& alternative) { inner(alternative, skipped); }, value);
    } else if constexpr (boost::describe::has_describe_members<U>::value) {
        using namespace boost::describe;
        boost::mp11::mp_for_each<describe_bases<U, mod_any_access>>([&](auto base) {
            using B = typename decltype(base)::type;
            inner(static_cast<std::conditional_t<std::is_const_v<T>, const B&, B&>>(value), skipped);
        });
        boost::mp11::mp_for_each<describe_members<U, mod_any_access>>([&](auto member) {
            inner(value.*member.pointer, skipped || is_skipped<U>(member.name));
        });
    } else {
        static_assert(std::is_aggregate_v<U>, "value_walk: a type the walk does not know");
        boost::pfr::for_each_field(value, [&](auto& field) { inner(field, skipped); });
    }
}

/// The same, for the leaves alone.
template <class T, class Leaf>
void walk(T& value, Leaf&& leaf) {
    const auto no_shape = [](std::size_t, bool) {};
    walk(value, leaf, no_shape);
}

/// The exact bits of a value: what a reader's object holds, member by member, with the
/// skipped members (never sent) apart.
struct value_bits {
    std::string sent;
    std::string skipped;
    friend bool operator==(const value_bits&, const value_bits&) = default;
};

template <class T>
value_bits bits_of(const T& value) {
    value_bits out;
    const auto append = [&](bool skipped, const void* p, std::size_t n) {
        (skipped ? out.skipped : out.sent).append(static_cast<const char*>(p), n);
    };
    const auto shape = [&](std::size_t n, bool skipped) { append(skipped, &n, sizeof n); };
    const auto leaf = [&]<class L>(const L& x, bool skipped) {
        if constexpr (std::is_same_v<L, std::string>) {
            shape(x.size(), skipped);
            append(skipped, x.data(), x.size());
        } else {
            append(skipped, &x, sizeof x); // scalars and enums: their object representation, padding-free
        }
    };
    walk(value, leaf, shape);
    return out;
}

/// How many leaves (scalars, enums, strings) outside skipped members `value` holds.
template <class T>
std::size_t sent_leaves(const T& value) {
    std::size_t n = 0;
    walk(value, [&](const auto&, bool skipped) { n += skipped ? 0 : 1; });
    return n;
}

/// Flips bit `bit` (modulo the leaf's width) of the leaf `index` (counted as sent_leaves
/// counts; map and set keys left alone) of `value`: a bool becomes the other one, a
/// string's byte changes. For a float, bit 31 (63 for a double) is the sign: +0.0 and
/// -0.0 trade places.
template <class T>
void flip_bit(T& value, std::size_t index, std::size_t bit) {
    std::size_t seen = 0;
    walk(value, [&]<class L>(L& x, bool skipped) {
        if (skipped || seen++ != index) return;
        if constexpr (std::is_same_v<L, bool>) {
            x = !x;
        } else if constexpr (std::is_same_v<L, std::string>) {
            if (!x.empty()) x[bit / 8 % x.size()] = static_cast<char>(x[bit / 8 % x.size()] ^ (1 << (bit % 8)));
        } else if constexpr (!std::is_const_v<L>) {
            walk_detail::flip_scalar_bit(x, bit);
        }
    });
}

/// The same value with every float and double that is zero or NaN given the other sign:
/// equal to `value` leaf by leaf under ==, or NaN where it is, yet other bits.
template <class T>
void flip_signs_of_zeros_and_nans(T& value) {
    walk(value, [&]<class L>(L& x, bool skipped) {
        if constexpr (std::is_floating_point_v<L>)
            if (!skipped && !(x < 0 || x > 0)) walk_detail::flip_scalar_bit(x, 8 * sizeof x - 1); // 0, -0, NaN
    });
}

/// Gives every skipped member other bits from `next()` (a uint64 source): the data a
/// reused object holds where a delta read must not leave it.
template <class T, class Next>
void fill_skipped(T& value, Next&& next) {
    walk(value, [&]<class L>(L& x, bool skipped) {
        if (!skipped) return;
        if constexpr (std::is_same_v<L, bool>) {
            x = (next() & 1u) != 0;
        } else if constexpr (std::is_same_v<L, std::string>) {
            x.assign(next() % 8, static_cast<char>(next()));
        } else if constexpr (!std::is_const_v<L>) {
            const std::uint64_t bits = next();
            std::memcpy(&x, &bits, sizeof x < sizeof bits ? sizeof x : sizeof bits);
        }
    });
}

} // namespace netser_fuzz
