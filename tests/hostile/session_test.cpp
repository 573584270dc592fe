// Hostile input against the snapshot session (issue 29): delta packets with the baseline
// fingerprint cut short, flipped and forged behind a recomputed CRC; wrong baselines
// held under the right sequence number; baseline rings under hostile sequence numbers;
// budgeted writes at every budget; forged acks. Nothing may decode silently against a
// baseline other than the writer's, a refused packet leaves the message untouched, and
// what the library says it wrote (the fingerprint field, `held`, sent and deferred) is
// checked against an independent computation (fuzz/session_common.hpp).
#include "hostile/hostile_types.hpp"

#include "fuzz/session_common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace hostile {

namespace {

using netser::errc;
using netser_fuzz::delta_packet_crc;
using netser_fuzz::fingerprint_field_bit;
using netser_fuzz::fingerprint_field_bits;
using netser_fuzz::grid_budget;
using netser_fuzz::patch_delta_crc;
using netser_fuzz::changes_between;
using netser_fuzz::plain_of;

// Every field of the header from its documented layout.
constexpr std::size_t sequence_bit = 32, baseline_bit = 48, body_bit = 96;

template <class T>
T held_value(const T& v) {
    return netser_fuzz::as_held(v);
}

Grid grid(std::uint64_t seed, size_mode m = size_mode::small) { return held_value(make_value<Grid>(seed, m)); }

Grid evolved(const Grid& g, std::uint64_t seed, int ticks = 1) {
    Grid out = g;
    rng r{seed};
    for (int i = 0; i < ticks; ++i) evolve(out, r);
    return held_value(out);
}

/// A Grid no test writes: what `msg` holds before a read that must leave it untouched.
Grid sentinel() {
    Grid g = grid(0xdead, size_mode::full);
    g.tick = 999;
    return g;
}

template <class T>
std::vector<std::byte> delta_packet(std::uint16_t sequence, std::uint16_t baseline_sequence, const T& msg,
                                    const T& base) {
    std::vector<std::byte> out;
    const auto r = netser::write_delta_packet(out, netser::delta_header{sequence, baseline_sequence}, msg, base);
    INFO("write error " << netser::to_string(r.error.code) << " at " << r.error.path());
    REQUIRE_FALSE(r.error);
    return out;
}

template <class T>
bool same_plain(const T& a, const T& b) {
    const auto pa = plain_of(a), pb = plain_of(b);
    return pa && pb && *pa == *pb;
}

// A read of a (possibly forged) delta packet against one baseline held under
// `baseline_sequence` (and the initial baseline under 0): its error, its header and msg.
template <class T>
struct session_read {
    netser::error error;
    netser::delta_header header;
    T msg{};
};

template <class T>
session_read<T> read_against(std::span<const std::byte> bytes, std::uint16_t baseline_sequence, const T& base,
                             const T& msg_before) {
    session_read<T> out;
    netser_fuzz::copy_into(msg_before, out.msg);
    const exact_block block(bytes);
    netser::baseline_ring<T> ring(8);
    REQUIRE(ring.put(baseline_sequence, base) != nullptr);
    out.error = netser::read_delta_packet(block.span(), out.msg, ring, &out.header);
    return out;
}

/// A refused packet left msg as it was, bit for bit.
template <class T>
bool untouched(const T& msg, const T& before) {
    return netser_fuzz::bits_of(msg) == netser_fuzz::bits_of(before);
}

/// What a read of a forged delta packet (CRC patched) ends with, by the field the damage
/// is in: the sequence field decodes the message; the baseline field names a baseline not
/// held or another one; the fingerprint field is baseline_mismatch at its first bit; the
/// body fails with a decode code inside the packet, or gives values inside their ranges.
/// A refusal before the body leaves msg untouched. Returns whether the read failed.
template <class T>
bool check_forged(const session_read<T>& r, std::size_t first_damaged_bit, std::size_t packet_bytes, const T& msg,
                  const T& before) {
    INFO("damage at bit " << first_damaged_bit << ": " << netser::to_string(r.error.code) << " at bit "
                          << r.error.bit << " path '" << r.error.path() << "'");
    if (first_damaged_bit < baseline_bit) {
        REQUIRE_FALSE(r.error);
        CHECK(same_plain(r.msg, msg));
    } else if (first_damaged_bit < fingerprint_field_bit) {
        CHECK((r.error.code == errc::missing_baseline || r.error.code == errc::baseline_mismatch));
        CHECK(untouched(r.msg, before));
    } else if (first_damaged_bit < body_bit) {
        CHECK(r.error.code == errc::baseline_mismatch);
        CHECK(r.error.bit == fingerprint_field_bit);
        CHECK(r.error.path().empty());
        CHECK(untouched(r.msg, before));
    } else if (r.error) {
        CHECK(is_decode_code(r.error.code));
        CHECK(r.error.bit >= body_bit);
        CHECK(r.error.bit <= packet_bytes * 8);
    } else {
        CHECK(satisfies_declared(r.msg));
    }
    return static_cast<bool>(r.error);
}

/// Every bit flip and every cut of a delta packet, each behind a patched CRC and without.
template <class T>
void attack_delta_packet(const std::vector<std::byte>& p, std::uint16_t baseline_sequence, const T& base,
                         const T& msg, const T& before) {
    const std::size_t bits = p.size() * 8;
    std::size_t body_failed = 0, body_decoded = 0;
    for (std::size_t bit = 0; bit < bits; ++bit) {
        INFO("flip of bit " << bit << " of " << bits);
        auto flipped = p;
        flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        // As sent: the CRC refuses it before anything is read.
        auto r = read_against(flipped, baseline_sequence, base, before);
        CHECK(r.error.code == errc::bad_crc);
        CHECK(r.error.bit == 0);
        CHECK(untouched(r.msg, before));
        if (bit < 32) continue;
        // Forged: a valid CRC over the flipped bytes.
        patch_delta_crc<T>(flipped);
        r = read_against(flipped, baseline_sequence, base, before);
        const bool failed = check_forged(r, bit, flipped.size(), msg, before);
        if (bit >= body_bit) ++(failed ? body_failed : body_decoded);
    }
    INFO(body_failed << " forged body flips failed, " << body_decoded << " decoded");
    CHECK(body_failed > 0);
    for (std::size_t cut = 0; cut < bits; ++cut) {
        INFO("cut at bit " << cut << " of " << bits);
        std::vector<std::byte> shorter(p.begin(), p.begin() + static_cast<std::ptrdiff_t>((cut + 7) / 8));
        if (cut % 8 != 0) shorter.back() &= static_cast<std::byte>((1u << (cut % 8)) - 1);
        if (shorter == p) continue; // the cut bits were zero already: the same packet
        if (cut % 8 == 0) {
            const auto r = read_against(shorter, baseline_sequence, base, before);
            CHECK(r.error.code == (shorter.size() < 4 ? errc::overflow : errc::bad_crc));
            CHECK(untouched(r.msg, before));
        }
        if (shorter.size() < 4) continue;
        patch_delta_crc<T>(shorter);
        const auto r = read_against(shorter, baseline_sequence, base, before);
        INFO(netser::to_string(r.error.code) << " at bit " << r.error.bit);
        REQUIRE(r.error); // never a packet
        CHECK(r.error.bit <= shorter.size() * 8);
        if (shorter.size() * 8 < body_bit) {
            CHECK(r.error.code == errc::overflow); // the header is cut: nothing decoded
            CHECK(untouched(r.msg, before));
        } else if (cut < body_bit) {
            // The fingerprint's last bits cut to zero: another fingerprint, or the same
            // one (they were zero) and nothing after it.
            const bool same_fingerprint = netser_fuzz::field_of(shorter, fingerprint_field_bit, fingerprint_field_bits) ==
                                          netser_fuzz::field_of(p, fingerprint_field_bit, fingerprint_field_bits);
            CHECK(r.error.code == (same_fingerprint ? errc::overflow : errc::baseline_mismatch));
            if (!same_fingerprint) CHECK(untouched(r.msg, before));
        } else {
            CHECK(is_decode_code(r.error.code));
        }
    }
}

} // namespace

