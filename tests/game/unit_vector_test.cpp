// unit_vector.hpp: unit_vector(bits), the octahedral encoding of directions. Golden
// vectors are derived by hand from the layout in docs/game_encodings.md and by the
// independent model tools/golden.py (`--game`: uv8_north, ...); the error bound asserted
// here is the one that document gives (figures: netser_game_tests "[errors]").

#include "game/game_types.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

using netser::errc;
using namespace game_test;

namespace unit_vector_test {

struct Normal8 {
    Vec3 n;
};
NETSER_STRUCT(Normal8, (n, netser::unit_vector{8}))

struct Normal12 {
    Vec3 n;
};
NETSER_STRUCT(Normal12, (n, netser::unit_vector{12}))

struct Normal16 {
    Vec3 n;
};
NETSER_STRUCT(Normal16, (n, netser::unit_vector{16}))

struct NormalArray {
    std::array<float, 3> n{0, 0, 1};
};
NETSER_STRUCT(NormalArray, (n, netser::unit_vector{12}))

// A direction between other members: its failures are reported at bit 8, "Surface.n".
struct Surface {
    std::uint8_t id = 0;
    Vec3 n;
    bool last = false;
};
NETSER_STRUCT(Surface, id, (n, netser::unit_vector{12}), last)

// Half a step of u, v in [-1, 1] with max_int = 2^bits - 2.
double half_step(int bits) { return 1.0 / static_cast<double>((std::uint64_t{1} << bits) - 2u); }

// The documented bound: u and v off by at most e each move the point on the octahedron by
// up to |(e, e, -2e)| = sqrt(6) e, and normalising divides by its length, at least
// 1/sqrt(3) (a face centre): the angle is at most sqrt(18) e. 1% for rounding.
double angle_bound(int bits) { return std::sqrt(18.0) * half_step(bits) * 1.01; }

struct error_figures {
    double angle = 0;  // largest angle between v and v', radians
    double length = 0; // largest | |v'| - 1 |
    int failures = 0;
};

error_figures measure(int bits, int samples) {
    const netser::unit_vector codec{bits};
    std::mt19937_64 rng(20240607);
    std::vector<Vec3> inputs{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
    const float t = 0.57735027f;
    for (const float sx : {-t, t})
        for (const float sy : {-t, t})
            for (const float sz : {-t, t}) inputs.push_back({sx, sy, sz}); // face centres
    for (int i = 0; i < samples; ++i) inputs.push_back(random_direction(rng));
    error_figures f;
    std::array<std::byte, 16> buffer{};
    for (const Vec3& v : inputs) {
        netser::write_stream w(buffer);
        Vec3 in = v;
        if (!codec.serialize(w, in)) {
            ++f.failures;
            continue;
        }
        const auto bytes = w.finish();
        netser::read_stream r(bytes.data(), bytes.size());
        Vec3 out;
        if (!codec.serialize(r, out) || r.bits_processed() != static_cast<std::size_t>(2 * bits)) {
            ++f.failures;
            continue;
        }
        f.angle = std::max(f.angle, vector_angle(v, out));
        f.length = std::max(f.length, std::fabs(length(out) - 1.0));
    }
    return f;
}

constexpr int samples = 100000;

} // namespace unit_vector_test

using namespace unit_vector_test;

// --- golden vectors -----------------------------------------------------------------

// u = x / (|x| + |y| + |z|), v = y / (...); z < 0 folds (u, v) to
// ((1 - |v|) sign u, (1 - |u|) sign v). Codes in [-1, 1], max_int = 2^b - 2:
// 0 -> the middle code 2^(b-1) - 1, 1 -> max_int, -1 -> 0. u first, then v.
//   (0, 0, 1):  u = v = 0                  -> mid, mid
//   (0, 0, -1): u = v = 0, folded to 1, 1  -> max, max
//   (1, 0, 0):  u = 1, v = 0               -> max, mid
//   (0, -1, 0): u = 0, v = -1              -> mid, 0
// 8 bits: mid 127 = 7F, max 254 = FE. 12 bits: mid 2047, max 4094. 16 bits: mid 32767, max 65534.
TEST_CASE("unit_vector sends the poles and the axes as their octahedral codes", "[game][unit_vector][golden]") {
    CHECK(write(Normal8{{0, 0, 1}}).hex == "7F 7F");
    CHECK(write(Normal8{{0, 0, -1}}).hex == "FE FE");
    CHECK(write(Normal8{{1, 0, 0}}).hex == "FE 7F");
    CHECK(write(Normal8{{0, -1, 0}}).hex == "7F 00");

    CHECK(write(Normal12{{0, 0, 1}}).hex == "FF F7 7F");  // 2047 | 2047 << 12
    CHECK(write(Normal12{{0, 0, -1}}).hex == "FE EF FF"); // 4094 | 4094 << 12
    CHECK(write(Normal12{{1, 0, 0}}).hex == "FE FF 7F");  // 4094 | 2047 << 12
    CHECK(write(Normal12{{0, -1, 0}}).hex == "FF 07 00"); // 2047 | 0 << 12

    CHECK(write(Normal16{{0, 0, 1}}).hex == "FF 7F FF 7F");
    CHECK(write(Normal16{{0, 0, -1}}).hex == "FE FF FE FF");
    CHECK(write(Normal16{{1, 0, 0}}).hex == "FE FF FF 7F");
    CHECK(write(Normal16{{0, -1, 0}}).hex == "FF 7F 00 00");

    CHECK(write(Normal12{{0, 0, 1}}).bits == 24);
    STATIC_REQUIRE(netser::max_bits<Normal8>() == 16);
    STATIC_REQUIRE(netser::max_bits<Normal16>() == 32);
    STATIC_REQUIRE(netser::max_bits<Surface>() == 8 + 24 + 1);
}

TEST_CASE("unit_vector reads the golden vectors back exactly", "[game][unit_vector][golden]") {
    // Codes max, max: u = v = 1, z = -1 < 0, unfolded to (0, 0): exactly (0, 0, -1).
    Normal8 south{{9, 9, 9}};
    REQUIRE_FALSE(read_hex("FE FE", south));
    CHECK(south.n == Vec3{0, 0, -1});

    // Codes 127, 127 of 254: u = v = 127 / 254 * 2 - 1 = 0 exactly, z = 1.
    Normal8 north;
    REQUIRE_FALSE(read_hex("7F 7F", north));
    CHECK(north.n == Vec3{0, 0, 1});

    Normal12 axis;
    REQUIRE_FALSE(read_hex("FE FF 7F", axis));
    CHECK(axis.n == Vec3{1, 0, 0});
    REQUIRE_FALSE(read_hex("FF 07 00", axis));
    CHECK(axis.n == Vec3{0, -1, 0});

    // Off the axes, a code pair reads as its normalised octahedral point: 191, 127 at 8
    // bits is u = 191 / 254 * 2 - 1 = 64 / 127, v = 0, z = 1 - u.
    REQUIRE_FALSE(read_hex("BF 7F", north));
    const double u = 64.0 / 127, z = 1 - u, l = std::sqrt(u * u + z * z);
    CHECK(north.n.x == Approx(u / l).margin(1e-6));
    CHECK(north.n.y == 0.f);
    CHECK(north.n.z == Approx(z / l).margin(1e-6));
}

// Objects at rest: the six axis directions read back bit for bit at every bit count.
TEST_CASE("unit_vector reads the axis directions back exactly at every bit count", "[game][unit_vector]") {
    const Vec3 axes[] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int bits = 2; bits <= 32; ++bits) {
        const netser::unit_vector codec{bits};
        for (const Vec3& v : axes) {
            INFO(bits << " bits: (" << v.x << ", " << v.y << ", " << v.z << ")");
            CHECK(codec_read<netser::unit_vector, Vec3>(codec, codec_write(codec, v)) == v);
        }
    }
}

