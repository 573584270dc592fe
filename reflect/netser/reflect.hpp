#pragma once

#include <netser/attributes.hpp>
#include <netser/bounds.hpp>
#include <netser/walk.hpp>
#include <netser/description.hpp>
#include <netser/extern_serialize.hpp>
#include <netser/named.hpp>
#include <netser/stream.hpp>

#include <cstddef>
#include <string_view>
#include <type_traits>

// The public entry of the reflection layer: NETSER_STRUCT & co. (description.hpp), and
// netser::serialize(stream, obj), max_bits<T>() and their friends over the walks of
// <netser/walk.hpp>. <netser/netser.hpp> adds the delta, packets, schema and tools.

namespace netser {

namespace detail {

template <class T>
constexpr std::string_view root_name() noexcept {
    // The alternative follows: "std::variant<Join>.level".
    if constexpr (is_variant<T>::value) return "std::variant";
    else return value_name<T>();
}

// One out-of-line function per type and stream, for the types that are not described
// structs, and recursive structs (whose depth is counted around their body's function).
template <stream S, class U>
bool serialize_root(S& s, U& target) {
    bool ok;
    if constexpr (!described<U> || adl::has_serialize<S, U>)
        ok = serialize_value<no_attrs>(s, target);
    else
        ok = serialize_struct_call<no_attrs>(s, target);
    if (ok) [[likely]] return true;
    root_failed_path(s, root_name<U>());
    return false;
}

// Whether serialize(s, obj) inlines U's body where it is used (a small described struct of
// fixed-width values, see inline_struct), rather than calling its function.
template <stream S, class U>
constexpr bool inline_root() noexcept {
    if constexpr (described<U> && !adl::has_serialize<S, U>) return inline_struct<no_attrs, U>;
    else return false;
}

// A function object rather than a function: argument-dependent lookup never finds it,
// so a user's own serialize(Stream&, T&) overloads stay unambiguous. Compiled is false
// in NETSER_INSTANTIATE's functions, which compile the code that the others call.
template <bool Compiled>
struct basic_serialize_fn {
    /// Writes, reads or measures obj (a described struct, a plain aggregate, a
    /// std::variant...). On failure the stream's error holds the code, the bit and
    /// the member path, rooted at the type's name.
    ///
    /// A small struct of fixed-width values is inlined where it is used, as its nested
    /// structs are in it (see inline_struct): a loop over entities then keeps the
    /// stream in registers, as it would with a hand-written serialize function. Any
    /// other type is one call.
    template <stream S, class T>
    [[nodiscard]] NETSER_INLINE bool operator()(S& s, T& obj) const {
        static_assert(!S::is_reading || !std::is_const_v<T>, "netser: reading needs a non-const object");
        using U = std::remove_const_t<T>;
        if constexpr (Compiled && compiled_elsewhere<S, U>) { // NETSER_EXTERN(U): compiled in one source file
            return netser_compiled_serialize(s, const_cast<U&>(obj), static_cast<U**>(nullptr));
        } else {
            [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<misused_struct_in<U>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
            auto& target = const_cast<U&>(obj); // writers only read through it
            if constexpr (inline_root<S, U>()) {
                if (struct_body<no_attrs, U>::inlined(s, target)) [[likely]]
                    return true;
                root_failed_path(s, root_name<U>());
                return false;
            } else if constexpr (described<U> && !adl::has_serialize<S, U> && !is_recursive_type<U>()) {
                return struct_body<no_attrs, U>::root(s, target);
            } else {
                return serialize_root(s, target);
            }
        }
    }
};

} // namespace detail

/// netser::serialize(stream, obj): one description serves write, read and measure.
inline constexpr detail::basic_serialize_fn<true> serialize{};

/// The most bits T can take on the wire, at compile time.
template <class T>
constexpr std::size_t max_bits() noexcept {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    constexpr detail::bit_bounds b = detail::value_bounds<detail::no_attrs, T>();
    static_assert(b.bounded, "netser: max_bits needs a bound for every member; a type with its own serialize "
                             "function must also define constexpr std::size_t netser_max_bits(const T*)");
    return b.max;
}

/// The most bytes T can take on the wire: ceil(max_bits<T>() / 8).
template <class T>
constexpr std::size_t max_bytes() noexcept {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    return (max_bits<T>() + 7) / 8;
}

} // namespace netser
