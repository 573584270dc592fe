// predicted_export OUT_DIR: predicted delta packets (reflect/netser/predicted_delta_packet.hpp)
// for tests/schema/test_predicted.py, which decodes each with the independent Python
// decoder (tools/netser_schema_decode.py --predicted) and must agree with netser's reader
// value for value. Two types: Scene (predict_linear on integers, quantized floats, a
// smallest_three rotation, a vector of structs, a sequence of integers, an array; beside
// an optional, a variant, a string, an enum) and Crowd (the keyed containers, sparse
// slots, a vector of optionals: range-coded contexts through every kind of frame). Each frame
// of a seeded scene is sent against 1 to 3 earlier frames, bit-packed, range-coded with
// the library default prior and with a prior trained on another seed's frames (written
// as delta_recording --write-prior writes one). Hostile ones beside them: a bad CRC, a
// baseline the reader holds with another value, the other coding's reader, forged
// headers (count 4, baselines out of order) and forged bodies (cut, flipped, extended,
// their CRC recomputed), each with what netser's reader reports.
//
// OUT_DIR/predicted/: <Type>.schema.json, <Type>.prior.hpp, cases.jsonl (one case a line:
// type, name, coding, packet hex, the baselines' plain encodings (hex, newest first), and
// netser's result: the value's and the prediction's plain encodings and the float bits of
// their rotations, or the error).

#include <netser/netser.hpp>
#include <netser/predicted_delta_packet.hpp>
#include <netser/predicted_delta_packet.hpp>

#include <boost/describe/enum.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace pe {

struct Quat {
    float x = 0, y = 0, z = 0, w = 1;
};
NETSER_STRUCT(Quat, x, y, z, w)

struct Tagged {
    std::uint16_t tag = 0;
    bool moving = false;
};
NETSER_STRUCT(Tagged, (tag, netser::range(0, 4095)), moving)

// A rotation held as its smallest-three codes (netser::smallest_three_codes).
struct Codes {
    std::uint16_t largest = 3, a = 255, b = 255, c = 255;
};
NETSER_STRUCT(Codes, largest, a, b, c)

// A base, and only_if on the base's flag (predicted only when every baseline sent it).
struct Piece : Tagged {
    std::uint16_t id = 0;
    std::int32_t x = 0;
    float height = 0;
    Quat rot;
    bool resting = false;
    float vx = 0;
    Codes spin;
};
NETSER_DERIVED_STRUCT(Piece, (Tagged), (id, netser::range(0, 4095)), (x, netser::range(-100000, 100000)),
                      (height, netser::quantize(-50.f, 50.f, 0.01f)), (rot, netser::smallest_three(9)), resting,
                      (vx, netser::quantize(-50.f, 50.f, 0.01f), netser::only_if(&Piece::moving)),
                      (spin, netser::smallest_three_codes(511, netser::delta_ladder(2, 4, 8, 32).ladder)))

// A vector-like described struct whose components take the member's attributes, and a
// plain aggregate (Boost.PFR) that does the same.
struct V2 {
    float x = 0, y = 0;
};
NETSER_STRUCT(V2, x, y)
struct Vec3 {
    float x = 0, y = 0, z = 0;
};

struct Idle {
    bool sleeping = false;
};
NETSER_STRUCT(Idle, sleeping)

struct Move {
    std::uint16_t speed = 0;
};
NETSER_STRUCT(Move, (speed, netser::range(0, 500)))

enum class Kind : std::uint8_t { walker, flyer, swimmer };
BOOST_DESCRIBE_ENUM(Kind, walker, flyer, swimmer)

