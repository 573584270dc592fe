// encodings/keyed.hpp: deltas by key (std::map, std::unordered_map, std::set, vectors with
// netser::keyed) and encodings/sparse.hpp's delta by slot.
//
// Where each aspect is covered:
//   wire bits     here: "... match the model bit for bit" (a model written from
//                 docs/wire_format.md, "Keyed deltas", one bit at a time); golden hex from
//                 tools/golden.py: tests/delta/keyed_golden_test.cpp.
//   model         here: random worlds of spawns, despawns, changes and reorders against the
//                 model, at several baseline ages.
//   bounds        here: "max_delta_bits bounds every keyed delta".
//   hostile       here: the [hostile] cases (keys twice, changed keys, forged counts);
//                 tests/hostile/keyed_delta_test.cpp (truncation, flips, forged moves);
//                 the delta fuzz targets (tests/fuzz).
//   compile-fail  tests/compile_fail/: keyed_on_map, keyed_key_not_integer.

#include "core/test_util.hpp"

#include <netser/netser.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace keyed_test {

using netser::errc;
using netser_test::reference_writer;

// Values whose delta bodies are simple to model: each flag is a changed bit (a bool's
// body is empty), the whole 2 bits plain.
struct Flags {
    bool a = false;
    bool b = false;
    bool operator==(const Flags&) const = default;
};
NETSER_STRUCT(Flags, a, b)

struct Unit {
    std::uint16_t id = 0;
    bool a = false;
    bool b = false;
    bool operator==(const Unit&) const = default;
};
NETSER_STRUCT(Unit, id, a, b)

constexpr std::size_t max_entries = 40; // the count: 6 bits

struct MapWorld {
    std::map<std::uint16_t, Flags> m;
};
NETSER_STRUCT(MapWorld, (m, netser::max_size(max_entries)))

struct HashWorld {
    std::unordered_map<std::uint16_t, Flags> m;
};
NETSER_STRUCT(HashWorld, (m, netser::max_size(max_entries)))

struct SetWorld {
    std::set<std::int16_t> s; // signed: the reference order is by code, not by value
};
NETSER_STRUCT(SetWorld, (s, netser::max_size(max_entries)))

struct HashSetWorld {
    std::unordered_set<std::int16_t> s;
};
NETSER_STRUCT(HashSetWorld, (s, netser::max_size(max_entries)))

struct ListWorld {
    std::vector<Unit> units;
};
NETSER_STRUCT(ListWorld, (units, netser::max_size(max_entries), netser::keyed(&Unit::id)))

struct SlotWorld {
    std::array<std::optional<Flags>, 50> slots;
};
NETSER_STRUCT(SlotWorld, (slots, netser::sparse))

struct SlotVecWorld {
    std::vector<std::optional<Flags>> slots;
};
NETSER_STRUCT(SlotVecWorld, (slots, netser::sparse, netser::max_size(max_entries)))

// --- the model: docs/wire_format.md, "Keyed deltas", one bit at a time -------------------

int span_bits(std::uint64_t span) { return static_cast<int>(std::bit_width(span)); }

void model_index(reference_writer& w, long d, long max) { netser_test::model_relative_index(w, d, max); }
int index_cost(long d, long max) {
    reference_writer w;
    model_index(w, d, max);
    return static_cast<int>(w.bits());
}

// Changed elements of n: the listing bit, changed bits or relative indices (fewer bits
// wins, a tie: the bits), each touched one followed by body(i).
template <class Body>
void model_elements(reference_writer& w, const std::vector<bool>& touched, Body&& body) {
    const long n = static_cast<long>(touched.size());
    long cost = 0, previous = -1;
    for (long i = 0; i < n; ++i)
        if (touched[static_cast<std::size_t>(i)]) cost += index_cost(i - previous, n), previous = i;
    cost += index_cost(n - previous, n);
    const bool listed = cost < n;
    w.put(listed ? 1 : 0, 1);
    previous = -1;
    for (long i = 0; i < n; ++i) {
        const bool t = touched[static_cast<std::size_t>(i)];
        if (!listed) w.put(t ? 1 : 0, 1);
        else if (t) model_index(w, i - previous, n), previous = i;
        if (t) body(static_cast<std::size_t>(i));
    }
    if (listed) model_index(w, n - previous, n);
}

