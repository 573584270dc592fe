#pragma once

#include <netser/attributes.hpp>
#include <netser/check.hpp>
#include <netser/description.hpp>
#include <netser/detail/recursion.hpp>
#include <netser/detail/schema_hasher.hpp>
#include <netser/detail/schema_node.hpp>
#include <netser/encoding.hpp>
#include <netser/encodings/protocol.hpp>
#include <netser/encodings/scalar.hpp>
#include <netser/primitives.hpp>

#include <boost/mp11/algorithm.hpp>
#include <boost/pfr/core.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

// Structs: a described struct's bases, then its members in the order of its
// description; plain aggregates field by field through Boost.PFR. Delta: each base
// and member's own delta, in the same order.

namespace netser::detail {

// ---- classification -------------------------------------------------------------

template <class P, class C, template <class...> class L, class... D>
constexpr misuse components_misuse(L<D...>*) noexcept {
    return first_of(
        {misuse::none, misuse_of<P, std::remove_cvref_t<decltype(std::declval<C&>().*D::pointer)>, true>...});
}

template <class P, class T>
constexpr misuse fields_misuse() noexcept {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return first_of({misuse::none, misuse_of<P, boost::pfr::tuple_element_t<I, T>, true>...});
    }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

/// A described struct. Attributes about the delta only do not change its encoding; the
/// others apply to its members.
template <class P, class T>
constexpr auto struct_encoding_of() noexcept {
    if constexpr (pack_of<P>::encoding_size == 0)
        return struct_encoding<no_attrs>{};
    else
        return valid_or<P, components_misuse<P, T>(static_cast<described_members<T>*>(nullptr)), struct_encoding<P>>{};
}

/// A plain aggregate (Boost.PFR): fields take the aggregate's attributes; with none, a
/// field with no default encoding needs a description.
template <class P, class T>
constexpr auto aggregate_encoding_of() noexcept {
    if constexpr (pack_of<P>::encoding_size == 0)
        return valid_or<P, fields_misuse<no_attrs, T>() == misuse::none ? misuse::none : misuse::plain_aggregate,
                        aggregate_encoding<no_attrs>>{};
    else
        return valid_or<P, fields_misuse<P, T>(), aggregate_encoding<P>>{};
}


// A member not sent gets the value a default-constructed C gives it (its default member
// initializer), or a value-initialized one when C has no default constructor.
template <class C, class D>
concept constant_default_member = requires {
    typename std::integral_constant<bool, ((void)(C{}.*D::pointer), true)>;
};

// m = d, element by element for C arrays (which have no assignment).
template <class M>
void assign_from(M& m, const M& d) {
    if constexpr (std::is_array_v<M>) {
        for (std::size_t i = 0; i < std::extent_v<M>; ++i) assign_from(m[i], d[i]);
    } else {
        m = d;
    }
}

template <class C, class D, class M>
void reset_to_default(M& m) {
    if constexpr ((std::is_arithmetic_v<M> || std::is_enum_v<M>) && constant_default_member<C, D>) {
        constexpr M value = C{}.*D::pointer; // a constant: no guarded static to test on every read
        m = value;
    } else if constexpr (std::is_default_constructible_v<C> &&
                         (std::is_copy_assignable_v<M> || std::is_array_v<M>)) {
        static const C defaults{};
        assign_from(m, defaults.*D::pointer);
    } else if constexpr (std::is_array_v<M>) {
        static const M value_initialized{};
        assign_from(m, value_initialized);
    } else {
        m = M{};
    }
}

// The only_if flag of member I of C: a bool member listed before it (or a base's;
// NETSER_STRUCT reports any other by name).
template <class C, std::size_t I>
constexpr auto only_if_flag() noexcept {
    return member_attrs<C, I>::value.template get<attr_kind::only_if>().flag;
}

// ---- member modifiers: skip, only_if, check ----------------------------------------
//
// Written once, for the plain, sameness and delta walks of a struct's members. A member
// with skip is never sent (skipped_member, decided at compile time: its value's walk is
// never instantiated). Any other member is sent when member_present (only_if's flag is
// set, or it has no only_if; an absent one a reader resets with reset_to_default), after
// member_checked (its check matches, or it has none; a failure is named by the member).
// (Two tests rather than callbacks or a three-way answer: what each walk does with them
// stays in the walk's own body, and the compilers optimize it as they did before.)

/// Whether member I of C has a modifier (a member without one is walked directly).
template <class C, std::size_t I>
inline constexpr bool has_modifiers = has_attr<member_attrs<C, I>, attr_kind::skip> ||
                                      has_attr<member_attrs<C, I>, attr_kind::only_if> ||
                                      has_attr<member_attrs<C, I>, attr_kind::check>;

template <class C, std::size_t I>
inline constexpr bool skipped_member = has_attr<member_attrs<C, I>, attr_kind::skip>;

template <class C, std::size_t I>
NETSER_INLINE bool member_present([[maybe_unused]] const C& obj) noexcept {
    if constexpr (has_attr<member_attrs<C, I>, attr_kind::only_if>) return obj.*only_if_flag<C, I>();
    else return true;
}

template <class C, std::size_t I, stream S>
NETSER_INLINE bool member_checked([[maybe_unused]] S& s) {
    using P = member_attrs<C, I>;
    if constexpr (checks_enabled && has_attr<P, attr_kind::check>) {
        if (!serialize_check(s, P::value.template get<attr_kind::check>().magic)) [[unlikely]] {
            s.error().prepend_member(member_at<C, I>::name);
            return false;
        }
    }
    return true;
}

// The plain walk of a member with modifiers.
template <class C, std::size_t I, stream S>
NETSER_INLINE bool serialize_member(S& s, C& obj) {
    using D = member_at<C, I>;
    if constexpr (skipped_member<C, I>) {
        return true;
    } else {
        auto& m = obj.*D::pointer;
        if (!member_present<C, I>(obj)) {
            if constexpr (S::is_reading) reset_to_default<C, D>(m);
            return true;
        }
        if (!member_checked<C, I>(s)) [[unlikely]] return false;
        if (profiled_value<value_provider<member_attrs<C, I>>>(s, m, D::name)) [[likely]] return true;
        s.error().prepend_member(D::name);
        return false;
    }
}

// The plain walk of a component of a vector-like struct, which takes the struct's
// scalar attributes P (for a stream told where it is: the other streams pack them).
template <class P, class C, std::size_t I, stream S>
bool serialize_component(S& s, C& obj) {
    using D = member_at<C, I>;
    if (profiled_value<P>(s, obj.*D::pointer, D::name)) [[likely]] return true;
    s.error().prepend_member(D::name);
    return false;
}

// A member that needs its struct (only_if reads a flag of it) or that is not simply
// its value's encoding (skip, check): serialize_member handles it.
template <class C, std::size_t I>
struct special_member {};

// How the plain walk of a struct's members takes an encoding: as it is, or, for common
// values and optionals of value encodings, as a value (common_values, optional_value), so
// that every member of the same type and kind of encoding shares one function.
// (Functions of the type and the encoding only: one per type and kind of encoding.)
template <class T, class E>
constexpr E walk_form(const E& e) noexcept {
    return e;
}
template <class T, class Q>
constexpr auto walk_form(const common_encoding<Q>&) noexcept {
    return common_values_of<Q, T>();
}
template <class T, class Q>
constexpr auto walk_form(const optional_encoding<Q>& e) noexcept {
    if constexpr (is_optional<T>::value) {
        using E = encoding_t<Q, typename T::value_type>;
        if constexpr (is_value_encoding<E>) return optional_value<E>{encoding_v<Q, typename T::value_type>};
        else return e;
    } else {
        return e;
    }
}

// The encoding of member I of C: its own, or, in a vector-like struct that takes scalar
// attributes P, the component encoding P gives it.
template <class C, std::size_t I, class P = no_attrs>
constexpr auto member_encoding() noexcept {
    using A = member_attrs<C, I>;
    if constexpr (pack_of<P>::encoding_size != 0)
        return walk_form<member_type<C, I>>(classify<P, member_type<C, I>, false>());
    else if constexpr (has_attr<A, attr_kind::skip> || has_attr<A, attr_kind::only_if> ||
                       has_attr<A, attr_kind::check>)
        return special_member<C, I>{};
    else
        return walk_form<member_type<C, I>>(classify<A, member_type<C, I>, false>());
}

template <class C, std::size_t I, class P = no_attrs>
inline constexpr auto member_encoding_v = member_encoding<C, I, P>();

// ---- members in a row with fixed-width encodings travel packed ------------------
//
// Their codes are gathered into one 64-bit word that goes through the bit-packer once
// (one room check, one store or load), which is faster than a call per member and
// far less code to compile. The bits are the same as member by member, and so are the
// errors: the first member that fails, at its own bit, with its name.

// The bits of a member's code: one function per type and kind of encoding.
template <class T, class E>
constexpr int code_width(const E& e) noexcept {
    if constexpr (is_fixed_width<E>) {
        return code_bits<T>(e);
    } else {
        return -1; // not fixed width
    }
}

// How a member goes: on its own (its encoding, or serialize_member for a special
// one), or as the first, a middle or the last member of a packed run.
enum class step_kind : unsigned char { alone, first, middle, last };

// A run fits the bit reader's one-load fast path (56 bits).
inline constexpr int max_run_bits = 56;

// Per member of a struct of N: its place in its run, the run's first member, length and
// bits.
template <std::size_t N>
struct run_layout {
    step_kind kind[N + 1]{};
    int offset[N + 1]{};
    std::size_t first[N + 1]{};
    std::size_t length[N + 1]{};
    int bits[N + 1]{};
};

// The runs of N members of these code widths (-1: not fixed width): one function per N,
// shared by every struct of N members (as are the two below).
template <std::size_t N>
constexpr run_layout<N> layout_runs(const std::array<int, N>& widths) noexcept {
    run_layout<N> r;
    for (std::size_t i = 0; i < N;) {
        std::size_t n = 1;
        int bits = widths[i];
        if (widths[i] >= 0) {
            while (i + n < N && widths[i + n] >= 0 && bits + widths[i + n] <= max_run_bits) {
                r.offset[i + n] = bits;
                bits += widths[i + n++];
            }
        }
        for (std::size_t j = i; j < i + n; ++j) {
            r.kind[j] = n == 1 ? step_kind::alone
                        : j == i ? step_kind::first
                        : j + 1 == i + n ? step_kind::last
                                         : step_kind::middle;
            r.first[j] = i;
            r.length[j] = n;
            r.bits[j] = bits;
        }
        i += n;
    }
    return r;
}

template <std::size_t N>
constexpr bool all_fixed_width(const std::array<int, N>& widths) noexcept {
    for (int w : widths)
        if (w < 0) return false;
    return true;
}

template <class C, class P, std::size_t... I>
constexpr std::array<int, sizeof...(I)> member_widths(std::index_sequence<I...>) noexcept {
    return {code_width<member_type<C, I>>(member_encoding_v<C, I, P>)...};
}

// Runs of members (with the component attributes P of a vector-like struct): each is
// one member, or several fixed-width ones within 56 bits. (Functions, not lambdas: a
// lambda costs the compiler a class and three members per struct.)
template <class C, class P = no_attrs>
struct member_runs {
    static constexpr std::size_t members = boost::mp11::mp_size<described_members<C>>::value;
    static constexpr std::array<int, members> widths = member_widths<C, P>(std::make_index_sequence<members>{});
    static constexpr bool fixed_size = all_fixed_width(widths);
    static constexpr run_layout<members> runs = layout_runs(widths);
};

template <class C>
using member_indices = std::make_index_sequence<boost::mp11::mp_size<described_members<C>>::value>;

// Whether member I of C is one of an element's flags: a bool the schema shows as one
// (a fixed-width encoding, not a user codec's; not skipped), as a decoder counts them.
template <class C, std::size_t I>
constexpr bool flag_member() noexcept {
    if constexpr (!std::is_same_v<member_type<C, I>, bool> || skipped_member<C, I>) return false;
    else return is_fixed_width<encoding_t<member_attrs<C, I>, bool>>;
}

template <class C, std::size_t... I>
std::uint32_t member_flags(const C& c, std::index_sequence<I...>) noexcept {
    std::uint32_t flags = 1;
    int taken = 0;
    const auto take = [&](const auto& member, auto counts) {
        if constexpr (decltype(counts)::value)
            if (taken++ < 4) flags = flags << 1 | (member ? 1u : 0u);
    };
    (take(c.*member_at<C, I>::pointer, std::bool_constant<flag_member<C, I>()>{}), ...);
    return taken == 0 ? 0u : flags;
}
template <class T, class E>
std::uint32_t element_flags_by(const T&, const E&) noexcept {
    return 0;
}
template <class C, class P>
std::uint32_t element_flags_by(const C& c, struct_encoding<P>) noexcept {
    return member_flags(c, member_indices<C>{});
}
template <class T>
std::uint32_t element_flags(const T& e) noexcept {
    return element_flags_by(e, encoding_v<no_attrs, T>);
}

constexpr std::uint64_t low_bits(int width) noexcept {
    return width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

// One member of a packed run, on a writer or measurer: its code into `word`; false
// when the value has none. (Offsets are arguments, constant where inlined: one
// instantiation serves every member of the same type and kind of encoding.)
template <class T, class E>
NETSER_INLINE bool pack_code(const T& v, const E& e, std::uint64_t& word, int offset) noexcept {
    std::uint64_t code = 0;
    const bool ok = to_code(v, e, code) == errc::none;
    word |= code << offset;
    return ok;
}

// ---- the failure of a packed run: data, and one function per stream -------------
//
// The hot code of a run only knows that some member failed; this finds which, from a
// table the compiler lays out as data, so that no struct carries error code of its own.

// A value's fixed-width encoding, with its type erased.
struct erased_codec {
    errc (*code_of)(const void* value, const void* encoding, std::uint64_t& code) noexcept;
    errc (*decode)(std::uint64_t code, void* value, const void* encoding) noexcept;
};

// A member of a struct, with its type erased: where it sits (in its run of members
// packed together) and, for the members of packed runs, what the failure path needs.
struct member_entry {
    std::string_view name;
    int offset; // in its run
    int width;
    int run_bits;
    std::size_t run_position; // in its run
    std::size_t run_length;
    const void* encoding;
    const erased_codec* codec; // for members of packed runs
    std::size_t index;         // in its struct
    void* (*address)(void* obj, std::size_t index) noexcept;
};

// The address of member i of the C at obj: one function per struct, for the failure path.
template <class C, std::size_t... I>
void* member_address(void* obj, std::size_t i, std::index_sequence<I...>) noexcept {
    C& c = *static_cast<C*>(obj);
    // std::addressof (a member's type may overload &), without <memory>.
    void* const addresses[] = {__builtin_addressof(c.*member_at<C, I>::pointer)..., nullptr};
    return addresses[i];
}
template <class C>
void* member_address_of(void* obj, std::size_t i) noexcept {
    return member_address<C>(obj, i, member_indices<C>{});
}
template <class T, class E>
errc erased_code_of(const void* value, const void* encoding, std::uint64_t& code) noexcept {
    return to_code(*static_cast<const T*>(value), *static_cast<const E*>(encoding), code);
}
template <class T, class E>
errc erased_decode(std::uint64_t code, void* value, const void* encoding) noexcept {
    return from_code(code, *static_cast<T*>(value), *static_cast<const E*>(encoding));
}
// One per type and encoding, shared by every member that has them.
template <class T, class E>
inline constexpr erased_codec erased_codec_v{&erased_code_of<T, E>, &erased_decode<T, E>};
template <class T, class E, bool = is_fixed_width<E>>
inline constexpr const erased_codec* codec_of = nullptr;
template <class T, class E>
inline constexpr const erased_codec* codec_of<T, E, true> = &erased_codec_v<T, E>;

// The entries of C's members, laid out as data once per struct (one constant
// evaluation: computing them member by member costs the compiler several times more).
template <std::size_t N>
struct entry_array {
    member_entry at[N == 0 ? 1 : N];
};
template <class C, class P = no_attrs, class Indices = member_indices<C>>
struct member_table;
template <class C, class P, std::size_t... I>
struct member_table<C, P, std::index_sequence<I...>> {
    static constexpr entry_array<sizeof...(I)> make() noexcept {
        using R = member_runs<C, P>;
        entry_array<sizeof...(I)> t{};
        const std::string_view names[] = {member_at<C, I>::name..., {}};
        const void* const encodings[] = {&member_encoding_v<C, I, P>..., nullptr};
        const erased_codec* const codecs[] = {
            codec_of<member_type<C, I>, std::remove_const_t<decltype(member_encoding_v<C, I, P>)>>..., nullptr};
        for (std::size_t i = 0; i < sizeof...(I); ++i) {
            member_entry& e = t.at[i];
            e.name = names[i];
            e.offset = R::runs.offset[i];
            e.width = R::widths[i];
            e.run_bits = R::runs.bits[i];
            e.run_position = i - R::runs.first[i];
            e.run_length = R::runs.length[i];
            e.encoding = encodings[i];
            e.index = i;
            if (e.run_length > 1) {
                e.codec = codecs[i];
                e.address = &member_address_of<C>;
            }
        }
        return t;
    }
    static constexpr entry_array<sizeof...(I)> entries = make();
};

// How a member step failed. A step only records it (one constant per failure edge) and
// the struct's body has one exit that reports it: a call per failure edge would cost
// the compiler far more than the rest of the step.
enum class failure : std::size_t {
    reported,   // the member named itself (only_if, skip, check: serialize_member)
    alone,      // a member on its own: the stream holds the error, the name is added
    run_unread, // a packed run that was not read (reader) or not written (writer)
    run_read,   // a packed run read whole, with a bad code in it
};

// The word of the packed run under way, whether its codes were all good, and how the
// step that stopped the body failed (member index * 4 + failure).
struct run_state {
    std::uint64_t word = 0;
    bool ok = true;
    std::size_t failed = 0;
};

NETSER_INLINE bool step_failed(run_state& run, const member_entry& at, failure how) noexcept {
    run.failed = at.index * 4 + static_cast<std::size_t>(how);
    return false;
}

// Reports the first member of a failed run, as members sent one by one would: its bad
// value or code (out_of_range, invalid_value) or the lack of room (overflow), at its
// own bit, with its name; a reader keeps the values before it. A reader that read the
// run whole passes its word; otherwise what is left is read here.
template <stream S>
void report_packed_run(S& s, void* obj, const member_entry& first, std::uint64_t word, bool read_whole) noexcept {
    const int total = first.run_bits;
    const std::size_t at = s.bits_processed() - (read_whole ? static_cast<std::size_t>(total) : 0);
    int room = total;
    if (!read_whole) {
        const std::size_t remaining = s.bits_remaining();
        if (remaining < static_cast<std::size_t>(total)) room = static_cast<int>(remaining);
        if constexpr (S::is_reading) {
            if (!s.process_bits(word, room)) { // a stream that failed before
                s.error().prepend_member(first.name);
                return;
            }
        }
    }
    const member_entry* members = &first;
    for (std::size_t i = 0; i < first.run_length; ++i) {
        const member_entry& m = members[i];
        errc c = errc::none;
        if constexpr (S::is_reading) {
            if (m.offset + m.width <= room)
                c = m.codec->decode((word >> m.offset) & low_bits(m.width), m.address(obj, m.index), m.encoding);
            else c = errc::overflow;
        } else {
            std::uint64_t code = 0;
            c = m.codec->code_of(m.address(obj, m.index), m.encoding, code);
            if (c == errc::none && m.offset + m.width > room) c = errc::overflow;
        }
        if (c != errc::none) {
            s.fail(c, at + static_cast<std::size_t>(m.offset));
            s.error().prepend_member(m.name);
            return;
        }
    }
    s.fail(errc::overflow, at); // the stream refused the run (it had failed before)
    s.error().prepend_member(first.name);
}

// The one exit of a struct's body that failed (one function per stream, laid out cold).
template <stream S>
NETSER_COLD void fail_member(S& s, void* obj, const member_entry* entries, std::size_t failed,
                             std::uint64_t word) noexcept {
    const member_entry& at = entries[failed / 4];
    const member_entry& run_first = *(&at - at.run_position);
    switch (static_cast<failure>(failed % 4)) {
    case failure::reported: break;
    case failure::alone: s.error().prepend_member(at.name); break;
    case failure::run_unread: report_packed_run(s, obj, run_first, 0, false); break;
    case failure::run_read: report_packed_run(s, obj, run_first, word, true); break;
    }
}

// One member of a struct. The body of a struct is a fold of these, one per member,
// and they are shared by every struct: what differs (encodings, offsets, names) are
// arguments, constant where inlined. So a struct costs the compiler one function per
// stream, as a hand-written serialize function does. A failed step records how (see
// failure) and the body reports it.
template <step_kind K, stream S, class T, class E>
NETSER_INLINE bool member_step(S& s, void*, T& m, const E& e, run_state& run, const member_entry& at) {
    if constexpr (K == step_kind::alone) {
        return apply_encoding(s, m, e) || step_failed(run, at, failure::alone);
    } else if constexpr (S::is_reading) {
        if constexpr (K == step_kind::first) {
            const auto bits = static_cast<std::size_t>(at.run_bits);
            if (!(s.bits_remaining() >= bits && s.process_bits(run.word, at.run_bits))) [[unlikely]]
                return step_failed(run, at, failure::run_unread);
            run.ok = true;
        }
        run.ok &= from_code((run.word >> at.offset) & low_bits(at.width), m, e) == errc::none;
        if constexpr (K == step_kind::last)
            return run.ok || step_failed(run, at, failure::run_read);
        return true;
    } else {
        if constexpr (K == step_kind::first) {
            run.word = 0;
            run.ok = true;
        }
        run.ok &= pack_code(m, e, run.word, at.offset);
        if constexpr (K == step_kind::last) {
            const auto bits = static_cast<std::size_t>(at.run_bits);
            return (run.ok && s.bits_remaining() >= bits && s.process_bits(run.word, at.run_bits)) ||
                   step_failed(run, at, failure::run_unread);
        }
        return true;
    }
}

// A member that is not simply its value's encoding (skip, only_if, check).
template <step_kind K, stream S, class T, class C, std::size_t I>
NETSER_INLINE bool member_step(S& s, void* obj, T&, special_member<C, I>, run_state& run, const member_entry& at) {
    return serialize_member<C, I>(s, *static_cast<C*>(obj)) || step_failed(run, at, failure::reported);
}

// The top of a failed serialize: the root of the member path, final unless the serialize
// was called from hand-written code (error::prepend_root).
template <stream S>
NETSER_COLD void root_failed_path(S& s, std::string_view root) noexcept {
    s.error().prepend_root(root, in_user_code(s));
}

// A described struct's bases, then its members (the components of a vector-like struct
// with scalar attributes P): one by one for a profiling stream, else by member_step.
//
// One text, three functions: `inlined` is forced inline, for the small structs that are
// inlined where they are used (inline_struct); `function` (a nested struct) and `root`
// (the struct passed to serialize, which seals the error path on failure) are plain
// functions, for the others, which the compiler calls or inlines as it sees fit. A
// forced-inline function is still optimized on its own before it is inlined, so a large
// body reached through one was optimized twice: a tenth of clang's compile time on
// compile_budget.py's one-function shape. The lists of bases and members are the class's
// (a function's empty tag arguments made g++ clone it and then inline it where its own
// limits said not to), and the definitions are out of the class (one defined in it is
// inline, which raises g++'s limits too).
template <class P, class C, class Bases = described_bases<C>, class Indices = member_indices<C>>
struct struct_body;
template <class P, class C, template <class...> class L, class... B, std::size_t... I>
struct struct_body<P, C, L<B...>, std::index_sequence<I...>> {
    template <stream S>
    NETSER_INLINE static bool inlined(S& s, C& obj);
    template <stream S>
    static bool function(S& s, C& obj);
    template <stream S>
    static bool root(S& s, C& obj);
};
#define NETSER_DETAIL_STRUCT_BODY(NAME, ON_FAILURE)                                                               \
    template <class P, class C, template <class...> class L, class... B, std::size_t... I>                         \
    template <stream S>                                                                                            \
    bool struct_body<P, C, L<B...>, std::index_sequence<I...>>::NAME(S& s, C& obj) {                               \
        if ((serialize_value<no_attrs>(s, static_cast<typename B::type&>(obj)) && ...)) {                          \
            if constexpr (profiling_stream<S>) {                                                                   \
                bool ok;                                                                                           \
                if constexpr (pack_of<P>::encoding_size != 0) ok = (serialize_component<P, C, I>(s, obj) && ...);  \
                else ok = (serialize_member<C, I>(s, obj) && ...);                                                 \
                if (ok) return true;                                                                               \
            } else {                                                                                               \
                using R = member_runs<C, P>;                                                                       \
                run_state run;                                                                                     \
                constexpr const member_entry* entries = member_table<C, P>::entries.at;                            \
                if ((member_step<R::runs.kind[I]>(s, &obj, obj.*member_at<C, I>::pointer,                          \
                                                  member_encoding_v<C, I, P>, run, entries[I]) &&                  \
                     ...)) [[likely]]                                                                              \
                    return true;                                                                                   \
                /* Only a reader's word is reported (a measurer's is dead code, left out). */                      \
                fail_member(s, &obj, entries, run.failed, S::is_reading ? run.word : 0);                           \
            }                                                                                                      \
        }                                                                                                          \
        ON_FAILURE                                                                                                 \
        return false;                                                                                              \
    }
NETSER_DETAIL_STRUCT_BODY(inlined, )
NETSER_DETAIL_STRUCT_BODY(function, )
NETSER_DETAIL_STRUCT_BODY(root, root_failed_path(s, value_name<C>());)
#undef NETSER_DETAIL_STRUCT_BODY

// Small structs of fixed-width values (the hot per-entity state: flags, quantized
// positions, nested vectors and quaternions, arrays of those) are inlined where they are
// used, at every level, as a hand-written serialize function would be: their bodies are
// a few packed runs. The others (strings, containers, optionals, recursion) are one
// function per struct and stream, left to the compiler: forcing them inline would make
// it optimize the whole body again at every level above. A user codec is a call either way.
//
// The test reuses each member's encoding (member_encoding_v, which the body needs
// anyway): one instantiation of inline_encoding per type and kind of encoding, shared by
// every struct, and a fold per struct.
template <class P, class C>
constexpr bool is_inline_struct() noexcept;

template <class T, class E>
constexpr bool inline_encoding(const E&) noexcept {
    return is_fixed_width<E>;
}
template <class T, class Q>
constexpr bool inline_encoding(const common_encoding<Q>&) noexcept {
    return true;
}
template <class T, class E, std::size_t K>
constexpr bool inline_encoding(const common_values<T, E, K>&) noexcept {
    return true;
}
template <class T, class Q>
constexpr bool inline_encoding(const finite_encoding<Q>&) noexcept {
    return true;
}
template <class T, class Q>
constexpr bool inline_encoding(const user_attribute_encoding<Q>&) noexcept {
    return true;
}
template <class T>
constexpr bool inline_encoding(const user_type_encoding&) noexcept {
    return true;
}
template <class T, class Q>
constexpr bool inline_encoding(const struct_encoding<Q>&) noexcept {
    return is_inline_struct<Q, T>();
}
template <class T, class Q>
constexpr bool inline_encoding(const array_encoding<Q>&) noexcept {
    using E = std::remove_cvref_t<decltype(std::declval<T&>()[0])>;
    return inline_encoding<E>(encoding_v<Q, E>);
}
// skip, only_if, check: the value's own encoding (a skipped member costs nothing).
template <class T, class C, std::size_t I>
constexpr bool inline_encoding(const special_member<C, I>&) noexcept {
    using A = member_attrs<C, I>;
    if constexpr (has_attr<A, attr_kind::skip>) return true;
    else return inline_encoding<T>(encoding_v<value_provider<A>, T>);
}

template <class P, class C, template <class...> class L, class... B, std::size_t... I>
constexpr bool inline_members(L<B...>, std::index_sequence<I...>) noexcept {
    return (inline_encoding<typename B::type>(encoding_v<no_attrs, typename B::type>) && ...) &&
           (inline_encoding<member_type<C, I>>(member_encoding_v<C, I, P>) && ...);
}

// (A recursive struct has a member that is not inline: a pointer, optional or container.)
template <class P, class C>
constexpr bool is_inline_struct() noexcept {
    return inline_members<P, C>(described_bases<C>{}, member_indices<C>{});
}
template <class P, class C>
inline constexpr bool inline_struct = is_inline_struct<P, C>();

// A struct that is not inlined: a call to its function (one per struct, stream and
// attributes), and a recursive struct's depth counted around it.
template <class P, stream S, class C>
NETSER_INLINE bool serialize_struct_call(S& s, C& obj) {
    if constexpr (is_recursive_type<C>())
        return enter_nested(s) && leave_nested(s, struct_body<P, C>::function(s, obj));
    else
        return struct_body<P, C>::function(s, obj);
}

// A described struct: straight to its body (each layer in between would be optimized
// again wherever the body is inlined).
template <stream S, class C, class P>
NETSER_INLINE bool apply_encoding(S& s, C& obj, struct_encoding<P>) {
    if constexpr (inline_struct<P, C>)
        return struct_body<P, C>::inlined(s, obj);
    else
        return serialize_struct_call<P>(s, obj);
}

// ---- elements that are one packed run each -----------------------------------------
//
// A vector or array of flat structs of fixed-width members within one run (a roster of
// {team, score, alive}) checks the room once for all its elements and writes or reads
// each as one word. An element with a bad code, and everything after it, goes the
// member-by-member way, which reports the error as it always does (a reader first moves
// back to the element's first bit).

// The bits of C's one packed run when every member is in it (no bases, no special
// members, all of fixed width, within one run), else 0.
template <class P, class C>
constexpr int single_run_bits() noexcept {
    using R = member_runs<C, P>;
    if constexpr (boost::mp11::mp_size<described_bases<C>>::value != 0 || R::members == 0 || !R::fixed_size)
        return 0;
    else
        return R::runs.length[0] == R::members ? R::runs.bits[0] : 0;
}

template <class S>
concept fitting_stream = requires(S& s) {
    { s.room_for(std::size_t{}) } -> std::same_as<bool>;
} && (requires(S& s) { s.resume(s.fitting_reader()); } || requires(S& s) { s.resume(s.fitting_writer()); });

template <class P, class C, std::size_t... I>
NETSER_INLINE bool pack_members(const C& obj, std::uint64_t& word, std::index_sequence<I...>) noexcept {
    using R = member_runs<C, P>;
    bool ok = true;
    ((ok &= pack_code(obj.*member_at<C, I>::pointer, member_encoding_v<C, I, P>, word, R::runs.offset[I])), ...);
    return ok;
}
template <class P, class C, std::size_t... I>
NETSER_INLINE bool unpack_members(C& obj, std::uint64_t word, std::index_sequence<I...>) noexcept {
    using R = member_runs<C, P>;
    bool ok = true;
    ((ok &= from_code((word >> R::runs.offset[I]) & low_bits(R::widths[I]), obj.*member_at<C, I>::pointer,
                      member_encoding_v<C, I, P>) == errc::none),
     ...);
    return ok;
}

/// The first elements of [first, first + n) that go as one packed run each: how many
/// were written or read (the rest go member by member). Fresh: a read starts each
/// element from its default (a vector's kept elements; not an array's).
template <stream S, class C, class P, bool Fresh>
    requires(single_run_bits<P, C>() > 0 && fitting_stream<S>)
NETSER_INLINE std::size_t serialize_packed_elements(S& s, C* first, std::size_t n, struct_encoding<P>,
                                                    std::bool_constant<Fresh>) noexcept {
    constexpr auto bits = static_cast<std::size_t>(single_run_bits<P, C>());
    if (n > SIZE_MAX / bits || !s.room_for(n * bits)) return 0;
    if constexpr (S::is_reading) {
        bit_reader r = s.fitting_reader();
        for (std::size_t i = 0; i < n; ++i) {
            // Fresh: each element from its default (a vector read into one it resized).
            C fresh{};
            C& to = Fresh ? fresh : first[i];
            if (!unpack_members<P>(to, r.read_bits_fitting(static_cast<int>(bits)), member_indices<C>{}))
                [[unlikely]] {
                r.move_back_to(r.bits_read() - bits); // to the element's first bit
                s.resume(r);
                return i;
            }
            if constexpr (Fresh) first[i] = fresh;
        }
        s.resume(r);
    } else {
        bit_writer w = s.fitting_writer();
        for (std::size_t i = 0; i < n; ++i) {
            std::uint64_t word = 0;
            if (!pack_members<P>(first[i], word, member_indices<C>{})) [[unlikely]] {
                s.resume(w);
                return i;
            }
            w.write_bits_fitting(word, static_cast<int>(bits));
        }
        s.resume(w);
    }
    return n;
}

// The error path's name of a plain aggregate's field i: "field<i>".
NETSER_COLD inline void prepend_field_name(error& e, std::size_t i) noexcept {
    char name[24] = "field";
    std::size_t len = 5;
    char digits[20];
    std::size_t nd = 0;
    do {
        digits[nd++] = static_cast<char>('0' + i % 10);
        i /= 10;
    } while (i != 0);
    while (nd != 0) name[len++] = digits[--nd];
    e.prepend_member({name, len});
}

// Plain aggregates through Boost.PFR: default encodings, fields named "field<i>".
template <class P, stream S, class T>
bool serialize_aggregate(S& s, T& obj) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return ([&] {
            if (serialize_value<P>(s, boost::pfr::get<I>(obj))) [[likely]] return true;
            prepend_field_name(s.error(), I);
            return false;
        }() && ...);
    }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

template <stream S, class T, class P>
bool apply_encoding(S& s, T& obj, aggregate_encoding<P>) {
    if constexpr (is_recursive_type<T>())
        return enter_nested(s) && leave_nested(s, serialize_aggregate<P>(s, obj));
    else
        return serialize_aggregate<P>(s, obj);
}

// ---- delta --------------------------------------------------------------------------
//
// A struct's delta body is the delta of each base and member (each a changed bit, then
// its body), in the order of the plain encoding. A member that is not sent (skip, or
// only_if false) takes no bit: a reader copies a skipped one from the baseline and
// resets the other as a plain read does.

// A member not sent is the same: a reader resets an absent one, and the baseline (what
// a reader held) has it reset.
template <class C, std::size_t I>
bool member_same(const C& v, const C& b) {
    using D = member_at<C, I>;
    using P = member_attrs<C, I>;
    if constexpr (!has_modifiers<C, I>) {
        return same_value<P>(v.*D::pointer, b.*D::pointer);
    } else if constexpr (skipped_member<C, I>) {
        return true;
    } else {
        return !member_present<C, I>(v) || same_value<value_provider<P>>(v.*D::pointer, b.*D::pointer);
    }
}

template <class P, class C, template <class...> class L, class... B, std::size_t... I>
bool same_struct(const C& v, const C& b, L<B...>, std::index_sequence<I...>) {
    if (!(same_value<no_attrs>(static_cast<const typename B::type&>(v), static_cast<const typename B::type&>(b)) &&
          ...))
        return false;
    if constexpr (pack_of<P>::encoding_size != 0)
        return (same_value<P>(v.*member_at<C, I>::pointer, b.*member_at<C, I>::pointer) && ...);
    else
        return (member_same<C, I>(v, b) && ...);
}

template <class C, class P>
bool same_encoded(const C& v, const C& b, struct_encoding<P>) {
    return same_struct<P>(v, b, described_bases<C>{}, member_indices<C>{});
}

// The delta of a part of a struct: what a writer wrote (a reader: changed or failed).
template <class P, stream S, class T>
NETSER_INLINE delta_written delta_part(S& s, T& v, const T& b) {
    if constexpr (S::is_reading) return serialize_delta_value<P>(s, v, b) ? delta_written::changed : delta_written::failed;
    else return write_delta_value<P>(s, v, b);
}

// The delta of one member, named in the profile and the error path.
template <class P, class C, std::size_t I, stream S, class M>
NETSER_INLINE delta_written delta_named(S& s, M& m, const M& b) {
    using D = member_at<C, I>;
    if constexpr (profiling_stream<S>) s.enter_member(D::name);
    const delta_written r = delta_part<P>(s, m, b);
    if constexpr (profiling_stream<S>) s.leave();
    if (r != delta_written::failed) [[likely]] return r;
    s.error().prepend_member(D::name);
    return r;
}

// A reader copies a skipped member from the baseline.
template <class C, std::size_t I, stream S>
NETSER_INLINE delta_written delta_member(S& s, C& obj, const C& base) {
    using D = member_at<C, I>;
    using P = member_attrs<C, I>;
    auto& m = obj.*D::pointer;
    const auto& b = base.*D::pointer;
    if constexpr (!has_modifiers<C, I>) {
        return delta_named<P, C, I>(s, m, b);
    } else if constexpr (skipped_member<C, I>) {
        if constexpr (S::is_reading) copy_value(m, b);
        return delta_written::unchanged;
    } else {
        if (!member_present<C, I>(obj)) {
            if constexpr (S::is_reading) reset_to_default<C, D>(m);
            return delta_written::unchanged;
        }
        if (!member_checked<C, I>(s)) [[unlikely]] return delta_written::failed;
        return delta_named<value_provider<P>, C, I>(s, m, b);
    }
}

// The bases' and members' deltas in turn: what the most of them wrote.
template <class P, stream S, class C, template <class...> class L, class... B, std::size_t... I>
delta_written delta_struct_body(S& s, C& obj, const C& base, L<B...>, std::index_sequence<I...>) {
    delta_written most = delta_written::unchanged;
    const auto note = [&most](delta_written r) NETSER_INLINE_LAMBDA {
        if (r > most) most = r;
        return r != delta_written::failed;
    };
    if (!(note(delta_part<no_attrs>(s, static_cast<typename B::type&>(obj), static_cast<const typename B::type&>(base))) &&
          ...))
        return delta_written::failed;
    bool ok;
    if constexpr (pack_of<P>::encoding_size != 0)
        ok = (note(delta_named<P, C, I>(s, obj.*member_at<C, I>::pointer, base.*member_at<C, I>::pointer)) && ...);
    else
        ok = (note(delta_member<C, I>(s, obj, base)) && ...);
    return ok ? most : delta_written::failed;
}

template <stream S, class C, class P>
bool apply_delta(S& s, C& obj, const C& base, struct_encoding<P>, const delta_params&) {
    if constexpr (is_recursive_type<C>()) {
        if (!enter_nested(s)) return false;
        return leave_nested(s, delta_struct_body<P>(s, obj, base, described_bases<C>{}, member_indices<C>{}) !=
                                   delta_written::failed);
    } else {
        return delta_struct_body<P>(s, obj, base, described_bases<C>{}, member_indices<C>{}) != delta_written::failed;
    }
}

template <class T, class P>
bool same_encoded(const T& v, const T& b, aggregate_encoding<P>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return (same_value<P>(boost::pfr::get<I>(v), boost::pfr::get<I>(b)) && ...);
    }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

template <class P, stream S, class T>
bool delta_aggregate(S& s, T& obj, const T& base) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return ([&] {
            if (serialize_delta_value<P>(s, boost::pfr::get<I>(obj), boost::pfr::get<I>(base))) [[likely]] return true;
            prepend_field_name(s.error(), I);
            return false;
        }() && ...);
    }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

