// range_write_stream / range_read_stream: the same serialize and serialize_delta as the
// bit-packed streams, range-coded. Every shape of the fuzz types round-trips (the decoded
// value re-encodes to the original's bit-packed bytes), logical bit positions are the
// bit-packed stream's, the contexts follow their definition, priors change the bytes but
// not the values, and damaged packets fail cleanly.

#include "fuzz/fuzz_common.hpp"

#include <netser/netser.hpp>
#include <netser/range_stream.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using namespace netser_fuzz;

template <class T>
std::vector<std::byte> bit_packed(const T& v) {
    std::vector<std::byte> out;
    netser::vector_write_stream w(out);
    REQUIRE(netser::serialize(w, v));
    const auto b = w.finish();
    return {b.begin(), b.end()};
}

template <class T>
std::vector<std::byte> range_coded(const T& v, std::size_t& logical_bits,
                                   const netser::range_prior& prior = netser::default_range_prior()) {
    std::vector<std::byte> out(write_capacity<T>() * 2 + 64);
    netser::range_write_stream w(out, prior);
    REQUIRE(netser::serialize(w, v));
    logical_bits = w.bits_processed();
    const auto b = w.finish();
    REQUIRE(w.ok());
    return {b.begin(), b.end()};
}

template <class T>
void plain_round_trips(std::uint64_t seeds) {
    for (std::uint64_t seed = 0; seed < seeds; ++seed) {
        T v{};
        received(make_value<T>(seed, seed % 2 ? size_mode::full : size_mode::small), v);
        std::size_t logical = 0;
        const auto coded = range_coded(v, logical);
        netser::measure_stream m;
        REQUIRE(netser::serialize(m, v));
        CHECK(logical == m.bits_processed());
        netser::range_read_stream r(coded);
        T got{};
        INFO("seed " << seed);
        REQUIRE(netser::serialize(r, got));
        CHECK(r.bits_processed() == logical);
        CHECK(r.ended_cleanly());
        CHECK(bit_packed(got) == bit_packed(v));
    }
}

template <class T>
void delta_round_trips(std::uint64_t seeds) {
    for (std::uint64_t seed = 0; seed < seeds; ++seed) {
        T base{}, now{};
        received(make_value<T>(seed, size_mode::small), base);
        received(make_value<T>(seed + 1000, size_mode::small), now);
        std::vector<std::byte> out(delta_capacity<T>() * 2 + 64);
        netser::range_write_stream w(out);
        REQUIRE(netser::serialize_delta(w, now, base));
        // The logical bits are those of a bit-packed stream making the same calls (a range
        // writer may name changed elements by bits where a bit-packed one lists them, so
        // not always the measure's); the reader counts the same.
        netser::measure_stream m;
        REQUIRE(netser::serialize_delta(m, now, base));
        CHECK(w.bits_processed() >= m.bits_processed());
        const std::size_t logical = w.bits_processed();
        const auto coded = w.finish();
        netser::range_read_stream r(coded);
        T got{};
        INFO("seed " << seed);
        REQUIRE(netser::serialize_delta(r, got, base));
        CHECK(r.bits_processed() == logical);
        CHECK(r.ended_cleanly());
        CHECK(bit_packed(got) == bit_packed(now));
    }
}

} // namespace

TEST_CASE("range streams round-trip every shape of the fuzz types, plain and delta", "[range]") {
    plain_round_trips<Player>(40);
    plain_round_trips<Inventory>(40);
    plain_round_trips<Entities>(20);
    plain_round_trips<Body>(40);
    plain_round_trips<Node>(20);
    plain_round_trips<Chain>(20);
    plain_round_trips<Envelope>(40);
    plain_round_trips<Extremes>(40);
    delta_round_trips<Player>(40);
    delta_round_trips<Inventory>(40);
    delta_round_trips<Body>(40);
    delta_round_trips<Envelope>(40);
    delta_round_trips<Fleet>(30);
    delta_round_trips<Roster>(30);
}