TEST_CASE("a delta packet carries its baseline's fingerprint as documented", "[hostile][session]") {
    CHECK(netser::delta_packet_salt == netser_fuzz::documented_delta_salt);
    CHECK(netser::delta_header_bits == body_bit - 32);
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const Grid base = grid(seed, seed % 2 ? size_mode::full : size_mode::small);
        const Grid msg = evolved(base, seed + 1);
        const auto p = delta_packet(static_cast<std::uint16_t>(seed + 2), static_cast<std::uint16_t>(seed + 1), msg, base);
        INFO("seed " << seed);
        CHECK(netser_fuzz::stored_crc(p) == delta_packet_crc<Grid>(p));
        CHECK(netser_fuzz::field_of(p, sequence_bit, 16) == seed + 2);
        CHECK(netser_fuzz::field_of(p, baseline_bit, 16) == seed + 1);
        const auto f = netser_fuzz::fingerprint_by_definition(base);
        REQUIRE(f);
        CHECK(netser_fuzz::field_of(p, fingerprint_field_bit, fingerprint_field_bits) == *f);
        CHECK(netser::baseline_fingerprint(base) == f);
    }
    // The hash tables of the delta types too (their plain encoding goes by key code).
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const Roster base = held_value(make_value<Roster>(seed));
        const auto p = delta_packet(1, 0, base, base);
        CHECK(netser_fuzz::field_of(p, fingerprint_field_bit, fingerprint_field_bits) ==
              netser_fuzz::fingerprint_by_definition(base).value());
    }
}

