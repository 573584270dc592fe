// Delta compression in instructions: serialize_delta of the 901-cube snapshot (101
// cubes changed) and of 128 units (32 changed) beside a hand-written delta of the same
// wire built on netser's core primitives (Fiedler-style: each changed element coded
// once, the fitted ladders constants), in functions that callgrind counts on their own
// (tests/benchmarks/callgrind_delta.sh). Run without arguments it checks that both
// write the same bytes and read back the same snapshot (non-zero exit if not).
//
//   delta_overhead_bench <write|read> <hand|reflected> <cubes|units> [count]
//
// count is the number of snapshots written or read (default 1,000). `units`: 128
// units of integers, a described enum and an optional, a quarter changed.

#include "delta_shapes.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using bench::Cube;
using bench::Snapshot;

// ---- the hand-written delta of the cube snapshot -----------------------------------

constexpr netser::quantization position_xy = netser::quantization::make(-64.f, 64.f, 1.f / 512.f);
constexpr netser::quantization position_z = netser::quantization::make(0.f, 32.f, 1.f / 512.f);
constexpr netser::quantization rotation_q = netser::quantization::centered_bits(0.70710678f, 9);
constexpr netser::detail::effective_ladder ladder_xy{netser::default_difference_ladder, position_xy.max_int};
constexpr netser::detail::effective_ladder ladder_z{netser::default_difference_ladder, position_z.max_int};
constexpr netser::detail::effective_ladder ladder_rotation{netser::default_difference_ladder, rotation_q.max_int};

// A cube as its codes.
struct coded_cube {
    bool interacting = false;
    std::uint64_t position[3] = {};
    netser::detail::smallest_three_fields rotation;
};

bool code_cube(const Cube& c, coded_cube& out) {
    using netser::detail::to_code;
    out.interacting = c.interacting;
    if (to_code(c.position.x, position_xy, out.position[0]) != netser::errc::none ||
        to_code(c.position.y, position_xy, out.position[1]) != netser::errc::none ||
        to_code(c.position.z, position_z, out.position[2]) != netser::errc::none)
        return false;
    const std::array<float, 4> q{c.orientation.x, c.orientation.y, c.orientation.z, c.orientation.w};
    if (!netser::detail::all_finite(q)) return false;
    out.rotation = netser::detail::smallest_three_write(q, rotation_q);
    return true;
}

bool same_codes(const coded_cube& a, const coded_cube& b) {
    return a.interacting == b.interacting && a.position[0] == b.position[0] && a.position[1] == b.position[1] &&
           a.position[2] == b.position[2] && a.rotation == b.rotation;
}

// One code: a changed bit, then its difference from the baseline's.
template <netser::stream S>
bool code_delta(S& s, std::uint64_t& code, std::uint64_t base, std::uint64_t max,
                const netser::detail::effective_ladder& ladder) {
    bool changed = code != base;
    if (!netser::serialize_bool(s, changed)) return false;
    if (!changed) {
        code = base;
        return true;
    }
    return netser::detail::serialize_difference(s, code, base, max, ladder);
}

