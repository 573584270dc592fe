// Keyed deltas (docs/wire_format.md, "Keyed deltas": maps, sets, vectors with netser::keyed
// by key, netser::sparse arrays by slot) read from hostile bytes: truncation at every bit,
// every single-bit flip, a delta read against another baseline, and packets forged bit by
// bit (reference_writer, the oracle of tests/core/test_util.hpp) for each read error the
// text states: a touched entry past the baseline's count, an added key the result already
// holds, counts past max_size or past the packet, keys outside their range, a keyed
// element whose body changes its key, broken move lists, an unordered_map key that crowds
// its bucket, a baseline above max_size. And the writer's own refusals: a key twice, a key
// with no code. Each forged case asserts the exact code, and the bit where the text states
// one. Every read goes from an exactly sized block and allocates no more than a constant
// per type, whatever the counts the packet claims.
//
// Two cases found bugs, since fixed, when this file was written:
//   "keyed unordered_map deltas compare at most 16 keys per insertion ..." (the kept keys of
//     a hash table were not checked against their bucket: quadratic reads, SECURITY.md 3);
//   "a keyed delta of an unordered_map or unordered_set is the same bits whatever the
//     tables' iteration order" (an unchanged unordered_set in another order was sent as
//     changed: same_encoded compared sets in iteration order).
#include "hostile/hostile_types.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace hostile::keyed {

using netser::errc;
using netser_test::reference_writer;

// --- the types: each holder's first member is the container under attack ------------

// 18 bits plain: id in 10 (codes 1000..1023 above the range), hp in 7 (101..127 above).
struct Ent {
    std::uint16_t id = 0;
    std::uint8_t hp = 0;
    bool alive = false;
    bool operator==(const Ent&) const = default;
};
NETSER_STRUCT(Ent, (id, netser::range(0, 999)), (hp, netser::range(0, 100)), alive)

constexpr std::size_t list_max = 6; // every count of these: 3 bits

struct EntList {
    std::vector<Ent> list;
    bool operator==(const EntList&) const = default;
};
NETSER_STRUCT(EntList, (list, netser::max_size(list_max), netser::keyed(&Ent::id)))

struct EntMap { // keys: raw uint8, 8 bits
    std::map<std::uint8_t, Ent> m;
    bool operator==(const EntMap&) const = default;
};
NETSER_STRUCT(EntMap, (m, netser::max_size(list_max)))

struct TeamMap { // keys: a described enum of 3 values in 2 bits (code 3 undeclared); values 8 bits
    std::map<Team, std::uint8_t> m;
    bool operator==(const TeamMap&) const = default;
};
NETSER_STRUCT(TeamMap, (m, netser::max_size(3), netser::range(0, 200)))

struct RangeSet { // keys: code v + 500 in 10 bits (1001..1023 above the range)
    std::set<std::int32_t> s;
    bool operator==(const RangeSet&) const = default;
};
NETSER_STRUCT(RangeSet, (s, netser::max_size(list_max), netser::range(-500, 500)))

constexpr std::size_t hash_max = 40; // the count: 6 bits

struct HashMap { // keys: raw uint32, 32 bits; values 8 bits
    std::unordered_map<std::uint32_t, std::uint8_t> m;
    bool operator==(const HashMap&) const = default;
};
NETSER_STRUCT(HashMap, (m, netser::max_size(hash_max)))

struct HashSet { // keys: range(0, 999), 10 bits
    std::unordered_set<std::uint16_t> s;
    bool operator==(const HashSet&) const = default;
};
NETSER_STRUCT(HashSet, (s, netser::max_size(hash_max), netser::range(0, 999)))

constexpr std::size_t seat_count = 12;

struct Seats {
    std::array<std::optional<Ent>, seat_count> seats;
    bool operator==(const Seats&) const = default;
};
NETSER_STRUCT(Seats, (seats, netser::sparse))

struct Bunks {
    std::vector<std::optional<Ent>> bunks;
    bool operator==(const Bunks&) const = default;
};
NETSER_STRUCT(Bunks, (bunks, netser::sparse, netser::max_size(list_max)))

using keyed_types = type_list<EntList, EntMap, TeamMap, RangeSet, HashMap, HashSet, Seats, Bunks, Roster>;
constexpr std::string_view keyed_names[] = {"EntList", "EntMap",  "TeamMap", "RangeSet", "HashMap",
                                            "HashSet", "Seats",   "Bunks",   "Roster"};

// --- what a read may give: the declared limits, checked by hand -----------------------

bool valid(const Ent& e) { return e.id <= 999 && e.hp <= 100; }

bool valid(const EntList& v) {
    if (v.list.size() > list_max) return false;
    for (std::size_t i = 0; i < v.list.size(); ++i) {
        if (!valid(v.list[i])) return false;
        for (std::size_t j = 0; j < i; ++j)
            if (v.list[j].id == v.list[i].id) return false; // a key twice
    }
    return true;
}
bool valid(const EntMap& v) {
    return v.m.size() <= list_max &&
           std::all_of(v.m.begin(), v.m.end(), [](const auto& kv) { return valid(kv.second); });
}
bool valid(const TeamMap& v) {
    return v.m.size() <= 3 && std::all_of(v.m.begin(), v.m.end(), [](const auto& kv) {
               return (kv.first == Team::red || kv.first == Team::blue || kv.first == Team::green) && kv.second <= 200;
           });
}
bool valid(const RangeSet& v) {
    return v.s.size() <= list_max && std::all_of(v.s.begin(), v.s.end(), [](std::int32_t k) { return k >= -500 && k <= 500; });
}
bool valid(const HashMap& v) { return v.m.size() <= hash_max; }
bool valid(const HashSet& v) {
    return v.s.size() <= hash_max && std::all_of(v.s.begin(), v.s.end(), [](std::uint16_t k) { return k <= 999; });
}
bool valid(const Seats& v) {
    return std::all_of(v.seats.begin(), v.seats.end(), [](const auto& s) { return !s || valid(*s); });
}
bool valid(const Bunks& v) {
    return v.bunks.size() <= list_max &&
           std::all_of(v.bunks.begin(), v.bunks.end(), [](const auto& s) { return !s || valid(*s); });
}
bool valid(const Roster& v) { return satisfies_declared(v); }

// The most bytes a delta read of T may allocate, from its declared limits alone (libstdc++):
// for each container, 16 times max_size entries of the element and 8 pointers (the result,
// grown from the baseline's size; the reference order, codes and moves a read keeps aside;
// the node links and buckets), and 1 KiB. A read that sized anything from a forged count
// would pass it: counts on these wires go up to 2^6 - 1 entries, and are checked first.
constexpr std::size_t entries_heap(std::size_t max, std::size_t element) noexcept {
    return 16 * max * (element + 8 * sizeof(void*));
}
template <class T>
constexpr std::size_t heap_limit() noexcept {
    std::size_t n = 1024;
    if constexpr (std::is_same_v<T, EntList>) n += entries_heap(list_max, sizeof(Ent));
    else if constexpr (std::is_same_v<T, EntMap>) n += entries_heap(list_max, sizeof(std::pair<const std::uint8_t, Ent>));
    else if constexpr (std::is_same_v<T, TeamMap>) n += entries_heap(3, sizeof(std::pair<const Team, std::uint8_t>));
    else if constexpr (std::is_same_v<T, RangeSet>) n += entries_heap(list_max, sizeof(std::int32_t));
    else if constexpr (std::is_same_v<T, HashMap>) n += entries_heap(hash_max, sizeof(std::pair<const std::uint32_t, std::uint8_t>));
    else if constexpr (std::is_same_v<T, HashSet>) n += entries_heap(hash_max, sizeof(std::uint16_t));
    else if constexpr (std::is_same_v<T, Seats>) n += 0; // the slots are the object's own
    else if constexpr (std::is_same_v<T, Bunks>) n += entries_heap(list_max, sizeof(std::optional<Ent>));
    else {
        static_assert(std::is_same_v<T, Roster>);
        n += entries_heap(crew_max, sizeof(Crew)) + entries_heap(3, sizeof(std::pair<const Team, std::uint8_t>)) +
             entries_heap(5, sizeof(std::pair<const std::int16_t, Crew>)) + entries_heap(6, sizeof(std::int32_t)) +
             entries_heap(20, sizeof(std::uint16_t)) + entries_heap(8, sizeof(std::optional<Crew>));
    }
    return n;
}

