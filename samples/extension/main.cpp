// Extending netser: how to send a type netser cannot see into, and how to add an
// encoding of your own.
//
// netser knows numbers, enums, strings, the standard containers and every struct
// described with NETSER_STRUCT. Two hooks cover the rest:
//
// 1. A type codec: a function `serialize(Stream&, T&)` found by argument-dependent
//    lookup (so it lives in T's namespace), written Glenn Fiedler's way with the
//    netser primitives. netser uses it wherever T appears: as a member, inside a
//    std::vector, std::array, std::optional, a map... Use it for a type you do not
//    own (a math library's vector) or one with invariants a member list cannot
//    express. State its bits, so that netser::max_bits<> of every struct that contains
//    T stays a compile-time constant: `constexpr std::size_t netser_max_bits(const T*)`,
//    or its wire (below).
//
// 2. An attribute: a constant object written next to one member in NETSER_STRUCT,
//    with a const member `template <class S> bool serialize(S&, V&)` and its bits
//    (`constexpr std::size_t max_bits()`, or its wire). It replaces netser's encoding
//    for that one member only: the same float can be an angle in one struct and a
//    speed in another. The type of serialize's value is the attribute's rule: on a
//    member it does not fit, NETSER_STRUCT names the member in a compile error.
//    An attribute may instead wrap the member's own encoding:
//    `serialize(S&, V&, const Encode& encode)` is given encode(s, v), netser's encoding
//    of the value with the member's other attributes, and states its bits from it
//    (`max_bits(std::size_t inner_max)`).
//
// The wire: either hook may state the fields it writes (netser_wire(const T*), or a
// wire() member of the attribute; <netser/wire_layout.hpp>). Then netser knows its bits
// without max_bits, the schema JSON (netser::schema_json<T>()) lists the fields, and the
// Python decoder and the Wireshark dissector (tools/) show the codec field by field
// instead of as one opaque code.
//
// 3. Delta compression (netser::serialize_delta) works with both as they are: a changed
//    value is sent whole. Either may do better with its own
//    `serialize_delta(Stream&, T& value, const T& baseline)`, the value's whole delta
//    (its changed bit included; a reader fills value from the baseline), plus its bound
//    for netser::max_delta_bits<> (netser_max_delta_bits(const T*), or a
//    max_delta_bits() member of the attribute) and, for an attribute, an optional
//    `unchanged(value, baseline)` that tells whether a value goes as the baseline does.
//    netser::serialize_code_difference sends a code as its difference from the
//    baseline's, in few bits when it is small.
//
// Both follow the rules of the primitives:
// - One function for all three streams. S::is_reading is true for read_stream only;
//   S::is_writing is true for write_stream and measure_stream (measuring is a write
//   that counts bits), so "if writing, compute the code" serves both.
// - Return false as soon as a primitive does; the stream already holds the error
//   and netser adds the member path ("Missile.trail[2]") while it unwinds. To fail
//   on your own check, `return s.fail(netser::errc::..., bit_where_the_value_starts)`.
// - Reading treats every byte as hostile: check every code before using it (the
//   primitives check ranges for you), allocate nothing a forged count could inflate.
// - Optional: a schema tag (netser_schema_tag(const T*), or a schema_tag() member of
//   the attribute) names the encoding in netser::schema_hash<T>(), so two peers that
//   encode it differently get different protocol ids.

#include <netser/netser.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// --- A third-party type -------------------------------------------------------

// Pretend this comes from a math library's header that you cannot change: the data
// is private and there is no NETSER_STRUCT for it, so netser cannot see into it.
namespace thirdparty {

class Vec3 {
public:
    constexpr Vec3() = default;
    constexpr Vec3(float x, float y, float z) : v_{x, y, z} {}

    float x() const { return v_[0]; }
    float y() const { return v_[1]; }
    float z() const { return v_[2]; }
    void store(float* out) const { out[0] = v_[0], out[1] = v_[1], out[2] = v_[2]; }
    void load(const float* in) { v_[0] = in[0], v_[1] = in[1], v_[2] = in[2]; }

private:
    float v_[3] = {};
};

} // namespace thirdparty

// --- Hook 1: a codec for the type (your code) ---------------------------------