TEST_CASE("the contexts follow their definition: name hashes, mixing and slots", "[range]") {
    // FNV-1a's published vectors, and the mix of the definition by hand.
    CHECK(netser::detail::range_name_hash("") == 0x811c9dc5u);
    CHECK(netser::detail::range_name_hash("a") == 0xe40c292cu);
    CHECK(netser::detail::range_name_hash("foobar") == 0xbf9cf968u);
    const std::uint32_t a = 0x12345678u, b = 0x9abcdef0u;
    std::uint32_t x = (a ^ b) * 0x9e3779b1u;
    x ^= x >> 15;
    CHECK(netser::detail::range_mix(a, b) == x);
    // The first call at the root: place 0, history 16, one bit.
    netser::detail::range_model_table table;
    table.packet = 1;
    netser::detail::range_contexts c(table, netser::default_range_prior());
    const netser::bit_probability* first = c.models_for(1);
    const std::uint32_t slot = netser::detail::range_mix(0x811c9dc5u, (1u << 16) | (16u << 5) | 0u) >> 20;
    CHECK(first == &table.models[slot * netser::range_models_per_context]);
    c.coded(1, 1);
    // A member entered after it: its key mixes the name in, its history the parent's last (0).
    c.enter_named("x");
    const netser::bit_probability* in_x = c.models_for(9);
    const std::uint32_t x_key = netser::detail::range_mix(0x811c9dc5u, netser::detail::range_name_hash("x"));
    const std::uint32_t x_slot = netser::detail::range_mix(x_key, (9u << 16) | (16u << 5) | 0u) >> 20;
    CHECK(in_x == &table.models[x_slot * netser::range_models_per_context]);
    c.coded(9, 300);
    c.leave();
    // Back at the root: place 16, history 16 | last = 16 | (1 call * 2 + last bit 1 (a wide call)) = 19.
    const netser::bit_probability* after = c.models_for(2);
    const std::uint32_t after_slot = netser::detail::range_mix(0x811c9dc5u, (2u << 16) | (19u << 5) | 16u) >> 20;
    CHECK(after == &table.models[after_slot * netser::range_models_per_context]);
}

namespace rs {

struct Counts {
    std::vector<std::uint16_t> v;
};
NETSER_STRUCT(Counts, (v, netser::max_size(64), netser::range(0, 1000)))

// Mostly small values: a skewed source a prior can learn.
Counts skewed(std::mt19937& rng) {
    Counts c;
    const std::size_t n = 32 + rng() % 32;
    for (std::size_t i = 0; i < n; ++i) c.v.push_back(static_cast<std::uint16_t>(rng() % 8 == 0 ? rng() % 1001 : rng() % 4));
    return c;
}

} // namespace rs

TEST_CASE("a trained prior codes a skewed source in fewer bytes, and reads back only with itself", "[range]") {
    std::mt19937 rng(30);
    netser::range_statistics stats;
    for (int i = 0; i < 200; ++i) { // training packets
        std::vector<std::byte> out(512);
        netser::range_write_stream w(out);
        w.set_statistics(&stats);
        const rs::Counts c = rs::skewed(rng);
        REQUIRE(netser::serialize(w, c));
        REQUIRE_FALSE(w.finish().empty());
    }
    CHECK(stats.packets == 200);
    const std::vector<netser::range_prior_entry> entries = netser::trained_prior_entries(stats);
    REQUIRE_FALSE(entries.empty());
    const netser::range_prior trained(entries);
    std::size_t with_default = 0, with_trained = 0, refused_or_other = 0;
    for (int i = 0; i < 200; ++i) { // other packets
        const rs::Counts c = rs::skewed(rng);
        std::size_t logical = 0;
        const auto d = range_coded(c, logical);
        const auto t = range_coded(c, logical, trained);
        with_default += d.size();
        with_trained += t.size();
        rs::Counts got;
        netser::range_read_stream r(t, trained);
        REQUIRE(netser::serialize(r, got));
        CHECK(got.v == c.v);
        CHECK(r.ended_cleanly());
        // Read with the default prior: another value, a failure or a bad end; never a crash.
        netser::range_read_stream wrong(t);
        rs::Counts other;
        if (!netser::serialize(wrong, other) || !wrong.ended_cleanly() || other.v != c.v) ++refused_or_other;
    }
    INFO("bytes: default prior " << with_default << ", trained " << with_trained);
    CHECK(with_trained < with_default);
    CHECK(refused_or_other == 200);
}