void model_flags_body(reference_writer& w, const Flags& v, const Flags& b) {
    w.put(v.a != b.a ? 1 : 0, 1);
    w.put(v.b != b.b ? 1 : 0, 1);
}
void model_flags(reference_writer& w, const Flags& v) {
    w.put(v.a ? 1 : 0, 1);
    w.put(v.b ? 1 : 0, 1);
}

const int count_bits = span_bits(max_entries);

// A map of uint16 keys (their own code) to Flags, against its baseline: the packet of a
// struct holding it (the struct's and the member's changed bits first).
template <class Map>
reference_writer model_map(const Map& v, const Map& b) {
    reference_writer w;
    const std::map<std::uint16_t, Flags> sv(v.begin(), v.end()), sb(b.begin(), b.end());
    if (sv == sb) {
        w.put(0, 1);
        return w;
    }
    w.put(1, 1), w.put(1, 1);
    std::vector<std::pair<std::uint16_t, Flags>> base(sb.begin(), sb.end()); // by key code
    std::vector<bool> touched;
    for (const auto& [k, f] : base) touched.push_back(!sv.contains(k) || !(sv.at(k) == f));
    if (!base.empty())
        model_elements(w, touched, [&](std::size_t j) {
            const bool removed = !sv.contains(base[j].first);
            w.put(removed ? 1 : 0, 1);
            if (!removed) model_flags_body(w, sv.at(base[j].first), base[j].second);
        });
    std::vector<std::pair<std::uint16_t, Flags>> added;
    for (const auto& e : sv)
        if (!sb.contains(e.first)) added.push_back(e);
    w.put(added.size(), count_bits);
    for (const auto& [k, f] : added) w.put(k, 16), model_flags(w, f);
    return w;
}

// A set of int16 keys: the code is the two's complement bits.
std::uint16_t code_of(std::int16_t k) { return static_cast<std::uint16_t>(k); }

template <class Set>
reference_writer model_set(const Set& v, const Set& b) {
    reference_writer w;
    const auto by_code = [](std::int16_t x, std::int16_t y) { return code_of(x) < code_of(y); };
    std::vector<std::int16_t> sv(v.begin(), v.end()), sb(b.begin(), b.end());
    std::sort(sv.begin(), sv.end(), by_code);
    std::sort(sb.begin(), sb.end(), by_code);
    if (sv == sb) {
        w.put(0, 1);
        return w;
    }
    w.put(1, 1), w.put(1, 1);
    const auto in = [](const std::vector<std::int16_t>& s, std::int16_t k) { return std::find(s.begin(), s.end(), k) != s.end(); };
    std::vector<bool> touched;
    for (const auto k : sb) touched.push_back(!in(sv, k));
    if (!sb.empty()) model_elements(w, touched, [](std::size_t) {});
    std::vector<std::int16_t> added;
    for (const auto k : sv)
        if (!in(sb, k)) added.push_back(k);
    w.put(added.size(), count_bits);
    for (const auto k : added) w.put(code_of(k), 16);
    return w;
}

// The elements that stay: a longest increasing subsequence of q by patience sorting, as
// the text states it (leftmost pile whose top is not below; links to the left pile's top).
std::vector<bool> model_stays(const std::vector<std::size_t>& q) {
    std::vector<std::vector<std::size_t>> piles; // element indices, top last
    std::vector<std::size_t> link(q.size(), SIZE_MAX);
    for (std::size_t i = 0; i < q.size(); ++i) {
        std::size_t p = 0;
        while (p < piles.size() && q[piles[p].back()] < q[i]) ++p;
        if (p > 0) link[i] = piles[p - 1].back();
        if (p == piles.size()) piles.emplace_back();
        piles[p].push_back(i);
    }
    std::vector<bool> stays(q.size(), false);
    for (std::size_t i = piles.empty() ? SIZE_MAX : piles.back().back(); i != SIZE_MAX; i = link[i]) stays[i] = true;
    return stays;
}