// Argument-dependent lookup searches the namespace of the argument's type, so the
// codec goes into namespace thirdparty, next to Vec3 (adding an overload to a
// library's namespace is fine; only std is off limits). Put it in a header of yours
// that every translation unit sending Vec3 includes.
namespace thirdparty {

// The article's "compressed vector": each component bounded to the world, [-1024, 1024]
// metres, at 1 cm. Computed once, at compile time: 204800 steps, 18 bits.
inline constexpr netser::quantization vec3_component = netser::quantization::make(-1024.f, 1024.f, 0.01f);

template <class Stream>
bool serialize(Stream& s, Vec3& v) {
    float values[3] = {};
    if constexpr (Stream::is_writing) v.store(values);
    if (!netser::serialize_quantized(s, values[0], vec3_component) ||
        !netser::serialize_quantized(s, values[1], vec3_component) ||
        !netser::serialize_quantized(s, values[2], vec3_component))
        return false; // a code above the range fails the read (out_of_range): nothing to check here
    if constexpr (Stream::is_reading) v.load(values);
    return true;
}

// What the codec writes, for the schema tools, and its bits (3 x 18) for netser::max_bits<>
// of the structs that hold a Vec3: three quantized codes, x, y, z.
constexpr auto netser_wire(const Vec3*) {
    return netser::wire(netser::wire_quantized("x", vec3_component), netser::wire_quantized("y", vec3_component),
                        netser::wire_quantized("z", vec3_component));
}

// The encoding's name in netser::schema_hash<>: change it when the encoding changes.
constexpr std::string_view netser_schema_tag(const Vec3*) { return "thirdparty::Vec3 q(-1024,1024,0.01)"; }

// Its delta: a changed bit, then per component a changed bit and the difference of its
// code from the baseline's (a Vec3 that moved a few centimetres along one axis costs a
// few bits, not 54). The baseline is what the reader holds (decoded), so both sides
// compute the same baseline codes.
template <class Stream>
bool serialize_delta(Stream& s, Vec3& v, const Vec3& baseline) {
    float now[3] = {}, before[3] = {};
    baseline.store(before);
    if constexpr (Stream::is_writing) v.store(now);
    std::uint64_t codes[3] = {}, base_codes[3] = {};
    bool changed = false;
    for (int i = 0; i < 3; ++i) {
        base_codes[i] = vec3_component.encode(before[i]);
        if constexpr (Stream::is_writing) {
            if (std::isnan(now[i])) return s.fail(netser::errc::invalid_value, s.bits_processed());
            codes[i] = vec3_component.encode(now[i]);
            changed = changed || codes[i] != base_codes[i];
        }
    }
    if (!netser::serialize_bool(s, changed)) return false;
    if (!changed) {
        if constexpr (Stream::is_reading) v = baseline;
        return true;
    }
    for (int i = 0; i < 3; ++i) {
        bool moved = codes[i] != base_codes[i];
        if (!netser::serialize_bool(s, moved)) return false;
        if (!moved) codes[i] = base_codes[i];
        else if (!netser::serialize_code_difference(s, codes[i], base_codes[i], vec3_component.max_int)) return false;
        now[i] = vec3_component.decode(static_cast<std::uint32_t>(codes[i]));
    }
    if constexpr (Stream::is_reading) v.load(now);
    return true;
}

constexpr std::size_t netser_max_delta_bits(const Vec3*) {
    return 1 + 3 * (1 + netser::max_difference_bits(vec3_component.max_int));
}

} // namespace thirdparty

// --- Hook 2: an attribute (your code) -----------------------------------------

namespace game {

inline constexpr float two_pi = 2.f * std::numbers::pi_v<float>;

// angle256: an angle in radians as one of 256 steps of a turn (8 bits, 1.4 degrees
// apart). Any angle is accepted and wrapped into [0, 2 pi); every 8-bit code is a valid
// angle, so a read has nothing to reject. Use it as `(heading, game::angle256)`.
struct angle256_t {
    template <class S>
    bool serialize(S& s, float& radians) const {
        const std::size_t at = s.bits_processed();
        std::uint8_t step = 0;
        if constexpr (S::is_writing) {
            // Our own check: a NaN or infinite angle has no step; the error names the member.
            if (!std::isfinite(radians)) return s.fail(netser::errc::invalid_value, at);
            step = static_cast<std::uint8_t>(step_of(radians)); // [0, 1] turns in 256 steps
        }
        if (!netser::serialize_bits(s, step, 8)) return false;
        if constexpr (S::is_reading) radians = static_cast<float>(step) * (two_pi / 256.f);
        return true;
    }