// --- values: random ones, and what a game does to them between two snapshots -----------

std::uint16_t pooled_id(rng& r) { return static_cast<std::uint16_t>(r.below(4) != 0 ? r.below(12) : r.below(1000)); }
Ent random_ent(rng& r, std::uint16_t id) { return {id, static_cast<std::uint8_t>(r.below(101)), r.coin()}; }

void spawn(std::vector<Ent>& list, rng& r) {
    std::uint16_t id = pooled_id(r);
    while (std::any_of(list.begin(), list.end(), [&](const Ent& e) { return e.id == id; })) id = pooled_id(r);
    list.push_back(random_ent(r, id));
}

void randomize(EntList& v, rng& r) {
    v.list.clear();
    for (std::uint64_t i = 0, n = r.below(list_max + 1); i < n; ++i) spawn(v.list, r);
}
void randomize(EntMap& v, rng& r) {
    v.m.clear();
    for (std::uint64_t i = 0, n = r.below(list_max + 1); i < n; ++i)
        v.m[static_cast<std::uint8_t>(pooled_id(r))] = random_ent(r, pooled_id(r));
}
void randomize(TeamMap& v, rng& r) {
    v.m.clear();
    for (const Team t : {Team::red, Team::blue, Team::green})
        if (r.coin()) v.m[t] = static_cast<std::uint8_t>(r.below(201));
}
void randomize(RangeSet& v, rng& r) {
    v.s.clear();
    for (std::uint64_t i = 0, n = r.below(list_max + 1); i < n; ++i)
        v.s.insert(static_cast<std::int32_t>(r.coin() ? r.between(-3, 3) : r.between(-500, 500)));
}
void randomize(HashMap& v, rng& r) {
    v.m.clear();
    for (std::uint64_t i = 0, n = r.below(12); i < n; ++i)
        v.m[static_cast<std::uint32_t>(r.coin() ? r.below(16) : r.next())] = static_cast<std::uint8_t>(r.next());
}
void randomize(HashSet& v, rng& r) {
    v.s.clear();
    for (std::uint64_t i = 0, n = r.below(12); i < n; ++i)
        v.s.insert(static_cast<std::uint16_t>(r.coin() ? r.below(16) : r.below(1000)));
}
void randomize(Seats& v, rng& r) {
    for (auto& s : v.seats) {
        if (r.below(3) == 0) s = random_ent(r, pooled_id(r));
        else s.reset();
    }
}
void randomize(Bunks& v, rng& r) {
    v.bunks.resize(static_cast<std::size_t>(r.below(list_max + 1)));
    for (auto& s : v.bunks) {
        if (r.coin()) s = random_ent(r, pooled_id(r));
        else s.reset();
    }
}
void randomize(Roster& v, rng& r) { netser_fuzz::randomize(v, r, size_mode::small); }

void evolve(EntList& v, rng& r) {
    if (!v.list.empty() && r.coin()) { // a swap-remove: the last one moves into the hole
        const auto i = static_cast<std::size_t>(r.below(v.list.size()));
        v.list[i] = v.list.back();
        v.list.pop_back();
    }
    if (!v.list.empty() && r.coin()) v.list.erase(v.list.begin() + static_cast<std::ptrdiff_t>(r.below(v.list.size())));
    for (auto& e : v.list)
        if (r.below(3) == 0) e.hp = static_cast<std::uint8_t>(r.below(101));
    for (std::uint64_t k = 0, n = r.below(3); k < n && v.list.size() < list_max; ++k) spawn(v.list, r);
    if (r.below(4) == 0) std::sort(v.list.begin(), v.list.end(), [](const Ent& a, const Ent& b) { return a.id < b.id; });
    if (v.list.size() >= 2 && r.below(4) == 0) std::swap(v.list.front(), v.list.back());
}
void evolve(EntMap& v, rng& r) {
    if (!v.m.empty() && r.coin()) v.m.erase(v.m.begin());
    for (auto& [k, e] : v.m)
        if (r.coin()) e.hp = static_cast<std::uint8_t>(r.below(101));
    if (v.m.size() < list_max && r.coin()) v.m[static_cast<std::uint8_t>(pooled_id(r))] = random_ent(r, pooled_id(r));
}
void evolve(TeamMap& v, rng& r) {
    if (!v.m.empty() && r.coin()) v.m.erase(v.m.begin());
    if (r.coin()) v.m[static_cast<Team>(r.below(3))] = static_cast<std::uint8_t>(r.below(201));
}
void evolve(RangeSet& v, rng& r) {
    if (!v.s.empty() && r.coin()) v.s.erase(std::next(v.s.begin(), static_cast<std::ptrdiff_t>(r.below(v.s.size()))));
    if (v.s.size() < list_max && r.coin()) v.s.insert(static_cast<std::int32_t>(r.between(-3, 3)));
}
void evolve(HashMap& v, rng& r) {
    std::vector<std::uint32_t> keys; // by key, not in the table's order
    for (const auto& [k, value] : v.m) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    if (!keys.empty() && r.coin()) v.m.erase(keys.front()), keys.erase(keys.begin());
    for (const auto k : keys)
        if (r.coin()) v.m[k] = static_cast<std::uint8_t>(r.next());
    if (v.m.size() < hash_max && r.coin()) v.m[static_cast<std::uint32_t>(r.below(16))] = 1;
}
void evolve(HashSet& v, rng& r) {
    if (!v.s.empty() && r.coin()) v.s.erase(*std::min_element(v.s.begin(), v.s.end()));
    if (v.s.size() < hash_max && r.coin()) v.s.insert(static_cast<std::uint16_t>(r.below(16)));
}
void evolve(Seats& v, rng& r) {
    for (auto& s : v.seats)
        if (r.below(4) == 0) {
            if (s && r.coin()) s.reset();
            else if (s) s->hp = static_cast<std::uint8_t>(r.below(101));
            else s = random_ent(r, pooled_id(r));
        }
}
void evolve(Bunks& v, rng& r) {
    if (!v.bunks.empty() && r.coin()) v.bunks.pop_back();
    if (v.bunks.size() < list_max && r.coin()) v.bunks.push_back(random_ent(r, pooled_id(r)));
    for (auto& s : v.bunks)
        if (r.below(3) == 0) s = random_ent(r, pooled_id(r));
}
// Roster: netser_fuzz::evolve (fuzz_types.hpp), found by argument-dependent lookup.

template <class T>
T received(const T& value) {
    T out{};
    REQUIRE_FALSE(netser::as_received(value, out));
    return out;
}

