// smallest_three's own delta: a rotation whose largest component keeps its index sends
// only the codes that changed, as differences through its ladder; another largest
// component sends the whole rotation. Round trips, costs, bounds and hostile reads.

#include <netser/netser.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace qd {

struct Rot {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};
NETSER_STRUCT(Rot, x, y, z, w)

inline constexpr netser::smallest_three codec{9, netser::delta_ladder(2, 4, 8, 32).ladder};

struct Body {
    Rot rotation;
};
NETSER_STRUCT(Body, (rotation, codec))

// The default ladder, for a rotation coming to rest.
struct Resting {
    Rot rotation;
};
NETSER_STRUCT(Resting, (rotation, netser::smallest_three{9}))

} // namespace qd

namespace {

qd::Rot normalized(float x, float y, float z, float w) {
    const float n = std::sqrt(x * x + y * y + z * z + w * w);
    return {x / n, y / n, z / n, w / n};
}

qd::Body received(const qd::Body& b) {
    qd::Body out;
    REQUIRE_FALSE(netser::as_received(b, out));
    return out;
}

std::vector<std::byte> plain(const qd::Body& b) {
    std::vector<std::byte> bytes(netser::max_bytes<qd::Body>());
    netser::write_stream w(bytes);
    REQUIRE(netser::serialize(w, const_cast<qd::Body&>(b)));
    const auto out = w.finish();
    return {out.begin(), out.end()};
}

// Writes now against base, reads it back; returns the bits.
std::size_t round_trip(const qd::Body& now, const qd::Body& base) {
    std::vector<std::byte> buffer(netser::max_delta_bytes<qd::Body>());
    netser::write_stream w(buffer);
    REQUIRE(netser::serialize_delta(w, now, base));
    const std::size_t bits = w.bits_processed();
    netser::measure_stream m;
    REQUIRE(netser::serialize_delta(m, now, base));
    CHECK(m.bits_processed() == bits);
    CHECK(bits <= netser::max_delta_bits<qd::Body>());
    const auto bytes = w.finish();
    netser::read_stream r(bytes);
    qd::Body out;
    REQUIRE(netser::serialize_delta(r, out, base));
    CHECK(plain(out) == plain(received(now))); // what a plain read of now gives
    return bits;
}

} // namespace

TEST_CASE("smallest_three delta: unchanged 1 bit, a small turn a few bits, another largest fewer than the whole", "[delta][quaternion]") {
    const qd::Body base = received({normalized(0.1f, 0.2f, 0.3f, 0.9f)});
    // The struct's changed bit, the member's changed bit.
    CHECK(round_trip(base, base) == 1);
    // One code a step away: struct 1 + member 1 + same largest 1 + three flags + a
    // difference in the first rung [1, 2] (its flag, a sign and a bit).
    qd::Body one = base;
    const float step = qd::codec.params().delta / static_cast<float>(qd::codec.params().max_int);
    one.rotation.x += step;
    one = received(one);
    const std::size_t small = round_trip(one, base);
    CHECK(small > 3);
    CHECK(small < 12);
    // The largest component changes (x and w trade places): 1 + 1 + 1, the 2-bit step,
    // then y and z unchanged against the baseline re-expressed with x (1 bit each) and w's
    // difference: fewer bits than the 3 + 29 of sending the rotation whole.
    const qd::Body other = received({normalized(0.9f, 0.2f, 0.3f, 0.1f)});
    const std::size_t switched = round_trip(other, base);
    CHECK(switched > 3 + 2 + 3);
    CHECK(switched < 3 + qd::codec.max_bits());
    // A switch to a nearby rotation costs about what a same-largest turn does.
    const qd::Body tie = received({normalized(0.6f, 0.2f, 0.3f, 0.61f)});
    qd::Body past = tie;
    past.rotation = normalized(0.61f, 0.2f, 0.3f, 0.6f);
    past = received(past);
    CHECK(round_trip(past, tie) < 20);
}

TEST_CASE("smallest_three delta: random rotations and small turns round trip", "[delta][quaternion]") {
    std::mt19937 rng(14);
    std::normal_distribution<float> n(0.f, 1.f);
    std::normal_distribution<float> turn(0.f, 0.01f);
    std::size_t small_total = 0, count = 0;
    for (int i = 0; i < 2000; ++i) {
        const qd::Body base = received({normalized(n(rng), n(rng), n(rng), n(rng))});
        qd::Body now = base;
        now.rotation = normalized(base.rotation.x + turn(rng), base.rotation.y + turn(rng),
                                  base.rotation.z + turn(rng), base.rotation.w + turn(rng));
        small_total += round_trip(now, base);
        ++count;
        round_trip({normalized(n(rng), n(rng), n(rng), n(rng))}, base);
    }
    // Small turns cost well under the plain 29 bits on average.
    CHECK(static_cast<double>(small_total) / static_cast<double>(count) < 20.0);
}

