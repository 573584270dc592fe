// Hostile input against predicted delta packets (issue 30, item 6): a moving world
// (fuzz/session_common.hpp's Swarm: predict_linear on ranges, quantized floats, bits(32),
// a smallest_three rotation, a vector of structs, gains below 1, only_if) sent against
// one to three baselines, then cut at every bit, flipped at every bit, given trailing
// garbage, forged field by field behind a recomputed CRC (sequence, count, baseline
// numbers, fingerprint), named out of order, twice, across the wrap-around and at the
// half circle, against rings whose slots were reused or hold other values. Every read is
// compared with a model written from docs/wire_format.md ("Prediction", "Predicted delta
// packets"): the same error code at the documented bit, or the model's value bit for
// bit; a refusal before the body leaves msg untouched. The integer rule
// (linear_prediction::code) is checked at its extremes against a quotient-and-remainder
// computation, and the prediction of any valid value stays inside the declared ranges.
#include "hostile/hostile_types.hpp"

#include <netser/predicted_delta_packet.hpp>

#include "fuzz/session_common.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace hostile_predicted {

using namespace netser_fuzz;
using hostile::is_decode_code;
using hostile::write_packet_value;
using netser::errc;
using netser_test::exact_block;
using entry = netser::baseline_entry<Swarm>;

namespace {

/// A Swarm no test writes, with other data in its skip member: what msg holds before a
/// read that must leave it untouched (or overwrite all of it).
Swarm sentinel() {
    Swarm s = as_held(make_value<Swarm>(0xdead, size_mode::full));
    s.local = 0x5a5a;
    return s;
}

bool same_bits(const Swarm& a, const Swarm& b) { return bits_of(a) == bits_of(b); }

/// The prediction's scratch as a writer or reader keeps it: another world, skip member set.
Swarm junk_scratch() {
    Swarm s = as_held(make_value<Swarm>(0xbeef, size_mode::full));
    s.local = -7;
    return s;
}

/// A ring holding `values` under `sequences` (capacity 8 unless told).
netser::baseline_ring<Swarm> ring_of(std::span<const std::uint16_t> sequences, std::span<const Swarm> values,
                                     std::size_t capacity = 8) {
    netser::baseline_ring<Swarm> ring(capacity);
    for (std::size_t i = 0; i < sequences.size(); ++i) REQUIRE(ring.put(sequences[i], values[i]) != nullptr);
    return ring;
}

/// Writes msg against the ring's entries `named` (newest first); must succeed.
std::vector<std::byte> predicted_packet(const netser::baseline_ring<Swarm>& ring, std::uint16_t sequence,
                                        const Swarm& msg, std::span<const std::uint16_t> named) {
    std::vector<const entry*> entries;
    for (const auto s : named) {
        entries.push_back(ring.find(s));
        REQUIRE(entries.back() != nullptr);
    }
    std::vector<std::byte> out;
    Swarm scratch = junk_scratch();
    const auto w = netser::write_predicted_delta_packet(out, sequence, msg, entries, scratch);
    INFO("write: " << netser::to_string(w.error.code) << " at bit " << w.error.bit << " path " << w.error.path());
    REQUIRE_FALSE(w.error);
    return out;
}

struct predicted_read {
    netser::error error;
    netser::predicted_delta_header header;
    Swarm msg;
};

/// read_predicted_delta_packet from an exactly sized copy into a copy of `before`.
predicted_read read_predicted(std::span<const std::byte> bytes, const netser::baseline_ring<Swarm>& ring,
                              const Swarm& before) {
    predicted_read out;
    out.msg = before;
    Swarm scratch = junk_scratch();
    const exact_block block(bytes);
    out.error = netser::read_predicted_delta_packet(block.span(), out.msg, ring, scratch, &out.header);
    return out;
}

std::string where(const netser::error& e) {
    return std::string(netser::to_string(e.code)) + " at bit " + std::to_string(e.bit) + " path '" +
           std::string(e.path()) + "'";
}

/// Tallies of what reads ended with.
struct outcomes {
    std::size_t decoded = 0, refused_before_body = 0, failed_in_body = 0, body_failures_that_changed_msg = 0;
    std::size_t disagreements = 0;
};

/// Reads `bytes` against the ring and compares with the model (expect_predicted): the
/// same code, the same bit where the model names one, a bit inside the packet; msg
/// untouched on a refusal before the body; on success the model's value bit for bit
/// (skip member included: msg held other data there) and values inside their ranges.
errc agrees_with_model(std::span<const std::byte> bytes, const netser::baseline_ring<Swarm>& ring, const Swarm& before,
                       outcomes& tally) {
    const predicted_read r = read_predicted(bytes, ring, before);
    const predicted_expectation m = expect_predicted(bytes, ring);
    bool ok = r.error.code == m.code && (!m.bit || r.error.bit == *m.bit) && r.error.bit <= bytes.size() * 8;
    if (m.before_body) ok = ok && same_bits(r.msg, before);
    if (m.code == errc::none) ok = ok && same_bits(r.msg, m.value) && satisfies_declared(r.msg);
    if (r.error && !m.before_body) ok = ok && is_decode_code(r.error.code) && r.error.bit >= predicted_body_bit(1);
    if (!ok) {
        ++tally.disagreements;
        INFO("read: " << where(r.error) << "; model: " << netser::to_string(m.code) << " at bit "
                      << (m.bit ? std::to_string(*m.bit) : std::string("(any)")) << "; msg untouched "
                      << same_bits(r.msg, before) << ", msg is the model's value " << same_bits(r.msg, m.value));
        CHECK(ok);
    }
    if (!r.error) ++tally.decoded;
    else if (m.before_body) ++tally.refused_before_body;
    else {
        ++tally.failed_in_body;
        if (!same_bits(r.msg, before)) ++tally.body_failures_that_changed_msg;
    }
    return r.error.code;
}

void flip(std::vector<std::byte>& p, std::size_t bit) { p[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8)); }

/// A test world: a motion's frames, the baselines a packet names and the ring that holds
/// them (the reader's, filled independently of the writer's).
struct scene {
    std::vector<std::uint16_t> named; // newest first
    std::vector<Swarm> values;        // the named baselines' values
    Swarm msg;
    std::uint16_t sequence = 0;
    netser::baseline_ring<Swarm> writer{8}, reader{8};
    std::vector<std::byte> packet;
};

