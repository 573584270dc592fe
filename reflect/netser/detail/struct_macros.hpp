#pragma once
#if defined(__GNUC__)
// Marked as a system header so that g++ reports a mistake caught by these macros at the
// line of NETSER_STRUCT, without a note for each level of macro expansion (it also
// silences warnings about the tokens the macros themselves spell; the user's tokens
// keep theirs).
#  pragma GCC system_header
#endif

#include <netser/detail/preprocessor.hpp>

#include <boost/describe/bases.hpp>
#include <boost/describe/members.hpp>

#include <type_traits>

// NETSER_STRUCT & co., and the mistakes they report by the struct's and the member's
// names: each a static_assert whose message is "netser: Struct.member: " and the text
// below. (A static_assert message must be a string literal, so only a macro that sees
// both names can write it.) A mistake is written in this file only: its number and text,
// its place in NETSER_DETAIL_MISUSES (the enum misuse), its check in the macro's list
// and its line in report_unnamed.

// Each mistake a member's type and attributes can make: its number (an enumerator of
// netser::detail::misuse) and its text.
#define NETSER_DETAIL_K_only_if 1
#define NETSER_DETAIL_TEXT_only_if "netser::only_if(&T::flag) must name a bool member listed before this one"
#define NETSER_DETAIL_K_user_attribute 2
#define NETSER_DETAIL_TEXT_user_attribute                                                                 \
    "this user attribute has no serialize(stream, value) for the member's type; give it one, or put it "  \
    "on a member of the type it encodes"
#define NETSER_DETAIL_K_bool_attribute 3
#define NETSER_DETAIL_TEXT_bool_attribute                                                                 \
    "a bool member takes no encoding attribute (it is always 1 bit); write it bare"
#define NETSER_DETAIL_K_enum_attribute 4
#define NETSER_DETAIL_TEXT_enum_attribute                                                                 \
    "a described enum member takes no encoding attribute (its enumerators set its bits); write it bare"
#define NETSER_DETAIL_K_enum_undescribed 5
#define NETSER_DETAIL_TEXT_enum_undescribed                                                               \
    "this enum is not described; use BOOST_DEFINE_ENUM_CLASS / BOOST_DESCRIBE_ENUM before this "          \
    "NETSER_STRUCT, or give the member netser::range or netser::bits"
#define NETSER_DETAIL_K_integer_attribute 6
#define NETSER_DETAIL_TEXT_integer_attribute                                                              \
    "an integer member takes netser::range, netser::bits or netser::common; remove the other attributes"
#define NETSER_DETAIL_K_range 7
#define NETSER_DETAIL_TEXT_range                                                                          \
    "netser::range(min, max) needs min <= max, both representable in the member's type; widen the type "  \
    "or narrow the range"
#define NETSER_DETAIL_K_bits 8
#define NETSER_DETAIL_TEXT_bits "netser::bits(n) needs 1 <= n <= the member type's width"
#define NETSER_DETAIL_K_common 9
#define NETSER_DETAIL_TEXT_common "every netser::common value must be representable in the member's type"
#define NETSER_DETAIL_K_float_attribute 10
#define NETSER_DETAIL_TEXT_float_attribute                                                                \
    "a float member takes netser::quantize, netser::common or netser::finite; remove the other attributes"
#define NETSER_DETAIL_K_quantize_type 11
#define NETSER_DETAIL_TEXT_quantize_type "netser::quantize applies to float members; make the member a float"
#define NETSER_DETAIL_K_quantize 12
#define NETSER_DETAIL_TEXT_quantize                                                                       \
    "netser::quantize(min, max, resolution) needs finite min < max, resolution > 0 and at most 2^32 steps"
#define NETSER_DETAIL_K_long_double 13
#define NETSER_DETAIL_TEXT_long_double "long double has no wire encoding; use float or double"
#define NETSER_DETAIL_K_sparse 14
#define NETSER_DETAIL_TEXT_sparse                                                                         \
    "netser::sparse applies to std::array<std::optional<T>, N> or std::vector<std::optional<T>> with "    \
    "netser::max_size(N)"
#define NETSER_DETAIL_K_vector_max_size 15
#define NETSER_DETAIL_TEXT_vector_max_size "std::vector member needs netser::max_size(N)"
#define NETSER_DETAIL_K_map_max_size 16
#define NETSER_DETAIL_TEXT_map_max_size "std::map / std::unordered_map / std::set member needs netser::max_size(N)"
#define NETSER_DETAIL_K_string_max_length 17
#define NETSER_DETAIL_TEXT_string_max_length "std::string member needs netser::max_length(N)"
#define NETSER_DETAIL_K_string_attribute 18
#define NETSER_DETAIL_TEXT_string_attribute "a std::string member takes only netser::max_length and netser::raw_bytes"
#define NETSER_DETAIL_K_variant_attribute 19
#define NETSER_DETAIL_TEXT_variant_attribute                                                              \
    "a std::variant member takes no attribute (its alternatives use their default encodings); put the "   \
    "attributes on a described struct alternative"
