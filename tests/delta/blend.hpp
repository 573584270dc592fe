#pragma once

// A value blended with another, for delta tests that need every proportion of changes.

#include "fuzz/fuzz_types.hpp"

#include <netser/netser.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace delta_test {

// obj becomes a mix of itself and `other`: each value is kept or taken from other (one
// in `odds` taken), recursing into described structs, arrays and equally long vectors,
// so a delta sees every proportion of changes.
template <class T>
void blend(T& obj, const T& other, netser_fuzz::rng& r, std::uint64_t odds) {
    if constexpr (netser::detail::described<T>) {
        boost::mp11::mp_for_each<netser::detail::described_members<T>>([&](auto d) {
            if constexpr (std::is_copy_assignable_v<std::remove_cvref_t<decltype(obj.*d.pointer)>>)
                blend(obj.*d.pointer, other.*d.pointer, r, odds);
        });
    } else if constexpr (netser::detail::is_std_array<T>::value) {
        for (std::size_t i = 0; i < obj.size(); ++i) blend(obj[i], other[i], r, odds);
    } else if constexpr (netser::detail::is_vector<T>::value && !std::is_same_v<T, std::vector<bool>>) {
        if (obj.size() == other.size() && r.below(4) != 0) {
            for (std::size_t i = 0; i < obj.size(); ++i) blend(obj[i], other[i], r, odds);
        } else if (r.below(odds) == 0) {
            obj = other;
        }
    } else if constexpr (std::is_copy_assignable_v<T>) {
        if (r.below(odds) == 0) obj = other;
    }
}

} // namespace delta_test
