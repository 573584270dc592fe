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
//
// Input: [start sequence, 2 bytes][world seed][operations...], each operation one byte
// (its low 3 bits) and the bytes it takes.
#include "session_common.hpp"

#include <netser/packet_kind.hpp>

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

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    input in{data, size};
    session s;
    s.sequence = in.u16();
    s.world = as_held(make_value<Grid>(in.byte(), size_mode::small));
    for (std::size_t op = 0; op < max_operations && !in.empty(); ++op) {
        switch (in.byte() % 10) {
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