#define NETSER_DETAIL_K_variant_alternative 20
#define NETSER_DETAIL_TEXT_variant_alternative                                                            \
    "a std::variant alternative has no default encoding (a std::string or a container needs a limit); "   \
    "make it a described struct with the limit"
#define NETSER_DETAIL_K_plain_aggregate 21
#define NETSER_DETAIL_TEXT_plain_aggregate                                                                \
    "a plain aggregate (no NETSER_STRUCT) has default encodings only, and a std::string or a container "  \
    "has none; describe the struct with NETSER_STRUCT and give the member netser::max_length(N) or "      \
    "netser::max_size(N)"
#define NETSER_DETAIL_K_no_encoding 22
#define NETSER_DETAIL_TEXT_no_encoding                                                                    \
    "no encoding for this type; describe it with NETSER_STRUCT, or give it an ADL function "              \
    "serialize(Stream&, T&)"
#define NETSER_DETAIL_K_delta_ladder 23
#define NETSER_DETAIL_TEXT_delta_ladder "netser::delta_ladder(limits...) needs 1 to 4 increasing limits above 0"
#define NETSER_DETAIL_K_user_bits 24
#define NETSER_DETAIL_TEXT_user_bits                                                                      \
    "this user attribute must state its bits: a max_bits() member, a wire() of fields of 1 to 32 bits "  \
    "that add up to its max_bits() and min_bits() when it has them, or max_bits(inner_max) when it "      \
    "wraps the member's encoding"
#define NETSER_DETAIL_K_keyed 25
#define NETSER_DETAIL_TEXT_keyed                                                                          \
    "netser::keyed(&T::id) applies to a std::vector<T> with netser::max_size(N), T a described struct "   \
    "and id an integer or enum member of T's own description that is always sent (no skip, only_if "      \
    "or common)"

// X(kind) for each of them.
#define NETSER_DETAIL_MISUSES(X)                                                                          \
    X(only_if) X(user_attribute) X(bool_attribute) X(enum_attribute) X(enum_undescribed)                  \
    X(integer_attribute) X(range) X(bits) X(common) X(float_attribute) X(quantize_type) X(quantize)       \
    X(long_double) X(sparse) X(vector_max_size) X(map_max_size) X(string_max_length) X(string_attribute)  \
    X(variant_attribute) X(variant_alternative) X(plain_aggregate) X(no_encoding) X(delta_ladder)        \
    X(user_bits) X(keyed)
#define NETSER_DETAIL_MISUSE_ENUMERATOR(kind) kind = NETSER_DETAIL_K_##kind,