TEST_CASE("a damaged range-coded packet fails cleanly at every truncation and bit flip", "[range]") {
    std::mt19937 rng(31);
    for (int round = 0; round < 20; ++round) {
        const rs::Counts c = rs::skewed(rng);
        std::size_t logical = 0;
        const auto packet = range_coded(c, logical);
        for (std::size_t n = 0; n < packet.size(); ++n) { // every truncation
            const std::vector<std::byte> cut(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(n));
            netser::range_read_stream r(cut);
            rs::Counts got;
            const bool read = netser::serialize(r, got);
            INFO("cut to " << n << " of " << packet.size());
            CHECK_FALSE((read && r.ended_cleanly() && got.v == c.v));
        }
        std::vector<std::byte> longer = packet; // a byte more
        longer.push_back(std::byte{0x5a});
        netser::range_read_stream r(longer);
        rs::Counts got;
        CHECK_FALSE((netser::serialize(r, got) && r.ended_cleanly()));
        for (std::size_t bit = 0; bit < packet.size() * 8; ++bit) { // every flip: any outcome but a crash
            std::vector<std::byte> flipped = packet;
            flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
            netser::range_read_stream f(flipped);
            rs::Counts any;
            if (netser::serialize(f, any)) CHECK(any.v.size() <= 64);
        }
    }
}

TEST_CASE("a range reader stops at its logical bit limit on input that never ends", "[range]") {
    // 64 values of 1000 at most from two bytes: far more than two bytes can hold.
    const std::vector<std::byte> tiny{std::byte{0x00}, std::byte{0x01}};
    netser::range_read_stream r(tiny);
    rs::Counts got;
    const bool read = netser::serialize(r, got);
    CHECK_FALSE((read && r.ended_cleanly()));
    CHECK(r.bits_remaining() <= netser::detail::range_logical_bit_limit(tiny.size()));
    // Two streams alive at once on one thread use their own models.
    std::vector<std::byte> a(256), b(256);
    netser::range_write_stream wa(a), wb(b);
    std::uint64_t v = 5;
    REQUIRE(wa.process_bits(v, 8));
    REQUIRE(wb.process_bits(v, 8));
    REQUIRE(wa.process_bits(v, 8));
    const auto ba = wa.finish();
    netser::range_write_stream wc(b);
    REQUIRE(wc.process_bits(v, 8));
    REQUIRE(wc.process_bits(v, 8));
    const auto bc = wc.finish();
    CHECK(std::vector<std::byte>(ba.begin(), ba.end()) == std::vector<std::byte>(bc.begin(), bc.end()));
}

TEST_CASE("a range stream refuses a call wider than 64 bits, and its bit limit saturates", "[range]") {
    std::vector<std::byte> buffer(16);
    netser::range_write_stream w(buffer);
    CHECK_FALSE(w.process_bits(1, 65));
    CHECK(w.error().code == netser::errc::invalid_value);
    const std::vector<std::byte> bytes(16, std::byte{0x5a});
    netser::range_read_stream r(bytes);
    std::uint64_t v = 7;
    CHECK_FALSE(r.process_bits(v, 65));
    CHECK(r.error().code == netser::errc::invalid_value);
    CHECK(v == 0);
    // (B + 8) x 2^18 where size_t holds it (from 16 KiB on a 32-bit host it does not).
    using netser::detail::range_logical_bit_limit;
    CHECK(range_logical_bit_limit(0) == std::size_t{8} << 18);
    CHECK(range_logical_bit_limit(1000) == std::size_t{1008} << 18);
    CHECK(range_logical_bit_limit(SIZE_MAX) == SIZE_MAX);
    CHECK(range_logical_bit_limit(SIZE_MAX / 262144 - 8) == (SIZE_MAX / 262144) * 262144);
    CHECK(range_logical_bit_limit(SIZE_MAX / 262144 - 7) == SIZE_MAX);
    if constexpr (sizeof(std::size_t) == 4) CHECK(range_logical_bit_limit(16376) == SIZE_MAX);
    else CHECK(range_logical_bit_limit(16376) == static_cast<std::size_t>(std::uint64_t{16384} << 18));
}