TEST_CASE("smallest_three delta: hostile reads fail cleanly", "[delta][quaternion][hostile]") {
    const qd::Body base = received({normalized(0.f, 0.f, 0.f, 1.f)});
    // A difference that leaves the codes' range: same largest, x changed, by the last
    // rung's largest step upwards from a code near the top.
    const qd::Body high = received({normalized(0.7f, 0.f, 0.f, 0.71f)});
    std::vector<std::byte> buffer(netser::max_delta_bytes<qd::Body>());
    {
        netser::write_stream w(buffer);
        bool t = true;
        REQUIRE(netser::serialize_bool(w, t)); // struct changed
        REQUIRE(netser::serialize_bool(w, t)); // member changed
        REQUIRE(netser::serialize_bool(w, t)); // same largest
        REQUIRE(netser::serialize_bool(w, t)); // x changed
        // Codes of [0, 510], ladder 2, 4, 8, 32: rungs [1,2] [3,4] [5,8] [9,32]. The last
        // rung (flags 0 0 0 1), sign 0 (upwards), 32 - 9 = 23 in 5 bits: x's code, near
        // the top, moves 32 steps up, past 510.
        for (bool f : {false, false, false, true, false}) REQUIRE(netser::serialize_bool(w, f));
        std::uint64_t offset = 23;
        REQUIRE(netser::serialize_bits(w, offset, 5));
        for (bool f : {false, false}) REQUIRE(netser::serialize_bool(w, f)); // y, z unchanged
        w.finish();
    }
    netser::read_stream r(buffer);
    qd::Body out;
    CHECK_FALSE(netser::serialize_delta(r, out, high));
    CHECK(r.error().code == netser::errc::out_of_range);
    CHECK(r.error().bit == 1); // the rotation's first bit, after the struct's changed bit
    CHECK(r.error().path() == "Body.rotation");

    // Every truncation of a real delta fails with overflow, never reads past the end.
    const qd::Body now = received({normalized(0.05f, -0.02f, 0.01f, 1.f)});
    netser::write_stream w(buffer);
    REQUIRE(netser::serialize_delta(w, now, base));
    const std::size_t bits = w.bits_processed();
    const auto bytes = w.finish();
    for (std::size_t n = 0; n + 8 <= bits; n += 1) {
        std::vector<std::byte> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n / 8));
        netser::read_stream rc(cut);
        qd::Body o;
        CHECK_FALSE(netser::serialize_delta(rc, o, base));
        CHECK(rc.error().code == netser::errc::overflow);
    }
    // Every single-bit flip reads a valid rotation or fails cleanly.
    for (std::size_t bit = 0; bit < bits; ++bit) {
        std::vector<std::byte> flipped(bytes.begin(), bytes.end());
        flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        netser::read_stream rf(flipped);
        qd::Body o;
        if (netser::serialize_delta(rf, o, base)) {
            const qd::Rot& q = o.rotation;
            CHECK(std::fabs(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1.f) < 1e-3f);
        }
    }
}

TEST_CASE("smallest_three delta: golden vectors", "[delta][quaternion][golden]") {
    // Rotations made from their fields (a decoded rotation re-encodes to its fields).
    const netser::quantization q = qd::codec.params();
    const auto rotation = [&](std::uint32_t largest, std::array<std::uint32_t, 3> codes) {
        const auto c = netser::detail::smallest_three_decode({largest, codes}, q);
        return qd::Body{{c[0], c[1], c[2], c[3]}};
    };
    const qd::Body base = rotation(3, {200, 300, 400}), now = rotation(3, {201, 300, 380});
    const auto delta_hex = [](const qd::Body& obj, const qd::Body& b) {
        std::vector<std::byte> buffer(netser::max_delta_bytes<qd::Body>());
        netser::write_stream w(buffer);
        REQUIRE(netser::serialize_delta(w, obj, b));
        std::string out;
        char byte[4];
        for (std::byte x : w.finish()) {
            std::snprintf(byte, sizeof byte, out.empty() ? "%02X" : " %02X", std::to_integer<unsigned>(x));
            out += byte;
        }
        return out;
    };
    CHECK(delta_hex(now, base) == "1F F1 02");
    // tools/golden.py delta_smallest_three_switch: the baseline re-expressed with w.
    CHECK(delta_hex(now, rotation(2, {201, 300, 380})) == "83 C0 17");
    round_trip(now, base);
}

// The rest state is exact under a delta too: the identity's codes are the middle codes,
// which read as exactly 0, and the rebuilt w as exactly 1.
TEST_CASE("smallest_three delta: a rotation coming to rest reads as exactly the identity", "[delta][quaternion][golden]") {
    const netser::quantization q = netser::smallest_three{9}.params();
    REQUIRE(q.max_int == 510);
    const auto c = netser::detail::smallest_three_decode({3, {256, 255, 250}}, q);
    const qd::Resting base{{c[0], c[1], c[2], c[3]}}, rest{{0.f, 0.f, 0.f, 1.f}};
    std::vector<std::byte> buffer(netser::max_delta_bytes<qd::Resting>());
    netser::write_stream w(buffer);
    REQUIRE(netser::serialize_delta(w, rest, base));
    CHECK(w.bits_processed() == 15);
    const auto bytes = w.finish();
    // tools/golden.py delta_smallest_three_to_rest: 1, 1, same largest 1; x changed, rung
    // [1, 1], sign 1 (down); y unchanged; z changed, rung [2, 16], sign 0, 5 - 2 in 4 bits.
    std::string hex;
    char byte[4];
    for (std::byte x : bytes) {
        std::snprintf(byte, sizeof byte, hex.empty() ? "%02X" : " %02X", std::to_integer<unsigned>(x));
        hex += byte;
    }
    CHECK(hex == "BF 1A");
    netser::read_stream r(bytes);
    qd::Resting out;
    REQUIRE(netser::serialize_delta(r, out, base));
    CHECK(out.rotation.x == 0.f);
    CHECK(out.rotation.y == 0.f);
    CHECK(out.rotation.z == 0.f);
    CHECK(out.rotation.w == 1.f);
}