template <stream S, class T, class P>
bool apply_delta(S& s, T& obj, const T& base, aggregate_encoding<P>, const delta_params&) {
    if constexpr (is_recursive_type<T>())
        return enter_nested(s) && leave_nested(s, delta_aggregate<P>(s, obj, base));
    else
        return delta_aggregate<P>(s, obj, base);
}

// ---- bounds -------------------------------------------------------------------------

// A member's plain bounds: none when skipped; only_if may leave it out; a check adds its
// alignment and magic.
template <class C, std::size_t I>
constexpr bit_bounds member_bounds() noexcept {
    using P = member_attrs<C, I>;
    if constexpr (has_attr<P, attr_kind::skip>) {
        return {};
    } else {
        bit_bounds b = value_bounds<without<P, attr_kind::only_if, attr_kind::skip, attr_kind::check>, member_type<C, I>>();
        if constexpr (has_attr<P, attr_kind::only_if>) b.min = 0;
        if constexpr (checks_enabled && has_attr<P, attr_kind::check>) b = b + bit_bounds{32, 32 + 7};
        return b;
    }
}
template <class C, std::size_t I>
constexpr std::size_t member_min_bits() noexcept {
    using P = member_attrs<C, I>;
    if constexpr (has_attr<P, attr_kind::skip> || has_attr<P, attr_kind::only_if>)
        return 0;
    else
        return min_bits_value<without<P, attr_kind::check>, member_type<C, I>>() +
               (checks_enabled && has_attr<P, attr_kind::check> ? 32 : 0);
}