namespace netser::detail {

// (Here, beside the texts, so that a new mistake is written in this one file.)
enum class misuse {
    none = 0,
    NETSER_DETAIL_MISUSES(NETSER_DETAIL_MISUSE_ENUMERATOR)
    broken_description, ///< an attribute of the macro did not compile: the compiler said so
};

/// The message of a mistake in a value that is not a member of a described struct.
template <misuse K>
constexpr bool report_unnamed() noexcept {
    static_assert(K != misuse::only_if, "netser: " NETSER_DETAIL_TEXT_only_if);
    static_assert(K != misuse::user_attribute, "netser: " NETSER_DETAIL_TEXT_user_attribute);
    static_assert(K != misuse::bool_attribute, "netser: " NETSER_DETAIL_TEXT_bool_attribute);
    static_assert(K != misuse::enum_attribute, "netser: " NETSER_DETAIL_TEXT_enum_attribute);
    static_assert(K != misuse::enum_undescribed, "netser: " NETSER_DETAIL_TEXT_enum_undescribed);
    static_assert(K != misuse::integer_attribute, "netser: " NETSER_DETAIL_TEXT_integer_attribute);
    static_assert(K != misuse::range, "netser: " NETSER_DETAIL_TEXT_range);
    static_assert(K != misuse::bits, "netser: " NETSER_DETAIL_TEXT_bits);
    static_assert(K != misuse::common, "netser: " NETSER_DETAIL_TEXT_common);
    static_assert(K != misuse::float_attribute, "netser: " NETSER_DETAIL_TEXT_float_attribute);
    static_assert(K != misuse::quantize_type, "netser: " NETSER_DETAIL_TEXT_quantize_type);
    static_assert(K != misuse::quantize, "netser: " NETSER_DETAIL_TEXT_quantize);
    static_assert(K != misuse::long_double, "netser: " NETSER_DETAIL_TEXT_long_double);
    static_assert(K != misuse::sparse, "netser: " NETSER_DETAIL_TEXT_sparse);
    static_assert(K != misuse::vector_max_size, "netser: " NETSER_DETAIL_TEXT_vector_max_size);
    static_assert(K != misuse::map_max_size, "netser: " NETSER_DETAIL_TEXT_map_max_size);
    static_assert(K != misuse::string_max_length, "netser: " NETSER_DETAIL_TEXT_string_max_length);
    static_assert(K != misuse::string_attribute, "netser: " NETSER_DETAIL_TEXT_string_attribute);
    static_assert(K != misuse::variant_attribute, "netser: " NETSER_DETAIL_TEXT_variant_attribute);
    static_assert(K != misuse::variant_alternative, "netser: " NETSER_DETAIL_TEXT_variant_alternative);
    static_assert(K != misuse::plain_aggregate, "netser: " NETSER_DETAIL_TEXT_plain_aggregate);
    static_assert(K != misuse::no_encoding, "netser: " NETSER_DETAIL_TEXT_no_encoding);
    static_assert(K != misuse::delta_ladder, "netser: " NETSER_DETAIL_TEXT_delta_ladder);
    static_assert(K != misuse::user_bits, "netser: " NETSER_DETAIL_TEXT_user_bits);
    static_assert(K != misuse::keyed, "netser: " NETSER_DETAIL_TEXT_keyed);
    return true;
}

} // namespace netser::detail

// One block per member I: its mistake (0: none), then a static_assert per mistake that it
// can make: those of a bare member's type, or (with attributes) any but a plain
// aggregate's, which these checks never see. (Each static_assert costs the compiler
// about as much as a member's encoding does: they are kept to those that can fire.)
// NETSER_CLASS checks each member so, in a friend's body; NETSER_STRUCT's checks are a
// template of these lists (NETSER_DETAIL_CHECK_NAMED), instantiated only for a mistake.
#define NETSER_DETAIL_CHECK_MEMBER(T, I, x)                                                               \
    NETSER_DETAIL_CHECK_MEMBER_I(NETSER_PP_CAT(NETSER_DETAIL_CHECKS_, NETSER_PP_IS_PAREN(x)), T, I,       \
                                 NETSER_PP_MEMBER_NAME(x))