/// Frames of motion `seed`: the packet is frame `now` under `sequence`, the baselines the
/// frames `now - gap, now - gap - 1, ...` under the numbers that far back.
scene make_scene(std::uint64_t seed, std::size_t count, std::uint16_t sequence, std::uint16_t gap = 6) {
    scene s;
    s.sequence = sequence;
    const std::uint32_t now = 20;
    s.msg = swarm_frame(seed, now);
    for (std::size_t i = 0; i < count; ++i) {
        const auto back = static_cast<std::uint16_t>(gap + i);
        s.named.push_back(static_cast<std::uint16_t>(sequence - back));
        s.values.push_back(swarm_frame(seed, now - back));
        REQUIRE(s.writer.put(s.named.back(), s.values.back()) != nullptr);
        REQUIRE(s.reader.put(s.named.back(), as_held(s.values.back())) != nullptr);
    }
    s.packet = predicted_packet(s.writer, sequence, s.msg, s.named);
    return s;
}

} // namespace

TEST_CASE("a predicted delta packet's fields, CRC and fingerprint are as documented, and it reads back exactly",
          "[hostile][prediction]") {
    CHECK(netser::predicted_delta_packet_salt == documented_predicted_salt);
    CHECK(netser::end_of_packet_magic == documented_end_magic);
    const Swarm before = sentinel();
    std::size_t checked = 0, exact_hits = 0;
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
        for (std::size_t count = 1; count <= 3; ++count) {
            INFO("seed " << seed << ", " << count << " baselines");
            const auto seq = static_cast<std::uint16_t>(seed % 4 == 0 ? 20 + seed : 0xa5a5 + 977 * seed);
            const scene s = make_scene(seed, count, seq);
            CHECK(stored_crc(s.packet) == predicted_packet_crc<Swarm>(s.packet));
            const predicted_fields f = fields_of_predicted(s.packet);
            CHECK(f.sequence == seq);
            CHECK(f.count_field == count - 1);
            CHECK(f.baselines == s.named);
            std::vector<const Swarm*> values;
            for (const Swarm& v : s.values) values.push_back(&v);
            CHECK(f.fingerprint == combined_fingerprint_by_definition<Swarm>(values).value());
            // The CRC over the packet with the salt folded in, and the end check's payload bits.
            const body_bits body = body_of_predicted(s.packet);
            CHECK(body.at + body.bits <= s.packet.size() * 8 - 32);
            CHECK(predicted_packet_by_hand<Swarm>(f, s.packet, body) == s.packet);
            // Read back: exactly msg, as the model says.
            outcomes tally;
            CHECK(agrees_with_model(s.packet, s.reader, before, tally) == errc::none);
            const auto r = read_predicted(s.packet, s.reader, before);
            REQUIRE_FALSE(r.error);
            CHECK(same_bits(r.msg, s.msg));
            CHECK(r.header.sequence == seq);
            CHECK(r.header.count == count);
            // The prediction the writer used is the model's (bit for bit).
            Swarm prediction = junk_scratch();
            std::vector<const entry*> entries;
            for (auto n : s.named) entries.push_back(s.writer.find(n));
            std::vector<std::byte> again;
            REQUIRE_FALSE(netser::write_predicted_delta_packet(again, seq, s.msg, entries, prediction).error);
            CHECK(again == s.packet);
            CHECK(same_bits(prediction, predicted_by_model(spacing_by_definition(seq, s.named), values)));
            exact_hits += prediction.x == s.msg.x ? 1u : 0u; // motion that went on as it went
            ++checked;
        }
    }
    INFO(exact_hits << " of " << checked << " predictions of x were exact");
    CHECK(checked == 120);
    CHECK(exact_hits > 20);
}

TEST_CASE("predicted_baseline is the model's prediction bit for bit, and inside the declared ranges",
          "[hostile][prediction]") {
    // Random worlds and motions, one to three baselines, spacings from 1 to the half circle.
    rng r{3030};
    const std::uint32_t edges[] = {1, 2, 3, 6, 7, 255, 256, 1000, 32766, 32767};
    const auto gap = [&]() -> std::uint32_t {
        return r.coin() ? edges[r.below(std::size(edges))] : static_cast<std::uint32_t>(r.between(1, 32767));
    };
    std::size_t compared = 0, extrapolated = 0, rotations_predicted = 0;
    for (int i = 0; i < 6000; ++i) {
        Swarm b[3];
        const auto seed = static_cast<std::uint64_t>(i);
        if (i % 3 == 0) {
            for (auto& v : b) v = as_held(make_value<Swarm>(r.next(), r.coin() ? size_mode::full : size_mode::small));
        } else { // three frames of one motion, far apart or close
            const auto n = static_cast<std::uint32_t>(r.between(3, 40));
            const auto step = static_cast<std::uint32_t>(r.between(1, 3));
            for (std::uint32_t k = 0; k < 3; ++k) b[k] = swarm_frame(seed, n - k * step);
        }
        const std::size_t count = static_cast<std::size_t>(r.between(1, 3));
        netser::prediction_spacing spacing{gap(), count > 1 ? gap() : 0, count > 2 ? gap() : 0};
        const Swarm* named[3] = {&b[0], &b[1], &b[2]};
        const model_spacing ms{spacing.ahead, spacing.span, spacing.span2};
        const Swarm model = predicted_by_model(ms, std::span<const Swarm* const>(named, count));
        Swarm out = junk_scratch();
        netser::predicted_baseline(out, spacing, b[0], count > 1 ? &b[1] : nullptr, count > 2 ? &b[2] : nullptr);
        INFO("case " << i << ": " << count << " baselines, ahead " << spacing.ahead << " span " << spacing.span
                     << " span2 " << spacing.span2);
        REQUIRE(same_bits(out, model));
        REQUIRE(satisfies_declared(out));
        ++compared;
        extrapolated += same_bits(out, b[0]) ? 0u : 1u;
        rotations_predicted += bits_of(out.rotation) == bits_of(b[0].rotation) ? 0u : 1u;
    }
    INFO(extrapolated << " of " << compared << " predictions differ from the newest baseline; " << rotations_predicted
                      << " rotations extrapolated");
    CHECK(extrapolated > compared / 3);
    CHECK(rotations_predicted > 500);
}

