// A snapshot session driven by the input: a writer (baseline_ring, write_delta_packet
// against its newest acked snapshot) and a reader (baseline_ring, read_delta_packet,
// ack_window) of Grid snapshots, with the network in between replaced by the fuzzer:
// packets delivered late, twice or never, damaged with and without a recomputed CRC,
// forged from the input's bytes; acks forged too; sequence numbers that start anywhere,
// jump and wrap; rings evicted and cleared.
// Promises checked, besides the sanitizers':
// - an intact packet reads exactly as the reader's ring says: the value written when the
//   reader holds the writer's baseline content under that number, missing_baseline when it
//   holds nothing there, baseline_mismatch (msg untouched) when it holds other content
//   (a stale slot, or a forged packet it accepted earlier);
// - a damaged packet: bad_crc as sent; behind a recomputed CRC, a damaged fingerprint is
//   refused before anything is decoded, a damaged baseline number reads as the number
//   says, anything else fails with a decode code or reads to values in their ranges;
// - packet_kind_of agrees with the readers' CRC checks;
// - apply_ack marks only snapshots the ring holds and the ack names, counts them, and
//   leaves a newest acked snapshot that is held and acked.
// Beside it, predicted delta packets of a Swarm (session_common.hpp: predict_linear on
// every kind of value) between a second pair of rings of 4 entries, numbered from the
// same start: one to four baselines named, newest first or in the input's order, across
// jumps and the wrap-around; packets lost, damaged, cut, padded, re-headered, forged; the
// reader's ring evicted, cleared, or holding other content or the same content under
// other numbers. Promises:
// - a write fails exactly when the documented order rule says (invalid_value at that
//   number, or at the count for four), else its fields, fingerprint and CRC are as
//   documented, and a buffer of its size gives the same bytes, one byte less overflow;
// - every read (of anything) ends as expect_predicted says from the documented layout and
//   an independent model of the prediction: the same code, the same bit where documented,
//   the model's value bit for bit; msg untouched when refused before the body;
// - a packet read against baselines of the content it was written against gives exactly
//   the value written.
// The same packets range-coded (packet_options::range: the library's default prior or one
// trained on Swarm motions, session_common.hpp): written, read, damaged and forged as above,
// and besides read with another coding, cut in the coder's order, given the input's bytes
// as a body behind a valid header, or the input's bytes as a whole packet. Every read ends
// as expect_predicted_range says (the documented header and framing, the body decoded
// against the independent model of the prediction): the same code at the documented bit,
// or exactly the model's value; msg untouched when refused before the body.
//
// Input: [start sequence, 2 bytes][world seed][operations...], each operation one byte
// (byte % 14) and the bytes it takes.
#include "range_common.hpp"
#include "session_common.hpp"

#include <netser/packet_kind.hpp>

#include <algorithm>
#include <array>
#include <deque>
#include <optional>

namespace {

using namespace netser_fuzz;
using netser::errc;

constexpr std::string_view type = "Grid";
constexpr std::size_t max_operations = 96;
constexpr std::size_t ring_capacity = 8;

struct input {
    const std::uint8_t* data;
    std::size_t size;
    std::size_t at = 0;
    bool empty() const noexcept { return at >= size; }
    std::uint8_t byte() noexcept { return at < size ? data[at++] : 0; }
    std::uint16_t u16() noexcept {
        const unsigned low = byte();
        return static_cast<std::uint16_t>(low | unsigned{byte()} << 8);
    }
    std::uint32_t u32() noexcept {
        const std::uint32_t low = u16();
        return low | std::uint32_t{u16()} << 16;
    }
};

struct sent_packet {
    std::vector<std::byte> bytes;
    std::uint16_t sequence = 0, baseline = 0;
    Grid value, base; // what was written, against what
};

[[noreturn]] void fail(std::string_view what, const netser::error* e = nullptr) { finding(what, type, e); }

template <class T>
bool same_content(const T& a, const T& b) {
    const auto pa = plain_of(a), pb = plain_of(b);
    return pa && pb && *pa == *pb;
}

struct session {
    netser::baseline_ring<Grid> writer{ring_capacity}, reader{ring_capacity};
    netser::ack_window acks;
    std::uint16_t sequence = 0;
    Grid world;
    std::deque<sent_packet> sent;
    // The number last put in each slot of the writer's ring: every snapshot it can hold.
    std::array<std::optional<std::uint16_t>, ring_capacity> put_in_slot;
    const Grid untouched = as_held(make_value<Grid>(0xdead, size_mode::full));

