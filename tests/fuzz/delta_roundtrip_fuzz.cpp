// Delta round trips over random valid values. The input is entropy: a plain read of it
// gives the value v, as a reader holds it (an input that does not decode is skipped, so v
// is a value a peer can really hold; so is one that no delta can carry, a keyed vector
// with a key twice: delta_writable), and a plain read of the bytes after it a far
// baseline (else the generator's value for the control byte). v is written as a delta
// against each baseline, all as a reader holds them:
//   itself  v (an unchanged value is one bit)
//   twin    v with each raw float and double that is 0 or NaN of the other sign: equal to v
//           under ==, other bits (a writer that compares floats with == sends it unchanged)
//   near    v with one member changed (one bit flipped)
//   far     an unrelated value: other counts, other everything
// For each: the delta writes, measures to the bits written, which stay within
// max_delta_bits<T>(); read against the same baseline it consumes exactly those bits and
// gives back v bit for bit (floats by their bits; the skip members, never sent, apart); a
// read into a reused object (an unrelated value at first, then each earlier result, each
// time with other bits in its skip members) gives the same bits as one into a fresh
// object, skip members too.
//
// Input: [type selector][control byte][plain bytes of v][plain bytes of the far baseline].
#include "fuzz_common.hpp"

namespace {

using namespace netser_fuzz;

template <class T>
void round_trip(const T& v, const T& base, T& fresh, T& reused, rng& other_bits, const against_baseline& fail) {
    const written delta = write_or_die(delta_capacity<T>(), fail.type,
                                       fail.text("a delta of a value against a baseline a reader holds does not write"),
                                       [&](auto& w) { return netser::serialize_delta(w, v, base); });
    netser::measure_stream m;
    if (!netser::serialize_delta(m, v, base)) fail("a delta that writes does not measure", &m.error());
    if (m.bits_processed() != delta.bits) fail("a delta measures to other bits than it writes");
    if constexpr (statically_bounded<T>)
        if (delta.bits > netser::max_delta_bits<T>()) fail("a delta exceeds max_delta_bits<T>()");
    if (fail.baseline == "itself" && delta.bits != 1) fail("a value against itself is not one bit");

    const exact_bytes packet(delta.bytes);
    const delta_read read = read_delta_fresh_and_reused(packet.span(), base, fresh, reused, other_bits, fail);
    if (read.error) fail("a delta does not read back against its own baseline", &read.error);
    if (read.bits != delta.bits) fail("a delta read consumes other bits than the write produced");
    if (bits_of(fresh).sent != bits_of(v).sent)
        fail("a delta read back against its own baseline does not give the value written, bit for bit");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    visit_type<delta_types>(data[0] % delta_type_count, [&]<class T>(std::type_identity<T>) {
        const std::string_view type = delta_type_names[data[0] % delta_type_count];
        const std::uint64_t control = data[1];
        const auto packet = packet_of(data + 1, size - 1);
        T decoded{}, v{};
        netser::read_stream r(packet.span());
        if (!netser::serialize(r, decoded)) return; // not a value: skip
        // What a reader of it holds: the same bits, but for a rotation read from codes that
        // are no fixed point (a writer sends the codes of the decoded rotation). The far
        // baseline is made so too: read from such codes, it could encode as v does without
        // v's bits, and a delta would then rightly send v as unchanged.
        if (!received(decoded, v) || !delta_writable(v)) return;

        enum { itself, twin, near, far, count };
        static constexpr std::string_view names[count] = {"itself", "twin", "near", "far"};
        T baselines[count];
        copy_into(v, baselines[itself]);
        twin_value(v, baselines[twin]);
        rng pick{control * 0x2545f4914f6cdd1dull + size};
        near_value(v, baselines[near], pick);
        const exact_bytes rest(packet.span().subspan(r.bytes_processed()));
        netser::read_stream far_reader(rest.span());
        decoded = T{};
        const auto seed = static_cast<std::size_t>(control);
        if (rest.size() != 0 && netser::serialize(far_reader, decoded)) received(decoded, baselines[far]);
        else copy_into(generated<T>(seed, size_mode::full), baselines[far]);
        if (!delta_writable(baselines[far])) copy_into(generated<T>(seed, size_mode::full), baselines[far]);

        T fresh{}, reused{};
        copy_into(generated<T>(255 - seed, size_mode::full), reused);
        for (std::size_t i = 0; i < count; ++i) round_trip(v, baselines[i], fresh, reused, pick, {type, names[i]});
    });
    return 0;
}
