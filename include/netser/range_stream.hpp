#pragma once

#include <netser/detail/config.hpp>
#include <netser/error.hpp>
#include <netser/range_coder.hpp>
#include <netser/stream.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// The entropy-coded stage: streams that run the same serialize and serialize_delta as
// the bit-packed ones, but send every bit through an adaptive binary range coder
// (<netser/range_coder.hpp>). The walk tells them where it is (they are profiling
// streams to it: each member, element, alternative and variant index is entered and
// left), so every bit's context comes from the description: the member path, the
// value's place among the calls of its member (which, with the one-bit answers before
// it, is the rung of its difference ladder), its width and its bit position. Models
// start from a prior in every packet, so a packet decodes from its own bytes alone.
// docs/wire_format.md, "Range-coded packets", gives the contexts exactly.

namespace netser {

/// Context slots of the range streams (each holds range_models_per_context models).
inline constexpr std::size_t range_context_slots = 4096;
inline constexpr std::size_t range_models_per_context = 32;

/// One context of a trained prior: its slot and the raw starting state
/// (bit_probability::raw()) of its models.
struct range_prior_entry {
    std::uint16_t slot = 0;
    std::array<std::uint32_t, range_models_per_context> models{};
};

/// Where the models of every range-coded packet start: the library default (every model
/// at p0 = 1/2, count 0) or a prior trained from recordings (delta_recording --train
/// writes one as a header of range_prior_entry values to compile in). A prior does not
/// own its entries.
class range_prior {
public:
    /// The library default.
    range_prior() = default;
    /// Entries of distinct slots below range_context_slots (others are ignored).
    explicit range_prior(std::span<const range_prior_entry> entries) : entries_(entries) {
        index_.assign(range_context_slots, 0);
        for (std::size_t i = 0; i < entries.size(); ++i)
            if (entries[i].slot < range_context_slots) index_[entries[i].slot] = static_cast<std::uint32_t>(i + 1);
        // FNV-1a over each entry's slot and models, 4 little-endian bytes each.
        std::uint32_t h = 0x811c9dc5u;
        const auto mix = [&h](std::uint32_t v) {
            for (int k = 0; k < 4; ++k) {
                h ^= (v >> (8 * k)) & 0xffu;
                h *= 0x01000193u;
            }
        };
        for (const range_prior_entry& e : entries) {
            mix(e.slot);
            for (std::uint32_t m : e.models) mix(m);
        }
        fingerprint_ = entries.empty() ? 0 : h;
    }
    /// Folded into the protocol id of packets range-coded with this prior, so a reader
    /// with another prior refuses them by their CRC (0 for the library default).
    std::uint32_t fingerprint() const noexcept { return fingerprint_; }
    /// The trained entry of a slot, or nullptr (the default models).
    const range_prior_entry* find(std::size_t slot) const noexcept {
        if (index_.empty() || index_[slot] == 0) return nullptr;
        return &entries_[index_[slot] - 1];
    }
    std::size_t size() const noexcept { return entries_.size(); }

private:
    std::span<const range_prior_entry> entries_;
    std::vector<std::uint32_t> index_;
    std::uint32_t fingerprint_ = 0;
};

/// The library default prior.
inline const range_prior& default_range_prior() noexcept {
    static const range_prior p;
    return p;
}

/// What a range_write_stream coded, per model (slot * range_models_per_context + model):
/// the bits it saw, for training a prior (delta_recording --train).
struct range_statistics {
    std::vector<std::uint64_t> zeros = std::vector<std::uint64_t>(range_context_slots * range_models_per_context);
    std::vector<std::uint64_t> ones = std::vector<std::uint64_t>(range_context_slots * range_models_per_context);
    std::size_t packets = 0;
    /// Where the bits go: the ideal code length (-log2 of each bit's probability) by
    /// member path ("cubes[].position.x", elements as "[]"), summed over packets.
    std::map<std::string, double> bits_by_path;
    /// False when counting ran out of memory: the stream then stopped counting (it
    /// never throws through a walk) and these counts are partial.
    bool complete = true;
};

/// A prior from counted bits (range_statistics over training packets): each model
/// starts at the share of zeros it saw, with half a count of each, p0 = (z + 1/2) /
/// (z + o + 1) in 1/32768 (rounded), with count floor(min(31, 8 (z + o) / packets)):
/// a model used about every fourth packet or more starts at its slowest rate (measured
/// on training recordings: faster starts cost up to 1%). Slots no packet used are left
/// out.
inline std::vector<range_prior_entry> trained_prior_entries(const range_statistics& st) {
    std::vector<range_prior_entry> out;
    const std::uint64_t packets = st.packets > 0 ? st.packets : 1;
    for (std::size_t slot = 0; slot < range_context_slots; ++slot) {
        range_prior_entry e;
        e.slot = static_cast<std::uint16_t>(slot);
        bool used = false;
        for (std::size_t m = 0; m < range_models_per_context; ++m) {
            const std::size_t i = slot * range_models_per_context + m;
            const std::uint64_t z = st.zeros[i], o = st.ones[i];
            bit_probability b;
            if (z + o > 0) {
                used = true;
                // round(32768 (2z + 1) / (2 (z + o + 1))) in integers.
                const std::uint64_t num = bit_probability::one * (2 * z + 1), den = 2 * (z + o + 1);
                const std::uint64_t count = 8 * (z + o) / packets;
                b = bit_probability::from(static_cast<unsigned>((2 * num + den) / (2 * den)),
                                          static_cast<unsigned>(count < 31 ? count : 31));
            }
            e.models[m] = b.raw();
        }
        if (used) out.push_back(e);
    }
    return out;
}

namespace detail {

// The models of a stream: one table per stream, taken from a per-thread pool (the
// table is 640 KiB; a packet touches a few hundred slots), each slot reset from the
// prior the first time a packet uses it.
struct range_model_table {
    std::vector<std::uint32_t> stamp = std::vector<std::uint32_t>(range_context_slots);
    std::vector<bit_probability> models = std::vector<bit_probability>(range_context_slots * range_models_per_context);
    std::uint32_t packet = 0;
};

// (Raw pointers: <netser/netser.hpp> stays without <memory>.)
class range_table_lease {
public:
    range_table_lease() {
        auto& free = pool().free;
        if (free.empty()) {
            // Room for this table's return first: the destructor must not allocate.
            free.reserve(++pool().leased);
            table_ = new range_model_table;
        } else {
            table_ = free.back();
            free.pop_back();
        }
        if (++table_->packet == 0) { // wrapped: no stamp may look current
            std::fill(table_->stamp.begin(), table_->stamp.end(), 0u);
            table_->packet = 1;
        }
    }
    ~range_table_lease() {
        if (table_ != nullptr) pool().free.push_back(table_);
    }
    range_table_lease(const range_table_lease&) = delete;
    range_table_lease& operator=(const range_table_lease&) = delete;
    range_model_table& operator*() const noexcept { return *table_; }

private:
    struct tables {
        std::vector<range_model_table*> free;
        std::size_t leased = 0; // tables ever made on this thread
        tables() = default;
        tables(const tables&) = delete;
        tables& operator=(const tables&) = delete;
        ~tables() {
            for (range_model_table* t : free) delete t;
        }
    };
    static tables& pool() {
        thread_local tables p;
        return p;
    }
    range_model_table* table_ = nullptr;
};

/// FNV-1a over a name's bytes.
constexpr std::uint32_t range_name_hash(std::string_view name) noexcept {
    std::uint32_t h = 0x811c9dc5u;
    for (char c : name) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x01000193u;
    }
    return h;
}

/// The key of a child context: (a XOR b) * 0x9E3779B1, then xor-shifted by 15.
constexpr std::uint32_t range_mix(std::uint32_t a, std::uint32_t b) noexcept {
    std::uint32_t x = (a ^ b) * 0x9e3779b1u;
    return x ^ (x >> 15);
}

inline constexpr std::uint32_t range_root_key = 0x811c9dc5u;
inline constexpr std::uint32_t range_element_hash = range_name_hash("[]");
inline constexpr std::uint32_t range_index_hash = range_name_hash("index()");
inline constexpr std::uint32_t range_alternative_hash = range_name_hash("<>");
/// An element's flags enter its frame's key as flags * range_flags_factor (the FNV prime).
inline constexpr std::uint32_t range_flags_factor = 0x01000193u;
/// The place of the first call after a child was left, and the highest place.
inline constexpr unsigned range_after_child = 16, range_max_place = 31;

// Where the walk is: a stack of member contexts, each with the place of the next call
// among its member's calls and the one-bit answers before it. Shared by both streams so
// that writer and reader derive the same context for every bit.
class range_contexts {
public:
    range_contexts(range_model_table& table, const range_prior& prior) noexcept : table_(table), prior_(prior) {
        frames_[0] = {range_root_key, 0, 16, 0, 0, 0};
    }

