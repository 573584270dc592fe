// Vectors and arrays of small structs, which go a word per element after one room check
// (encodings/struct.hpp, "elements that are one packed run each"), against a reader of the
// same wire written by hand on the core primitives, a member at a time. The input after
// the selector byte is the packet; the selector's low bits pick how full the target
// vectors are before the read (a read into a reused object). For every input:
//   the reflected read succeeds exactly when the hand-written one does, with the same
//   values; a failure has a decode code, a bit inside the packet and a rooted path;
//   what was read writes back bit for bit, into a write_stream and a vector_write_stream.
#include "fuzz_common.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace elements_fuzz {

struct Entry { // 17 bits: one run
    std::uint8_t team = 0;
    std::uint16_t score = 0;
    bool alive = false;
    bool operator==(const Entry&) const = default;
};
NETSER_STRUCT(Entry, (team, netser::range(0, 3)), (score, netser::range(0, 9999)), alive)

struct Point { // 17 + 17 + 3 bits of quantized floats, and a one-value range (0 bits)
    float x = 0.f, y = 0.f, z = 0.f;
    int level = 7;
    bool operator==(const Point&) const = default;
};
NETSER_STRUCT(Point, (x, netser::quantize(-655.f, 655.f, 0.01f)), (y, netser::quantize(-655.f, 655.f, 0.01f)),
              (z, netser::quantize(-1.f, 1.f, 0.5f)), (level, netser::range(7, 7)))

struct Wide { // 56 bits exactly: the longest run
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    bool operator==(const Wide&) const = default;
};
NETSER_STRUCT(Wide, (a, netser::bits(30)), (b, netser::bits(26)))

struct Lone { // one member: a run of one
    std::int16_t v = 0;
    bool operator==(const Lone&) const = default;
};
NETSER_STRUCT(Lone, (v, netser::range(-1000, 1000)))

struct Elements {
    std::vector<Entry> entries;
    std::array<Entry, 9> bench{};
    std::vector<Point> points;
    std::vector<Wide> wide;
    std::array<Lone, 10> lone{};
    bool operator==(const Elements&) const = default;
};
NETSER_STRUCT(Elements, (entries, netser::max_size(300)), bench, (points, netser::max_size(20)),
              (wide, netser::max_size(8)), lone)

// The same wire, a member at a time on the primitives (no count checked against the bits left).
template <class T, class F>
bool vector_by_hand(netser::read_stream& s, std::vector<T>& v, std::uint32_t max, F&& element) {
    std::uint32_t n = 0;
    if (!netser::serialize_int(s, n, 0u, max)) return false;
    v.assign(n, T{});
    for (auto& e : v)
        if (!element(e)) return false;
    return true;
}

bool read_by_hand(netser::read_stream& s, Elements& out) {
    constexpr auto xy = netser::quantization::make(-655.f, 655.f, 0.01f);
    constexpr auto z = netser::quantization::make(-1.f, 1.f, 0.5f);
    const auto entry = [&](Entry& e) {
        return netser::serialize_int(s, e.team, 0, 3) && netser::serialize_int(s, e.score, 0, 9999) &&
               netser::serialize_bool(s, e.alive);
    };
    const auto point = [&](Point& p) {
        p.level = 7;
        return netser::serialize_quantized(s, p.x, xy) && netser::serialize_quantized(s, p.y, xy) &&
               netser::serialize_quantized(s, p.z, z);
    };
    const auto wide = [&](Wide& w) { return netser::serialize_bits(s, w.a, 30) && netser::serialize_bits(s, w.b, 26); };
    if (!vector_by_hand(s, out.entries, 300, entry)) return false;
    for (auto& e : out.bench)
        if (!entry(e)) return false;
    if (!vector_by_hand(s, out.points, 20, point) || !vector_by_hand(s, out.wide, 8, wide)) return false;
    for (auto& l : out.lone)
        if (!netser::serialize_int(s, l.v, -1000, 1000)) return false;
    return true;
}

} // namespace elements_fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using elements_fuzz::Elements;
    if (size == 0) return 0;
    constexpr std::string_view type = "Elements";
    const auto packet = netser_fuzz::packet_of(data, size);
    Elements reflected; // reused: some elements there before the read
    reflected.entries.assign(data[0] % 7, elements_fuzz::Entry{3, 9999, true});
    reflected.points.assign(data[0] % 5, elements_fuzz::Point{1.f, 2.f, 1.f, 7});
    netser::read_stream r(packet.span());
    const bool ok = netser::serialize(r, reflected);
    Elements by_hand;
    netser::read_stream h(packet.span());
    const bool hand_ok = elements_fuzz::read_by_hand(h, by_hand);
    if (!ok) {
        netser_fuzz::check_read_error(r.error(), packet.size() * 8, type);
        if (hand_ok) netser_fuzz::finding("a packet the primitives read is refused", type, &r.error());
        return 0;
    }
    if (!hand_ok) netser_fuzz::finding("a packet the primitives refuse reads", type);
    if (!(reflected == by_hand) || r.bits_processed() != h.bits_processed())
        netser_fuzz::finding("the elements read differ from the primitives' read", type);
    const netser_fuzz::written back =
        netser_fuzz::write_or_die(reflected, type, "elements that read successfully do not write");
    if (back.bits != r.bits_processed() ||
        std::memcmp(back.bytes.data(), packet.span().data(), r.bits_processed() / 8) != 0)
        netser_fuzz::finding("write after read is not bit-exact", type);
    std::vector<std::byte> grown;
    netser::vector_write_stream g(grown, back.bytes.size());
    if (!netser::serialize(g, reflected) || g.bits_processed() != back.bits)
        netser_fuzz::finding("a vector_write_stream of the exact size does not hold the write", type, &g.error());
    return 0;
}