/// A baseline (random, as a reader holds it) and a value a few snapshots later.
template <class T>
std::pair<T, T> world(std::uint64_t seed, int ticks) {
    rng r{seed * 0x9e3779b97f4a7c15ull + 17};
    T base{};
    randomize(base, r);
    base = received(base);
    T now = base;
    for (int t = 0; t < ticks; ++t) evolve(now, r);
    return {base, now};
}

// --- runners ------------------------------------------------------------------------

template <class T>
packet write_delta(const T& value, const T& base) {
    packet out;
    out.bytes.resize(netser::max_delta_bytes<T>());
    netser::write_stream w{std::span<std::byte>(out.bytes)};
    const bool ok = netser::serialize_delta(w, value, base);
    INFO("write error " << netser::to_string(w.error().code) << " at " << w.error().bit << " " << w.error().path());
    REQUIRE(ok);
    REQUIRE(w.bits_processed() <= netser::max_delta_bits<T>());
    out.bits = w.bits_processed();
    out.bytes.resize(w.finish().size());
    return out;
}

/// A delta read from an exactly sized copy of bytes into a fresh object, counting its allocations.
template <class T>
read_result<T> read_delta(std::span<const std::byte> bytes, const T& base) {
    return read_delta_value<T>(bytes, base);
}
template <class T>
read_result<T> read_delta(const reference_writer& w, const T& base) {
    const auto bytes = w.bytes();
    return read_delta<T>(std::span<const std::byte>(bytes), base);
}

/// What every read of hostile bytes ends with: a failure with a decode code, a bit inside
/// the packet and a path rooted at the type; or a success inside the packet whose value
/// keeps the declared limits. Either way no more allocation than the type's limit.
template <class T>
void check_clean(const read_result<T>& r, std::size_t packet_bytes, std::string_view name) {
    INFO(name << ": error " << netser::to_string(r.error.code) << " at bit " << r.error.bit << " path "
              << r.error.path() << ", " << r.heap.bytes << " bytes allocated");
    CHECK(r.heap.bytes <= heap_limit<T>());
    if (r.error) {
        CHECK(is_decode_code(r.error.code));
        CHECK(r.error.bit <= packet_bytes * 8);
        CHECK(rooted_at(r.error.path(), name));
    } else {
        CHECK(r.bits <= packet_bytes * 8);
        CHECK(valid(r.value));
    }
}

/// A failure with exactly this code, bit and path.
template <class T>
void check_failure(const read_result<T>& r, errc code, std::size_t bit, std::string_view path) {
    INFO("error " << netser::to_string(r.error.code) << " at bit " << r.error.bit << " path " << r.error.path());
    CHECK(r.error.code == code);
    CHECK(r.error.bit == bit);
    CHECK(r.error.path() == path);
}

// --- the wire, one field at a time (docs/wire_format.md) ---------------------------------

/// A relative index: the distance d from the previous index, for an end index `max`.
void put_index(reference_writer& w, std::int64_t d, std::int64_t max) {
    if (d == 1) return w.put(1, 1);
    w.put(0, 1);
    constexpr std::pair<std::int64_t, std::int64_t> rungs[] = {{2, 5}, {6, 13}, {14, 29}, {30, 61}, {62, 125}};
    for (const auto& [lo, hi] : rungs) {
        if (d <= hi) {
            w.put(1, 1);
            return w.put(static_cast<std::uint64_t>(d - lo), netser_test::width_of(static_cast<std::uint64_t>(hi - lo)));
        }
        w.put(0, 1);
    }
    w.put(static_cast<std::uint64_t>(d - 126), netser_test::width_of(static_cast<std::uint64_t>(max + 1 - 126)));
}

/// An Ent in its plain encoding (18 bits).
void put_ent(reference_writer& w, const Ent& e) {
    w.put(e.id, 10);
    w.put(e.hp, 7);
    w.put(e.alive ? 1 : 0, 1);
}

/// The struct's and the member's changed bits: the container's delta starts at bit 2.
reference_writer changed_member() {
    reference_writer w;
    w.put(1, 1);
    w.put(1, 1);
    return w;
}

/// The touched list by changed bits, none set (listing bit 0, n clear bits).
void put_untouched(reference_writer& w, std::size_t n) {
    w.put(0, 1);
    for (std::size_t i = 0; i < n; ++i) w.put(0, 1);
}

constexpr int count_bits = 3; // bits_required(0, 6)

EntList ents(std::initializer_list<std::uint16_t> ids) {
    EntList v;
    for (const auto id : ids) v.list.push_back({id, 50, true});
    return v;
}
EntMap ent_map(std::initializer_list<std::uint8_t> keys) {
    EntMap v;
    for (const auto k : keys) v.m[k] = {7, 50, true};
    return v;
}

} // namespace hostile::keyed