#define NETSER_DETAIL_CHECK_MEMBER_I(CHECKS, T, I, m) NETSER_DETAIL_CHECK_MEMBER_II(CHECKS, T, I, m)
#define NETSER_DETAIL_CHECK_MEMBER_II(CHECKS, T, I, m)                                                    \
    {                                                                                                     \
        constexpr int netser_misuse = static_cast<int>(::netser::detail::member_misuse_at<T, I>());       \
        CHECKS(#T "." #m)                                                                                 \
    }
#define NETSER_DETAIL_CHECK(name, kind)                                                                   \
    static_assert(netser_misuse != NETSER_DETAIL_K_##kind, "netser: " name ": " NETSER_DETAIL_TEXT_##kind);
#define NETSER_DETAIL_CHECKS_0(name)                                                                      \
    NETSER_DETAIL_CHECK(name, vector_max_size) NETSER_DETAIL_CHECK(name, map_max_size)                    \
    NETSER_DETAIL_CHECK(name, string_max_length) NETSER_DETAIL_CHECK(name, enum_undescribed)              \
    NETSER_DETAIL_CHECK(name, long_double) NETSER_DETAIL_CHECK(name, no_encoding)                         \
    NETSER_DETAIL_CHECK(name, variant_alternative)
#define NETSER_DETAIL_CHECKS_1(name)                                                                      \
    NETSER_DETAIL_CHECKS_0(name) NETSER_DETAIL_CHECK(name, only_if) NETSER_DETAIL_CHECK(name, user_attribute) \
    NETSER_DETAIL_CHECK(name, bool_attribute) NETSER_DETAIL_CHECK(name, enum_attribute)                   \
    NETSER_DETAIL_CHECK(name, integer_attribute) NETSER_DETAIL_CHECK(name, range)                         \
    NETSER_DETAIL_CHECK(name, bits) NETSER_DETAIL_CHECK(name, common)                                     \
    NETSER_DETAIL_CHECK(name, float_attribute) NETSER_DETAIL_CHECK(name, quantize_type)                   \
    NETSER_DETAIL_CHECK(name, quantize) NETSER_DETAIL_CHECK(name, sparse)                                 \
    NETSER_DETAIL_CHECK(name, string_attribute) NETSER_DETAIL_CHECK(name, variant_attribute)              \
    NETSER_DETAIL_CHECK(name, delta_ladder) NETSER_DETAIL_CHECK(name, user_bits)                          \
    NETSER_DETAIL_CHECK(name, keyed)

// The checks by name, one function template per struct: a member's mistake in what
// NETSER_STRUCT sees where it stands (member_misuse_at: scalars, enums and the standard
// containers, down to their elements), or inside a class it holds, with everything looked
// into. A template, so that its text is parsed once and its checks cost nothing for a
// struct without a mistake: the first walk that meets a mistake instantiates it, and the
// compiler reports the mistake at the member's line. The mistakes of
// NETSER_DETAIL_CHECK_MEMBER (a bare member makes none of an attribute's), and a plain
// aggregate's.
#define NETSER_DETAIL_CHECK_NAMED_MEMBER(T, I, x)                                                         \
    NETSER_DETAIL_CHECK_NAMED_MEMBER_I(NETSER_PP_CAT(NETSER_DETAIL_CHECKS_, NETSER_PP_IS_PAREN(x)), T, I, \
                                       NETSER_PP_MEMBER_NAME(x))
#define NETSER_DETAIL_CHECK_NAMED_MEMBER_I(CHECKS, T, I, m) NETSER_DETAIL_CHECK_NAMED_MEMBER_II(CHECKS, T, I, m)
#define NETSER_DETAIL_CHECK_NAMED_MEMBER_II(CHECKS, T, I, m)                                              \
    if constexpr (::netser::detail::checked_by_name<T, I, NetserWalk>) {                                  \
        constexpr int netser_misuse = static_cast<int>(::netser::detail::named_misuse_at<T, I, NetserWalk>()); \
        CHECKS(#T "." #m) NETSER_DETAIL_CHECK(#T "." #m, plain_aggregate)                                 \
    }
// (NETSER_CLASS has none: a local class may hold no template, not even a friend one.)
#define NETSER_DETAIL_CHECK_NAMED(T, ...)                                                                 \
    template <class NetserWalk>                                                                           \
    [[maybe_unused]] constexpr bool netser_check_members(T**, NetserWalk*) noexcept {                     \
        NETSER_PP_FOR_EACH_I(NETSER_DETAIL_CHECK_NAMED_MEMBER, T __VA_OPT__(, ) __VA_ARGS__)              \
        return true;                                                                                      \
    }

// Boost.Describe's public member list, as BOOST_DESCRIBE_PUBLIC_MEMBERS_ writes it (Boost
// 1.81: one BOOST_DESCRIBE_MEMBER_IMPL per member), listed by NETSER_PP_FOR_EACH_I:
// Boost's own loop rescans its output once per member that follows. (With the attribute
// table on the same loop, clang -E does 31% less work per 10-member struct.)
#define NETSER_DETAIL_DESCRIBE_MEMBER(T, i, x) BOOST_DESCRIBE_MEMBER_IMPL(T, NETSER_PP_MEMBER_NAME(x))
#define NETSER_PP_UNPACK(...) __VA_OPT__(, ) __VA_ARGS__
#define NETSER_PP_COMMA_NAME(a, i, x) , NETSER_PP_MEMBER_NAME(x)
#define NETSER_PP_COMMA_ATTRS(a, i, x) , ::netser::detail::make_attr_pack(NETSER_PP_MEMBER_ATTRS(x))

// <netser/core.hpp> defines stand-ins that ask for this header.
#undef NETSER_STRUCT
#undef NETSER_DERIVED_STRUCT
#undef NETSER_CLASS

/// Describes struct T for netser: NETSER_STRUCT(T, a, (b, netser::range(0, 9)), ...).
/// Place it after T, at namespace scope, in T's namespace.
#define NETSER_STRUCT(T, ...) NETSER_DERIVED_STRUCT(T, () __VA_OPT__(, ) __VA_ARGS__)

/// Like NETSER_STRUCT for a struct with bases: NETSER_DERIVED_STRUCT(T, (Base), members...).
#define NETSER_DERIVED_STRUCT(T, Bases, ...)                                                             \
    NETSER_PP_CAT(NETSER_DETAIL_STRUCT_, NETSER_PP_OVER_LIMIT(__VA_ARGS__))(T, Bases __VA_OPT__(, ) __VA_ARGS__)

#define NETSER_DETAIL_STRUCT_1(T, ...)                                                                   \
    static_assert(sizeof(T) == 0, "netser: at most 52 members per NETSER_STRUCT (the limit of "          \
                                  "Boost.Describe); group members into nested described structs");

// netser_struct_marker says that the macro was placed (an ADL lookup finds it in T's
// namespace); netser_description is the attribute table, which a mistake in an
// attribute makes ill-formed without also reporting the macro as misplaced.
#define NETSER_DETAIL_STRUCT_0(T, Bases, ...)                                                            \
    static_assert(std::is_class_v<T>, "netser: NETSER_STRUCT takes a struct or class type");             \
    BOOST_DESCRIBE_MAYBE_UNUSED BOOST_DESCRIBE_BASES_(T NETSER_PP_UNPACK Bases)                          \
    BOOST_DESCRIBE_MAYBE_UNUSED inline auto boost_public_member_descriptor_fn(T**) {                    \
        return ::boost::describe::detail::member_descriptor_fn_impl<::boost::describe::mod_public>(        \
            0 NETSER_PP_FOR_EACH_I(NETSER_DETAIL_DESCRIBE_MEMBER, T __VA_OPT__(, ) __VA_ARGS__));          \
    }                                                                                                    \
    BOOST_DESCRIBE_MAYBE_UNUSED BOOST_DESCRIBE_PROTECTED_MEMBERS_(T)                                     \
    BOOST_DESCRIBE_MAYBE_UNUSED BOOST_DESCRIBE_PRIVATE_MEMBERS_(T)                                       \
    [[maybe_unused]] void netser_struct_marker(T**) noexcept;                                            \
    [[maybe_unused]] inline constexpr auto netser_description(T**) noexcept {                            \
        return ::netser::detail::make_description<T>(                                                    \
            #T NETSER_PP_FOR_EACH_I(NETSER_PP_COMMA_ATTRS, ~ __VA_OPT__(, ) __VA_ARGS__));                 \
    }                                                                                                    \
    [[maybe_unused]] inline void netser_check_description(T**) noexcept {                                \
        static_assert(::netser::detail::is_marked<T>(),                                                  \
                      "netser: NETSER_STRUCT(" #T ", ...) must be placed in the namespace that declares " #T); \
        static_assert(::netser::detail::lists_every_member_if_described<T>(),                            \
                      "netser: NETSER_STRUCT(" #T ", ...) does not list every member of " #T             \
                      "; add the missing ones (mark those not to send with netser::skip)");              \
    }                                                                                                    \
    NETSER_DETAIL_CHECK_NAMED(T __VA_OPT__(, ) __VA_ARGS__)

/// Inside a class, to describe its private members: NETSER_CLASS(T, a, (b, attrs...)).
/// Boost.Describe sees every listed member as private.
#define NETSER_CLASS(T, ...) NETSER_PP_CAT(NETSER_DETAIL_CLASS_, NETSER_PP_OVER_LIMIT(__VA_ARGS__))(T __VA_OPT__(, ) __VA_ARGS__)

#define NETSER_DETAIL_CLASS_1(T, ...) NETSER_DETAIL_STRUCT_1(T)

// The checks are in a friend's body, where T is complete.
#define NETSER_DETAIL_CLASS_0(T, ...)                                                                    \
    BOOST_DESCRIBE_MAYBE_UNUSED friend BOOST_DESCRIBE_BASES_(T)                                          \
    BOOST_DESCRIBE_MAYBE_UNUSED friend BOOST_DESCRIBE_PUBLIC_MEMBERS_(T)                                 \
    BOOST_DESCRIBE_MAYBE_UNUSED friend BOOST_DESCRIBE_PROTECTED_MEMBERS_(T)                              \
    BOOST_DESCRIBE_MAYBE_UNUSED friend BOOST_DESCRIBE_PRIVATE_MEMBERS_(                                  \
        T NETSER_PP_FOR_EACH_I(NETSER_PP_COMMA_NAME, ~ __VA_OPT__(, ) __VA_ARGS__))                        \
    [[maybe_unused]] friend constexpr void netser_struct_marker(T**) noexcept {}                         \
    [[maybe_unused]] friend constexpr auto netser_description(T**) noexcept {                            \
        return ::netser::detail::make_description<T>(                                                    \
            #T NETSER_PP_FOR_EACH_I(NETSER_PP_COMMA_ATTRS, ~ __VA_OPT__(, ) __VA_ARGS__));                 \
    }                                                                                                    \
    [[maybe_unused]] friend void netser_check_description(T**) noexcept {                                \
        NETSER_PP_FOR_EACH_I(NETSER_DETAIL_CHECK_MEMBER, T __VA_OPT__(, ) __VA_ARGS__)                   \
    }
