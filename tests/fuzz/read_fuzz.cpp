// Raw reads: the packet goes through netser::serialize on a bare read_stream, as a
// hostile peer's bytes would. Promises checked: no out-of-bounds access, no leak and
// no crash (the sanitizers), bounded allocation (libFuzzer's -malloc_limit_mb), a
// failure that says why (check_read_error), and a success whose values satisfy the
// declared ranges (check_read_value).
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    netser_fuzz::visit_type(data[0] % netser_fuzz::type_count, [&]<class T>(std::type_identity<T>) {
        const std::string_view type = netser_fuzz::type_names[data[0] % netser_fuzz::type_count];
        const auto packet = netser_fuzz::packet_of(data, size);
        T value{};
        netser::read_stream r(packet.span());
        if (netser::serialize(r, value)) netser_fuzz::check_read_value(value, r.bits_processed(), packet.size() * 8, type);
        else netser_fuzz::check_read_error(r.error(), packet.size() * 8, type);
    });
    return 0;
}