struct Scene {
    std::uint32_t tick = 0;
    float heading = 0;
    Quat facing;
    std::vector<Piece> pieces;
    std::vector<std::int16_t> samples;
    std::array<float, 3> velocity{};
    std::optional<std::uint8_t> target;
    std::variant<Idle, Move> mode;
    std::string label;
    Kind kind = Kind::walker;
    std::uint16_t y = 0;
    V2 aim;
    Vec3 drift;
    float temp = 0;
    std::vector<float> speeds;
    std::uint16_t after = 0;
    Codes turn;
};
NETSER_STRUCT(Scene, (tick, netser::range(0u, 1000000u), netser::predict_linear),
              (heading, netser::quantize(-180.f, 180.f, 0.05f), netser::predict_linear(3, 4)),
              (facing, netser::smallest_three(10), netser::predict_linear),
              (pieces, netser::max_size(10), netser::predict_linear),
              (samples, netser::max_size(6), netser::range(-1000, 1000), netser::predict_linear),
              (velocity, netser::quantize(-20.f, 20.f, 0.01f), netser::predict_linear(1, 2)),
              (target, netser::range(0, 200)), mode, (label, netser::max_length(12)), kind,
              (y, netser::range(0, 1000)),
              (aim, netser::quantize(-10.f, 10.f, 0.01f), netser::predict_linear),
              (drift, netser::quantize(-100.f, 100.f, 0.5f), netser::predict_linear),
              (temp, netser::quantize(-40.f, 60.f, 0.5f), netser::common(20.5f), netser::predict_linear),
              (speeds, netser::max_size(4), netser::quantize(0.f, 20.f, 0.05f), netser::finite),
              (after, netser::check("scene"), netser::range(0, 100)),
              (turn, netser::smallest_three_codes(1022), netser::predict_linear))

struct Npc {
    std::uint32_t id = 0;
    std::uint8_t hp = 0;
    bool alive = true;
};
NETSER_STRUCT(Npc, (id, netser::range(0u, 100000u)), (hp, netser::range(0, 100)), alive)

struct Crowd {
    std::map<std::uint16_t, Npc> stores;
    std::unordered_map<std::uint16_t, std::int16_t> scores;
    std::set<std::int16_t> tags;
    std::vector<Npc> npcs;
    std::array<std::optional<std::uint8_t>, 12> pads;
    std::vector<std::optional<std::uint8_t>> flags; // (a std::vector<bool> does not compile in predicted_baseline)
    std::vector<Npc> line;
    std::uint16_t counter = 0;
};
NETSER_STRUCT(Crowd, (stores, netser::max_size(6)), (scores, netser::max_size(6), netser::range(-100, 100)),
              (tags, netser::max_size(6)), (npcs, netser::max_size(8), netser::keyed(&Npc::id), netser::predict_linear),
              (pads, netser::sparse, netser::range(0, 200)), (flags, netser::max_size(8), netser::range(0, 3)),
              (line, netser::max_size(5), netser::predict_linear),
              (counter, netser::range(0, 60000), netser::predict_linear))

// ---- seeded scenes ----------------------------------------------------------------------

struct rng {
    std::mt19937 g;
    explicit rng(unsigned seed) : g(seed) {}
    int between(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); }
    bool chance(int percent) { return between(0, 99) < percent; }
    float real(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(g); }
};

Quat turned(float ax, float ay, float az, float angle) {
    const float n = std::sqrt(ax * ax + ay * ay + az * az);
    const float s = std::sin(angle / 2) / n;
    return {ax * s, ay * s, az * s, std::cos(angle / 2)};
}

// A rotation's smallest-three codes of [0, max_code] (Fiedler's: the largest |component|
// left out, the whole negated when it is negative).
Codes codes_of(const Quat& q, std::uint16_t max_code) {
    const float c[4] = {q.x, q.y, q.z, q.w};
    std::uint16_t largest = 0;
    for (std::uint16_t i = 1; i < 4; ++i)
        if (std::fabs(c[i]) > std::fabs(c[largest])) largest = i;
    const float sign = c[largest] < 0 ? -1.f : 1.f;
    std::uint16_t codes[3]{};
    for (std::uint16_t i = 0, k = 0; i < 4; ++i) {
        if (i == largest) continue;
        const float unit = (sign * c[i] + 0.70710678f) / 1.41421356f;
        codes[k++] = static_cast<std::uint16_t>(std::clamp(std::lround(unit * max_code), 0L, static_cast<long>(max_code)));
    }
    return {largest, codes[0], codes[1], codes[2]};
}

struct spinner { // a rotation about an axis at a rate, changed now and then
    float ax = 0, ay = 0, az = 1, angle = 0, rate = 0.02f;
    void step(rng& r) {
        if (r.chance(5)) {
            ax = r.real(-1, 1);
            ay = r.real(-1, 1);
            az = r.real(0.2f, 1);
        }
        if (r.chance(10)) rate = r.real(-0.08f, 0.08f);
        angle += rate;
    }
    Quat value() const { return turned(ax, ay, az, angle); }
};

