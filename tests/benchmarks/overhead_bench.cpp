// Reflection overhead in instructions: the same structs serialized by hand-written code
// (constexpr quantizations), by hand in the article's form (serialize_quantized with
// literal min, max and resolution) and through NETSER_STRUCT, in functions that callgrind
// can count on their own (tests/benchmarks/callgrind_overhead.sh). Run without arguments
// it checks that all write byte-identical packets and read back the same values
// (non-zero exit if not).
//
//   overhead_bench <write|read|measure> <hand|article|reflected> <s94|player|cube|mob|cubes> [count]
//   overhead_bench <write|read|measure> <hand|reflected> <arrays|points|roster|command|readme|loadout> [count]
//   overhead_bench <write|read|measure> <runtime|precomputed> s94 [count]
//
// runtime is the article's form with arguments known only at run time, precomputed the
// same with a quantization made once at run time (both counted as run_*_article).
//
// count is the number of structs (cubes for `cubes`: a vector of 64 cubes per struct,
// which has no article form). The shapes of more_shapes.hpp have no article form either.

#include "article_forms.hpp"
#include "more_shapes.hpp"
#include "reflected_types.hpp"

#include <cmath>
#include <cstdio>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace netser_bench {

template <class T>
std::vector<T> make_values(std::size_t n);

template <>
std::vector<S94> make_values<S94>(std::size_t n) {
    std::mt19937 rng(94);
    std::uniform_real_distribution<float> pos(-1000.f, 1000.f);
    std::vector<S94> v(n);
    for (auto& s : v) {
        s.x = pos(rng);
        s.y = pos(rng);
        s.z = pos(rng);
        s.health = static_cast<int>(rng() % 101);
        s.alive = (rng() & 1) != 0;
        s.id = static_cast<std::uint32_t>(rng());
    }
    return v;
}

template <>
std::vector<Player10> make_values<Player10>(std::size_t n) {
    std::mt19937 rng(10);
    std::uniform_real_distribution<float> pos(-2000.f, 2000.f), ang(-3.14f, 3.14f);
    std::vector<Player10> v(n);
    for (auto& p : v) {
        p.id = static_cast<std::uint32_t>(rng());
        p.health = static_cast<int>(rng() % 101);
        p.x = pos(rng);
        p.y = pos(rng);
        p.z = pos(rng);
        p.yaw = ang(rng);
        p.moving = (rng() & 1) != 0;
        p.crouching = (rng() & 1) != 0;
        p.weapon = static_cast<std::uint8_t>(rng() % 8);
        p.ammo = static_cast<std::uint16_t>(rng() % 1024);
    }
    return v;
}

template <>
std::vector<Cube> make_values<Cube>(std::size_t n) {
    std::mt19937 rng(901);
    std::uniform_real_distribution<float> xy(-64.f, 64.f), z(0.f, 32.f), v(-16.f, 16.f), unit(-1.f, 1.f);
    std::vector<Cube> cubes(n);
    for (auto& c : cubes) {
        c.interacting = (rng() & 1) != 0;
        c.position = {xy(rng), xy(rng), z(rng)};
        if (c.interacting) c.linear_velocity = {v(rng), v(rng), v(rng)};
        c.orientation = {unit(rng), unit(rng), unit(rng), unit(rng)};
    }
    return cubes;
}

template <>
std::vector<Cubes> make_values<Cubes>(std::size_t n) {
    const std::vector<Cube> cubes = make_values<Cube>(n);
    std::vector<Cubes> v(n / cubes_per_snapshot);
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i].cubes.assign(cubes.begin() + static_cast<std::ptrdiff_t>(i * cubes_per_snapshot),
                          cubes.begin() + static_cast<std::ptrdiff_t>((i + 1) * cubes_per_snapshot));
    return v;
}

template <>
std::vector<Mob> make_values<Mob>(std::size_t n) {
    std::mt19937 rng(77);
    std::uniform_real_distribution<float> pos(-500.f, 500.f), speed(0.f, 20.f);
    constexpr int tiers[] = {0, 50, 100, 200};
    std::vector<Mob> v(n);
    for (auto& m : v) { // about half of every common value, as a snapshot of a quiet world
        m.id = static_cast<std::uint16_t>(rng() % 4096);
        m.health = rng() % 5 < 3 ? 100 : static_cast<int>(rng() % 100);
        m.x = pos(rng);
        m.y = pos(rng);
        m.speed = (rng() & 1) != 0 ? 0.f : speed(rng);
        m.stance = static_cast<Stance>(rng() % 5);
        m.armor = (rng() & 1) != 0 ? tiers[rng() % 4] : static_cast<int>(rng() % 201);
        if ((rng() & 1) != 0) m.target = static_cast<std::uint8_t>(rng() % 64);
        m.alive = (rng() & 1) != 0;
    }
    return v;
}

