#pragma once

#include <netser/baseline_ring.hpp>
#include <netser/description.hpp>
#include <netser/sequence.hpp>

#include <cstddef>
#include <cstdint>

// Acknowledgements: a reader tells the writer which snapshots it holds, so the writer
// sends its next delta against the newest of them. An ack names the newest snapshot the
// reader accepted and, in 32 bits, which of the 32 before it it accepted too (bit i:
// newest - 1 - i), as in Glenn Fiedler's "Reliability and Congestion Avoidance over
// UDP": one lost ack costs nothing, the next one says the same and more.

namespace netser {

/// What a reader sends back: 48 bits as a plain netser packet of its own.
struct ack_message {
    std::uint16_t newest = initial_sequence; ///< initial_sequence: nothing accepted yet
    std::uint32_t previous = 0;              ///< bit i: snapshot newest - 1 - i accepted
};
NETSER_STRUCT(ack_message, newest, previous)

/// A reader's record of the snapshots it accepted, for its acks.
class ack_window {
public:
    /// Records snapshot `sequence` as accepted (held as a baseline now).
    void accepted(std::uint16_t sequence) noexcept {
        if (sequence == initial_sequence) return;
        if (ack_.newest == initial_sequence) {
            ack_.newest = sequence;
            return;
        }
        if (sequence_newer(sequence, ack_.newest)) {
            const std::uint16_t shift = sequence_distance(sequence, ack_.newest);
            // The old newest becomes bit shift - 1 of the history.
            ack_.previous = shift > 32 ? 0 : shift == 32 ? (std::uint32_t{1} << 31)
                                                          : (ack_.previous << shift) | (std::uint32_t{1} << (shift - 1));
            ack_.newest = sequence;
        } else {
            const std::uint16_t back = sequence_distance(ack_.newest, sequence);
            if (back >= 1 && back <= 32) ack_.previous |= std::uint32_t{1} << (back - 1);
        }
    }
    /// The ack to send: the newest accepted snapshot and the 32 before it.
    const ack_message& ack() const noexcept { return ack_; }
    /// Forgets everything (a reader that rejoins).
    void reset() noexcept { ack_ = {}; }

private:
    ack_message ack_;
};

/// Every snapshot `ack` names, marked acked in a writer's ring; then the snapshots older
/// than the newest acked one are evicted (the writer never names them again). Returns
/// how many snapshots the ack named that the ring holds.
template <class T>
std::size_t apply_ack(baseline_ring<T>& ring, const ack_message& ack) noexcept {
    if (ack.newest == initial_sequence) return 0;
    std::size_t held = ring.acknowledge(ack.newest) ? 1u : 0u;
    for (std::uint16_t i = 0; i < 32; ++i) {
        const auto sequence = static_cast<std::uint16_t>(ack.newest - 1 - i);
        if (((ack.previous >> i) & 1u) != 0 && sequence != initial_sequence)
            held += ring.acknowledge(sequence) ? 1u : 0u;
    }
    const auto& newest = ring.newest_acked();
    if (newest.sequence != initial_sequence) ring.evict_before(newest.sequence);
    return held;
}

} // namespace netser