std::vector<Scene> scenes(unsigned seed, std::size_t frames) {
    rng r(seed);
    std::vector<Scene> out;
    Scene s;
    s.tick = 1000;
    float heading_rate = 1.5f;
    spinner facing;
    std::vector<spinner> spins;
    std::vector<int> speeds;
    std::uint16_t next_id = 1;
    const char* labels[] = {"", "a", "grass", "river bank", "ice"};
    for (std::size_t n = 0; n < frames; ++n) {
        s.tick += r.chance(90) ? 3u : static_cast<std::uint32_t>(r.between(1, 40));
        if (r.chance(10)) heading_rate = r.real(-4, 4);
        s.heading += heading_rate;
        if (s.heading > 180) s.heading -= 360;
        if (s.heading < -180) s.heading += 360;
        facing.step(r);
        s.facing = facing.value();
        s.turn = codes_of(s.facing, 1022);
        if ((s.pieces.size() < 10 && r.chance(8)) || s.pieces.empty()) {
            Piece p;
            p.id = next_id++ % 4096;
            p.x = r.between(-90000, 90000);
            p.height = r.real(-40, 40);
            s.pieces.push_back(p);
            spins.push_back({r.real(-1, 1), r.real(-1, 1), r.real(0.2f, 1), r.real(0, 6), r.real(-0.05f, 0.05f)});
            speeds.push_back(r.between(-300, 300));
        } else if (s.pieces.size() > 1 && r.chance(5)) {
            const auto i = static_cast<std::size_t>(r.between(0, static_cast<int>(s.pieces.size()) - 1));
            s.pieces.erase(s.pieces.begin() + static_cast<std::ptrdiff_t>(i));
            spins.erase(spins.begin() + static_cast<std::ptrdiff_t>(i));
            speeds.erase(speeds.begin() + static_cast<std::ptrdiff_t>(i));
        }
        for (std::size_t i = 0; i < s.pieces.size(); ++i) {
            Piece& p = s.pieces[i];
            if (r.chance(10)) speeds[i] = r.between(-300, 300);
            p.x = std::clamp(p.x + speeds[i], -100000, 100000);
            p.height = std::clamp(p.height + (r.chance(70) ? 0.05f : r.real(-2, 2)), -50.f, 50.f);
            spins[i].step(r);
            p.rot = spins[i].value();
            p.spin = codes_of(p.rot, 511);
            if (r.chance(5)) p.resting = !p.resting;
            if (r.chance(6)) p.moving = !p.moving;
            if (r.chance(3)) p.tag = static_cast<std::uint16_t>(r.between(0, 4095));
            p.vx = std::clamp(p.vx + (r.chance(80) ? 0.03f : r.real(-5, 5)), -50.f, 50.f);
        }
        if (r.chance(10) && s.samples.size() < 6) s.samples.push_back(static_cast<std::int16_t>(r.between(-900, 900)));
        if (r.chance(5) && !s.samples.empty()) s.samples.pop_back();
        for (auto& v : s.samples) v = static_cast<std::int16_t>(std::clamp(v + r.between(-3, 5), -1000, 1000));
        for (float& v : s.velocity) v = std::clamp(v + (r.chance(80) ? 0.02f : r.real(-3, 3)), -20.f, 20.f);
        if (r.chance(8)) s.target = r.chance(50) ? std::optional<std::uint8_t>{} : std::optional<std::uint8_t>{static_cast<std::uint8_t>(r.between(0, 200))};
        if (r.chance(6)) s.mode = r.chance(50) ? decltype(s.mode){Idle{r.chance(50)}} : decltype(s.mode){Move{static_cast<std::uint16_t>(r.between(0, 500))}};
        else if (s.mode.index() == 1 && r.chance(30)) std::get<1>(s.mode).speed = static_cast<std::uint16_t>(r.between(0, 500));
        if (r.chance(4)) s.label = labels[r.between(0, 4)];
        if (r.chance(3)) s.kind = static_cast<Kind>(r.between(0, 2));
        if (r.chance(20)) s.y = static_cast<std::uint16_t>(r.between(0, 1000));
        s.aim.x = std::clamp(s.aim.x + 0.05f, -10.f, 10.f);
        if (r.chance(10)) s.aim.y = r.real(-10, 10);
        s.drift.x = std::clamp(s.drift.x + 1.5f, -100.f, 100.f);
        s.drift.z = std::clamp(s.drift.z - 0.5f, -100.f, 100.f);
        s.temp = r.chance(30) ? 20.5f : std::clamp(s.temp + 0.5f, -40.f, 60.f);
        if (r.chance(10) && s.speeds.size() < 4) s.speeds.push_back(r.real(0, 20));
        if (r.chance(5) && !s.speeds.empty()) s.speeds.pop_back();
        for (float& v : s.speeds) v = std::clamp(v + 0.1f, 0.f, 20.f);
        if (r.chance(10)) s.after = static_cast<std::uint16_t>(r.between(0, 100));
        out.push_back(s);
    }
    return out;
}