// The body of a changed cube (the baseline's codes known).
template <netser::stream S>
bool cube_body(S& s, coded_cube& c, const coded_cube& b) {
    bool interacting_changed = c.interacting != b.interacting;
    if (!netser::serialize_bool(s, interacting_changed)) return false;
    c.interacting = interacting_changed != b.interacting;
    bool position_changed = c.position[0] != b.position[0] || c.position[1] != b.position[1] ||
                            c.position[2] != b.position[2];
    if (!netser::serialize_bool(s, position_changed)) return false;
    if (position_changed) {
        if (!code_delta(s, c.position[0], b.position[0], position_xy.max_int, ladder_xy) ||
            !code_delta(s, c.position[1], b.position[1], position_xy.max_int, ladder_xy) ||
            !code_delta(s, c.position[2], b.position[2], position_z.max_int, ladder_z))
            return false;
    } else {
        std::memcpy(c.position, b.position, sizeof c.position);
    }
    bool rotation_changed = !(c.rotation == b.rotation);
    if (!netser::serialize_bool(s, rotation_changed)) return false;
    if (!rotation_changed) {
        c.rotation = b.rotation;
        return true;
    }
    bool same_largest = c.rotation.largest == b.rotation.largest;
    if (!netser::serialize_bool(s, same_largest)) return false;
    netser::detail::smallest_three_fields from = b.rotation;
    if (!same_largest) { // the step to the new largest, and the baseline re-expressed with it
        std::uint64_t step = (c.rotation.largest - b.rotation.largest - 1) & 3u;
        if (!s.process_bits(step, 2)) return false;
        if (step > 2) return s.fail(netser::errc::out_of_range, s.bits_processed());
        c.rotation.largest = (b.rotation.largest + 1 + static_cast<std::uint32_t>(step)) & 3u;
        from = netser::detail::smallest_three_reexpress(b.rotation, c.rotation.largest, rotation_q.max_int);
    }
    c.rotation.largest = from.largest;
    for (std::size_t k = 0; k < 3; ++k) {
        std::uint64_t code = c.rotation.codes[k];
        if (!code_delta(s, code, from.codes[k], rotation_q.max_int, ladder_rotation)) return false;
        c.rotation.codes[k] = static_cast<std::uint32_t>(code);
    }
    return true;
}

void decode_cube(const coded_cube& c, Cube& out) {
    using netser::detail::from_code;
    out.interacting = c.interacting;
    (void)from_code(c.position[0], out.position.x, position_xy);
    (void)from_code(c.position[1], out.position.y, position_xy);
    (void)from_code(c.position[2], out.position.z, position_z);
    const std::array<float, 4> q = netser::detail::smallest_three_decode(c.rotation, rotation_q);
    out.orientation = {q[0], q[1], q[2], q[3]};
}

// ---- the hand-written delta of the unit snapshot -------------------------------------

using bench::Unit;
using bench::Units;

constexpr netser::detail::effective_ladder ladder_id{netser::default_difference_ladder, 65535};
constexpr netser::detail::effective_ladder ladder_state{netser::default_difference_ladder, 3};
constexpr netser::detail::effective_ladder ladder_health{netser::default_difference_ladder, 1000};
constexpr netser::detail::effective_ladder ladder_grid{netser::default_difference_ladder, 4095};
constexpr netser::detail::effective_ladder ladder_target{netser::default_difference_ladder, 1023};

// A unit as its codes: id, state, health, x + 2048, y + 2048, then the target's.
struct coded_unit {
    std::uint64_t code[5] = {};
    bool has_target = false;
    std::uint64_t target = 0;
};

bool code_unit(const Unit& u, coded_unit& out) {
    const auto state = static_cast<std::uint64_t>(u.state);
    if (state > 3 || u.health < 0 || u.health > 1000 || u.x < -2048 || u.x > 2047 || u.y < -2048 || u.y > 2047 ||
        (u.target && *u.target > 1023))
        return false;
    out = {{u.id, state, static_cast<std::uint64_t>(u.health), static_cast<std::uint64_t>(u.x + 2048),
            static_cast<std::uint64_t>(u.y + 2048)},
           u.target.has_value(),
           u.target.value_or(0)};
    return true;
}

bool same_codes(const coded_unit& a, const coded_unit& b) {
    return std::memcmp(a.code, b.code, sizeof a.code) == 0 && a.has_target == b.has_target &&
           (!a.has_target || a.target == b.target);
}

template <netser::stream S>
bool unit_body(S& s, coded_unit& c, const coded_unit& b) {
    static constexpr std::uint64_t max[5] = {65535, 3, 1000, 4095, 4095};
    static constexpr const netser::detail::effective_ladder* ladders[5] = {&ladder_id, &ladder_state, &ladder_health,
                                                                             &ladder_grid, &ladder_grid};
    for (std::size_t k = 0; k < 5; ++k)
        if (!code_delta(s, c.code[k], b.code[k], max[k], *ladders[k])) return false;
    bool target_changed = c.has_target != b.has_target || (c.has_target && c.target != b.target);
    if (!netser::serialize_bool(s, target_changed)) return false;
    if (!target_changed) {
        c.has_target = b.has_target;
        c.target = b.target;
        return true;
    }
    if (!netser::serialize_bool(s, c.has_target)) return false;
    if (!c.has_target) return true;
    if (b.has_target) return netser::detail::serialize_difference(s, c.target, b.target, 1023, ladder_target);
    if (!s.process_bits(c.target, 10)) return false;
    return c.target <= 1023 || s.fail(netser::errc::out_of_range, s.bits_processed() - 10);
}