TEST_CASE("delta packets cut at every bit or with any bit flipped, with and without a patched CRC",
          "[hostile][session]") {
    const Grid before = sentinel();
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
        INFO("seed " << seed);
        const Grid base = grid(seed + 40, seed < 3 ? size_mode::small : size_mode::full);
        const Grid msg = evolved(base, seed, static_cast<int>(seed % 3) + 1);
        // Baseline sequence numbers with many bits set, so a flip of the field names
        // numbers the reader does not hold (and 0, the initial baseline, for seed 0).
        const auto b = static_cast<std::uint16_t>(seed == 0 ? 0x0100 : 0xa5a5 + seed);
        attack_delta_packet(delta_packet(netser::next_sequence(b), b, msg, base), b, base, msg, before);
    }
}

TEST_CASE("a forged fingerprint is refused with baseline_mismatch at bit 64, for every value of a flipped bit",
          "[hostile][session]") {
    // Every one of the 32 bits, and random forged fingerprints: never a decode.
    const Grid before = sentinel();
    std::size_t refused = 0, tried = 0;
    rng r{29};
    for (std::uint64_t seed = 0; seed < 30; ++seed) {
        const Grid base = grid(seed + 500, size_mode::full);
        const Grid msg = evolved(base, seed);
        const auto p = delta_packet(8, 7, msg, base);
        for (int k = 0; k < 40; ++k) {
            auto forged = p;
            const auto mask = k < 32 ? std::uint32_t{1} << k : static_cast<std::uint32_t>(r.next() | 1u);
            for (std::size_t i = 0; i < 4; ++i)
                forged[fingerprint_field_bit / 8 + i] ^= static_cast<std::byte>(mask >> (8 * i));
            patch_delta_crc<Grid>(forged);
            const auto got = read_against(forged, 7, base, before);
            ++tried;
            if (got.error.code == errc::baseline_mismatch && got.error.bit == fingerprint_field_bit &&
                untouched(got.msg, before))
                ++refused;
        }
    }
    CHECK(refused == tried);
    CHECK(tried == 1200);
}

namespace {

// Every baseline one code step away from g: each member or element moved by one step of
// its encoding (within its range), one element added or removed.
std::vector<Grid> one_step_away(const Grid& g) {
    std::vector<Grid> out;
    const auto add = [&](auto&& change) {
        Grid w = g;
        change(w);
        out.push_back(w);
    };
    if (g.tick > 0) add([](Grid& w) { --w.tick; });
    if (g.tick < 1000) add([](Grid& w) { ++w.tick; });
    for (std::size_t i = 0; i < g.cells.size(); ++i) {
        if (g.cells[i] > 0) add([i](Grid& w) { --w.cells[i]; });
        if (g.cells[i] < 15) add([i](Grid& w) { ++w.cells[i]; });
    }
    for (std::size_t i = 0; i < g.units.size(); ++i) {
        if (g.units[i].pos.x <= 99.5f) add([i](Grid& w) { w.units[i].pos.x += 0.5f; });
        if (g.units[i].pos.y >= -99.5f) add([i](Grid& w) { w.units[i].pos.y -= 0.5f; });
        add([i](Grid& w) { w.units.erase(w.units.begin() + static_cast<std::ptrdiff_t>(i)); });
    }
    if (g.units.size() < 8) add([](Grid& w) { w.units.push_back({1000, {0.f, 0.f}}); });
    for (const auto& [key, value] : g.owners) {
        const std::uint16_t k = key;
        if (value < 200) add([k](Grid& w) { ++w.owners[k]; });
        add([k](Grid& w) { w.owners.erase(k); });
    }
    if (g.owners.size() < 8 && !g.owners.contains(65535)) add([](Grid& w) { w.owners[65535] = 0; });
    for (std::size_t i = 0; i < g.flags.size(); ++i) {
        if (g.flags[i] && *g.flags[i] < 99) add([i](Grid& w) { ++*w.flags[i]; });
        add([i](Grid& w) {
            if (w.flags[i]) w.flags[i].reset();
            else w.flags[i] = 0;
        });
    }
    if (g.heat <= 9.5f) add([](Grid& w) { w.heat += 0.5f; });
    return out;
}

} // namespace