namespace ef {

struct flipped_bit { // a user codec for a bool (sends it inverted): not one of an element's flags
    template <netser::stream S>
    bool serialize(S& s, bool& b) const noexcept {
        bool inverted = !b;
        if (!netser::serialize_bool(s, inverted)) return false;
        b = !inverted;
        return true;
    }
    static constexpr std::size_t max_bits() noexcept { return 1; }
};

struct None {
    std::uint16_t x = 0;
};
NETSER_STRUCT(None, (x, netser::range(0, 1000)))

struct One {
    std::uint8_t x = 0;
    bool a = false;
};
NETSER_STRUCT(One, x, a)

struct Five {
    bool a = false, b = false, c = false, d = false, e = false;
};
NETSER_STRUCT(Five, a, b, c, d, e)

struct Mixed {
    bool a = false, coded = false, skipped = false, b = false;
    std::uint16_t x = 0;
};
NETSER_STRUCT(Mixed, a, (coded, flipped_bit{}), (skipped, netser::skip), b, (x, netser::range(0, 1000)))

struct Derived : One {
    bool c = false;
};
NETSER_DERIVED_STRUCT(Derived, (One), c)

} // namespace ef

TEST_CASE("an element's flags: its first four own bool members sent as bits, after a leading 1", "[range]") {
    using netser::detail::element_flags;
    CHECK(element_flags(ef::None{7}) == 0u);
    CHECK(element_flags(std::uint16_t{3}) == 0u);
    CHECK(element_flags(true) == 0u);
    CHECK(element_flags(ef::One{9, false}) == 0b10u);
    CHECK(element_flags(ef::One{9, true}) == 0b11u);
    CHECK(element_flags(ef::Five{true, false, true, true, false}) == 0b11011u);
    CHECK(element_flags(ef::Five{false, false, false, false, true}) == 0b10000u); // the fifth is left out
    // A bool with a codec of its own and a skipped one do not count (the schema shows
    // neither with kind bool, and the Python decoder counts those it shows).
    CHECK(element_flags(ef::Mixed{true, true, true, false, 5}) == 0b110u);
    CHECK(element_flags(ef::Mixed{false, true, true, true, 5}) == 0b101u);
    // A derived struct's own members only.
    ef::Derived d;
    d.a = true;
    d.c = false;
    CHECK(element_flags(d) == 0b10u);
    d.c = true;
    CHECK(element_flags(d) == 0b11u);

    // The codec's bool still travels: a range-coded delta of such elements reads back.
    std::array<ef::Mixed, 6> base{}, now{};
    for (std::size_t i = 0; i < base.size(); ++i) base[i] = {i % 2 == 0, i % 3 == 0, false, i % 4 == 0,
                                                             static_cast<std::uint16_t>(100 * i)};
    now = base;
    now[1].coded = !now[1].coded;
    now[4].x = 999;
    std::vector<std::byte> buffer(64);
    netser::range_write_stream w(buffer);
    REQUIRE(netser::serialize_delta(w, now, base));
    const auto bytes = w.finish();
    netser::range_read_stream r(bytes);
    std::array<ef::Mixed, 6> got{};
    REQUIRE(netser::serialize_delta(r, got, base));
    CHECK(r.ended_cleanly());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].coded == now[i].coded);
        CHECK(got[i].x == now[i].x);
        CHECK(got[i].a == now[i].a);
    }
}