// The shapes of more_shapes.hpp: random values from one seed.
template <class T>
std::vector<T> filled_values(std::size_t n) {
    std::mt19937 rng(5);
    std::vector<T> v(n);
    for (auto& e : v) fill(e, rng);
    return v;
}
template <>
std::vector<Arrays> make_values<Arrays>(std::size_t n) { return filled_values<Arrays>(n); }
template <>
std::vector<Points> make_values<Points>(std::size_t n) { return filled_values<Points>(n); }
template <>
std::vector<Roster> make_values<Roster>(std::size_t n) { return filled_values<Roster>(n); }
template <>
std::vector<Command> make_values<Command>(std::size_t n) { return filled_values<Command>(n); }
template <>
std::vector<Readme> make_values<Readme>(std::size_t n) { return filled_values<Readme>(n); }
template <>
std::vector<Loadout> make_values<Loadout>(std::size_t n) { return filled_values<Loadout>(n); }

// The reflected twin of a hand-written value: the same members in the same order
// (copied whole when they are trivially copyable).
template <class R, class H>
R reflected_copy(const H& h) {
    R r;
    if constexpr (requires { copy_to(h, r); }) {
        copy_to(h, r);
    } else {
        static_assert(sizeof(R) == sizeof(H));
        std::memcpy(static_cast<void*>(&r), &h, sizeof r);
    }
    return r;
}
template <>
CubesR reflected_copy<CubesR, Cubes>(const Cubes& h) {
    CubesR r;
    for (const Cube& c : h.cubes) r.cubes.push_back(reflected_copy<CubeR>(c));
    return r;
}

// Member by member, not the padding (which no form writes).
template <class R>
bool same_values(const S94& h, const R& r) {
    return h.x == r.x && h.y == r.y && h.z == r.z && h.health == r.health && h.alive == r.alive && h.id == r.id;
}
template <class R>
bool same_values(const Player10& h, const R& r) {
    return h.id == r.id && h.health == r.health && h.x == r.x && h.y == r.y && h.z == r.z && h.yaw == r.yaw &&
           h.moving == r.moving && h.crouching == r.crouching && h.weapon == r.weapon && h.ammo == r.ammo;
}
template <class R>
bool same_values(const Cube& h, const R& r) { // the floats, not the padding after the flag
    return h.interacting == r.interacting &&
           std::memcmp(&h.position, &r.position, sizeof h - offsetof(Cube, position)) == 0;
}
template <class R>
bool same_values(const Mob& h, const R& r) {
    return h.id == r.id && h.health == r.health && h.x == r.x && h.y == r.y && h.speed == r.speed &&
           h.stance == r.stance && h.armor == r.armor && h.target == r.target && h.alive == r.alive;
}
template <class H, class R>
    requires requires(const H& h, R& r) { copy_to(h, r); }
bool same_values(const H& h, const R& r) {
    return same_shape_values(h, r);
}
inline bool same_values(const Cubes& h, const CubesR& r) {
    if (h.cubes.size() != r.cubes.size()) return false;
    for (std::size_t i = 0; i < h.cubes.size(); ++i)
        if (!same_values(h.cubes[i], r.cubes[i])) return false;
    return true;
}

