#pragma once

#include <netser/description.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/enum_codec.hpp>

#include <boost/describe/enum_to_string.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>

// Readable packets: netser::to_string(obj) prints any described struct (and what it
// holds) with member names and values, e.g. Cube{interacting=false, position={x=1, ...}}.

namespace netser {

namespace detail {

template <class T>
void print_value(std::ostream& os, const T& v);

template <class Range>
void print_sequence(std::ostream& os, const Range& r) {
    os << '[';
    bool first = true;
    for (const auto& e : r) {
        if (!first) os << ", ";
        first = false;
        print_value(os, e);
    }
    os << ']';
}

template <class T>
void print_value(std::ostream& os, const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
        os << (v ? "true" : "false");
    } else if constexpr (std::is_enum_v<T>) {
        if constexpr (is_described_enum<T>) {
            const char* name = boost::describe::enum_to_string(v, nullptr);
            if (name != nullptr) os << name;
            else os << '(' << +static_cast<std::underlying_type_t<T>>(v) << ')';
        } else {
            os << +static_cast<std::underlying_type_t<T>>(v);
        }
    } else if constexpr (std::is_integral_v<T>) {
        os << +v; // chars as numbers
    } else if constexpr (std::is_floating_point_v<T>) {
        os << v;
    } else if constexpr (is_string<T>) {
        os << '"' << v << '"';
    } else if constexpr (std::is_array_v<T> || is_std_array<T>::value || is_vector<T>::value || is_set<T>::value) {
        print_sequence(os, v);
    } else if constexpr (is_map<T>::value) {
        os << '{';
        bool first = true;
        for (const auto& [key, value] : v) {
            if (!first) os << ", ";
            first = false;
            print_value(os, key);
            os << ": ";
            print_value(os, value);
        }
        os << '}';
    } else if constexpr (is_optional<T>::value || is_unique_ptr<T>::value) {
        if (v) print_value(os, *v);
        else os << "none";
    } else if constexpr (is_variant<T>::value) {
        std::visit([&](const auto& alternative) { print_value(os, alternative); }, v);
    } else if constexpr (std::is_pointer_v<T>) {
        if (v == nullptr) os << "null";
        else os << static_cast<const void*>(v);
    } else if constexpr (described<T>) {
        os << description_of<T>.name << '{';
        bool first = true;
        boost::mp11::mp_for_each<described_bases<T>>([&](auto b) {
            using B = typename decltype(b)::type;
            if (!first) os << ", ";
            first = false;
            print_value(os, static_cast<const B&>(v));
        });
        boost::mp11::mp_for_each<described_members<T>>([&](auto d) {
            if (!first) os << ", ";
            first = false;
            os << d.name << '=';
            print_value(os, v.*d.pointer);
        });
        os << '}';
    } else if constexpr (std::is_aggregate_v<T>) {
        os << '{';
        std::size_t i = 0;
        boost::pfr::for_each_field(v, [&](const auto& field) {
            if (i++ != 0) os << ", ";
            print_value(os, field);
        });
        os << '}';
    } else {
        os << "<?>";
    }
}

} // namespace detail

/// obj with its member names and values, e.g. "Unit{hull=3, weapon=rifle}".
template <class T>
    requires(!std::is_same_v<T, errc>)
std::string to_string(const T& obj) {
    std::ostringstream os;
    detail::print_value(os, obj);
    return os.str();
}

/// `using netser::io::operator<<;` lets `std::cout << obj` print described structs.
namespace io {
template <detail::described T>
std::ostream& operator<<(std::ostream& os, const T& obj) {
    detail::print_value(os, obj);
    return os;
}
} // namespace io

} // namespace netser