// The bases, then the members (all with the attributes P of the struct's holder, if any).
template <class P, class C, template <class...> class L, class... B, std::size_t... I>
constexpr bit_bounds struct_bounds(L<B...>, std::index_sequence<I...>) noexcept {
    bit_bounds total = (bit_bounds{} + ... + value_bounds<no_attrs, typename B::type>());
    if constexpr (pack_of<P>::encoding_size != 0) return (total + ... + value_bounds<P, member_type<C, I>>());
    else return (total + ... + member_bounds<C, I>());
}
template <class P, class C, template <class...> class L, class... B, std::size_t... I>
constexpr std::size_t struct_min_bits(L<B...>, std::index_sequence<I...>) noexcept {
    std::size_t total = (std::size_t{0} + ... + min_bits_value<no_attrs, typename B::type>());
    if constexpr (pack_of<P>::encoding_size != 0) return (total + ... + min_bits_value<P, member_type<C, I>>());
    else return (total + ... + member_min_bits<C, I>());
}
template <class P, class T, class Q>
constexpr bit_bounds family_bounds(struct_encoding<Q>) noexcept {
    return struct_bounds<P, T>(described_bases<T>{}, member_indices<T>{});
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(struct_encoding<Q>) noexcept {
    return struct_min_bits<P, T>(described_bases<T>{}, member_indices<T>{});
}

template <class P, class T, class Q>
constexpr bit_bounds family_bounds(aggregate_encoding<Q>) noexcept {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return (bit_bounds{} + ... + value_bounds<P, boost::pfr::tuple_element_t<I, T>>());
    }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}
