// The three packets of Glenn Fiedler's "Serialization Strategies", by hand with the
// netser primitives. Each packet has ONE serialize function, templated on the stream:
// the same code writes (write_stream), reads (read_stream) and counts bits
// (measure_stream). Every primitive returns false on failure, so a function is a
// chain of calls joined by &&; reading stops at the first bad value.

#include <netser/core.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <cstdio>
#include <span>
#include <string>

namespace game {

// --- PacketA: three full-range ints (32 bits each) -------------------------

struct PacketA {
    int x = 0, y = 0, z = 0;
    bool operator==(const PacketA&) const = default;
};

template <netser::stream S>
bool serialize(S& s, PacketA& p) {
    return netser::serialize_int(s, p.x, INT_MIN, INT_MAX) &&
           netser::serialize_int(s, p.y, INT_MIN, INT_MAX) &&
           netser::serialize_int(s, p.z, INT_MIN, INT_MAX);
}

// --- PacketB: a variable-length array, count in [0, max_elements] ---------

struct PacketB {
    static constexpr int max_elements = 32;
    int num_elements = 0;
    std::array<int, max_elements> elements{};

    // Only the elements in use take part.
    bool operator==(const PacketB& o) const {
        return num_elements == o.num_elements &&
               std::equal(elements.begin(), elements.begin() + num_elements, o.elements.begin());
    }
};

template <netser::stream S>
bool serialize(S& s, PacketB& p) {
    // On read, a count above max_elements fails here (out_of_range), before the loop.
    if (!netser::serialize_int(s, p.num_elements, 0, PacketB::max_elements)) return false;
    for (int i = 0; i < p.num_elements; ++i)
        if (!netser::serialize_int(s, p.elements[static_cast<std::size_t>(i)], INT_MIN, INT_MAX)) return false;
    return true;
}

// --- PacketC: the article's rigid body, velocities skipped when at rest ----

struct vec3 {
    float x = 0, y = 0, z = 0;
    bool operator==(const vec3&) const = default;
};
struct quat {
    float x = 0, y = 0, z = 0, w = 1;
    bool operator==(const quat&) const = default;
};

struct PacketC {
    vec3 position;
    quat orientation;
    vec3 linear_velocity;
    vec3 angular_velocity;
    bool operator==(const PacketC&) const = default;
};

template <netser::stream S>
bool serialize(S& s, vec3& v) {
    return netser::serialize_float(s, v.x) && netser::serialize_float(s, v.y) && netser::serialize_float(s, v.z);
}

template <netser::stream S>
bool serialize(S& s, quat& q) {
    return netser::serialize_float(s, q.x) && netser::serialize_float(s, q.y) &&
           netser::serialize_float(s, q.z) && netser::serialize_float(s, q.w);
}

template <netser::stream S>
bool serialize(S& s, PacketC& p) {
    if (!serialize(s, p.position) || !serialize(s, p.orientation)) return false;
    // Writing computes the flag from the data; reading receives it.
    bool at_rest = S::is_writing ? p.linear_velocity == vec3{} && p.angular_velocity == vec3{} : true;
    if (!netser::serialize_bool(s, at_rest)) return false;
    if (!at_rest) return serialize(s, p.linear_velocity) && serialize(s, p.angular_velocity);
    if constexpr (S::is_reading) p.linear_velocity = p.angular_velocity = vec3{};
    return true;
}

// --- printing ---------------------------------------------------------------

std::string describe(const PacketA& p) {
    return "{x = " + std::to_string(p.x) + ", y = " + std::to_string(p.y) + ", z = " + std::to_string(p.z) + "}";
}

std::string describe(const PacketB& p) {
    std::string out = "{num_elements = " + std::to_string(p.num_elements) + ", elements = [";
    for (int i = 0; i < p.num_elements; ++i)
        out += (i ? ", " : "") + std::to_string(p.elements[static_cast<std::size_t>(i)]);
    return out + "]}";
}

std::string describe(float f) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(f));
    return text;
}
std::string describe(const vec3& v) { return "(" + describe(v.x) + ", " + describe(v.y) + ", " + describe(v.z) + ")"; }
std::string describe(const quat& q) {
    return "(" + describe(q.x) + ", " + describe(q.y) + ", " + describe(q.z) + ", " + describe(q.w) + ")";
}

std::string describe(const PacketC& p) {
    return "{position = " + describe(p.position) + ", orientation = " + describe(p.orientation) +
           ",\n               linear_velocity = " + describe(p.linear_velocity) +
           ", angular_velocity = " + describe(p.angular_velocity) + "}";
}

