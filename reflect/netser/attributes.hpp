#pragma once

#include <netser/detail/attribute_hints.hpp>
#include <netser/difference_ladder.hpp>
#include <netser/quantization.hpp>
#include <netser/stream.hpp>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

// Member attributes: constant values written in NETSER_STRUCT that choose a member's
// encoding. They are literal types, so every encoding parameter is a compile-time
// constant. docs/attributes.md lists each one with its wire encoding and bound.
//
// Each states its name and its fields once: `name`, and fields(v), which shows each field
// to a visitor v (v.integer, v.number, v.real, v.member, v.values, v.numbers, v.hex, each
// with the field's key). schema_hash hashes what it shows and schema_json writes it, so
// the two cannot disagree about an attribute.

namespace netser {

/// What an attribute is about; user attributes have no kind (they are codecs).
enum class attr_kind {
    range, bits, quantize, common, max_size, max_length, only_if, skip, check, finite, raw_bytes, sparse,
    delta_ladder, delta_whole, keyed, predict_linear,
};

/// Integer in [min, max]: (v - min) in bits_required(min, max) bits.
template <std::integral L, std::integral H>
struct range_attr {
    static constexpr attr_kind kind = attr_kind::range;
    static constexpr std::string_view name = "range";
    L min;
    H max;
    template <class V>
    constexpr void fields(V& v) const {
        v.integer("min", min);
        v.integer("max", max);
    }
};
template <std::integral L, std::integral H>
constexpr range_attr<L, H> range(L min, H max) noexcept { return {min, max}; }

/// Integer in n bits: unsigned in [0, 2^n - 1], signed in [-2^(n-1), 2^(n-1) - 1].
struct bits_attr {
    static constexpr attr_kind kind = attr_kind::bits;
    static constexpr std::string_view name = "bits";
    int n;
    template <class V>
    constexpr void fields(V& v) const { v.integer("n", n); }
};
constexpr bits_attr bits(int n) noexcept { return {n}; }

/// Float quantized to [min, max] at `resolution` (per component on float arrays and
/// described vector structs).
struct quantize_attr {
    static constexpr attr_kind kind = attr_kind::quantize;
    static constexpr std::string_view name = "quantize";
    float min, max, resolution;
    template <class V>
    constexpr void fields(V& v) const {
        v.real("min", min);
        v.real("max", max);
        v.real("resolution", resolution);
    }
    constexpr quantization params() const noexcept { return quantization::make(min, max, resolution); }
};
constexpr quantize_attr quantize(float min, float max, float resolution) noexcept {
    return {min, max, resolution};
}

/// Frequent values: 1 flag bit, then the value's index among them, or (flag 0) the
/// normal encoding.
template <class V, std::size_t N>
struct common_attr {
    static constexpr attr_kind kind = attr_kind::common;
    static constexpr std::string_view name = "common";
    V values[N];
    template <class Visitor>
    constexpr void fields(Visitor& v) const { v.values("values", values, N); }
};
template <class... V>
    requires(sizeof...(V) > 0 && ((std::integral<V> || std::floating_point<V> || std::is_enum_v<V>) && ...))
constexpr auto common(V... values) noexcept {
    using value_type = std::common_type_t<V...>;
    return common_attr<value_type, sizeof...(V)>{{static_cast<value_type>(values)...}};
}

/// Largest element count of a container (required on vectors, maps and sets).
struct max_size_attr {
    static constexpr attr_kind kind = attr_kind::max_size;
    static constexpr std::string_view name = "max_size";
    std::size_t n;
    template <class V>
    constexpr void fields(V& v) const { v.number("n", n); }
};
constexpr max_size_attr max_size(std::size_t n) noexcept { return {n}; }

/// Largest byte length of a string (required on std::string).
struct max_length_attr {
    static constexpr attr_kind kind = attr_kind::max_length;
    static constexpr std::string_view name = "max_length";
    std::size_t n;
    template <class V>
    constexpr void fields(V& v) const { v.number("n", n); }
};
constexpr max_length_attr max_length(std::size_t n) noexcept { return {n}; }

/// The member is sent only when the earlier bool member `flag` is true; otherwise a
/// read resets it to its default value.
template <class C>
struct only_if_attr {
    static constexpr attr_kind kind = attr_kind::only_if;
    static constexpr std::string_view name = "only_if";
    bool C::*flag;
    template <class V>
    constexpr void fields(V& v) const { v.member("member", flag); }
};
template <class C>
constexpr only_if_attr<C> only_if(bool C::*flag) noexcept { return {flag}; }
// A flag that is not a bool: a null flag, which NETSER_STRUCT reports by the member's name.
template <class C, class M>
    requires(!std::is_same_v<M, bool>)
constexpr only_if_attr<C> only_if(M C::*) noexcept { return {nullptr}; }

/// Never sent; a read leaves the member untouched.
struct skip_attr {
    static constexpr attr_kind kind = attr_kind::skip;
    static constexpr std::string_view name = "skip";
    template <class V>
    constexpr void fields(V&) const {}
};
inline constexpr skip_attr skip{};

/// On float / double: NaN and infinities fail the write and the read (invalid_value).
/// Without it, raw floats travel bit-exact whatever they hold.
struct finite_attr {
    static constexpr attr_kind kind = attr_kind::finite;
    static constexpr std::string_view name = "finite";
    template <class V>
    constexpr void fields(V&) const {}
};
inline constexpr finite_attr finite{};

/// On std::string: any bytes. Without it, a string must be valid UTF-8 (invalid_value).
struct raw_bytes_attr {
    static constexpr attr_kind kind = attr_kind::raw_bytes;
    static constexpr std::string_view name = "raw_bytes";
    template <class V>
    constexpr void fields(V&) const {}
};
inline constexpr raw_bytes_attr raw_bytes{};

/// On std::array<std::optional<T>, N> (or std::vector<std::optional<T>> with max_size):
/// only the present elements, each as its relative index then its value, then the end
/// sentinel N (the sparse array of Glenn Fiedler's "Serialization Strategies").
struct sparse_attr {
    static constexpr attr_kind kind = attr_kind::sparse;
    static constexpr std::string_view name = "sparse";
    template <class V>
    constexpr void fields(V&) const {}
};
inline constexpr sparse_attr sparse{};

/// On a std::vector<T> (T described, with max_size): its delta matches elements by the
/// integer or enum member `key` (a unique id) instead of by position: removed keys,
/// changed elements, added elements, then the order (encodings/keyed.hpp). The plain
/// encoding is the vector's.
template <class C, class M>
struct keyed_attr {
    static constexpr attr_kind kind = attr_kind::keyed;
    static constexpr std::string_view name = "keyed";
    M C::*key;
    template <class V>
    constexpr void fields(V& v) const { v.member("member", key); }
};
template <class C, class M>
constexpr keyed_attr<C, M> keyed(M C::*key) noexcept { return {key}; }

/// Delta compression (serialize_delta): the ladder of the differences of this member's
/// codes (or of its elements'), e.g. delta_ladder(1, 16, 256): up to 4 increasing limits.
struct delta_ladder_attr {
    static constexpr attr_kind kind = attr_kind::delta_ladder;
    static constexpr std::string_view name = "delta_ladder";
    difference_ladder ladder;
    template <class V>
    constexpr void fields(V& v) const { v.numbers("limits", ladder.limit, ladder.rungs); }
};
template <std::integral... L>
    requires(sizeof...(L) >= 1 && sizeof...(L) <= difference_ladder::max_rungs)
constexpr delta_ladder_attr delta_ladder(L... limits) noexcept {
    return {{{static_cast<std::uint64_t>(limits)...}, static_cast<int>(sizeof...(L))}};
}

/// Delta compression: a changed member is sent whole (its plain encoding after the
/// changed bit), not as a difference.
struct delta_whole_attr {
    static constexpr attr_kind kind = attr_kind::delta_whole;
    static constexpr std::string_view name = "delta_whole";
    template <class V>
    constexpr void fields(V&) const {}
};
inline constexpr delta_whole_attr delta_whole{};

/// Predicted delta packets (<netser/predicted_delta_packet.hpp>): the baseline this
/// member's codes are sent against is the linear extrapolation of its codes in the
/// packet's baselines (integer arithmetic, the same on both sides), scaled by
/// numerator / denominator in (0, 1]: predict_linear, or predict_linear(3, 4) to damp
/// it. On a struct, array or vector it applies to every integer-coded value inside
/// (ranges, bit counts, quantized floats, smallest_three rotations). Other packets
/// ignore it. docs/wire_format.md, "Prediction", gives the rule.
struct predict_linear_attr {
    static constexpr attr_kind kind = attr_kind::predict_linear;
    static constexpr std::string_view name = "predict_linear";
    int numerator = 1;
    int denominator = 1;
    template <class V>
    constexpr void fields(V& v) const {
        v.integer("numerator", numerator);
        v.integer("denominator", denominator);
    }
    /// The same prediction scaled by numerator / denominator (1 <= numerator <=
    /// denominator <= 64).
    constexpr predict_linear_attr operator()(int num, int den) const noexcept { return {num, den}; }
    constexpr bool valid() const noexcept {
        return numerator >= 1 && denominator >= numerator && denominator <= 64;
    }
};
inline constexpr predict_linear_attr predict_linear{};

/// Attributes about the delta encoding only: every member and element takes them.
constexpr bool is_delta_kind(attr_kind k) noexcept {
    return k == attr_kind::delta_ladder || k == attr_kind::delta_whole || k == attr_kind::predict_linear;
}

namespace detail {

/// The kind of a user attribute (anything without a netser kind).
inline constexpr attr_kind user_kind = static_cast<attr_kind>(-1);

/// A stand-in for what a user attribute's serialize(s, v, encode) is given (an encoder
/// of v with the member's other attributes: encodings/user.hpp), to ask whether it has one.
struct any_value_encoder {
    template <class S, class V>
    bool operator()(S&, V&) const noexcept;
};

// A fixed list of values of different types, lighter to compile than std::tuple (no
// converting constructors to check): slot I is a base, found by deduction.
template <std::size_t I, class T>
struct slot {
    T item;
};
template <std::size_t I, class T>
constexpr const T& slot_get(const slot<I, T>& s) noexcept {
    return s.item;
}
template <class Indices, class... T>
struct slots;
template <std::size_t... I, class... T>
struct slots<std::index_sequence<I...>, T...> : slot<I, T>... {};
template <class... T>
using slot_list = slots<std::index_sequence_for<T...>, T...>;

// One member's attributes.
template <class... A>
struct attr_pack {
    slot_list<A...> items;

