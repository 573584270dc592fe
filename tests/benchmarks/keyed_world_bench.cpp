// Keyed deltas on a world of entities with random 16-bit ids (keyed_world.hpp): about 200
// alive (at most 256), 8..24 spawning and 8..24 despawning every tick, about half moving a
// little each tick and a few changing heading, health or kind. The same world in eight
// containers:
//   1  std::array<std::optional<Entity>, 256>, the lowest free slot, kept until despawn
//   2  the same with netser::sparse
//   3  std::map<std::uint16_t, Body>             (Body: Entity without its id)
//   4  std::unordered_map<std::uint16_t, Body>
//   5  std::vector<Entity> with netser::keyed(&Entity::id), kept sorted by id
//   6  the same in swap-remove order (despawn: the last element into the hole; spawn: push_back)
//   7a the plain std::vector<Entity> (no keyed), swap-remove order
//   7b the keyed vector in spawn order (erase in place, push_back)
//
// First a table of the delta bits per tick against the state 1, 3 and 10 ticks earlier as
// the reader holds it (netser::as_received), each delta written, read back and compared
// with the writer's state (its plain encoding, bit for bit) and with the as-received
// state (abort on any mismatch); then where the bits go (the keyed encodings field by
// field, the positional ones by netser::profile_stream); then Google Benchmark timings of
// serialize_delta (age 3) and serialize, write and read, per entity.
// `keyed_world_bench --benchmark_filter=none` prints only the tables.
//
// Seeds: the world's parameters were set looking at seed 1 only (`--world_seed=1` runs the
// tables on it); the tables average seeds 1001, 1002 and 1003, the timings use seed 1001.

#include "keyed_world.hpp"

#include <netser/netser.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace keyed_world_bench {

using namespace keyed_world;

constexpr std::size_t warmup_ticks = 100;
constexpr std::size_t measured_ticks = 600;
constexpr std::array<std::size_t, 3> ages = {1, 3, 10};
constexpr std::size_t history = 11; // the states of the last 10 ticks and this one
std::vector<std::uint64_t> table_seeds = {1001, 1002, 1003};
constexpr std::uint64_t timing_seed = 1001;

// The world in every form.
struct Snapshot {
    SlotWorld slot;
    SparseWorld sparse;
    MapWorld map;
    HashWorld hash;
    KeyedWorld sorted, swapped, spawned;
    PlainWorld plain_swapped;
};

constexpr std::size_t form_count = 8;
constexpr std::array<const char*, form_count> form_names = {
    "1  slot array, lowest free slot", "2  slot array, netser::sparse", "3  std::map<id, Body>",
    "4  std::unordered_map<id, Body>",  "5  keyed vector, sorted by id", "6  keyed vector, swap-remove",
    "7a plain vector, swap-remove",     "7b keyed vector, spawn order",
};

// f(row, &Snapshot::member) for every form, in the table's order.
template <class F>
void each_form(F&& f) {
    f(std::size_t{0}, &Snapshot::slot);
    f(std::size_t{1}, &Snapshot::sparse);
    f(std::size_t{2}, &Snapshot::map);
    f(std::size_t{3}, &Snapshot::hash);
    f(std::size_t{4}, &Snapshot::sorted);
    f(std::size_t{5}, &Snapshot::swapped);
    f(std::size_t{6}, &Snapshot::plain_swapped);
    f(std::size_t{7}, &Snapshot::spawned);
}

