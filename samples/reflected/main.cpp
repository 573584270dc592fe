// The packets of Glenn Fiedler's "Serialization Strategies" and the RoboCat and
// MouseStatus classes of "Multiplayer Game Programming" (chapter 4), described once
// with NETSER_STRUCT / NETSER_CLASS. There is no serialize function per type: the
// description says how each member travels, and netser::serialize(stream, obj)
// writes, reads or measures it. Compare samples/packets/, which does the same
// packets by hand with the primitives.
//
// Each object is measured (measure_stream), written, read back and compared; the
// program exits with 1 on any mismatch.

#include <netser/netser.hpp>

#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// === Glenn Fiedler, "Serialization Strategies" ===============================

namespace article {

// PacketA: serialize_bits(x, 32) three times. A bare member gets its default
// encoding, and an int's default is its full width.
struct PacketA {
    int x = 0, y = 0, z = 0;
};
NETSER_STRUCT(PacketA, x, y, z)

// PacketB: numElements in [0, MaxElements], then that many elements. A vector with
// max_size is exactly that: the count in bits_required(0, 32) = 6 bits, then the
// elements. On read a count above 32 fails before anything is allocated.
inline constexpr std::size_t max_elements = 32;

struct PacketB {
    std::vector<int> elements;
};
NETSER_STRUCT(PacketB, (elements, netser::max_size(max_elements)))

// The article's vec3f and quat4f. Attributes written on a member of these types
// (quantize below) apply to each component.
struct vec3f {
    float x = 0, y = 0, z = 0;
};
NETSER_STRUCT(vec3f, x, y, z)

struct quat4f {
    float x = 0, y = 0, z = 0, w = 1;
};
NETSER_STRUCT(quat4f, x, y, z, w)

// RigidBody: "writing only one bit in place of the linear and angular velocity
// vectors" while at rest. only_if(&RigidBody::moving) sends a member only when the
// earlier bool member is true; a read of a body at rest resets the velocities to
// zero. The flag is a real member, so the sender keeps it up to date (see
// update_moving). The vectors use the article's "compressed vector" (bounded range,
// quantized) and the orientation netser's smallest-three quaternion.
struct RigidBody {
    vec3f position;
    quat4f orientation;
    bool moving = false; // the article's !at_rest
    vec3f linear_velocity;
    vec3f angular_velocity;

    void update_moving() {
        const auto zero = [](const vec3f& v) { return v.x == 0 && v.y == 0 && v.z == 0; };
        moving = !zero(linear_velocity) || !zero(angular_velocity);
    }
};
NETSER_STRUCT(RigidBody,
    (position, netser::quantize(-1000.f, 1000.f, 0.01f)),   // 18 bits per component
    (orientation, netser::smallest_three{9}),                // 2 + 3 * 9 bits
    moving,                                                  // 1 bit
    (linear_velocity, netser::quantize(-50.f, 50.f, 0.01f), netser::only_if(&RigidBody::moving)),
    (angular_velocity, netser::quantize(-10.f, 10.f, 0.01f), netser::only_if(&RigidBody::moving)))

// PacketC: the packet that carries rigid bodies: a sequence number and up to four
// bodies, each at rest or moving.
struct PacketC {
    std::uint16_t sequence = 0;
    std::vector<RigidBody> bodies;
};
NETSER_STRUCT(PacketC, sequence, (bodies, netser::max_size(4)))

} // namespace article

// === "Multiplayer Game Programming", chapter 4 ==============================

namespace robo {

class GameObject {
public:
    virtual ~GameObject() = default;
    virtual void Update() {}
    virtual std::string label() const { return "GameObject"; }
};

class HomeBase : public GameObject {
public:
    explicit HomeBase(std::string name) : mName(std::move(name)) {}
    std::string label() const override { return "HomeBase \"" + mName + "\""; }

private:
    std::string mName;
};

// The cat's position: x and z in a 4000 x 4000 world at 0.1 units, which the book's
// fixed point sends in 16 bits each, and a height that is usually 0 (on the floor) or
// 100 (on the ceiling): the book's entropy encoding, 2 bits for those, 33 otherwise.
struct Vector3 {
    float x = 0, y = 0, z = 0;
};
NETSER_STRUCT(Vector3,
    (x, netser::quantize(-2000.f, 2000.f, 0.1f)),
    (y, netser::common(0.f, 100.f)),
    (z, netser::quantize(-2000.f, 2000.f, 0.1f)))

// netser's rotation codecs read members named x, y, z, w (or a std::array<float, 4>).
struct Quaternion {
    float x = 0, y = 0, z = 0, w = 1;
};

// The book's RoboCat, members private. NETSER_CLASS sits inside the class, so it can
// name them; it lists every member, each with the encoding the chapter works out:
//   mHealth, mMeowCount  small ranges instead of 32 bits each
//   mHomeBase            linking: the home base's network id (the book's
//                        LinkingContext is a netser::link_context on the stream)
//   mName                the book's char[128] as the std::string it recommends:
//                        the length, then only the characters in use
//   mMiceIndices         embedding: the count, then the indices
//   mPosition            fixed point and entropy encoding (see Vector3)
//   mRotation            the book's 16-bit x, y, z and the sign of w: 49 bits
class RoboCat : public GameObject {
public:
    RoboCat() = default;
    RoboCat(std::int32_t health, std::int32_t meows, GameObject* home, std::string name,
            std::vector<std::int32_t> mice, Vector3 position, Quaternion rotation)
        : mHealth(health), mMeowCount(meows), mHomeBase(home), mName(std::move(name)),
          mMiceIndices(std::move(mice)), mPosition(position), mRotation(rotation) {}