TEST_CASE("unit_vector on a std::array<float, 3> sends the same bits as on a struct", "[game][unit_vector][golden]") {
    CHECK(write(NormalArray{{0, 0, -1}}).hex == "FE EF FF");
    std::mt19937_64 rng(17);
    for (int i = 0; i < 200; ++i) {
        const Vec3 v = random_direction(rng);
        CHECK(write(NormalArray{{v.x, v.y, v.z}}).hex == write(Normal12{v}).hex);
    }
}

TEST_CASE("unit_vector sends a vector that is not unit as its direction", "[game][unit_vector]") {
    CHECK(write(Normal12{{0, 0, 5}}).hex == write(Normal12{{0, 0, 1}}).hex);
    CHECK(write(Normal12{{3, -3, 3}}).hex == write(Normal12{{0.5f, -0.5f, 0.5f}}).hex);
    // Finite but so large that |x| + |y| + |z| overflows: still a direction.
    const float big = std::numeric_limits<float>::max();
    const Normal12 huge{{big, big, -big}};
    CHECK(write(huge).hex == write(Normal12{{1, 1, -1}}).hex);
    // Subnormal components are a direction too.
    const float tiny = std::numeric_limits<float>::denorm_min();
    CHECK(write(Normal12{{0, tiny, 0}}).hex == write(Normal12{{0, 1, 0}}).hex);
}