void build(const Sim& sim, const Layouts& layouts, Snapshot& s) {
    for (std::size_t i = 0; i < max_alive; ++i) {
        if (layouts.slots[i]) s.slot.slots[i] = sim.entity(*layouts.slots[i]);
        else s.slot.slots[i].reset();
    }
    s.sparse.slots = s.slot.slots;
    s.map.bodies.clear();
    s.hash.bodies.clear();
    s.sorted.list.clear();
    for (const auto& [id, mob] : sim.alive()) {
        s.map.bodies.emplace(id, Sim::body(mob));
        s.hash.bodies.emplace(id, Sim::body(mob));
        s.sorted.list.push_back(Sim::entity(mob));
    }
    s.swapped.list.clear();
    for (const std::uint16_t id : layouts.swap_order) s.swapped.list.push_back(sim.entity(id));
    s.spawned.list.clear();
    for (const std::uint16_t id : layouts.spawn_order) s.spawned.list.push_back(sim.entity(id));
    s.plain_swapped.list = s.swapped.list;
}

[[noreturn]] void fail(const std::string& what, const netser::error* e = nullptr) {
    std::fprintf(stderr, "keyed_world_bench: %s", what.c_str());
    if (e != nullptr)
        std::fprintf(stderr, ": %.*s at bit %zu (%.*s)", static_cast<int>(netser::to_string(e->code).size()),
                     netser::to_string(e->code).data(), e->bit, static_cast<int>(e->path().size()),
                     e->path().data());
    std::fprintf(stderr, "\n");
    std::abort();
}

template <class T>
void receive(const T& value, T& out) {
    if (const netser::error e = netser::as_received(value, out)) fail("as_received", &e);
}

// The plain encoding's bytes and bits. An unordered_map's iteration order is its own, so
// it is compared through a std::map with the same entries.
template <class T>
std::vector<std::byte> plain_bytes(const T& value, std::size_t& bits) {
    std::vector<std::byte> buffer(netser::max_bytes<T>());
    netser::write_stream w(buffer.data(), buffer.size());
    if (!netser::serialize(w, value)) fail("plain write", &w.error());
    bits = w.bits_processed();
    const auto packet = w.finish();
    return {packet.begin(), packet.end()};
}
std::vector<std::byte> plain_bytes(const HashWorld& value, std::size_t& bits) {
    MapWorld m;
    m.bodies.insert(value.bodies.begin(), value.bodies.end());
    return plain_bytes(m, bits);
}

template <class T>
std::size_t plain_bits(const T& value) {
    netser::measure_stream m;
    if (!netser::serialize(m, value)) fail("plain measure", &m.error());
    return m.bits_processed();
}

// The delta of `value` against `base`, written, measured, read back and compared with the
// writer's state (plain encoding, bit for bit) and with `received` (value as received).
template <class T>
std::size_t checked_delta(const T& value, const T& received, const T& base, const std::string& what) {
    static std::vector<std::byte> buffer(netser::max_delta_bytes<T>());
    netser::write_stream w(buffer.data(), buffer.size());
    if (!netser::serialize_delta(w, value, base)) fail(what + ": delta write", &w.error());
    const std::size_t bits = w.bits_processed();
    netser::measure_stream m;
    if (!netser::serialize_delta(m, value, base) || m.bits_processed() != bits) fail(what + ": delta measure");
    const auto packet = w.finish();
    netser::read_stream r(packet.data(), packet.size());
    const auto back = std::make_unique<T>();
    if (!netser::serialize_delta(r, *back, base)) fail(what + ": delta read", &r.error());
    if (r.bits_processed() != bits) fail(what + ": the read took another number of bits than the write");
    std::size_t a = 0, b = 0;
    if (plain_bytes(*back, a) != plain_bytes(value, b) || a != b)
        fail(what + ": the delta read back differs from the writer's state");
    if (!(*back == received)) fail(what + ": the delta read back differs from the state as received");
    return bits;
}

// ---- where the bits go ------------------------------------------------------------------

// The bits of one entity's delta body (a changed element's or value's): the delta of the
// struct minus its own changed bit.
template <class T>
std::size_t body_bits(const T& value, const T& base) {
    netser::measure_stream m;
    if (!netser::serialize_delta(m, value, base)) fail("body measure", &m.error());
    return m.bits_processed() - 1;
}