reference_writer model_list(const std::vector<Unit>& v, const std::vector<Unit>& b) {
    reference_writer w;
    if (v == b) {
        w.put(0, 1);
        return w;
    }
    w.put(1, 1), w.put(1, 1);
    const auto find = [](const std::vector<Unit>& c, std::uint16_t id) {
        for (std::size_t i = 0; i < c.size(); ++i)
            if (c[i].id == id) return i;
        return SIZE_MAX;
    };
    std::vector<bool> touched;
    for (const auto& u : b) {
        const std::size_t i = find(v, u.id);
        touched.push_back(i == SIZE_MAX || !(v[i] == u));
    }
    if (!b.empty())
        model_elements(w, touched, [&](std::size_t j) {
            const std::size_t i = find(v, b[j].id);
            w.put(i == SIZE_MAX ? 1 : 0, 1);
            if (i != SIZE_MAX) w.put(0, 1), model_flags_body(w, {v[i].a, v[i].b}, {b[j].a, b[j].b}); // id unchanged
        });
    std::vector<std::size_t> added;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (find(b, v[i].id) == SIZE_MAX) added.push_back(i);
    w.put(added.size(), count_bits);
    for (const std::size_t i : added) w.put(v[i].id, 16), model_flags(w, {v[i].a, v[i].b});
    const std::size_t n = v.size();
    if (n < 2) return w;
    std::vector<std::size_t> q(n);
    std::size_t place = 0;
    for (const auto& u : b)
        if (const std::size_t i = find(v, u.id); i != SIZE_MAX) q[i] = place++;
    for (const std::size_t i : added) q[i] = place++;
    bool kept = true, sorted = true;
    for (std::size_t i = 0; i < n; ++i) kept = kept && q[i] == i;
    for (std::size_t i = 1; i < n; ++i) sorted = sorted && v[i - 1].id < v[i].id;
    w.put(kept ? 0 : 1, 1);
    if (kept) return w;
    w.put(sorted ? 0 : 1, 1);
    if (sorted) return w;
    const std::vector<bool> stays = model_stays(q);
    w.put(static_cast<std::uint64_t>(std::count(stays.begin(), stays.end(), false)), span_bits(n));
    long previous = -1;
    for (std::size_t i = 0; i < n; ++i) {
        if (stays[i]) continue;
        model_index(w, static_cast<long>(i) - previous, static_cast<long>(n));
        previous = static_cast<long>(i);
        w.put(n - 1 - q[i], span_bits(n - 1));
    }
    return w;
}

template <class Slots>
reference_writer model_slots(const Slots& v, const Slots& b) {
    reference_writer w;
    if (v == b) {
        w.put(0, 1);
        return w;
    }
    w.put(1, 1), w.put(1, 1);
    const auto slot_body = [&](const std::optional<Flags>& x, const std::optional<Flags>* base) {
        w.put(x ? 1 : 0, 1);
        if (x && base && *base) model_flags_body(w, *x, **base);
        else if (x) model_flags(w, *x);
    };
    const std::size_t both = std::min(v.size(), b.size());
    if constexpr (requires { typename Slots::allocator_type; }) { // a vector: same-count bit, count
        w.put(v.size() == b.size() ? 1 : 0, 1);
        if (v.size() != b.size()) w.put(v.size(), count_bits);
    }
    std::vector<bool> touched;
    for (std::size_t i = 0; i < both; ++i) touched.push_back(!(v[i] == b[i]));
    if (both != 0) model_elements(w, touched, [&](std::size_t i) { slot_body(v[i], &b[i]); });
    for (std::size_t i = both; i < v.size(); ++i) slot_body(v[i], nullptr);
    return w;
}

// --- random worlds --------------------------------------------------------------------

std::size_t below(std::mt19937_64& rng, std::size_t n) { return static_cast<std::size_t>(rng() % n); }
Flags random_flags(std::mt19937_64& rng) { return {(rng() & 1) != 0, (rng() & 2) != 0}; }

