#pragma once

#include <netser/walk.hpp>
#include <netser/reflect.hpp>
#include <netser/stream.hpp>

#include <cstddef>
#include <type_traits>
#include <vector>

// Delta compression: a value sent against a baseline that both sides hold, derived
// from the same description as the plain encoding. docs/wire_format.md, "Delta", gives
// the wire.

namespace netser {

namespace detail {

struct serialize_delta_fn {
    /// Writes, reads or measures obj against baseline. A reader fills obj with the
    /// baseline plus the changes; obj and baseline must be distinct objects. The
    /// baseline must be the value as the reader holds it (see as_received). On failure
    /// the stream's error holds the code, the bit and the member path.
    template <stream S, class T>
    [[nodiscard]] bool operator()(S& s, T& obj, const std::remove_const_t<T>& baseline) const {
        static_assert(!S::is_reading || !std::is_const_v<T>, "netser: reading needs a non-const object");
        using U = std::remove_const_t<T>;
        [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<misused_struct_in<U>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
        auto& target = const_cast<U&>(obj); // writers only read through it
        if (serialize_delta_value<no_attrs>(s, target, baseline)) [[likely]] return true;
        root_failed_path(s, root_name<U>());
        return false;
    }
};

} // namespace detail

/// netser::serialize_delta(stream, obj, baseline): obj's changes against baseline.
inline constexpr detail::serialize_delta_fn serialize_delta{};

/// The most bits serialize_delta can write for a T, whatever the baseline, at compile time.
template <class T>
constexpr std::size_t max_delta_bits() noexcept {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    constexpr detail::bit_bounds b = detail::delta_value_bounds<detail::no_attrs, T>();
    static_assert(b.bounded, "netser: max_delta_bits needs a bound for every member; a user codec with its own "
                             "serialize_delta must state it (max_delta_bits() on an attribute, "
                             "netser_max_delta_bits(const T*) for a type)");
    return b.max;
}

/// ceil(max_delta_bits<T>() / 8).
template <class T>
constexpr std::size_t max_delta_bytes() noexcept {
    return (max_delta_bits<T>() + 7) / 8;
}

/// What a reader of obj holds after reading it: quantized floats decoded, members that
/// are not sent reset. A writer keeps this as the baseline of later deltas, since it is
/// what the reader will hold. `context` is attached to the streams (a link_context for
/// netser::linked). The error is the write's or the read's.
template <class T>
error as_received(const T& obj, T& out, void* context = nullptr) {
    [[maybe_unused]] constexpr bool named = netser_check_members(static_cast<detail::misused_struct_in<T>**>(nullptr), static_cast<void*>(nullptr)); // a mistake in it: named here, in few lines
    measure_stream m;
    m.set_context(context);
    if (!serialize(m, obj)) return m.error();
    std::vector<std::byte> buffer(m.bytes_processed());
    write_stream w(buffer.data(), buffer.size());
    w.set_context(context);
    if (!serialize(w, obj)) return w.error();
    const auto bytes = w.finish();
    read_stream r(bytes.data(), bytes.size());
    r.set_context(context);
    if (!serialize(r, out)) return r.error();
    return {};
}

} // namespace netser