std::vector<Crowd> crowds(unsigned seed, std::size_t frames) {
    rng r(seed);
    std::vector<Crowd> out;
    Crowd c;
    std::uint32_t next_id = 10;
    for (std::size_t n = 0; n < frames; ++n) {
        if (r.chance(15)) c.stores[static_cast<std::uint16_t>(r.between(0, 20))] = {static_cast<std::uint32_t>(r.between(0, 100000)), static_cast<std::uint8_t>(r.between(0, 100)), r.chance(50)};
        if (r.chance(10) && !c.stores.empty()) c.stores.erase(c.stores.begin());
        if (c.stores.size() > 6) c.stores.erase(std::prev(c.stores.end()));
        if (!c.stores.empty() && r.chance(30)) c.stores.begin()->second.hp = static_cast<std::uint8_t>(r.between(0, 100));
        if (r.chance(15)) c.scores[static_cast<std::uint16_t>(r.between(0, 300))] = static_cast<std::int16_t>(r.between(-100, 100));
        if (c.scores.size() > 6 || (r.chance(8) && !c.scores.empty())) c.scores.erase(c.scores.begin());
        if (r.chance(15)) c.tags.insert(static_cast<std::int16_t>(r.between(-30, 30)));
        if (c.tags.size() > 6 || (r.chance(8) && !c.tags.empty())) c.tags.erase(c.tags.begin());
        if (c.npcs.size() < 8 && r.chance(20)) c.npcs.push_back({next_id++, static_cast<std::uint8_t>(r.between(0, 100)), true});
        if (!c.npcs.empty() && r.chance(8)) { // a swap-remove
            const auto i = static_cast<std::size_t>(r.between(0, static_cast<int>(c.npcs.size()) - 1));
            c.npcs[i] = c.npcs.back();
            c.npcs.pop_back();
        }
        for (Npc& x : c.npcs)
            if (r.chance(20)) x.hp = static_cast<std::uint8_t>(std::clamp(x.hp + r.between(-10, 10), 0, 100));
        if (r.chance(20)) {
            auto& pad = c.pads[static_cast<std::size_t>(r.between(0, 11))];
            pad = r.chance(50) ? std::optional<std::uint8_t>{} : std::optional<std::uint8_t>{static_cast<std::uint8_t>(r.between(0, 200))};
        }
        if (r.chance(10) && c.flags.size() < 8) c.flags.push_back(r.chance(30) ? std::optional<std::uint8_t>{} : std::optional<std::uint8_t>{static_cast<std::uint8_t>(r.between(0, 3))});
        if (r.chance(5) && !c.flags.empty()) c.flags.pop_back();
        if (!c.flags.empty() && r.chance(20)) c.flags[static_cast<std::size_t>(r.between(0, static_cast<int>(c.flags.size()) - 1))] = static_cast<std::uint8_t>(r.between(0, 3));
        if (r.chance(10) && c.line.size() < 5) c.line.push_back({static_cast<std::uint32_t>(r.between(0, 1000)), 50, true});
        if (r.chance(5) && !c.line.empty()) c.line.erase(c.line.begin());
        for (Npc& x : c.line) x.id = static_cast<std::uint32_t>(std::clamp(static_cast<int>(x.id) + 7, 0, 100000));
        c.counter = static_cast<std::uint16_t>((c.counter + (r.chance(90) ? 11 : r.between(0, 500))) % 60001);
        out.push_back(c);
    }
    return out;
}

// ---- cases ----------------------------------------------------------------------------

std::string hex(std::span<const std::byte> bytes) {
    std::string out;
    char b[4];
    for (std::byte x : bytes) {
        std::snprintf(b, sizeof b, "%02x", static_cast<unsigned>(x));
        out += b;
    }
    return out;
}

