#pragma once

#include <netser/attributes.hpp>
#include <netser/check.hpp>
#include <netser/description.hpp>
#include <netser/detail/adl.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/stream.hpp>
#include <netser/enum_codec.hpp>
#include <netser/relative_index.hpp>

#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>

#include <cstddef>
#include <limits>
#include <string_view> // std::size
#include <type_traits>

// Compile-time bounds of an encoding: the most bits a value can take (max_bits<T>())
// and the fewest (used to refuse a count whose elements cannot fit in what is left).
// They mirror the visitor in codec.hpp case by case.

namespace netser::detail {

struct bit_bounds {
    std::size_t min = 0;
    std::size_t max = 0;
    bool bounded = true; // false when a user type states no bound
    constexpr bit_bounds operator+(bit_bounds o) const noexcept {
        return {min + o.min, max + o.max, bounded && o.bounded};
    }
};

template <class P, class T>
constexpr bit_bounds value_bounds() noexcept;

template <class P, class T>
constexpr bit_bounds plain_integer_bounds() noexcept {
    if constexpr (has_attr<P, attr_kind::range>) {
        constexpr auto r = P::value.template get<attr_kind::range>();
        const auto b = static_cast<std::size_t>(bits_required_for_span(
            static_cast<std::uint64_t>(static_cast<T>(r.max)) - static_cast<std::uint64_t>(static_cast<T>(r.min))));
        return {b, b};
    } else if constexpr (has_attr<P, attr_kind::bits>) {
        const auto b = static_cast<std::size_t>(P::value.template get<attr_kind::bits>().n);
        return {b, b};
    } else {
        constexpr std::size_t b = std::numeric_limits<std::make_unsigned_t<T>>::digits;
        return {b, b};
    }
}

template <class P, class T>
constexpr bit_bounds plain_float_bounds() noexcept {
    if constexpr (has_attr<P, attr_kind::quantize>) {
        const auto b = static_cast<std::size_t>(P::value.template get<attr_kind::quantize>().params().bits);
        return {b, b};
    } else {
        return {sizeof(T) * 8, sizeof(T) * 8};
    }
}

template <class P, bit_bounds Plain>
constexpr bit_bounds with_common_bounds() noexcept {
    if constexpr (has_attr<P, attr_kind::common>) {
        constexpr auto c = P::value.template get<attr_kind::common>();
        const auto index_bits = static_cast<std::size_t>(bits_required_for_span(std::size(c.values) - 1));
        return {1 + (index_bits < Plain.min ? index_bits : Plain.min), 1 + (index_bits > Plain.max ? index_bits : Plain.max)};
    } else {
        return Plain;
    }
}

template <std::size_t Max, bit_bounds Element>
constexpr bit_bounds counted_bounds() noexcept {
    const auto count_bits = static_cast<std::size_t>(bits_required_for_span(Max));
    return {count_bits, count_bits + Max * Element.max, Element.bounded};
}

template <class P, class C>
constexpr bit_bounds described_bounds() noexcept {
    bit_bounds total{};
    boost::mp11::mp_for_each<described_bases<C>>(
        [&](auto b) { total = total + value_bounds<no_attrs, typename decltype(b)::type>(); });
    constexpr std::size_t n = boost::mp11::mp_size<described_members<C>>::value;
    boost::mp11::mp_for_each<boost::mp11::mp_iota_c<n>>([&](auto i) {
        using D = member_at<C, decltype(i)::value>;
        using M = std::remove_cvref_t<decltype(std::declval<C&>().*D::pointer)>;
        if constexpr (pack_of<P>::encoding_size != 0) {
            total = total + value_bounds<P, M>();
        } else {
            using MP = member_attrs<C, decltype(i)::value>;
            if constexpr (!has_attr<MP, attr_kind::skip>) {
                bit_bounds b = value_bounds<without<MP, attr_kind::only_if, attr_kind::skip, attr_kind::check>, M>();
                if constexpr (has_attr<MP, attr_kind::only_if>) b.min = 0;
                if constexpr (checks_enabled && has_attr<MP, attr_kind::check>) b = b + bit_bounds{32, 32 + 7};
                total = total + b;
            }
        }
    });
    return total;
}

template <class P, class T>
constexpr bit_bounds value_bounds() noexcept {
    using A = pack_of<P>;
    if constexpr (is_invalid<decltype(classify<P, T, false>())>) {
        report_misuse<P, misuse_in<decltype(classify<P, T, false>())>>();
        return {}; // no second error from the bounds
    } else if constexpr (A::template user_codec_for<T>()) {
        constexpr auto& u = P::value.user();
        if constexpr (requires { u.min_bits(); }) return {u.min_bits(), u.max_bits()};
        else return {0, u.max_bits()};
    } else if constexpr (std::is_same_v<T, bool>) {
        return {1, 1};
    } else if constexpr (std::is_enum_v<T>) {
        if constexpr (is_described_enum<T>) {
            const auto b = static_cast<std::size_t>(enum_info<T>::bits);
            return {b, b};
        } else {
            return plain_integer_bounds<P, std::underlying_type_t<T>>();
        }
    } else if constexpr (std::is_integral_v<T>) {
        return with_common_bounds<P, plain_integer_bounds<P, T>()>();
    } else if constexpr (std::is_floating_point_v<T>) {
        return with_common_bounds<P, plain_float_bounds<P, T>()>();
    } else if constexpr (has_attr<P, attr_kind::sparse>) {
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
    } else if constexpr (std::is_array_v<T>) {
        constexpr bit_bounds e = value_bounds<P, std::remove_extent_t<T>>();
        return {e.min * std::extent_v<T>, e.max * std::extent_v<T>, e.bounded};
    } else if constexpr (is_std_array<T>::value) {
        constexpr bit_bounds e = value_bounds<P, typename T::value_type>();
        constexpr std::size_t n = std::tuple_size_v<T>;
        return {e.min * n, e.max * n, e.bounded};
    } else if constexpr (is_string<T>) {
        constexpr std::size_t n = P::value.template get<attr_kind::max_length>().n;
        const auto length_bits = static_cast<std::size_t>(bits_required_for_span(n));
        return {length_bits, length_bits + 7 + 8 * n}; // length, align, bytes
    } else if constexpr (is_vector<T>::value) {
        return counted_bounds<P::value.template get<attr_kind::max_size>().n,
                              value_bounds<without<P, attr_kind::max_size>, typename T::value_type>()>();
    } else if constexpr (is_optional<T>::value || is_unique_ptr<T>::value) {
        using E = std::remove_cvref_t<decltype(*std::declval<T&>())>;
        constexpr bit_bounds e = value_bounds<P, E>();
        return {1, 1 + e.max, e.bounded};
    } else if constexpr (is_variant<T>::value) {
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
    } else if constexpr (is_map<T>::value || is_set<T>::value) {
        using EP = without<P, attr_kind::max_size>;
        if constexpr (is_map<T>::value)
            return counted_bounds<P::value.template get<attr_kind::max_size>().n,
                                  value_bounds<no_attrs, typename T::key_type>() +
                                      value_bounds<EP, typename T::mapped_type>()>();
        else
            return counted_bounds<P::value.template get<attr_kind::max_size>().n,
                                  value_bounds<EP, typename T::key_type>()>();
    } else if constexpr (adl::has_serialize<measure_stream, T>) {
        // A user type with its own serialize function may state its bound.
        if constexpr (requires { netser_max_bits(static_cast<const T*>(nullptr)); })
            return {0, netser_max_bits(static_cast<const T*>(nullptr))};
        else
            return {0, 0, false};
    } else if constexpr (described<T>) {
        return described_bounds<P, T>();
    } else if constexpr (std::is_aggregate_v<T>) {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (bit_bounds{} + ... + value_bounds<P, boost::pfr::tuple_element_t<I, T>>());
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    } else {
        return {0, 0, false}; // the visitor rejects such a type with its own message
    }
}

// The fewest bits a value can take. Containers count only their own header (count,
// presence bit, index), so this stays finite for recursive types.
template <class P, class T>
constexpr std::size_t min_bits_value() noexcept {
    using A = pack_of<P>;
    if constexpr (is_invalid<decltype(classify<P, T, false>())>) {
        report_misuse<P, misuse_in<decltype(classify<P, T, false>())>>();
        return 0;
    } else if constexpr (A::template user_codec_for<T>()) {
        constexpr auto& u = P::value.user();
        if constexpr (requires { u.min_bits(); }) return u.min_bits();
        else return 0;
    } else if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
        return value_bounds<P, T>().min;
    } else if constexpr (has_attr<P, attr_kind::sparse>) {
        return 1;
    } else if constexpr (std::is_array_v<T>) {
        return min_bits_value<P, std::remove_extent_t<T>>() * std::extent_v<T>;
    } else if constexpr (is_std_array<T>::value) {
        return min_bits_value<P, typename T::value_type>() * std::tuple_size_v<T>;
    } else if constexpr (is_string<T>) {
        return static_cast<std::size_t>(bits_required_for_span(P::value.template get<attr_kind::max_length>().n));
    } else if constexpr (is_vector<T>::value || is_map<T>::value || is_set<T>::value) {
        return static_cast<std::size_t>(bits_required_for_span(P::value.template get<attr_kind::max_size>().n));
    } else if constexpr (is_optional<T>::value || is_unique_ptr<T>::value) {
        return 1;
    } else if constexpr (is_variant<T>::value) {
        return static_cast<std::size_t>(bits_required_for_span(std::variant_size_v<T> - 1));
    } else if constexpr (adl::has_serialize<measure_stream, T>) {
        // A user codec may state its least bits, so that forged counts are refused early.
        if constexpr (requires { netser_min_bits(static_cast<const T*>(nullptr)); })
            return netser_min_bits(static_cast<const T*>(nullptr));
        else
            return 0;
    } else if constexpr (described<T>) {
        std::size_t total = 0;
        boost::mp11::mp_for_each<described_bases<T>>(
            [&](auto b) { total += min_bits_value<no_attrs, typename decltype(b)::type>(); });
        constexpr std::size_t n = boost::mp11::mp_size<described_members<T>>::value;
        boost::mp11::mp_for_each<boost::mp11::mp_iota_c<n>>([&](auto i) {
            using D = member_at<T, decltype(i)::value>;
            using M = std::remove_cvref_t<decltype(std::declval<T&>().*D::pointer)>;
            using MP = member_attrs<T, decltype(i)::value>;
            if constexpr (pack_of<P>::encoding_size != 0) {
                total += min_bits_value<P, M>();
            } else if constexpr (!has_attr<MP, attr_kind::skip> && !has_attr<MP, attr_kind::only_if>) {
                total += min_bits_value<without<MP, attr_kind::check>, M>();
                if constexpr (checks_enabled && has_attr<MP, attr_kind::check>) total += 32;
            }
        });
        return total;
    } else if constexpr (std::is_aggregate_v<T>) {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (std::size_t{0} + ... + min_bits_value<P, boost::pfr::tuple_element_t<I, T>>());
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    } else {
        return 0;
    }
}

} // namespace netser::detail