// A keyed container's delta, field by field (means over the ticks): see "Keyed deltas"
// in docs/wire_format.md.
struct keyed_parts {
    double total = 0;
    double index_list = 0;   // the touched list: its listing bit, changed bits or relative indices
    double removed_bits = 0; // a removed bit per touched entry
    double bodies = 0;       // the changed entries' delta bodies
    double added = 0;        // the added count and the added entries (plain)
    double order = 0;        // a keyed vector's order field
    double touched = 0, removed = 0, added_entries = 0, moves = 0;
    double order_set = 0;    // the order field were the places sent as a set (order_of)
};

struct order_cost {
    std::size_t bits = 0, moves = 0, set_bits = 0;
};

// The order field a writer sends for `v` against `base` (docs/wire_format.md, "Keyed
// deltas", 3.), worked out here from the wire's definition: checked against the bits the
// library writes. set_bits: an estimate of a cheaper wire, not netser's: the same count and
// new positions, then the moved elements' places as one ascending set (relative indices,
// from -1, max n), then for each move in turn which of the places left is its own, in
// bits_required(0, left - 1) bits; instead of each place in bits_required(0, n - 1).
order_cost order_of(const std::vector<Entity>& v, const std::vector<Entity>& base) {
    const std::size_t n = v.size();
    order_cost c;
    if (n < 2) return c;
    std::map<std::uint16_t, std::size_t> in_v;
    for (std::size_t i = 0; i < n; ++i) in_v.emplace(v[i].id, i);
    std::vector<std::size_t> q(n, n);
    std::size_t place = 0;
    for (const Entity& e : base)
        if (const auto it = in_v.find(e.id); it != in_v.end()) q[it->second] = place++;
    std::map<std::uint16_t, bool> in_base;
    for (const Entity& e : base) in_base.emplace(e.id, true);
    for (std::size_t i = 0; i < n; ++i)
        if (in_base.count(v[i].id) == 0) q[i] = place++;
    bool moved = false;
    for (std::size_t i = 0; i < n; ++i) moved = moved || q[i] != i;
    c.bits = c.set_bits = 1;
    if (!moved) return c;
    const bool sorted = std::is_sorted(v.begin(), v.end(), [](const Entity& a, const Entity& b) { return a.id < b.id; });
    c.bits = c.set_bits = 2;
    if (sorted) return c;
    const std::vector<bool> stays = netser::detail::longest_increasing(q); // the writer's choice of run
    const int count = static_cast<int>(n);
    c.bits += static_cast<std::size_t>(netser::bits_required_for_span(n));
    c.set_bits = c.bits;
    std::vector<std::size_t> places;
    int previous = -1;
    for (std::size_t i = 0; i < n; ++i) {
        if (stays[i]) continue;
        ++c.moves;
        const auto index = static_cast<std::size_t>(netser::relative_index_bits(static_cast<int>(i) - previous, count));
        previous = static_cast<int>(i);
        c.bits += index + static_cast<std::size_t>(netser::bits_required_for_span(n - 1));
        c.set_bits += index;
        places.push_back(q[i]);
    }
    std::sort(places.begin(), places.end());
    previous = -1;
    for (const std::size_t p : places) {
        c.set_bits += static_cast<std::size_t>(netser::relative_index_bits(static_cast<int>(p) - previous, count));
        previous = static_cast<int>(p);
    }
    for (std::size_t left = places.size(); left > 0; --left)
        c.set_bits += static_cast<std::size_t>(netser::bits_required_for_span(left - 1));
    return c;
}

// The entries of a keyed form by id, as values the delta compares.
std::map<std::uint16_t, Entity> by_id(const std::vector<Entity>& v) {
    std::map<std::uint16_t, Entity> out;
    for (const Entity& e : v) out.emplace(e.id, e);
    return out;
}
std::map<std::uint16_t, Body> by_id(const std::map<std::uint16_t, Body>& m) { return m; }
std::map<std::uint16_t, Body> by_id(const std::unordered_map<std::uint16_t, Body>& m) { return {m.begin(), m.end()}; }