template <class P, class T, class Q>
constexpr std::size_t family_min_bits(aggregate_encoding<Q>) noexcept {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return (std::size_t{0} + ... + min_bits_value<P, boost::pfr::tuple_element_t<I, T>>());
    }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

// ---- delta bounds -------------------------------------------------------------------

template <class C, std::size_t I>
constexpr bit_bounds member_delta_bounds() noexcept {
    using P = member_attrs<C, I>;
    if constexpr (has_attr<P, attr_kind::skip>) {
        return {};
    } else {
        bit_bounds b = delta_value_bounds<value_provider<P>, member_type<C, I>>();
        if constexpr (checks_enabled && has_attr<P, attr_kind::check>) b.max += 32 + 7;
        return b;
    }
}

template <class P, class C, template <class...> class L, class... B, std::size_t... I>
constexpr bit_bounds struct_delta_bounds(L<B...>, std::index_sequence<I...>) noexcept {
    bit_bounds total = (bit_bounds{} + ... + delta_value_bounds<no_attrs, typename B::type>());
    if constexpr (pack_of<P>::encoding_size != 0) return (total + ... + delta_value_bounds<P, member_type<C, I>>());
    else return (total + ... + member_delta_bounds<C, I>());
}

template <class C, class P>
constexpr bit_bounds delta_bounds(struct_encoding<P>, const delta_params&) noexcept {
    return struct_delta_bounds<P, C>(described_bases<C>{}, member_indices<C>{});
}