// One tick: some despawn, some spawn (fresh random ids), some change; the list reorders
// as the tick's mode says (spawn order, sorted, swap-remove, shuffled).
void tick(std::mt19937_64& rng, std::vector<Unit>& units, int mode) {
    const std::size_t despawn = units.empty() ? 0 : below(rng, std::min<std::size_t>(units.size(), 6) + 1);
    for (std::size_t k = 0; k < despawn; ++k) {
        const std::size_t i = below(rng, units.size());
        if (mode == 2) {
            units[i] = units.back();
            units.pop_back();
        } else {
            units.erase(units.begin() + static_cast<std::ptrdiff_t>(i));
        }
    }
    const std::size_t spawn = below(rng, 7);
    for (std::size_t k = 0; k < spawn && units.size() < max_entries; ++k) {
        Unit u;
        u.id = static_cast<std::uint16_t>(rng());
        if (std::any_of(units.begin(), units.end(), [&](const Unit& x) { return x.id == u.id; })) continue;
        const Flags f = random_flags(rng);
        u.a = f.a, u.b = f.b;
        units.push_back(u);
    }
    for (auto& u : units)
        if (below(rng, 4) == 0) u.a = !u.a;
    if (mode == 1) std::sort(units.begin(), units.end(), [](const Unit& x, const Unit& y) { return x.id < y.id; });
    if (mode == 3) std::shuffle(units.begin(), units.end(), rng);
}

template <class T>
std::vector<std::byte> delta_bytes(const T& v, const T& b, std::size_t& bits) {
    std::vector<std::byte> buffer(4096);
    netser::write_stream w(buffer.data(), buffer.size());
    REQUIRE(netser::serialize_delta(w, v, b));
    bits = w.bits_processed();
    const auto bytes = w.finish();
    return {bytes.begin(), bytes.end()};
}

template <class T>
T read_delta(const std::vector<std::byte>& bytes, const T& b) {
    T out;
    netser::read_stream r(bytes.data(), bytes.size());
    REQUIRE(netser::serialize_delta(r, out, b));
    return out;
}

template <class T, class Model>
void check_against_model(const T& v, const T& b, Model&& model) {
    std::size_t bits = 0;
    const auto bytes = delta_bytes(v, b, bits);
    const reference_writer expected = model();
    REQUIRE(bits == expected.bits());
    REQUIRE(bytes == expected.bytes());
    REQUIRE(bits <= netser::max_delta_bits<T>());
    const T out = read_delta(bytes, b);
    REQUIRE(out == v);
}

} // namespace keyed_test

namespace keyed_test {
bool operator==(const MapWorld& x, const MapWorld& y) { return x.m == y.m; }
bool operator==(const HashWorld& x, const HashWorld& y) { return x.m == y.m; }
bool operator==(const SetWorld& x, const SetWorld& y) { return x.s == y.s; }
bool operator==(const HashSetWorld& x, const HashSetWorld& y) { return x.s == y.s; }
bool operator==(const ListWorld& x, const ListWorld& y) { return x.units == y.units; }
bool operator==(const SlotWorld& x, const SlotWorld& y) { return x.slots == y.slots; }
bool operator==(const SlotVecWorld& x, const SlotVecWorld& y) { return x.slots == y.slots; }
} // namespace keyed_test

using namespace keyed_test;

TEST_CASE("keyed vectors in spawn order, sorted, swap-removed and shuffled match the model bit for bit",
          "[keyed][model]") {
    for (int mode = 0; mode < 4; ++mode) {
        std::mt19937_64 rng(100 + static_cast<std::uint64_t>(mode));
        std::vector<ListWorld> history(1);
        for (int t = 0; t < 300; ++t) {
            ListWorld next = history.back();
            tick(rng, next.units, mode);
            for (const std::size_t age : {1u, 3u, 10u}) {
                const ListWorld& base = history[history.size() > age ? history.size() - age : 0];
                check_against_model(next, base, [&] { return model_list(next.units, base.units); });
            }
            history.push_back(next);
        }
    }
}