TEST_CASE("linear_prediction::code at extreme codes, spacings and gains, no overflow, the documented rounding",
          "[hostile][prediction][long]") {
    // Against code_by_definition (a quotient and a remainder of int64s, no __int128), and
    // against the rounding's meaning: |2 d (p - c0) - 2 n| <= d with n = step * num * ahead,
    // d = span * den, ties away from zero; clamped results at 0 or max; held results c0.
    rng r{12};
    const std::uint64_t maxes[] = {1, 2, 3, 63, 100, 1000, 8192, 65535, 0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu};
    const std::uint32_t gaps[] = {1, 2, 3, 1000, 16384, 32766, 32767};
    const int gains[][2] = {{1, 1}, {64, 64}, {1, 64}, {63, 64}, {3, 4}, {1, 2}, {5, 8}, {1, 3}};
    std::size_t checked = 0, clamped_low = 0, clamped_high = 0, held = 0, ties = 0;
    const auto pick_code = [&](std::uint64_t max) -> std::uint64_t {
        switch (r.below(6)) {
        case 0: return 0;
        case 1: return max;
        case 2: return max / 2;
        case 3: return max > 0 ? max - 1 : 0;
        case 4: return r.below(2) == 0 ? 1 % (max + 1) : max / 2 + 1;
        default: return r.below(max + 1);
        }
    };
    for (int i = 0; i < 400000; ++i) {
        const std::uint64_t max = r.coin() ? maxes[r.below(std::size(maxes))] : 1 + r.below(0xffffffffu);
        const std::uint64_t c0 = pick_code(max), c1 = pick_code(max), c2 = pick_code(max);
        const auto g = [&] { return r.below(4) != 0 ? gaps[r.below(std::size(gaps))] : static_cast<std::uint32_t>(r.between(1, 32767)); };
        const netser::prediction_spacing spacing{g(), r.below(8) == 0 ? 0u : g(), r.below(3) == 0 ? 0u : g()};
        int num = 1, den = 1;
        if (r.coin()) {
            num = gains[r.below(std::size(gains))][0];
            den = gains[r.below(std::size(gains))][1];
            if (num > den) std::swap(num, den);
        } else {
            den = static_cast<int>(r.between(1, 64));
            num = static_cast<int>(r.between(1, den));
        }
        const bool third = r.coin();
        const netser::linear_prediction p{spacing, num, den};
        const std::uint64_t got = p.code(c0, c1, third ? &c2 : nullptr, max);
        const model_spacing ms{spacing.ahead, spacing.span, spacing.span2};
        const std::uint64_t want = code_by_definition(c0, c1, third ? &c2 : nullptr, ms, num, den, max);
        INFO("c0 " << c0 << " c1 " << c1 << " c2 " << (third ? std::to_string(c2) : "-") << " max " << max << " ahead "
                   << spacing.ahead << " span " << spacing.span << " span2 " << spacing.span2 << " gain " << num << "/"
                   << den);
        REQUIRE(got == want);
        REQUIRE(got <= max);
        ++checked;
        // The rounding's meaning, where the result is neither held nor clamped.
        const auto s0 = static_cast<std::int64_t>(c0), step = s0 - static_cast<std::int64_t>(c1);
        if (got == c0) {
            ++held;
            continue;
        }
        if (got == 0 || got == max) {
            // Clamped, or exactly at the end: the unclamped extrapolation is at or past it.
            const std::int64_t n = step * num * static_cast<std::int64_t>(spacing.ahead);
            const std::int64_t d = static_cast<std::int64_t>(spacing.span) * den;
            const std::int64_t end = got == 0 ? 0 : static_cast<std::int64_t>(max);
            REQUIRE((got == 0 ? 2 * d * (end - s0) >= 2 * n - d : 2 * d * (end - s0) <= 2 * n + d));
            ++(got == 0 ? clamped_low : clamped_high);
            continue;
        }
        const std::int64_t n = step * num * static_cast<std::int64_t>(spacing.ahead);
        const std::int64_t d = static_cast<std::int64_t>(spacing.span) * den;
        const std::int64_t off = 2 * d * (static_cast<std::int64_t>(got) - s0) - 2 * n;
        REQUIRE((off < 0 ? -off : off) <= d);
        if ((off < 0 ? -off : off) == d) { // a tie: away from zero
            ++ties;
            REQUIRE((n > 0 ? off > 0 : off < 0));
        }
    }
    // rounded_ratio itself at the documented limits: |value| < 2^38, times and over < 2^22.
    const std::int64_t values[] = {0, 1, -1, (std::int64_t{1} << 38) - 1, -((std::int64_t{1} << 38) - 1), 12345678901,
                                   -98765432109};
    const std::uint32_t factors[] = {1, 2, 3, 32767, (1u << 22) - 1, (1u << 21) + 7};
    for (const auto v : values)
        for (const auto t : factors)
            for (const auto o : factors) {
                INFO(v << " * " << t << " / " << o);
                REQUIRE(netser::linear_prediction::rounded_ratio(v, t, o) ==
                        rounded_by_definition(v * static_cast<std::int64_t>(t), o));
            }
    INFO(checked << " codes: " << held << " held, " << clamped_low << " clamped at 0, " << clamped_high
                 << " at max, " << ties << " ties");
    CHECK(held > 1000);
    CHECK(clamped_low > 1000);
    CHECK(clamped_high > 1000);
    CHECK(ties > 100);
}