template <class S>
concept rewindable_stream = requires(S& s) { s.move_to(s.where()); };

// A writer's changed struct: the set changed bit and the members first, taken back for
// a clear bit when none of them changed, so that each member is tested once (same_value
// first would test them all, and the body each again). Where the room left cannot be
// sure to hold the members, they are tested first: a write that fits must not fail.
template <stream S, class C, class P>
    requires(rewindable_stream<S> && !is_recursive_type<C>())
delta_written write_changed(S& s, C& obj, const C& base, struct_encoding<P> e, const delta_params&) {
    constexpr bit_bounds body = struct_delta_bounds<P, C>(described_bases<C>{}, member_indices<C>{});
    bool changed = !bitwise_equal(obj, base);
    if (changed && body.bounded && s.bits_remaining() > body.max) {
        const auto start = s.where();
        if (!serialize_bool(s, changed)) return delta_written::failed;
        const delta_written r = delta_struct_body<P>(s, obj, base, described_bases<C>{}, member_indices<C>{});
        if (r == delta_written::changed || r == delta_written::failed) return r;
        if (r == delta_written::unknown && !same_encoded(obj, base, e)) return delta_written::changed;
        s.move_to(start); // every member went as the baseline's: one clear bit instead
        changed = false;
    } else if (changed) {
        changed = !same_encoded(obj, base, e);
    }
    if (!serialize_bool(s, changed)) return delta_written::failed;
    if (!changed) return delta_written::unchanged;
    return delta_struct_body<P>(s, obj, base, described_bases<C>{}, member_indices<C>{}) == delta_written::failed
               ? delta_written::failed
               : delta_written::changed;
}