    // A child starts its history with the summary of the sibling before it (or, for
    // the first, of the parent's last child before): so a member's bits see how the
    // one coded before it went (changed or not, and about how far).
    void enter(std::uint32_t name_hash) noexcept {
        if (depth_ + 1 < max_depth) {
            const frame& parent = frames_[depth_];
            frames_[depth_ + 1] = {range_mix(parent.key, name_hash ^ element_flags_ * range_flags_factor), 0,
                                   16u | parent.last, 0, 0, 0};
        }
        ++depth_;
        element_flags_ = 0;
    }
    void enter_named(std::string_view name) noexcept {
        enter(cached_hash(name));
        if (statistics_ != nullptr) [[unlikely]] count_path(name);
    }
    // Training's side of the hooks, out of line: it allocates, and only training runs
    // it (inlined into every member, it made the walk's code larger and slower to compile).
    NETSER_NOINLINE void count_path(std::string_view part) noexcept {
        counting([&] { path_push(part); });
    }
    NETSER_NOINLINE void count_alternative_path(std::string_view name) noexcept {
        counting([&] { path_push(std::string("<").append(name).append(">")); });
    }
    // Runs a step of counting statistics (which allocates): out of memory, counting
    // stops, marked incomplete, rather than throw through the walk.
    template <class Count>
    void counting(Count&& count) noexcept {
        try {
            count();
        } catch (...) {
            statistics_->complete = false;
            statistics_ = nullptr;
        }
    }
    // The member path, kept only while counting statistics.
    void path_push(std::string_view part) {
        path_ends_.push_back(path_.size());
        if (!path_.empty() && part != "[]") path_ += '.';
        path_ += part;
    }
    const std::string& path() const noexcept { return path_; }
    void leave() noexcept {
        if (statistics_ != nullptr && !path_ends_.empty()) {
            path_.resize(path_ends_.back());
            path_ends_.pop_back();
        }
        if (depth_ == 0) return; // unbalanced: ignored alike on both sides
        --depth_;
        if (depth_ + 1 < max_depth) {
            const frame& child = frames_[depth_ + 1];
            frame& f = frames_[depth_];
            f.place = range_after_child;
            // The child's summary: how many calls it and its children made (up to 7),
            // and the last one-bit value it coded.
            f.last = (child.calls < 7 ? child.calls : 7u) << 1 | child.last_bit;
            f.history = 16u | f.last;
            f.calls += child.calls;
        }
    }

