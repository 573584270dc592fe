// Delta reads: the bytes go through netser::serialize_delta on a bare read_stream, as
// a hostile peer's delta body would, against several baselines (as a reader holds them):
// the generator's small value for the seed byte (the seeds' own baseline), a near one
// (that value with one member changed), a far one (the full-size value: other counts,
// other everything) and the default value. A baseline that does not match the writer's
// is as hostile as the bytes.
// Each read goes into a fresh object and into a reused one (which holds an unrelated value
// at first, then each earlier read's result, failed or not, each time with other bits in
// its skip members): both must fail with the same code, bit and path, or give the same
// value bit for bit.
// Promises checked: no out-of-bounds access, no leak and no crash (the sanitizers),
// bounded allocation (-malloc_limit_mb), a failure that says why (check_read_error)
// and a success whose values satisfy the declared ranges (check_read_value).
//
// Input: [type selector][baseline seed][delta bytes].
#include "fuzz_common.hpp"

#include <array>

namespace {

using namespace netser_fuzz;

// Per seed byte: the generator's small value (the seeds' own baseline), the near one, the
// far one (full-size), the default value; the reused object's first value is another one.
template <class T>
std::array<const T*, 4> baselines_for(std::size_t seed) {
    const T& small = generated<T>(seed, size_mode::small);
    const T& near = made_once<T>(seed, [&] {
        T out{};
        rng r{seed};
        near_value(small, out, r);
        return out;
    });
    static const T none{};
    return {&small, &near, &generated<T>(seed, size_mode::full), &none};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    visit_type<delta_types>(data[0] % delta_type_count, [&]<class T>(std::type_identity<T>) {
        static constexpr std::string_view names[] = {"generated", "near", "far", "default"};
        const std::string_view type = delta_type_names[data[0] % delta_type_count];
        const auto packet = packet_of(data + 1, size - 1);
        const std::size_t seed = data[1];
        T fresh{}, reused{};
        copy_into(generated<T>(255 - seed, size_mode::full), reused);
        rng other_bits{seed + 0x5eed};
        const auto baselines = baselines_for<T>(seed);
        for (std::size_t i = 0; i < baselines.size(); ++i)
            read_delta_fresh_and_reused(packet.span(), *baselines[i], fresh, reused, other_bits, {type, names[i]});
    });
    return 0;
}
