#pragma once

#include <netser/attributes.hpp>
#include <netser/linear_prediction.hpp>
#include <netser/encodings/struct.hpp>
#include <netser/walk.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

// Prediction (netser::predict_linear): the value a predicted delta packet is sent
// against, built from the baselines the packet names. A member marked predict_linear
// takes the linear extrapolation of its codes in the two newest baselines, to the
// packet's sequence number, in integer arithmetic on codes, so writer and reader build
// the same value bit for bit; every other member takes the newest baseline's value. The
// delta against the prediction is then the ordinary delta: a member that moves as it
// did costs its changed bit, one that does not sends its difference from the
// prediction through its ladder. docs/wire_format.md, "Prediction", gives the rule.

namespace netser {

namespace detail {

template <class P>
constexpr linear_prediction prediction_of(const linear_prediction& inherited) noexcept {
    if constexpr (has_attr<P, attr_kind::predict_linear>) {
        constexpr predict_linear_attr a = P::value.template get<attr_kind::predict_linear>();
        static_assert(a.valid(), "netser: netser::predict_linear(numerator, denominator) needs 1 <= numerator <= "
                                 "denominator <= 64");
        return {inherited.spacing, a.numerator, a.denominator};
    } else {
        return inherited;
    }
}

// The baselines of one value, newest first; b2 is null without a third.
template <class T>
struct baselines_of {
    const T& b0;
    const T& b1;
    const T* b2;
};

template <class P, class T>
void predict_value(T& out, baselines_of<T> b, const linear_prediction& p, bool active);

template <class T, class E>
void predict_code(T& out, baselines_of<T> b, const linear_prediction& p, const E& e) {
    std::uint64_t c0 = 0, c1 = 0, c2 = 0;
    // Baselines are values a reader held: they have codes (a bad one predicts nothing).
    if (to_code(b.b0, e, c0) != errc::none || to_code(b.b1, e, c1) != errc::none) return;
    if (b.b2 != nullptr && to_code(*b.b2, e, c2) != errc::none) return;
    const std::uint64_t code = p.code(c0, c1, b.b2 != nullptr ? &c2 : nullptr, code_max<T>(e));
    [[maybe_unused]] const errc c = from_code(code, out, e);
}

// Codes worth extrapolating: integer ranges, bit counts, quantized floats (not bools,
// raw bits or enums).
template <class E>
inline constexpr bool predictable_code = false;
template <class T>
inline constexpr bool predictable_code<range_encoding<T>> = true;
template <>
inline constexpr bool predictable_code<bits_encoding> = true;
template <>
inline constexpr bool predictable_code<quantization> = true;

template <class C, std::size_t I>
bool present_in_all(baselines_of<C> b) noexcept {
    return member_present<C, I>(b.b0) && member_present<C, I>(b.b1) &&
           (b.b2 == nullptr || member_present<C, I>(*b.b2));
}

template <class C, std::size_t I, class P>
void predict_member(C& out, baselines_of<C> b, const linear_prediction& p, bool active) {
    using D = member_at<C, I>;
    using M = member_type<C, I>;
    const baselines_of<M> m{b.b0.*D::pointer, b.b1.*D::pointer, b.b2 != nullptr ? &(b.b2->*D::pointer) : nullptr};
    if constexpr (pack_of<P>::encoding_size != 0) { // a vector-like struct's component
        predict_value<P>(out.*D::pointer, m, p, active);
    } else if constexpr (!skipped_member<C, I>) {
        using A = value_provider<member_attrs<C, I>>;
        // A member some baseline did not send (only_if) holds no motion to extrapolate.
        if (present_in_all<C, I>(b)) predict_value<A>(out.*D::pointer, m, p, active);
    }
}

template <class P, class C, template <class...> class L, class... B, std::size_t... I>
void predict_struct(C& out, baselines_of<C> b, const linear_prediction& p, bool active, L<B...>,
                    std::index_sequence<I...>) {
    (predict_value<no_attrs>(static_cast<typename B::type&>(out),
                             baselines_of<typename B::type>{b.b0, b.b1, b.b2},
                             p, active),
     ...);
    (predict_member<C, I, P>(out, b, p, active), ...);
}

template <class EP, class E>
void predict_elements(E* out, const E* b0, const E* b1, const E* b2, std::size_t n, const linear_prediction& p,
                      bool active) {
    for (std::size_t i = 0; i < n; ++i)
        predict_value<EP>(out[i], baselines_of<E>{b0[i], b1[i], b2 != nullptr ? b2 + i : nullptr}, p, active);
}

// The families that hold predictable codes; any other value (bools, enums, strings,
// optionals, variants, keyed containers, maps) keeps the newest baseline's value.
template <class P, class T, class E>
void predict_family(T&, baselines_of<T>, const linear_prediction&, bool, const E&) {}

// (Codes wider than 32 bits are not predicted: ids, hashes, raw bits.)
template <class P, class T, class E>
    requires predictable_code<E>
void predict_family(T& out, baselines_of<T> b, const linear_prediction& p, bool active, const E& e) {
    if constexpr (code_bits<T>(encoding_v<P, T>) <= 32)
        if (active) predict_code(out, b, p, e);
}

template <class P, class C, class Q>
void predict_family(C& out, baselines_of<C> b, const linear_prediction& p, bool active, struct_encoding<Q>) {
    predict_struct<Q>(out, b, p, active, described_bases<C>{}, member_indices<C>{});
}

template <class P, class T, class Q>
void predict_family(T& out, baselines_of<T> b, const linear_prediction& p, bool active, user_attribute_encoding<Q>) {
    constexpr auto& a = Q::value.user();
    if constexpr (requires { a.predict(out, b.b0, b.b1, b.b2, p); })
        if (active) a.predict(out, b.b0, b.b1, b.b2, p);
}

template <class P, class T, class Q>
void predict_family(T& out, baselines_of<T> b, const linear_prediction& p, bool active, array_encoding<Q>) {
    predict_elements<Q>(array_data(out), array_data(b.b0), array_data(b.b1),
                        b.b2 != nullptr ? array_data(*b.b2) : nullptr, array_size<T>(), p, active);
}

// Vectors go by position, as far as every baseline has elements.
template <class T>
std::size_t common_size(const T& out, baselines_of<T> b) noexcept {
    std::size_t n = out.size() < b.b1.size() ? out.size() : b.b1.size();
    if (b.b2 != nullptr && b.b2->size() < n) n = b.b2->size();
    return n;
}

// (A std::vector<bool> holds no codes to extrapolate, and no data() to walk.)
template <class P, class T, class Q>
void predict_family(T& out, baselines_of<T> b, const linear_prediction& p, bool active, vector_encoding<Q>) {
    if constexpr (!std::is_same_v<typename T::value_type, bool>)
        predict_elements<without<Q, attr_kind::max_size>>(out.data(), b.b0.data(), b.b1.data(),
                                                          b.b2 != nullptr ? b.b2->data() : nullptr,
                                                          common_size(out, b), p, active);
}

template <class P, class T, class E>
void predict_family(T& out, baselines_of<T> b, const linear_prediction& p, bool active, const sequence_encoding<E>& e) {
    if constexpr (predictable_code<E> && code_bits<typename T::value_type>(encoding_v<P, T>.element) <= 32) {
        if (!active) return;
        using V = typename T::value_type;
        for (std::size_t i = 0, n = common_size(out, b); i < n; ++i) {
            V v = out[i];
            predict_code(v, baselines_of<V>{b.b0[i], b.b1[i], b.b2 != nullptr ? &(*b.b2)[i] : nullptr}, p, e.element);
            out[i] = v;
        }
    }
}

// What a value of type T with attributes P predicts: `active` once a predict_linear
// on it or on what holds it said so.
template <class P, class T>
void predict_value(T& out, baselines_of<T> b, const linear_prediction& inherited, bool active) {
    predict_family<P>(out, b, prediction_of<P>(inherited), active || has_attr<P, attr_kind::predict_linear>,
                      encoding_v<P, T>);
}

} // namespace detail

/// The value a predicted delta is sent against: b0 (the newest baseline), with every
/// predict_linear member extrapolated from b0 and b1 (and checked against b2 when
/// given: nullptr for none). b1 null: b0 itself. The same on writer and reader for the
/// same baselines and spacing.
template <class T>
void predicted_baseline(T& out, const prediction_spacing& spacing, const T& b0, const T* b1 = nullptr,
                        const T* b2 = nullptr) {
    detail::copy_value(out, b0);
    if (b1 == nullptr || spacing.span == 0) return;
    const linear_prediction p{spacing, 1, 1};
    detail::predict_value<detail::no_attrs>(out, detail::baselines_of<T>{b0, *b1, spacing.span2 != 0 ? b2 : nullptr},
                                            p, false);
}

} // namespace netser
