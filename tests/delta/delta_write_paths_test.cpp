// A delta writer takes shortcuts that must not change a bit: a changed struct writes its
// members first and takes them back when none changed (only when the room left is sure
// to hold them; else it tests first), a scalar codes each side once, an array remembers
// which elements changed (the first 4,096) while it chooses how to name them. These
// tests hold the bits to the room-independent answer: every room from exactly the
// packet's size up, a growing vector, the measure, and counts worked out by hand.

#include "delta/blend.hpp"
#include "delta/delta_types.hpp"
#include "fuzz/fuzz_types.hpp"

#include <netser/netser.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace delta_test;

namespace delta_paths {

struct Quat {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};
NETSER_STRUCT(Quat, x, y, z, w)

/// A struct whose rotation has its own serialize_delta (what it wrote is not known to
/// the struct), beside a quantized position.
struct Spin {
    bool on = false;
    float x = 0.f;
    Quat q;
};
NETSER_STRUCT(Spin, on, (x, netser::quantize(-10.f, 10.f, 0.01f)), (q, netser::smallest_three{9}))

struct Spins {
    std::array<Spin, 3> s{};
};
NETSER_STRUCT(Spins, s)

/// More elements than a writer remembers.
struct Wide {
    std::array<std::uint16_t, 5000> v{};
};
NETSER_STRUCT(Wide, (v, netser::range(0, 1000)))

struct WideList {
    std::vector<std::uint16_t> v;
};
NETSER_STRUCT(WideList, (v, netser::max_size(10000), netser::range(0, 1000)))

} // namespace delta_paths

using namespace delta_paths;

namespace {

// Writes obj against base with every room from the packet's size to 16 bytes more, and
// a few larger, into a write_stream and a vector_write_stream capped there; each must
// succeed with the same bytes as a roomy write, and the measure must count its bits.
template <class T>
std::string same_bits_in_every_room(const T& obj, const T& base) {
    std::size_t bits = 0;
    const std::string roomy = delta_hex(obj, base, &bits);
    const std::size_t size = (bits + 7) / 8;
    std::vector<std::size_t> rooms;
    for (std::size_t extra = 0; extra <= 16; ++extra) rooms.push_back(size + extra);
    for (std::size_t more : {64u, 1024u, 65536u}) rooms.push_back(size + more);
    for (const std::size_t room : rooms) {
        INFO("room " << room << " bytes, packet " << bits << " bits");
        std::vector<std::byte> buffer(room);
        netser::write_stream w(buffer.data(), buffer.size());
        const bool ok = netser::serialize_delta(w, obj, base);
        INFO("write error " << netser::to_string(w.error().code) << " at " << w.error().path());
        REQUIRE(ok);
        CHECK(netser_test::hex(w.finish()) == roomy);
        std::vector<std::byte> grown;
        netser::vector_write_stream g(grown, room);
        REQUIRE(netser::serialize_delta(g, obj, base));
        CHECK(netser_test::hex(g.finish()) == roomy);
    }
    // One byte short fails with overflow, never with another error.
    if (size > 0) {
        std::vector<std::byte> buffer(size - 1);
        netser::write_stream w(buffer.data(), buffer.size());
        CHECK_FALSE(netser::serialize_delta(w, obj, base));
        CHECK(w.error().code == netser::errc::overflow);
    }
    return roomy;
}

// The error of a write that cannot succeed is the same in every room that holds the
// bits before it.
template <class T>
void same_error_in_every_room(const T& obj, const T& base, netser::errc code, const std::string& path) {
    std::vector<std::byte> big(1 << 16);
    netser::write_stream roomy(big.data(), big.size());
    REQUIRE_FALSE(netser::serialize_delta(roomy, obj, base));
    REQUIRE(roomy.error().code == code);
    REQUIRE(roomy.error().path() == path);
    for (std::size_t room = roomy.error().bit / 8 + 1; room < roomy.error().bit / 8 + 64; ++room) {
        INFO("room " << room);
        std::vector<std::byte> buffer(room);
        netser::write_stream w(buffer.data(), buffer.size());
        REQUIRE_FALSE(netser::serialize_delta(w, obj, base));
        CHECK(w.error().code == code);
        CHECK(w.error().bit == roomy.error().bit);
        CHECK(w.error().path() == path);
    }
}

Spin spin(float x, Quat q) { return Spin{true, x, q}; }

} // namespace

TEST_CASE("a delta writes the same bits in every room: members taken back or tested first", "[delta][paths]") {
    netser_fuzz::for_each_type([]<class T>(std::type_identity<T>, std::size_t index) {
        for (std::uint64_t i = 0; i < 6; ++i) {
            const T base = received(netser_fuzz::make_value<T>(index * 100 + 2 * i, netser_fuzz::size_mode::small));
            const T other = netser_fuzz::make_value<T>(index * 100 + 2 * i + 1, netser_fuzz::size_mode::small);
            netser_fuzz::rng r{index * 31 + i};
            for (std::uint64_t odds : {1u, 3u, 20u}) {
                T obj{};
                netser::detail::copy_value(obj, base);
                blend(obj, other, r, odds);
                INFO("type " << index << " value " << i << " odds 1/" << odds);
                same_bits_in_every_room(obj, base);
            }
        }
    });
}

