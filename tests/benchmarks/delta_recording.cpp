// Delta compression of a recorded snapshot stream, comparable with Glenn Fiedler's
// "Snapshot Compression" (the 901-cube demo): the recording is in the layout of that
// article's public challenge, per frame 901 records of eight little-endian int32
// (orientation_largest, the three smallest-three codes a, b, c, position x, y, z codes,
// interacting), the first frame being the initial state. samples/snapshot writes one
// with --record FILE.
//
// Every frame from the seventh on is encoded against the frame six earlier (the
// article's setting: a snapshot acknowledged a tenth of a second ago) with
// netser::serialize_delta, from a NETSER_STRUCT of the recorded codes, decoded back
// and compared with the original. Printed: kbps at 60 snapshots a second, and bits per
// changed cube split into index (which cubes changed), position, orientation and flags.
//
//   delta_recording FILE [--max-kbps K] [--fit]
//
// --max-kbps: exit non-zero when the mean is above K (ctest uses it). --fit: also
// search the ladder limits that would minimise the bits of this recording (the
// numbers behind netser::default_difference_ladder).

#include <netser/netser.hpp>
#include <netser/predicted_delta_packet.hpp>
#include <netser/range_stream.hpp>

#include "snapshot_prior.hpp" // trained on seeds 11 to 14 (tests/benchmarks/snapshot_prior.hpp)

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace recording {

inline constexpr std::size_t cube_count = 901;

// The codes as samples/snapshot records them: smallest-three codes of 9 bits, positions
// in 1/512 m (x, y codes -32768..32767 for [-64, 64) m, z 0..16383 for [0, 32) m), so
// each member costs what the demo's DeltaCube costs. Grouped as the demo's cube is (an
// orientation, a position, a flag), so an unchanged group costs one bit.
struct Orientation {
    std::int32_t largest = 0;
    std::int32_t a = 0, b = 0, c = 0;
    bool operator==(const Orientation&) const = default;
};
// The ladders the demo's DeltaCube uses (fitted to its recording with --fit).
inline constexpr auto orientation_ladder = netser::delta_ladder(2, 4, 8, 32);
inline constexpr auto position_ladder = netser::delta_ladder(32, 64, 128, 256);

NETSER_STRUCT(Orientation, (largest, netser::range(0, 3)), (a, netser::range(0, 511), orientation_ladder),
              (b, netser::range(0, 511), orientation_ladder), (c, netser::range(0, 511), orientation_ladder))

struct Position {
    std::int32_t x = 0, y = 0, z = 0;
    bool operator==(const Position&) const = default;
};
NETSER_STRUCT(Position, (x, netser::range(-32768, 32767), position_ladder),
              (y, netser::range(-32768, 32767), position_ladder), (z, netser::range(0, 16383), position_ladder))

struct Cube {
    Orientation orientation;
    Position position;
    bool interacting = false;
    bool operator==(const Cube&) const = default;
};
NETSER_STRUCT(Cube, orientation, position, interacting)

struct Frame {
    std::array<Cube, cube_count> cubes;
};
NETSER_STRUCT(Frame, cubes)

// The same codes with netser::predict_linear on every code but the largest index: the
// predicted stage sends each frame against the extrapolation of the frames six and
// seven (and eight) earlier.
struct PredictedOrientation {
    std::int32_t largest = 0;
    std::int32_t a = 0, b = 0, c = 0;
    bool operator==(const PredictedOrientation&) const = default;
};
NETSER_STRUCT(PredictedOrientation, largest, a, b, c)
struct PredictedPosition {
    std::int32_t x = 0, y = 0, z = 0;
    bool operator==(const PredictedPosition&) const = default;
};
NETSER_STRUCT(PredictedPosition, (x, netser::range(-32768, 32767), position_ladder, netser::predict_linear),
              (y, netser::range(-32768, 32767), position_ladder, netser::predict_linear),
              (z, netser::range(0, 16383), position_ladder, netser::predict_linear))
struct PredictedCube {
    PredictedOrientation orientation;
    PredictedPosition position;
    bool interacting = false;
    bool operator==(const PredictedCube&) const = default;
};
NETSER_STRUCT(PredictedCube, (orientation, netser::smallest_three_codes(511, orientation_ladder.ladder), netser::predict_linear),
              position, interacting)
struct PredictedFrame {
    std::array<PredictedCube, cube_count> cubes;
};
NETSER_STRUCT(PredictedFrame, cubes)

// The same codes with the library's default attributes (no ladders fitted): the
// baseline the entropy stage is measured against.
struct DefaultOrientation {
    std::int32_t largest = 0;
    std::int32_t a = 0, b = 0, c = 0;
    bool operator==(const DefaultOrientation&) const = default;
};
NETSER_STRUCT(DefaultOrientation, (largest, netser::range(0, 3)), (a, netser::range(0, 511)), (b, netser::range(0, 511)),
              (c, netser::range(0, 511)))
struct DefaultPosition {
    std::int32_t x = 0, y = 0, z = 0;
    bool operator==(const DefaultPosition&) const = default;
};
NETSER_STRUCT(DefaultPosition, (x, netser::range(-32768, 32767)), (y, netser::range(-32768, 32767)),
              (z, netser::range(0, 16383)))
struct DefaultCube {
    DefaultOrientation orientation;
    DefaultPosition position;
    bool interacting = false;
    bool operator==(const DefaultCube&) const = default;
};
NETSER_STRUCT(DefaultCube, orientation, position, interacting)
struct DefaultFrame {
    std::array<DefaultCube, cube_count> cubes;
};
NETSER_STRUCT(DefaultFrame, cubes)

bool load(const char* path, std::vector<Frame>& frames) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t frame_bytes = cube_count * 8 * 4;
    if (bytes.empty() || bytes.size() % frame_bytes != 0) return false;
    frames.resize(bytes.size() / frame_bytes);
    const unsigned char* p = bytes.data();
    auto next = [&p] {
        const std::uint32_t v = std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
                                std::uint32_t{p[3]} << 24;
        p += 4;
        return static_cast<std::int32_t>(v);
    };
    for (Frame& f : frames) {
        for (Cube& c : f.cubes) {
            c.orientation.largest = next();
            c.orientation.a = next();
            c.orientation.b = next();
            c.orientation.c = next();
            c.position.x = next();
            c.position.y = next();
            c.position.z = next();
            c.interacting = next() != 0;
        }
    }
    return true;
}

