#pragma once

#include <netser/attributes.hpp>
#include <netser/bounds.hpp>
#include <netser/detail/config.hpp>
#include <netser/difference_ladder.hpp>
#include <netser/encoding.hpp>
#include <netser/stream.hpp>

#include <cstddef>
#include <string_view>

// The protocol every encoding family is written against: the entry points of the walks
// (declared here, defined in <netser/walk.hpp> once every family is in view), what a
// mistake does, the hooks a profiling stream gets, nesting limits and the error path
// of an element. A family adds overloads on its encoding's tag:
//
//   apply_encoding(s, v, tag)             write / read / measure the value
//   same_encoded(v, b, tag)               whether v and the baseline b write the same bits
//   apply_delta(s, v, b, tag, params)     a changed value's delta body
//   delta_bounds<T>(tag, params)          the most bits of that body
//   family_bounds<P, T>(tag)              the fewest and most bits of the value
//   family_min_bits<P, T>(tag)            its fewest bits (a container: its header)
//   family_schema<P, T>(builder, tag)     its node in the schema document
//   family_delta_params<T>(ladder, tag)   (optional) the ladder fitted to codes it holds
//
// and states its rule (<netser/classify.hpp> orders the rules). For what walks a type on
// its own, without a member's attributes, a family also has a tag per kind of type it
// holds (scalar_type_tag, vector_type_tag...: type_family_t<T>, in classify.hpp) and
//
//   family_hash<T, Visiting...>(hasher, type tag)   its tokens in the schema hash
//   family_type_name<T>(builder, text, type tag)    its name in the schema document
//
// The template parameters keep one meaning throughout reflect/:
//   T        the value's type            S   the stream (write_stream, read_stream...)
//   P        the provider of the value's attributes: a type whose constexpr P::value is
//            an attr_pack (member_attrs<C, I>, no_attrs, without<P, K...>)
//   EP, KP, VP  the providers of a container's elements, keys and mapped values (P
//            without the container's own attributes)
//   A        an attr_pack type (pack_of<P>), or one attribute's type
//   E        an encoding (a tag or a value such as range_encoding<T>), or an element type
//   Q        the provider a tag carries (sparse_encoding<Q>), when a walk's P is at hand
//   C, I, D  a described struct, a member's index, its Boost.Describe descriptor
//   M        a member's type             B   a schema builder

