#pragma once

#include <netser/attributes.hpp>
#include <netser/primitives.hpp>

#include <boost/describe/enum.hpp> // BOOST_DEFINE_ENUM_CLASS & co. for users of <netser/netser.hpp>
#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

// Described enums: (v - smallest enumerator) in bits_required(smallest, largest) bits.
// A value that is not a declared enumerator (a gap of a sparse enum included) fails
// with invalid_value, on write and on read.

namespace netser::detail {

template <class E>
inline constexpr bool is_described_enum = boost::describe::has_describe_enumerators<E>::value;

template <class E>
struct enum_info {
    using U = std::underlying_type_t<E>;
    using list = boost::describe::describe_enumerators<E>;
    static constexpr std::size_t count = boost::mp11::mp_size<list>::value;
    static_assert(count > 0, "netser: a described enum needs at least one enumerator");

    // The declared values, sorted, as offsets from the smallest (unsigned, modulo 2^64).
    static constexpr std::array<std::uint64_t, count> codes = [] {
        std::array<U, count> values{};
        std::size_t i = 0;
        boost::mp11::mp_for_each<list>([&](auto d) { values[i++] = static_cast<U>(d.value); });
        std::sort(values.begin(), values.end());
        std::array<std::uint64_t, count> out{};
        for (std::size_t j = 0; j < count; ++j)
            out[j] = static_cast<std::uint64_t>(values[j]) - static_cast<std::uint64_t>(values[0]);
        return out;
    }();
    static constexpr U min = [] {
        U m{};
        bool first = true;
        boost::mp11::mp_for_each<list>([&](auto d) {
            const auto v = static_cast<U>(d.value);
            if (first || v < m) m = v;
            first = false;
        });
        return m;
    }();
    static constexpr std::uint64_t span = codes[count - 1];
    static constexpr int bits = bits_required_for_span(span);
    static constexpr bool dense = span == count - 1;

    static constexpr bool declared(std::uint64_t code) noexcept {
        if constexpr (dense) return code <= span;
        else return std::binary_search(codes.begin(), codes.end(), code);
    }
};

template <class P, stream S, class E>
bool serialize_enum(S& s, E& v) noexcept {
    using U = std::underlying_type_t<E>;
    if constexpr (!is_described_enum<E>) {
        static_assert(has_attr<P, attr_kind::range> || has_attr<P, attr_kind::bits>,
                      "netser: this enum is not described; use BOOST_DEFINE_ENUM_CLASS / BOOST_DESCRIBE_ENUM, "
                      "or give the member netser::range or netser::bits");
        U u = static_cast<U>(v);
        constexpr auto& a = P::value;
        bool ok = false;
        if constexpr (has_attr<P, attr_kind::range>) {
            constexpr auto r = a.template get<attr_kind::range>();
            static_assert(std::in_range<U>(r.min) && std::in_range<U>(r.max) && !std::cmp_greater(r.min, r.max),
                          "netser: netser::range(min, max) needs min <= max, both representable in the enum's "
                          "underlying type");
            ok = serialize_int(s, u, static_cast<U>(r.min), static_cast<U>(r.max));
        } else {
            using UU = std::make_unsigned_t<U>;
            constexpr int n = a.template get<attr_kind::bits>().n;
            static_assert(n >= 1 && n <= std::numeric_limits<UU>::digits,
                          "netser: netser::bits(n) needs 1 <= n <= the enum's width");
            UU uu = static_cast<UU>(u);
            ok = serialize_bits(s, uu, n);
            u = static_cast<U>(uu);
        }
        if (ok && S::is_reading) v = static_cast<E>(u);
        return ok;
    } else {
        static_assert(pack_of<P>::size == 0,
                      "netser: a described enum member takes no encoding attribute (its enumerators set its bits)");
        using info = enum_info<E>;
        const std::size_t at = s.bits_processed();
        std::uint64_t code = static_cast<std::uint64_t>(static_cast<U>(v)) - static_cast<std::uint64_t>(info::min);
        if constexpr (!S::is_reading)
            if (!info::declared(code)) [[unlikely]] return s.fail(errc::invalid_value, at);
        if (!s.process_bits(code, info::bits)) return false;
        if constexpr (S::is_reading) {
            if (!info::declared(code)) [[unlikely]] return s.fail(errc::invalid_value, at);
            v = static_cast<E>(static_cast<U>(static_cast<std::uint64_t>(info::min) + code));
        }
        return true;
    }
}

} // namespace netser::detail