TEST_CASE("maps, unordered maps and sets by key match the model bit for bit", "[keyed][model]") {
    std::mt19937_64 rng(7);
    std::vector<std::map<std::uint16_t, Flags>> history(1);
    std::vector<std::set<std::int16_t>> sets(1);
    for (int t = 0; t < 300; ++t) {
        auto m = history.back();
        auto s = sets.back();
        for (std::size_t k = below(rng, 5); k > 0 && !m.empty(); --k) m.erase(std::next(m.begin(), static_cast<std::ptrdiff_t>(below(rng, m.size()))));
        for (std::size_t k = below(rng, 6); k > 0 && m.size() < max_entries; --k) m[static_cast<std::uint16_t>(rng())] = random_flags(rng);
        for (auto& [key, f] : m)
            if (below(rng, 4) == 0) f.b = !f.b;
        for (std::size_t k = below(rng, 4); k > 0 && !s.empty(); --k) s.erase(std::next(s.begin(), static_cast<std::ptrdiff_t>(below(rng, s.size()))));
        for (std::size_t k = below(rng, 4); k > 0 && s.size() < max_entries; --k) s.insert(static_cast<std::int16_t>(rng()));
        for (const std::size_t age : {1u, 3u, 10u}) {
            const auto& bm = history[history.size() > age ? history.size() - age : 0];
            const auto& bs = sets[sets.size() > age ? sets.size() - age : 0];
            check_against_model(MapWorld{m}, MapWorld{bm}, [&] { return model_map(m, bm); });
            HashWorld hv, hb;
            hv.m.insert(m.begin(), m.end());
            hb.m.insert(bm.begin(), bm.end());
            check_against_model(hv, hb, [&] { return model_map(hv.m, hb.m); });
            check_against_model(SetWorld{s}, SetWorld{bs}, [&] { return model_set(s, bs); });
            HashSetWorld hsv, hsb;
            hsv.s.insert(s.begin(), s.end());
            hsb.s.insert(bs.begin(), bs.end());
            check_against_model(hsv, hsb, [&] { return model_set(hsv.s, hsb.s); });
        }
        history.push_back(m);
        sets.push_back(s);
    }
}

TEST_CASE("an unordered_map writes the same delta whatever its insertion order and bucket count", "[keyed]") {
    std::mt19937_64 rng(11);
    HashWorld base, a, b;
    std::vector<std::pair<std::uint16_t, Flags>> entries;
    for (int i = 0; i < 30; ++i) entries.emplace_back(static_cast<std::uint16_t>(rng()), random_flags(rng));
    for (std::size_t i = 0; i < 20; ++i) base.m.insert(entries[i]);
    for (std::size_t i = 5; i < 30; ++i) a.m.insert(entries[i]);
    b.m.reserve(1000);
    for (std::size_t i = 30; i-- > 5;) b.m.insert(entries[i]);
    HashWorld base2;
    base2.m.reserve(500);
    for (std::size_t i = 20; i-- > 0;) base2.m.insert(entries[i]);
    std::size_t bits_a = 0, bits_b = 0;
    const auto bytes_a = delta_bytes(a, base, bits_a);
    const auto bytes_b = delta_bytes(b, base2, bits_b);
    REQUIRE(bits_a == bits_b);
    REQUIRE(bytes_a == bytes_b);
    REQUIRE(read_delta(bytes_a, base2) == a);
}

TEST_CASE("sparse arrays and vectors send their delta by slot and match the model bit for bit", "[keyed][sparse][model]") {
    std::mt19937_64 rng(21);
    std::vector<SlotWorld> history(1);
    std::vector<SlotVecWorld> vectors(1);
    for (int t = 0; t < 300; ++t) {
        SlotWorld next = history.back();
        for (auto& slot : next.slots) {
            const std::size_t r = below(rng, 16);
            if (r == 0) slot.reset();
            else if (r == 1) slot = random_flags(rng);
            else if (r == 2 && slot) slot->a = !slot->a;
        }
        SlotVecWorld vec = vectors.back();
        if (below(rng, 4) == 0) vec.slots.resize(below(rng, max_entries + 1));
        for (auto& slot : vec.slots)
            if (below(rng, 8) == 0) slot = below(rng, 2) == 0 ? std::optional<Flags>{} : std::optional<Flags>{random_flags(rng)};
        for (const std::size_t age : {1u, 3u, 10u}) {
            const SlotWorld& base = history[history.size() > age ? history.size() - age : 0];
            INFO("array, tick " << t << ", age " << age);
            check_against_model(next, base, [&] { return model_slots(next.slots, base.slots); });
            const SlotVecWorld& vbase = vectors[vectors.size() > age ? vectors.size() - age : 0];
            INFO("vector, tick " << t << ", age " << age << ", sizes " << vec.slots.size() << " " << vbase.slots.size());
            check_against_model(vec, vbase, [&] { return model_slots(vec.slots, vbase.slots); });
        }
        history.push_back(next);
        vectors.push_back(vec);
    }
}