TEST_CASE("hundreds of near and far wrong baselines under the right sequence number: zero silent accepts",
          "[hostile][session]") {
    const Grid before = sentinel();
    std::size_t near = 0, far = 0, refused = 0, not_a_value = 0;
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
        const Grid base = grid(seed + 900, size_mode::full);
        const Grid msg = evolved(base, seed + 7, 2);
        const auto p = delta_packet(31, 30, msg, base);
        const auto wrong = [&](const Grid& w, std::size_t& count) {
            if (!plain_of(w)) { // outside a range: no value a reader can hold
                ++not_a_value;
                return;
            }
            REQUIRE_FALSE(same_plain(w, base)); // each one is another baseline
            ++count;
            // Through a ring (the stored fingerprint) and through a pointer (taken per read).
            const auto r = read_against(p, 30, w, before);
            Grid direct = before;
            netser::delta_packet_reader<Grid> reader(p);
            REQUIRE_FALSE(reader.error());
            const netser::error e = reader.read(direct, &w);
            const bool ok = r.error.code == errc::baseline_mismatch && r.error.bit == fingerprint_field_bit &&
                            untouched(r.msg, before) && e.code == errc::baseline_mismatch &&
                            e.bit == fingerprint_field_bit && untouched(direct, before);
            if (!ok) {
                INFO("seed " << seed << ": ring read " << netser::to_string(r.error.code) << ", pointer read "
                             << netser::to_string(e.code));
                CHECK(ok);
            }
            refused += ok ? 1u : 0u;
        };
        for (const Grid& w : one_step_away(base)) wrong(w, near);
        for (std::uint64_t k = 0; k < 40; ++k) wrong(grid(seed * 100 + k + 5000, k % 2 ? size_mode::full : size_mode::small), far);
    }
    INFO(near << " near, " << far << " far wrong baselines; " << not_a_value << " skipped (no plain encoding)");
    CHECK(near >= 300);
    CHECK(far == 320);
    CHECK(not_a_value == 0);
    CHECK(refused == near + far);
}

TEST_CASE("wrong baselines of the delta types, near (one leaf) and far: zero silent accepts", "[hostile][session]") {
    for_each_type<delta_types>([]<class T>(std::type_identity<T>, std::size_t index) {
        if constexpr (std::is_copy_constructible_v<T>) {
            std::size_t tried = 0, refused = 0;
            const T before = held_value(make_value<T>(77, size_mode::full));
            for (std::uint64_t seed = 0; seed < 6; ++seed) {
                const T base = held_value(make_value<T>(seed + 300, size_mode::full));
                const T msg = held_value(make_value<T>(seed + 301, size_mode::small));
                if (!delta_writable(base) || !delta_writable(msg)) continue;
                const auto p = delta_packet(5, 4, msg, base);
                rng r{seed};
                for (int k = 0; k < 24; ++k) {
                    T w{};
                    if (k % 2 == 0) netser_fuzz::near_value(base, w, r);
                    else w = held_value(make_value<T>(seed * 50 + static_cast<std::uint64_t>(k) + 7000, size_mode::small));
                    if (same_plain(w, base)) continue; // the flip did not write, or the same content
                    ++tried;
                    const auto got = read_against(p, 4, w, before);
                    if (got.error.code == errc::baseline_mismatch && untouched(got.msg, before)) ++refused;
                }
            }
            INFO(delta_type_names[index] << ": " << refused << " of " << tried << " wrong baselines refused");
            CHECK(tried >= 60);
            CHECK(refused == tried);
        }
    });
}

TEST_CASE("the same content in another object is the same baseline", "[hostile][session]") {
    const Grid before = sentinel();
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        INFO("seed " << seed);
        const Grid base = grid(seed + 70, size_mode::full);
        const Grid msg = evolved(base, seed);
        const auto p = delta_packet(3, 2, msg, base);
        std::vector<Grid> same;
        same.push_back(base); // a copy
        // Received through a plain packet.
        Grid through{};
        REQUIRE_FALSE(netser::read_packet(write_packet_value(base), through));
        same.push_back(through);
        // The hash table filled in another insertion order, with other buckets.
        Grid reordered = base;
        reordered.owners.clear();
        reordered.owners.reserve(97);
        std::vector<std::pair<std::uint16_t, std::uint8_t>> entries(base.owners.begin(), base.owners.end());
        std::sort(entries.begin(), entries.end(), [](auto& a, auto& b) { return a.first > b.first; });
        for (const auto& e : entries) reordered.owners.insert(e);
        same.push_back(reordered);
        for (const Grid& s : same) {
            const auto got = read_against(p, 2, s, before);
            REQUIRE_FALSE(got.error);
            CHECK(same_plain(got.msg, msg));
        }
    }
    // A Roster's unordered_map and unordered_set filled in reverse order.
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const Roster base = held_value(make_value<Roster>(seed + 10));
        if (!delta_writable(base)) continue;
        const Roster msg = held_value(make_value<Roster>(seed + 11, size_mode::small));
        if (!delta_writable(msg)) continue;
        const auto p = delta_packet(9, 8, msg, base);
        Roster other = base;
        other.posts.clear();
        other.tags.clear();
        other.posts.rehash(61);
        std::vector<std::int16_t> keys;
        for (const auto& [k, c] : base.posts) keys.push_back(k);
        std::sort(keys.rbegin(), keys.rend());
        for (const auto k : keys) other.posts.emplace(k, base.posts.at(k));
        std::vector<std::uint16_t> tags(base.tags.begin(), base.tags.end());
        std::sort(tags.rbegin(), tags.rend());
        for (const auto t : tags) other.tags.insert(t);
        const auto got = read_against(p, 8, other, held_value(Roster{}));
        INFO("roster seed " << seed << ": " << netser::to_string(got.error.code));
        REQUIRE_FALSE(got.error);
        CHECK(same_plain(got.msg, msg));
    }
}