    /// The models of the next call of `bits` bits (its slot reset from the prior the
    /// first time this packet uses it); then the call's place moves on.
    NETSER_INLINE bit_probability* models_for(int bits) noexcept {
        frame& f = top();
        const std::uint32_t shape = static_cast<std::uint32_t>(bits < 63 ? bits : 63) << 16 |
                                    (f.history & 0xffu) << 5 | f.place | flags_next_ << 22;
        flags_next_ = 0;
        const std::uint32_t slot = range_mix(f.key, shape) >> (32 - slot_bits);
        if (f.place < range_max_place) ++f.place;
        if (table_.stamp[slot] != table_.packet) [[unlikely]] reset(slot);
        if (statistics_ != nullptr) last_slot_ = slot;
        return &table_.models[slot * range_models_per_context];
    }
    /// After a call: a one-bit value joins the history, a wider one marks its place.
    NETSER_INLINE void coded(int bits, std::uint64_t value) noexcept {
        frame& f = top();
        const auto bit = static_cast<std::uint32_t>(value & 1u);
        f.history = f.history << 1 | (bits == 1 ? bit : 0u);
        f.last_bit = bits == 1 ? bit : 1u;
        ++f.calls;
    }

    /// An element's flags (detail::element_flags, below 32): the next call's context and,
    /// when the next thing entered is the element, the key of its frame (0: none).
    void element_flags(std::uint32_t flags) noexcept { flags_next_ = element_flags_ = flags & 0x1fu; }
    void set_statistics(range_statistics* s) noexcept { statistics_ = s; }
    range_statistics* statistics() const noexcept { return statistics_; }
    std::uint32_t last_slot() const noexcept { return last_slot_; }

private:
    static constexpr unsigned slot_bits = 12;
    static_assert(std::size_t{1} << slot_bits == range_context_slots);
    static constexpr std::size_t max_depth = 64;
    struct frame {
        std::uint32_t key;
        std::uint32_t place;   // of the next call among the member's calls
        std::uint32_t history; // the one-bit values before it (a wider call: 0), after a marker
        std::uint32_t calls;   // made in this member and its children
        std::uint32_t last;    // the summary of the last child left (see leave)
        std::uint32_t last_bit = 0;
    };
    frame& top() noexcept { return frames_[depth_ < max_depth ? depth_ : max_depth - 1]; }

