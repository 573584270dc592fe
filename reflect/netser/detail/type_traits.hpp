#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace netser::detail {

template <class T>
inline constexpr bool always_false = false;

template <class T> struct is_std_array : std::false_type {};
template <class E, std::size_t N> struct is_std_array<std::array<E, N>> : std::true_type {};
template <class T> struct is_vector : std::false_type {};
template <class E, class A> struct is_vector<std::vector<E, A>> : std::true_type {};
template <class T> struct is_optional : std::false_type {};
template <class E> struct is_optional<std::optional<E>> : std::true_type {};
template <class T> struct is_variant : std::false_type {};
template <class... E> struct is_variant<std::variant<E...>> : std::true_type {};
// The name of T as the compiler spells it, for the root of an error path.
template <class T>
constexpr std::string_view type_name() noexcept {
    std::string_view f = __PRETTY_FUNCTION__;
    const auto start = f.find("T = ") + 4;
    auto end = f.find_first_of(";]", start);
    return f.substr(start, end - start);
}

// std::unique_ptr, std::map, std::unordered_map and std::set are recognised without their
// headers: <memory> alone costs a file that includes netser more to parse than the rest
// of the reflection layer (libstdc++ 12's brings <ostream>, shared_ptr and atomics), and
// a user who has such a member has included its header. A type is one of them when it
// has their members and the compiler names it so (std::name<...>, an inline namespace
// such as libstdc++'s __debug or libc++'s __1 allowed between).
constexpr bool names_std_template(std::string_view type, std::string_view name) noexcept {
    if (!type.starts_with("std::")) return false;
    type.remove_prefix(5);
    while (type.starts_with("__")) { // an inline namespace
        const auto end = type.find("::");
        if (end == std::string_view::npos) return false;
        type.remove_prefix(end + 2);
    }
    return type.starts_with(name) && type.substr(name.size()).starts_with('<');
}

// The owner of a unique_ptr with the default deleter (one a reader may fill with new).
template <class T>
concept std_unique_ptr = requires(T& p) {
    typename T::element_type;
    typename T::deleter_type;
    p.release();
} && names_std_template(type_name<T>(), "unique_ptr") &&
                         names_std_template(type_name<typename T::deleter_type>(), "default_delete");
template <class T>
concept std_map = requires {
    typename T::key_type;
    typename T::mapped_type;
} && (names_std_template(type_name<T>(), "map") || names_std_template(type_name<T>(), "unordered_map"));
template <class T>
concept std_set = requires { typename T::key_type; } && !requires { typename T::mapped_type; } &&
                   (names_std_template(type_name<T>(), "set") || names_std_template(type_name<T>(), "unordered_set"));

template <class T> struct is_unique_ptr : std::bool_constant<std_unique_ptr<T>> {};

// Gives an optional or a unique_ptr a default-constructed value (a reader's target).
template <class T>
void engage(T& v) {
    if constexpr (is_unique_ptr<T>::value) v.reset(new typename T::element_type()); // std::make_unique's
    else v.emplace();
}

// std::map, std::unordered_map (key + mapped value), std::set and std::unordered_set (key only).
template <class T> struct is_map : std::bool_constant<std_map<T>> {};
template <class T> struct is_set : std::bool_constant<std_set<T>> {};

template <class T>
inline constexpr bool is_string = std::is_same_v<T, std::string>;

// An arithmetic type's name by its wire meaning, the same with every compiler: "bool",
// "uint16", "int32", "float32"...
template <class T>
constexpr std::string_view wire_scalar_name() noexcept {
    if constexpr (std::is_same_v<T, bool>) return "bool";
    else if constexpr (std::is_floating_point_v<T>) return sizeof(T) == 4 ? "float32" : "float64";
    else if constexpr (std::is_signed_v<T>)
        return sizeof(T) == 1 ? "int8" : sizeof(T) == 2 ? "int16" : sizeof(T) == 4 ? "int32" : "int64";
    else return sizeof(T) == 1 ? "uint8" : sizeof(T) == 2 ? "uint16" : sizeof(T) == 4 ? "uint32" : "uint64";
}

} // namespace netser::detail