template <class C>
const auto& entries(const C& world) {
    if constexpr (requires { world.list; }) return world.list;
    else return world.bodies;
}

template <class T>
const auto& entries_or_slots(const T& world) {
    if constexpr (requires { world.list; }) return world.list;
    else return world.slots;
}

// A positional form's delta split by netser::profile_stream: the container's own bits
// (which elements changed, a vector's count) and its elements' bodies.
struct positional_parts {
    double changed = 0;    // slots or positions whose entity differs from the baseline's, and new ones
    double other = 0;      // of those, holding another entity than the baseline's (another id)
    double other_bits = 0; // the bodies of those
};

inline const Entity* entity_at(const std::optional<Entity>& slot) { return slot ? &*slot : nullptr; }
inline const Entity* entity_at(const Entity& e) { return &e; }

// The means of profile rows: the container (the root's one member) and its elements.
void profile_means(const netser::profile_stream& p, double& total, double& container, double& elements) {
    total = container = elements = 0;
    for (const auto& row : p.rows()) {
        if (row.depth == 0) total = row.mean;
        else if (row.depth == 1 && row.label.size() > 2 && row.label.substr(row.label.size() - 2) == "[]")
            elements = row.mean;
        else if (row.depth == 1) container = row.mean;
    }
}

// ---- the table --------------------------------------------------------------------------

struct results {
    std::array<double, form_count> plain{};
    std::array<std::array<double, ages.size()>, form_count> delta{};
    std::array<std::array<keyed_parts, ages.size()>, form_count> keyed{};
    std::array<std::array<positional_parts, ages.size()>, form_count> positional{};
    std::array<std::array<std::unique_ptr<netser::profile_stream>, ages.size()>, form_count> profiles{};
    tick_stats world{};
    std::size_t ticks = 0, deltas = 0;
};

constexpr bool is_keyed_form(std::size_t row) { return row >= 2 && row != 6; }
constexpr bool is_keyed_vector(std::size_t row) { return row == 4 || row == 5 || row == 7; }