template <class T>
std::string plain_hex(const T& v) {
    std::vector<std::byte> out(netser::max_bytes<T>());
    netser::write_stream w(out);
    if (!netser::serialize(w, v)) throw std::runtime_error("plain write failed");
    return hex(w.finish());
}

// The rotations of a value, float bits in walk order: a prediction's rotation is what its
// predicted codes read as, which need not write back to them (near a tie the writer
// searches), so its plain encoding does not pin it.
void rotation_bits(std::string& out, const Quat& q) {
    char b[64];
    std::snprintf(b, sizeof b, "%s[\"%08x\", \"%08x\", \"%08x\", \"%08x\"]", out.size() > 1 ? ", " : "",
                  std::bit_cast<std::uint32_t>(q.x), std::bit_cast<std::uint32_t>(q.y), std::bit_cast<std::uint32_t>(q.z),
                  std::bit_cast<std::uint32_t>(q.w));
    out += b;
}
std::string rotations(const Scene& s) {
    std::string out = "[";
    rotation_bits(out, s.facing);
    for (const Piece& p : s.pieces) rotation_bits(out, p.rot);
    return out + "]";
}
std::string rotations(const Crowd&) {
    return "[]";
}

template <class T>
T received(const T& v) {
    T out;
    if (netser::as_received(v, out)) throw std::runtime_error("as_received failed");
    return out;
}

enum class coding { packed, range, trained };
const char* name_of(coding c) {
    return c == coding::packed ? "packed" : c == coding::range ? "range" : "trained";
}

// The initial baseline's frame index.
inline constexpr std::size_t initial = static_cast<std::size_t>(-1);

// The frames, sequence numbers from 65500 on, wrapping past 65535 as next_sequence does.
std::uint16_t sequence_of(std::size_t n) {
    if (n == initial) return netser::initial_sequence;
    return static_cast<std::uint16_t>((65499 + n) % 65535 + 1);
}

// A packet's baselines: frame indices, newest first; the last may be the initial
// baseline (sequence 0, a value-initialised T), which any packet may name, last.
struct naming {
    std::size_t count;
    std::array<std::size_t, 3> frames;
};

naming pick(rng& r, std::size_t n) {
    naming out{static_cast<std::size_t>(r.between(1, 3)), {}};
    std::size_t at = n - 1 - static_cast<std::size_t>(r.between(0, 3));
    for (std::size_t i = 0; i < out.count; ++i) {
        out.frames[i] = at;
        at -= 1 + static_cast<std::size_t>(r.between(0, 2));
    }
    if (r.chance(8)) out.frames[out.count - 1] = initial;
    return out;
}

template <class T>
struct exporter {
    std::string type;
    std::ofstream& out;
    const netser::range_prior& trained;

    netser::packet_options options(coding c) const {
        netser::packet_options o;
        if (c == coding::range) o.range = &netser::default_range_prior();
        if (c == coding::trained) o.range = &trained;
        return o;
    }

    // What netser's reader makes of packet against the baselines' values (newest first).
    std::string read(std::span<const std::byte> packet, coding c, const std::vector<T>& values) const {
        netser::predicted_delta_packet_reader<T> reader(packet, options(c));
        const auto failed = [](const netser::error& e) {
            return "{\"ok\": false, \"error\": \"" + std::string(netser::to_string(e.code)) + "\", \"bit\": " +
                   std::to_string(e.bit) + ", \"path\": \"" + std::string(e.path()) + "\"}";
        };
        if (reader.error()) return failed(reader.error());
        std::vector<netser::baseline_entry<T>> entries(values.size());
        std::vector<const netser::baseline_entry<T>*> named;
        for (std::size_t i = 0; i < values.size(); ++i) {
            entries[i].sequence = reader.header().baselines[i];
            entries[i].value = values[i];
            entries[i].fingerprint = *netser::baseline_fingerprint(values[i]);
            named.push_back(&entries[i]);
        }
        T msg, scratch;
        const netser::error e = reader.read(msg, named, scratch);
        if (e) return failed(e);
        return "{\"ok\": true, \"value\": \"" + plain_hex(msg) + "\", \"prediction\": \"" + plain_hex(scratch) +
               "\", \"value_rotations\": " + rotations(msg) + ", \"prediction_rotations\": " + rotations(scratch) + "}";
    }