namespace hostile {

using namespace keyed;

// --- truncation, flips, other baselines ---------------------------------------------------

TEST_CASE("a keyed delta cut at every bit fails with overflow, or decodes within the declared limits",
          "[hostile][delta][keyed]") {
    for_each_type<keyed_types>([]<class T>(std::type_identity<T>, std::size_t index) {
        const std::string_view name = keyed_names[index];
        std::size_t cut_failed = 0;
        for (std::uint64_t seed = 0; seed < 4; ++seed) {
            const auto [base, now] = world<T>(seed, 1 + static_cast<int>(seed % 3));
            const packet p = write_delta(now, base);
            const T expected = received(now);
            for (std::size_t bits = 0; bits <= p.bits; ++bits) {
                INFO(name << " seed " << seed << ": cut at bit " << bits << " of " << p.bits);
                std::vector<std::byte> cut(p.bytes.begin(), p.bytes.begin() + static_cast<std::ptrdiff_t>((bits + 7) / 8));
                if (bits % 8 != 0) cut.back() &= static_cast<std::byte>((1u << (bits % 8)) - 1);
                const auto r = read_delta<T>(cut, base);
                check_clean(r, cut.size(), name);
                if (cut == p.bytes) { // nothing of the packet is missing: the value itself
                    REQUIRE_FALSE(r.error);
                    CHECK(r.bits == p.bits);
                    CHECK(bits_of(r.value).sent == bits_of(expected).sent);
                } else if (std::equal(cut.begin(), cut.end(), p.bytes.begin())) {
                    // The packet's first bytes, whole: the reader runs out where the writer went on.
                    CHECK(r.error.code == errc::overflow);
                    CHECK(r.error.bit <= cut.size() * 8);
                }
                cut_failed += r.error ? 1u : 0u;
            }
        }
        INFO(name << ": " << cut_failed << " cuts failed");
        CHECK(cut_failed > 0);
    });
}

TEST_CASE("every single-bit flip of a keyed delta fails cleanly or decodes within the declared limits",
          "[hostile][delta][keyed]") {
    for_each_type<keyed_types>([]<class T>(std::type_identity<T>, std::size_t index) {
        const std::string_view name = keyed_names[index];
        std::size_t failed = 0, decoded = 0;
        for (std::uint64_t seed = 10; seed < 16; ++seed) {
            const auto [base, now] = world<T>(seed, 1 + static_cast<int>(seed % 3));
            const packet p = write_delta(now, base);
            for (std::size_t bit = 0; bit < p.bytes.size() * 8; ++bit) {
                INFO(name << " seed " << seed << ": bit " << bit << " of " << p.bits << " flipped");
                auto flipped = p.bytes;
                flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
                const auto r = read_delta<T>(flipped, base);
                check_clean(r, flipped.size(), name);
                ++(r.error ? failed : decoded);
            }
        }
        // Both branches ran: the decoded flips had their values checked, and some failed.
        INFO(name << ": " << failed << " flips failed, " << decoded << " decoded");
        CHECK(failed > 0);
        CHECK(decoded > 0);
    });
}

TEST_CASE("a keyed delta read against another baseline fails cleanly or decodes within the declared limits",
          "[hostile][delta][keyed]") {
    for_each_type<keyed_types>([]<class T>(std::type_identity<T>, std::size_t index) {
        const std::string_view name = keyed_names[index];
        for (std::uint64_t seed = 20; seed < 26; ++seed) {
            const auto [base, now] = world<T>(seed, 2);
            const packet p = write_delta(now, base);
            for (std::uint64_t other = 0; other < 6; ++other) {
                const auto [wrong, later] = world<T>(seed * 100 + other, 1 + static_cast<int>(other % 3));
                INFO(name << " seed " << seed << " against baseline " << other);
                check_clean(read_delta<T>(p.bytes, wrong), p.bytes.size(), name);
                check_clean(read_delta<T>(p.bytes, received(later)), p.bytes.size(), name);
            }
        }
    });
}

// --- a key the baseline lacks ----------------------------------------------------------

// An absent key cannot be named on this wire: the touched entries are named by their place
// in the baseline's reference order (a changed bit each, or a relative index ending at the
// baseline's count nb). The nearest thing is an index past nb, which fails with out_of_range
// at the index's first bit; and with an empty baseline there is no touched list at all.
TEST_CASE("a touched entry past the baseline's count (a key the baseline lacks) fails with out_of_range at its index",
          "[hostile][delta][keyed]") {
    SECTION("a map") {
        const EntMap base = ent_map({1, 2, 3});
        auto w = changed_member();
        w.put(1, 1);          // listing: relative indices, end 3
        put_index(w, 5, 3);   // -1 + 5 = 4, past the end 3
        w.put(0, count_bits); // (never read)
        check_failure(read_delta<EntMap>(w, base), errc::out_of_range, 3, "EntMap.m");
        // The same after a valid entry: entry 0 removed, then 0 + 4 = 4.
        auto w2 = changed_member();
        w2.put(1, 1);
        put_index(w2, 1, 3);
        w2.put(1, 1); // removed
        const std::size_t at = w2.bits();
        put_index(w2, 4, 3);
        check_failure(read_delta<EntMap>(w2, base), errc::out_of_range, at, "EntMap.m");
        // The end index itself (3) closes the list: entry 0 removed, the others kept.
        auto ok = changed_member();
        ok.put(1, 1);
        put_index(ok, 1, 3);
        ok.put(1, 1);
        put_index(ok, 3, 3);
        ok.put(0, count_bits);
        const auto r = read_delta<EntMap>(ok, base);
        REQUIRE_FALSE(r.error);
        CHECK(r.value == ent_map({2, 3}));
    }
    SECTION("a set") {
        RangeSet base;
        base.s = {-1, 0, 1};
        auto w = changed_member();
        w.put(1, 1);
        put_index(w, 5, 3);
        check_failure(read_delta<RangeSet>(w, base), errc::out_of_range, 3, "RangeSet.s");
    }
    SECTION("a keyed vector") {
        const EntList base = ents({1, 2, 3});
        auto w = changed_member();
        w.put(1, 1);
        put_index(w, 6, 3); // -1 + 6 = 5 (rung [6, 13])
        check_failure(read_delta<EntList>(w, base), errc::out_of_range, 3, "EntList.list");
    }
    SECTION("a sparse array: a slot past the last") {
        Seats base;
        base.seats[3] = Ent{1, 2, true};
        auto w = changed_member();
        w.put(1, 1);
        put_index(w, 14, static_cast<std::int64_t>(seat_count)); // -1 + 14 = 13, past the end 12
        check_failure(read_delta<Seats>(w, base), errc::out_of_range, 3, "Seats.seats");
    }
    SECTION("an empty baseline has no touched list: the added count comes first") {
        auto w = changed_member();
        w.put(1, count_bits);
        w.put(9, 8), put_ent(w, {4, 5, true});
        const auto r = read_delta<EntMap>(w, EntMap{});
        REQUIRE_FALSE(r.error);
        CHECK(r.bits == w.bits());
        CHECK(r.value.m == std::map<std::uint8_t, Ent>{{9, {4, 5, true}}});
    }
}

// --- an added key the result already holds -----------------------------------------------

TEST_CASE("an added key the result already holds fails with invalid_value at the added entry's first bit",
          "[hostile][delta][keyed]") {
    SECTION("a map: a key kept from the baseline") {
        auto w = changed_member();
        put_untouched(w, 2);
        w.put(1, count_bits);
        const std::size_t at = w.bits();
        w.put(2, 8), put_ent(w, {1, 1, false});
        check_failure(read_delta<EntMap>(w, ent_map({1, 2})), errc::invalid_value, at, "EntMap.m[0]");
    }
    SECTION("a map: a key added twice") {
        auto w = changed_member();
        put_untouched(w, 1);
        w.put(2, count_bits);
        w.put(5, 8), put_ent(w, {1, 1, false});
        const std::size_t at = w.bits();
        w.put(5, 8), put_ent(w, {2, 2, true});
        check_failure(read_delta<EntMap>(w, ent_map({1})), errc::invalid_value, at, "EntMap.m[1]");
    }
    SECTION("a map of enum keys") {
        TeamMap base;
        base.m[Team::blue] = 9;
        auto w = changed_member();
        put_untouched(w, 1);
        w.put(1, 2);
        const std::size_t at = w.bits();
        w.put(1, 2), w.put(10, 8); // blue (code 1) again
        check_failure(read_delta<TeamMap>(w, base), errc::invalid_value, at, "TeamMap.m[0]");
    }
    SECTION("a set: kept, and added twice") {
        RangeSet base;
        base.s = {0, 7};
        auto w = changed_member();
        put_untouched(w, 2);
        w.put(1, count_bits);
        const std::size_t at = w.bits();
        w.put(7 + 500, 10);
        check_failure(read_delta<RangeSet>(w, base), errc::invalid_value, at, "RangeSet.s[0]");
        auto twice = changed_member();
        twice.put(3, count_bits);
        twice.put(1 + 500, 10), twice.put(2 + 500, 10);
        const std::size_t second = twice.bits();
        twice.put(1 + 500, 10);
        check_failure(read_delta<RangeSet>(twice, RangeSet{}), errc::invalid_value, second, "RangeSet.s[2]");
    }
    SECTION("an unordered_map: kept, and added twice") {
        HashMap base;
        base.m = {{9, 1}};
        auto w = changed_member();
        put_untouched(w, 1);
        w.put(1, 6);
        const std::size_t at = w.bits();
        w.put(9, 32), w.put(2, 8);
        check_failure(read_delta<HashMap>(w, base), errc::invalid_value, at, "HashMap.m[0]");
        auto twice = changed_member();
        twice.put(2, 6);
        twice.put(70000, 32), twice.put(1, 8);
        const std::size_t second = twice.bits();
        twice.put(70000, 32), twice.put(2, 8);
        check_failure(read_delta<HashMap>(twice, HashMap{}), errc::invalid_value, second, "HashMap.m[1]");
    }
    SECTION("an unordered_set: kept, and added twice") {
        HashSet base;
        base.s = {9};
        auto w = changed_member();
        put_untouched(w, 1);
        w.put(1, 6);
        const std::size_t at = w.bits();
        w.put(9, 10);
        check_failure(read_delta<HashSet>(w, base), errc::invalid_value, at, "HashSet.s[0]");
        auto twice = changed_member();
        twice.put(2, 6);
        twice.put(700, 10);
        const std::size_t second = twice.bits();
        twice.put(700, 10);
        check_failure(read_delta<HashSet>(twice, HashSet{}), errc::invalid_value, second, "HashSet.s[1]");
    }
    SECTION("a keyed vector: kept, and added twice") {
        // Baseline ids 1, 2 untouched; 1 added: id 2 again. The element's path is its
        // place in the result (kept elements first).
        auto w = changed_member();
        put_untouched(w, 2);
        w.put(1, count_bits);
        const std::size_t at = w.bits();
        put_ent(w, {2, 9, false});
        w.put(0, 1); // order: not moved (never read)
        check_failure(read_delta<EntList>(w, ents({1, 2})), errc::invalid_value, at, "EntList.list[2]");
        auto twice = changed_member();
        twice.put(3, count_bits);
        put_ent(twice, {4, 1, true});
        put_ent(twice, {5, 1, true});
        const std::size_t second = twice.bits();
        put_ent(twice, {4, 2, false});
        twice.put(0, 1);
        check_failure(read_delta<EntList>(twice, EntList{}), errc::invalid_value, second, "EntList.list[2]");
    }
    SECTION("a key removed and added again in one delta is a new entry, not a repeated one") {
        auto w = changed_member();
        w.put(0, 1), w.put(1, 1), w.put(1, 1), w.put(0, 1); // entry 0 (key 1) removed, key 2 kept
        w.put(1, count_bits);
        w.put(1, 8), put_ent(w, {8, 8, false});
        auto r = read_delta<EntMap>(w, ent_map({1, 2}));
        REQUIRE_FALSE(r.error);
        CHECK(r.value.m.at(1) == Ent{8, 8, false});
        CHECK(r.value.m.size() == 2);
        auto v = changed_member();
        v.put(0, 1), v.put(1, 1), v.put(1, 1), v.put(0, 1);
        v.put(1, count_bits);
        put_ent(v, {1, 8, false});
        v.put(0, 1); // the kept order: 2, then the added 1
        const auto rv = read_delta<EntList>(v, ents({1, 2}));
        REQUIRE_FALSE(rv.error);
        CHECK(rv.value.list == std::vector<Ent>{{2, 50, true}, {1, 8, false}});
    }
}

// --- counts past max_size ----------------------------------------------------------------

TEST_CASE("an added count past max_size fails with too_large at the count, before anything is allocated",
          "[hostile][delta][keyed]") {
    SECTION("a count above max_size itself") {
        auto w = changed_member();
        w.put(7, count_bits); // max_size 6
        const auto m = read_delta<EntMap>(w, EntMap{});
        check_failure(m, errc::too_large, 2, "EntMap.m");
        CHECK(m.heap.bytes == 0);
        const auto s = read_delta<RangeSet>(w, RangeSet{});
        check_failure(s, errc::too_large, 2, "RangeSet.s");
        CHECK(s.heap.bytes == 0);
        const auto v = read_delta<EntList>(w, EntList{});
        check_failure(v, errc::too_large, 2, "EntList.list");
        CHECK(v.heap.bytes == 0);
        auto h = changed_member();
        h.put(hash_max + 1, 6);
        check_failure(read_delta<HashMap>(h, HashMap{}), errc::too_large, 2, "HashMap.m");
    }
    SECTION("a count that takes the kept entries past max_size") {
        auto w = changed_member();
        put_untouched(w, 4);
        const std::size_t at = w.bits();
        w.put(3, count_bits); // 4 kept + 3 > 6
        for (int k = 0; k < 3; ++k) w.put(static_cast<std::uint64_t>(20 + k), 8), put_ent(w, {});
        check_failure(read_delta<EntMap>(w, ent_map({1, 2, 3, 4})), errc::too_large, at, "EntMap.m");
        // 2 more would fit: the limit is exactly max_size.
        auto fits = changed_member();
        put_untouched(fits, 4);
        fits.put(2, count_bits);
        for (int k = 0; k < 2; ++k) fits.put(static_cast<std::uint64_t>(20 + k), 8), put_ent(fits, {});
        const auto r = read_delta<EntMap>(fits, ent_map({1, 2, 3, 4}));
        REQUIRE_FALSE(r.error);
        CHECK(r.value.m.size() == list_max);

        auto v = changed_member();
        put_untouched(v, 5);
        const std::size_t vat = v.bits();
        v.put(2, count_bits); // 5 kept + 2 > 6
        put_ent(v, {20, 0, false}), put_ent(v, {21, 0, false});
        check_failure(read_delta<EntList>(v, ents({1, 2, 3, 4, 5})), errc::too_large, vat, "EntList.list");

        RangeSet base;
        base.s = {1, 2, 3, 4, 5, 6};
        auto s = changed_member();
        put_untouched(s, 6);
        const std::size_t sat = s.bits();
        s.put(1, count_bits), s.put(500, 10);
        check_failure(read_delta<RangeSet>(s, base), errc::too_large, sat, "RangeSet.s");

        TeamMap teams;
        teams.m = {{Team::red, 1}, {Team::blue, 2}, {Team::green, 3}};
        auto t = changed_member();
        put_untouched(t, 3);
        const std::size_t tat = t.bits();
        t.put(1, 2), t.put(0, 2), t.put(0, 8);
        check_failure(read_delta<TeamMap>(t, teams), errc::too_large, tat, "TeamMap.m");
    }
    SECTION("a count within max_size that the packet cannot hold fails with overflow at the count") {
        auto w = changed_member();
        w.put(6, count_bits); // 6 entries of at least 26 bits (map) or 18 (vector): the packet ends
        w.put(0, 20);
        const auto m = read_delta<EntMap>(w, EntMap{});
        check_failure(m, errc::overflow, 2, "EntMap.m");
        CHECK(m.heap.bytes == 0);
        const auto v = read_delta<EntList>(w, EntList{});
        check_failure(v, errc::overflow, 2, "EntList.list");
        CHECK(v.heap.bytes == 0);
    }
    SECTION("a sparse vector's slot count above max_size") {
        auto w = changed_member();
        w.put(0, 1);          // not the baseline's count
        w.put(7, count_bits); // max_size 6
        const auto r = read_delta<Bunks>(w, Bunks{});
        check_failure(r, errc::too_large, 3, "Bunks.bunks");
        CHECK(r.heap.bytes == 0);
    }
}

// --- keys outside their range ----------------------------------------------------------------

TEST_CASE("an added key outside its range fails at the key: out_of_range, or invalid_value for an undeclared enum",
          "[hostile][delta][keyed]") {
    auto w = changed_member();
    w.put(1, count_bits);
    w.put(1001, 10); // -500 + 1001 = 501
    check_failure(read_delta<RangeSet>(w, RangeSet{}), errc::out_of_range, 5, "RangeSet.s[0]");

    auto v = changed_member();
    v.put(1, count_bits);
    v.put(1000, 10), v.put(0, 7), v.put(0, 1); // id 1000
    check_failure(read_delta<EntList>(v, EntList{}), errc::out_of_range, 5, "EntList.list[0].id");

    auto t = changed_member();
    t.put(1, 2);
    t.put(3, 2), t.put(0, 8); // Team code 3: none
    check_failure(read_delta<TeamMap>(t, TeamMap{}), errc::invalid_value, 4, "TeamMap.m[0]");

    // A value (not a key) above its range, for comparison: out_of_range at the value.
    auto tv = changed_member();
    tv.put(1, 2);
    tv.put(0, 2), tv.put(201, 8);
    check_failure(read_delta<TeamMap>(tv, TeamMap{}), errc::out_of_range, 6, "TeamMap.m[0]");
}

TEST_CASE("a keyed element's key changed out of its range fails with out_of_range at the difference",
          "[hostile][delta][keyed]") {
    // Baseline id 999 (the top of range(0, 999)); entry 0 changed, not removed, id changed
    // by +1 (the first rung: flag 1, sign 0): 1000 leaves the range before any key check.
    auto w = changed_member();
    w.put(0, 1), w.put(1, 1), w.put(0, 1); // listing by bits; entry 0 touched; not removed
    w.put(1, 1);                           // id changed
    const std::size_t at = w.bits();
    w.put(1, 1), w.put(0, 1), w.put(0, 1), w.put(0, 1); // +1; hp, alive unchanged
    w.put(0, count_bits);
    check_failure(read_delta<EntList>(w, ents({999})), errc::out_of_range, at, "EntList.list[0].id");
}

TEST_CASE("a baseline key with no code fails the read at the container and the write with the key's error",
          "[hostile][delta][keyed]") {
    RangeSet bad;
    bad.s = {600}; // above range(-500, 500): a baseline no reader can hold from a packet
    auto w = changed_member();
    put_untouched(w, 1);
    w.put(0, count_bits);
    const auto r = read_delta<RangeSet>(w, bad);
    CHECK(r.error.code == errc::out_of_range);
    CHECK(r.error.bit == 2);
    const auto v = read_delta<EntList>(w, ents({1000}));
    CHECK(v.error.code == errc::out_of_range);
    CHECK(v.error.bit == 2);

    std::vector<std::byte> buffer(64);
    netser::write_stream ws(buffer.data(), buffer.size());
    RangeSet empty;
    CHECK_FALSE(netser::serialize_delta(ws, empty, bad));
    CHECK(ws.error().code == errc::out_of_range);
    CHECK(ws.bits_processed() == ws.error().bit);
}

// --- a keyed element whose body changes its key -------------------------------------------------

TEST_CASE("a keyed vector element whose delta body changes its key fails with invalid_value at the entry's first bit",
          "[hostile][delta][keyed]") {
    SECTION("named by a changed bit: id 5 to 6, a key no other element has") {
        auto w = changed_member();
        w.put(0, 1), w.put(1, 1); // listing by bits; entry 0 touched
        const std::size_t at = w.bits();
        w.put(0, 1);              // not removed
        w.put(1, 1), w.put(1, 1), w.put(0, 1); // id changed, +1
        w.put(0, 1), w.put(0, 1);              // hp, alive unchanged
        w.put(0, 1);                           // entry 1 untouched
        w.put(0, count_bits), w.put(0, 1);
        check_failure(read_delta<EntList>(w, ents({5, 7})), errc::invalid_value, at, "EntList.list[0]");
    }
    SECTION("named by a relative index: id 7 to 5, the key of the other element") {
        auto w = changed_member();
        w.put(1, 1);
        put_index(w, 2, 2); // entry 1
        const std::size_t at = w.bits();
        w.put(0, 1);        // not removed
        w.put(1, 1);        // id changed: -2, rung [2, 16] (flags 0, 1), sign 1, 2 - 2 in 4 bits
        w.put(0, 1), w.put(1, 1), w.put(1, 1), w.put(0, 4);
        w.put(0, 2);        // hp, alive unchanged
        put_index(w, 1, 2); // the end
        w.put(0, count_bits), w.put(0, 1);
        check_failure(read_delta<EntList>(w, ents({5, 7})), errc::invalid_value, at, "EntList.list[1]");
    }
    SECTION("a body that leaves the key alone reads") {
        auto w = changed_member();
        w.put(0, 1), w.put(1, 1), w.put(0, 1);              // listing by bits; entry 0 touched; not removed
        w.put(0, 1), w.put(1, 1), w.put(1, 1), w.put(0, 1); // id unchanged; hp changed +1
        w.put(0, 1);                                        // alive unchanged
        w.put(0, 1), w.put(0, count_bits), w.put(0, 1);     // entry 1 untouched; none added; not moved
        const auto r = read_delta<EntList>(w, ents({5, 7}));
        REQUIRE_FALSE(r.error);
        CHECK(r.value.list == std::vector<Ent>{{5, 51, true}, {7, 50, true}});
    }
}

// --- the order: move lists ----------------------------------------------------------------------

namespace {

// Baseline ids 1..n untouched, nothing added: the order field of n elements starts here.
reference_writer before_order(std::size_t n) {
    auto w = changed_member();
    put_untouched(w, n);
    w.put(0, count_bits);
    return w;
}

EntList ordered(std::size_t n) {
    EntList v;
    for (std::size_t i = 0; i < n; ++i) v.list.push_back({static_cast<std::uint16_t>(i + 1), 50, true});
    return v;
}

std::vector<std::uint16_t> ids_of(const EntList& v) {
    std::vector<std::uint16_t> out;
    for (const auto& e : v.list) out.push_back(e.id);
    return out;
}

} // namespace

TEST_CASE("keyed vector moves: a place moved twice fails with invalid_value, one past the end with out_of_range",
          "[hostile][delta][keyed]") {
    // n = 4: the move count in bits_required(0, 4) = 3 bits, a place from the end in
    // bits_required(0, 3) = 2 bits.
    const EntList base = ordered(4);
    SECTION("the forged wire is read as the text says: place 3 moved to position 0") {
        auto w = before_order(4);
        w.put(1, 1), w.put(1, 1), w.put(1, 3); // moved, listed, 1 move
        put_index(w, 1, 4), w.put(4 - 1 - 3, 2);
        const auto r = read_delta<EntList>(w, base);
        REQUIRE_FALSE(r.error);
        CHECK(r.bits == w.bits());
        CHECK(ids_of(r.value) == std::vector<std::uint16_t>{4, 1, 2, 3});
        // Not listed: the reader sorts by key code.
        auto sorted = before_order(4);
        sorted.put(1, 1), sorted.put(0, 1);
        EntList shuffled;
        shuffled.list = {{3, 1, true}, {1, 1, true}, {4, 1, true}, {2, 1, true}};
        const auto s = read_delta<EntList>(sorted, shuffled);
        REQUIRE_FALSE(s.error);
        CHECK(ids_of(s.value) == std::vector<std::uint16_t>{1, 2, 3, 4});
    }
    SECTION("a place moved twice") {
        auto w = before_order(4);
        w.put(1, 1), w.put(1, 1), w.put(2, 3);
        put_index(w, 1, 4), w.put(0, 2); // position 0 <- place 3
        const std::size_t second = w.bits();
        put_index(w, 1, 4), w.put(0, 2); // position 1 <- place 3 again
        check_failure(read_delta<EntList>(w, base), errc::invalid_value, second, "EntList.list");
    }
    SECTION("a new position at or past the end") {
        auto w = before_order(4);
        w.put(1, 1), w.put(1, 1), w.put(1, 3);
        const std::size_t at = w.bits();
        put_index(w, 5, 4), w.put(0, 2); // -1 + 5 = 4: the end index, no position
        check_failure(read_delta<EntList>(w, base), errc::out_of_range, at, "EntList.list");
        auto past = before_order(4);
        past.put(1, 1), past.put(1, 1), past.put(2, 3);
        put_index(past, 1, 4), past.put(0, 2);
        const std::size_t second = past.bits();
        put_index(past, 5, 4), past.put(1, 2); // 0 + 5 = 5, past the end index
        check_failure(read_delta<EntList>(past, base), errc::out_of_range, second, "EntList.list");
    }
    SECTION("a place past the end") {
        // n = 3: places from the end in bits_required(0, 2) = 2 bits, so 3 is past them.
        auto w = before_order(3);
        w.put(1, 1), w.put(1, 1), w.put(1, 2);
        const std::size_t at = w.bits();
        put_index(w, 1, 3), w.put(3, 2);
        check_failure(read_delta<EntList>(w, ordered(3)), errc::out_of_range, at, "EntList.list");
    }
    SECTION("a move count above the element count") {
        // The text states no bit for it: the reader reports the order field's first bit.
        auto w = before_order(4);
        const std::size_t at = w.bits();
        w.put(1, 1), w.put(1, 1), w.put(5, 3);
        check_failure(read_delta<EntList>(w, base), errc::out_of_range, at, "EntList.list");
    }
}

// --- an unordered_map key crowding its bucket ----------------------------------------------------

namespace {

// The bucket count of the table a reader fills for `count` added entries and an empty
// baseline: sized for the baseline (0), then for the kept and added entries.
template <class Table>
std::size_t reader_buckets(std::size_t count) {
    Table t(0);
    t.reserve(0);
    t.reserve(count);
    return t.bucket_count();
}

// `count` added keys, all in one bucket of the reader's table (std::hash of an integer is
// the integer on libstdc++, as SECURITY.md's collision tests assume): a map's keys of 32
// bits and values of 8, a set's keys of 10 bits.
template <class T>
reference_writer crowded(std::size_t count, std::size_t& last_at) {
    auto w = changed_member();
    w.put(count, 6);
    if constexpr (std::is_same_v<T, HashMap>) {
        const std::size_t buckets = reader_buckets<decltype(HashMap::m)>(count);
        for (std::size_t i = 0; i < count; ++i) {
            last_at = w.bits();
            w.put(5 + i * buckets, 32), w.put(i, 8);
        }
    } else {
        const std::size_t buckets = reader_buckets<decltype(HashSet::s)>(count);
        REQUIRE(5 + (count - 1) * buckets <= 999);
        for (std::size_t i = 0; i < count; ++i) {
            last_at = w.bits();
            w.put(5 + i * buckets, 10);
        }
    }
    return w;
}

} // namespace

TEST_CASE("an added unordered_map or unordered_set key that crowds its bucket past 16 keys fails with too_large "
          "at the entry",
          "[hostile][delta][keyed]") {
    std::size_t last = 0;
    const auto ok = read_delta<HashMap>(crowded<HashMap>(16, last).bytes(), HashMap{});
    REQUIRE_FALSE(ok.error); // 16 keys in one bucket: the limit itself
    CHECK(ok.value.m.size() == 16);
    const auto r = read_delta<HashMap>(crowded<HashMap>(17, last).bytes(), HashMap{});
    check_failure(r, errc::too_large, last, "HashMap.m[16]");
    CHECK(r.heap.bytes <= heap_limit<HashMap>());

    const auto set_ok = read_delta<HashSet>(crowded<HashSet>(16, last).bytes(), HashSet{});
    REQUIRE_FALSE(set_ok.error);
    CHECK(set_ok.value.s.size() == 16);
    const auto s = read_delta<HashSet>(crowded<HashSet>(17, last).bytes(), HashSet{});
    check_failure(s, errc::too_large, last, "HashSet.s[16]");
}

// Kept keys too (SECURITY.md, "Bounded time": "each insertion then compares at most 16 keys,
// whatever keys a peer chose"). A reader's table for a keyed delta is sized for the
// baseline's count, takes the kept entries, and is then reserved for the result's count,
// which may shrink it; only the added keys are checked against their bucket. So a peer
// can crowd the kept keys: a plain packet of N keys whose M survivors are all multiples of
// the bucket count for M (spread among the N-key table's buckets), then a delta that
// removes the others (the result's table shrinks to M's bucket count: one bucket of M
// keys), then any delta against that (each kept key is compared with those before it).
namespace crowd {

std::size_t comparisons = 0;

struct counting_equal {
    bool operator()(std::uint32_t a, std::uint32_t b) const noexcept {
        ++comparisons;
        return a == b;
    }
};

struct Table {
    std::unordered_map<std::uint32_t, std::uint8_t, std::hash<std::uint32_t>, counting_equal> m;
};
NETSER_STRUCT(Table, (m, netser::max_size(1024)))

std::size_t largest_bucket(const Table& t) {
    std::size_t most = 0;
    for (std::size_t b = 0; b < t.m.bucket_count(); ++b) most = std::max(most, t.m.bucket_size(b));
    return most;
}

template <class F>
std::vector<std::byte> written(F&& f) {
    std::vector<std::byte> buffer(1 << 14);
    netser::write_stream w(buffer.data(), buffer.size());
    REQUIRE(f(w));
    const auto bytes = w.finish();
    return {bytes.begin(), bytes.end()};
}

} // namespace crowd

TEST_CASE("keyed unordered_map deltas compare at most 16 keys per insertion and leave no bucket past 16 keys, "
          "kept keys included",
          "[hostile][delta][keyed]") {
    using crowd::Table;
    constexpr std::size_t limit = netser::detail::max_keys_per_bucket;
    constexpr std::size_t survivors = 256, all = 1024;
    decltype(Table::m) probe;
    probe.reserve(survivors);
    const std::size_t buckets = probe.bucket_count(); // the reader's for the survivors
    Table first, second, third;
    for (std::size_t i = 0; i < survivors; ++i) second.m[static_cast<std::uint32_t>(5 + i * buckets)] = 1;
    first.m = second.m;
    for (std::uint32_t i = 0; first.m.size() < all; ++i) first.m[0x40000000u + i * 7919u] = 2;
    third.m = second.m;
    third.m[0x7fffffffu] = 3;

    // The plain packet reads: the keys are spread among the buckets of its table.
    const auto plain = crowd::written([&](auto& w) { return netser::serialize(w, first); });
    Table s1;
    netser::read_stream r1(plain.data(), plain.size());
    REQUIRE(netser::serialize(r1, s1));
    REQUIRE(crowd::largest_bucket(s1) <= limit);

    // A delta that removes the fillers: it may fail (too_large), not leave a crowded table.
    const auto removal = crowd::written([&](auto& w) { return netser::serialize_delta(w, second, s1); });
    Table s2;
    netser::read_stream r2(removal.data(), removal.size());
    crowd::comparisons = 0;
    const bool read2 = netser::serialize_delta(r2, s2, s1);
    INFO("the removal: " << netser::to_string(r2.error().code) << ", " << crowd::comparisons << " comparisons, "
                         << "largest bucket " << crowd::largest_bucket(s2) << " of " << s2.m.bucket_count());
    CHECK(crowd::comparisons <= limit * all);
    if (!read2) {
        CHECK(r2.error().code == errc::too_large);
        return;
    }
    CHECK(crowd::largest_bucket(s2) <= limit);

    // Any delta against it: one key added (not in the crowded bucket).
    const auto next = crowd::written([&](auto& w) { return netser::serialize_delta(w, third, s2); });
    Table s3;
    netser::read_stream r3(next.data(), next.size());
    crowd::comparisons = 0;
    const bool read3 = netser::serialize_delta(r3, s3, s2);
    INFO("the next delta (" << next.size() << " bytes): " << netser::to_string(r3.error().code) << ", "
                            << crowd::comparisons << " comparisons for " << survivors + 1 << " insertions");
    CHECK(crowd::comparisons <= limit * (survivors + 1));
    if (read3) CHECK(crowd::largest_bucket(s3) <= limit);
    else CHECK(r3.error().code == errc::too_large);
}

// --- a baseline above max_size ----------------------------------------------------------------

TEST_CASE("a keyed delta against a baseline above max_size fails with too_large at the container",
          "[hostile][delta][keyed]") {
    auto w = changed_member();
    put_untouched(w, 7);
    w.put(0, count_bits);
    const auto m = read_delta<EntMap>(w, ent_map({1, 2, 3, 4, 5, 6, 7}));
    check_failure(m, errc::too_large, 2, "EntMap.m");
    CHECK(m.heap.bytes == 0);
    const auto v = read_delta<EntList>(w, ents({1, 2, 3, 4, 5, 6, 7}));
    check_failure(v, errc::too_large, 2, "EntList.list");
    CHECK(v.heap.bytes == 0);
    RangeSet seven;
    seven.s = {1, 2, 3, 4, 5, 6, 7};
    check_failure(read_delta<RangeSet>(w, seven), errc::too_large, 2, "RangeSet.s");
    HashMap many;
    for (std::uint32_t k = 0; k <= hash_max; ++k) many.m[k] = 0;
    check_failure(read_delta<HashMap>(w, many), errc::too_large, 2, "HashMap.m");
    HashSet crowd_of_keys;
    for (std::uint16_t k = 0; k <= hash_max; ++k) crowd_of_keys.s.insert(k);
    check_failure(read_delta<HashSet>(w, crowd_of_keys), errc::too_large, 2, "HashSet.s");
    // A sparse vector whose same-count bit keeps the baseline's 7 slots.
    Bunks bunks;
    bunks.bunks.resize(7);
    auto same = changed_member();
    same.put(1, 1), same.put(0, 1), same.put(0, 7);
    check_failure(read_delta<Bunks>(same, bunks), errc::too_large, 2, "Bunks.bunks");
}

// --- the writer --------------------------------------------------------------------------------

TEST_CASE("a keyed delta write with a key twice fails with invalid_value and writes nothing past the failure",
          "[hostile][delta][keyed]") {
    EntList twice = ents({5, 9, 5});
    const auto check_write = [](const EntList& v, const EntList& base, errc code, std::string_view path) {
        std::vector<std::byte> buffer(netser::max_delta_bytes<EntList>(), std::byte{0xA5});
        netser::write_stream w(buffer.data(), buffer.size());
        CHECK_FALSE(netser::serialize_delta(w, v, base));
        CHECK(w.error().code == code);
        CHECK(w.error().bit == 2); // the vector's delta: after the struct's and the member's changed bits
        CHECK(w.error().path() == path);
        CHECK(w.bits_processed() == 2); // nothing of the vector written
        netser::measure_stream m;
        CHECK_FALSE(netser::serialize_delta(m, v, base));
        CHECK(m.error().code == code);
        CHECK(m.bits_processed() == 2);
    };
    check_write(twice, EntList{}, errc::invalid_value, "EntList.list[2]");
    check_write(twice, ents({5}), errc::invalid_value, "EntList.list[2]");
    // A baseline with a key twice cannot be matched either.
    check_write(ents({1}), twice, errc::invalid_value, "EntList.list[2]");
    // A key with no code (id 1000, above range(0, 999)): the key's own error.
    check_write(ents({3, 1000}), ents({3}), errc::out_of_range, "EntList.list[1]");

    // A set's added key with no code: the touched list is written, then the write stops
    // at the added count, where the key would go.
    RangeSet base, v;
    base.s = {1, 2};
    v.s = {1, 2, 600};
    std::vector<std::byte> buffer(64);
    netser::write_stream w(buffer.data(), buffer.size());
    CHECK_FALSE(netser::serialize_delta(w, v, base));
    CHECK(w.error().code == errc::out_of_range);
    CHECK(w.error().bit == 2 + 3); // the listing bit and two changed bits
    CHECK(w.bits_processed() == w.error().bit);
}

// --- hash tables: the wire is the reference order's, not the table's ----------------------------

namespace {

// The same entries inserted into a table of many buckets, in the order of t's iteration or
// its reverse, whichever iterates in another order than t: equal under ==, other order.
template <class Table>
Table other_history(const Table& t) {
    std::vector<const typename Table::value_type*> entries;
    for (const auto& e : t) entries.push_back(&e);
    for (int attempt = 0; attempt < 2; ++attempt) {
        Table out;
        out.reserve(997);
        for (const auto* e : entries) out.insert(*e);
        if (t.empty() || !(*out.begin() == *t.begin())) return out;
        std::reverse(entries.begin(), entries.end());
    }
    FAIL("no insertion order tried gives another iteration order");
    return t;
}

template <class T>
std::vector<std::byte> delta_bytes(T& v, const T& base) {
    std::vector<std::byte> buffer(netser::max_delta_bytes<T>());
    netser::write_stream w(buffer.data(), buffer.size());
    REQUIRE(netser::serialize_delta(w, v, base));
    const auto bytes = w.finish();
    return {bytes.begin(), bytes.end()};
}

} // namespace

// docs/wire_format.md, "Keyed deltas": the baseline's entries go in ascending key code "so an
// std::unordered_map gives the same wire on every host"; and an unchanged container is its
// changed bit. So the bits cannot depend on the iteration order of either table.
TEST_CASE("a keyed delta of an unordered_map or unordered_set is the same bits whatever the tables' iteration order",
          "[hostile][delta][keyed]") {
    HashMap m;
    HashSet s;
    for (std::uint16_t k = 0; k < 20; ++k) {
        m.m[k * 7u] = static_cast<std::uint8_t>(k);
        s.s.insert(static_cast<std::uint16_t>(k * 7));
    }
    HashMap m2{other_history(m.m)};
    HashSet s2{other_history(s.s)};
    REQUIRE(m2 == m);
    REQUIRE(s2 == s);
    REQUIRE(*m2.m.begin() != *m.m.begin()); // another iteration order
    REQUIRE(*s2.s.begin() != *s.s.begin());

    // Unchanged: one bit (the struct's changed bit, clear), whichever table is the baseline.
    CHECK(delta_bytes(m, m2) == std::vector<std::byte>{std::byte{0}});
    CHECK(delta_bytes(s, s2) == std::vector<std::byte>{std::byte{0}});

    // Changed: the same bytes, whichever of the two equal tables is written or the baseline.
    HashMap mv = m;
    mv.m.erase(7), mv.m[500] = 1, mv.m[14] = 99;
    HashSet sv = s;
    sv.s.erase(7), sv.s.insert(500);
    HashMap mv2{other_history(mv.m)};
    HashSet sv2{other_history(sv.s)};
    const auto mb = delta_bytes(mv, m);
    CHECK(delta_bytes(mv2, m2) == mb);
    CHECK(delta_bytes(mv, m2) == mb);
    const auto sb = delta_bytes(sv, s);
    CHECK(delta_bytes(sv2, s2) == sb);
    CHECK(delta_bytes(sv, s2) == sb);
}

} // namespace hostile