    static constexpr std::size_t size = sizeof...(A);

    template <class X>
    static constexpr bool has_kind() noexcept {
        return requires { X::kind; };
    }
    template <class X>
    static constexpr attr_kind kind_of() noexcept {
        if constexpr (has_kind<X>()) return X::kind;
        else return user_kind;
    }
    static constexpr attr_kind kinds[sizeof...(A) + 1] = {kind_of<A>()..., user_kind};
    /// The attributes that choose the encoding: all but those about the delta only.
    static constexpr std::size_t encoding_size = (std::size_t{0} + ... + (is_delta_kind(kind_of<A>()) ? 0u : 1u));

    template <attr_kind K>
    static constexpr std::size_t index_of() noexcept {
        for (std::size_t i = 0; i < sizeof...(A); ++i)
            if (kinds[i] == K) return i;
        return sizeof...(A);
    }
    template <attr_kind K>
    static constexpr bool has() noexcept { return index_of<K>() < sizeof...(A); }
    template <attr_kind K>
    constexpr const auto& get() const noexcept { return slot_get<index_of<K>()>(items); }
    // True when every attribute is of one of the given kinds.
    template <attr_kind... Allowed>
    static constexpr bool only() noexcept {
        constexpr attr_kind allowed[] = {Allowed..., user_kind};
        for (std::size_t i = 0; i < sizeof...(A); ++i) {
            bool found = is_delta_kind(kinds[i]);
            for (std::size_t k = 0; k < sizeof...(Allowed); ++k) found = found || kinds[i] == allowed[k];
            if (!found) return false;
        }
        return true;
    }