    // Reads a packet against the reader's ring into a copy of `untouched`.
    netser::error read(std::span<const std::byte> bytes, Grid& out, netser::delta_header& h) {
        out = untouched;
        const exact_bytes block(bytes);
        return netser::read_delta_packet(block.span(), out, reader, &h);
    }

    void accept(std::uint16_t s, const Grid& value) {
        if (s == netser::initial_sequence) return;
        if (reader.put(s, value) == nullptr) fail("the reader's ring refuses a value a delta packet decoded to");
        acks.accepted(s);
    }

    void send() {
        sequence = netser::next_sequence(sequence);
        const auto& base = writer.newest_acked();
        if (!base.acked) fail("the newest acked baseline is not acked");
        sent_packet p;
        const auto w = netser::write_delta_packet(p.bytes, sequence, world, base);
        if (w.error) fail("a delta packet of a valid value against a ring entry does not write", &w.error);
        if (field_of(p.bytes, fingerprint_field_bit, fingerprint_field_bits) != fingerprint_by_definition(base.value))
            fail("a delta packet's fingerprint field is not its baseline's fingerprint by definition");
        p.sequence = sequence;
        p.baseline = base.sequence;
        p.value = world;
        p.base = base.value;
        if (writer.put(sequence, world) == nullptr) fail("the writer's ring refuses a valid snapshot");
        put_in_slot[sequence % ring_capacity] = sequence;
        sent.push_back(std::move(p));
        if (sent.size() > 16) sent.pop_front();
    }

    // What a packet written against `base` under number `baseline` must do with this reader.
    void expect_as_ring_says(const netser::error& e, const Grid& out, std::uint16_t baseline, const Grid& base,
                             const Grid& value) {
        const auto* held = reader.find(baseline);
        if (held == nullptr) {
            if (e.code != errc::missing_baseline) fail("a packet naming a baseline not held is not missing_baseline", &e);
        } else if (same_content(held->value, base)) {
            if (e) fail("a packet against the baseline content the reader holds does not read", &e);
            if (!same_content(out, value)) fail("a packet read against its own baseline gives another value");
            return;
        } else if (e.code != errc::baseline_mismatch || e.bit != fingerprint_field_bit) {
            fail("a packet read against other content under its baseline number is not refused with "
                 "baseline_mismatch at the fingerprint (a silent decode against a wrong baseline)",
                 &e);
        }
        if (!same_content(out, untouched)) fail("a refused delta packet changed msg");
    }

    void deliver(input& in) {
        if (sent.empty()) return;
        const sent_packet& p = sent[in.byte() % sent.size()];
        Grid out;
        netser::delta_header h;
        const netser::error e = read(p.bytes, out, h);
        expect_as_ring_says(e, out, p.baseline, p.base, p.value);
        if (!e) accept(h.sequence, out);
    }