    NETSER_COLD void reset(std::uint32_t slot) noexcept {
        table_.stamp[slot] = table_.packet;
        bit_probability* m = &table_.models[slot * range_models_per_context];
        if (const range_prior_entry* e = prior_.find(slot)) {
            for (std::size_t i = 0; i < range_models_per_context; ++i) m[i] = bit_probability::from_raw(e->models[i]);
        } else {
            for (std::size_t i = 0; i < range_models_per_context; ++i) m[i] = bit_probability{};
        }
    }

    // Names are hashed by content (the same on every host and build); the cache, by the
    // name's address and size, only saves hashing it again, so a name must not change
    // while a stream lives (the walk passes the description's static names; a codec
    // that enters members itself must do the same).
    std::uint32_t cached_hash(std::string_view name) noexcept {
        const auto at = reinterpret_cast<std::uintptr_t>(name.data());
        cached& c = cache_[(at >> 3) % cache_.size()];
        if (c.data != name.data() || c.size != name.size()) c = {name.data(), name.size(), range_name_hash(name)};
        return c.hash;
    }
    struct cached {
        const char* data = nullptr;
        std::size_t size = 0;
        std::uint32_t hash = 0;
    };

    range_model_table& table_;
    const range_prior& prior_;
    std::array<frame, max_depth> frames_{};
    std::size_t depth_ = 0;
    std::uint32_t flags_next_ = 0, element_flags_ = 0;
    std::array<cached, 64> cache_{};
    range_statistics* statistics_ = nullptr;
    std::uint32_t last_slot_ = 0;
    std::string path_;
    std::vector<std::size_t> path_ends_;
};

// The models of a call's bits: a tree over the first four (models 1..15, so the
// distribution of small values is learnt whole), then one model per bit position
// (16..31; positions past 19 share the last).
constexpr std::size_t range_bit_model(int position, std::uint32_t node) noexcept {
    if (position < 4) return node;
    return 16 + static_cast<std::size_t>(position - 4 < 15 ? position - 4 : 15);
}

/// Logical bits a range reader decodes from `bytes`: each decoded bit narrows the range
/// by at least a factor 32767/32768, so this is past what any packet of that size holds.
constexpr std::size_t range_logical_bit_limit(std::size_t bytes) noexcept {
    constexpr std::size_t per_byte = 8 * 32768;
    // (Saturates where size_t cannot hold it: from 16 KiB on a 32-bit host.)
    return bytes > SIZE_MAX / per_byte - 8 ? SIZE_MAX : (bytes + 8) * per_byte;
}

// What both range streams share: the models and contexts, the logical bit position,
// alignment and the walk's hooks.
class range_stream_base : public stream_state {
public:
    /// Logical alignment: the bit-packed stream's padding is implied, not coded.
    [[nodiscard]] bool align() noexcept {
        bits_ += static_cast<std::size_t>(align_bits());
        return ok();
    }
    int align_bits() const noexcept { return static_cast<int>((8 - bits_ % 8) % 8); }

    bool fail(errc code, std::size_t bit) noexcept {
        record(code, bit);
        return false;
    }
    /// Logical bits: those of the bit-packed stream.
    std::size_t bits_processed() const noexcept { return bits_; }

