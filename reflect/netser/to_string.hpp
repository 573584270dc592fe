#pragma once

#include <netser/description.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/enum_codec.hpp>

#include <boost/describe/enum_to_string.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iosfwd>
#include <string>
#include <type_traits>

// Readable packets: netser::to_string(obj) prints any described struct (and what it
// holds) with member names and values, e.g. Cube{interacting=false, position={x=1, ...}}.

namespace netser {

namespace detail {

// The text is built in a std::string rather than a std::ostringstream: <sstream> and
// <ostream> would cost every file that includes <netser/netser.hpp>, printing or not.
template <class T>
void print_value(std::string& os, const T& v);

template <class Range>
void print_sequence(std::string& os, const Range& r) {
    os += '[';
    bool first = true;
    for (const auto& e : r) {
        if (!first) os += ", ";
        first = false;
        print_value(os, e);
    }
    os += ']';
}

// Floats as std::ostream prints them by default (%g, 6 significant digits), pointers
// as it prints a void* (%p).
inline void append_printed(std::string& os, int n, const char (&text)[64]) {
    if (n > 0) os.append(text, n < 64 ? static_cast<std::size_t>(n) : 63);
}
inline void print_float(std::string& os, double v) {
    char text[64];
    append_printed(os, std::snprintf(text, sizeof text, "%.6g", v), text);
}
inline void print_pointer(std::string& os, const void* p) {
    char text[64];
    append_printed(os, std::snprintf(text, sizeof text, "%p", p), text);
}

template <class T>
void print_value(std::string& os, const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
        os += v ? "true" : "false";
    } else if constexpr (std::is_enum_v<T>) {
        const auto number = std::to_string(+static_cast<std::underlying_type_t<T>>(v));
        if constexpr (is_described_enum<T>) {
            const char* name = boost::describe::enum_to_string(v, nullptr);
            if (name != nullptr) os += name;
            else os.append("(").append(number).append(")");
        } else {
            os += number;
        }
    } else if constexpr (std::is_integral_v<T>) {
        os += std::to_string(+v); // chars as numbers
    } else if constexpr (std::is_floating_point_v<T>) {
        print_float(os, static_cast<double>(v));
    } else if constexpr (is_string<T>) {
        os.append("\"").append(v).append("\"");
    } else if constexpr (std::is_array_v<T> || is_std_array<T>::value || is_vector<T>::value || is_set<T>::value) {
        print_sequence(os, v);
    } else if constexpr (is_map<T>::value) {
        os += '{';
        bool first = true;
        for (const auto& [key, value] : v) {
            if (!first) os += ", ";
            first = false;
            print_value(os, key);
            os += ": ";
            print_value(os, value);
        }
        os += '}';
    } else if constexpr (is_optional<T>::value || is_unique_ptr<T>::value) {
        if (v) print_value(os, *v);
        else os += "none";
    } else if constexpr (is_variant<T>::value) {
        std::visit([&](const auto& alternative) { print_value(os, alternative); }, v);
    } else if constexpr (std::is_pointer_v<T>) {
        if (v == nullptr) os += "null";
        else print_pointer(os, static_cast<const void*>(v));
    } else if constexpr (described<T>) {
        os.append(description_of<T>.name) += '{';
        bool first = true;
        boost::mp11::mp_for_each<described_bases<T>>([&](auto b) {
            using B = typename decltype(b)::type;
            if (!first) os += ", ";
            first = false;
            print_value(os, static_cast<const B&>(v));
        });
        boost::mp11::mp_for_each<described_members<T>>([&](auto d) {
            if (!first) os += ", ";
            first = false;
            os.append(d.name) += '=';
            print_value(os, v.*d.pointer);
        });
        os += '}';
    } else if constexpr (std::is_aggregate_v<T>) {
        os += '{';
        std::size_t i = 0;
        boost::pfr::for_each_field(v, [&](const auto& field) {
            if (i++ != 0) os += ", ";
            print_value(os, field);
        });
        os += '}';
    } else {
        os += "<?>";
    }
}

} // namespace detail

/// obj with its member names and values, e.g. "Unit{hull=3, weapon=rifle}".
template <class T>
    requires(!std::is_same_v<T, errc>)
std::string to_string(const T& obj) {
    std::string text;
    detail::print_value(text, obj);
    return text;
}

/// `using netser::io::operator<<;` lets `std::cout << obj` print described structs
/// (the file that streams has included <ostream>).
namespace io {
template <detail::described T>
std::ostream& operator<<(std::ostream& os, const T& obj) {
    return os << netser::to_string(obj);
}
} // namespace io

} // namespace netser
