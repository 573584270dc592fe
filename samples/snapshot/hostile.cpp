// The hostile sender: a third socket that, for as long as the server runs, sends the
// client what an open UDP port receives in real life: noise, damaged packets, other
// programs' and older versions' packets, forgeries with a correct CRC, packets that
// name a baseline the client never had, and packets written against another value of a
// baseline it has.

#include "demo.hpp"

#include <boost/crc.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <thread>

namespace snapshot {

namespace {

// Another game (or another build) on the same port: the same bytes under another id.
constexpr std::uint32_t other_protocol_id = 0x4F544852; // "OTHR"

class hostile_source {
public:
    explicit hostile_source(const shared_state& shared)
        : shared_(shared), rng_(0x6E657473), initial_(std::make_unique<DeltaSnapshot>(initial_snapshot())),
          base_(std::make_unique<DeltaSnapshot>()), msg_(std::make_unique<DeltaSnapshot>()) {}

    // The next packet of the given kind in `out`; the kind actually made (a copy needs
    // a real packet first: until one exists, random bytes).
    hostile_kind make(hostile_kind kind, std::vector<std::byte>& out) {
        if (kind != hostile_kind::random_bytes && kind != hostile_kind::forged_crc &&
            !shared_.recent.sample(static_cast<std::uint32_t>(rng_()), out))
            kind = hostile_kind::random_bytes;
        switch (kind) {
        case hostile_kind::random_bytes: random_bytes(out, below(1500 + 1)); break;
        case hostile_kind::truncated: out.resize(below(out.size())); break;
        case hostile_kind::bit_flipped: flip_bits(out); break;
        case hostile_kind::other_protocol: rewrite(out, false); break;
        case hostile_kind::other_schema: rewrite(out, true); break;
        case hostile_kind::forged_crc: forge(out); break;
        case hostile_kind::unknown_baseline: unknown_baseline(out); break;
        case hostile_kind::wrong_baseline: wrong_baseline(out); break;
        }
        return kind;
    }

private:
    std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }

    void random_bytes(std::vector<std::byte>& out, std::size_t n) {
        out.resize(n);
        for (std::byte& b : out) b = static_cast<std::byte>(rng_() & 0xFFu);
    }

