#pragma once

#include <netser/stream.hpp>

#include <concepts>
#include <type_traits>

// Compiling a type's serialize code once per program instead of once per source file
// that serializes it: NETSER_EXTERN(T) in a header declares T's write, read and measure
// functions; NETSER_INSTANTIATE(T) in one source file, where T is described, defines
// them. netser::serialize(s, obj) then calls them for those three streams (any other
// stream, or a T nested in another struct, is compiled where it is used, as without).
//
// They are plain functions found by argument-dependent lookup rather than explicit
// instantiations of netser's templates: a file that only calls them instantiates
// nothing of the walks, not even the checks that choose the walk, and needs no
// description of T. The T** argument makes the match exact (a derived struct never
// calls its base's functions).

/// In a header, in T's namespace: T's serialize code is compiled in the one source file
/// that says NETSER_INSTANTIATE(T).
#define NETSER_EXTERN(...)                                                                                 \
    bool netser_compiled_serialize(::netser::write_stream&, __VA_ARGS__&, __VA_ARGS__**);                  \
    bool netser_compiled_serialize(::netser::read_stream&, __VA_ARGS__&, __VA_ARGS__**);                   \
    bool netser_compiled_serialize(::netser::measure_stream&, __VA_ARGS__&, __VA_ARGS__**);                \
    static_assert(::netser::detail::declared_extern<std::remove_cv_t<__VA_ARGS__>>,                         \
                  "netser: NETSER_EXTERN(T) must name a non-const class or enum type and be placed in the "   \
                  "namespace that declares it (argument-dependent lookup finds it there only)")

/// In one source file, in T's namespace, after T's description: compiles T's write, read
/// and measure code (basic_serialize_fn<false>: serialize without the call to these).
#define NETSER_INSTANTIATE(...)                                                                  \
    bool netser_compiled_serialize(::netser::write_stream& s, __VA_ARGS__& v, __VA_ARGS__**) {   \
        return ::netser::detail::basic_serialize_fn<false>{}(s, v);                              \
    }                                                                                            \
    bool netser_compiled_serialize(::netser::read_stream& s, __VA_ARGS__& v, __VA_ARGS__**) {    \
        return ::netser::detail::basic_serialize_fn<false>{}(s, v);                              \
    }                                                                                            \
    bool netser_compiled_serialize(::netser::measure_stream& s, __VA_ARGS__& v, __VA_ARGS__**) { \
        return ::netser::detail::basic_serialize_fn<false>{}(s, v);                              \
    }

namespace netser::detail {

// Whether NETSER_EXTERN(T) was said (it declares the three functions together): T is then
// serialized by its description, which may be in another file, and is never taken for a
// plain aggregate (classify).
template <class T>
concept declared_extern = requires(write_stream& s, T& v) {
    { netser_compiled_serialize(s, v, static_cast<T**>(nullptr)) } -> std::same_as<bool>;
};

// Whether serialize(s, obj) calls T's functions compiled elsewhere: S is one of the three
// core streams (exactly; a stream derived from one has its own behaviour).
template <class S, class T>
concept compiled_elsewhere =
    (std::is_same_v<S, write_stream> || std::is_same_v<S, read_stream> || std::is_same_v<S, measure_stream>) &&
    declared_extern<T>;

} // namespace netser::detail