    void add(const std::string& name, coding c, std::span<const std::byte> packet, const std::vector<T>& values) {
        out << "{\"type\": \"" << type << "\", \"name\": \"" << name << "\", \"coding\": \"" << name_of(c)
            << "\", \"hex\": \"" << hex(packet) << "\", \"baselines\": [";
        for (std::size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << '"' << plain_hex(values[i]) << '"';
        out << "], \"result\": " << read(packet, c, values) << "}\n";
    }

    std::vector<std::byte> recrc(std::vector<std::byte> p, coding c) const {
        const std::uint32_t id = netser::detail::predicted_protocol_id_of<T>(options(c));
        const std::uint32_t crc = netser::detail::packet_crc(id, std::span<const std::byte>(p).subspan(4));
        for (int i = 0; i < 4; ++i) p[static_cast<std::size_t>(i)] = static_cast<std::byte>(crc >> (8 * i));
        return p;
    }

    static void set_bits(std::vector<std::byte>& p, std::size_t at, std::uint32_t v, int n) {
        for (int i = 0; i < n; ++i) {
            const std::size_t bit = at + static_cast<std::size_t>(i);
            const auto mask = static_cast<std::byte>(1u << (bit % 8));
            p[bit / 8] = ((v >> i) & 1u) != 0 ? (p[bit / 8] | mask) : (p[bit / 8] & ~mask);
        }
    }

    // Every frame from the 12th against 1 to 3 earlier ones, in each coding; hostile ones
    // beside every fourth.
    void run(const std::vector<T>& truth, unsigned seed) {
        std::vector<T> held;
        for (const T& v : truth) held.push_back(received(v));
        const T start = received(T{});
        const auto held_at = [&](std::size_t f) -> const T& { return f == initial ? start : held[f]; };
        rng r(seed);
        for (std::size_t n = 12; n < truth.size(); ++n) {
            const naming b = pick(r, n);
            std::vector<netser::baseline_entry<T>> entries(b.count);
            std::vector<const netser::baseline_entry<T>*> named;
            std::vector<T> values;
            for (std::size_t i = 0; i < b.count; ++i) {
                const T& v = held_at(b.frames[i]);
                entries[i] = {sequence_of(b.frames[i]), v, *netser::baseline_fingerprint(v), true};
                named.push_back(&entries[i]);
                values.push_back(v);
            }
            for (coding c : {coding::packed, coding::range, coding::trained}) {
                T scratch;
                std::vector<std::byte> packet;
                const auto w = netser::write_predicted_delta_packet(packet, sequence_of(n), truth[n], named, scratch, options(c));
                if (w.error) throw std::runtime_error("write_predicted_delta_packet failed: " + std::string(w.error.path()));
                const std::string name = type + " frame " + std::to_string(n) + " " + name_of(c);
                add(name, c, packet, values);
                if (n % 4 != 0) continue;
                const std::size_t header_bytes = (32 + 18 + 16 * b.count + 32 + 7) / 8;
                // The CRC: a byte flipped, not recomputed.
                auto damaged = packet;
                damaged.back() ^= std::byte{0x10};
                add(name + " bad crc", c, damaged, values);
                // The reader holds another value under the oldest named number.
                auto wrong = values;
                wrong.back() = b.frames[b.count - 1] == initial ? held[0] : held[b.frames[b.count - 1] - 1];
                if (plain_hex(wrong.back()) != plain_hex(values.back())) add(name + " wrong baseline", c, packet, wrong);
                // The other coding's reader.
                add(name + " other coding", c == coding::packed ? coding::range : coding::packed, packet, values);
                // Forged: count field 3, two baselines swapped, numbered 0 (CRC recomputed).
                auto count3 = packet;
                set_bits(count3, 48, 3, 2);
                add(name + " forged count", c, recrc(count3, c), values);
                auto zero = packet;
                set_bits(zero, 32, 0, 16);
                add(name + " forged zero", c, recrc(zero, c), values);
                if (b.count >= 2) {
                    auto swapped = packet;
                    set_bits(swapped, 50, sequence_of(b.frames[1]), 16);
                    set_bits(swapped, 66, sequence_of(b.frames[0]), 16);
                    add(name + " forged order", c, recrc(swapped, c), values);
                }
                // Forged bodies: cut by one byte, a bit flipped, a byte appended.
                if (packet.size() > header_bytes + 1) {
                    add(name + " forged cut", c, recrc({packet.begin(), packet.end() - 1}, c), values);
                    auto cut_more = std::vector<std::byte>(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(header_bytes + (packet.size() - header_bytes) / 2));
                    add(name + " forged half", c, recrc(cut_more, c), values);
                }
                for (int k = 0; k < 3; ++k) {
                    auto flipped = packet;
                    const auto bit = static_cast<std::size_t>(r.between(static_cast<int>(8 * header_bytes), static_cast<int>(8 * packet.size()) - 1));
                    flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
                    add(name + " forged flip " + std::to_string(bit), c, recrc(flipped, c), values);
                }
                auto longer = packet;
                longer.push_back(static_cast<std::byte>(r.between(0, 255)));
                add(name + " forged extra", c, recrc(longer, c), values);
            }
        }
    }
};

// A prior trained on other frames' bodies, as delta_recording --train trains one.
template <class T>
std::vector<netser::range_prior_entry> train(const std::vector<T>& truth, unsigned seed) {
    std::vector<T> held;
    for (const T& v : truth) held.push_back(received(v));
    const T start = received(T{});
    const auto held_at = [&](std::size_t f) -> const T& { return f == initial ? start : held[f]; };
    rng r(seed);
    netser::range_statistics stats;
    std::vector<std::byte> buffer(netser::max_predicted_delta_packet_bytes<T>() + 64);
    for (std::size_t n = 12; n < truth.size(); ++n) {
        const naming b = pick(r, n);
        netser::prediction_spacing spacing;
        std::uint16_t newer = sequence_of(n);
        std::uint32_t gaps[3] = {};
        for (std::size_t i = 0; i < b.count; ++i) {
            gaps[i] = netser::sequence_distance(newer, sequence_of(b.frames[i]));
            newer = sequence_of(b.frames[i]);
        }
        spacing = {gaps[0], gaps[1], gaps[2]};
        T prediction;
        netser::predicted_baseline(prediction, spacing, held_at(b.frames[0]), b.count > 1 ? &held_at(b.frames[1]) : nullptr,
                                   b.count > 2 ? &held_at(b.frames[2]) : nullptr);
        netser::range_write_stream w(buffer);
        w.set_statistics(&stats);
        if (!netser::serialize_delta(w, truth[n], prediction)) throw std::runtime_error("training write failed");
        (void)w.finish();
    }
    return netser::trained_prior_entries(stats);
}

// The header delta_recording --write-prior writes.
void write_prior(const std::filesystem::path& path, const std::vector<netser::range_prior_entry>& entries) {
    std::ofstream f(path);
    f << "#pragma once\n\n// Trained by tests/schema/predicted_export.cpp (generated).\n\n#include <netser/range_stream.hpp>\n\n"
         "#include <array>\n\ninline constexpr std::array<netser::range_prior_entry, "
      << entries.size() << "> prior_entries{{\n";
    for (const auto& e : entries) {
        f << "    {" << e.slot << ", {";
        for (std::size_t m = 0; m < e.models.size(); ++m) {
            char b[16];
            std::snprintf(b, sizeof b, "%s0x%x", m ? "," : "", static_cast<unsigned>(e.models[m]));
            f << b;
        }
        f << "}},\n";
    }
    f << "}};\n";
}

template <class T>
void export_type(const std::filesystem::path& dir, const std::string& type, const std::vector<T>& training,
                 const std::vector<T>& truth, std::ofstream& cases) {
    std::ofstream(dir / (type + ".schema.json")) << netser::schema_json<T>() << "\n";
    const auto entries = train(training, 7);
    write_prior(dir / (type + ".prior.hpp"), entries);
    const netser::range_prior trained(entries);
    exporter<T>{type, cases, trained}.run(truth, 11);
}

} // namespace pe

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: predicted_export OUT_DIR\n";
        return 2;
    }
    try {
        const std::filesystem::path dir = std::filesystem::path(argv[1]) / "predicted";
        std::filesystem::create_directories(dir);
        std::ofstream cases(dir / "cases.jsonl");
        pe::export_type(dir, "Scene", pe::scenes(1, 120), pe::scenes(2, 90), cases);
        pe::export_type(dir, "Crowd", pe::crowds(1, 120), pe::crowds(2, 90), cases);
    } catch (const std::exception& e) {
        std::cerr << "predicted_export: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