TEST_CASE("predicted packets cut at every bit, flipped at every bit, with garbage after them, as the model says",
          "[hostile][prediction][long]") {
    const Swarm before = sentinel();
    outcomes flips, cuts, garbage;
    std::size_t packets = 0, cut_packets_decoded = 0;
    rng r{77};
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
        for (std::size_t count = 1; count <= 3; ++count) {
            INFO("seed " << seed << ", " << count << " baselines");
            // Numbers with many bits set, so a flipped number is one the reader does not hold.
            const auto seq = static_cast<std::uint16_t>(seed == 0 ? 0x7fff : 0xa5a5 + 31 * seed);
            const scene s = make_scene(seed + 100, count, seq);
            const std::size_t bits = s.packet.size() * 8;
            ++packets;
            for (std::size_t bit = 0; bit < bits; ++bit) {
                INFO("flip of bit " << bit << " of " << bits);
                auto flipped = s.packet;
                flip(flipped, bit);
                // As sent: refused by the CRC, untouched.
                const auto sent = read_predicted(flipped, s.reader, before);
                CHECK(sent.error.code == errc::bad_crc);
                CHECK(sent.error.bit == 0);
                CHECK(same_bits(sent.msg, before));
                if (bit < 32) continue;
                patch_predicted_crc<Swarm>(flipped);
                agrees_with_model(flipped, s.reader, before, flips);
            }
            for (std::size_t cut = 0; cut < bits; ++cut) {
                INFO("cut at bit " << cut << " of " << bits);
                std::vector<std::byte> shorter(s.packet.begin(), s.packet.begin() + static_cast<std::ptrdiff_t>((cut + 7) / 8));
                if (cut % 8 != 0) shorter.back() &= static_cast<std::byte>((1u << (cut % 8)) - 1);
                if (shorter == s.packet) continue;
                agrees_with_model(shorter, s.reader, before, cuts); // bad_crc, or overflow below 4 bytes
                if (shorter.size() < 4) continue;
                patch_predicted_crc<Swarm>(shorter);
                if (agrees_with_model(shorter, s.reader, before, cuts) == errc::none) ++cut_packets_decoded;
            }
            for (std::size_t extra = 1; extra <= 9; ++extra) {
                auto longer = s.packet;
                for (std::size_t k = 0; k < extra; ++k) longer.push_back(static_cast<std::byte>(r.below(256)));
                INFO(extra << " bytes of garbage");
                const auto sent = read_predicted(longer, s.reader, before);
                CHECK(sent.error.code == errc::bad_crc);
                CHECK(same_bits(sent.msg, before));
                patch_predicted_crc<Swarm>(longer);
                const auto forged = read_predicted(longer, s.reader, before);
                CHECK(forged.error.code == errc::invalid_value); // trailing bytes, after the end check
                CHECK(forged.error.bit == bits);
                agrees_with_model(longer, s.reader, before, garbage);
            }
        }
    }
    INFO(packets << " packets. Forged flips: " << flips.decoded << " decoded, " << flips.refused_before_body
                 << " refused before the body, " << flips.failed_in_body << " failed in the body ("
                 << flips.body_failures_that_changed_msg << " of them left msg partly written). Cuts: " << cuts.decoded
                 << " decoded, " << cuts.refused_before_body << " refused before the body, " << cuts.failed_in_body
                 << " in the body. Garbage: " << garbage.failed_in_body << " failed after the body ("
                 << garbage.body_failures_that_changed_msg << " with msg written)");
    CHECK(packets == 24);
    CHECK(flips.disagreements == 0);
    CHECK(cuts.disagreements == 0);
    CHECK(garbage.disagreements == 0);
    CHECK(cut_packets_decoded == 0); // a cut packet is never a packet, even behind a valid CRC
    CHECK(flips.failed_in_body > 0);
    CHECK(flips.refused_before_body > 0);
    CHECK(garbage.failed_in_body == 24 * 9);
}

TEST_CASE("each header field flipped behind a recomputed CRC, the documented code at the field's bit",
          "[hostile][prediction]") {
    const Swarm before = sentinel();
    std::size_t sequence_refused = 0, sequence_decoded = 0, count_out_of_range = 0, count_other = 0,
                baseline_order = 0, baseline_missing = 0, fingerprint_refused = 0;
    outcomes tally;
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        for (std::size_t count = 1; count <= 3; ++count) {
            INFO("seed " << seed << ", " << count << " baselines");
            const auto seq = static_cast<std::uint16_t>(0x5a5a + 97 * seed);
            const scene s = make_scene(seed + 200, count, seq, static_cast<std::uint16_t>(1 + seed % 5));
            const std::size_t fingerprint_bit = predicted_fingerprint_field(count);
            for (std::size_t bit = 32; bit < predicted_body_bit(count); ++bit) {
                INFO("flip of bit " << bit);
                auto forged = s.packet;
                flip(forged, bit);
                patch_predicted_crc<Swarm>(forged);
                const auto r = read_predicted(forged, s.reader, before);
                agrees_with_model(forged, s.reader, before, tally);
                if (bit < 48) { // the sequence: refused when no longer newer than b0, else read with that spacing
                    const auto changed = static_cast<std::uint16_t>(seq ^ (1u << (bit - 32)));
                    if (!newer_by_definition(changed, s.named[0])) {
                        CHECK(r.error.code == errc::invalid_value);
                        CHECK(r.error.bit == predicted_baseline_field(0));
                        CHECK(same_bits(r.msg, before));
                        ++sequence_refused;
                    } else {
                        sequence_decoded += r.error ? 0u : 1u;
                    }
                } else if (bit < 50) { // the count
                    const auto field = (count - 1) ^ (std::size_t{1} << (bit - 48));
                    if (field == 3) {
                        CHECK(r.error.code == errc::out_of_range);
                        CHECK(r.error.bit == 48);
                        ++count_out_of_range;
                    } else {
                        CHECK(r.error); // other bits taken for numbers and the fingerprint
                        ++count_other;
                    }
                    CHECK(same_bits(r.msg, before));
                } else if (bit < fingerprint_bit) { // a baseline's number
                    const std::size_t i = (bit - 50) / 16;
                    const auto changed = static_cast<std::uint16_t>(s.named[i] ^ (1u << ((bit - 50) % 16)));
                    const std::uint16_t newer = i == 0 ? seq : s.named[i - 1];
                    CHECK(same_bits(r.msg, before));
                    if (!newer_by_definition(newer, changed)) {
                        CHECK(r.error.code == errc::invalid_value);
                        CHECK(r.error.bit == predicted_baseline_field(i));
                        ++baseline_order;
                    } else if (i + 1 < count && !newer_by_definition(changed, s.named[i + 1])) {
                        CHECK(r.error.code == errc::invalid_value);
                        CHECK(r.error.bit == predicted_baseline_field(i + 1));
                        ++baseline_order;
                    } else {
                        CHECK(r.error.code == (s.reader.find(changed) != nullptr ? errc::baseline_mismatch
                                                                                 : errc::missing_baseline));
                        ++baseline_missing;
                    }
                } else { // the fingerprint
                    CHECK(r.error.code == errc::baseline_mismatch);
                    CHECK(r.error.bit == fingerprint_bit);
                    CHECK(r.error.path().empty());
                    CHECK(same_bits(r.msg, before));
                    ++fingerprint_refused;
                }
            }
        }
    }
    INFO("sequence flips: " << sequence_refused << " refused, " << sequence_decoded << " decoded; count: "
                            << count_out_of_range << " out_of_range, " << count_other << " other; baseline numbers: "
                            << baseline_order << " out of order, " << baseline_missing << " not held; fingerprint: "
                            << fingerprint_refused);
    CHECK(tally.disagreements == 0);
    CHECK(sequence_refused > 0);
    CHECK(sequence_decoded > 0);
    CHECK(count_out_of_range == 12 * 2); // fields 1 and 2 reach 3 by one flip
    CHECK(count_other == 12 * 4);
    CHECK(baseline_order > 0);
    CHECK(baseline_missing > 0);
    CHECK(fingerprint_refused == 12 * 3 * 32);
}