TEST_CASE("baseline rings under hostile sequence numbers", "[hostile][session][ring]") {
    const Grid before = sentinel();
    SECTION("a session across the wrap-around: after 65535 comes 1, deltas against 65535 read") {
        netser::baseline_ring<Grid> writer(8), reader(8);
        netser::ack_window acks;
        Grid world = grid(1);
        std::uint16_t s = 65530;
        std::vector<std::uint16_t> seen;
        for (int i = 0; i < 12; ++i) {
            world = evolved(world, static_cast<std::uint64_t>(i));
            const auto& base = writer.newest_acked();
            std::vector<std::byte> p;
            REQUIRE_FALSE(netser::write_delta_packet(p, s, world, base).error);
            REQUIRE(writer.put(s, world) != nullptr);
            Grid got = before;
            netser::delta_header h;
            REQUIRE_FALSE(netser::read_delta_packet(p, got, reader, &h));
            CHECK(h.baseline == (i == 0 ? netser::initial_sequence : seen.back()));
            CHECK(same_plain(got, world));
            REQUIRE(reader.put(h.sequence, got) != nullptr);
            acks.accepted(h.sequence);
            CHECK(netser::apply_ack(writer, acks.ack()) >= 1);
            seen.push_back(s);
            s = netser::next_sequence(s);
        }
        CHECK(seen[5] == 65535);
        CHECK(seen[6] == 1); // 0 names the initial baseline, never a snapshot
        CHECK(writer.newest_acked().sequence == 6);
    }
    SECTION("a packet naming a sequence whose ring slot was overwritten: missing_baseline, msg untouched") {
        netser::baseline_ring<Grid> reader(8);
        const Grid a = grid(2), b = grid(3);
        REQUIRE(reader.put(3, a) != nullptr);
        REQUIRE(reader.put(11, b) != nullptr); // the same slot (11 mod 8 = 3)
        REQUIRE(reader.find(3) == nullptr);
        const auto p = delta_packet(12, 3, evolved(a, 1), a);
        Grid got = before;
        const netser::error e = netser::read_delta_packet(p, got, reader);
        CHECK(e.code == errc::missing_baseline);
        CHECK(e.bit == body_bit);
        CHECK(untouched(got, before));
        // And one that names the slot's present sequence against the old content: mismatch.
        const auto q = delta_packet(12, 11, evolved(a, 1), a);
        got = before;
        CHECK(netser::read_delta_packet(q, got, reader).code == errc::baseline_mismatch);
        CHECK(untouched(got, before));
    }
    SECTION("a stale entry a whole lap of sequence numbers later: baseline_mismatch, msg untouched") {
        netser::baseline_ring<Grid> writer(8), reader(8);
        const std::uint16_t s = 100;
        const Grid old = grid(4);
        REQUIRE(writer.put(s, old) != nullptr);
        REQUIRE(reader.put(s, old) != nullptr);
        // The reader hears nothing while the writer goes once round the circle.
        Grid now = old;
        std::uint16_t t = s;
        std::size_t steps = 0;
        do {
            t = netser::next_sequence(t);
            ++steps;
            if (t == s) now = evolved(old, 5); // other content under the same number
            REQUIRE(writer.put(t, t == s ? now : old) != nullptr);
        } while (t != s);
        CHECK(steps == 65535); // 65536 numbers less the initial baseline's
        REQUIRE_FALSE(same_plain(now, old));
        std::vector<std::byte> p;
        REQUIRE_FALSE(netser::write_delta_packet(p, netser::next_sequence(s), evolved(now, 6), *writer.find(s)).error);
        Grid got = before;
        const netser::error e = netser::read_delta_packet(p, got, reader);
        CHECK(e.code == errc::baseline_mismatch);
        CHECK(e.bit == fingerprint_field_bit);
        CHECK(untouched(got, before));
        // The control: written against the content the reader has, the packet reads.
        const auto q = delta_packet(netser::next_sequence(s), s, evolved(now, 6), old);
        CHECK_FALSE(netser::read_delta_packet(q, got, reader));
    }
    SECTION("an evicted or cleared entry: missing_baseline") {
        netser::baseline_ring<Grid> reader(16);
        for (std::uint16_t s = 65530; s != 6; s = netser::next_sequence(s)) REQUIRE(reader.put(s, grid(s)) != nullptr);
        reader.evict_before(2);
        for (std::uint16_t s = 65530; s != 6; s = netser::next_sequence(s)) {
            INFO("sequence " << s);
            const auto p = delta_packet(netser::next_sequence(s), s, grid(s + 1), grid(s));
            Grid got = before;
            const netser::error e = netser::read_delta_packet(p, got, reader);
            // 2 .. 5 stay; 65530 .. 65535 and 1 come before 2 on the circle: evicted.
            if (s >= 2 && s < 6) CHECK_FALSE(e);
            else CHECK(e.code == errc::missing_baseline);
            if (e) CHECK(untouched(got, before));
        }
        reader.clear();
        const auto p = delta_packet(4, 3, grid(4), grid(3));
        Grid got = before;
        CHECK(netser::read_delta_packet(p, got, reader).code == errc::missing_baseline);
        // The initial baseline stays.
        const auto q = delta_packet(4, netser::initial_sequence, grid(4), Grid{});
        CHECK_FALSE(netser::read_delta_packet(q, got, reader));
    }
}