template <class T, class P>
constexpr bit_bounds delta_bounds(aggregate_encoding<P>, const delta_params&) noexcept {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return (bit_bounds{} + ... + delta_value_bounds<P, boost::pfr::tuple_element_t<I, T>>());
    }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

// ---- schema node ----------------------------------------------------------------------

template <class P>
inline constexpr std::string_view schema_delta_body<struct_encoding<P>> = "members";
template <class P>
inline constexpr std::string_view schema_delta_body<aggregate_encoding<P>> = "members";

template <class C>
C only_if_class(bool C::*) noexcept;

// What a reader resets an only_if member to when it is not sent (reset_to_default), as
// its plain encoding: a delta that sends the member again is a change from that value.
template <class C, class D, class P, class M, class B>
void schema_reset(B& b) {
    auto& o = b.out;
    M value{};
    reset_to_default<C, D>(value);
    std::vector<std::byte> bytes;
    vector_write_stream w(bytes);
    o.key("reset");
    o.begin_object();
    if (serialize_value<P>(w, value)) {
        schema_integer(b, "bits", w.bits_processed());
        std::string hex;
        for (std::byte x : w.finish()) {
            hex += "0123456789abcdef"[std::to_integer<unsigned>(x) >> 4];
            hex += "0123456789abcdef"[std::to_integer<unsigned>(x) & 15];
        }
        schema_string(b, "hex", hex);
    } else {
        schema_string(b, "error", to_string(w.error().code)); // the default has no code: a delta fails
    }
    o.end_object();
}

