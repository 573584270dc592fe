// The book's affine transform ("Multiplayer Game Programming", chapter 4, geometry
// compression): translation, rotation and scale, where the scale is nearly always
// (1, 1, 1) and otherwise nearly always uniform.
//
// netser has no attribute for "usually one, else usually uniform", so this sample writes
// one. That is how netser is extended:
//
//   * A user attribute is any literal type with
//       template <netser::stream S> bool serialize(S& s, T& value) const;
//       constexpr std::size_t max_bits() const;          // for netser::max_bits<T>()
//     and optionally min_bits() and schema_tag(). Put an instance in NETSER_STRUCT next
//     to the member, like a built-in attribute: (scale, scale_codec{}). The visitor
//     then uses it as that member's codec; one function serves write, read and measure
//     (S::is_reading tells them apart), exactly like the hand-written serialize
//     functions of the reference library.
//   * A user type can instead carry its own codec everywhere it appears, through an
//     ADL function serialize(Stream&, T&) in its namespace.
//
// Inside a codec, compose the core primitives (serialize_bool, serialize_int,
// serialize_float...) with &&, and reject bad input with s.fail(code, bit): the error then
// carries the member path, here "Transform.scale".

#include <netser/netser.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string_view>

namespace transform {

struct vec3 {
    float x = 0, y = 0, z = 0;
    bool operator==(const vec3&) const = default;
};
NETSER_STRUCT(vec3, x, y, z)

struct quat {
    float x = 0, y = 0, z = 0, w = 1;
};
NETSER_STRUCT(quat, x, y, z, w)

/// The scale: 1 bit when it is (1, 1, 1); else a second bit, then one float when it is
/// uniform, or three floats. A NaN or infinite scale fails with invalid_value, both ways.
struct scale_codec {
    template <netser::stream S>
    bool serialize(S& s, vec3& v) const {
        const std::size_t at = s.bits_processed(); // errors are reported at the member's first bit
        if constexpr (!S::is_reading)
            if (!finite(v)) return s.fail(netser::errc::invalid_value, at);

        bool unscaled = v == vec3{1, 1, 1};
        if (!netser::serialize_bool(s, unscaled)) return false;
        if (unscaled) {
            if constexpr (S::is_reading) v = {1, 1, 1};
            return true;
        }
        bool uniform = v.x == v.y && v.y == v.z;
        if (!netser::serialize_bool(s, uniform)) return false;
        if (uniform) {
            float f = v.x;
            if (!netser::serialize_float(s, f)) return false;
            if constexpr (S::is_reading) v = {f, f, f};
        } else if (!netser::serialize_float(s, v.x) || !netser::serialize_float(s, v.y) ||
                   !netser::serialize_float(s, v.z)) {
            return false;
        }
        // A forged packet can carry any 32 bits: refuse what no honest writer sends.
        if constexpr (S::is_reading)
            if (!finite(v)) return s.fail(netser::errc::invalid_value, at);
        return true;
    }