namespace netser::detail {

/// Writes, reads or measures v with attributes P: apply_encoding(s, v, encoding_v<P, T>),
/// one overload per family of encodings.
template <class P, stream S, class T>
NETSER_INLINE bool serialize_value(S& s, T& v);

/// A mistake (reported here unless NETSER_STRUCT named it): no code, no other error.
template <stream S, class T, class P, misuse K>
bool apply_encoding(S&, T&, invalid_encoding<P, K>) noexcept {
    report_misuse<P, K>();
    return false;
}

// ---- delta: a value against a baseline both sides hold ---------------------------
//
// Every value is a changed bit, then, when it changed, its family's delta body:
// apply_delta(s, v, b, encoding, params), beside apply_encoding in the family's header.
// same_encoded(v, b, encoding) tells a writer whether v goes on the wire as b does (a
// reader of v would hold b): only then is v sent as unchanged. A reader copies what did
// not change from the baseline.

/// What a delta body takes from the attributes besides the encoding: the ladder of code
/// differences, fitted to the range of the value's (or its elements') codes.
struct delta_params {
    effective_ladder ladder;
};

/// The changed bit of v against b, then its delta body (a user codec's own
/// serialize_delta instead, when it has one).
template <class P, stream S, class T>
bool serialize_delta_value(S& s, T& v, const T& b);

/// What a writer wrote for a value: its changed bit clear or set, or a user codec's own
/// serialize_delta (unknown: netser does not read its bits); failed when the write failed.
/// Ordered: a struct wrote what the most of its members did.
enum class delta_written : unsigned char { failed, unchanged, unknown, changed };

/// serialize_delta_value for writers, saying what it wrote. A family may write the
/// changed bit and the body at once (write_changed: a scalar codes each side once, a
/// struct writes its members and takes them back when none changed); the others test
/// same_value first.
template <class P, stream S, class T>
NETSER_INLINE delta_written write_delta_value(S& s, T& v, const T& b);

/// The delta body of a v that differs from b: apply_delta with v's encoding.
template <class P, stream S, class T>
bool delta_body(S& s, T& v, const T& b);

/// Whether a and b hold the same bytes in every value they contain, so that they write
/// the same bits (false: not known).
template <class T>
NETSER_INLINE bool bitwise_equal(const T& a, const T& b) noexcept;

/// Whether v goes on the wire as b does, with attributes P (false when v cannot be written).
template <class P, class T>
bool same_value(const T& v, const T& b);

/// The flags a range stream codes an element's changed bit and delta body under: the
/// values of the first four bool members of a struct element (its own, in description
/// order, skipped ones left out) as bits after a leading 1; 0 for an element without.
template <class T>
std::uint32_t element_flags(const T& e) noexcept;

/// v = b, also for types that cannot be copy-assigned (std::unique_ptr members): what a
/// reader keeps of the baseline.
template <class T>
void copy_value(T& v, const T& b);

/// The most bits the delta of a T with attributes P can take (changed bit included), and
/// of its delta body alone; bounded is false when a user codec states no bound.
template <class P, class T>
constexpr bit_bounds delta_value_bounds() noexcept;
template <class P, class T>
constexpr bit_bounds delta_body_bounds() noexcept;

/// The larger of two worst cases.
constexpr bit_bounds worst_of(bit_bounds a, bit_bounds b) noexcept {
    return {0, a.max > b.max ? a.max : b.max, a.bounded && b.bounded};
}

template <class T, class P, misuse K>
constexpr bit_bounds delta_bounds(invalid_encoding<P, K>, const delta_params&) noexcept {
    report_misuse<P, K>();
    return {};
}
template <stream S, class T, class P, misuse K>
bool apply_delta(S&, T&, const T&, invalid_encoding<P, K>, const delta_params&) noexcept {
    report_misuse<P, K>();
    return false;
}
template <class T, class P, misuse K>
bool same_encoded(const T&, const T&, invalid_encoding<P, K>) noexcept {
    report_misuse<P, K>();
    return false;
}

// A stream that wants to know where its bits go (profile_stream) is told when each
// member, element, variant alternative and variant index starts and ends; other
// streams pay nothing.
template <class S>
concept profiling_stream = requires(S& s, std::string_view name) {
    s.enter_member(name);
    s.enter_element();
    s.enter_alternative(name);
    s.enter_index();
    s.leave();
};

template <class P, stream S, class T>
NETSER_INLINE bool profiled_value(S& s, T& v, [[maybe_unused]] std::string_view name) {
    if constexpr (profiling_stream<S>) {
        s.enter_member(name);
        const bool ok = serialize_value<P>(s, v);
        s.leave();
        return ok;
    } else {
        return serialize_value<P>(s, v);
    }
}

/// Adds "[i]" to the error path of a failed element.
template <stream S>
NETSER_COLD bool fail_at_index(S& s, std::size_t i) noexcept {
    s.error().prepend_index(i);
    return false;
}

// Recursive structs nest at most s.max_depth() deep (64 by default), so a hostile packet
// cannot exhaust the stack: deeper fails with too_large. Other structs cannot nest
// without bound and pay nothing.
template <stream S>
NETSER_INLINE bool enter_nested(S& s) noexcept {
    if constexpr (requires { s.enter_nested(); }) {
        if (!s.enter_nested()) [[unlikely]] {
            s.leave_nested();
            return s.fail(errc::too_large, s.bits_processed());
        }
    }
    return true;
}

template <stream S>
NETSER_INLINE bool leave_nested(S& s, bool ok) noexcept {
    if constexpr (requires { s.leave_nested(); }) s.leave_nested();
    return ok;
}

} // namespace netser::detail