void run_seed(std::uint64_t seed, results& r) {
    Sim sim(seed);
    Layouts layouts;
    std::vector<std::unique_ptr<Snapshot>> received(history);
    for (auto& s : received) s = std::make_unique<Snapshot>();
    const auto current = std::make_unique<Snapshot>();
    std::size_t entity_bits = 0;
    plain_bytes(Entity{}, entity_bits); // fixed width: every entity takes these
    if (entity_bits != netser::max_bits<Entity>()) fail("an entity is not fixed width");
    for (std::size_t t = 0; t < warmup_ticks + measured_ticks; ++t) {
        sim.tick();
        layouts.apply(sim);
        build(sim, layouts, *current);
        Snapshot& now = *received[t % history];
        each_form([&](std::size_t, auto member) { receive((*current).*member, now.*member); });
        if (t < warmup_ticks) continue;
        ++r.ticks;
        const tick_stats& st = sim.stats();
        r.world.alive += st.alive;
        r.world.spawned += st.spawned;
        r.world.despawned += st.despawned;
        r.world.moved += st.moved;
        r.world.turned += st.turned;
        r.world.health += st.health;
        r.world.kind += st.kind;
        each_form([&](std::size_t row, auto member) {
            const auto& value = (*current).*member;
            r.plain[row] += static_cast<double>(plain_bits(value));
            for (std::size_t a = 0; a < ages.size(); ++a) {
                const auto& base = (*received[(t - ages[a]) % history]).*member;
                const std::string what = std::string(form_names[row]) + ", seed " + std::to_string(seed) + ", tick " +
                                         std::to_string(t) + ", age " + std::to_string(ages[a]);
                const std::size_t bits = checked_delta(value, now.*member, base, what);
                ++r.deltas;
                r.delta[row][a] += static_cast<double>(bits);
                auto& profile = r.profiles[row][a];
                if (!profile) profile = std::make_unique<netser::profile_stream>();
                if (!profile->profile_delta(value, base)) fail(what + ": profile");
                using W = std::remove_cvref_t<decltype(value)>;
                if constexpr (std::is_same_v<W, SlotWorld> || std::is_same_v<W, SparseWorld> ||
                              std::is_same_v<W, PlainWorld>) {
                    // Changed elements: slots or positions that differ, and a vector's new ones.
                    // Compared as received: a writer compares codes, not the floats it holds.
                    const auto& v = entries_or_slots(now.*member);
                    const auto& b = entries_or_slots(base);
                    const auto& w = entries_or_slots(value);
                    positional_parts& p = r.positional[row][a];
                    for (std::size_t i = 0; i < v.size(); ++i) {
                        if (i < b.size() && v[i] == b[i]) continue;
                        p.changed += 1;
                        // Another entity where the baseline had one: its body is a delta
                        // against an unrelated entity (a slot's presence bit included).
                        const Entity* now_e = entity_at(v[i]);
                        const Entity* base_e = i < b.size() ? entity_at(b[i]) : nullptr;
                        if (now_e == nullptr || base_e == nullptr || now_e->id == base_e->id) continue;
                        p.other += 1;
                        p.other_bits += static_cast<double>(body_bits(*entity_at(w[i]), *base_e) +
                                                            (std::is_same_v<W, PlainWorld> ? 0 : 1));
                    }
                } else {
                    keyed_parts& k = r.keyed[row][a];
                    // Touched entries compared as received (a writer compares codes, not the
                    // floats it holds); their bodies measured from the writer's values.
                    const auto vs = by_id(entries(value));
                    const auto vr = by_id(entries(now.*member));
                    const auto bs = by_id(entries(base));
                    std::size_t touched = 0, removed = 0, added = 0, bodies = 0;
                    for (const auto& [id, e] : bs) {
                        const auto it = vr.find(id);
                        if (it == vr.end()) ++touched, ++removed;
                        else if (!(it->second == e)) ++touched, bodies += body_bits(vs.at(id), e);
                    }
                    for (const auto& entry : vs)
                        if (bs.count(entry.first) == 0) ++added;
                    std::size_t order = 0;
                    if constexpr (std::is_same_v<W, KeyedWorld>) {
                        const order_cost c = order_of(value.list, base.list);
                        // The order field as the library writes it: this delta minus the same
                        // vector put in the kept order (whose order field is 1 bit), plus 1.
                        W kept;
                        kept.list.reserve(value.list.size());
                        for (const Entity& e : base.list)
                            if (vs.count(e.id) != 0) kept.list.push_back(vs.at(e.id));
                        for (const Entity& e : value.list)
                            if (bs.count(e.id) == 0) kept.list.push_back(e);
                        netser::measure_stream m;
                        if (!netser::serialize_delta(m, kept, base)) fail(what + ": kept-order measure", &m.error());
                        order = bits - m.bits_processed() + (value.list.size() >= 2 ? 1 : 0);
                        if (order != c.bits) fail(what + ": the order field is not the wire's definition");
                        k.order += static_cast<double>(order);
                        k.moves += static_cast<double>(c.moves);
                        k.order_set += static_cast<double>(c.set_bits);
                    }
                    const std::size_t count_bits = static_cast<std::size_t>(netser::bits_required(0, max_alive));
                    const std::size_t added_bits = count_bits + added * entity_bits;
                    // The world's changed bit, the member's, the touched list, the added, the order.
                    const std::size_t framing = 2;
                    k.total += static_cast<double>(bits);
                    k.removed_bits += static_cast<double>(touched);
                    k.bodies += static_cast<double>(bodies);
                    k.added += static_cast<double>(added_bits);
                    k.index_list += static_cast<double>(bits - framing - touched - bodies - added_bits - order);
                    k.touched += static_cast<double>(touched);
                    k.removed += static_cast<double>(removed);
                    k.added_entries += static_cast<double>(added);
                }
            }
        });
    }
}