    void deliver_damaged(input& in) {
        if (sent.empty()) return;
        const sent_packet& p = sent[in.byte() % sent.size()];
        auto bytes = p.bytes;
        const std::size_t bit = in.u16() % (bytes.size() * 8);
        bytes[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        const bool patch = (in.byte() & 1u) != 0;
        if (patch) patch_delta_crc<Grid>(bytes);
        Grid out;
        netser::delta_header h;
        const netser::error e = read(bytes, out, h);
        if (!patch) {
            if (e.code != errc::bad_crc) fail("a damaged delta packet passes the CRC", &e);
            if (!same_content(out, untouched)) fail("a packet refused by its CRC changed msg");
            return;
        }
        if (bit < 48) { // the CRC (recomputed: undamaged) or the sequence number: read as the intact one
            expect_as_ring_says(e, out, p.baseline, p.base, p.value);
        } else if (bit < fingerprint_field_bit) { // the baseline number: read as the number says
            const auto b = static_cast<std::uint16_t>(p.baseline ^ (1u << (bit - 48)));
            expect_as_ring_says(e, out, b, p.base, p.value);
        } else if (bit < 96) {
            const bool held = reader.find(p.baseline) != nullptr;
            if (e.code != (held ? errc::baseline_mismatch : errc::missing_baseline))
                fail("a delta packet with a forged fingerprint is not refused before it is decoded", &e);
            if (!same_content(out, untouched)) fail("a packet with a forged fingerprint changed msg");
            return;
        } else if (e) {
            if (e.code == errc::bad_crc) fail("a packet with a recomputed CRC fails with bad_crc", &e);
            if (e.bit > bytes.size() * 8) fail("a failed delta packet read reports a bit past its end", &e);
        } else if (!satisfies_declared(out)) {
            fail("a forged delta packet decoded to values outside their declared ranges");
        }
        if (!e) accept(h.sequence, out); // a forged snapshot the reader now holds
    }

    // Forged bytes from the input, as a packet of any kind.
    void forged_packet(input& in) {
        std::vector<std::byte> bytes(in.byte() % 48);
        for (auto& b : bytes) b = static_cast<std::byte>(in.byte());
        const std::uint8_t how = in.byte();
        if ((how & 1u) != 0 && bytes.size() >= 4) patch_delta_crc<Grid>(bytes);
        const auto kind = netser::packet_kind_of<netser::ack_message, Grid, netser::delta_of<Grid>>(bytes);
        Grid out;
        netser::delta_header h;
        const netser::error e = read(bytes, out, h);
        const bool delta_crc = bytes.size() >= 4 && stored_crc(bytes) == delta_packet_crc<Grid>(bytes);
        if ((kind && *kind == 2 && !delta_crc) || (delta_crc && !kind))
            fail("packet_kind_of does not name a delta packet by its CRC");
        if (!delta_crc && e.code != (bytes.size() < 4 ? errc::overflow : errc::bad_crc))
            fail("a packet without a delta CRC is not refused by it", &e);
        if (e && e.bit > bytes.size() * 8) fail("a failed read of a forged packet reports a bit past its end", &e);
        if (!e) {
            if (!satisfies_declared(out)) fail("a forged delta packet decoded to values outside their declared ranges");
            accept(h.sequence, out);
        }
    }

    void apply(const netser::ack_message& a) {
        struct state {
            bool held, acked;
        };
        std::array<state, ring_capacity> was{};
        for (std::size_t i = 0; i < ring_capacity; ++i) {
            const auto* e = put_in_slot[i] ? writer.find(*put_in_slot[i]) : nullptr;
            was[i] = {e != nullptr, e != nullptr && e->acked};
        }
        const auto named = [&](std::uint16_t s) {
            if (a.newest == netser::initial_sequence || s == netser::initial_sequence) return false;
            const std::uint16_t back = netser::sequence_distance(a.newest, s);
            return back == 0 || (back <= 32 && ((a.previous >> (back - 1)) & 1u) != 0);
        };
        std::size_t expect = 0;
        for (std::size_t i = 0; i < ring_capacity; ++i) expect += was[i].held && named(*put_in_slot[i]) ? 1u : 0u;
        const std::size_t got = netser::apply_ack(writer, a);
        if (got != expect) fail("apply_ack counts other snapshots than the held ones its ack names");
        for (std::size_t i = 0; i < ring_capacity; ++i) {
            const auto* e = put_in_slot[i] ? writer.find(*put_in_slot[i]) : nullptr;
            if (e != nullptr && !was[i].held) fail("apply_ack made a snapshot appear");
            if (e != nullptr && e->acked && !was[i].acked && !named(*put_in_slot[i]))
                fail("apply_ack marked a snapshot its ack does not name");
        }
        const auto& newest = writer.newest_acked();
        if (!newest.acked) fail("the newest acked snapshot is not acked");
        if (newest.sequence != netser::initial_sequence && writer.find(newest.sequence) != &newest)
            fail("the newest acked snapshot is not held");
    }

    void ack(input& in) {
        // The reader's ack as a plain packet, told apart from delta packets.
        const netser::ack_message a = acks.ack();
        std::vector<std::byte> bytes;
        if (const auto w = netser::write_packet(bytes, a); w.error) fail("an ack does not write", &w.error);
        const auto kind = netser::packet_kind_of<netser::ack_message, Grid, netser::delta_of<Grid>>(bytes);
        if (!kind || *kind != 0) fail("packet_kind_of does not name an ack packet");
        netser::ack_message back;
        if (const auto e = netser::read_packet(bytes, back); e) fail("an ack packet does not read", &e);
        if (back.newest != a.newest || back.previous != a.previous) fail("an ack packet reads as another ack");
        if ((in.byte() & 3u) != 0) apply(back); // else lost
    }
};

// --- predicted delta packets ------------------------------------------------------

constexpr std::string_view swarm_type = "Swarm";
constexpr std::size_t swarm_ring_capacity = 4;

[[noreturn]] void swarm_fail(std::string_view what, const netser::error* e = nullptr) { finding(what, swarm_type, e); }

struct predicted_sent {
    std::vector<std::byte> bytes;
    body_coding coding; // bit-packed, or range-coded with a prior
    std::uint16_t sequence = 0;
    std::vector<std::uint16_t> named;
    std::vector<Swarm> bases; // the content each named baseline had on the writer
    Swarm value;
};

struct predicted_session {
    netser::baseline_ring<Swarm> writer{swarm_ring_capacity}, reader{swarm_ring_capacity};
    std::uint16_t sequence = 0;
    std::uint64_t motion = 0;
    std::uint32_t frame = 0;
    Swarm world;
    // Kept from packet to packet, as a writer and a reader keep theirs: the last
    // prediction stays in them.
    Swarm writer_scratch, reader_scratch;
    std::deque<predicted_sent> sent;
    std::vector<std::uint16_t> history; // the numbers put in the writer's ring, oldest first
    const Swarm untouched = [] {
        Swarm s = as_held(make_value<Swarm>(0xdead, size_mode::full));
        s.local = 0x5a5a;
        return s;
    }();