// The measured functions: one stream over all values, like a snapshot of many entities.
template <class T>
[[gnu::noinline]] bool run_write_hand(std::vector<T>& values, std::vector<std::byte>& out) {
    netser::write_stream w(out);
    for (auto& v : values)
        if (!serialize(w, v)) return false;
    w.finish();
    return true;
}
template <class T>
[[gnu::noinline]] bool run_write_article(std::vector<T>& values, std::vector<std::byte>& out) {
    netser::write_stream w(out);
    for (auto& v : values)
        if (!serialize(w, v)) return false;
    w.finish();
    return true;
}
template <class T>
[[gnu::noinline]] bool run_write_reflected(std::vector<T>& values, std::vector<std::byte>& out) {
    netser::write_stream w(out);
    for (auto& v : values)
        if (!netser::serialize(w, v)) return false;
    w.finish();
    return true;
}
template <class T>
[[gnu::noinline]] bool run_read_hand(std::vector<T>& values, const std::vector<std::byte>& in) {
    netser::read_stream r(in);
    for (auto& v : values)
        if (!serialize(r, v)) return false;
    return true;
}
template <class T>
[[gnu::noinline]] bool run_read_article(std::vector<T>& values, const std::vector<std::byte>& in) {
    netser::read_stream r(in);
    for (auto& v : values)
        if (!serialize(r, v)) return false;
    return true;
}
template <class T>
[[gnu::noinline]] bool run_read_reflected(std::vector<T>& values, const std::vector<std::byte>& in) {
    netser::read_stream r(in);
    for (auto& v : values)
        if (!netser::serialize(r, v)) return false;
    return true;
}

// Measuring: the bits all values would take (kept in a volatile, so nothing is left out).
volatile std::size_t measured_bits = 0;
template <class T>
[[gnu::noinline]] bool run_measure_hand(std::vector<T>& values) {
    netser::measure_stream m;
    for (auto& v : values)
        if (!serialize(m, v)) return false;
    measured_bits = m.bits_processed();
    return true;
}
template <class T>
[[gnu::noinline]] bool run_measure_article(std::vector<T>& values) {
    netser::measure_stream m;
    for (auto& v : values)
        if (!serialize(m, v)) return false;
    measured_bits = m.bits_processed();
    return true;
}
template <class T>
[[gnu::noinline]] bool run_measure_reflected(std::vector<T>& values) {
    netser::measure_stream m;
    for (auto& v : values)
        if (!netser::serialize(m, v)) return false;
    measured_bits = m.bits_processed();
    return true;
}

// The bytes a packet of `count` values of R can take.
template <class R>
std::size_t packet_bytes(std::size_t count) {
    return count * ((netser::max_bits<R>() + 7) / 8) + 16;
}

// A: the article's form of H (void when there is none).
template <class H, class R, class A>
int run(const std::string& op, const std::string& kind, std::size_t n) {
    std::vector<H> hand = make_values<H>(n);
    std::vector<R> refl(hand.size());
    for (std::size_t i = 0; i < hand.size(); ++i) refl[i] = reflected_copy<R>(hand[i]);
    std::vector<std::byte> packet(packet_bytes<R>(hand.size())), packet2(packet_bytes<R>(hand.size()));
    // The packet to read (not written when writing is measured: callgrind would count it).
    if (op == "read" && !run_write_hand(hand, packet)) return 2;
    bool ok = true;
    if (kind == "article") {
        if constexpr (std::is_void_v<A>) {
            return 1;
        } else {
            std::vector<A> article(hand.size());
            for (std::size_t i = 0; i < hand.size(); ++i) article[i] = reflected_copy<A>(hand[i]);
            ok = op == "write"     ? run_write_article(article, packet2)
                 : op == "measure" ? run_measure_article(article)
                                   : run_read_article(article, packet);
        }
    } else if (op == "measure") {
        ok = kind == "hand" ? run_measure_hand(hand) : run_measure_reflected(refl);
    } else if (op == "write") {
        ok = kind == "hand" ? run_write_hand(hand, packet2) : run_write_reflected(refl, packet2);
    } else {
        ok = kind == "hand" ? run_read_hand(hand, packet) : run_read_reflected(refl, packet);
    }
    return ok ? 0 : 3;
}

// Writes the values of H converted to T with write_fn, reads them back with read_fn, and
// compares with what the hand-written code wrote and read.
// R: the reflected form, whose max_bits sizes the packets.
template <class H, class R, class T, class Write, class Read>
bool same_as_hand(const char* name, const char* form, std::size_t n, Write write_fn, Read read_fn) {
    std::vector<H> hand = make_values<H>(n);
    std::vector<T> other(hand.size());
    for (std::size_t i = 0; i < hand.size(); ++i) other[i] = reflected_copy<T>(hand[i]);
    std::vector<std::byte> a(packet_bytes<R>(hand.size())), b(packet_bytes<R>(hand.size()));
    if (!run_write_hand(hand, a) || !write_fn(other, b) || a != b) {
        std::printf("%s: %s bytes differ from hand-written ones\n", name, form);
        return false;
    }
    std::vector<H> hand_back(hand.size());
    std::vector<T> other_back(hand.size());
    if (!run_read_hand(hand_back, a) || !read_fn(other_back, a)) return false;
    for (std::size_t i = 0; i < hand.size(); ++i)
        if (!same_values(hand_back[i], other_back[i])) {
            std::printf("%s: %s read differs at %zu\n", name, form, i);
            return false;
        }
    std::printf("%s: %zu structs, %s: byte-identical writes and identical reads\n", name, n, form);
    return true;
}

