// The demo's measures, without its world: change_counter (how many cubes differ from the
// frame six earlier, and how hard the changes are: z moving, the smallest-three largest
// component switching), checked on hand-made frames against its definition, and the
// eight integers per cube of --record (the snapshot-compression challenge's layout).
// No ODE here: the cross builds run these (Makefile).

#include "change_counter.hpp"
#include "recording.hpp"

#include <catch2/catch.hpp>

#include <cmath>
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

} // namespace

TEST_CASE("change_counter compares each frame with the one six frames earlier", "[demo][counter]") {
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

TEST_CASE("change_counter counts what is sent, not the floats", "[demo][counter]") {
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

TEST_CASE("change_counter refuses a frame that does not encode and keeps its history", "[demo][counter]") {
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

TEST_CASE("change_counter tells moves in z and switches of the largest component apart", "[demo][counter]") {
    std::vector<CubeState> before;
    for (int i = 0; i < 6; ++i) before.push_back(resting_cube(1.0005f + 2.f * static_cast<float>(i)));
    std::vector<CubeState> after = before;
    after[0].position.x += 0.004f;                        // a move in the plane
    after[1].position.x += 0.004f;                        // a move that also
    after[1].position.z += 0.004f;                        //   lifts it
    after[2].orientation = {0.f, 0.f, 0.41f, 0.91209649f}; // a turn: w stays the largest
    after[3].orientation = {0.f, 0.f, 0.92387953f, 0.38268343f}; // 135 degrees: z becomes the largest
    after[4].interacting = true;                          // the flag alone
    // after[5] stays

    change_counter counter(1);
    CHECK(counter.z_share() == 0.0); // nothing compared yet: no division by zero
    CHECK(counter.largest_switch_share() == 0.0);
    REQUIRE(counter.add(before));
    REQUIRE(counter.add(after));
    CHECK(counter.last() == 5);
    CHECK(counter.position_changes() == 2);
    CHECK(counter.z_changes() == 1);
    CHECK(counter.rotation_changes() == 2);
    CHECK(counter.largest_switches() == 1);
    CHECK(counter.z_share() == Approx(0.5));
    CHECK(counter.largest_switch_share() == Approx(0.5));

    // Summed over every comparison: back again is the same changes once more, then a
    // frame equal to the last adds none.
    REQUIRE(counter.add(before));
    REQUIRE(counter.add(before));
    CHECK(counter.frames() == 3);
    CHECK(counter.position_changes() == 4);
    CHECK(counter.z_changes() == 2);
    CHECK(counter.rotation_changes() == 4);
    CHECK(counter.largest_switches() == 2);
    CHECK(counter.mean() == Approx(10.0 / 3.0));
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