void decode_unit(const coded_unit& c, Unit& out) {
    out.id = static_cast<std::uint16_t>(c.code[0]);
    out.state = static_cast<bench::UnitState>(c.code[1]);
    out.health = static_cast<int>(c.code[2]);
    out.x = static_cast<std::int16_t>(static_cast<int>(c.code[3]) - 2048);
    out.y = static_cast<std::int16_t>(static_cast<int>(c.code[4]) - 2048);
    if (c.has_target) out.target = static_cast<std::uint16_t>(c.target);
    else out.target.reset();
}

// ---- an array of such elements: the root's and the member's changed bits, then the
// changed elements named by relative index or by a bit each (as netser chooses) ----------

struct cube_shape {
    using snapshot = Snapshot;
    using element = Cube;
    using coded = coded_cube;
    static constexpr int count = 901;
    static auto& elements(Snapshot& x) { return x.cubes; }
    static const auto& elements(const Snapshot& x) { return x.cubes; }
    static bool equal(const Cube& a, const Cube& b) { return std::memcmp(&a, &b, sizeof a) == 0; }
    static bool code(const Cube& e, coded& c) { return code_cube(e, c); }
    template <netser::stream S>
    static bool body(S& s, coded& c, const coded& b) { return cube_body(s, c, b); }
    static void decode(const coded& c, Cube& e) { decode_cube(c, e); }
};

struct unit_shape {
    using snapshot = Units;
    using element = Unit;
    using coded = coded_unit;
    static constexpr int count = 128;
    static auto& elements(Units& x) { return x.units; }
    static const auto& elements(const Units& x) { return x.units; }
    static bool equal(const Unit& a, const Unit& b) { return a == b; }
    static bool code(const Unit& e, coded& c) { return code_unit(e, c); }
    template <netser::stream S>
    static bool body(S& s, coded& c, const coded& b) { return unit_body(s, c, b); }
    static void decode(const coded& c, Unit& e) { decode_unit(c, e); }
};

// The writer's codes of the changed elements (both sides), found in one pass.
template <class Shape>
struct changed_elements {
    int count = 0;
    int index[Shape::count];
    typename Shape::coded now[Shape::count], base[Shape::count];
};

template <class Shape>
bool hand_write(netser::write_stream& s, const typename Shape::snapshot& now, const typename Shape::snapshot& base,
                changed_elements<Shape>& c) {
    constexpr int n = Shape::count;
    c.count = 0;
    for (int i = 0; i < n; ++i) {
        const auto& a = Shape::elements(now)[static_cast<std::size_t>(i)];
        const auto& b = Shape::elements(base)[static_cast<std::size_t>(i)];
        if (Shape::equal(a, b)) continue;
        auto& x = c.now[c.count];
        auto& y = c.base[c.count];
        if (!Shape::code(a, x) || !Shape::code(b, y)) return s.fail(netser::errc::invalid_value, s.bits_processed());
        if (same_codes(x, y)) continue;
        c.index[c.count++] = i;
    }
    bool changed = c.count != 0;
    if (!netser::serialize_bool(s, changed) || !changed) return s.ok();
    if (!netser::serialize_bool(s, changed)) return false; // the member
    std::size_t cost = 0;
    int previous = -1;
    for (int k = 0; k < c.count && cost < n; ++k) {
        cost += static_cast<std::size_t>(netser::relative_index_bits(c.index[k] - previous, n));
        previous = c.index[k];
    }
    if (cost < n) cost += static_cast<std::size_t>(netser::relative_index_bits(n - previous, n));
    bool listed = cost < n;
    if (!netser::serialize_bool(s, listed)) return false;
    if (!listed) {
        for (int i = 0, k = 0; i < n; ++i) {
            bool is_changed = k < c.count && c.index[k] == i;
            if (!netser::serialize_bool(s, is_changed)) return false;
            if (is_changed && !Shape::body(s, c.now[k], c.base[k])) return false;
            k += is_changed ? 1 : 0;
        }
        return true;
    }
    previous = -1;
    for (int k = 0; k < c.count; ++k) {
        int current = c.index[k];
        if (!netser::serialize_relative_index(s, previous, current, n) || !Shape::body(s, c.now[k], c.base[k]))
            return false;
    }
    int end = n;
    return netser::serialize_relative_index(s, previous, end, n);
}