TEST_CASE("an unchanged keyed container is its changed bit, and one change costs what a slot's does",
          "[keyed]") {
    ListWorld list;
    MapWorld map;
    for (std::uint16_t i = 0; i < 30; ++i) {
        list.units.push_back({static_cast<std::uint16_t>(1000 + 37 * i), false, false});
        map.m[static_cast<std::uint16_t>(1000 + 37 * i)] = {};
    }
    std::size_t bits = 0;
    delta_bytes(list, list, bits);
    CHECK(bits == 1);
    delta_bytes(map, map, bits);
    CHECK(bits == 1);
    // Unit 7 of 30 flips a flag: 2 changed bits, listing bit, indices 7 (d = 8: 6 bits) and
    // end (d = 23: 8 bits), removed bit, the body (id, a, b: 3 bits), a count of 0 (6
    // bits), the order bit.
    ListWorld changed = list;
    changed.units[7].a = true;
    delta_bytes(changed, list, bits);
    CHECK(bits == 2 + 1 + 6 + 8 + 1 + 3 + 6 + 1);
}

TEST_CASE("a keyed vector with a key twice fails the write with invalid_value, writing nothing of the vector",
          "[keyed][hostile]") {
    ListWorld base, v;
    v.units = {{5, false, false}, {9, true, false}, {5, false, true}};
    std::vector<std::byte> buffer(64);
    netser::write_stream w(buffer.data(), buffer.size());
    REQUIRE_FALSE(netser::serialize_delta(w, v, base));
    CHECK(w.error().code == errc::invalid_value);
    CHECK(w.error().bit == 2); // the vector's body: after the struct's and the member's changed bits
    CHECK(w.error().path() == "ListWorld.units[2]");
    // A baseline with a key twice cannot be matched either.
    netser::write_stream w2(buffer.data(), buffer.size());
    REQUIRE_FALSE(netser::serialize_delta(w2, base, v));
    CHECK(w2.error().code == errc::invalid_value);
}

TEST_CASE("a keyed delta that adds a key the result holds fails the read with invalid_value at the entry",
          "[keyed][hostile]") {
    ListWorld base;
    base.units = {{5, false, false}, {9, true, false}};
    // Struct and member changed, listing bit 0, two clear changed bits, 1 added: id 9.
    reference_writer w;
    w.put(1, 1), w.put(1, 1), w.put(0, 1), w.put(0, 2), w.put(1, count_bits);
    const std::size_t element_at = w.bits();
    w.put(9, 16), w.put(0, 2), w.put(0, 1);
    const auto bytes = w.bytes();
    ListWorld out;
    out.units = {{77, true, true}};
    netser::read_stream r(bytes.data(), bytes.size());
    REQUIRE_FALSE(netser::serialize_delta(r, out, base));
    CHECK(r.error().code == errc::invalid_value);
    CHECK(r.error().bit == element_at);
    CHECK(r.error().path() == "ListWorld.units[2]");
    CHECK(out.units == std::vector<Unit>{{77, true, true}}); // a failed read keeps the vector

    // The same for a map: key 9 is kept from the baseline and added again.
    MapWorld mbase;
    mbase.m = {{5, {}}, {9, {}}};
    reference_writer m;
    m.put(1, 1), m.put(1, 1), m.put(0, 1), m.put(0, 2), m.put(1, count_bits);
    const std::size_t entry_at = m.bits();
    m.put(9, 16), m.put(0, 2);
    const auto mbytes = m.bytes();
    MapWorld mout;
    mout.m = {{1, {true, true}}};
    netser::read_stream mr(mbytes.data(), mbytes.size());
    REQUIRE_FALSE(netser::serialize_delta(mr, mout, mbase));
    CHECK(mr.error().code == errc::invalid_value);
    CHECK(mr.error().bit == entry_at);
    CHECK(mout.m == std::map<std::uint16_t, Flags>{{1, {true, true}}}); // a failed read keeps the map
}

