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
// The selector's coding (range_common.hpp) reads the delta bytes range-coded instead, on
// range_read_streams with the default, a trained or the most confident prior: the same
// comparisons of fresh and reused objects, and check_range_outcome's promises (the value is
// what a bit-packed read of the logical bits gives, and round-trips range-coded).
//
// Input: [type selector][baseline seed][delta bytes].
#include "range_common.hpp"

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

// The range-coded read of `packet` against `base` into a fresh object and into `reused`:
// both fail with the same error or give the same value; check_range_outcome on it.
template <class T>
void range_delta_fresh_and_reused(std::span<const std::byte> packet, const T& base, T& fresh, T& reused,
                                  rng& other_bits, const netser::range_prior& prior, const against_baseline& fail) {
    fill_skipped(reused, [&] { return other_bits.next(); });
    fresh = T{};
    const delta_codec<T> codec{&base};
    const range_outcome r = range_read_logged(packet, prior, codec, fresh);
    netser::range_read_stream again(packet, prior);
    const bool reused_ok = codec.read(again, reused);
    if (!r.error != reused_ok)
        fail("a range-coded delta read into a reused object and one into a fresh object do not both succeed or both fail",
             r.error ? &r.error : &again.error());
    if (r.error) {
        const netser::error& e2 = again.error();
        if (r.error.code != e2.code || r.error.bit != e2.bit || r.error.path() != e2.path())
            fail("a failed range-coded delta read into a reused object reports another error than one into a fresh object",
                 &e2);
    } else {
        if (again.bits_processed() != r.bits || again.ended_cleanly() != r.clean)
            fail("a range-coded delta read into a reused object consumes other bits than one into a fresh object");
        const value_bits want = bits_of(fresh), got = bits_of(reused);
        if (got.sent != want.sent)
            fail("a range-coded delta read into a reused object gives another value than one into a fresh object");
        if (got.skipped != want.skipped)
            fail("a range-coded delta read into a reused object leaves skip members with the old object's values");
    }
    check_range_outcome(r, fresh, packet, prior, codec, fail.type,
                        [&](std::string_view what, const netser::error* e) { fail(what, e); });
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
        const coding c = coding_of(data[0], delta_type_count);
        if (c != coding::bit_packed) {
            const netser::range_prior& prior = prior_for<T>(c, true);
            for (std::size_t i = 0; i < baselines.size(); ++i)
                range_delta_fresh_and_reused(packet.span(), *baselines[i], fresh, reused, other_bits, prior, {type, names[i]});
            return;
        }
        for (std::size_t i = 0; i < baselines.size(); ++i)
            read_delta_fresh_and_reused(packet.span(), *baselines[i], fresh, reused, other_bits, {type, names[i]});
    });
    return 0;
}