    // The read of `bytes` against the reader's ring, by read_predicted_delta_packet or the
    // staged reader, against the model; its error and what it decoded when asked. A
    // snapshot it decodes is kept.
    void read(std::span<const std::byte> bytes, const body_coding& coding, bool staged = false, Swarm* decoded = nullptr,
              netser::error* error = nullptr) {
        const predicted_expectation m = expect_predicted_in(bytes, reader, coding);
        Swarm msg = untouched;
        const exact_bytes block(bytes);
        netser::error e;
        netser::predicted_delta_header h;
        if (staged) {
            netser::predicted_delta_packet_reader<Swarm> r(block.span(), coding.options());
            e = r.error();
            h = r.header();
            if (!e) {
                std::array<const netser::baseline_entry<Swarm>*, 3> found{};
                for (std::size_t i = 0; i < h.count; ++i) found[i] = reader.find(h.baselines[i]);
                e = r.read(msg, {found.data(), h.count}, reader_scratch);
            }
        } else {
            e = netser::read_predicted_delta_packet(block.span(), msg, reader, reader_scratch, &h, coding.options());
        }
        if (e.code != m.code) swarm_fail("a predicted packet read ends with another code than the documented layout says", &e);
        if (m.bit && e.bit != *m.bit) swarm_fail("a predicted packet read fails at another bit than documented", &e);
        // A range-coded body's errors are at logical bits (after the header's): up to its limit.
        const std::size_t last_bit =
            bytes.size() * 8 + (coding.prior != nullptr ? netser::detail::range_logical_bit_limit(bytes.size()) : 0);
        if (e && e.bit > last_bit) swarm_fail("a failed predicted read reports a bit past the packet's end", &e);
        if (m.before_body && bits_of(msg) != bits_of(untouched)) swarm_fail("a predicted packet refused before its body changed msg", &e);
        if (!e) {
            if (bits_of(msg) != bits_of(m.value))
                swarm_fail("a predicted packet decodes to another value than the model's prediction and delta give");
            if (!satisfies_declared(msg)) swarm_fail("a predicted packet decoded to values outside their declared ranges");
            if (h.sequence != m.sequence || h.count != m.baselines.size() ||
                !std::equal(m.baselines.begin(), m.baselines.end(), h.baselines.begin()))
                swarm_fail("a predicted packet's header reads as other fields than its bits hold");
            if (reader.put(h.sequence, msg) == nullptr && h.sequence != netser::initial_sequence)
                swarm_fail("the reader's ring refuses a value a predicted packet decoded to");
            if (decoded != nullptr) *decoded = std::move(msg);
        }
        if (error != nullptr) *error = e;
    }