    void Update() override {}
    std::string label() const override { return "RoboCat \"" + mName + "\""; }

private:
    std::int32_t mHealth = 10;
    std::int32_t mMeowCount = 3;
    GameObject* mHomeBase = nullptr;
    std::string mName;
    std::vector<std::int32_t> mMiceIndices;
    Vector3 mPosition;
    Quaternion mRotation;

    NETSER_CLASS(RoboCat,
        (mHealth, netser::range(0, 10)),
        (mMeowCount, netser::range(0, 3)),
        (mHomeBase, netser::linked{8}),
        (mName, netser::max_length(127)),
        (mMiceIndices, netser::max_size(16), netser::range(0, 1023)),
        mPosition,
        (mRotation, netser::unit_quaternion{16}))
};

// The book's data-driven example, whose hand-built DataType lists each member's type
// and says it "could store the number of bits to use for each variable" and "potential
// common values": here that metadata is the attributes.
class MouseStatus {
public:
    std::string mName;
    int mLegCount = 4, mHeadCount = 1;
    float mHealth = 100.f;
};
NETSER_STRUCT(MouseStatus,
    (mName, netser::max_length(31)),
    (mLegCount, netser::range(0, 8), netser::common(4)),   // 1 bit when 4 legs, else 1 + 4
    (mHeadCount, netser::range(0, 3), netser::common(1)),  // 1 bit when 1 head, else 1 + 2
    (mHealth, netser::quantize(0.f, 100.f, 0.5f)))         // 200 steps: 8 bits

} // namespace robo

// === Printing and comparing, driven by the same descriptions =================

namespace demo {

template <class T> struct is_vector : std::false_type {};
template <class E> struct is_vector<std::vector<E>> : std::true_type {};

template <class T>
using members_of = boost::describe::describe_members<T, boost::describe::mod_any_access>;

template <class T>
constexpr bool all_floats() {
    bool all = true;
    boost::mp11::mp_for_each<members_of<T>>([&](auto d) {
        all = all && std::is_same_v<std::remove_cvref_t<decltype(std::declval<const T&>().*d.pointer)>, float>;
    });
    return all;
}

template <class T>
void print_value(std::string& out, const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
        out += v ? "true" : "false";
    } else if constexpr (std::is_integral_v<T>) {
        out += std::to_string(v);
    } else if constexpr (std::is_floating_point_v<T>) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
        out += text;
    } else if constexpr (std::is_same_v<T, std::string>) {
        out += "\"" + v + "\"";
    } else if constexpr (std::is_pointer_v<T>) {
        out += v == nullptr ? std::string("nullptr") : "-> " + v->label();
    } else if constexpr (is_vector<T>::value) {
        // Structs one per line, numbers on one line.
        constexpr bool of_structs = std::is_class_v<typename T::value_type>;
        out += "[";
        for (std::size_t i = 0; i < v.size(); ++i) {
            out += of_structs ? "\n               " : (i != 0 ? ", " : "");
            print_value(out, v[i]);
        }
        out += of_structs && !v.empty() ? "\n             ]" : "]";
    } else if constexpr (std::is_same_v<T, robo::Quaternion>) {
        out += "(";
        print_value(out, v.x), out += ", ", print_value(out, v.y), out += ", ";
        print_value(out, v.z), out += ", ", print_value(out, v.w), out += ")";
    } else if constexpr (all_floats<T>()) {
        // A described vector or quaternion: (x, y, z)
        out += "(";
        bool first = true;
        boost::mp11::mp_for_each<members_of<T>>([&](auto d) {
            out += first ? "" : ", ";
            first = false;
            print_value(out, v.*d.pointer);
        });
        out += ")";
    } else {
        // A described struct or class (private members too): name = value, ...
        out += "{";
        bool first = true;
        boost::mp11::mp_for_each<members_of<T>>([&](auto d) {
            out += first ? "" : ", ";
            first = false;
            out += d.name;
            out += " = ";
            print_value(out, v.*d.pointer);
        });
        out += "}";
    }
}

