#pragma once

// Shared by the game-state encoding tests: quaternion and vector types, one-line
// runners for netser::serialize on the three streams (with an optional context for
// linking), and the geometry used to measure errors. Golden vectors in the tests are
// derived by hand from the wire layouts in docs/game_encodings.md; hostile packets are
// forged field by field with the naive reference_writer of the core tests.

#include "core/test_util.hpp"

#include <netser/netser.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <ostream>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace game_test {

using netser_test::exact_block;
using netser_test::hex;
using netser_test::reference_writer;
using netser_test::unhex;

// --- geometry -----------------------------------------------------------------

struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
    bool operator==(const Quat&) const = default;
};

struct Vec3 {
    float x = 0, y = 0, z = 0;
    bool operator==(const Vec3&) const = default;
};

inline std::array<double, 4> as_array(const Quat& q) { return {q.x, q.y, q.z, q.w}; }
inline std::array<double, 4> as_array(const std::array<float, 4>& q) { return {q[0], q[1], q[2], q[3]}; }

/// A uniformly distributed unit quaternion (Shoemake), from a seeded generator.
inline Quat random_quat(std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const double u1 = u(rng), u2 = u(rng), u3 = u(rng);
    const double two_pi = 2 * std::numbers::pi;
    const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
    return {static_cast<float>(a * std::sin(two_pi * u2)), static_cast<float>(a * std::cos(two_pi * u2)),
            static_cast<float>(b * std::sin(two_pi * u3)), static_cast<float>(b * std::cos(two_pi * u3))};
}

/// A uniformly distributed unit vector (normalised Gaussian).
inline Vec3 random_direction(std::mt19937_64& rng) {
    std::normal_distribution<double> n(0.0, 1.0);
    for (;;) {
        const double x = n(rng), y = n(rng), z = n(rng);
        const double l = std::sqrt(x * x + y * y + z * z);
        if (l > 1e-6) return {static_cast<float>(x / l), static_cast<float>(y / l), static_cast<float>(z / l)};
    }
}

/// The rotation angle (radians) between two unit quaternions: 2 acos |q . r|.
template <class A, class B>
double rotation_angle(const A& q, const B& r) {
    const auto a = as_array(q);
    const auto b = as_array(r);
    double dot = 0;
    for (std::size_t i = 0; i < 4; ++i) dot += a[i] * b[i];
    return 2 * std::acos(std::min(1.0, std::fabs(dot)));
}

/// The largest |component difference| between q and r, or q and -r (the same rotation).
template <class A, class B>
double component_error(const A& q, const B& r) {
    const auto a = as_array(q);
    const auto b = as_array(r);
    double same = 0, flipped = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        same = std::max(same, std::fabs(a[i] - b[i]));
        flipped = std::max(flipped, std::fabs(a[i] + b[i]));
    }
    return std::min(same, flipped);
}

template <class A>
double norm(const A& q) {
    double sum = 0;
    for (double c : as_array(q)) sum += c * c;
    return std::sqrt(sum);
}

/// The angle (radians) between two vectors.
inline double vector_angle(const Vec3& a, const Vec3& b) {
    const double dot = double{a.x} * b.x + double{a.y} * b.y + double{a.z} * b.z;
    const double la = std::sqrt(double{a.x} * a.x + double{a.y} * a.y + double{a.z} * a.z);
    const double lb = std::sqrt(double{b.x} * b.x + double{b.y} * b.y + double{b.z} * b.z);
    return std::acos(std::clamp(dot / (la * lb), -1.0, 1.0));
}

inline double length(const Vec3& v) { return std::sqrt(double{v.x} * v.x + double{v.y} * v.y + double{v.z} * v.z); }

constexpr double degrees(double radians) { return radians * 180.0 / std::numbers::pi; }

// --- runners ------------------------------------------------------------------

/// What a successful write produced.
struct written {
    std::string hex;  ///< "8D 06"
    std::size_t bits; ///< bits_processed() of the write
};

