#pragma once

#include <netser/fingerprint.hpp>
#include <netser/sequence.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

// The snapshots one side keeps as delta baselines, by 16-bit sequence number: the
// initial baseline (initial_sequence) always, and the last `capacity` snapshots. A
// writer keeps, per reader, what that reader will hold after each packet (the value a
// budgeted write gives back) and marks it acked when the reader says it has it; a
// reader keeps what it decoded. Each entry carries its baseline fingerprint, taken
// once when it is stored.

namespace netser {

/// A baseline as a ring holds it: its sequence number, its value, its fingerprint and
/// whether the reader acknowledged it.
template <class T>
struct baseline_entry {
    std::uint16_t sequence = initial_sequence;
    T value{};
    std::uint32_t fingerprint = 0;
    bool acked = false;
};

template <class T>
class baseline_ring {
public:
    using entry = baseline_entry<T>;

    /// Holds `initial` under initial_sequence (acked: both sides have it from the start)
    /// and room for `capacity` snapshots, a power of two up to 32768 (a deeper ring
    /// could hold two snapshots the 16-bit circle cannot tell apart). The slots are
    /// allocated here, once. An initial value without a plain encoding is
    /// value-initialised instead (ok() tells).
    explicit baseline_ring(std::size_t capacity, T initial = T{})
        : slots_(valid_capacity(capacity) ? capacity : 0) {
        initial_.value = std::move(initial);
        initial_.acked = true;
        const auto f = baseline_fingerprint(initial_.value);
        initial_ok_ = f.has_value() && !slots_.empty();
        initial_.fingerprint = f.value_or(0);
    }

    /// False when the capacity was not a power of two in [1, 32768] or the initial value
    /// has no plain encoding: the ring then holds nothing but the initial entry.
    bool ok() const noexcept { return initial_ok_; }
    std::size_t capacity() const noexcept { return slots_.size(); }
    static constexpr bool valid_capacity(std::size_t c) noexcept {
        return c != 0 && c <= 0x8000 && (c & (c - 1)) == 0;
    }

    /// Stores value as snapshot `sequence` (not acked yet), replacing what its slot held
    /// (the snapshot `capacity` sequence numbers older). nullptr, and nothing stored, for
    /// initial_sequence or a value without a plain encoding.
    const entry* put(std::uint16_t sequence, T value) {
        if (sequence == initial_sequence || slots_.empty()) return nullptr;
        const auto f = baseline_fingerprint(value);
        if (!f) return nullptr;
        slot& s = slots_[sequence % slots_.size()];
        s.held = true;
        s.e.sequence = sequence;
        s.e.value = std::move(value);
        s.e.fingerprint = *f;
        s.e.acked = false;
        if (!newest_ || sequence_newer(sequence, *newest_)) newest_ = sequence;
        return &s.e;
    }

    /// The entry named `sequence`, or nullptr when it is not (or no longer) held.
    const entry* find(std::uint16_t sequence) const noexcept {
        if (sequence == initial_sequence) return &initial_;
        if (slots_.empty()) return nullptr;
        const slot& s = slots_[sequence % slots_.size()];
        return s.held && s.e.sequence == sequence ? &s.e : nullptr;
    }

    /// Marks snapshot `sequence` acked: the reader holds it. False when it is not held.
    bool acknowledge(std::uint16_t sequence) noexcept {
        if (sequence == initial_sequence) return true;
        entry* e = const_cast<entry*>(find(sequence));
        if (e == nullptr) return false;
        e->acked = true;
        if (!newest_acked_ || sequence_newer(sequence, *newest_acked_)) newest_acked_ = sequence;
        return true;
    }

    /// The newest acked snapshot still held, else the initial entry: the baseline to
    /// write the next delta against.
    const entry& newest_acked() const noexcept {
        if (newest_acked_)
            if (const entry* e = find(*newest_acked_); e != nullptr && e->acked) return *e;
        return initial_;
    }

    /// The newest snapshot stored with put, if any is held.
    const entry* newest() const noexcept { return newest_ ? find(*newest_) : nullptr; }

    /// Forgets every held snapshot older than `sequence` (not the initial entry), so
    /// none of them can be found again: once a reader has acked `sequence`, the writer
    /// never names an older one.
    void evict_before(std::uint16_t sequence) noexcept {
        for (slot& s : slots_)
            if (s.held && sequence_newer(sequence, s.e.sequence)) s.held = false;
        if (newest_acked_ && find(*newest_acked_) == nullptr) newest_acked_.reset();
        if (newest_ && find(*newest_) == nullptr) newest_.reset();
    }

    /// Forgets every snapshot (a reader that rejoins); the initial entry stays.
    void clear() noexcept {
        for (slot& s : slots_) s.held = false;
        newest_.reset();
        newest_acked_.reset();
    }

    const entry& initial() const noexcept { return initial_; }

private:
    struct slot {
        bool held = false;
        entry e;
    };
    entry initial_;
    bool initial_ok_ = false;
    std::vector<slot> slots_;
    std::optional<std::uint16_t> newest_;
    std::optional<std::uint16_t> newest_acked_;
};

} // namespace netser