void print_tables(const results& r) {
    const auto ticks = static_cast<double>(r.ticks);
    const auto mean = [&](double sum) { return sum / ticks; };
    std::printf("keyed deltas of a world of entities (keyed_world.hpp): seeds");
    for (const auto s : table_seeds) std::printf(" %llu", static_cast<unsigned long long>(s));
    std::printf(", %zu warm-up + %zu measured ticks each\n", warmup_ticks, measured_ticks);
    std::printf("per measured tick: %.1f alive, %.1f spawned, %.1f despawned, %.1f moved, %.1f turned, "
                "%.1f health and %.2f kind changes\n",
                mean(static_cast<double>(r.world.alive)), mean(static_cast<double>(r.world.spawned)),
                mean(static_cast<double>(r.world.despawned)), mean(static_cast<double>(r.world.moved)),
                mean(static_cast<double>(r.world.turned)), mean(static_cast<double>(r.world.health)),
                mean(static_cast<double>(r.world.kind)));
    std::printf("every delta (%zu) read back and equal to the writer's state, bit for bit\n\n", r.deltas);

    std::printf("mean bits per tick; delta against the state `age` ticks earlier as received; x1 = ratio to form 1\n\n");
    std::printf("%-34s %8s %8s %8s %8s %6s %6s %6s\n", "form", "plain", "age 1", "age 3", "age 10", "x1", "x3", "x10");
    for (std::size_t row = 0; row < form_count; ++row) {
        std::printf("%-34s %8.1f", form_names[row], mean(r.plain[row]));
        for (std::size_t a = 0; a < ages.size(); ++a) std::printf(" %8.1f", mean(r.delta[row][a]));
        for (std::size_t a = 0; a < ages.size(); ++a) std::printf(" %6.3f", r.delta[row][a] / r.delta[0][a]);
        std::printf("\n");
    }

    std::printf("\nwhere the bits go, keyed encodings (mean bits per tick; counts per tick):\n"
                "  list = the touched list's listing bit and changed bits or relative indices; removed = 1 bit\n"
                "  per touched entry; bodies = the changed entries' delta bodies; added = the count (9 bits) and\n"
                "  the added entries (69 bits each); order = a keyed vector's order field; the other 2 bits are\n"
                "  the changed bits of the world and of its member. set = an estimate, not netser's wire: the order\n"
                "  field were the moved elements' places sent as one ascending set of relative indices, then each\n"
                "  move's pick among the places left (instead of each place in bits_required(0, n - 1) bits)\n\n");
    std::printf("%-30s %3s %8s %7s %7s %8s %8s %7s | %7s %7s %7s %6s %7s\n", "form", "age", "total", "list", "removed",
                "bodies", "added", "order", "touched", "gone", "new", "moves", "set");
    for (std::size_t row = 0; row < form_count; ++row) {
        if (!is_keyed_form(row)) continue;
        for (std::size_t a = 0; a < ages.size(); ++a) {
            const keyed_parts& k = r.keyed[row][a];
            std::printf("%-30s %3zu %8.1f %7.1f %7.1f %8.1f %8.1f %7.1f | %7.1f %7.1f %7.1f %6.1f", form_names[row],
                        ages[a], mean(k.total), mean(k.index_list), mean(k.removed_bits), mean(k.bodies),
                        mean(k.added), mean(k.order), mean(k.touched), mean(k.removed), mean(k.added_entries),
                        mean(k.moves));
            if (is_keyed_vector(row)) std::printf(" %7.1f\n", mean(k.order_set));
            else std::printf(" %7s\n", "-");
        }
    }

    std::printf("\nwhere the bits go, positional encodings (netser::profile_stream; mean bits per tick):\n"
                "  list = the container's own bits (listing bit, changed bits or relative indices, a vector's\n"
                "  count); elements = the changed elements' bodies (an optional's presence bit included);\n"
                "  changed = slots or positions whose entity differs from the baseline's, and new ones; other id =\n"
                "  those holding another entity than the baseline's (a reused slot, a refilled hole), their bodies\n"
                "  a delta against an unrelated entity: bits each (an entity sent whole takes 69)\n\n");
    std::printf("%-30s %3s %8s %8s %9s %8s %8s %10s\n", "form", "age", "total", "list", "elements", "changed",
                "other id", "bits each");
    for (std::size_t row = 0; row < form_count; ++row) {
        if (is_keyed_form(row)) continue;
        for (std::size_t a = 0; a < ages.size(); ++a) {
            double total = 0, container = 0, elements = 0;
            profile_means(*r.profiles[row][a], total, container, elements);
            if (std::abs(total * ticks - r.delta[row][a]) > 1e-6 * r.delta[row][a]) fail("profile total differs");
            const positional_parts& p = r.positional[row][a];
            if (row == 1) // netser::sparse does not tell profile_stream where its slots start
                std::printf("%-30s %3zu %8.1f %8s %9s", form_names[row], ages[a], total, "-", "-");
            else
                std::printf("%-30s %3zu %8.1f %8.1f %9.1f", form_names[row], ages[a], total, container - elements,
                            elements);
            std::printf(" %8.1f %8.1f %10.1f\n", mean(p.changed), mean(p.other), p.other_bits / p.other);
        }
    }
    // The keyed rows' bodies and added entries, checked against profile_stream: a keyed
    // vector's element rows hold the bodies and the added entries; a map's the bodies.
    for (std::size_t row = 0; row < form_count; ++row) {
        if (!is_keyed_form(row)) continue;
        for (std::size_t a = 0; a < ages.size(); ++a) {
            double total = 0, container = 0, elements = 0;
            profile_means(*r.profiles[row][a], total, container, elements);
            const keyed_parts& k = r.keyed[row][a];
            const double count_bits = netser::bits_required(0, max_alive); // the added count
            const double expected = mean(k.bodies) + (is_keyed_vector(row) ? mean(k.added) - count_bits : 0.0);
            if (std::abs(elements - expected) > 1e-6 * (1 + expected) || std::abs(total - mean(k.total)) > 1e-6 * total)
                fail(std::string(form_names[row]) + ": the field split differs from profile_stream");
        }
    }
    std::printf("\n(the keyed split above agrees with netser::profile_stream's element rows)\n\n");
}

