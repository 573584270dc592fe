// Differential round trips over random valid values. The input is entropy: it is
// read as the selected type, and an input that does not decode is skipped, so every
// value that gets through is one a peer can really receive. For each such value v0:
//   write(v0) succeeds (a read never yields a value the writer refuses),
//   measure(v0) counts exactly the bits written, which stay within max_bits<T>(),
//   read(write(v0)) succeeds, consumes exactly those bits, and writes back bit for bit,
//   and the same value survives write_packet -> read_packet -> write unchanged.
#include "fuzz_common.hpp"

#include <vector>

namespace {

using netser_fuzz::finding;
using netser_fuzz::write_or_die;
using netser_fuzz::written;

template <class T>
void round_trip(const T& v0, std::string_view type) {
    const written first = write_or_die(v0, type, "a value that read successfully does not write");
    netser::measure_stream m;
    if (!netser::serialize(m, v0)) finding("a value that writes does not measure", type, &m.error());
    if (m.bits_processed() != first.bits) finding("measure differs from the bits written", type);
    if constexpr (netser_fuzz::statically_bounded<T>)
        if (first.bits > netser::max_bits<T>()) finding("a write exceeds max_bits<T>()", type);

    const netser_fuzz::exact_bytes packet(first.bytes);
    T v1{};
    netser::read_stream r(packet.span());
    if (!netser::serialize(r, v1)) finding("a written value does not read back", type, &r.error());
    if (r.bits_processed() != first.bits) finding("a read consumes other bits than the write produced", type);
    netser_fuzz::check_read_value(v1, r.bits_processed(), packet.size() * 8, type);
    const written second = write_or_die(v1, type, "a value read back does not write");
    if (second.bits != first.bits || second.bytes != first.bytes) finding("write -> read -> write is not bit-exact", type);

    std::vector<std::byte> buffer(netser_fuzz::write_capacity<T>() + netser::packet_overhead_bytes + 8);
    const auto p = netser::write_packet(std::span<std::byte>(buffer), v1);
    // v1 -> packet -> v2 -> write must give the bytes v1 wrote (second).
    if (p.error) finding("a value that writes does not write as a packet", type, &p.error);
    const netser_fuzz::exact_bytes whole(p.bytes);
    T v2{};
    const netser::error e = netser::read_packet(whole.span(), v2);
    if (e) finding("a packet written by write_packet does not read", type, &e);
    const written third = write_or_die(v2, type, "a value read from a packet does not write");
    if (third.bits != second.bits || third.bytes != second.bytes) finding("a packet round trip is not bit-exact", type);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    netser_fuzz::visit_type(data[0] % netser_fuzz::type_count, [&]<class T>(std::type_identity<T>) {
        const std::string_view type = netser_fuzz::type_names[data[0] % netser_fuzz::type_count];
        const auto packet = netser_fuzz::packet_of(data, size);
        T v0{};
        netser::read_stream r(packet.span());
        if (!netser::serialize(r, v0)) return; // not a value: skip
        round_trip(v0, type);
    });
    return 0;
}