namespace {

/// A packet forged by hand: s's body under other header fields (the fingerprint by
/// definition of `fingerprint_of`'s values unless told), CRC and end check recomputed.
std::vector<std::byte> reheadered(const scene& s, std::uint16_t sequence, std::uint32_t count_field,
                                  std::vector<std::uint16_t> baselines, std::optional<std::uint32_t> fingerprint = {}) {
    predicted_fields f;
    f.sequence = sequence;
    f.count_field = count_field;
    f.baselines = std::move(baselines);
    std::vector<const Swarm*> values;
    for (const Swarm& v : s.values) values.push_back(&v);
    f.fingerprint = fingerprint ? *fingerprint : combined_fingerprint_by_definition<Swarm>(values).value();
    return predicted_packet_by_hand<Swarm>(f, s.packet, body_of_predicted(s.packet));
}

} // namespace

TEST_CASE("forged counts, baselines out of order and sequence numbers named twice are refused where documented",
          "[hostile][prediction]") {
    const Swarm before = sentinel();
    outcomes tally;
    const scene s = make_scene(7, 3, 1000, 1); // baselines 999, 998, 997
    // The hand-built packet with the writer's fields is the writer's packet.
    CHECK(reheadered(s, 1000, 2, {999, 998, 997}) == s.packet);
    const auto refused = [&](const std::vector<std::byte>& p, errc code, std::size_t bit) {
        const auto r = read_predicted(p, s.reader, before);
        INFO(where(r.error));
        CHECK(r.error.code == code);
        CHECK(r.error.bit == bit);
        CHECK(same_bits(r.msg, before));
        agrees_with_model(p, s.reader, before, tally);
    };
    // A count field of 3 (four baselines), with four numbers in order after it.
    refused(reheadered(s, 1000, 3, {999, 998, 997, 996}), errc::out_of_range, 48);
    // Fewer or more than the body was written for: the fingerprint is read from other bits.
    refused(reheadered(s, 1000, 0, {999, 998, 997}), errc::baseline_mismatch, predicted_fingerprint_field(1));
    refused(reheadered(s, 1000, 1, {999, 998, 997}), errc::baseline_mismatch, predicted_fingerprint_field(2));
    // Out of order at each position, and numbers named twice.
    const std::size_t b0 = predicted_baseline_field(0), b1 = predicted_baseline_field(1), b2 = predicted_baseline_field(2);
    refused(reheadered(s, 1000, 2, {1000, 998, 997}), errc::invalid_value, b0); // b0 is the packet's own number
    refused(reheadered(s, 1000, 2, {1001, 998, 997}), errc::invalid_value, b0); // b0 newer than the packet
    refused(reheadered(s, 1000, 2, {999, 999, 997}), errc::invalid_value, b1);  // b1 == b0
    refused(reheadered(s, 1000, 2, {998, 999, 997}), errc::invalid_value, b0 + 16);
    refused(reheadered(s, 1000, 2, {999, 998, 998}), errc::invalid_value, b2); // b2 == b1
    refused(reheadered(s, 1000, 2, {999, 997, 998}), errc::invalid_value, b2);
    refused(reheadered(s, 1000, 2, {999, 998, 999}), errc::invalid_value, b2); // b2 == b0
    // The fingerprint of the baselines in another order: content and order both count.
    {
        std::vector<const Swarm*> swapped{&s.values[1], &s.values[0], &s.values[2]};
        const auto f = combined_fingerprint_by_definition<Swarm>(swapped).value();
        refused(reheadered(s, 1000, 2, {999, 998, 997}, f), errc::baseline_mismatch, b2 + 16);
    }
    // The writer refuses the same: an entry twice, out of order, none, four, a null one.
    Swarm scratch = junk_scratch();
    std::vector<std::byte> out(5, std::byte{1});
    const auto write = [&](std::vector<const entry*> entries, std::uint16_t sequence = 1000) {
        return netser::write_predicted_delta_packet(out, sequence, s.msg, entries, scratch);
    };
    const entry *e999 = s.writer.find(999), *e998 = s.writer.find(998), *e997 = s.writer.find(997);
    const auto writer_refuses = [&](const netser::packet_write_result& w, std::size_t bit) {
        CHECK(w.error.code == errc::invalid_value);
        CHECK(w.error.bit == bit);
        CHECK(w.bytes.empty());
        CHECK(out.empty());
    };
    writer_refuses(write({e999, e999}), b1);
    writer_refuses(write({e998, e999}), b1);
    writer_refuses(write({e999, e998, e998}), b2);
    writer_refuses(write({e999, e997, e998}), b2);
    writer_refuses(write({e999}, 999), b0);
    writer_refuses(write({}), 48);
    writer_refuses(write({e999, e998, e997, e997}), 48);
    writer_refuses(write({e999, nullptr}), b1);
    // A message outside its declared ranges: the member's error, nothing written.
    Swarm bad = s.msg;
    bad.hp = 101;
    const std::vector<const entry*> good{e999, e998};
    const auto w = netser::write_predicted_delta_packet(out, 1000, bad, good, scratch);
    CHECK(w.error.code == errc::out_of_range);
    CHECK(w.error.path() == "Swarm.hp");
    CHECK(out.empty());
    std::array<std::byte, 256> room{};
    CHECK(netser::write_predicted_delta_packet(std::span<std::byte>(room), 1000, bad, good, scratch).bytes.empty());
    CHECK(tally.disagreements == 0);
}