template <class T>
std::string to_text(const T& v) {
    std::string out;
    print_value(out, v);
    return out;
}

// Equal, except floats, which may differ by `tolerance` (quantized members come back
// within half a step). Quaternions compare as rotations: q and -q are the same.
template <class T>
bool near(const T& a, const T& b, float tolerance) {
    if constexpr (std::is_floating_point_v<T>) {
        return std::fabs(a - b) <= tolerance;
    } else if constexpr (std::is_same_v<T, robo::Quaternion> || std::is_same_v<T, article::quat4f>) {
        const float dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
        return std::fabs(dot) >= 1.f - tolerance;
    } else if constexpr (std::is_integral_v<T> || std::is_pointer_v<T> || std::is_same_v<T, std::string>) {
        return a == b;
    } else if constexpr (is_vector<T>::value) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!near(a[i], b[i], tolerance)) return false;
        return true;
    } else {
        bool same = true;
        boost::mp11::mp_for_each<members_of<T>>(
            [&](auto d) { same = same && near(a.*d.pointer, b.*d.pointer, tolerance); });
        return same;
    }
}

void print_hex(std::span<const std::byte> bytes) {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i % 24 == 0) std::printf(i == 0 ? "  hex        " : "\n             ");
        std::printf("%02X ", std::to_integer<unsigned>(bytes[i]));
    }
    std::printf("\n");
}

void print_error(const char* what, const netser::error& e) {
    std::printf("  %s FAILED: %s at bit %zu in %s\n", what, std::string(netser::to_string(e.code)).c_str(), e.bit,
                std::string(e.path()).c_str());
}

// Measures, writes, reads back and compares one object. `context` is attached to
// every stream (the link_context of a RoboCat). False on any mismatch.
template <class T>
bool round_trip(const char* title, const T& sent, float tolerance, void* context = nullptr) {
    std::printf("%s\n", title);
    std::printf("  sent       %s\n", to_text(sent).c_str());

    netser::measure_stream measure;
    measure.set_context(context);
    if (!netser::serialize(measure, sent)) return print_error("measure", measure.error()), false;

    // max_bytes<T>() is a compile-time worst case: a buffer this size always suffices.
    std::array<std::byte, netser::max_bytes<T>()> buffer{};
    netser::write_stream writer(buffer);
    writer.set_context(context);
    if (!netser::serialize(writer, sent)) return print_error("write", writer.error()), false;
    const std::span<const std::byte> bytes = writer.finish();

    std::printf("  size       %zu bits (measure_stream) -> %zu bytes; worst case netser::max_bits = %zu\n",
                measure.bits_processed(), bytes.size(), netser::max_bits<T>());
    print_hex(bytes);

    T received{};
    netser::read_stream reader(bytes);
    reader.set_context(context);
    if (!netser::serialize(reader, received)) return print_error("read", reader.error()), false;
    std::printf("  received   %s\n", to_text(received).c_str());

    // The decoded values must also encode back to the very same bytes.
    std::array<std::byte, netser::max_bytes<T>()> again{};
    netser::write_stream rewriter(again);
    rewriter.set_context(context);
    const bool rewritten = netser::serialize(rewriter, received);
    const std::span<const std::byte> bytes2 = rewriter.finish();
    const bool same_bytes = rewritten && bytes2.size() == bytes.size() &&
                            std::equal(bytes.begin(), bytes.end(), bytes2.begin());

    const bool ok = near(sent, received, tolerance) && same_bytes &&
                    measure.bits_processed() == writer.bits_processed() &&
                    reader.bits_processed() == writer.bits_processed();
    if (ok && tolerance > 0)
        std::printf("  OK: read back equal (floats within %g), bit counts agree\n\n", static_cast<double>(tolerance));
    else
        std::printf("  %s\n\n", ok ? "OK: read back equal, bit counts agree" : "MISMATCH");
    return ok;
}

// Reading treats every byte as hostile: a forged count or a short packet fails
// cleanly, and the error names the member.
template <class T>
bool expect_rejected(const char* title, std::span<const std::byte> packet, netser::errc expected,
                     void* context = nullptr) {
    T received{};
    netser::read_stream reader(packet);
    reader.set_context(context);
    const bool accepted = netser::serialize(reader, received);
    const netser::error& e = reader.error();
    std::printf("  %-44s %s: %s at bit %zu in %s\n", title, accepted ? "ACCEPTED" : "rejected",
                std::string(netser::to_string(e.code)).c_str(), e.bit, std::string(e.path()).c_str());
    return !accepted && e.code == expected;
}

} // namespace demo