// Measuring counts the bits that writing takes, in every form.
template <class H, class T, bool Article>
bool same_measure(const char* name, const char* form, std::size_t n) {
    std::vector<H> hand = make_values<H>(n);
    std::vector<T> other(hand.size());
    for (std::size_t i = 0; i < hand.size(); ++i) other[i] = reflected_copy<T>(hand[i]);
    bool ok = run_measure_hand(hand);
    const std::size_t bits = measured_bits;
    if constexpr (Article) ok = ok && run_measure_article(other);
    else ok = ok && run_measure_reflected(other);
    if (!ok || measured_bits != bits) {
        std::printf("%s: %s measures %zu bits, hand-written code %zu\n", name, form, std::size_t{measured_bits}, bits);
        return false;
    }
    return true;
}

template <class H, class R, class A>
bool identical(const char* name, std::size_t n) {
    if (!same_measure<H, R, false>(name, "reflected", n)) return false;
    if constexpr (!std::is_void_v<A>)
        if (!same_measure<H, A, true>(name, "article form", n)) return false;
    const bool reflected = same_as_hand<H, R, R>(
        name, "reflected", n, [](auto& v, auto& out) { return run_write_reflected(v, out); },
        [](auto& v, auto& in) { return run_read_reflected(v, in); });
    if constexpr (std::is_void_v<A>) {
        return reflected;
    } else {
        return reflected && same_as_hand<H, R, A>(
                                name, "article form", n, [](auto& v, auto& out) { return run_write_article(v, out); },
                                [](auto& v, auto& in) { return run_read_article(v, in); });
    }
}

} // namespace netser_bench

#ifdef NETSER_REFERENCE_SERIALIZE
// Glenn Fiedler's reference `serialize` library, measured beside netser in the same
// process and on the same values (callgrind_overhead.sh with REFERENCE_SERIALIZE set to a
// checkout of it; never part of netser's build). The shapes in that library's own style: a
// template Serialize member on its macros, which must come after netser's headers (they
// are macros named like netser's primitives). Its streams read and write 32-bit words.
#include <serialize.h>