TEST_CASE("sequence numbers at the wrap-around and at the half circle, 32767 steps read, 32768 are refused",
          "[hostile][prediction]") {
    const Swarm before = sentinel();
    outcomes tally;
    SECTION("a session across 65535, the numbers skip 0, the spacing counts it") {
        netser::baseline_ring<Swarm> writer(8), reader(8);
        std::uint16_t seq = 0xfff9;
        std::uint32_t frame = 0;
        std::vector<std::uint16_t> sent;
        std::size_t read = 0;
        for (int i = 0; i < 14; ++i, seq = netser::next_sequence(seq), ++frame) {
            const Swarm world = swarm_frame(5, frame);
            std::vector<std::uint16_t> named;
            for (auto it = sent.rbegin(); it != sent.rend() && named.size() < 3; ++it) named.push_back(*it);
            if (!named.empty()) {
                const auto p = predicted_packet(writer, seq, world, named);
                INFO("packet " << seq);
                CHECK(agrees_with_model(p, reader, before, tally) == errc::none);
                const auto r = read_predicted(p, reader, before);
                REQUIRE_FALSE(r.error);
                CHECK(same_bits(r.msg, world));
                ++read;
                if (seq == 1) { // 65535 is 2 numbers back (0 is never a snapshot's), 65534 one more
                    CHECK(named[0] == 0xffff);
                    CHECK(spacing_by_definition(seq, named).ahead == 2);
                }
            }
            REQUIRE(writer.put(seq, world) != nullptr);
            REQUIRE(reader.put(seq, world) != nullptr);
            sent.push_back(seq);
        }
        CHECK(read == 13);
    }
    SECTION("the initial baseline (0) as the oldest named one") {
        const Swarm initial = as_held(make_value<Swarm>(1));
        netser::baseline_ring<Swarm> writer(8, initial), reader(8, initial);
        const Swarm one = swarm_frame(9, 1), two = swarm_frame(9, 2);
        for (auto* ring : {&writer, &reader}) {
            REQUIRE(ring->put(1, one) != nullptr);
            REQUIRE(ring->put(2, two) != nullptr);
        }
        const auto p = predicted_packet(writer, 5, swarm_frame(9, 5), std::array<std::uint16_t, 3>{2, 1, 0});
        CHECK(agrees_with_model(p, reader, before, tally) == errc::none);
        CHECK(same_bits(read_predicted(p, reader, before).msg, swarm_frame(9, 5)));
        // The initial baseline is older than every snapshot: any packet may name it (a
        // late joiner numbered from the upper half included), and nothing may follow it;
        // no packet is numbered 0.
        const std::array<const entry*, 1> only_initial{&writer.initial()};
        Swarm scratch = junk_scratch();
        std::vector<std::byte> out;
        for (const std::uint16_t any : {std::uint16_t{32767}, std::uint16_t{32768}, std::uint16_t{40000},
                                        std::uint16_t{65535}}) {
            const auto w = netser::write_predicted_delta_packet(out, any, swarm_frame(9, 5), only_initial, scratch);
            REQUIRE_FALSE(w.error);
            CHECK(agrees_with_model(out, reader, before, tally) == errc::none);
            CHECK(same_bits(read_predicted(out, reader, before).msg, swarm_frame(9, 5)));
        }
        const std::array<const entry*, 2> after_initial{&writer.initial(), writer.find(1)};
        auto refused = netser::write_predicted_delta_packet(out, 5, swarm_frame(9, 5), after_initial, scratch);
        CHECK(refused.error.code == errc::invalid_value);
        CHECK(refused.error.bit == predicted_baseline_field(1));
        refused = netser::write_predicted_delta_packet(out, 0, swarm_frame(9, 5), only_initial, scratch);
        CHECK(refused.error.code == errc::invalid_value);
        CHECK(refused.error.bit == 32);
    }
    SECTION("each gap at 32767 reads; at 32768 the writer and the reader refuse at that number") {
        for (std::size_t which = 0; which < 3; ++which) {
            for (const std::uint32_t far : {32767u, 32768u}) {
                INFO("gap " << which << " of " << far);
                const std::uint16_t seq = 0x8123;
                std::uint32_t gaps[3] = {1, 2, 3};
                gaps[which] = far;
                std::vector<std::uint16_t> named;
                std::uint16_t at = seq;
                for (const auto g : gaps) named.push_back(at = static_cast<std::uint16_t>(at - g));
                std::vector<Swarm> values;
                for (std::uint32_t k = 0; k < 3; ++k) values.push_back(swarm_frame(40 + which, 30 - 3 * k));
                // A ring never holds two numbers 32768 apart (they share a slot): the
                // writer's entries are made here.
                std::vector<entry> own(3);
                for (std::size_t k = 0; k < 3; ++k) {
                    own[k].sequence = named[k];
                    own[k].value = values[k];
                    own[k].fingerprint = netser::baseline_fingerprint(values[k]).value();
                }
                const std::vector<const entry*> entries{&own[0], &own[1], &own[2]};
                netser::baseline_ring<Swarm> reader(8);
                for (std::size_t k = 0; k < 3; ++k) reader.put(named[k], values[k]); // a later one may take a slot
                std::vector<std::byte> p;
                Swarm scratch = junk_scratch();
                const Swarm msg = swarm_frame(40 + which, 31);
                const auto w = netser::write_predicted_delta_packet(p, seq, msg, entries, scratch);
                if (far == 32767) {
                    REQUIRE_FALSE(w.error);
                    CHECK(agrees_with_model(p, reader, before, tally) == errc::none);
                    CHECK(same_bits(read_predicted(p, reader, before).msg, msg));
                } else {
                    CHECK(w.error.code == errc::invalid_value);
                    CHECK(w.error.bit == predicted_baseline_field(which));
                    // The same header forged behind a valid CRC: refused at the same bit.
                    predicted_fields f;
                    f.sequence = seq;
                    f.count_field = 2;
                    f.baselines = named;
                    std::vector<const Swarm*> vs{&values[0], &values[1], &values[2]};
                    f.fingerprint = combined_fingerprint_by_definition<Swarm>(vs).value();
                    const std::byte body[1] = {std::byte{0}}; // one bit: nothing changed
                    const auto forged = predicted_packet_by_hand<Swarm>(f, body, {0, 1});
                    const auto r = read_predicted(forged, reader, before);
                    CHECK(r.error.code == errc::invalid_value);
                    CHECK(r.error.bit == predicted_baseline_field(which));
                    CHECK(same_bits(r.msg, before));
                    agrees_with_model(forged, reader, before, tally);
                }
            }
        }
    }
    SECTION("the farthest extrapolation, 32767 ahead of baselines 1 apart clamps every moving code") {
        std::size_t clamped = 0;
        for (std::uint64_t seed = 0; seed < 20; ++seed) {
            const std::uint16_t seq = static_cast<std::uint16_t>(0x10 + seed);
            const std::array<std::uint16_t, 3> named{static_cast<std::uint16_t>(seq - 32767),
                                                     static_cast<std::uint16_t>(seq - 32768),
                                                     static_cast<std::uint16_t>(seq - 32769)};
            const std::array<Swarm, 3> values{swarm_frame(seed, 3), swarm_frame(seed, 2), swarm_frame(seed, 1)};
            const auto writer = ring_of(named, values), reader = ring_of(named, values);
            const Swarm msg = swarm_frame(seed, 4);
            const auto p = predicted_packet(writer, seq, msg, named);
            CHECK(agrees_with_model(p, reader, before, tally) == errc::none);
            CHECK(same_bits(read_predicted(p, reader, before).msg, msg));
            const Swarm* vs[3] = {&values[0], &values[1], &values[2]};
            const Swarm prediction = predicted_by_model(spacing_by_definition(seq, named), vs);
            clamped += prediction.x == -64.f || prediction.x == 64.f ? 1u : 0u;
        }
        CHECK(clamped > 0);
    }
    SECTION("a third baseline 65536 steps back is the packet's own number, the pairwise order lets it through") {
        // Each gap is below the half circle (30001, 30002, 5533), so the order holds pair
        // by pair although b2 carries the packet's own number. Content addressed: it reads,
        // writer and reader agree. (Noted in the report: a rule on the whole span would
        // refuse it.)
        const std::uint16_t seq = 40000;
        const std::array<std::uint16_t, 3> named{static_cast<std::uint16_t>(seq - 30001),
                                                 static_cast<std::uint16_t>(seq - 60003), seq};
        const std::array<Swarm, 3> values{swarm_frame(3, 9), swarm_frame(3, 8), swarm_frame(3, 7)};
        const auto writer = ring_of(named, values), reader = ring_of(named, values);
        const Swarm msg = swarm_frame(3, 10);
        const auto p = predicted_packet(writer, seq, msg, named);
        CHECK(agrees_with_model(p, reader, before, tally) == errc::none);
        CHECK(same_bits(read_predicted(p, reader, before).msg, msg));
    }
    CHECK(tally.disagreements == 0);
}