template <class Shape>
bool read_changed(netser::read_stream& s, typename Shape::element& out, const typename Shape::element& base) {
    typename Shape::coded b, c;
    if (!Shape::code(base, b)) return s.fail(netser::errc::invalid_value, s.bits_processed());
    if (!Shape::body(s, c, b)) return false;
    Shape::decode(c, out);
    return true;
}

template <class Shape>
bool hand_read(netser::read_stream& s, typename Shape::snapshot& out, const typename Shape::snapshot& base) {
    constexpr int n = Shape::count;
    auto& o = Shape::elements(out);
    const auto& b = Shape::elements(base);
    bool changed = false;
    if (!netser::serialize_bool(s, changed)) return false;
    if (changed && !netser::serialize_bool(s, changed)) return false;
    if (!changed) {
        o = b;
        return true;
    }
    bool listed = false;
    if (!netser::serialize_bool(s, listed)) return false;
    if (!listed) {
        for (std::size_t i = 0; i < n; ++i) {
            bool is_changed = false;
            if (!netser::serialize_bool(s, is_changed)) return false;
            if (!is_changed) o[i] = b[i];
            else if (!read_changed<Shape>(s, o[i], b[i])) return false;
        }
        return true;
    }
    int previous = -1;
    for (std::size_t next = 0;;) {
        int current = 0;
        if (!netser::serialize_relative_index(s, previous, current, n)) return false;
        for (const auto index = static_cast<std::size_t>(current); next < index; ++next) o[next] = b[next];
        if (current == n) return true;
        if (!read_changed<Shape>(s, o[next], b[next])) return false;
        ++next;
    }
}

// ---- the functions callgrind counts ---------------------------------------------------

// The hand-written writers' codes (25 KB for the cubes: not on the stack).
changed_elements<cube_shape> cube_scratch;
changed_elements<unit_shape> unit_scratch;

template <class Shape>
changed_elements<Shape>& scratch() {
    if constexpr (std::is_same_v<Shape, cube_shape>) return cube_scratch;
    else return unit_scratch;
}

template <class T>
std::vector<std::byte>& buffer() {
    static std::vector<std::byte> b(netser::max_delta_bytes<T>() + 16);
    return b;
}

template <class Shape>
[[gnu::noinline]] std::size_t run_write_hand(const typename Shape::snapshot& now, const typename Shape::snapshot& base,
                                             std::size_t count) {
    using T = typename Shape::snapshot;
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < count; ++i) {
        netser::write_stream w(buffer<T>().data(), buffer<T>().size());
        if (!hand_write<Shape>(w, now, base, scratch<Shape>())) std::abort();
        bytes += w.finish().size();
    }
    return bytes;
}

template <class T>
[[gnu::noinline]] std::size_t run_write_reflected(const T& now, const T& base, std::size_t count) {
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < count; ++i) {
        netser::write_stream w(buffer<T>().data(), buffer<T>().size());
        if (!netser::serialize_delta(w, now, base)) std::abort();
        bytes += w.finish().size();
    }
    return bytes;
}

template <class Shape>
[[gnu::noinline]] void run_read_hand(const std::vector<std::byte>& packet, typename Shape::snapshot& out,
                                     const typename Shape::snapshot& base, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        netser::read_stream r(packet.data(), packet.size());
        if (!hand_read<Shape>(r, out, base)) std::abort();
    }
}

template <class T>
[[gnu::noinline]] void run_read_reflected(const std::vector<std::byte>& packet, T& out, const T& base, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        netser::read_stream r(packet.data(), packet.size());
        if (!netser::serialize_delta(r, out, base)) std::abort();
    }
}