    void next_world(std::uint8_t control, std::uint8_t seed) {
        if ((control & 4u) != 0) {
            world = swarm_frame(motion, ++frame);
        } else {
            world = as_held(make_value<Swarm>(seed, (control & 0x80u) != 0 ? size_mode::full : size_mode::small));
            motion = seed;
            frame = 0;
        }
    }

    void send(input& in, const body_coding& coding = {}) {
        const std::uint8_t control = in.byte();
        next_world(control, in.byte());
        sequence = (control & 0x10u) != 0 ? static_cast<std::uint16_t>(sequence + in.u16()) : netser::next_sequence(sequence);
        // The baselines the writer names: the newest acked ones (as a game does), or any
        // held ones in the input's order. The initial baseline is always held and acked.
        const bool picked = (control & 8u) != 0;
        std::vector<std::uint16_t> held{netser::initial_sequence};
        for (const auto n : history)
            if (const auto* e = writer.find(n); e != nullptr && (picked || e->acked) &&
                                                std::find(held.begin(), held.end(), n) == held.end())
                held.push_back(n);
        const std::size_t wanted = 1 + (control & 3u);
        std::vector<std::uint16_t> named;
        if (picked) {
            for (std::size_t i = 0; i < wanted; ++i) named.push_back(held[in.byte() % held.size()]);
        } else {
            for (auto it = held.rbegin(); it != held.rend() && named.size() < wanted; ++it) named.push_back(*it);
        }
        std::vector<const netser::baseline_entry<Swarm>*> entries;
        for (const auto n : named) entries.push_back(writer.find(n));
        // The documented rule: 1 to 3 baselines, each older than the one before it.
        // A packet is never numbered 0; the initial baseline (0) is older than every snapshot,
        // so any packet may name it, last.
        std::optional<std::size_t> refused_at;
        if (sequence == netser::initial_sequence) refused_at = 32;
        else if (named.size() > 3) refused_at = 48;
        for (std::size_t i = 0; !refused_at && i < named.size(); ++i) {
            const std::uint16_t newer = i == 0 ? sequence : named[i - 1];
            if ((i > 0 && newer == netser::initial_sequence) ||
                (named[i] != netser::initial_sequence && !newer_by_definition(newer, named[i])))
                refused_at = predicted_baseline_field(i);
        }
        predicted_sent p;
        const auto w =
            netser::write_predicted_delta_packet(p.bytes, sequence, world, entries, writer_scratch, coding.options());
        if (refused_at) {
            if (w.error.code != errc::invalid_value || w.error.bit != *refused_at || !p.bytes.empty())
                swarm_fail("a predicted write against baselines out of order is not refused where documented", &w.error);
        } else if (w.error) {
            swarm_fail("a predicted write of a valid value against ring entries in order fails", &w.error);
        } else {
            check_written(p.bytes, named, coding);
            p.coding = coding;
            p.sequence = sequence;
            p.named = named;
            for (const auto* e : entries) p.bases.push_back(e->value);
            p.value = world;
        }
        if (writer.put(sequence, world) == nullptr) {
            if (sequence != netser::initial_sequence) swarm_fail("the writer's ring refuses a valid snapshot");
        } else {
            history.push_back(sequence);
            if (history.size() > 64) history.erase(history.begin());
        }
        if (p.bytes.empty()) return;
        if ((control & 0x20u) == 0) { // delivered
            // Every named baseline held with the content it was written against: exactly world.
            bool same = true;
            for (std::size_t i = 0; i < p.named.size(); ++i) {
                const auto* e = reader.find(p.named[i]);
                same = same && e != nullptr && same_content(e->value, p.bases[i]);
            }
            Swarm got;
            netser::error e;
            read(p.bytes, coding, (control & 0x40u) != 0, &got, &e);
            if (same && e) swarm_fail("a predicted packet against the baselines it was written against does not read", &e);
            if (same && !same_content(got, world))
                swarm_fail("a predicted packet read against its own baselines gives another value than was written");
            if (same) writer.acknowledge(sequence); // the reader holds it: the writer may name it
        }
        sent.push_back(std::move(p));
        if (sent.size() > 8) sent.pop_front();
    }