void print_hex(std::span<const std::byte> bytes) {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i % 16 == 0) std::printf(i == 0 ? "  hex       " : "\n            ");
        std::printf(i % 16 == 0 ? "%02X" : " %02X", std::to_integer<unsigned>(bytes[i]));
    }
    std::printf("\n");
}

void print_error(const char* what, const netser::error& e) {
    std::printf("  %s FAILED: %s at bit %zu\n", what, std::string(netser::to_string(e.code)).c_str(), e.bit);
}

// Measures, writes and reads back one packet; prints what happened. False on any mismatch.
template <class Packet>
bool round_trip(const char* title, Packet sent) {
    std::printf("%s\n", title);
    std::printf("  sent      %s\n", describe(sent).c_str());

    netser::measure_stream measure;
    if (!serialize(measure, sent)) return print_error("measure", measure.error()), false;

    std::array<std::byte, 256> buffer{};
    netser::write_stream writer(buffer);
    if (!serialize(writer, sent)) return print_error("write", writer.error()), false;
    const std::span<const std::byte> bytes = writer.finish();

    std::printf("  size      %zu bits (measure_stream: %zu bits) -> %zu bytes\n", writer.bits_processed(),
                measure.bits_processed(), bytes.size());
    print_hex(bytes);

    Packet received{};
    netser::read_stream reader(bytes);
    if (!serialize(reader, received)) return print_error("read", reader.error()), false;
    std::printf("  received  %s\n", describe(received).c_str());

    const bool ok = received == sent && measure.bits_processed() == writer.bits_processed() &&
                    reader.bits_processed() == writer.bits_processed();
    std::printf("  %s\n\n", ok ? "OK: read back equal, bit counts agree" : "MISMATCH");
    return ok;
}

// Reading never trusts the packet: a bad count or a truncated packet fails cleanly.
bool hostile_reads() {
    std::printf("Hostile packets (reading must fail cleanly)\n");
    bool ok = true;

    // Count 33 in 6 bits (max_elements is 32): the read stops at the count.
    const std::array<std::byte, 1> bad_count{std::byte{33}};
    PacketB b;
    netser::read_stream r1(bad_count);
    const bool read1 = serialize(r1, b);
    std::printf("  PacketB with count 33 (hex 21):         %s, %s at bit %zu\n", read1 ? "accepted" : "rejected",
                std::string(netser::to_string(r1.error().code)).c_str(), r1.error().bit);
    ok = ok && !read1 && r1.error().code == netser::errc::out_of_range && r1.error().bit == 0;

    // A PacketA cut to 11 of its 12 bytes: z runs past the end.
    PacketA a{1, 2, 3};
    std::array<std::byte, 12> buffer{};
    netser::write_stream w(buffer);
    serialize(w, a);
    netser::read_stream r2(w.finish().first(11));
    const bool read2 = serialize(r2, a);
    std::printf("  PacketA cut to 11 of its 12 bytes:      %s, %s at bit %zu\n", read2 ? "accepted" : "rejected",
                std::string(netser::to_string(r2.error().code)).c_str(), r2.error().bit);
    ok = ok && !read2 && r2.error().code == netser::errc::overflow && r2.error().bit == 64;

    std::printf("  %s\n\n", ok ? "OK: both rejected with the expected error" : "MISMATCH");
    return ok;
}

} // namespace game

int main() {
    using namespace game;
    std::printf("netser: Glenn Fiedler's PacketA, PacketB and PacketC, each with one serialize\n"
                "function that writes, reads and measures. Bits go LSB first; an int in [min, max]\n"
                "is sent as (value - min) in just enough bits.\n\n");

    bool ok = true;
    ok &= round_trip("PacketA: three ints, full range (32 bits each, sent as value - INT_MIN)", PacketA{1, -2, 2147483647});

    PacketB b;
    b.num_elements = 5;
    b.elements = {10, 20, 30, -1, 123456};
    ok &= round_trip("PacketB: count in [0, 32] (6 bits), then that many 32-bit ints", b);

    PacketC moving;
    moving.position = {1.5f, 0.f, -42.25f};
    moving.orientation = {0.f, 0.f, 0.70710677f, 0.70710677f};
    moving.linear_velocity = {3.f, 0.f, -1.f};
    moving.angular_velocity = {0.f, 0.5f, 0.f};
    ok &= round_trip("PacketC: rigid body moving (raw floats, at_rest bit = 0, velocities follow)", moving);

    PacketC resting = moving;
    resting.linear_velocity = resting.angular_velocity = vec3{};
    ok &= round_trip("PacketC: rigid body at rest (at_rest bit = 1, velocities not sent)", resting);

    ok &= hostile_reads();

    std::printf("%s\n", ok ? "All packets round-tripped." : "FAILED: see MISMATCH above.");
    return ok ? 0 : 1;
}
