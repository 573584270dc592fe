// Differential round trips over random valid values. The input is entropy: it is
// read as the selected type, and an input that does not decode is skipped, so every
// value that gets through is one a peer can really receive. For each such value v0:
//   write(v0) succeeds (a read never yields a value the writer refuses),
//   measure(v0) counts exactly the bits written, which stay within max_bits<T>(),
//   read(write(v0)) succeeds, consumes exactly those bits, and writes back bit for bit,
//   and the same value survives write_packet -> read_packet -> write unchanged.
#include "fuzz_common.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

using netser_fuzz::finding;

// KNOWN ISSUE (reported; regression test "smallest_three and unit_quaternion re-encode
// a rotation they decoded bit for bit" in tests/hostile/ranges_test.cpp, [!mayfail]):
// when the two largest components of a decoded rotation are within a quantization
// step, smallest_three's second write may pick the other one as the largest; and
// unit_quaternion writes a decoded w of -0 with a positive sign. Both writes encode
// the same rotation. Until the library fixes it, a difference explained by that alone
// (every other member equal, every rotation within 0.15 rad: the book form loses most
// near w = 0) is not reported; -DNETSER_FUZZ_STRICT makes it a finding again.
#if defined(NETSER_FUZZ_STRICT)
template <class T>
bool quaternion_drift_only(const T&, const T&) { return false; }
#else
template <class Q>
bool same_rotation(const Q& a, const Q& b) {
    double dot = 0;
    if constexpr (std::is_same_v<Q, netser_fuzz::Quat>) dot = double{a.x} * b.x + double{a.y} * b.y + double{a.z} * b.z + double{a.w} * b.w;
    else for (std::size_t i = 0; i < 4; ++i) dot += double{a[i]} * b[i];
    return 2 * std::acos(std::min(1.0, std::fabs(dot))) <= 0.15;
}

inline bool same_bits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

template <class T>
bool quaternion_drift_only(const T& a, const T& b) {
    if constexpr (std::is_same_v<T, netser_fuzz::Body>) {
        if (!same_rotation(a.rotation, b.rotation) || !same_rotation(a.spin, b.spin) || !same_rotation(a.book, b.book) ||
            a.normal != b.normal ||
            !same_bits(a.velocity.x, b.velocity.x) || !same_bits(a.velocity.y, b.velocity.y) ||
            a.history.size() != b.history.size())
            return false;
        for (std::size_t i = 0; i < a.history.size(); ++i)
            if (!same_rotation(a.history[i], b.history[i])) return false;
        return true;
    } else if constexpr (std::is_same_v<T, netser_fuzz::Envelope>) {
        if (a.sequence != b.sequence || a.body.index() != 2 || b.body.index() != 2) return false;
        const auto& ma = std::get<2>(a.body);
        const auto& mb = std::get<2>(b.body);
        return ma.to.x == mb.to.x && ma.to.y == mb.to.y && same_rotation(ma.facing, mb.facing);
    } else {
        return false;
    }
}
#endif

template <class T>
T read_back(const std::vector<std::byte>& bytes, std::string_view type) {
    const netser_fuzz::exact_bytes packet(bytes);
    T value{};
    netser::read_stream r(packet.span());
    if (!netser::serialize(r, value)) finding("a written value does not read back", type, &r.error());
    return value;
}

struct written {
    std::vector<std::byte> bytes;
    std::size_t bits = 0;
};

template <class T>
written write_or_die(const T& value, std::string_view type, const char* what) {
    written out;
    out.bytes.resize(netser_fuzz::write_capacity<T>());
    netser::write_stream w{std::span<std::byte>(out.bytes)};
    if (!netser::serialize(w, value)) finding(what, type, &w.error());
    out.bits = w.bits_processed();
    out.bytes.resize(w.finish().size());
    if (out.bytes.size() != (out.bits + 7) / 8) finding("finish() does not give ceil(bits / 8) bytes", type);
    return out;
}

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
    if ((second.bits != first.bits || second.bytes != first.bytes) &&
        !quaternion_drift_only(v1, read_back<T>(second.bytes, type)))
        finding("write -> read -> write is not bit-exact", type);

    std::vector<std::byte> buffer(netser_fuzz::write_capacity<T>() + netser::packet_overhead_bytes + 8);
    const auto p = netser::write_packet(std::span<std::byte>(buffer), v1);
    // v1 -> packet -> v2 -> write must give the bytes v1 wrote (second).
    if (p.error) finding("a value that writes does not write as a packet", type, &p.error);
    const netser_fuzz::exact_bytes whole(p.bytes);
    T v2{};
    const netser::error e = netser::read_packet(whole.span(), v2);
    if (e) finding("a packet written by write_packet does not read", type, &e);
    const written third = write_or_die(v2, type, "a value read from a packet does not write");
    if ((third.bits != second.bits || third.bytes != second.bytes) && !quaternion_drift_only(v2, read_back<T>(third.bytes, type)))
        finding("a packet round trip is not bit-exact", type);
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