// ---- timings ----------------------------------------------------------------------------

constexpr std::size_t timing_ticks = 64;
constexpr std::size_t timing_age = 3;

// timing_ticks consecutive ticks of the world: the writer's state and the state
// timing_age ticks earlier as received.
struct timing_data {
    std::vector<std::unique_ptr<Snapshot>> value, base;
    std::vector<std::size_t> alive;
};

const timing_data& timings() {
    static const timing_data data = [] {
        timing_data d;
        Sim sim(timing_seed);
        Layouts layouts;
        std::vector<std::unique_ptr<Snapshot>> received(history);
        for (auto& s : received) s = std::make_unique<Snapshot>();
        for (std::size_t t = 0; t < warmup_ticks + timing_ticks; ++t) {
            sim.tick();
            layouts.apply(sim);
            auto current = std::make_unique<Snapshot>();
            build(sim, layouts, *current);
            each_form([&](std::size_t, auto member) { receive((*current).*member, (*received[t % history]).*member); });
            if (t < warmup_ticks) continue;
            auto base = std::make_unique<Snapshot>(*received[(t - timing_age) % history]);
            d.value.push_back(std::move(current));
            d.base.push_back(std::move(base));
            d.alive.push_back(sim.alive().size());
        }
        return d;
    }();
    return data;
}