// One member of a described struct: how it is declared and what goes on the wire.
template <class C, std::size_t I, class B>
void schema_member(B& b) {
    using D = member_at<C, I>;
    using M = member_type<C, I>;
    using P = member_attrs<C, I>;
    auto& o = b.out;
    o.begin_object();
    schema_string(b, "name", D::name);
    std::string type;
    schema_type_name<M>(b, type);
    schema_string(b, "type", type);
    o.key("attributes");
    schema_attributes(b, P::value);
    if constexpr (has_attr<P, attr_kind::skip>) {
        o.key("skip");
        o.boolean(true);
    } else {
        if constexpr (has_attr<P, attr_kind::only_if>) {
            constexpr auto flag = P::value.template get<attr_kind::only_if>().flag;
            using F = decltype(only_if_class(flag));
            o.key("only_if");
            o.begin_object();
            schema_string(b, "member", flag_member_name(flag));
            schema_string(b, "struct", schema_struct_name<F>(b));
            schema_reset<C, D, without<P, attr_kind::only_if, attr_kind::check>, M>(b);
            o.end_object();
        }
        if constexpr (checks_enabled && has_attr<P, attr_kind::check>) {
            constexpr std::uint32_t magic = P::value.template get<attr_kind::check>().magic;
            o.key("check");
            o.begin_object();
            schema_integer(b, "magic", magic);
            o.key("magic_hex");
            o.hex(magic, 8);
            o.end_object();
        }
        o.key("encoding");
        schema_encoding<without<P, attr_kind::only_if, attr_kind::check>, M>(b);
    }
    o.end_object();
}