int main() {
    using namespace demo;
    std::printf("netser: the article's packets and the book's RoboCat and MouseStatus, each described\n"
                "once with NETSER_STRUCT / NETSER_CLASS; netser::serialize writes, reads and measures.\n\n");
    bool ok = true;

    // --- the article -------------------------------------------------------
    ok &= round_trip("PacketA: three ints at full width (32 bits each)", article::PacketA{1, -2, 2147483647}, 0.f);

    ok &= round_trip("PacketB: count in [0, 32] (6 bits), then 32-bit ints",
                     article::PacketB{{10, 20, 30, -1, 123456}}, 0.f);

    article::RigidBody resting;
    resting.position = {12.5f, 0.f, -340.25f};
    resting.orientation = {0.f, 0.38268343f, 0.f, 0.92387953f}; // 45 degrees about y
    resting.update_moving();
    // Tolerance: half a step of 0.01 (position, velocities), about 0.001 for the rotation.
    ok &= round_trip("RigidBody at rest: 1 flag bit, no velocities", resting, 0.0051f);

    article::RigidBody moving = resting;
    moving.linear_velocity = {3.f, 0.f, -1.25f};
    moving.angular_velocity = {0.f, 0.5f, 0.f};
    moving.update_moving();
    ok &= round_trip("RigidBody moving: flag bit 1, then both velocities", moving, 0.0051f);

    article::PacketC c;
    c.sequence = 1001;
    c.bodies = {resting, moving, resting};
    ok &= round_trip("PacketC: sequence, then 3 of at most 4 bodies (count in 3 bits)", c, 0.0051f);

    // --- the book ----------------------------------------------------------
    // Both peers know the home base by the same network id (the book's LinkingContext).
    robo::HomeBase base("Cattery");
    netser::link_context links;
    if (!links.add<robo::GameObject>(&base, 7)) return 1;

    const robo::RoboCat fuzzy(5, 2, &base, "Fuzzy", {3, 17, 256}, robo::Vector3{-120.5f, 0.f, 1999.9f},
                              robo::Quaternion{0.f, 0.f, 0.70710677f, 0.70710677f});
    // Tolerance: half a step of 0.1 (position); 16-bit rotation components.
    ok &= round_trip("RoboCat on the floor (height 0: 2 bits)", fuzzy, 0.051f, &links);

    const robo::RoboCat ceiling(10, 3, &base, "Whiskers", {}, robo::Vector3{0.f, 100.f, 0.f},
                                robo::Quaternion{0.f, 0.f, 0.f, 1.f});
    ok &= round_trip("RoboCat on the ceiling (height 100: 2 bits), no mice", ceiling, 0.051f, &links);

    const robo::RoboCat jumping(7, 0, nullptr, "Tom", {1}, robo::Vector3{10.f, 42.5f, -10.f},
                                robo::Quaternion{0.5f, -0.5f, 0.5f, -0.5f});
    ok &= round_trip("RoboCat in the air (height 42.5: 1 + 32 bits), no home base", jumping, 0.051f, &links);

    ok &= round_trip("MouseStatus: 4 legs, 1 head (the common values: 1 bit each)",
                     robo::MouseStatus{"Squeaky", 4, 1, 87.5f}, 0.251f);
    ok &= round_trip("MouseStatus: an uncommon mouse (3 legs, 2 heads)", robo::MouseStatus{"Odd", 3, 2, 12.f}, 0.251f);

    // --- hostile packets -----------------------------------------------------
    std::printf("Hostile packets (reading must fail cleanly and name the member)\n");
    const std::array<std::byte, 1> count33{std::byte{33}};
    ok &= expect_rejected<article::PacketB>("PacketB with count 33 (max 32):", count33, netser::errc::too_large);

    std::array<std::byte, netser::max_bytes<robo::RoboCat>()> buffer{};
    netser::write_stream w(buffer);
    w.set_context(&links);
    if (!netser::serialize(w, fuzzy)) return 1;
    const auto full = w.finish();
    ok &= expect_rejected<robo::RoboCat>("RoboCat cut 2 bytes short:", full.first(full.size() - 2),
                                         netser::errc::overflow, &links);

    std::array<std::byte, 2> bad_health{std::byte{0x0F}, std::byte{0}}; // health code 15 in 4 bits: above 10
    ok &= expect_rejected<robo::RoboCat>("RoboCat with health 15 (range 0..10):", bad_health,
                                         netser::errc::out_of_range, &links);

    std::printf("\n%s\n", ok ? "All packets round-tripped; hostile packets rejected." : "FAILED: see above.");
    return ok ? 0 : 1;
}
