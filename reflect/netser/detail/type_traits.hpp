#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
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
template <class T> struct is_unique_ptr : std::false_type {};
template <class E> struct is_unique_ptr<std::unique_ptr<E>> : std::true_type {};

// Gives an optional or a unique_ptr a default-constructed value (a reader's target).
template <class T>
void engage(T& v) {
    if constexpr (is_unique_ptr<T>::value) v = std::make_unique<typename T::element_type>();
    else v.emplace();
}

// std::map, std::unordered_map (key + mapped value) and std::set (key only).
template <class T> struct is_map : std::false_type {};
template <class K, class V, class C, class A> struct is_map<std::map<K, V, C, A>> : std::true_type {};
template <class K, class V, class H, class E, class A>
struct is_map<std::unordered_map<K, V, H, E, A>> : std::true_type {};
template <class T> struct is_set : std::false_type {};
template <class K, class C, class A> struct is_set<std::set<K, C, A>> : std::true_type {};

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

// The name of T as the compiler spells it, for the root of an error path.
template <class T>
constexpr std::string_view type_name() noexcept {
    std::string_view f = __PRETTY_FUNCTION__;
    const auto start = f.find("T = ") + 4;
    auto end = f.find_first_of(";]", start);
    return f.substr(start, end - start);
}

} // namespace netser::detail