// A described struct's bases and members: as declared, or (Inline) with the attributes P
// of the member that holds it applied to every member, as the visitor does.
template <class P, class C, bool Inline, class B>
void schema_struct_members(B& b) {
    auto& o = b.out;
    o.key("bases");
    o.begin_array();
    boost::mp11::mp_for_each<described_bases<C>>([&](auto base) { schema_encoding<no_attrs, typename decltype(base)::type>(b); });
    o.end_array();
    o.key("members");
    o.begin_array();
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        if constexpr (!Inline) {
            (schema_member<C, I>(b), ...);
        } else {
            (schema_part<P, member_type<C, I>>(b, member_at<C, I>::name, true), ...);
        }
    }(member_indices<C>{});
    o.end_array();
}

template <class C, class B>
void schema_define_struct(B& b, const std::string& name) {
    auto& o = b.out;
    o.begin_object();
    schema_string(b, "kind", "struct");
    schema_string(b, "name", name);
    o.key("recursive");
    o.boolean(is_recursive_type<C>());
    schema_struct_members<no_attrs, C, false>(b);
    o.end_object();
}

// A struct or aggregate written inline: the attributes P of the member that holds it
// replace those of every member or field. Inside itself, a back reference (as
// schema_hash writes one), whose delta body is the one of the node it refers to.
template <class P, class T, class B>
bool inline_struct_schema(B& b) {
    auto& o = b.out;
    const void* key = &schema_type_key<T, P>;
    if (b.is_expanding(key)) {
        schema_string(b, "kind", "recursive");
        schema_integer(b, "depth", b.depth_of(key));
        return false;
    }
    b.expanding.push_back(key);
    schema_string(b, "kind", described<T> ? "struct" : "aggregate");
    if constexpr (described<T>) schema_string(b, "name", schema_struct_name<T>(b));
    o.key("recursive");
    o.boolean(is_recursive_type<T>());
    if constexpr (described<T>) {
        schema_struct_members<P, T, true>(b);
    } else {
        o.key("fields");
        o.begin_array();
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (schema_part<P, boost::pfr::tuple_element_t<I, T>>(b, "field" + std::to_string(I), true), ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
        o.end_array();
    }
    b.expanding.pop_back();
    return true;
}

// A described struct is defined once by name, in "types", unless the member that holds
// it gives its members attributes (attributes about the delta only do not).
template <class P, class T, class B, class Q>
bool family_schema(B& b, struct_encoding<Q>) {
    if constexpr (pack_of<P>::encoding_size == 0) {
        schema_string(b, "kind", "struct");
        schema_string(b, "name", schema_struct_name<T>(b));
        return true;
    } else {
        return inline_struct_schema<P, T>(b);
    }
}
template <class P, class T, class B, class Q>
bool family_schema(B& b, aggregate_encoding<Q>) {
    return inline_struct_schema<std::conditional_t<pack_of<P>::encoding_size == 0, no_attrs, P>, T>(b);
}

// ---- the types on their own: schema hash tokens and type names --------------------------

struct described_type_tag {};
struct aggregate_type_tag {};

// Its name, its bases, then each member: its name, its type, its attributes (hash_pack,
// <netser/schema_hash.hpp>). C joins the structs being visited.
template <class C, class... Visiting>
constexpr void family_hash(schema_hasher& h, described_type_tag) noexcept {
    h.text("struct");
    h.text(description_of<C>.name);
    boost::mp11::mp_for_each<described_bases<C>>([&](auto b) {
        h.text("base");
        hash_type<typename decltype(b)::type, C, Visiting...>(h);
    });
    constexpr std::size_t n = boost::mp11::mp_size<described_members<C>>::value;
    h.number(n);
    boost::mp11::mp_for_each<boost::mp11::mp_iota_c<n>>([&](auto i) {
        using D = member_at<C, decltype(i)::value>;
        h.text(D::name);
        hash_type<std::remove_cvref_t<decltype(std::declval<C&>().*D::pointer)>, C, Visiting...>(h);
        hash_pack(h, member_attrs<C, decltype(i)::value>::value);
    });
}
template <class T, class... Visiting>
constexpr void family_hash(schema_hasher& h, aggregate_type_tag) noexcept {
    h.text("aggregate");
    []<std::size_t... I>(schema_hasher& hh, std::index_sequence<I...>) {
        hh.number(sizeof...(I));
        (hash_type<boost::pfr::tuple_element_t<I, T>, Visiting...>(hh), ...);
    }(h, std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
}

template <class T, class B>
void family_type_name(B& b, std::string& s, described_type_tag) {
    s += schema_struct_name<T>(b);
}
// Its fields' types; "recursive" inside itself.
template <class T, class B>
void family_type_name(B& b, std::string& s, aggregate_type_tag) {
    const void* key = &schema_type_key<T, void>;
    if (b.is_expanding(key)) {
        s += "recursive";
        return;
    }
    b.expanding.push_back(key);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        s += "aggregate<";
        bool first = true;
        ((s += first ? "" : ", ", first = false, schema_type_name<boost::pfr::tuple_element_t<I, T>>(b, s)), ...);
        s += '>';
    }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
    b.expanding.pop_back();
}

} // namespace netser::detail