template <auto Member>
using form_t = std::remove_cvref_t<decltype(std::declval<Snapshot&>().*Member)>;

// mode: 0 delta write, 1 delta read, 2 plain write, 3 plain read.
template <auto Member, int Mode>
void bench(benchmark::State& state) {
    using T = form_t<Member>;
    const timing_data& d = timings();
    constexpr bool delta = Mode < 2;
    const std::size_t capacity = delta ? netser::max_delta_bytes<T>() : netser::max_bytes<T>();
    std::vector<std::vector<std::byte>> packets(timing_ticks);
    std::size_t bits = 0;
    for (std::size_t k = 0; k < timing_ticks; ++k) {
        std::vector<std::byte> buffer(capacity);
        netser::write_stream w(buffer.data(), buffer.size());
        const T& value = (*d.value[k]).*Member;
        const bool ok = delta ? netser::serialize_delta(w, value, (*d.base[k]).*Member) : netser::serialize(w, value);
        if (!ok) fail("timing write", &w.error());
        bits += w.bits_processed();
        const auto p = w.finish();
        packets[k].assign(p.begin(), p.end());
    }
    std::vector<std::byte> buffer(capacity);
    const auto out = std::make_unique<T>();
    std::size_t k = 0, items = 0;
    for (auto _ : state) {
        const T& value = (*d.value[k]).*Member;
        const T& base = (*d.base[k]).*Member;
        bool ok = false;
        if constexpr (Mode == 0 || Mode == 2) {
            netser::write_stream w(buffer.data(), buffer.size());
            if constexpr (Mode == 0) ok = netser::serialize_delta(w, value, base);
            else ok = netser::serialize(w, value);
            benchmark::DoNotOptimize(w.finish().data());
        } else {
            netser::read_stream r(packets[k].data(), packets[k].size());
            if constexpr (Mode == 1) ok = netser::serialize_delta(r, *out, base);
            else ok = netser::serialize(r, *out);
            benchmark::ClobberMemory();
        }
        benchmark::DoNotOptimize(ok);
        items += d.alive[k];
        k = k + 1 == timing_ticks ? 0 : k + 1;
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(items));
    state.counters["bits"] = static_cast<double>(bits) / static_cast<double>(timing_ticks);
}

#define KEYED_WORLD_BENCH(member, name)                                                                    \
    BENCHMARK(bench<&Snapshot::member, 0>)->Name("delta_write/" name);                                     \
    BENCHMARK(bench<&Snapshot::member, 1>)->Name("delta_read/" name);                                      \
    BENCHMARK(bench<&Snapshot::member, 2>)->Name("plain_write/" name);                                     \
    BENCHMARK(bench<&Snapshot::member, 3>)->Name("plain_read/" name)

KEYED_WORLD_BENCH(slot, "slot_array");
KEYED_WORLD_BENCH(sparse, "slot_array_sparse");
KEYED_WORLD_BENCH(map, "map");
KEYED_WORLD_BENCH(hash, "unordered_map");
KEYED_WORLD_BENCH(sorted, "keyed_sorted");
KEYED_WORLD_BENCH(swapped, "keyed_swap_remove");

} // namespace keyed_world_bench

int main(int argc, char** argv) {
    // --world_seed=N: the tables on that seed alone (for setting the world's parameters).
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--world_seed=", 13) == 0) {
            keyed_world_bench::table_seeds = {std::strtoull(argv[i] + 13, nullptr, 10)};
            for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
            --argc;
            --i;
        }
    }
    keyed_world_bench::results r;
    for (const auto seed : keyed_world_bench::table_seeds) keyed_world_bench::run_seed(seed, r);
    keyed_world_bench::print_tables(r);
    std::fflush(stdout);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
