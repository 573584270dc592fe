#include "cases.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <random>

namespace netser_peers {

const std::vector<S94R>& s94_input() {
    static const std::vector<S94R> v = [] {
        std::mt19937 rng(94);
        std::uniform_real_distribution<float> position(-1000.f, 1000.f);
        std::uniform_int_distribution<int> health(0, 100);
        std::vector<S94R> out(s94_count);
        for (S94R& s : out) {
            s.x = position(rng);
            s.y = position(rng);
            s.z = position(rng);
            s.health = health(rng);
            s.alive = (rng() & 1u) != 0;
            s.id = static_cast<std::uint32_t>(rng());
        }
        return out;
    }();
    return v;
}

const std::vector<S94R>& s94_expected() {
    static const std::vector<S94R> v = [] {
        std::vector<S94R> out(s94_count);
        for (std::size_t i = 0; i < s94_count; ++i)
            if (!from_codes(to_codes(s94_input()[i]), out[i])) fail("codes", "an S94 input is out of range");
        return out;
    }();
    return v;
}

namespace {

quat random_rotation(std::mt19937& rng) {
    std::normal_distribution<float> n(0.f, 1.f);
    float x = n(rng), y = n(rng), z = n(rng), w = n(rng);
    const float length = std::sqrt(x * x + y * y + z * z + w * w);
    return {x / length, y / length, z / length, w / length};
}

quat yaw(float angle) {
    return {0.f, 0.f, std::sin(angle / 2.f), std::cos(angle / 2.f)};
}

} // namespace

const Snapshot& snapshot_input() {
    static const Snapshot s = [] {
        std::mt19937 rng(901);
        std::uniform_real_distribution<float> jitter(-0.05f, 0.05f), angle(0.f, 2.f * std::numbers::pi_v<float>),
            push(-2.f, 2.f), flight(-8.f, 8.f), spread(-6.f, 6.f), height(1.f, 12.f);
        Snapshot out;
        out.cubes.reserve(cube_count);
        // 841 cubes at rest on the ground, 2 m apart; a yaw only.
        for (int row = 0; row < 29; ++row)
            for (int column = 0; column < 29; ++column) {
                CubeState c;
                c.position = {-28.f + 2.f * static_cast<float>(column) + jitter(rng),
                              -28.f + 2.f * static_cast<float>(row) + jitter(rng), 0.5f};
                c.orientation = yaw(angle(rng));
                out.cubes.push_back(c);
            }
        // 30 of them, near the corner the thrown cubes hit, pushed: moving and tilted.
        for (std::size_t i = 0; i < 30; ++i) {
            CubeState& c = out.cubes[(i / 6) * 29 + i % 6];
            c.interacting = true;
            c.position.z += 0.2f * static_cast<float>(i % 3);
            c.linear_velocity = {push(rng), push(rng), push(rng) / 2.f};
            c.orientation = random_rotation(rng);
        }
        // 60 thrown, in the air above that corner.
        for (std::size_t i = 0; i < 60; ++i) {
            CubeState c;
            c.interacting = true;
            c.position = {-22.f + spread(rng), -22.f + spread(rng), height(rng)};
            c.linear_velocity = {flight(rng), flight(rng), flight(rng)};
            c.orientation = random_rotation(rng);
            out.cubes.push_back(c);
        }
        if (out.cubes.size() != cube_count) fail("snapshot", "not 901 cubes");
        return out;
    }();
    return s;
}

const Snapshot& snapshot_expected() {
    static const Snapshot s = [] {
        Snapshot out;
        out.cubes.resize(cube_count);
        for (std::size_t i = 0; i < cube_count; ++i)
            if (!from_codes(to_codes(snapshot_input().cubes[i]), out.cubes[i]))
                fail("codes", "a cube input is out of range");
        return out;
    }();
    return s;
}

void fail(std::string_view library, std::string_view what) {
    std::fprintf(stderr, "peers_bench: %.*s: %.*s\n", static_cast<int>(library.size()), library.data(),
                 static_cast<int>(what.size()), what.data());
    std::abort();
}

} // namespace netser_peers
