// The main demo's world (samples/snapshot/cube_world, on ODE): determinism per seed (the
// same seed twice gives the same bits and the same recording, another seed another
// recording, from the same initial state), the quantization bounds, the player's rolling
// and gathering, and, over 2837 frames (the length of Fiedler's data set, tagged
// [long]: the valgrind job leaves it out), the activity issue 30 asks for: a mean of at
// least 100 cubes differing from the frame six earlier, at least 25% of the changed
// positions changing z, at least 8% of the changed orientations switching the
// smallest-three largest component.

#include "change_counter.hpp"
#include "cube_world.hpp"
#include "recording.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace snapshot;

namespace {

bool same_bits(const Body& a, const Body& b) {
    return std::memcmp(&a.position, &b.position, sizeof a.position) == 0 &&
           std::memcmp(&a.linear_velocity, &b.linear_velocity, sizeof a.linear_velocity) == 0 &&
           std::memcmp(&a.angular_velocity, &b.angular_velocity, sizeof a.angular_velocity) == 0 &&
           std::memcmp(&a.orientation, &b.orientation, sizeof a.orientation) == 0 && a.awake == b.awake;
}

bool same_world(const CubeWorld& a, const CubeWorld& b) {
    for (std::size_t i = 0; i < cube_count; ++i)
        if (!same_bits(a.bodies()[i], b.bodies()[i])) return false;
    return true;
}

// A file in the temporary folder (the valgrind job runs this from the source tree).
std::string temporary_path(const char* name) {
    return (std::filesystem::temp_directory_path() /
            ("netser_scene_test_" + std::to_string(std::random_device{}()) + "_" + name + ".bin"))
        .string();
}

std::vector<char> read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The demo's --record of `frames` frames (the initial state first) of the world with this
// seed, as the server writes it.
std::vector<char> recording(std::uint32_t seed, std::size_t frames) {
    const std::string path = temporary_path("recording");
    {
        CubeWorld world(seed);
        recording_writer out(path);
        auto snapshot = std::make_unique<DeltaSnapshot>();
        auto received = std::make_unique<DeltaSnapshot>();
        for (std::size_t n = 0; n < frames; ++n) {
            if (n > 0) world.step();
            for (std::size_t i = 0; i < cube_count; ++i) snapshot->cubes[i] = to_delta(world.state(i));
            REQUIRE_FALSE(netser::as_received(*snapshot, *received));
            out.write(*received);
        }
        REQUIRE(out.ok());
    }
    std::vector<char> bytes = read_all(path);
    std::filesystem::remove(path);
    return bytes;
}

// Whether body i's state is inside the quantization bounds, with the world's margins:
// walls at +-60 m, heights in [0, 30] m, speeds at most 15 m/s per axis.
bool in_bounds(const CubeWorld& world, std::size_t i) {
    const Body& b = world.bodies()[i];
    const vec3& v = world.state(i).linear_velocity;
    return std::fabs(b.position.x) <= 60.f && std::fabs(b.position.y) <= 60.f && b.position.z >= 0.f &&
           b.position.z <= 30.f && std::fabs(v.x) <= 15.f && std::fabs(v.y) <= 15.f && std::fabs(v.z) <= 15.f;
}

} // namespace

TEST_CASE("the scene is deterministic: the same seed gives the same bits, from one initial state",
          "[demo][scene]") {
    // Stepped in turn: each world keeps ODE's random source for itself.
    CubeWorld a, b, other(CubeWorld::default_seed + 1);
    CHECK(same_world(a, b));
    CHECK(same_world(a, other)); // the seed drives the player, not the layout
    bool other_differs = false;
    for (int tick = 0; tick < 60; ++tick) {
        a.step();
        b.step();
        other.step();
        INFO("tick " << tick);
        REQUIRE(same_world(a, b));
        REQUIRE(a.state_hash() == b.state_hash());
        other_differs = other_differs || !same_world(a, other);
    }
    CHECK(other_differs);
    CHECK(a.state_hash() != other.state_hash());
}