namespace netser_bench {

struct S94Reference {
    float x = 0.f, y = 0.f, z = 0.f;
    int health = 0;
    bool alive = false;
    std::uint32_t id = 0;
    template <typename Stream>
    bool Serialize(Stream& stream) {
        serialize_compressed_float(stream, x, -1000.f, 1000.f, 0.01f);
        serialize_compressed_float(stream, y, -1000.f, 1000.f, 0.01f);
        serialize_compressed_float(stream, z, -1000.f, 1000.f, 0.01f);
        serialize_int(stream, health, 0, 100);
        serialize_bool(stream, alive);
        serialize_bits(stream, id, 32);
        return true;
    }
};
inline S94Reference to_reference(const S94& h) { return {h.x, h.y, h.z, h.health, h.alive, h.id}; }
inline bool close_to(const S94& h, const S94Reference& r) {
    return std::abs(h.x - r.x) <= 0.01f && std::abs(h.y - r.y) <= 0.01f && std::abs(h.z - r.z) <= 0.01f &&
           h.health == r.health && h.alive == r.alive && h.id == r.id;
}

struct CubeReference {
    bool interacting = false;
    Vec3 position, linear_velocity;
    Quat orientation;
    template <typename Stream>
    bool Serialize(Stream& stream) {
        serialize_bool(stream, interacting);
        serialize_compressed_float(stream, position.x, -64.f, 64.f, 0.002f);
        serialize_compressed_float(stream, position.y, -64.f, 64.f, 0.002f);
        serialize_compressed_float(stream, position.z, 0.f, 32.f, 0.002f);
        if (interacting) {
            serialize_compressed_float(stream, linear_velocity.x, -16.f, 16.f, 0.01f);
            serialize_compressed_float(stream, linear_velocity.y, -16.f, 16.f, 0.01f);
            serialize_compressed_float(stream, linear_velocity.z, -16.f, 16.f, 0.01f);
        }
        serialize_compressed_float(stream, orientation.x, -1.f, 1.f, 0.004f);
        serialize_compressed_float(stream, orientation.y, -1.f, 1.f, 0.004f);
        serialize_compressed_float(stream, orientation.z, -1.f, 1.f, 0.004f);
        serialize_compressed_float(stream, orientation.w, -1.f, 1.f, 0.004f);
        return true;
    }
};
inline CubeReference to_reference(const Cube& h) {
    return {h.interacting, h.position, h.linear_velocity, h.orientation};
}
inline bool close_to(const Cube& h, const CubeReference& r) {
    auto near = [](float a, float b, float res) { return std::abs(a - b) <= res; };
    return h.interacting == r.interacting && near(h.position.x, r.position.x, 0.002f) &&
           near(h.position.y, r.position.y, 0.002f) && near(h.position.z, r.position.z, 0.002f) &&
           (!h.interacting || (near(h.linear_velocity.x, r.linear_velocity.x, 0.01f) &&
                               near(h.linear_velocity.y, r.linear_velocity.y, 0.01f) &&
                               near(h.linear_velocity.z, r.linear_velocity.z, 0.01f))) &&
           near(h.orientation.x, r.orientation.x, 0.004f) && near(h.orientation.y, r.orientation.y, 0.004f) &&
           near(h.orientation.z, r.orientation.z, 0.004f) && near(h.orientation.w, r.orientation.w, 0.004f);
}

struct RosterReference {
    std::vector<RosterEntry> entries;
    template <typename Stream>
    bool Serialize(Stream& stream) {
        int n = static_cast<int>(entries.size());
        serialize_int(stream, n, 0, 16);
        if (Stream::IsReading) entries.resize(static_cast<std::size_t>(n));
        for (RosterEntry& e : entries) {
            serialize_int(stream, e.team, 0, 3);
            serialize_int(stream, e.score, 0, 9999);
            serialize_bool(stream, e.alive);
        }
        return true;
    }
};
inline RosterReference to_reference(const Roster& h) { return {h.entries}; }
inline bool close_to(const Roster& h, const RosterReference& r) { return h.entries == r.entries; }

// The reference's streams take whole 32-bit words.
inline std::size_t reference_bytes(std::size_t bytes) { return (bytes + 7) / 8 * 8; }

template <class T>
[[gnu::noinline]] bool run_write_reference(std::vector<T>& values, std::vector<std::byte>& out) {
    serialize::WriteStream w(reinterpret_cast<std::uint8_t*>(out.data()), static_cast<std::int64_t>(out.size()));
    for (auto& v : values)
        if (!v.Serialize(w)) return false;
    w.Flush();
    return true;
}
template <class T>
[[gnu::noinline]] bool run_read_reference(std::vector<T>& values, const std::vector<std::byte>& in) {
    serialize::ReadStream r(reinterpret_cast<const std::uint8_t*>(in.data()), static_cast<std::int64_t>(in.size()));
    for (auto& v : values)
        if (!v.Serialize(r)) return false;
    return true;
}
template <class T>
[[gnu::noinline]] bool run_measure_reference(std::vector<T>& values) {
    serialize::MeasureStream m;
    for (auto& v : values)
        if (!v.Serialize(m)) return false;
    measured_bits = static_cast<std::size_t>(m.GetBitsProcessed());
    return true;
}

// Counted like run(): only the run_*_reference function of op.
template <class H, class R>
int run_reference(const std::string& op, std::size_t n) {
    const std::vector<H> hand = make_values<H>(n);
    std::vector<decltype(to_reference(hand[0]))> values;
    for (const H& h : hand) values.push_back(to_reference(h));
    std::vector<std::byte> packet(reference_bytes(packet_bytes<R>(hand.size())));
    if (op == "read" && !run_write_reference(values, packet)) return 2;
    const bool ok = op == "write" ? run_write_reference(values, packet) : op == "measure" ? run_measure_reference(values)
                                                                                          : run_read_reference(values, packet);
    return ok ? 0 : 3;
}

// The reference writes the bits netser's hand-written code writes and reads back the
// values within a resolution step (its float quantization rounds on its own).
template <class H, class R>
bool reference_round_trip(const char* name, std::size_t n) {
    std::vector<H> hand = make_values<H>(n);
    std::vector<decltype(to_reference(hand[0]))> values, back;
    for (const H& h : hand) values.push_back(to_reference(h));
    back.resize(values.size());
    std::vector<std::byte> packet(reference_bytes(packet_bytes<R>(hand.size())));
    const bool ok = run_measure_hand(hand);
    const std::size_t hand_bits = measured_bits;
    if (!ok || !run_measure_reference(values) || measured_bits != hand_bits || !run_write_reference(values, packet) ||
        !run_read_reference(back, packet)) {
        std::printf("%s: the reference library measures %zu bits, hand-written code %zu\n", name,
                    std::size_t{measured_bits}, hand_bits);
        return false;
    }
    for (std::size_t i = 0; i < hand.size(); ++i)
        if (!close_to(hand[i], back[i])) {
            std::printf("%s: the reference library reads back another value at %zu\n", name, i);
            return false;
        }
    std::printf("%s: %zu structs, reference library: the same bits, values within a step\n", name, n);
    return true;
}

} // namespace netser_bench
#endif