    // A written packet's fields, fingerprint and CRC by definition; the same bytes into a
    // buffer of its size, overflow into one byte less.
    void check_written(const std::vector<std::byte>& bytes, const std::vector<std::uint16_t>& named,
                       const body_coding& coding) {
        const predicted_fields f = fields_of_predicted(bytes);
        std::vector<const Swarm*> values;
        for (const auto n : named) values.push_back(&writer.find(n)->value);
        const std::uint32_t crc = coding.prior != nullptr ? predicted_range_crc<Swarm>(bytes, coding.fingerprint)
                                                          : predicted_packet_crc<Swarm>(bytes);
        if (stored_crc(bytes) != crc || f.sequence != sequence ||
            f.count_field + 1 != named.size() || f.baselines != named ||
            f.fingerprint != combined_fingerprint_by_definition<Swarm>(values))
            swarm_fail("a predicted packet's fields, fingerprint or CRC are not as documented");
        // (A range-coded packet has no such bound: a bit can cost up to 15.)
        if (coding.prior == nullptr && bytes.size() > netser::max_predicted_delta_packet_bytes<Swarm>())
            swarm_fail("a predicted packet is longer than max_predicted_delta_packet_bytes");
        if (coding.prior != nullptr) {
            // The body: the coder's bytes of the delta against the model's prediction.
            const Swarm prediction = predicted_by_model(spacing_by_definition(sequence, named), values);
            const auto body = std::span<const std::byte>(bytes).subspan(predicted_range_body_byte(named.size()));
            const auto plain = bit_packed_of(world, delta_codec<Swarm>{&prediction});
            const auto coded = plain ? range_coded_of(world, delta_codec<Swarm>{&prediction}, *coding.prior, plain->bits)
                                     : std::nullopt;
            if (!coded || !std::equal(body.begin(), body.end(), coded->begin(), coded->end()))
                swarm_fail("a range-coded predicted packet's body is not the coder's bytes of the delta against the "
                           "model's prediction");
            if (predicted_range_packet_by_hand<Swarm>(f, body, coding.fingerprint) != bytes)
                swarm_fail("a range-coded predicted packet is not its header, zero bits to the byte and its body");
        }
        std::vector<const netser::baseline_entry<Swarm>*> entries;
        for (const auto n : named) entries.push_back(writer.find(n));
        exact_bytes exact(bytes), short_by_one(std::span<const std::byte>(bytes).first(bytes.size() - 1));
        Swarm scratch = untouched;
        const auto w = netser::write_predicted_delta_packet(exact.span(), sequence, world, entries, scratch, coding.options());
        if (w.error || !std::equal(w.bytes.begin(), w.bytes.end(), bytes.begin(), bytes.end()))
            swarm_fail("a predicted write into a buffer of the packet's size gives other bytes", &w.error);
        const auto o =
            netser::write_predicted_delta_packet(short_by_one.span(), sequence, world, entries, scratch, coding.options());
        if (o.error.code != errc::overflow || !o.bytes.empty())
            swarm_fail("a predicted write into a buffer one byte short does not overflow", &o.error);
    }

