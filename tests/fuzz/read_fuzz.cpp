// Raw reads: the packet goes through netser::serialize on a bare read_stream, as a
// hostile peer's bytes would. Promises checked: no out-of-bounds access, no leak and
// no crash (the sanitizers), bounded allocation (libFuzzer's -malloc_limit_mb), a
// failure that says why (check_read_error), and a success whose values satisfy the
// declared ranges (check_read_value).
// The selector's coding (range_common.hpp) reads the packet range-coded instead, on a
// range_read_stream with the default, a trained or the most confident prior: the same
// promises at logical bits, and those of check_range_outcome (the value is what a
// bit-packed read of the logical bits gives, and round-trips range-coded).
#include "range_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    netser_fuzz::visit_type(data[0] % netser_fuzz::type_count, [&]<class T>(std::type_identity<T>) {
        const std::string_view type = netser_fuzz::type_names[data[0] % netser_fuzz::type_count];
        const auto packet = netser_fuzz::packet_of(data, size);
        const netser_fuzz::coding c = netser_fuzz::coding_of(data[0], netser_fuzz::type_count);
        T value{};
        if (c != netser_fuzz::coding::bit_packed) {
            const netser::range_prior& prior = netser_fuzz::prior_for<T>(c, false);
            const netser_fuzz::plain_codec<T> codec;
            const auto r = netser_fuzz::range_read_logged(packet.span(), prior, codec, value);
            netser_fuzz::check_range_outcome(r, value, packet.span(), prior, codec, type,
                                             [&](std::string_view what, const netser::error* e) {
                                                 netser_fuzz::finding(what, type, e);
                                             });
            return;
        }
        netser::read_stream r(packet.span());
        if (netser::serialize(r, value)) netser_fuzz::check_read_value(value, r.bits_processed(), packet.size() * 8, type);
        else netser_fuzz::check_read_error(r.error(), packet.size() * 8, type);
    });
    return 0;
}
