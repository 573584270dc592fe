// The main demo's world (samples/snapshot/cube_world) and the measure of its activity
// (change_counter): what issue 14's delta stage relies on. The counter is checked on
// hand-made frames against its definition; the world for determinism, bounds, the
// player's rolling and the activity the demo promises (a mean of at least 80 cubes
// differing from the snapshot six frames earlier, and no storm).

#include "change_counter.hpp"
#include "cube_world.hpp"
#include "recording.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

using namespace snapshot;

namespace {

// A cube at rest each of whose coordinates lies a quarter step (0.5 mm) above the value
// of a position code: a move of 0.2 mm keeps the code, one of 2 mm changes it.
CubeState resting_cube(float x) {
    CubeState c;
    c.position = {x, 2.0005f, 0.5005f};
    c.orientation = {0.f, 0.f, 0.38268343f, 0.92387953f}; // 45 degrees about z
    return c;
}

std::vector<CubeState> three_cubes() { return {resting_cube(1.0005f), resting_cube(3.0005f), resting_cube(5.0005f)}; }

bool same_bits(const Body& a, const Body& b) {
    return std::memcmp(&a.position, &b.position, sizeof a.position) == 0 &&
           std::memcmp(&a.linear_velocity, &b.linear_velocity, sizeof a.linear_velocity) == 0 &&
           std::memcmp(&a.angular_velocity, &b.angular_velocity, sizeof a.angular_velocity) == 0 &&
           std::memcmp(&a.orientation, &b.orientation, sizeof a.orientation) == 0 && a.awake == b.awake;
}

} // namespace

TEST_CASE("change_counter compares each frame with the one six frames earlier", "[demo][scene]") {
    change_counter counter;
    REQUIRE(counter.distance() == 6);
    std::vector<CubeState> frame = three_cubes();
    const float moved_x = frame[1].position.x + 0.006f; // three steps on
    // Cube 1 moves at frame 10 and stays: frames 10..15 differ from six earlier, 16 on do not.
    for (std::size_t k = 0; k < 20; ++k) {
        if (k == 10) frame[1].position.x = moved_x;
        REQUIRE(counter.add(frame));
        if (k < 6) {
            CHECK(counter.frames() == 0);
            continue;
        }
        INFO("frame " << k);
        CHECK(counter.frames() == k - 5);
        CHECK(counter.last() == (k >= 10 && k <= 15 ? 1u : 0u));
    }
    CHECK(counter.min() == 0);
    CHECK(counter.max() == 1);
    CHECK(counter.mean() == Approx(6.0 / 14.0));
}

TEST_CASE("change_counter counts what is sent, not the floats", "[demo][scene]") {
    const std::vector<CubeState> before = three_cubes();
    const auto changed = [&](auto&& edit) {
        change_counter counter(1);
        std::vector<CubeState> after = before;
        edit(after[0]);
        REQUIRE(counter.add(before));
        REQUIRE(counter.add(after));
        REQUIRE(counter.frames() == 1);
        return counter.last();
    };
    CHECK(changed([](CubeState&) {}) == 0);
    // Inside the same 2 mm step: the same code.
    CHECK(changed([](CubeState& c) { c.position.x += 0.0002f; }) == 0);
    CHECK(changed([](CubeState& c) { c.position.z -= 0.0002f; }) == 0);
    // The velocity is not part of DeltaCube.
    CHECK(changed([](CubeState& c) { c.linear_velocity = {3.f, -2.f, 1.f}; }) == 0);
    // q and -q are one rotation and one smallest-three code.
    CHECK(changed([](CubeState& c) {
              c.orientation = {-c.orientation.x, -c.orientation.y, -c.orientation.z, -c.orientation.w};
          }) == 0);
    // A step on any axis, the flag, or a turn of a few degrees is a change.
    CHECK(changed([](CubeState& c) { c.position.x += 0.002f; }) == 1);
    CHECK(changed([](CubeState& c) { c.position.y -= 0.002f; }) == 1);
    CHECK(changed([](CubeState& c) { c.position.z += 0.002f; }) == 1);
    CHECK(changed([](CubeState& c) { c.interacting = true; }) == 1);
    CHECK(changed([](CubeState& c) { c.orientation = {0.f, 0.f, 0.41f, 0.91209649f}; }) == 1);
}

TEST_CASE("change_counter refuses a frame that does not encode and keeps its history", "[demo][scene]") {
    change_counter counter(1);
    std::vector<CubeState> frame = three_cubes();
    REQUIRE(counter.add(frame));
    std::vector<CubeState> broken = frame;
    broken[2].position.y = std::nanf("");
    CHECK_FALSE(counter.add(broken));
    CHECK(counter.frames() == 0);
    REQUIRE(counter.add(frame)); // compared with the first frame, not the broken one
    CHECK(counter.frames() == 1);
    CHECK(counter.last() == 0);
}

TEST_CASE("the scene is deterministic: the same seed gives the same bits", "[demo][scene]") {
    CubeWorld a, b, other(CubeWorld::default_seed + 1);
    bool other_differs = false;
    for (int tick = 0; tick < 300; ++tick) {
        a.step();
        b.step();
        other.step();
        other_differs = other_differs || other.state_hash() != a.state_hash();
    }
    CHECK(a.state_hash() == b.state_hash());
    for (std::size_t i = 0; i < a.bodies().size(); ++i) {
        INFO("body " << i);
        CHECK(same_bits(a.bodies()[i], b.bodies()[i]));
    }
    CHECK(other_differs);
}