// A frame in another description of the same codes.
template <class F>
F converted(const Frame& f) {
    F p;
    for (std::size_t i = 0; i < cube_count; ++i) {
        const Cube& c = f.cubes[i];
        auto& o = p.cubes[i];
        o.orientation.largest = c.orientation.largest;
        o.orientation.a = c.orientation.a;
        o.orientation.b = c.orientation.b;
        o.orientation.c = c.orientation.c;
        o.position.x = c.position.x;
        o.position.y = c.position.y;
        o.position.z = c.position.z;
        o.interacting = c.interacting;
    }
    return p;
}

} // namespace recording

namespace {

using recording::Frame;

constexpr std::size_t frames_back = 6;
constexpr double snapshots_per_second = 60;

double row_mean(const std::vector<netser::profile_row>& rows, const std::string& path) {
    for (const auto& r : rows)
        if (r.path == path) return r.mean;
    return 0;
}

// The difference ladder's cost for a set of code differences, with the codes of [0, max].
std::size_t ladder_bits(const std::vector<std::uint64_t>& magnitudes, std::uint64_t max_code,
                        const netser::difference_ladder& l) {
    const netser::detail::effective_ladder e(l, max_code);
    std::size_t total = 0;
    for (std::uint64_t m : magnitudes) total += static_cast<std::size_t>(e.cost(m, 0));
    return total;
}

// The 1- to 4-rung ladders of power-of-two limits that cost the fewest bits.
void fit(const std::vector<Frame>& frames) {
    std::map<std::string, std::vector<std::uint64_t>> magnitudes; // by member kind
    for (std::size_t n = frames_back; n < frames.size(); ++n) {
        for (std::size_t i = 0; i < recording::cube_count; ++i) {
            const auto& a = frames[n].cubes[i];
            const auto& b = frames[n - frames_back].cubes[i];
            auto add = [&](const char* kind, std::int32_t x, std::int32_t y) {
                if (x != y) magnitudes[kind].push_back(static_cast<std::uint64_t>(x > y ? x - y : y - x));
            };
            add("position", a.position.x, b.position.x);
            add("position", a.position.y, b.position.y);
            add("position", a.position.z, b.position.z);
            if (a.orientation.largest == b.orientation.largest) {
                add("orientation", a.orientation.a, b.orientation.a);
                add("orientation", a.orientation.b, b.orientation.b);
                add("orientation", a.orientation.c, b.orientation.c);
            }
        }
    }
    const std::map<std::string, std::uint64_t> max_code{{"position", 65535}, {"orientation", 511}};
    // The 1- to 4-rung ladder of power-of-two limits with the fewest bits(ladder).
    const auto best_ladder = [](const std::function<std::size_t(const netser::difference_ladder&)>& bits_of) {
        netser::difference_ladder best{};
        std::size_t best_bits = ~std::size_t{0};
        for (int rungs = 1; rungs <= 4; ++rungs) {
            int e[4] = {0, 0, 0, 0};
            std::function<void(int, int)> search = [&](int j, int from) {
                if (j == rungs) {
                    netser::difference_ladder l;
                    for (int k = 0; k < rungs; ++k) l.limit[l.rungs++] = std::uint64_t{1} << e[k];
                    const std::size_t bits = bits_of(l);
                    if (bits < best_bits) best_bits = bits, best = l;
                    return;
                }
                for (int x = from; x <= 16; ++x) {
                    e[j] = x;
                    search(j + 1, x + 1);
                }
            };
            search(0, 0);
        }
        return std::pair{best, best_bits};
    };
    const auto report = [](const char* kind, std::size_t count, const netser::difference_ladder& best,
                           std::size_t best_bits, std::size_t default_bits) {
        std::printf("  %-12s %8zu differences: best", kind, count);
        for (int k = 0; k < best.rungs; ++k) std::printf(" %llu", static_cast<unsigned long long>(best.limit[k]));
        std::printf(" (%.2f bits each); the default:", static_cast<double>(best_bits) / static_cast<double>(count));
        for (int k = 0; k < netser::default_difference_ladder.rungs; ++k)
            std::printf(" %llu", static_cast<unsigned long long>(netser::default_difference_ladder.limit[k]));
        std::printf(" (%.2f bits each)\n", static_cast<double>(default_bits) / static_cast<double>(count));
    };
    std::printf("\nladder fit (power-of-two limits, fewest bits over this recording):\n");
    const auto all_bits = [&](const netser::difference_ladder& l) {
        std::size_t bits = 0;
        for (const auto& [kind, ms] : magnitudes) bits += ladder_bits(ms, max_code.at(kind), l);
        return bits;
    };
    std::size_t count = 0;
    for (const auto& entry : magnitudes) {
        // (not structured bindings: clang 14 cannot capture them in a lambda)
        const std::string& kind = entry.first;
        const std::vector<std::uint64_t>& ms = entry.second;
        const std::uint64_t max = max_code.at(kind);
        const auto [best, bits] = best_ladder([&](const auto& l) { return ladder_bits(ms, max, l); });
        report(kind.c_str(), ms.size(), best, bits, ladder_bits(ms, max, netser::default_difference_ladder));
        count += ms.size();
    }
    const auto [best, bits] = best_ladder(all_bits);
    report("one for all", count, best, bits, all_bits(netser::default_difference_ladder));
}

} // namespace