// --- round trips and error ----------------------------------------------------------------

TEST_CASE("unit_vector round trips random directions within the documented error", "[game][unit_vector][random][long]") {
    for (const int bits : {8, 10, 12, 16}) {
        const error_figures f = measure(bits, samples);
        INFO(bits << " bits: angle " << f.angle << " rad = " << degrees(f.angle) << " deg ("
                  << f.angle / half_step(bits) << " e)");
        CHECK(f.failures == 0);
        CHECK(f.angle <= angle_bound(bits));
        CHECK(f.length <= 1e-6);
    }
}

TEST_CASE("unit_vector error halves with each extra bit", "[game][unit_vector][random]") {
    const double a8 = measure(8, 20000).angle;
    const double a10 = measure(10, 20000).angle;
    CHECK(a10 < a8 * 0.3);
}

TEST_CASE("a unit_vector member inside a struct round trips with its neighbours", "[game][unit_vector][random]") {
    std::mt19937_64 rng(19);
    for (int i = 0; i < 500; ++i) {
        const Surface in{static_cast<std::uint8_t>(i), random_direction(rng), i % 3 == 0};
        const auto w = write(in);
        CHECK(w.bits == 33);
        Surface out;
        REQUIRE_FALSE(read_bytes(unhex(w.hex), out));
        CHECK(out.id == in.id);
        CHECK(out.last == in.last);
        CHECK(vector_angle(in.n, out.n) <= angle_bound(12));
    }
}

// --- hostile --------------------------------------------------------------------------------

TEST_CASE("unit_vector fails the write of a zero or non-finite vector with invalid_value", "[game][unit_vector][hostile]") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const Vec3 bad[] = {{0, 0, 0}, {-0.f, 0, -0.f}, {nan, 0, 1}, {0, nan, 0}, {1, 0, nan}, {inf, 0, 0}, {0, -inf, 1}, {1, 1, inf}};
    for (const Vec3& v : bad) {
        INFO("(" << v.x << ", " << v.y << ", " << v.z << ")");
        CHECK(failure_of(write_error(Surface{1, v, true})) == fail(errc::invalid_value, 8, "Surface.n"));
        CHECK(failure_of(write_error(NormalArray{{v.x, v.y, v.z}})) == fail(errc::invalid_value, 0, "NormalArray.n"));
    }
}

TEST_CASE("unit_vector with a bit count outside [2, 32] fails with invalid_value", "[game][unit_vector][hostile]") {
    for (const int bits : {1, 0, -3, 33}) {
        std::array<std::byte, 16> buffer{};
        netser::write_stream w(buffer);
        Vec3 v{0, 0, 1};
        CHECK_FALSE(netser::unit_vector{bits}.serialize(w, v));
        CHECK(w.error().code == errc::invalid_value);
    }
}

