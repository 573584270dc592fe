// Reflection overhead in instructions: the same structs serialized by hand-written code
// and through NETSER_STRUCT, in functions that callgrind can count on their own
// (tests/benchmarks/callgrind_overhead.sh). Run without arguments it checks that both
// write byte-identical packets and read back the same values (non-zero exit if not).
//
//   overhead_bench <write|read> <hand|reflected> <s94|player> [count]

#include "reflected_types.hpp"

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
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

template <class R, class H>
R reflected_copy(const H& h) {
    R r;
    static_assert(sizeof(R) == sizeof(H));
    std::memcpy(static_cast<void*>(&r), &h, sizeof r); // same members in the same order
    return r;
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
[[gnu::noinline]] bool run_read_reflected(std::vector<T>& values, const std::vector<std::byte>& in) {
    netser::read_stream r(in);
    for (auto& v : values)
        if (!netser::serialize(r, v)) return false;
    return true;
}

template <class H, class R>
int run(const std::string& op, const std::string& kind, std::size_t n) {
    std::vector<H> hand = make_values<H>(n);
    std::vector<R> refl(n);
    for (std::size_t i = 0; i < n; ++i) refl[i] = reflected_copy<R>(hand[i]);
    std::vector<std::byte> packet(n * 16 + 16), packet2(n * 16 + 16);
    if (!run_write_hand(hand, packet)) return 2;
    bool ok = true;
    if (op == "write") ok = kind == "hand" ? run_write_hand(hand, packet2) : run_write_reflected(refl, packet2);
    else ok = kind == "hand" ? run_read_hand(hand, packet) : run_read_reflected(refl, packet);
    return ok ? 0 : 3;
}

template <class H, class R>
bool identical(const char* name, std::size_t n) {
    std::vector<H> hand = make_values<H>(n);
    std::vector<R> refl(n);
    for (std::size_t i = 0; i < n; ++i) refl[i] = reflected_copy<R>(hand[i]);
    std::vector<std::byte> a(n * 16 + 16), b(n * 16 + 16);
    if (!run_write_hand(hand, a) || !run_write_reflected(refl, b) || a != b) {
        std::printf("%s: reflected bytes differ from hand-written ones\n", name);
        return false;
    }
    std::vector<H> hand_back(n);
    std::vector<R> refl_back(n);
    if (!run_read_hand(hand_back, a) || !run_read_reflected(refl_back, a)) return false;
    for (std::size_t i = 0; i < n; ++i)
        if (std::memcmp(&hand_back[i], &refl_back[i], sizeof(H)) != 0) {
            std::printf("%s: reflected read differs at %zu\n", name, i);
            return false;
        }
    std::printf("%s: %zu structs, byte-identical writes and identical reads\n", name, n);
    return true;
}

} // namespace netser_bench

int main(int argc, char** argv) {
    using namespace netser_bench;
    if (argc < 4) {
        const bool ok = identical<S94, S94R>("S94", 10000) && identical<Player10, Player10R>("Player10", 10000);
        return ok ? 0 : 1;
    }
    const std::size_t n = argc > 4 ? std::stoul(argv[4]) : 100000;
    const std::string op = argv[1], kind = argv[2], type = argv[3];
    if (type == "s94") return run<S94, S94R>(op, kind, n);
    return run<Player10, Player10R>(op, kind, n);
}