TEST_CASE("a struct whose members all encode as the baseline's is one bit, taken back or not", "[delta][paths]") {
    const Quat q = received(Spin{true, 0.f, {0.6f, 0.f, 0.f, 0.8f}}).q;
    const Spin base = received(spin(1.f, q));
    // Below a quantum: x by a third of 0.01, the rotation by 1e-7 in a component.
    Spin jitter = base;
    jitter.x += 0.003f;
    jitter.q.y = 1e-7f;
    REQUIRE(std::memcmp(&jitter.x, &base.x, sizeof(float)) != 0);
    Spins many{{base, base, base}};
    Spins jittered{{jitter, base, jitter}};
    std::size_t bits = 0;
    CHECK(same_bits_in_every_room(jitter, base) == delta_hex(base, base, &bits));
    CHECK(bits == 1);
    same_bits_in_every_room(jittered, many);
    delta_hex(jittered, many, &bits);
    CHECK(bits == 1);
    // -0 against +0 in a quantized float is no change either.
    Spin negative_zero = received(spin(0.f, q));
    Spin zero = negative_zero;
    negative_zero.x = -0.f;
    delta_hex(negative_zero, zero, &bits);
    CHECK(bits == 1);
}

TEST_CASE("a struct whose only change is in a member with its own delta sends it", "[delta][paths]") {
    const Spin base = received(spin(1.f, {0.f, 0.f, 0.f, 1.f}));
    Spin turned = base;
    turned.q = received(Spin{true, 0.f, {0.f, 0.0872f, 0.f, 0.9962f}}).q; // 10 degrees about y
    std::size_t bits = 0;
    const std::string packet = same_bits_in_every_room(turned, base);
    delta_hex(turned, base, &bits);
    // The struct's changed bit, on and x unchanged (1 each), the rotation's own delta.
    CHECK(bits > 4);
    Spin out{};
    REQUIRE_FALSE(read_delta(packet, out, base));
    CHECK(plain_hex(out) == plain_hex(turned));
}

TEST_CASE("a failed delta write reports the same error, bit and path in every room", "[delta][paths]") {
    Outer base{};
    Outer obj{};
    obj.a.x = 2.f;
    obj.b.level = 16; // above range(0, 15)
    same_error_in_every_room(obj, base, netser::errc::out_of_range, "Outer.b.level");
    obj.b.level = 3;
    obj.b.weapon = static_cast<Weapon>(9); // no enumerator
    same_error_in_every_room(obj, base, netser::errc::invalid_value, "Outer.b.weapon");
    Spin bad = received(spin(1.f, {0.f, 0.f, 0.f, 1.f}));
    const Spin spin_base = bad;
    bad.q.x = std::numeric_limits<float>::quiet_NaN();
    same_error_in_every_room(bad, spin_base, netser::errc::invalid_value, "Spin.q");
}

// Changes of +1 (2 bits each: the first rung's flag and sign) at `at`: the bits of the
// array's delta worked out from the wire, relative indices or a bit per element.
std::size_t wide_bits(const std::vector<std::size_t>& at, std::size_t n) {
    std::size_t listed = 0;
    int previous = -1;
    for (const std::size_t i : at) {
        listed += static_cast<std::size_t>(netser::relative_index_bits(static_cast<int>(i) - previous, static_cast<int>(n)));
        previous = static_cast<int>(i);
    }
    listed += static_cast<std::size_t>(netser::relative_index_bits(static_cast<int>(n) - previous, static_cast<int>(n)));
    const std::size_t names = listed < n ? listed : n;
    return 1 + 1 + 1 + names + 2 * at.size(); // the struct's, the member's, how they are named
}

TEST_CASE("an array longer than a writer remembers names its changes as the wire says", "[delta][paths]") {
    auto wide = std::make_unique<Wide>();
    for (std::size_t i = 0; i < wide->v.size(); ++i) wide->v[i] = static_cast<std::uint16_t>(i % 1000);
    const std::vector<std::vector<std::size_t>> patterns = {
        {0},
        {4095},
        {4096},
        {4999},
        {0, 4095, 4096, 4097, 4999},
        {63, 64, 127, 128, 4031, 4032, 4094, 4095, 4096, 4159, 4160},
        [] { // dense past the remembered ones: a bit per element
            std::vector<std::size_t> v;
            for (std::size_t i = 3000; i < 5000; i += 2) v.push_back(i);
            return v;
        }(),
        [] { // every second one: the choice is made before the remembered ones end
            std::vector<std::size_t> v;
            for (std::size_t i = 0; i < 5000; i += 2) v.push_back(i);
            return v;
        }(),
        [] { // dense before, sparse after
            std::vector<std::size_t> v;
            for (std::size_t i = 0; i < 4096; i += 3) v.push_back(i);
            v.push_back(4500);
            return v;
        }(),
    };
    for (const auto& at : patterns) {
        INFO("first change " << at.front() << ", " << at.size() << " changes");
        auto obj = std::make_unique<Wide>(*wide);
        for (const std::size_t i : at) obj->v[i] = static_cast<std::uint16_t>(obj->v[i] + 1);
        std::size_t bits = 0;
        const std::string packet = same_bits_in_every_room(*obj, *wide);
        delta_hex(*obj, *wide, &bits);
        CHECK(bits == wide_bits(at, wide->v.size()));
        auto out = std::make_unique<Wide>();
        REQUIRE_FALSE(read_delta(packet, *out, *wide));
        CHECK(out->v == obj->v);

        WideList list{{wide->v.begin(), wide->v.end()}};
        WideList changed{{obj->v.begin(), obj->v.end()}};
        const std::string list_packet = same_bits_in_every_room(changed, list);
        delta_hex(changed, list, &bits);
        CHECK(bits == wide_bits(at, wide->v.size()) + 1); // and the count kept
        WideList list_out;
        REQUIRE_FALSE(read_delta(list_packet, list_out, list));
        CHECK(list_out.v == changed.v);
    }
}