int main(int argc, char** argv) {
    using namespace netser_bench;
    if (argc < 4) {
        const bool ok = identical<S94, S94R, S94Article>("S94", 10000) &&
                        identical<S94, S94R, S94Runtime>("S94 (run-time arguments)", 10000) &&
                        identical<S94, S94R, S94Precomputed>("S94 (quantization made at run time)", 10000) &&
                        identical<Player10, Player10R, Player10Article>("Player10", 10000) &&
                        identical<Cube, CubeR, CubeArticle>("Cube", 10000) &&
                        identical<Mob, MobR, MobArticle>("Mob (common values)", 10000) &&
                        identical<Cubes, CubesR, void>("Cubes (cubes)", 10048) &&
                        identical<Arrays, ArraysR, void>("Arrays", 10000) &&
                        identical<Points, PointsR, void>("Points (a vector of structs)", 10000) &&
                        identical<Roster, RosterR, void>("Roster (a vector of small structs)", 10000) &&
                        identical<Command, CommandR, void>("Command (a variant)", 10000) &&
                        identical<Readme, ReadmeR, void>("Readme (the README's Player)", 10000) &&
                        identical<Loadout, LoadoutR, void>("Loadout (optional struct, string, vector)", 10000);
#ifdef NETSER_REFERENCE_SERIALIZE
        return ok && reference_round_trip<S94, S94R>("S94", 10000) && reference_round_trip<Cube, CubeR>("Cube", 10000) &&
                       reference_round_trip<Roster, RosterR>("Roster", 10000)
                   ? 0
                   : 1;
#else
        return ok ? 0 : 1;
#endif
    }
    const std::size_t n = argc > 4 ? std::stoul(argv[4]) : 100000;
    const std::string op = argv[1], kind = argv[2], type = argv[3];
#ifdef NETSER_REFERENCE_SERIALIZE
    if (kind == "reference" && type == "s94") return run_reference<S94, S94R>(op, n);
    if (kind == "reference" && type == "cube") return run_reference<Cube, CubeR>(op, n);
    if (kind == "reference" && type == "roster") return run_reference<Roster, RosterR>(op, n);
#endif
    // The article's form with run-time arguments, and the same with a quantization made
    // once at run time (S94 only; counted as `article`).
    if (type == "s94" && kind == "runtime") return run<S94, S94R, S94Runtime>(op, "article", n);
    if (type == "s94" && kind == "precomputed") return run<S94, S94R, S94Precomputed>(op, "article", n);
    if (type == "s94") return run<S94, S94R, S94Article>(op, kind, n);
    if (type == "player") return run<Player10, Player10R, Player10Article>(op, kind, n);
    if (type == "cube") return run<Cube, CubeR, CubeArticle>(op, kind, n);
    if (type == "mob") return run<Mob, MobR, MobArticle>(op, kind, n);
    if (type == "arrays") return run<Arrays, ArraysR, void>(op, kind, n);
    if (type == "points") return run<Points, PointsR, void>(op, kind, n);
    if (type == "roster") return run<Roster, RosterR, void>(op, kind, n);
    if (type == "command") return run<Command, CommandR, void>(op, kind, n);
    if (type == "readme") return run<Readme, ReadmeR, void>(op, kind, n);
    if (type == "loadout") return run<Loadout, LoadoutR, void>(op, kind, n);
    if (type == "cubes") return run<Cubes, CubesR, void>(op, kind, n);
    std::printf("unknown type %s\n", type.c_str());
    return 1;
}