    // 1 to 3 distinct bits: CRC-32 detects every such error in a packet this size.
    void flip_bits(std::vector<std::byte>& out) {
        const std::size_t bits = out.size() * 8, flips = 1 + below(3);
        std::size_t done[3] = {bits, bits, bits};
        for (std::size_t f = 0; f < flips; ++f) {
            std::size_t bit = below(bits);
            while (bit == done[0] || bit == done[1] || bit == done[2]) bit = (bit + 1) % bits;
            done[f] = bit;
            out[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        }
    }

    // The CRC of a packet's bytes after the CRC field under protocol id `id`, stored in
    // its first 4 bytes, as anyone who read packet.hpp can compute: the CRC is not a
    // signature, so the decoder itself must refuse the contents.
    static void sign(std::vector<std::byte>& out, std::uint32_t id) {
        if (out.size() < 4) return;
        const unsigned char id_bytes[4] = {static_cast<unsigned char>(id), static_cast<unsigned char>(id >> 8),
                                           static_cast<unsigned char>(id >> 16), static_cast<unsigned char>(id >> 24)};
        boost::crc_32_type crc;
        crc.process_bytes(id_bytes, sizeof id_bytes);
        crc.process_bytes(out.data() + 4, out.size() - 4);
        const std::uint32_t sum = crc.checksum();
        for (std::size_t i = 0; i < 4; ++i) out[i] = static_cast<std::byte>((sum >> (8 * i)) & 0xFFu);
    }

    // A real packet under another protocol id, or a packet of an older schema: the
    // plain slices of stage 3, velocity included, as an older build sent them.
    void rewrite(std::vector<std::byte>& out, bool older_schema) {
        if (!older_schema) {
            sign(out, other_protocol_id);
            return;
        }
        SnapshotSlice old{static_cast<std::uint32_t>(rng_()), static_cast<std::uint16_t>(below(cube_count - 1)), {}};
        old.cubes.resize(1 + below(cubes_per_slice));
        std::array<std::byte, packet_budget> buffer{};
        const netser::packet_write_result packet = netser::write_packet(buffer, old);
        out.assign(packet.bytes.begin(), packet.bytes.end());
    }

    // Random payload under a correct CRC for delta packets of DeltaSnapshot.
    void forge(std::vector<std::byte>& out) {
        random_bytes(out, 4 + below(packet_budget - 4 + 1));
        sign(out, delta_protocol_id);
    }

    // A real packet whose header names a baseline the client does not hold, signed again.
    void unknown_baseline(std::vector<std::byte>& out) {
        if (out.size() < 8) return;
        // The baseline's 16 bits follow the CRC (32) and the sequence (16), least
        // significant bit first: bytes 6 and 7 (its fingerprint follows, unchanged).
        // Half the sequence space away.
        const auto sequence = static_cast<std::uint16_t>(std::to_integer<unsigned>(out[4]) |
                                                         std::to_integer<unsigned>(out[5]) << 8);
        const auto stale = static_cast<std::uint16_t>(sequence + 32768u == 0 ? 1 : sequence + 32768u);
        out[6] = static_cast<std::byte>(stale & 0xFFu);
        out[7] = static_cast<std::byte>(stale >> 8);
        sign(out, delta_protocol_id);
    }

    // A real packet's header (its sequence number and its baseline's, which the client
    // holds) over a delta written against another value: that baseline with one cube one
    // position step away, as a sender with a stale or damaged copy of it would write. The
    // CRC, the header and the body are all well formed; only the baseline fingerprint
    // tells (baseline_mismatch). The baseline's value comes from the server's record of
    // what the client holds, a test harness's shortcut.
    void wrong_baseline(std::vector<std::byte>& out) {
        const netser::delta_packet_reader<DeltaSnapshot> reader(out);
        if (reader.error()) return; // a real packet: it reads
        netser::delta_header header = reader.header();
        if (header.baseline == netser::initial_sequence || !shared_.truth.get(header.baseline, *base_)) {
            header.baseline = netser::initial_sequence;
            *base_ = *initial_;
        }
        if (!shared_.truth.get(header.sequence, *msg_)) *msg_ = *base_;
        Position& moved = base_->cubes[below(cube_count)].position;
        moved.x = moved.x < 0 ? moved.x + position_step : moved.x - position_step; // within the bounds
        (void)netser::write_delta_packet(out, header, *msg_, *base_); // out: the packet, or empty
    }

    static constexpr std::uint32_t delta_protocol_id = netser::schema_hash<DeltaSnapshot>() ^ netser::delta_packet_salt;

    const shared_state& shared_;
    std::mt19937 rng_;
    std::unique_ptr<DeltaSnapshot> initial_, base_, msg_;
};

} // namespace

void run_hostile(net::udp::socket& socket, const net::udp::endpoint& client, shared_state& shared,
                 hostile_report& report) {
    hostile_source source(shared);
    std::vector<std::byte> packet;
    auto next = std::chrono::steady_clock::now();
    for (std::size_t n = 0; !shared.server_done; ++n) {
        // About 1000 a second, between the real ones (no catching up in bursts after a stall).
        next = std::max(next + std::chrono::milliseconds(1), std::chrono::steady_clock::now());
        std::this_thread::sleep_until(next);
        const hostile_kind kind = source.make(static_cast<hostile_kind>(n % hostile_kind_count), packet);
        if (net::send(socket, client, packet)) ++report.sent[static_cast<std::size_t>(kind)];
        else ++report.send_failures;
    }
    shared.hostile_done = true;
}

} // namespace snapshot