enum class coder { bit_packed, range_coded };

// What a stage costs per frame: all its bits, and split into the list of changed cubes
// (index), positions, orientations and the rest (flags: changed bits, interacting).
struct stage_cost {
    double bits = -1; // negative: a frame did not decode back
    double index = 0, position = 0, orientation = 0, flags = 0;
};

// The split of a path's bits (the path without its root: "cubes[].position.x").
void add_to_split(stage_cost& c, std::string_view path, double bits) {
    if (path.rfind("cubes[].position", 0) == 0) c.position += bits;
    else if (path.rfind("cubes[].orientation", 0) == 0) c.orientation += bits;
    else if (path.rfind("cubes[]", 0) == 0) c.flags += bits;
    else c.index += bits;
}

// A stage: every frame from `baselines` + 5 on, against the prediction from the frames
// 6 (7, 8) earlier (one baseline: the frame 6 earlier itself), bit-packed or
// range-coded (models from `prior`, reset every frame); each frame decoded back and
// compared. With `statistics`, the range coder's bits are counted per model (training).
template <class F>
stage_cost stage(const std::vector<Frame>& frames, std::size_t baselines, coder c,
                 const netser::range_prior& prior = netser::default_range_prior(),
                 netser::range_statistics* statistics = nullptr) {
    std::vector<F> p;
    p.reserve(frames.size());
    for (const Frame& f : frames) p.push_back(recording::converted<F>(f));
    std::vector<std::byte> buffer(netser::max_delta_bytes<F>() + 64);
    auto prediction = std::make_unique<F>();
    auto decoded = std::make_unique<F>();
    std::size_t bits = 0, encoded = 0;
    netser::profile_stream profile;
    netser::range_statistics own;
    netser::range_statistics& st = statistics != nullptr ? *statistics : own;
    const netser::prediction_spacing spacing{frames_back, baselines > 1 ? 1u : 0u, baselines > 2 ? 1u : 0u};
    stage_cost cost;
    for (std::size_t n = frames_back + baselines - 1; n < p.size(); ++n) {
        const F* older = baselines > 1 ? &p[n - frames_back - 1] : nullptr;
        const F* oldest = baselines > 2 ? &p[n - frames_back - 2] : nullptr;
        netser::predicted_baseline(*prediction, spacing, p[n - frames_back], older, oldest);
        if (c == coder::bit_packed) {
            netser::write_stream w(buffer.data(), buffer.size());
            if (!netser::serialize_delta(w, p[n], *prediction)) return {};
            bits += w.bits_processed();
            const auto bytes = w.finish();
            netser::read_stream r(bytes.data(), bytes.size());
            if (!netser::serialize_delta(r, *decoded, *prediction) || decoded->cubes != p[n].cubes) return {};
            if (!profile.profile_delta(p[n], *prediction)) return {};
        } else {
            netser::range_write_stream w(buffer, prior);
            w.set_statistics(&st);
            if (!netser::serialize_delta(w, p[n], *prediction)) return {};
            const auto bytes = w.finish();
            bits += bytes.size() * 8;
            netser::range_read_stream r(bytes, prior);
            if (!netser::serialize_delta(r, *decoded, *prediction) || decoded->cubes != p[n].cubes ||
                !r.ended_cleanly())
                return {};
        }
        ++encoded;
    }
    const double frames_coded = static_cast<double>(encoded);
    cost.bits = static_cast<double>(bits) / frames_coded;
    if (c == coder::bit_packed) {
        const auto rows = profile.rows();
        const std::string root = rows.empty() ? "" : rows.front().path;
        const double elements = row_mean(rows, root + ".cubes[]");
        cost.position = row_mean(rows, root + ".cubes[].position");
        cost.orientation = row_mean(rows, root + ".cubes[].orientation");
        cost.flags = elements - cost.position - cost.orientation;
        cost.index = row_mean(rows, root) - elements;
    } else if (statistics == nullptr) { // (training mixes recordings: no split)
        stage_cost ideal;
        double total = 0;
        for (const auto& [path, b] : own.bits_by_path) {
            add_to_split(ideal, path, b);
            total += b;
        }
        // The coder's bytes, shared out as the ideal code lengths are.
        const double scale = total > 0 ? cost.bits * frames_coded / total : 0;
        cost.index = ideal.index * scale / frames_coded;
        cost.position = ideal.position * scale / frames_coded;
        cost.orientation = ideal.orientation * scale / frames_coded;
        cost.flags = ideal.flags * scale / frames_coded;
    }
    return cost;
}