    void attack(input& in) {
        const std::uint8_t kind = in.byte();
        if (kind % 6 == 5) return ring_op(in);
        if (kind % 6 == 4) { // bytes from the input, as a predicted packet
            std::vector<std::byte> bytes(in.byte() % 64);
            for (auto& b : bytes) b = static_cast<std::byte>(in.byte());
            if ((kind & 0x80u) != 0) patch_predicted_crc<Swarm>(bytes);
            read(bytes, {}, (kind & 0x40u) != 0);
            return;
        }
        if (sent.empty()) return;
        const predicted_sent& p = sent[in.byte() % sent.size()];
        std::vector<std::byte> bytes = p.bytes;
        const std::size_t bits = bytes.size() * 8;
        switch (kind % 6) {
        case 0: { // a bit flipped
            const std::size_t bit = in.u16() % bits;
            bytes[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
            break;
        }
        case 1: { // cut
            const std::size_t cut = in.u16() % bits;
            bytes.resize((cut + 7) / 8);
            if (cut % 8 != 0) bytes.back() &= static_cast<std::byte>((1u << (cut % 8)) - 1);
            break;
        }
        case 2: { // garbage after it
            for (std::size_t n = 1 + in.byte() % 16; n > 0; --n) bytes.push_back(static_cast<std::byte>(in.byte()));
            break;
        }
        default: { // re-headered: the body under other numbers, a count and a fingerprint
            predicted_fields f;
            const std::uint8_t how = in.byte();
            f.sequence = (how & 1u) != 0 ? in.u16() : static_cast<std::uint16_t>(p.sequence + in.byte());
            f.count_field = (how >> 1) & 3u;
            std::uint16_t at = f.sequence;
            for (std::size_t i = 0; i <= f.count_field; ++i) {
                at = (how & 8u) != 0 ? in.u16() : static_cast<std::uint16_t>(at - in.byte());
                f.baselines.push_back(at);
            }
            // The fingerprint of what the reader holds under those numbers (so the body is
            // read against another prediction), the packet's own, or the input's.
            std::vector<const Swarm*> held;
            for (const auto n : f.baselines)
                if (const auto* e = reader.find(n)) held.push_back(&e->value);
            const auto by_reader = held.size() == f.baselines.size() ? combined_fingerprint_by_definition<Swarm>(held)
                                                                       : std::nullopt;
            if ((how & 0x30u) == 0 && by_reader) f.fingerprint = *by_reader;
            else if ((how & 0x30u) == 0x10u) f.fingerprint = fields_of_predicted(p.bytes).fingerprint;
            else f.fingerprint = in.u32();
            if (p.coding.prior != nullptr) {
                const auto body = std::span<const std::byte>(p.bytes).subspan(predicted_range_body_byte(p.named.size()));
                bytes = predicted_range_packet_by_hand<Swarm>(f, body, p.coding.fingerprint);
            } else {
                bytes = predicted_packet_by_hand<Swarm>(f, p.bytes, body_of_predicted(p.bytes));
            }
            read(bytes, p.coding, (how & 0x40u) != 0);
            return;
        }
        }
        if ((kind & 0x80u) != 0) patch_crc_of<Swarm>(bytes, p.coding);
        read(bytes, p.coding, (kind & 0x40u) != 0);
    }

    // A coding from a byte: bit-packed (only when `bit_packed_too`), the default prior or
    // the trained one.
    static body_coding coding_from(std::uint8_t b, bool bit_packed_too) {
        switch (b % (bit_packed_too ? 3 : 2)) {
        case 0: return default_range_coding();
        case 1: return trained_swarm_prior().coding();
        default: return {};
        }
    }

    // Range-coded attacks: the input's bytes as a packet; a sent packet read with another
    // coding (its CRC recomputed for that coding or not); a sent packet's header with the
    // input's bytes as its body; a sent packet cut in the coder's order (top bits of the
    // last byte kept).
    void range_attack(input& in) {
        const std::uint8_t kind = in.byte();
        const bool staged = (kind & 0x40u) != 0, patch = (kind & 0x80u) != 0;
        if (kind % 4 == 0) {
            const body_coding c = coding_from(static_cast<std::uint8_t>(kind >> 2), false);
            std::vector<std::byte> bytes(in.byte() % 64);
            for (auto& b : bytes) b = static_cast<std::byte>(in.byte());
            if (patch) patch_crc_of<Swarm>(bytes, c);
            read(bytes, c, staged);
            return;
        }
        if (sent.empty()) return;
        const predicted_sent& p = sent[in.byte() % sent.size()];
        std::vector<std::byte> bytes = p.bytes;
        const std::size_t body = predicted_range_body_byte(p.named.size());
        switch (kind % 4) {
        case 1: {
            body_coding other = coding_from(static_cast<std::uint8_t>(kind >> 2), true);
            if (other.prior == p.coding.prior) other = coding_from(static_cast<std::uint8_t>((kind >> 2) + 1), true);
            if (patch) patch_crc_of<Swarm>(bytes, other);
            read(bytes, other, staged);
            return;
        }
        case 2: {
            const body_coding c = p.coding.prior != nullptr ? p.coding : coding_from(static_cast<std::uint8_t>(kind >> 2), false);
            bytes.resize(std::min(bytes.size(), body));
            if (bytes.size() == body) bytes.back() &= std::byte{0x03}; // the header's last 2 bits, zero padding
            for (std::size_t n = in.byte() % 64; n > 0; --n) bytes.push_back(static_cast<std::byte>(in.byte()));
            patch_crc_of<Swarm>(bytes, c);
            read(bytes, c, staged);
            return;
        }
        default: {
            const std::size_t cut = in.u16() % (bytes.size() * 8);
            bytes.resize((cut + 7) / 8);
            if (cut % 8 != 0) bytes.back() &= static_cast<std::byte>(0xff00u >> (cut % 8));
            if (patch) patch_crc_of<Swarm>(bytes, p.coding);
            read(bytes, p.coding, staged);
            return;
        }
        }
    }

    // The reader's ring: evicted, cleared, other content under a number, or the writer's
    // content under another number.
    void ring_op(input& in) {
        const std::uint8_t op = in.byte();
        switch (op % 4) {
        case 0: reader.evict_before(in.u16()); break;
        case 1: reader.clear(); break;
        case 2: {
            const std::uint16_t n = history.empty() ? in.u16() : history[in.byte() % history.size()];
            reader.put(n, as_held(make_value<Swarm>(in.byte(), size_mode::small)));
            break;
        }
        default: {
            if (history.empty()) break;
            const std::uint16_t n = history[in.byte() % history.size()];
            if (const auto* e = writer.find(n)) reader.put(static_cast<std::uint16_t>(n + in.byte()), e->value);
            break;
        }
        }
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    input in{data, size};
    session s;
    s.sequence = in.u16();
    const std::uint8_t world_seed = in.byte();
    s.world = as_held(make_value<Grid>(world_seed, size_mode::small));
    // Made on the first predicted operation: inputs without one pay nothing for it.
    std::optional<predicted_session> predicted;
    const auto predicted_of = [&]() -> predicted_session& {
        if (!predicted) {
            predicted.emplace();
            predicted->sequence = s.sequence;
            predicted->motion = world_seed;
            predicted->world = swarm_frame(world_seed, 0);
        }
        return *predicted;
    };
    for (std::size_t op = 0; op < max_operations && !in.empty(); ++op) {
        // Bytes 0 to 9 keep their meaning (the seeds'); 10 and 11 are the predicted packets,
        // 12 and 13 the range-coded ones (12: [coding byte] then as 10).
        switch (in.byte() % 14) {
        case 0: {
            rng r{in.byte()};
            evolve(s.world, r);
            s.world = as_held(s.world);
            break;
        }
        case 1:
        case 2: s.send(); break;
        case 3: s.deliver(in); break;
        case 4: s.deliver_damaged(in); break;
        case 5: s.ack(in); break;
        case 6: s.apply({in.u16(), in.u32()}); break; // a forged ack
        case 7: s.forged_packet(in); break;
        case 8: s.sequence = static_cast<std::uint16_t>(s.sequence + in.u16()); break; // a jump, maybe past a lap
        case 10: predicted_of().send(in); break;
        case 11: predicted_of().attack(in); break;
        case 12: {
            const std::uint8_t c = in.byte();
            predicted_of().send(in, predicted_session::coding_from(c, false));
            break;
        }
        case 13: predicted_of().range_attack(in); break;
        default:
            switch (in.byte() % 4) {
            case 0: s.reader.evict_before(in.u16()); break;
            case 1: s.reader.clear(); break;
            case 2: s.acks.reset(); break;
            default: s.writer.evict_before(in.u16()); break;
            }
        }
    }
    return 0;
}