TEST_CASE("rings that lost a named baseline or hold other content under its number refuse, msg untouched",
          "[hostile][prediction]") {
    const Swarm before = sentinel();
    outcomes tally;
    std::size_t missing = 0, mismatched = 0;
    for (std::uint64_t seed = 0; seed < 10; ++seed) {
        for (std::size_t count = 1; count <= 3; ++count) {
            const scene s = make_scene(seed + 300, count, static_cast<std::uint16_t>(0xfff0 + seed), 2);
            for (std::size_t i = 0; i < count; ++i) {
                INFO("seed " << seed << ", baseline " << i << " of " << count);
                // The slot reused by a snapshot `capacity` numbers newer.
                netser::baseline_ring<Swarm> reused(4);
                for (std::size_t k = 0; k < count; ++k) REQUIRE(reused.put(s.named[k], s.values[k]) != nullptr);
                REQUIRE(reused.put(static_cast<std::uint16_t>(s.named[i] + 4), swarm_frame(seed, 1)) != nullptr);
                REQUIRE(reused.find(s.named[i]) == nullptr);
                auto r = read_predicted(s.packet, reused, before);
                CHECK(r.error.code == errc::missing_baseline);
                CHECK(r.error.bit == predicted_body_bit(count));
                CHECK(same_bits(r.msg, before));
                agrees_with_model(s.packet, reused, before, tally);
                ++missing;
                // Evicted, or forgotten.
                netser::baseline_ring<Swarm> evicted = ring_of(s.named, s.values);
                evicted.evict_before(static_cast<std::uint16_t>(s.named[i] + 1));
                CHECK(read_predicted(s.packet, evicted, before).error.code == errc::missing_baseline);
                // Other content under the number: one leaf away, or another frame.
                rng r2{seed * 10 + i};
                for (int k = 0; k < 6; ++k) {
                    std::vector<Swarm> other = s.values;
                    if (k % 2 == 0) near_value(s.values[i], other[i], r2);
                    else other[i] = swarm_frame(seed + 900 + static_cast<std::uint64_t>(k), 3);
                    if (same_bits(other[i], s.values[i]) || (plain_of(other[i]) == plain_of(s.values[i]))) continue;
                    const auto ring = ring_of(s.named, other);
                    r = read_predicted(s.packet, ring, before);
                    CHECK(r.error.code == errc::baseline_mismatch);
                    CHECK(r.error.bit == predicted_fingerprint_field(count));
                    CHECK(same_bits(r.msg, before));
                    agrees_with_model(s.packet, ring, before, tally);
                    ++mismatched;
                }
            }
        }
    }
    INFO(missing << " missing, " << mismatched << " mismatched");
    CHECK(missing == 60);
    CHECK(mismatched > 300);
    CHECK(tally.disagreements == 0);
}

