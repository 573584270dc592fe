// Delta reads: the bytes go through netser::serialize_delta on a bare read_stream, as
// a hostile peer's delta body would, against several baselines (each read starts from
// one): the generator's small and full-size values for the seed byte, and the default
// value. A baseline that does not match the writer's is as hostile as the bytes.
// Promises checked: no out-of-bounds access, no leak and no crash (the sanitizers),
// bounded allocation (-malloc_limit_mb), a failure that says why (check_read_error)
// and a success whose values satisfy the declared ranges (check_read_value).
//
// Input: [type selector][baseline seed][delta bytes].
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    netser_fuzz::visit_type(data[0] % netser_fuzz::type_count, [&]<class T>(std::type_identity<T>) {
        const std::string_view type = netser_fuzz::type_names[data[0] % netser_fuzz::type_count];
        const auto packet = netser_fuzz::packet_of(data + 1, size - 1);
        const std::uint64_t seed = data[1];
        T baselines[3];
        netser::as_received(netser_fuzz::make_value<T>(seed, netser_fuzz::size_mode::small), baselines[0]);
        netser::as_received(netser_fuzz::make_value<T>(seed, netser_fuzz::size_mode::full), baselines[1]);
        for (const T& base : baselines) {
            T value{};
            netser::read_stream r(packet.span());
            if (netser::serialize_delta(r, value, base))
                netser_fuzz::check_read_value(value, r.bits_processed(), packet.size() * 8, type);
            else
                netser_fuzz::check_read_error(r.error(), packet.size() * 8, type);
        }
    });
    return 0;
}