namespace {

struct ring_state {
    bool held = false;
    bool acked = false;
};

template <class T>
std::vector<ring_state> state_of(const netser::baseline_ring<T>& ring) {
    std::vector<ring_state> out(65536);
    for (std::size_t s = 0; s < out.size(); ++s)
        if (const auto* e = ring.find(static_cast<std::uint16_t>(s))) out[s] = {true, e->acked};
    return out;
}

// The sequence numbers an ack names, from its documented meaning (bit i: newest - 1 - i).
std::vector<bool> named_by(const netser::ack_message& a) {
    std::vector<bool> named(65536, false);
    if (a.newest == netser::initial_sequence) return named;
    named[a.newest] = true;
    for (unsigned i = 0; i < 32; ++i)
        if ((a.previous >> i) & 1u) named[static_cast<std::uint16_t>(a.newest - 1 - i)] = true;
    named[netser::initial_sequence] = false;
    return named;
}

} // namespace

TEST_CASE("forged acks never mark a snapshot the ring does not hold", "[hostile][session][acks][long]") {
    std::vector<netser::ack_message> forged = {
        {7, 0},                                        // never sent
        {7, 0xffffffffu},                              // never sent, every bit of previous
        {static_cast<std::uint16_t>(4 + 20000), 0xffffffffu}, // far in the future
        {static_cast<std::uint16_t>(4 + 32768), 0xffffffffu}, // half the circle away
        {0, 0xffffffffu},                              // the initial baseline's number
        {0, 0},
        {4, 0xffffffffu},                              // held, and every bit of previous (across 0)
        {65533, 0xffffffffu},
        {1, 0x80000001u},
        {65535, 0},
    };
    rng r{4242};
    for (int k = 0; k < 300; ++k)
        forged.push_back({static_cast<std::uint16_t>(k % 3 == 0 ? 65520 + r.below(30) : r.next()),
                          static_cast<std::uint32_t>(r.next())});
    std::size_t marked_total = 0;
    for (std::size_t k = 0; k < forged.size(); ++k) {
        const auto& a = forged[k];
        INFO("ack " << k << ": newest " << a.newest << ", previous " << a.previous);
        // A writer that sent 65527 .. 4 (across the wrap), some of them acked before.
        netser::baseline_ring<Grid> ring(16);
        for (std::uint16_t s = 65527; s != 5; s = netser::next_sequence(s)) REQUIRE(ring.put(s, grid(s % 7)) != nullptr);
        if (k % 2 == 1) REQUIRE(netser::apply_ack(ring, {65529, 0}) == 1); // evicts 65527 and 65528
        const auto was = state_of(ring);
        const auto named = named_by(a);
        std::size_t expect = 0;
        for (std::size_t s = 1; s < 65536; ++s) expect += named[s] && was[s].held ? 1u : 0u;
        const std::size_t got = netser::apply_ack(ring, a);
        CHECK(got == expect);
        marked_total += got;
        const auto now = state_of(ring);
        std::size_t appeared = 0, wrongly_acked = 0;
        for (std::size_t s = 0; s < 65536; ++s) {
            appeared += now[s].held && !was[s].held ? 1u : 0u;
            wrongly_acked += now[s].held && now[s].acked && !was[s].acked && !named[s] ? 1u : 0u;
        }
        CHECK(appeared == 0);
        CHECK(wrongly_acked == 0);
        const auto& newest = ring.newest_acked();
        CHECK(newest.acked);
        if (newest.sequence != netser::initial_sequence) {
            CHECK(ring.find(newest.sequence) == &newest);
            // Nothing older than the newest acked snapshot is held any more.
            for (std::size_t s = 1; s < 65536; ++s)
                if (now[s].held) CHECK_FALSE(netser::sequence_newer(newest.sequence, static_cast<std::uint16_t>(s)));
        }
    }
    CHECK(marked_total > 0); // some forged acks named held snapshots
}

// --- budgeted writes -------------------------------------------------------------