    constexpr std::size_t min_bits() const { return 1; }
    constexpr std::size_t max_bits() const { return 2 + 3 * 32; }
    // Goes into netser::schema_hash, so peers with different scale encodings disagree.
    static constexpr std::string_view schema_tag() { return "transform.scale_codec"; }

private:
    static bool finite(const vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
};

struct Transform {
    vec3 translation;
    quat rotation;
    vec3 scale{1, 1, 1};
};
NETSER_STRUCT(Transform,
    (translation, netser::quantize(-1000.f, 1000.f, 0.01f)), // per component: 18 bits each
    (rotation, netser::smallest_three{10}),                   // 2 + 3 * 10 bits
    (scale, scale_codec{}))                                   // 1, 34 or 98 bits

} // namespace transform

namespace {

using transform::Transform;

// Error bounds: half a quantization step for translation; for smallest_three{10}, the
// documented worst rotation error 2 sqrt(12) e with e = (1/sqrt 2) / max_int, half a step
// (docs/game_encodings.md).
constexpr float translation_error = 0.0051f; // plus float rounding near 1000
constexpr double rotation_error = 2 * 3.4641016 * netser::smallest_three{10}.params().max_error() * 1.01;

double rotation_angle(const transform::quat& a, const transform::quat& b) {
    const double dot = double{a.x} * b.x + double{a.y} * b.y + double{a.z} * b.z + double{a.w} * b.w;
    return 2 * std::acos(std::fmin(1.0, std::fabs(dot)));
}

bool close(const Transform& a, const Transform& b) {
    return std::fabs(a.translation.x - b.translation.x) <= translation_error &&
           std::fabs(a.translation.y - b.translation.y) <= translation_error &&
           std::fabs(a.translation.z - b.translation.z) <= translation_error &&
           rotation_angle(a.rotation, b.rotation) <= rotation_error && a.scale == b.scale; // scale is lossless
}

// Writes, measures and reads back one transform; prints its cost. False on any mismatch.
bool round_trip(const char* label, const Transform& in) {
    std::array<std::byte, netser::max_bytes<Transform>()> buffer{};
    netser::write_stream w(buffer);
    if (!netser::serialize(w, in)) {
        std::printf("%s: write failed: %s in %.*s\n", label, netser::to_string(w.error().code).data(),
                    static_cast<int>(w.error().path().size()), w.error().path().data());
        return false;
    }
    const std::size_t bits = w.bits_processed();
    const auto packet = w.finish();

    netser::measure_stream m;
    const bool measured = netser::serialize(m, in) && m.bits_processed() == bits;

    netser::read_stream r(packet);
    Transform out;
    out.scale = {7, 7, 7};
    const bool read = netser::serialize(r, out) && r.bits_processed() == bits;
    const bool ok = measured && read && close(in, out);
    std::printf("%-26s %3zu bits (%2zu bytes)  read back (%.2f, %.2f, %.2f) scale (%g, %g, %g)  %s\n", label, bits,
                packet.size(), static_cast<double>(out.translation.x), static_cast<double>(out.translation.y),
                static_cast<double>(out.translation.z), static_cast<double>(out.scale.x),
                static_cast<double>(out.scale.y), static_cast<double>(out.scale.z), ok ? "ok" : "MISMATCH");
    return ok;
}

} // namespace

int main() {
    // A quarter turn about y: (0, sin 45, 0, cos 45).
    const transform::quat turn{0.f, 0.70710678f, 0.f, 0.70710678f};
    const transform::vec3 at{12.34f, -56.78f, 901.23f};

    bool ok = true;
    std::printf("Transform: translation quantize(-1000, 1000, 0.01), rotation smallest_three{10}, scale scale_codec\n");
    std::printf("(raw: 10 floats = 320 bits)\n\n");
    ok &= round_trip("unscaled (1, 1, 1)", Transform{at, turn, {1, 1, 1}});
    ok &= round_trip("uniform scale (2.5)", Transform{at, turn, {2.5f, 2.5f, 2.5f}});
    ok &= round_trip("non-uniform (1, 2, 0.5)", Transform{at, turn, {1.f, 2.f, 0.5f}});
    std::printf("\nnetser::max_bits<Transform>() = %zu (translation 54 + rotation 32 + scale 98)\n",
                netser::max_bits<Transform>());

    // The user codec rejects a forged scale: 54 + 32 bits of a valid transform, then
    // "scaled, not uniform" and a NaN for x.
    std::array<std::byte, netser::max_bytes<Transform>()> forged{};
    netser::write_stream w(forged);
    const Transform scaled{at, turn, {3.f, 2.f, 0.5f}};
    if (!netser::serialize(w, scaled)) return 1;
    const auto bytes = w.finish();
    std::array<std::byte, netser::max_bytes<Transform>()> hostile{};
    for (std::size_t i = 0; i < bytes.size(); ++i) hostile[i] = bytes[i];
    // Scale x is the 32 bits from bit 54 + 32 + 2 = 88, bytes 11..14: 3.0f is 00 00 40 40
    // (least significant byte first); 00 00 C0 7F is a quiet NaN.
    hostile[13] = std::byte{0xC0};
    hostile[14] = std::byte{0x7F};
    netser::read_stream r(std::span<const std::byte>(hostile.data(), bytes.size()));
    Transform out;
    const bool refused = !netser::serialize(r, out) && r.error().code == netser::errc::invalid_value &&
                         r.error().path() == "Transform.scale" && r.error().bit == 86;
    std::printf("a forged NaN scale: %s at bit %zu in %.*s (%s)\n", netser::to_string(r.error().code).data(),
                r.error().bit, static_cast<int>(r.error().path().size()), r.error().path().data(),
                refused ? "refused as expected" : "NOT REFUSED");
    ok &= refused;

    std::printf("\n%s\n", ok ? "all round trips match" : "MISMATCH");
    return ok ? 0 : 1;
}