    // Its wire: one 8-bit code (netser::max_bits<> and the fewest bits come from it).
    static constexpr auto wire() { return netser::wire(netser::wire_code("step", 8)); }
    constexpr std::string_view schema_tag() const { return "angle256"; } // optional: for schema_hash

    // Optional, delta: a changed bit, then the turn's difference in steps modulo a turn
    // (359 degrees to 1 degree is 2 steps, not 254), as a difference of codes from the
    // middle of [0, 255].
    template <class S>
    bool serialize_delta(S& s, float& radians, const float& baseline) const {
        const unsigned base = step_of(baseline);
        unsigned step = 0;
        if constexpr (S::is_writing) {
            if (!std::isfinite(radians)) return s.fail(netser::errc::invalid_value, s.bits_processed());
            step = step_of(radians);
        }
        bool changed = step != base;
        if (!netser::serialize_bool(s, changed)) return false;
        if (!changed) {
            if constexpr (S::is_reading) radians = baseline;
            return true;
        }
        std::uint64_t turn = (step - base + 128u) % 256u; // 128 = no turn
        if (!netser::serialize_code_difference(s, turn, 128, 255)) return false;
        if constexpr (S::is_reading) radians = static_cast<float>((base + turn + 128u) % 256u) * (two_pi / 256.f);
        return true;
    }
    constexpr std::size_t max_delta_bits() const { return 1 + netser::max_difference_bits(255); }
    // Optional: whether a value goes as the baseline does (else netser compares the bits
    // each would write).
    bool unchanged(const float& radians, const float& baseline) const {
        return std::isfinite(radians) && step_of(radians) == step_of(baseline);
    }

private:
    static unsigned step_of(float radians) {
        if (!std::isfinite(radians)) return 0;
        const float turns = radians / two_pi - std::floor(radians / two_pi);
        return static_cast<unsigned>(std::lround(turns * 256.f)) % 256u;
    }
};
inline constexpr angle256_t angle256{};

// usually_zero: one bit, 1 for the type's zero (a missile at rest), else 0 and the value
// as the member's own attributes encode it (here quantize(0, 400, 0.5): 10 bits). Use it
// next to them: `(speed, netser::quantize(0.f, 400.f, 0.5f), game::usually_zero)`.
struct usually_zero_t {
    template <class S, class V, class Encode>
    bool serialize(S& s, V& v, const Encode& encode) const {
        bool zero = false;
        if constexpr (S::is_writing) zero = v == V{};
        if (!netser::serialize_bool(s, zero)) return false;
        if (zero) {
            if constexpr (S::is_reading) v = V{};
            return true;
        }
        return encode(s, v); // a failure in it names the member, as any other
    }
    constexpr std::size_t max_bits(std::size_t inner_max) const { return 1 + inner_max; }
    constexpr std::size_t min_bits(std::size_t) const { return 1; }
    constexpr std::string_view schema_tag() const { return "usually_zero"; }
};
inline constexpr usually_zero_t usually_zero{};

// --- Using both ----------------------------------------------------------------

// A missile: the Vec3 codec is used for a plain member and for each element of a
// std::vector; angle256 for the heading only (speed stays a plain float).
struct Missile {
    std::uint16_t id = 0;
    thirdparty::Vec3 position;
    float heading = 0.f; // radians
    float speed = 0.f;
    std::vector<thirdparty::Vec3> trail; // the last few positions
};
NETSER_STRUCT(Missile,
    (id, netser::range(0, 1023)),
    position,                                   // the ADL codec: 54 bits
    (heading, angle256),                        // the attribute: 8 bits
    (speed, netser::quantize(0.f, 400.f, 0.5f), usually_zero), // 1 bit at rest, else 1 + 10
    (trail, netser::max_size(8)))               // count (4 bits), then 54 bits each

// The codecs' bounds flow into the struct's compile-time worst case:
// 10 + 54 + 8 + (1 + 10) + 4 + 8 * 54 = 519 bits.
static_assert(netser::max_bits<Missile>() == 519);

} // namespace game

// --- Checking it ------------------------------------------------------------------