    // The walk's hooks (detail::profiling_stream): contexts from the description.
    void enter_member(std::string_view name) noexcept { contexts_.enter_named(name); }
    void enter_element() noexcept {
        contexts_.enter(range_element_hash);
        if (contexts_.statistics() != nullptr) [[unlikely]] contexts_.count_path("[]");
    }
    void enter_alternative(std::string_view name) noexcept {
        contexts_.enter(range_name_hash(name) ^ range_alternative_hash);
        if (contexts_.statistics() != nullptr) [[unlikely]] contexts_.count_alternative_path(name);
    }
    void enter_index() noexcept {
        contexts_.enter(range_index_hash);
        if (contexts_.statistics() != nullptr) [[unlikely]] contexts_.count_path("index()");
    }
    void leave() noexcept { contexts_.leave(); }
    /// The baseline element's flags, before its changed bit (see range_contexts).
    void element_flags(std::uint32_t flags) noexcept { contexts_.element_flags(flags); }
    /// Range streams name a container's changed elements by bits unless fewer than one
    /// in this many changed (the bits, in contexts, cost less than the listed indices).
    static constexpr std::size_t listed_below_one_in = 256;

protected:
    explicit range_stream_base(const range_prior& prior) : contexts_(*lease_, prior) {}

    range_table_lease lease_;
    range_contexts contexts_;
    std::size_t bits_ = 0;
};

} // namespace detail

/// Writes serialize / serialize_delta range-coded into a caller's buffer (never past its
/// end: overflow). Call finish() for the packet's bytes. Logical bit positions (errors,
/// bits_processed) are those of a bit-packed stream making the same calls (which name a
/// container's changed elements by bits more often than a bit-packed writer does).
class range_write_stream : public detail::range_stream_base {
public:
    static constexpr bool is_writing = true;
    static constexpr bool is_reading = false;

    explicit range_write_stream(std::span<std::byte> buffer, const range_prior& prior = default_range_prior())
        : range_stream_base(prior), encoder_(buffer), capacity_bytes_(buffer.size()) {}
    range_write_stream(void* data, std::size_t size, const range_prior& prior = default_range_prior())
        : range_write_stream(std::span<std::byte>(static_cast<std::byte*>(data), size), prior) {}

    /// Codes the low n bits of value (n in 0..64).
    [[nodiscard]] NETSER_INLINE bool process_bits(std::uint64_t value, int n) noexcept {
        if (n <= 0 || n > 64) [[unlikely]] return n == 0 || fail(errc::invalid_value, bits_);
        bit_probability* models = contexts_.models_for(n);
        std::uint32_t node = 1;
        for (int i = 0; i < n; ++i) {
            const unsigned bit = static_cast<unsigned>(value >> (n - 1 - i)) & 1u;
            const std::size_t m = detail::range_bit_model(i, node);
            if (range_statistics* st = contexts_.statistics()) [[unlikely]] count(*st, models[m], m, bit);
            encoder_.encode(models[m], bit);
            node = node << 1 | bit;
        }
        contexts_.coded(n, value);
        if (encoder_.failed()) [[unlikely]] return fail(errc::overflow, bits_);
        bits_ += static_cast<std::size_t>(n);
        return true;
    }
    /// Bytes, one 8-bit call each.
    [[nodiscard]] bool process_bytes(const std::byte* data, std::size_t n) noexcept {
        for (std::size_t i = 0; i < n; ++i)
            if (!process_bits(std::to_integer<std::uint64_t>(data[i]), 8)) return false;
        return true;
    }

    /// Bits that may still be coded: at least one bit per byte left is certain to fit,
    /// so writers (which never rely on it for correctness) see the byte room times 8.
    std::size_t bits_remaining() const noexcept {
        const std::size_t used = encoder_.finished_size();
        return used < capacity() ? (capacity() - used) * 8 : 0;
    }

    /// Flushes the coder: the packet's bytes (empty on failure, with overflow).
    std::span<const std::byte> finish() noexcept {
        if (!finished_) {
            finished_ = true;
            if (!encoder_.finish() && ok()) fail(errc::overflow, bits_);
            if (range_statistics* st = contexts_.statistics()) ++st->packets;
        }
        return ok() ? encoder_.bytes() : std::span<const std::byte>{};
    }

    /// Counts every coded bit per model, for training a prior.
    void set_statistics(range_statistics* s) noexcept { contexts_.set_statistics(s); }

private:
    std::size_t capacity() const noexcept { return capacity_bytes_; }
    // Training: the bit's count in its model, and its cost on the member's path. Out of
    // line, so that the coding loop stays small where it is inlined.
    NETSER_NOINLINE void count(range_statistics& st, const bit_probability& model, std::size_t m,
                               unsigned bit) noexcept {
        contexts_.counting([&] {
            const std::size_t i = contexts_.last_slot() * range_models_per_context + m;
            (bit != 0 ? st.ones : st.zeros)[i] += 1;
            const double p0 = static_cast<double>(model.p0()) / bit_probability::one;
            st.bits_by_path[contexts_.path()] += -std::log2(bit != 0 ? 1.0 - p0 : p0);
        });
    }