    // A user attribute: anything without a netser kind.
    static constexpr std::size_t user_index() noexcept { return index_of<user_kind>(); }
    static constexpr bool has_user() noexcept { return user_index() < sizeof...(A); }
    // A user attribute that is a codec for V (else it is meant for V's elements): it
    // encodes V on its own, or with an encoder of V by the member's other attributes.
    template <class V>
    static constexpr bool user_codec_for() noexcept {
        if constexpr (has_user()) {
            using U = std::remove_cvref_t<decltype(slot_get<user_index()>(std::declval<const slot_list<A...>&>()))>;
            return requires(const U& u, measure_stream& m, V& v) { u.serialize(m, v); } ||
                   requires(const U& u, measure_stream& m, V& v, const any_value_encoder& e) { u.serialize(m, v, e); };
        } else {
            return false;
        }
    }
    constexpr const auto& user() const noexcept { return slot_get<user_index()>(items); }

    // f(attribute) for each attribute, in order.
    template <class F>
    constexpr void for_each(F&& f) const {
        [&]<std::size_t... I>(std::index_sequence<I...>) { (f(slot_get<I>(items)), ...); }(
            std::index_sequence_for<A...>{});
    }
};

template <class... A>
constexpr attr_pack<A...> make_attr_pack(A... a) noexcept {
    return {{{a}...}};
}

template <class X, attr_kind... Removed>
constexpr bool is_removed() noexcept {
    if constexpr (requires { X::kind; }) return ((X::kind == Removed) || ...);
    else return ((Removed == user_kind) || ...);
}

// The pack without the attributes of the given kinds (user_kind: the user attribute).
template <attr_kind... Removed, class... A>
constexpr auto filter_pack(const attr_pack<A...>& p) noexcept {
    constexpr std::size_t n = sizeof...(A);
    constexpr bool kept[n + 1] = {!is_removed<A, Removed...>()..., false};
    constexpr auto kept_indices = [&] {
        struct list {
            std::size_t count = 0;
            std::size_t index[n + 1]{};
        } r;
        for (std::size_t i = 0; i < n; ++i)
            if (kept[i]) r.index[r.count++] = i;
        return r;
    }();
    return [&]<std::size_t... K>(std::index_sequence<K...>) {
        return make_attr_pack(slot_get<kept_indices.index[K]>(p.items)...);
    }(std::make_index_sequence<kept_indices.count>{});
}

// Attribute providers: a type whose static constexpr `value` is an attr_pack, so that
// codecs can use the attributes in constant expressions.
struct no_attrs {
    static constexpr attr_pack<> value{};
};

// P without the attributes of the given kinds: what a container passes to its elements,
// and what a member passes to its value once only_if / skip / check are handled.
template <class P, attr_kind... Removed>
struct without {
    static constexpr auto value = filter_pack<Removed...>(P::value);
};

template <class P>
using pack_of = std::decay_t<decltype(P::value)>;

// Answered once per pack type (shared by every member with the same kinds of
// attributes), not once per member.
template <class A, attr_kind K>
inline constexpr bool pack_has = A::template has<K>();
template <class A, attr_kind... Allowed>
inline constexpr bool pack_only = A::template only<Allowed...>();

template <class P, attr_kind K>
inline constexpr bool has_attr = pack_has<pack_of<P>, K>;

// True when the pack holds no attribute other than the given kinds.
template <class P, attr_kind... Allowed>
inline constexpr bool only_kinds = pack_only<pack_of<P>, Allowed...>;

} // namespace detail
} // namespace netser