TEST_CASE("the same content under other sequence numbers decodes, baselines are content addressed",
          "[hostile][prediction]") {
    const Swarm before = sentinel();
    outcomes tally;
    std::size_t same_value = 0, other_spacing_other_value = 0;
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        for (std::size_t count = 1; count <= 3; ++count) {
            INFO("seed " << seed << ", " << count << " baselines");
            const scene s = make_scene(seed + 400, count, 500, 3);
            // Every number shifted by k (across the wrap for some): the same spacing, the
            // same content under the new numbers: exactly msg.
            for (const std::uint16_t k : {std::uint16_t{1}, std::uint16_t{7000}, std::uint16_t{65000}}) {
                std::vector<std::uint16_t> moved;
                for (const auto n : s.named) moved.push_back(static_cast<std::uint16_t>(n + k));
                if (std::find(moved.begin(), moved.end(), std::uint16_t{0}) != moved.end()) continue;
                // The reader got them through plain packets: other objects, the same content.
                std::vector<Swarm> received;
                for (const Swarm& v : s.values) {
                    Swarm got;
                    REQUIRE_FALSE(netser::read_packet(write_packet_value(v), got));
                    received.push_back(got);
                }
                const auto ring = ring_of(moved, received);
                const auto p = reheadered(s, static_cast<std::uint16_t>(s.sequence + k),
                                          static_cast<std::uint32_t>(count - 1), moved);
                CHECK(agrees_with_model(p, ring, before, tally) == errc::none);
                const auto r = read_predicted(p, ring, before);
                REQUIRE_FALSE(r.error);
                CHECK(same_bits(r.msg, s.msg));
                ++same_value;
            }
            // The packet's number moved alone: another spacing, another prediction; it
            // reads as the model says (the same difference from another prediction).
            if (count > 1) {
                const auto p = reheadered(s, static_cast<std::uint16_t>(s.sequence + 5),
                                          static_cast<std::uint32_t>(count - 1), s.named);
                agrees_with_model(p, s.reader, before, tally);
                const auto r = read_predicted(p, s.reader, before);
                if (!r.error && !same_bits(r.msg, s.msg)) ++other_spacing_other_value;
            }
        }
    }
    INFO(same_value << " shifted packets read as msg; " << other_spacing_other_value
                    << " with another spacing read as another value");
    CHECK(same_value >= 90);
    CHECK(other_spacing_other_value > 10);
    CHECK(tally.disagreements == 0);
}

TEST_CASE("the staged reader refuses a second read, a wrong number of entries and null ones, msg untouched",
          "[hostile][prediction]") {
    const Swarm before = sentinel();
    const scene s = make_scene(11, 2, 300, 1);
    const entry *e0 = s.reader.find(s.named[0]), *e1 = s.reader.find(s.named[1]);
    Swarm scratch = junk_scratch();
    const auto staged = [&](std::vector<const entry*> entries, errc code, std::size_t bit) {
        netser::predicted_delta_packet_reader<Swarm> reader(s.packet);
        REQUIRE_FALSE(reader.error());
        Swarm msg = before;
        const netser::error e = reader.read(msg, entries, scratch);
        INFO(where(e));
        CHECK(e.code == code);
        CHECK(e.bit == bit);
        CHECK(same_bits(msg, before));
    };
    const std::size_t body = predicted_body_bit(2);
    staged({e0}, errc::invalid_value, body);
    staged({e0, e1, e1}, errc::invalid_value, body);
    staged({e0, nullptr}, errc::missing_baseline, body);
    staged({nullptr, e1}, errc::missing_baseline, body);
    staged({e1, e0}, errc::baseline_mismatch, predicted_fingerprint_field(2)); // swapped: another fingerprint
    // A second read after a good one.
    netser::predicted_delta_packet_reader<Swarm> reader(s.packet);
    Swarm msg = before;
    const std::array<const entry*, 2> both{e0, e1};
    REQUIRE_FALSE(reader.read(msg, both, scratch));
    CHECK(same_bits(msg, s.msg));
    Swarm again = before;
    CHECK(reader.read(again, both, scratch).code == errc::invalid_value);
    CHECK(same_bits(again, before));
    // A reader of a packet refused by its CRC never reads.
    auto damaged = s.packet;
    flip(damaged, 40);
    netser::predicted_delta_packet_reader<Swarm> bad(damaged);
    CHECK(bad.error().code == errc::bad_crc);
    Swarm untouched = before;
    CHECK(bad.read(untouched, both, scratch).code == errc::bad_crc);
    CHECK(same_bits(untouched, before));
    // Other packet kinds' readers refuse it, and it refuses theirs.
    Swarm plain = before;
    CHECK(netser::read_packet(s.packet, plain).code == errc::bad_crc);
    netser::baseline_ring<Swarm> ring = ring_of(s.named, s.values);
    CHECK(netser::read_delta_packet(s.packet, plain, ring).code == errc::bad_crc);
    std::vector<std::byte> delta;
    REQUIRE_FALSE(netser::write_delta_packet(delta, 301, s.msg, *s.writer.find(s.named[0])).error);
    CHECK(read_predicted(delta, s.reader, before).error.code == errc::bad_crc);
    CHECK(same_bits(plain, before));
}

TEST_CASE("a reused scratch and a reused msg give the same read as fresh ones", "[hostile][prediction]") {
    std::size_t reads = 0;
    for (std::uint64_t seed = 0; seed < 30; ++seed) {
        const scene s = make_scene(seed + 500, static_cast<std::size_t>(1 + seed % 3), static_cast<std::uint16_t>(100 + seed), 1);
        Swarm fresh_msg{}, fresh_scratch{};
        REQUIRE_FALSE(netser::read_predicted_delta_packet(s.packet, fresh_msg, s.reader, fresh_scratch));
        Swarm msg = as_held(make_value<Swarm>(seed + 7000, size_mode::full));
        msg.local = 99;
        Swarm scratch = as_held(make_value<Swarm>(seed + 8000, size_mode::full));
        scratch.local = -99;
        REQUIRE_FALSE(netser::read_predicted_delta_packet(s.packet, msg, s.reader, scratch));
        CHECK(same_bits(msg, fresh_msg));
        CHECK(same_bits(scratch, fresh_scratch));
        CHECK(same_bits(msg, s.msg));
        ++reads;
    }
    CHECK(reads == 30);
}

TEST_CASE("a predicted write into every buffer size, overflow and nothing below the packet, the packet from its size",
          "[hostile][prediction]") {
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
        const scene s = make_scene(seed + 600, static_cast<std::size_t>(1 + seed % 3), 42, 2);
        std::vector<const entry*> entries;
        for (auto n : s.named) entries.push_back(s.writer.find(n));
        REQUIRE(s.packet.size() <= netser::max_predicted_delta_packet_bytes<Swarm>());
        for (std::size_t size = 0; size <= s.packet.size() + 3; ++size) {
            INFO("seed " << seed << ", buffer of " << size << " bytes for a packet of " << s.packet.size());
            exact_block buffer(size);
            Swarm scratch = junk_scratch();
            const auto w = netser::write_predicted_delta_packet(buffer.span(), 42, s.msg, entries, scratch);
            if (size < s.packet.size()) {
                CHECK(w.error.code == errc::overflow);
                CHECK(w.bytes.empty());
            } else {
                REQUIRE_FALSE(w.error);
                CHECK(std::vector<std::byte>(w.bytes.begin(), w.bytes.end()) == s.packet);
            }
        }
    }
}

} // namespace hostile_predicted