    range_encoder encoder_;
    std::size_t capacity_bytes_;
    bool finished_ = false;
};

/// Reads what range_write_stream wrote, from a packet of `size` bytes. Reading past what
/// the packet holds fails with overflow; end_check() tells whether the packet ended
/// exactly where the values did.
class range_read_stream : public detail::range_stream_base {
public:
    static constexpr bool is_writing = false;
    static constexpr bool is_reading = true;
    /// Every element a read allocates is charged to the allocation budget: a byte of a
    /// range-coded packet can hold thousands of likely bits, so bits pay for nothing.
    static constexpr bool bits_pay_for_elements = false;

    explicit range_read_stream(std::span<const std::byte> packet, const range_prior& prior = default_range_prior())
        : range_stream_base(prior), decoder_(packet), size_(packet.size()),
          limit_(detail::range_logical_bit_limit(packet.size())) {}
    range_read_stream(const void* data, std::size_t size, const range_prior& prior = default_range_prior())
        : range_read_stream(std::span<const std::byte>(static_cast<const std::byte*>(data), size), prior) {}

    [[nodiscard]] NETSER_INLINE bool process_bits(std::uint64_t& value, int n) noexcept {
        if (n <= 0 || n > 64) [[unlikely]] {
            value = 0;
            return n == 0 || fail(errc::invalid_value, bits_);
        }
        if (!ok() || static_cast<std::size_t>(n) > limit_ - bits_) [[unlikely]]
            return fail(errc::overflow, bits_);
        bit_probability* models = contexts_.models_for(n);
        std::uint64_t v = 0;
        std::uint32_t node = 1;
        for (int i = 0; i < n; ++i) {
            const unsigned bit = decoder_.decode(models[detail::range_bit_model(i, node)]);
            node = node << 1 | bit;
            v = v << 1 | bit;
        }
        contexts_.coded(n, v);
        // Past the end by more than the coder's own look-ahead: the packet is too short.
        if (decoder_.bytes_past_end() > 4) [[unlikely]] return fail(errc::overflow, bits_);
        value = v;
        bits_ += static_cast<std::size_t>(n);
        return true;
    }
    [[nodiscard]] bool process_bytes(std::byte* data, std::size_t n) noexcept {
        for (std::size_t i = 0; i < n; ++i) {
            std::uint64_t b = 0;
            if (!process_bits(b, 8)) return false;
            data[i] = static_cast<std::byte>(b);
        }
        return true;
    }

    /// A bound on the logical bits the packet can still hold (each byte can hold many).
    std::size_t bits_remaining() const noexcept { return limit_ - bits_; }

    /// The allocation budget of this read in bytes: every element a read allocates is
    /// charged (count x size) before it is allocated, and a charge past the budget fails
    /// with too_large. read_stream::default_max_allocation(packet size) unless set.
    std::size_t max_allocation() const noexcept {
        return set_allocation_ == 0 ? read_stream::default_max_allocation(size_) : set_allocation_ - 1;
    }
    void set_max_allocation(std::size_t bytes) noexcept { set_allocation_ = bytes == SIZE_MAX ? bytes : bytes + 1; }
    std::size_t allocated() const noexcept { return charged_; }
    [[nodiscard]] bool charge_allocation(std::size_t count, std::size_t size) noexcept {
        if (size != 0 && count > SIZE_MAX / size) [[unlikely]] return false;
        const std::size_t bytes = count * size, max = max_allocation();
        if (bytes > (charged_ < max ? max - charged_ : 0)) [[unlikely]] return false;
        charged_ += bytes;
        return true;
    }

    /// Whether the packet is exactly what a writer of the values read so far produced:
    /// no byte missing, extra or different at its end (range_decoder::ended_cleanly).
    bool ended_cleanly() const noexcept { return ok() && decoder_.ended_cleanly(); }
    std::size_t size() const noexcept { return size_; }

private:
    range_decoder decoder_;
    std::size_t size_;
    std::size_t limit_;
    std::size_t set_allocation_ = 0; // budget + 1; 0: the default for the packet's size
    std::size_t charged_ = 0;
};

} // namespace netser