TEST_CASE("the scene stays inside the quantization bounds, and the player rolls", "[demo][scene]") {
    CubeWorld world;
    REQUIRE(world.bodies().size() == cube_count);
    const Body& player = world.bodies()[CubeWorld::player];
    for (std::size_t i = 1; i < cube_count; ++i) REQUIRE(player.radius > 2.f * world.bodies()[i].radius);

    std::size_t player_turned = 0, out_of_bounds = 0, flag_mismatches = 0, not_rolling = 0, airborne = 0;
    quat last = player.orientation;
    for (int tick = 0; tick < 20 * 60; ++tick) {
        world.step();
        for (std::size_t i = 0; i < cube_count; ++i) {
            const Body& b = world.bodies()[i];
            const CubeState s = world.state(i);
            const vec3& v = b.linear_velocity;
            if (std::fabs(b.position.x) > 60.f || std::fabs(b.position.y) > 60.f || b.position.z < 0.f ||
                b.position.z > 30.f || std::fabs(v.x) > 15.f || std::fabs(v.y) > 15.f || std::fabs(v.z) > 15.f)
                ++out_of_bounds;
            const bool at_rest_zero = s.linear_velocity.x == 0.f && s.linear_velocity.y == 0.f &&
                                      s.linear_velocity.z == 0.f;
            if (s.interacting != b.awake || (!b.awake && !at_rest_zero)) ++flag_mismatches;
        }
        REQUIRE(player.awake);
        // Rolling on the ground: the contact point stands still, v + w x (0, 0, -r) = 0.
        const vec3& w = player.angular_velocity;
        const vec3& v = player.linear_velocity;
        const double r = player.radius;
        if (player.position.z > player.radius) ++airborne;
        else if (std::fabs(v.x - w.y * r) > 1e-4 || std::fabs(v.y + w.x * r) > 1e-4 || w.z != 0.f)
            ++not_rolling;
        if (std::memcmp(&last, &player.orientation, sizeof last) != 0) ++player_turned;
        last = player.orientation;
    }
    CHECK(out_of_bounds == 0);
    CHECK(flag_mismatches == 0);
    CHECK(not_rolling == 0);
    CHECK(airborne < 60); // cubes landing on it may lift it for moments
    CHECK(player_turned == 20 * 60);
}

TEST_CASE("the scene keeps a delta encoder busy, without a storm", "[demo][scene]") {
    CubeWorld world;
    change_counter counter;
    std::vector<CubeState> cubes(cube_count);
    const auto add_frame = [&] {
        for (std::size_t i = 0; i < cube_count; ++i) cubes[i] = world.state(i);
        REQUIRE(counter.add(cubes));
    };
    add_frame(); // the initial state
    for (int seconds : {1, 5, 20}) {
        while (world.ticks() < static_cast<std::size_t>(seconds) * snapshots_per_second) {
            world.step();
            add_frame();
        }
        INFO(seconds << " s: mean " << counter.mean() << ", max " << counter.max());
        CHECK(counter.mean() >= 80.0);
        CHECK(counter.mean() <= 200.0); // Fiedler's recording: roughly 100 to 150
    }
}

TEST_CASE("--record writes the challenge's eight integers per cube", "[recording]") {
    DeltaCube cube;
    cube.interacting = true;
    cube.position = {-64.f, 1.f, 0.5f}; // codes 0, 64 * 512 + 512, 256
    cube.orientation = {0.f, 0.f, 0.f, 1.f}; // w largest (index 3), the others at zero
    const auto codes = recorded_codes(cube);
    CHECK(codes[0] == 3);
    CHECK(codes[1] == codes[2]); // x, y and z of an identity rotation: one code, zero's
    CHECK(codes[2] == codes[3]);
    CHECK(codes[1] >= 255);
    CHECK(codes[1] <= 256);
    CHECK(codes[4] == -32768);
    CHECK(codes[5] == 512);
    CHECK(codes[6] == 256);
    CHECK(codes[7] == 1);

    // A frame is 901 records of 8 little-endian int32. Written to the temporary folder:
    // the valgrind job runs this from the source tree.
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("netser_scene_test_" + std::to_string(std::random_device{}()) + ".bin"))
                                 .string();
    {
        DeltaSnapshot frame;
        frame.cubes[900] = cube;
        recording_writer w(path);
        w.write(frame);
        REQUIRE(w.ok());
        CHECK(w.frames() == 1);
    }
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(bytes.size() == cube_count * 8 * 4);
    const auto at = [&](std::size_t i) {
        const auto* p = reinterpret_cast<const unsigned char*>(bytes.data()) + i * 4;
        return static_cast<std::int32_t>(std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
                                         std::uint32_t{p[3]} << 24);
    };
    for (std::size_t k = 0; k < 8; ++k) CHECK(at(900 * 8 + k) == codes[k]);
    CHECK(at(4) == 0); // cube 0 at x = 0 m: the middle code, recorded as 0
    in.close();
    std::filesystem::remove(path);
}