/// Writes `value` (must succeed), checks that measuring counts the same bits and that
/// finish() gives ceil(bits / 8) bytes.
template <class T>
written write(const T& value, void* context = nullptr, std::size_t capacity = 4096) {
    std::vector<std::byte> buffer(capacity, std::byte{0xA5});
    netser::write_stream w(buffer.data(), buffer.size());
    w.set_context(context);
    const bool ok = netser::serialize(w, value);
    INFO("write error: " << netser::to_string(w.error().code) << " at bit " << w.error().bit << " in "
                         << w.error().path());
    REQUIRE(ok);
    netser::measure_stream m;
    m.set_context(context);
    REQUIRE(netser::serialize(m, value));
    CHECK(m.bits_processed() == w.bits_processed());
    const auto bytes = w.finish();
    CHECK(bytes.size() == (w.bits_processed() + 7) / 8);
    return {hex(bytes), w.bits_processed()};
}

/// The bits a write of `value` takes (measure_stream).
template <class T>
std::size_t measured_bits(const T& value, void* context = nullptr) {
    netser::measure_stream m;
    m.set_context(context);
    REQUIRE(netser::serialize(m, value));
    return m.bits_processed();
}

/// Writes `value` expecting a failure; measuring must fail the same way.
template <class T>
netser::error write_error(const T& value, void* context = nullptr, std::size_t capacity = 4096) {
    std::vector<std::byte> buffer(capacity);
    netser::write_stream w(buffer.data(), buffer.size());
    w.set_context(context);
    CHECK_FALSE(netser::serialize(w, value));
    netser::measure_stream m;
    m.set_context(context);
    CHECK_FALSE(netser::serialize(m, value));
    CHECK(m.error().code == w.error().code);
    CHECK(m.error().bit == w.error().bit);
    CHECK(m.error().path() == w.error().path());
    return w.error();
}

/// Reads `out` from an exactly sized copy of `bytes` (AddressSanitizer sees any access
/// outside it). Returns the error (code none on success); `bits` gets the bits read.
template <class T>
netser::error read_bytes(std::span<const std::byte> bytes, T& out, std::size_t* bits = nullptr,
                         void* context = nullptr) {
    const exact_block block(bytes);
    netser::read_stream r(block.data(), block.size());
    r.set_context(context);
    const bool ok = netser::serialize(r, out);
    CHECK(ok == !r.error());
    CHECK(r.bits_processed() <= block.size() * 8);
    if (bits) *bits = r.bits_processed();
    return r.error();
}

template <class T>
netser::error read_hex(std::string_view text, T& out, std::size_t* bits = nullptr, void* context = nullptr) {
    const auto bytes = unhex(text);
    return read_bytes(bytes, out, bits, context);
}

template <class T>
netser::error read_forged(const reference_writer& forged, T& out, std::size_t* bits = nullptr,
                          void* context = nullptr) {
    const auto bytes = forged.bytes();
    return read_bytes(bytes, out, bits, context);
}

using netser_test::fail;
using netser_test::failure;
using netser_test::failure_of;

/// Writes with a codec object directly (codec.serialize(stream, value)); returns the bytes.
template <class Codec, class T>
std::vector<std::byte> codec_write(const Codec& codec, T value) {
    std::vector<std::byte> buffer(64);
    netser::write_stream w(buffer.data(), buffer.size());
    REQUIRE(codec.serialize(w, value));
    const auto bytes = w.finish();
    return {bytes.begin(), bytes.end()};
}

/// Reads with a codec object directly; the read must succeed and consume `bits`.
template <class Codec, class T>
T codec_read(const Codec& codec, std::span<const std::byte> bytes) {
    netser::read_stream r(bytes.data(), bytes.size());
    T out{};
    REQUIRE(codec.serialize(r, out));
    return out;
}

} // namespace game_test