TEST_CASE("a keyed vector element whose delta changes its key fails the read with invalid_value", "[keyed][hostile]") {
    ListWorld base;
    base.units = {{5, false, false}};
    // Changed bits, listing bit 0, element 0 changed, not removed, then its body: id
    // changed by +1 (default ladder: flag 1, sign 0), a and b unchanged.
    reference_writer w;
    w.put(1, 1), w.put(1, 1), w.put(0, 1), w.put(1, 1);
    const std::size_t entry_at = w.bits();
    w.put(0, 1), w.put(1, 1), w.put(1, 1), w.put(0, 1), w.put(0, 2), w.put(0, count_bits);
    const auto bytes = w.bytes();
    ListWorld out;
    netser::read_stream r(bytes.data(), bytes.size());
    REQUIRE_FALSE(netser::serialize_delta(r, out, base));
    CHECK(r.error().code == errc::invalid_value);
    CHECK(r.error().bit == entry_at);
}

TEST_CASE("an added count that takes a keyed container past max_size fails with too_large at the count",
          "[keyed][hostile]") {
    MapWorld base;
    for (std::uint16_t k = 0; k < max_entries; ++k) base.m[k] = {};
    // Every entry kept (listing bit 1: the end index at once), then 1 added.
    reference_writer w;
    w.put(1, 1), w.put(1, 1), w.put(1, 1);
    model_index(w, static_cast<long>(max_entries) + 1, static_cast<long>(max_entries));
    const std::size_t count_at = w.bits();
    w.put(1, count_bits), w.put(4000, 16), w.put(0, 2);
    const auto bytes = w.bytes();
    MapWorld out;
    netser::read_stream r(bytes.data(), bytes.size());
    REQUIRE_FALSE(netser::serialize_delta(r, out, base));
    CHECK(r.error().code == errc::too_large);
    CHECK(r.error().bit == count_at);
}

TEST_CASE("max_delta_bits bounds every keyed delta, the largest changes included", "[keyed][bounds]") {
    // Every entry of a full baseline changed against every entry removed and replaced.
    ListWorld full, other, moved;
    for (std::uint16_t i = 0; i < max_entries; ++i) {
        full.units.push_back({static_cast<std::uint16_t>(i), false, false});
        other.units.push_back({static_cast<std::uint16_t>(1000 + i), true, true});
        moved.units.push_back({static_cast<std::uint16_t>(max_entries - 1 - i), true, true});
    }
    std::mt19937_64 rng(5);
    std::shuffle(moved.units.begin() + 1, moved.units.end(), rng);
    std::size_t bits = 0;
    for (const auto* pair : {&other, &moved, &full}) {
        delta_bytes(*pair, full, bits);
        CHECK(bits <= netser::max_delta_bits<ListWorld>());
        delta_bytes(full, *pair, bits);
        CHECK(bits <= netser::max_delta_bits<ListWorld>());
    }
    MapWorld m1, m2;
    for (std::uint16_t i = 0; i < max_entries; ++i) m1.m[i] = {}, m2.m[static_cast<std::uint16_t>(i + 5000)] = {true, true};
    delta_bytes(m2, m1, bits);
    CHECK(bits <= netser::max_delta_bits<MapWorld>());
}

namespace keyed_test {
struct Names {
    std::set<std::string> names;
};
NETSER_STRUCT(Names, (names, netser::max_size(4), netser::max_length(8)))
} // namespace keyed_test

TEST_CASE("a set of strings has no key codes to sort by: a changed one is sent whole", "[keyed]") {
    Names base, v;
    base.names = {"ann", "bob"};
    v.names = {"ann", "cy"};
    std::size_t bits = 0;
    const auto bytes = delta_bytes(v, base, bits);
    std::vector<std::byte> plain(64);
    netser::write_stream w(plain.data(), plain.size());
    bool changed = true;
    REQUIRE(netser::serialize_bool(w, changed));
    REQUIRE(netser::serialize_bool(w, changed)); // where the delta's body starts: strings align
    REQUIRE(netser::serialize(w, v));
    CHECK(bits == w.bits_processed());
    CHECK(bytes == std::vector<std::byte>(w.finish().begin(), w.finish().end()));
    CHECK(read_delta(bytes, base).names == v.names);
}