namespace {

// Half a step of 1 cm, with room for float rounding.
constexpr float position_tolerance = 0.0051f;
constexpr float heading_tolerance = game::two_pi / 512.f + 1e-4f;

bool near(const thirdparty::Vec3& a, const thirdparty::Vec3& b) {
    return std::fabs(a.x() - b.x()) <= position_tolerance && std::fabs(a.y() - b.y()) <= position_tolerance &&
           std::fabs(a.z() - b.z()) <= position_tolerance;
}

// Angles are equal modulo a full turn.
bool near_angle(float a, float b) {
    float d = std::fmod(std::fabs(a - b), game::two_pi);
    if (d > game::two_pi / 2) d = game::two_pi - d;
    return d <= heading_tolerance;
}

bool near(const game::Missile& a, const game::Missile& b) {
    if (a.id != b.id || !near(a.position, b.position) || !near_angle(a.heading, b.heading) ||
        std::fabs(a.speed - b.speed) > 0.25f || a.trail.size() != b.trail.size())
        return false;
    for (std::size_t i = 0; i < a.trail.size(); ++i)
        if (!near(a.trail[i], b.trail[i])) return false;
    return true;
}

std::string text(const thirdparty::Vec3& v) {
    char out[96];
    std::snprintf(out, sizeof out, "(%g, %g, %g)", static_cast<double>(v.x()), static_cast<double>(v.y()),
                  static_cast<double>(v.z()));
    return out;
}

std::string text(const game::Missile& m) {
    char head[128];
    std::snprintf(head, sizeof head, "{id = %u, heading = %g rad, speed = %g, position = ", unsigned{m.id},
                  static_cast<double>(m.heading), static_cast<double>(m.speed));
    std::string out = head + text(m.position) + ", trail = [";
    for (std::size_t i = 0; i < m.trail.size(); ++i) out += (i ? ", " : "") + text(m.trail[i]);
    return out + "]}";
}

void print_hex(std::span<const std::byte> bytes) {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i % 24 == 0) std::printf(i == 0 ? "  hex        " : "\n             ");
        std::printf("%02X ", std::to_integer<unsigned>(bytes[i]));
    }
    std::printf("\n");
}

std::string describe(const netser::error& e) {
    char out[64];
    std::snprintf(out, sizeof out, " at bit %zu in ", e.bit);
    return std::string(netser::to_string(e.code)) + out + std::string(e.path());
}

bool failed(const char* what, const netser::error& e) {
    std::printf("  %s FAILED: %s\n", what, describe(e).c_str());
    return false;
}

bool round_trip(const char* title, const game::Missile& sent) {
    std::printf("%s\n  sent       %s\n", title, text(sent).c_str());

    netser::measure_stream measure;
    if (!netser::serialize(measure, sent)) return failed("measure", measure.error());

    std::array<std::byte, netser::max_bytes<game::Missile>()> buffer{};
    netser::write_stream writer(buffer);
    if (!netser::serialize(writer, sent)) return failed("write", writer.error());
    const std::span<const std::byte> bytes = writer.finish();
    std::printf("  size       %zu bits (measure_stream) -> %zu bytes; netser::max_bits<Missile>() = %zu\n",
                measure.bits_processed(), bytes.size(), netser::max_bits<game::Missile>());
    print_hex(bytes);

    game::Missile received;
    netser::read_stream reader(bytes);
    if (!netser::serialize(reader, received)) return failed("read", reader.error());
    std::printf("  received   %s\n", text(received).c_str());

    const bool ok = near(sent, received) && measure.bits_processed() == writer.bits_processed() &&
                    reader.bits_processed() == writer.bits_processed();
    std::printf("  %s\n\n", ok ? "OK: read back within the quantization steps, bit counts agree" : "MISMATCH");
    return ok;
}

// A delta against the missile as the reader received it: the two user deltas at work.
bool delta_round_trip(const game::Missile& before) {
    game::Missile baseline; // what the reader holds: the decoded missile
    if (const netser::error e = netser::as_received(before, baseline)) return failed("as_received", e);
    game::Missile now = baseline;
    now.position = {now.position.x() + 0.25f, now.position.y(), now.position.z()}; // 25 steps along x
    now.heading = baseline.heading - 3 * game::two_pi / 256.f;                       // 3 steps back
    std::printf("Delta against the previous missile (position moved 25 cm along x, heading 3 steps back)\n");
    std::array<std::byte, netser::max_delta_bytes<game::Missile>()> buffer{};
    netser::write_stream w(buffer);
    if (!netser::serialize_delta(w, now, baseline)) return failed("delta write", w.error());
    netser::measure_stream plain;
    if (!netser::serialize(plain, now)) return failed("plain measure", plain.error());
    std::printf("  size       %zu bits as a delta, %zu bits whole; netser::max_delta_bits<Missile>() = %zu\n",
                w.bits_processed(), plain.bits_processed(), netser::max_delta_bits<game::Missile>());
    const auto bytes = w.finish();
    print_hex(bytes);
    game::Missile received;
    netser::read_stream r(bytes);
    if (!netser::serialize_delta(r, received, baseline)) return failed("delta read", r.error());
    const bool ok = near(now, received) && w.bits_processed() < plain.bits_processed();
    std::printf("  %s\n\n", ok ? "OK: the reader rebuilt the missile from its baseline and the changes"
                                 : "MISMATCH");
    return ok;
}

} // namespace