// Every (u, v) code pair up to max_int = 254 unfolds to a point of L1 length 1, never 0,
// and reads as a finite unit vector; a pair with a code of 255 (above max_int) fails the
// read with out_of_range at the vector's first bit.
TEST_CASE("unit_vector reads every 16-bit code pair as a finite unit vector or out_of_range", "[game][unit_vector][hostile]") {
    const netser::unit_vector codec{8};
    int bad = 0, refused = 0;
    for (std::uint32_t code = 0; code < 65536; ++code) {
        const std::array<std::byte, 2> bytes{static_cast<std::byte>(code & 0xFF), static_cast<std::byte>(code >> 8)};
        netser::read_stream r(bytes);
        Vec3 out{7, 7, 7};
        const bool ok = codec.serialize(r, out);
        if ((code & 0xFF) == 255 || code >> 8 == 255) {
            if (ok || r.error().code != errc::out_of_range || r.error().bit != 0) ++bad;
            ++refused;
            continue;
        }
        if (!ok || !std::isfinite(out.x) || !std::isfinite(out.y) || !std::isfinite(out.z) ||
            std::fabs(length(out) - 1.0) > 1e-6)
            ++bad;
    }
    CHECK(bad == 0);
    CHECK(refused == 2 * 256 - 1);
}

TEST_CASE("unit_vector fails the read of code 2^bits - 1 with out_of_range at the vector's first bit",
          "[game][unit_vector][hostile]") {
    Surface out;
    // id 7, then u = 4095 (all ones in 12 bits), v = 2047, last 1.
    reference_writer u_bad;
    u_bad.put(7, 8);
    u_bad.put(4095, 12);
    u_bad.put(2047, 12);
    u_bad.put(1, 1);
    CHECK(failure_of(read_forged(u_bad, out)) == fail(errc::out_of_range, 8, "Surface.n"));
    reference_writer v_bad;
    v_bad.put(7, 8);
    v_bad.put(2047, 12);
    v_bad.put(4095, 12);
    v_bad.put(1, 1);
    CHECK(failure_of(read_forged(v_bad, out)) == fail(errc::out_of_range, 8, "Surface.n"));
    // max_int itself reads: (1, 0, 0).
    reference_writer top;
    top.put(7, 8);
    top.put(4094, 12);
    top.put(2047, 12);
    top.put(1, 1);
    REQUIRE_FALSE(read_forged(top, out));
    CHECK(out.n == Vec3{1, 0, 0});
}

TEST_CASE("a truncated unit_vector fails with overflow at the vector's first bit", "[game][unit_vector][hostile]") {
    const auto full = unhex(write(Surface{42, {0.6f, 0, -0.8f}, true}).hex); // 33 bits, 5 bytes
    REQUIRE(full.size() == 5);
    for (std::size_t n = 0; n < 4; ++n) {
        Surface out;
        INFO("packet cut to " << n << " bytes");
        const auto e = read_bytes(std::span(full).first(n), out);
        if (n == 0) CHECK(failure_of(e) == fail(errc::overflow, 0, "Surface.id"));
        else CHECK(failure_of(e) == fail(errc::overflow, 8, "Surface.n"));
    }
    Surface out;
    CHECK(failure_of(read_bytes(std::span(full).first(4), out)) == fail(errc::overflow, 32, "Surface.last"));
}

// --- the figures of docs/game_encodings.md -----------------------------------------------------

TEST_CASE("unit vector error figures", "[.][errors]") {
    std::printf("encoding          wire  worst angle                       bound\n");
    for (const int bits : {8, 10, 12, 16}) {
        const auto f = measure(bits, samples);
        std::printf("unit_vector{%2d}    %2d    %.7f rad = %.5f deg (%.2f e)   %.7f rad\n", bits, 2 * bits, f.angle,
                    degrees(f.angle), f.angle / half_step(bits), angle_bound(bits));
    }
}