namespace {

// Hostile priorities: 0, negative, NaN, infinities, huge and tiny, and ordinary ones,
// drawn per call in the order the budget asks (a fresh object per write, so two budgets
// given the same writes are asked the same).
struct hostile_priority {
    int kind = 0;
    mutable rng draws{0x9e11};
    template <class E>
    double operator()(const E&) const {
        const std::uint64_t h = draws.next();
        switch (kind) {
        case 1: return 0.0;
        case 2: return -static_cast<double>(h % 100);
        case 3: return std::numeric_limits<double>::quiet_NaN();
        case 4: return h % 2 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
        case 5: return h % 3 == 0 ? 1e308 : 1e-300;
        case 6: return static_cast<double>(h % 1000) / 7;
        default: return 1.0;
        }
    }
};

// A budgeted write's packet read by an independent reader against the baseline.
Grid read_back(std::span<const std::byte> packet, std::uint16_t baseline_sequence, const Grid& base) {
    Grid out = sentinel();
    const exact_block block(packet);
    netser::delta_header h;
    const netser::error e = netser::read_delta_packet(
        block.span(), out, [&](std::uint16_t s) { return s == baseline_sequence ? &base : nullptr; }, &h);
    INFO(netser::to_string(e.code) << " at bit " << e.bit << " path " << e.path());
    REQUIRE_FALSE(e);
    return out;
}

} // namespace

TEST_CASE("budgeted writes at every budget from 0 bytes: within the budget or overflow, held is what a reader reads",
          "[hostile][session][budget]") {
    std::vector<std::size_t> budgets;
    for (std::size_t b = 0; b <= 64; ++b) budgets.push_back(b);
    for (std::size_t b = 72; b <= 3000; b = b * 5 / 4) budgets.push_back(b);
    std::size_t written = 0, overflowed = 0, partial = 0, too_large = 0;
    std::string first_too_large;
    std::vector<std::byte> buffer(4096);
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        const Grid base = grid(seed + 1100, size_mode::full);
        const Grid msg = seed % 3 == 0 ? grid(seed + 1200, size_mode::full) : evolved(base, seed, 3);
        const std::size_t changes = changes_between(msg, base);
        const int kind = static_cast<int>(seed % 7);
        for (const std::size_t b : budgets) {
            INFO("seed " << seed << ", budget " << b << ", priority kind " << kind);
            // A budget by max_bytes, and the same by the buffer's size.
            for (int by_buffer = 0; by_buffer < 2; ++by_buffer) {
                grid_budget budget(by_buffer ? buffer.size() : b);
                const std::span<std::byte> room = by_buffer ? std::span<std::byte>(buffer).first(b) : std::span<std::byte>(buffer);
                Grid held = sentinel();
                const auto r = budget.write(room, {77, 76}, msg, base, held, hostile_priority{kind});
                if (r.error.code == errc::too_large) {
                    // LIBRARY BUG (reported): see the test case below.
                    if (too_large++ == 0) first_too_large = "seed " + std::to_string(seed) + ", budget " + std::to_string(b);
                    continue;
                }
                if (r.error) {
                    CHECK(r.error.code == errc::overflow);
                    CHECK(r.bytes.empty());
                    CHECK(untouched(held, sentinel()));
                    ++overflowed;
                    continue;
                }
                ++written;
                CHECK(r.bytes.size() <= b);
                CHECK(r.sent + r.deferred == changes);
                partial += r.deferred != 0 ? 1u : 0u;
                const Grid got = read_back(r.bytes, 76, base);
                CHECK(same_plain(got, held));
                CHECK(satisfies_declared(held));
                if (r.deferred == 0) CHECK(same_plain(held, msg));
                CHECK(changes_between(held, base) == r.sent);
                CHECK(changes_between(msg, held) == r.deferred);
            }
        }
    }
    INFO(written << " written, " << overflowed << " overflowed, " << partial << " with changes deferred; "
                 << too_large << " refused with too_large, the first at " << first_too_large);
    CHECK(too_large == 0);
    CHECK(overflowed > 0);
    CHECK(partial > 0);
    CHECK(written > partial);
}

TEST_CASE("a budgeted write of valid values never fails with too_large: additions wait for removals",
          "[hostile][session][budget]") {
    // LIBRARY BUG (reported to the lead, not fixed here): the budget may choose a
    // container's additions and leave its removals for later, so the value it writes holds
    // more entries than max_size (8) and the write fails with too_large (at Grid.owners,
    // a hash map; at Grid.units, a keyed vector), although msg and the baseline are valid
    // and the budget fits changes. Both: 4 entries in the baseline, 8 others in msg.
    Grid map_base, map_msg, keyed_base, keyed_msg;
    for (std::uint16_t k = 0; k < 4; ++k) map_base.owners[k] = 1;
    for (std::uint16_t k = 10; k < 18; ++k) map_msg.owners[k] = 2;
    for (std::uint16_t k = 0; k < 4; ++k) keyed_base.units.push_back({k, {1.f, 1.f}});
    for (std::uint16_t k = 10; k < 18; ++k) keyed_msg.units.push_back({k, {2.f, 2.f}});
    const std::pair<const Grid*, const Grid*> cases[] = {{&map_base, &map_msg}, {&keyed_base, &keyed_msg}};
    std::vector<std::byte> buffer(4096);
    for (const auto& [base, msg] : cases) {
        std::size_t refused = 0;
        for (std::size_t b = 17; b <= 80; ++b) {
            grid_budget budget(b);
            Grid held;
            const auto r = budget.write(buffer, {2, 1}, *msg, *base, held);
            INFO("budget " << b << ": " << netser::to_string(r.error.code) << " at " << r.error.path());
            refused += r.error.code == errc::too_large ? 1u : 0u;
            CHECK((r.error.code == errc::none || r.error.code == errc::overflow));
            if (!r.error) CHECK((held.owners.size() <= 8 && held.units.size() <= 8));
        }
        CHECK(refused == 0);
    }
}