int main() {
    std::printf("netser extension sample: thirdparty::Vec3 through an ADL serialize function, and a\n"
                "custom attribute game::angle256 (an angle in 256 steps, 8 bits).\n\n");
    bool ok = true;

    game::Missile m;
    m.id = 42;
    m.position = {100.25f, -3.5f, 880.f};
    m.heading = 1.5707964f; // a quarter turn: step 64
    m.speed = 250.5f;
    ok &= round_trip("Missile, no trail yet", m);

    m.heading = -0.7853982f; // -1/8 turn: wraps to 7/8, step 224
    m.trail = {{90.f, -3.5f, 870.f}, {95.125f, -3.5f, 875.f}, {-1024.f, 1024.f, 0.f}};
    ok &= round_trip("Missile with a trail of 3 (each Vec3 through the same codec)", m);

    ok &= delta_round_trip(m);

    game::Missile resting = m;
    resting.speed = 0.f; // usually_zero: 1 bit instead of 11
    resting.trail.clear();
    ok &= round_trip("Missile at rest (speed through usually_zero: 1 bit)", resting);

    // The wires the two codecs state, in the schema the tools read.
    const std::string schema = netser::schema_json<game::Missile>();
    const bool stated = schema.find("\"wire\"") != std::string::npos &&
                        schema.find("\"name\": \"step\"") != std::string::npos &&
                        schema.find("\"name\": \"x\"") != std::string::npos;
    std::printf("netser::schema_json<Missile>() states the codecs' wires (position: x, y, z quantized; heading:\n"
                "a code \"step\" of 8 bits): %s\n\n", stated ? "yes" : "MISSING");
    ok &= stated;

    std::printf("Failures inside the extensions name the member\n");
    bool rejected = true;

    // angle256's own check: a NaN heading fails the write with invalid_value.
    game::Missile bad = m;
    bad.heading = std::numeric_limits<float>::quiet_NaN();
    std::array<std::byte, netser::max_bytes<game::Missile>()> buffer{};
    netser::write_stream w(buffer);
    const bool wrote = netser::serialize(w, bad);
    std::printf("  write a NaN heading:               %s: %s\n", wrote ? "ACCEPTED" : "rejected",
                describe(w.error()).c_str());
    rejected = rejected && !wrote && w.error().code == netser::errc::invalid_value;

    // The Vec3 codec's primitives: a forged component code above 204800 fails the read.
    std::array<std::byte, netser::max_bytes<game::Missile>()> good{};
    netser::write_stream w2(good);
    if (!netser::serialize(w2, m)) return failed("write", w2.error()) ? 0 : 1;
    const std::size_t size = w2.finish().size();
    std::array<std::byte, netser::max_bytes<game::Missile>()> forged = good;
    forged[1] |= std::byte{0xFC}; // bits 10..15: the top of position.x's 18-bit code (bits 10..27)
    forged[2] = forged[3] = std::byte{0xFF};
    netser::read_stream r(std::span<const std::byte>(forged).first(size));
    game::Missile out;
    const bool read = netser::serialize(r, out);
    std::printf("  read a position code above 204800: %s: %s\n", read ? "ACCEPTED" : "rejected",
                describe(r.error()).c_str());
    rejected = rejected && !read && r.error().code == netser::errc::out_of_range;

    // A trail element cut off: overflow, at the element's index.
    netser::read_stream r2(std::span<const std::byte>(good).first(size - 3));
    const bool read2 = netser::serialize(r2, out);
    std::printf("  read a packet cut 3 bytes short:   %s: %s\n", read2 ? "ACCEPTED" : "rejected",
                describe(r2.error()).c_str());
    rejected = rejected && !read2 && r2.error().code == netser::errc::overflow;

    std::printf("  %s\n", rejected ? "OK: all three rejected with the expected error" : "MISMATCH");
    ok &= rejected;

    std::printf("\n%s\n", ok ? "All checks passed." : "FAILED: see above.");
    return ok ? 0 : 1;
}
