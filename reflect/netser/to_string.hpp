#pragma once

#include <netser/description.hpp>
#include <netser/detail/type_traits.hpp>
#include <netser/encodings/enum.hpp>

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
void print_value(std::string& out, const T& v);

template <class Range>
void print_sequence(std::string& out, const Range& r) {
    out += '[';
    bool first = true;
    for (const auto& e : r) {
        if (!first) out += ", ";
        first = false;
        print_value(out, e);
    }
    out += ']';
}

// Floats as std::ostream prints them by default (%g, 6 significant digits), pointers
// as it prints a void* (%p).
inline void append_printed(std::string& out, int n, const char (&text)[64]) {
    if (n > 0) out.append(text, n < 64 ? static_cast<std::size_t>(n) : 63);
}
inline void print_float(std::string& out, double v) {
    char text[64];
    append_printed(out, std::snprintf(text, sizeof text, "%.6g", v), text);
}
inline void print_pointer(std::string& out, const void* p) {
    char text[64];
    append_printed(out, std::snprintf(text, sizeof text, "%p", p), text);
}

template <class T>
void print_value(std::string& out, const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
        out += v ? "true" : "false";
    } else if constexpr (std::is_enum_v<T>) {
        const auto number = [&] { return std::to_string(+static_cast<std::underlying_type_t<T>>(v)); };
        if constexpr (is_described_enum<T>) {
            const char* name = boost::describe::enum_to_string(v, nullptr);
            if (name != nullptr) out += name;
            else out.append("(").append(number()).append(")");
        } else {
            out += number();
        }
    } else if constexpr (std::is_integral_v<T>) {
        out += std::to_string(+v); // chars as numbers
    } else if constexpr (std::is_floating_point_v<T>) {
        print_float(out, static_cast<double>(v));
    } else if constexpr (is_string<T>) {
        out.append("\"").append(v).append("\"");
    } else if constexpr (std::is_array_v<T> || is_std_array<T>::value || is_vector<T>::value || is_set<T>::value) {
        print_sequence(out, v);
    } else if constexpr (is_map<T>::value) {
        out += '{';
        bool first = true;
        for (const auto& [key, value] : v) {
            if (!first) out += ", ";
            first = false;
            print_value(out, key);
            out += ": ";
            print_value(out, value);
        }
        out += '}';
    } else if constexpr (is_optional<T>::value || is_unique_ptr<T>::value) {
        if (v) print_value(out, *v);
        else out += "none";
    } else if constexpr (is_variant<T>::value) {
        std::visit([&](const auto& alternative) { print_value(out, alternative); }, v);
    } else if constexpr (std::is_pointer_v<T>) {
        if (v == nullptr) out += "null";
        else print_pointer(out, static_cast<const void*>(v));
    } else if constexpr (described<T>) {
        out.append(description_of<T>.name) += '{';
        bool first = true;
        boost::mp11::mp_for_each<described_bases<T>>([&](auto b) {
            using B = typename decltype(b)::type;
            if (!first) out += ", ";
            first = false;
            print_value(out, static_cast<const B&>(v));
        });
        boost::mp11::mp_for_each<described_members<T>>([&](auto d) {
            if (!first) out += ", ";
            first = false;
            out.append(d.name) += '=';
            print_value(out, v.*d.pointer);
        });
        out += '}';
    } else if constexpr (std::is_aggregate_v<T>) {
        out += '{';
        std::size_t i = 0;
        boost::pfr::for_each_field(v, [&](const auto& field) {
            if (i++ != 0) out += ", ";
            print_value(out, field);
        });
        out += '}';
    } else {
        out += "<?>";
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