bool load_list(const char* list, std::vector<std::vector<Frame>>& out) {
    std::string names(list);
    std::size_t start = 0;
    while (start <= names.size()) {
        const std::size_t comma = std::min(names.find(',', start), names.size());
        std::vector<Frame> frames;
        if (!recording::load(names.substr(start, comma - start).c_str(), frames)) return false;
        out.push_back(std::move(frames));
        start = comma + 1;
    }
    return !out.empty();
}

void write_prior(const char* path, const char* name, const std::vector<netser::range_prior_entry>& entries,
                 const char* trained_on) {
    std::FILE* f = std::fopen(path, "w");
    if (f == nullptr) return;
    std::fprintf(f, "#pragma once\n\n// The range coder's prior for delta_recording's PredictedFrame (the snapshot demo's\n"
                    "// cubes), generated by\n//   delta_recording RECORDING --train-on %s --write-prior FILE\n"
                    "// from recordings the figures are never measured on: sN.rec is the demo's world with\n"
                    "// --seed N for 2837 frames (`snapshot --seed N --seconds 47.266667 --record sN.rec`).\n"
                    "// Do not edit.\n\n"
                    "#include <netser/range_stream.hpp>\n\n#include <array>\n\n",
                 trained_on);
    std::fprintf(f, "inline constexpr std::array<netser::range_prior_entry, %zu> %s_entries{{\n", entries.size(), name);
    for (const auto& e : entries) {
        std::fprintf(f, "    {%u, {", static_cast<unsigned>(e.slot));
        for (std::size_t m = 0; m < e.models.size(); ++m) std::fprintf(f, "%s0x%x", m ? "," : "", e.models[m]);
        std::fprintf(f, "}},\n");
    }
    std::fprintf(f, "}};\n");
    std::fclose(f);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s RECORDING [--max-kbps K] [--fit]\n", argv[0]);
        return 2;
    }
    double max_kbps = 0;
    bool do_fit = false;
    const char* train_on = nullptr;
    const char* prior_path = nullptr;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--max-kbps") == 0 && i + 1 < argc) max_kbps = std::atof(argv[++i]);
        else if (std::strcmp(argv[i], "--fit") == 0) do_fit = true;
        else if (std::strcmp(argv[i], "--train-on") == 0 && i + 1 < argc) train_on = argv[++i];
        else if (std::strcmp(argv[i], "--write-prior") == 0 && i + 1 < argc) prior_path = argv[++i];
    }
    std::vector<Frame> frames;
    if (!recording::load(argv[1], frames)) {
        std::fprintf(stderr, "%s: cannot read %s as frames of %zu x 8 int32\n", argv[0], argv[1], recording::cube_count);
        return 2;
    }
    if (frames.size() <= frames_back) {
        std::fprintf(stderr, "%s: %zu frames: at least %zu needed\n", argv[0], frames.size(), frames_back + 1);
        return 2;
    }

    std::vector<std::byte> buffer(netser::max_delta_bytes<Frame>());
    std::size_t total_bits = 0, changed_cubes = 0, encoded = 0, mismatches = 0, plain_bits = 0;
    netser::profile_stream profile;
    auto decoded = std::make_unique<Frame>();
    for (std::size_t n = frames_back; n < frames.size(); ++n) {
        const Frame& now = frames[n];
        const Frame& base = frames[n - frames_back];
        netser::write_stream w(buffer.data(), buffer.size());
        if (!netser::serialize_delta(w, now, base)) {
            std::fprintf(stderr, "frame %zu: write failed: %s at %.*s\n", n, netser::to_string(w.error().code).data(),
                         static_cast<int>(w.error().path().size()), w.error().path().data());
            return 1;
        }
        total_bits += w.bits_processed();
        const auto bytes = w.finish();
        netser::read_stream r(bytes.data(), bytes.size());
        if (!netser::serialize_delta(r, *decoded, base) || decoded->cubes != now.cubes) ++mismatches;
        if (!profile.profile_delta(now, base)) ++mismatches;
        netser::measure_stream m;
        if (!netser::serialize(m, now)) ++mismatches;
        plain_bits += m.bits_processed();
        for (std::size_t i = 0; i < recording::cube_count; ++i) changed_cubes += now.cubes[i] == base.cubes[i] ? 0u : 1u;
        ++encoded;
    }
    const double frames_encoded = static_cast<double>(encoded);
    const double bits_per_frame = static_cast<double>(total_bits) / frames_encoded;
    const double kbps = bits_per_frame * snapshots_per_second / 1000.0;
    const double changed_per_frame = static_cast<double>(changed_cubes) / frames_encoded;
    const auto rows = profile.rows();
    const double cubes_row = row_mean(rows, "Frame.cubes");
    const double elements = row_mean(rows, "Frame.cubes[]");
    const double position = row_mean(rows, "Frame.cubes[].position");
    const double orientation = row_mean(rows, "Frame.cubes[].orientation");
    const double flags = elements - position - orientation; // the interacting flag and the changed flags
    const double index = row_mean(rows, "Frame") - elements; // the frame's and the list's own bits
    const double per = changed_per_frame > 0 ? 1.0 / changed_per_frame : 0;

    std::printf("recording %s: %zu frames of %zu cubes; each from frame %zu on against the frame %zu earlier\n",
                argv[1], frames.size(), recording::cube_count, frames_back, frames_back);
    std::printf("  delta: %.1f bits a frame = %.1f kbps at 60 Hz (whole frames: %.1f kbps)\n", bits_per_frame, kbps,
                static_cast<double>(plain_bits) / frames_encoded * snapshots_per_second / 1000.0);
    std::printf("  cubes changed against 6 frames earlier: %.1f a frame\n", changed_per_frame);
    std::printf("  bits per changed cube: %.1f = index %.1f + position %.1f + orientation %.1f + flags %.1f\n",
                bits_per_frame * per, index * per, position * per, orientation * per, flags * per);
    std::printf("  (the list of changed cubes: %.1f bits a frame of the cubes member's %.1f)\n", cubes_row - elements,
                cubes_row);
    std::printf("  decoded frames equal to the recording: %zu of %zu\n", encoded - mismatches, encoded);
    // Every stage, each frame decoded back and compared.
    const auto kbps_of = [](double bits) { return bits * snapshots_per_second / 1000.0; };
    const stage_cost reference = stage<recording::DefaultFrame>(frames, 1, coder::bit_packed);
    const auto line = [&](const char* what, const stage_cost& c) {
        if (c.bits < 0) {
            ++mismatches;
            std::printf("  %-52s MISMATCH\n", what);
            return;
        }
        std::printf("  %-52s %6.1f kbps %6.3fx  %5.1f = %4.1f + %4.1f + %4.1f + %4.1f\n", what, kbps_of(c.bits),
                    c.bits / reference.bits, c.bits * per, c.index * per, c.position * per, c.orientation * per,
                    c.flags * per);
    };
    std::printf("  stages: kbps at 60 Hz, x the bit-packed delta with default attributes, bits per changed cube\n"
                "  = index + position + orientation + flags (cubes changed against 6 frames earlier: %.1f)\n",
                changed_per_frame);
    line("bit-packed delta, default attributes", reference);
    line("bit-packed delta, the demo's ladders", stage<recording::Frame>(frames, 1, coder::bit_packed));
    line("bit-packed, predicted from 2 (6, 7 back)", stage<recording::PredictedFrame>(frames, 2, coder::bit_packed));
    line("bit-packed, predicted from 3 (6, 7, 8 back)", stage<recording::PredictedFrame>(frames, 3, coder::bit_packed));
    line("range-coded delta, default prior", stage<recording::PredictedFrame>(frames, 1, coder::range_coded));
    line("range-coded, predicted from 3, default prior", stage<recording::PredictedFrame>(frames, 3, coder::range_coded));
    const netser::range_prior compiled_in(snapshot_prior_entries);
    line("range-coded delta, compiled-in prior", stage<recording::PredictedFrame>(frames, 1, coder::range_coded, compiled_in));
    line("range-coded, predicted from 3, compiled-in prior",
         stage<recording::PredictedFrame>(frames, 3, coder::range_coded, compiled_in));
    if (train_on != nullptr) {
        std::vector<std::vector<Frame>> training;
        if (!load_list(train_on, training)) {
            std::fprintf(stderr, "%s: cannot read the training recordings %s\n", argv[0], train_on);
            return 2;
        }
        netser::range_statistics stats;
        for (const auto& t : training)
            if (stage<recording::PredictedFrame>(t, 3, coder::range_coded, netser::default_range_prior(), &stats).bits < 0)
                ++mismatches;
        const auto entries = netser::trained_prior_entries(stats);
        const netser::range_prior trained(entries);
        std::printf("  prior trained on %s: %zu contexts from %zu packets\n", train_on, entries.size(), stats.packets);
        line("range-coded delta, trained prior", stage<recording::PredictedFrame>(frames, 1, coder::range_coded, trained));
        line("range-coded, predicted from 3, trained prior", stage<recording::PredictedFrame>(frames, 3, coder::range_coded, trained));
        if (prior_path != nullptr) write_prior(prior_path, "snapshot_prior", entries, train_on);
    }
    if (do_fit) fit(frames);
    if (mismatches != 0) return 1;
    if (max_kbps > 0 && kbps > max_kbps) {
        std::printf("  FAIL: %.1f kbps is above %.1f\n", kbps, max_kbps);
        return 1;
    }
    return 0;
}