TEST_CASE("a budgeted write that fails with overflow changes nothing: the next packets are a fresh budget's",
          "[hostile][session][budget]") {
    // Targeted: the failed write's changes are the last ones in order (the last cells);
    // the next message changes every cell, and the budget fits only some. Accumulators
    // that moved in the failed write would send the last cells first.
    std::vector<std::byte> buffer(4096), fresh_buffer(4096);
    Grid base = grid(3);
    for (auto& c : base.cells) c = 0;
    base = held_value(base);
    Grid late = base, all = base;
    for (std::size_t i = 8; i < 16; ++i) late.cells[i] = 9;
    for (auto& c : all.cells) c = 9;
    for (std::size_t mid = 16; mid <= 30; ++mid) {
        INFO("second budget " << mid);
        grid_budget budget(4096), fresh(4096);
        Grid held = sentinel(), held_fresh = sentinel();
        const auto failed = budget.write(std::span<std::byte>(buffer).first(12), {1, 0}, late, base, held);
        REQUIRE(failed.error.code == errc::overflow);
        CHECK(untouched(held, sentinel()));
        const auto a = budget.write(std::span<std::byte>(buffer).first(mid), {1, 0}, all, base, held);
        const auto b = fresh.write(std::span<std::byte>(fresh_buffer).first(mid), {1, 0}, all, base, held_fresh);
        REQUIRE(a.error.code == b.error.code);
        if (a.error) continue;
        CHECK(a.sent == b.sent);
        CHECK(a.deferred == b.deferred);
        CHECK(netser_test::hex(a.bytes) == netser_test::hex(b.bytes));
        CHECK(same_plain(held, held_fresh));
    }
    // Random: a failed write of one message, then a stream of writes; each packet the same
    // as a twin budget's that never saw the failed write.
    std::size_t compared = 0;
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
        INFO("seed " << seed);
        grid_budget budget(4096), twin(4096);
        const int kind = static_cast<int>(seed % 7);
        Grid base_now = grid(seed + 2000, size_mode::full);
        Grid held = sentinel();
        const auto failed = budget.write(std::span<std::byte>(buffer).first(seed % 16), {1, 0},
                                         evolved(base_now, seed, 2), base_now, held, hostile_priority{kind});
        REQUIRE(failed.error.code == errc::overflow);
        Grid world = base_now;
        for (int step = 0; step < 5; ++step) {
            world = evolved(world, seed * 10 + static_cast<std::uint64_t>(step), 2);
            const auto b = static_cast<std::size_t>(20 + (seed * 7 + static_cast<std::uint64_t>(step) * 13) % 40);
            Grid held_twin = sentinel();
            held = sentinel();
            const auto a = budget.write(std::span<std::byte>(buffer).first(b), {2, 1}, world, base_now, held, hostile_priority{kind});
            const auto t = twin.write(std::span<std::byte>(fresh_buffer).first(b), {2, 1}, world, base_now, held_twin, hostile_priority{kind});
            INFO("step " << step << ", budget " << b);
            REQUIRE(a.error.code == t.error.code);
            if (a.error) continue;
            ++compared;
            CHECK(a.sent == t.sent);
            CHECK(a.deferred == t.deferred);
            CHECK(netser_test::hex(a.bytes) == netser_test::hex(t.bytes));
            base_now = held; // acked at once
        }
    }
    CHECK(compared > 100);
}

TEST_CASE("budgeted delta packets cut at every bit or with any bit flipped fail cleanly", "[hostile][session][budget]") {
    const Grid before = sentinel();
    std::vector<std::byte> buffer(4096);
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
        const Grid base = grid(seed + 3000, size_mode::full);
        const Grid msg = grid(seed + 3100, size_mode::full);
        for (const std::size_t b : {20u, 32u, 64u}) {
            INFO("seed " << seed << ", budget " << b);
            grid_budget budget(b);
            Grid held;
            const auto r = budget.write(buffer, {0xfffe, 0xfffd}, msg, base, held, hostile_priority{6});
            REQUIRE_FALSE(r.error);
            const std::vector<std::byte> p(r.bytes.begin(), r.bytes.end());
            attack_delta_packet(p, 0xfffd, base, held, before);
        }
    }
}

} // namespace hostile