template <class T>
std::vector<std::byte> reflected_packet(const T& now, const T& base) {
    std::vector<std::byte> out(buffer<T>().size());
    netser::write_stream w(out.data(), out.size());
    if (!netser::serialize_delta(w, now, base)) std::abort();
    out.resize(w.finish().size());
    return out;
}

bool same_element(const Cube& a, const Cube& b) {
    const float fa[] = {a.position.x, a.position.y, a.position.z, a.orientation.x, a.orientation.y, a.orientation.z,
                        a.orientation.w};
    const float fb[] = {b.position.x, b.position.y, b.position.z, b.orientation.x, b.orientation.y, b.orientation.z,
                        b.orientation.w};
    return a.interacting == b.interacting && std::memcmp(fa, fb, sizeof fa) == 0;
}
bool same_element(const Unit& a, const Unit& b) { return a == b; }

template <class Shape>
bool same_snapshot(const typename Shape::snapshot& x, const typename Shape::snapshot& y) {
    for (std::size_t i = 0; i < Shape::count; ++i)
        if (!same_element(Shape::elements(x)[i], Shape::elements(y)[i])) {
            std::fprintf(stderr, "element %zu differs\n", i);
            return false;
        }
    return true;
}

// Both forms write the same bytes and read back what was written.
template <class Shape>
bool agree(const char* name, const typename Shape::snapshot& now, const typename Shape::snapshot& base) {
    using T = typename Shape::snapshot;
    const std::vector<std::byte> reflected = reflected_packet(now, base);
    netser::write_stream w(buffer<T>().data(), buffer<T>().size());
    if (!hand_write<Shape>(w, now, base, scratch<Shape>())) return false;
    const auto hand = w.finish();
    if (hand.size() != reflected.size() || std::memcmp(hand.data(), reflected.data(), hand.size()) != 0) {
        std::fprintf(stderr, "%s: the hand-written delta differs: %zu bytes against %zu\n", name, hand.size(),
                     reflected.size());
        return false;
    }
    auto a = std::make_unique<T>(), b = std::make_unique<T>();
    netser::read_stream r1(reflected.data(), reflected.size()), r2(reflected.data(), reflected.size());
    if (!hand_read<Shape>(r1, *a, base) || !netser::serialize_delta(r2, *b, base)) return false;
    if (!same_snapshot<Shape>(*a, *b) || !same_snapshot<Shape>(*a, now)) {
        std::fprintf(stderr, "%s: the hand-written delta reads another snapshot\n", name);
        return false;
    }
    std::printf("%s: %zu bytes; hand-written and reflected agree\n", name, reflected.size());
    return true;
}

template <class Shape>
int run(const std::string& op, const std::string& kind, const typename Shape::snapshot& now,
        const typename Shape::snapshot& base, std::size_t count) {
    using T = typename Shape::snapshot;
    if (op == "write") {
        const std::size_t bytes = kind == "hand" ? run_write_hand<Shape>(now, base, count)
                                                 : run_write_reflected(now, base, count);
        std::printf("%zu\n", bytes);
    } else {
        const std::vector<std::byte> packet = reflected_packet(now, base);
        auto out = std::make_unique<T>();
        if (kind == "hand") run_read_hand<Shape>(packet, *out, base, count);
        else run_read_reflected(packet, *out, base, count);
        std::printf("%d\n", same_element(Shape::elements(*out)[0], Shape::elements(now)[0]) ? 1 : 0);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    const auto& cubes = bench::cube_snapshots();
    const auto& units = bench::units();
    if (argc < 4)
        return agree<cube_shape>("cubes", *cubes.now, *cubes.base) && agree<unit_shape>("units", units.now, units.base)
                   ? 0
                   : 1;
    const std::string op = argv[1], kind = argv[2], shape = argv[3];
    const std::size_t count = argc > 4 ? std::stoul(argv[4]) : 1000;
    if ((op == "write" || op == "read") && (kind == "hand" || kind == "reflected")) {
        if (shape == "cubes") return run<cube_shape>(op, kind, *cubes.now, *cubes.base, count);
        if (shape == "units") return run<unit_shape>(op, kind, units.now, units.base, count);
    }
    std::fprintf(stderr, "usage: delta_overhead_bench <write|read> <hand|reflected> <cubes|units> [count]\n");
    return 2;
}