TEST_CASE("--seed changes the recording, the same seed gives it again", "[demo][scene]") {
    constexpr std::size_t frames = 31; // half a second
    const std::vector<char> first = recording(CubeWorld::default_seed, frames);
    REQUIRE(first.size() == frames * cube_count * 8 * 4);
    CHECK(recording(CubeWorld::default_seed, frames) == first);
    const std::vector<char> seed_1 = recording(1, frames);
    REQUIRE(seed_1.size() == first.size());
    CHECK(seed_1 != first);
    // The first frame, the initial state, is the same for every seed.
    const std::size_t frame_bytes = cube_count * 8 * 4;
    CHECK(std::equal(seed_1.begin(), seed_1.begin() + static_cast<std::ptrdiff_t>(frame_bytes), first.begin()));
}

TEST_CASE("the scene stays inside the quantization bounds; the player rolls and gathers", "[demo][scene]") {
    CubeWorld world;
    REQUIRE(world.bodies().size() == cube_count);
    const Body& player = world.bodies()[CubeWorld::player];
    for (std::size_t i = 1; i < cube_count; ++i) REQUIRE(player.radius > 2.f * world.bodies()[i].radius);

    std::size_t out_of_bounds = 0, flag_mismatches = 0, player_asleep = 0, player_turned = 0;
    std::size_t gathering = 0, cubes_up_high = 0;
    float player_highest = 0.f;
    quat last = player.orientation;
    constexpr int ticks = 4 * 60; // the first spell: it charges into the grid, gathering
    for (int tick = 0; tick < ticks; ++tick) {
        world.step();
        for (std::size_t i = 0; i < cube_count; ++i) {
            const Body& b = world.bodies()[i];
            const CubeState s = world.state(i);
            const vec3& v = s.linear_velocity;
            if (!in_bounds(world, i)) ++out_of_bounds;
            const bool at_rest_zero = v.x == 0.f && v.y == 0.f && v.z == 0.f;
            if (s.interacting != b.awake || (!b.awake && !at_rest_zero)) ++flag_mismatches;
            // A cube with its centre 1.5 m up is on another cube, on the player or in the air.
            if (i != CubeWorld::player && b.position.z > 1.5f) ++cubes_up_high;
        }
        if (!player.awake) ++player_asleep;
        if (std::memcmp(&last, &player.orientation, sizeof last) != 0) ++player_turned;
        last = player.orientation;
        player_highest = std::max(player_highest, player.position.z);
        if (world.gathering()) ++gathering;
    }
    CHECK(out_of_bounds == 0);
    CHECK(flag_mismatches == 0);
    CHECK(player_asleep == 0);
    CHECK(player_turned > ticks * 9 / 10);         // it rolls and tumbles: never at rest
    CHECK(player_highest > 1.2f * player.radius);  // on an edge or a corner, or on cubes
    CHECK(gathering > 60);                          // from the start
    CHECK(cubes_up_high > 200);                     // cubes piled on the player
    INFO("cubes ever moved: " << world.ever_moved());
    CHECK(world.ever_moved() > 100); // interaction fanned out from the player
}

TEST_CASE("the scene keeps a delta encoder busy for 2837 frames: issue 30's activity", "[demo][scene][long]") {
    CubeWorld world;
    change_counter counter;
    std::vector<CubeState> cubes(cube_count);
    std::size_t out_of_bounds = 0, gathering = 0;
    const auto add_frame = [&] {
        if (world.gathering()) ++gathering;
        for (std::size_t i = 0; i < cube_count; ++i) {
            cubes[i] = world.state(i);
            if (!in_bounds(world, i)) ++out_of_bounds;
        }
        REQUIRE(counter.add(cubes));
    };
    add_frame(); // the initial state: frame 0 of the recording
    while (world.ticks() + 1 < 2837) {
        world.step();
        add_frame();
    }
    REQUIRE(counter.frames() == 2837 - change_counter::default_distance);
    INFO("mean " << counter.mean() << " (max " << counter.max() << "), z " << 100.0 * counter.z_share()
                 << "%, largest component " << 100.0 * counter.largest_switch_share() << "%");
    CHECK(counter.mean() >= 100.0);
    CHECK(counter.mean() <= 400.0); // not a storm: most of the grid is at rest at any time
    CHECK(counter.z_share() >= 0.25);
    CHECK(counter.largest_switch_share() >= 0.08);
    CHECK(world.moving() < cube_count / 2);
    CHECK(out_of_bounds == 0);
    // Spells of both kinds, gathering most of the time.
    CHECK(gathering > 2837 / 2);
    CHECK(gathering < 2837 * 19 / 20);
}
