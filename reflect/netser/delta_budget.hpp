#pragma once

#include <netser/baseline_ring.hpp>
#include <netser/delta_packet.hpp>
#include <netser/encodings/keyed.hpp>
#include <netser/encodings/sparse.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

// Budgeted, prioritized delta writes: a delta packet that fits a byte budget, with the
// most important changes first. The changes of the containers named (arrays, vectors,
// sparse containers, keyed vectors, maps and sets with key codes) are candidates; every
// other member goes as serialize_delta sends it. Each candidate's priority, given by
// the caller per element, is added to an accumulator that only sending resets, as in
// Glenn Fiedler's "State Synchronization": whatever is left out gains on what is sent,
// so every change goes eventually.
//
// The packet is an ordinary delta packet (nothing new on the wire): it carries a value
// made of the message's chosen changes over the baseline, so the reader keeps the
// baseline's value wherever a change was left out. The writer gets that value back
// (decoded from the packet it wrote), to store as what the reader will hold.

namespace netser {

/// Every element has priority 1: changes go oldest first (round robin).
struct equal_priority {
    template <class E>
    constexpr double operator()(const E&) const noexcept {
        return 1.0;
    }
};

/// What a budgeted write did: the packet (bytes, error) and how many changed elements
/// of the budgeted containers it carries and leaves for later packets.
struct [[nodiscard]] budgeted_write_result : packet_write_result {
    std::size_t sent = 0;
    std::size_t deferred = 0;
};

namespace detail {

// The smallest priority counted: a change of priority 0 (or NaN) still gains, so it
// waits at most about (largest priority) * 1024 packets.
inline constexpr double min_priority = 1.0 / 1024;

inline double priority_step(double p) noexcept { return p >= min_priority ? p : min_priority; }

template <class M>
struct member_pointer_traits;
template <class C, class M>
struct member_pointer_traits<M C::*> {
    using owner = C;
    using type = M;
};

template <template <class> class F, class X>
inline constexpr bool is_family_v = false;
template <template <class> class F, class Q>
inline constexpr bool is_family_v<F, F<Q>> = true;

// The attributes a family tag carries (void for the families a budget cannot take).
template <class X>
struct family_attrs_of {
    using type = void;
};
template <template <class> class F, class Q>
struct family_attrs_of<F<Q>> {
    using type = Q;
};

// One budgeted container: the member Ptr of its owner, its family and the changes of
// one write. Changes are numbered 0..n-1 in the member's own order.
template <auto Ptr>
struct budget_member {
    using owner = typename member_pointer_traits<decltype(Ptr)>::owner;
    using M = typename member_pointer_traits<decltype(Ptr)>::type;
    static constexpr std::size_t index = flag_index<owner>(Ptr);
    static_assert(index < boost::mp11::mp_size<described_members<owner>>::value,
                  "netser: delta_budget takes pointers to described members of one struct");
    using P = value_provider<member_attrs<owner, index>>;
    using family = encoding_t<P, M>;

    template <template <class> class F>
    static constexpr bool of = is_family_v<F, family>;
    using family_attrs = typename family_attrs_of<family>::type;

    static constexpr bool by_index = of<array_encoding> || of<vector_encoding> || of<sparse_encoding>;
    static constexpr bool keyed_vector = of<keyed_encoding>;
    static constexpr bool keyed_map = [] {
        if constexpr (of<associative_encoding>) return keyed_by_code<family_attrs, M>;
        else return false;
    }();
    static_assert(by_index || keyed_vector || keyed_map,
                  "netser: delta_budget's members are arrays, vectors, sparse containers, keyed vectors, or maps "
                  "and sets whose keys have a code (integers, enums, bools, floats)");

    using value_type = typename M::value_type;

    // Whether element a goes on the wire as b does (index families; keyed vectors).
    static bool same_element(const value_type& a, const value_type& b) {
        using Q = family_attrs;
        if constexpr (of<array_encoding>) {
            return same_value<Q>(a, b);
        } else if constexpr (of<sparse_encoding>) {
            using EP = without<Q, attr_kind::sparse, attr_kind::max_size>;
            return same_encoded(a, b, optional_encoding<EP>{});
        } else if constexpr (keyed_vector) {
            return same_value<without<Q, attr_kind::keyed, attr_kind::max_size>>(a, b);
        } else {
            return same_value<without<Q, attr_kind::max_size>>(a, b);
        }
    }
    // A map's mapped values; a set's entries never change, they come and go.
    static bool same_entry(const value_type& a, const value_type& b) {
        if constexpr (is_map<M>::value) return same_value<without<family_attrs, attr_kind::max_size>>(a.second, b.second);
        else return true;
    }
    static errc key_code(const value_type& e, std::uint64_t& code) noexcept {
        if constexpr (keyed_vector) {
            return vector_key<family_attrs, value_type>::code(e, code);
        } else {
            using K = typename M::key_type;
            return to_code(entry_key(e), encoding_v<map_key_provider<family_attrs, M>, K>, code);
        }
    }

    enum class kind : std::uint8_t { changed, added, removed };
    struct change {
        kind what = kind::changed;
        std::size_t index = 0;        // by_index: the element's index
        std::uint64_t code = 0;       // keyed: the key's code
        const value_type* now = nullptr;  // the message's element (changed, added)
        const value_type* base = nullptr; // the baseline's element (changed, removed)
        double score = 0; // what the changes are sorted by
        double own = 0;   // its accumulated priority (a vector's new element: above its score)
    };

    std::vector<change> changes;
    std::vector<double> index_scores;                    // by_index: accumulators by index
    std::unordered_map<std::uint64_t, double> key_scores; // keyed: accumulators by key code
    std::unordered_map<std::uint64_t, std::size_t> base_at; // keyed: baseline index by code
    std::vector<std::pair<std::uint64_t, const value_type*>> base_entries; // keyed: the baseline's, by index
    std::vector<std::uint8_t> kept;                      // keyed: baseline entries the message still has
    std::vector<std::uint8_t> chosen;                    // per change, for one candidate
    std::vector<std::size_t> now_in_base;                // keyed vector: msg index -> baseline index
    std::vector<std::size_t> out_at;                     // keyed vector: baseline index -> candidate index
    std::vector<std::pair<std::size_t, const value_type*>> late; // keyed vector: removals left for later
    std::vector<std::size_t> adds;                       // keyed: additions chosen, for make_room

    // Lists the changes of msg against baseline with their accumulated scores.
    template <class Priority>
    errc collect(const M& now, const M& base, Priority& priority) {
        changes.clear();
        if constexpr (by_index) {
            const std::size_t both = now.size() < base.size() ? now.size() : base.size();
            const auto score = [&](std::size_t i) {
                return (i < index_scores.size() ? index_scores[i] : 0.0) +
                       priority_step(static_cast<double>(priority(now[i])));
            };
            for (std::size_t i = 0; i < both; ++i)
                if (!same_element(now[i], base[i])) {
                    const double s = score(i);
                    changes.push_back({kind::changed, i, 0, &now[i], &base[i], s, s});
                }
            // A vector's new elements can only arrive in order (the count grows): each
            // scores at most what the one before it does, so any number of the best
            // changes holds a prefix of them. (A shrinking count always goes.)
            double ceiling = 0;
            for (std::size_t i = both; i < now.size(); ++i) {
                const double s = score(i);
                ceiling = i == both || s < ceiling ? s : ceiling;
                changes.push_back({kind::added, i, 0, &now[i], nullptr, ceiling, s});
            }
        } else {
            // The baseline's entries by key code, once; an entry the message lacks is removed.
            base_at.clear();
            base_at.reserve(base.size());
            base_entries.clear();
            for (const value_type& b : base) {
                std::uint64_t code = 0;
                if (const errc e = key_code(b, code); e != errc::none) return e;
                base_at.emplace(code, base_entries.size());
                base_entries.push_back({code, &b});
            }
            const auto score_of = [&](std::uint64_t code, const value_type& e) {
                const auto it = key_scores.find(code);
                return (it == key_scores.end() ? 0.0 : it->second) + priority_step(static_cast<double>(priority(e)));
            };
            now_in_base.clear();
            for (const value_type& n : now) {
                std::uint64_t code = 0;
                if (const errc e = key_code(n, code); e != errc::none) return e;
                const auto at = base_at.find(code);
                now_in_base.push_back(at == base_at.end() ? no_entry : at->second);
                if (at == base_at.end()) {
                    const double s = score_of(code, n);
                    changes.push_back({kind::added, 0, code, &n, nullptr, s, s});
                    continue;
                }
                const value_type& b = *base_entries[at->second].second;
                if (keyed_vector ? same_element(n, b) : same_entry(n, b)) continue;
                const double s = score_of(code, n);
                changes.push_back({kind::changed, at->second, code, &n, &b, s, s});
            }
            kept.assign(base.size(), 0);
            for (const std::size_t bi : now_in_base)
                if (bi != no_entry) kept[bi] = 1;
            for (std::size_t bi = 0; bi < base_entries.size(); ++bi) {
                if (kept[bi]) continue;
                const auto [code, b] = base_entries[bi];
                const double s = score_of(code, *b);
                changes.push_back({kind::removed, bi, code, nullptr, b, s, s});
            }
        }
        chosen.assign(changes.size(), 0);
        return errc::none;
    }

    // The candidate's member: the message's, with the changes not chosen undone.
    // A keyed container may not grow past max_size: the additions chosen wait, lowest
    // score first, until the removals chosen make room (a full container of valid
    // values would otherwise be written with too many entries).
    void make_room(std::size_t base_size) {
        constexpr std::size_t max = family_attrs::value.template get<attr_kind::max_size>().n;
        std::size_t size = base_size;
        for (std::size_t c = 0; c < changes.size(); ++c)
            if (chosen[c]) size = changes[c].what == kind::added ? size + 1 : changes[c].what == kind::removed ? size - 1 : size;
        if (size <= max) return;
        adds.clear();
        for (std::size_t c = 0; c < changes.size(); ++c)
            if (chosen[c] && changes[c].what == kind::added) adds.push_back(c);
        std::stable_sort(adds.begin(), adds.end(),
                         [&](std::size_t a, std::size_t b) { return changes[a].score < changes[b].score; });
        for (std::size_t i = 0; i < adds.size() && size > max; ++i, --size) chosen[adds[i]] = 0;
    }

    std::size_t chosen_count() const noexcept {
        std::size_t n = 0;
        for (const std::uint8_t x : chosen) n += x;
        return n;
    }

    void build(M& out, const M& now, const M& base) {
        if constexpr (!by_index) make_room(base.size());
        if constexpr (by_index) {
            out = now;
            std::size_t size = now.size();
            for (std::size_t c = 0; c < changes.size(); ++c) {
                if (chosen[c]) continue;
                const std::size_t i = changes[c].index;
                if (changes[c].what == kind::changed) copy_value(out[i], base[i]);
                else if (i < size) size = i; // the new elements from the first one left out
            }
            if constexpr (requires { out.resize(size); }) out.resize(size);
        } else if constexpr (keyed_vector) {
            // The message's order, each removal left for later just after the element
            // the baseline had before it: a message in the kept order (survivors in
            // the baseline's order, then spawns) gives a value in the kept order too,
            // whose order costs nothing on the wire.
            out.clear();
            out.reserve(now.size() + base.size());
            out_at.assign(base.size(), no_entry);
            std::size_t c = 0, j = 0;
            for (const value_type& n : now) {
                const std::size_t bi = now_in_base[j++];
                if (c < changes.size() && changes[c].now == &n) {
                    const change& x = changes[c++];
                    if (!chosen[c - 1] && x.what == kind::added) continue; // not there yet
                    if (bi != no_entry) out_at[bi] = out.size();
                    out.push_back(chosen[c - 1] ? n : *x.base);
                } else {
                    if (bi != no_entry) out_at[bi] = out.size();
                    out.push_back(n);
                }
            }
            late.clear();
            std::size_t slot = 0; // the removal goes before out[slot]
            for (std::size_t bi = 0, r = c; bi < base.size(); ++bi) {
                if (out_at[bi] != no_entry) {
                    slot = out_at[bi] + 1;
                } else if (r < changes.size() && changes[r].index == bi) {
                    if (!chosen[r]) late.push_back({slot, changes[r].base});
                    ++r;
                }
            }
            if (!late.empty()) {
                // The message may have reordered the baseline: slots in baseline order
                // need not grow.
                std::stable_sort(late.begin(), late.end(),
                                 [](const auto& a, const auto& b) { return a.first < b.first; });
                M merged;
                merged.reserve(out.size() + late.size());
                std::size_t l = 0;
                for (std::size_t s = 0; s <= out.size(); ++s) {
                    for (; l < late.size() && late[l].first == s; ++l) merged.push_back(*late[l].second);
                    if (s < out.size()) merged.push_back(std::move(out[s]));
                }
                out.swap(merged);
            }
        } else {
            out = now;
            for (std::size_t c = 0; c < changes.size(); ++c) {
                if (chosen[c]) continue;
                const change& x = changes[c];
                if (x.what == kind::added) {
                    out.erase(entry_key(*x.now));
                } else if (x.what == kind::removed) {
                    out.insert(*x.base);
                } else {
                    if constexpr (is_map<M>::value) out.insert_or_assign(x.base->first, x.base->second);
                }
            }
        }
    }

    // After a write: the changes left out keep their score; the changes sent, and the
    // elements unchanged, start again from 0. (Scores move only when a packet is written.)
    void commit(const M& now) {
        if constexpr (by_index) {
            index_scores.assign(now.size(), 0.0);
            for (std::size_t c = 0; c < changes.size(); ++c)
                if (!chosen[c]) index_scores[changes[c].index] = changes[c].own;
        } else {
            key_scores.clear();
            for (std::size_t c = 0; c < changes.size(); ++c)
                if (!chosen[c]) key_scores[changes[c].code] = changes[c].own;
        }
    }
};

template <auto First, auto... Rest>
struct budget_owner {
    using type = typename member_pointer_traits<decltype(First)>::owner;
};

} // namespace detail

/// Writes delta packets within a byte budget, the changed elements of the containers
/// Members (pointers to described members of one struct T) in priority order. Keep one
/// per reader: it holds each element's accumulated priority between packets.
template <auto... Members>
class delta_budget {
    static_assert(sizeof...(Members) > 0, "netser: delta_budget needs at least one container member");

public:
    using value_type = typename detail::budget_owner<Members...>::type;
    static_assert((std::is_same_v<typename detail::budget_member<Members>::owner, value_type> && ...),
                  "netser: delta_budget's members belong to one struct");

    /// Packets of at most max_bytes bytes (CRC, header and end check included).
    explicit delta_budget(std::size_t max_bytes) noexcept : max_bytes_(max_bytes) {}

    std::size_t max_bytes() const noexcept { return max_bytes_; }

    /// Writes msg against baseline as a delta packet of at most max_bytes (and at most
    /// buffer's size) at the start of buffer. The budgeted containers' changed elements
    /// go by accumulated priority, priority(element) per write (an element of the
    /// message; of the baseline for a removed entry); the others stay as the baseline's.
    /// held receives the value the reader will hold after reading the packet: store it
    /// as that sequence number's baseline. held must be another object than msg and
    /// baseline. Fails with overflow when even the packet without any budgeted change
    /// does not fit (nothing is written, no score changes).
    template <class Priority = equal_priority>
    budgeted_write_result write(std::span<std::byte> buffer, delta_header header, const value_type& msg,
                                const value_type& baseline, value_type& held, Priority&& priority = {},
                                packet_options options = {}) {
        std::uint32_t f = 0;
        if (error e; !detail::fingerprint_or_fail(baseline, f, e)) return {{{}, e}};
        return write_with(buffer, header, f, msg, baseline, held, priority, options);
    }

    /// Against a baseline from a baseline_ring (its sequence number and fingerprint).
    template <class Priority = equal_priority>
    budgeted_write_result write(std::span<std::byte> buffer, std::uint16_t sequence, const value_type& msg,
                                const baseline_entry<value_type>& baseline, value_type& held,
                                Priority&& priority = {}, packet_options options = {}) {
        return write_with(buffer, {sequence, baseline.sequence}, baseline.fingerprint, msg, baseline.value, held,
                          priority, options);
    }

    /// Forgets every accumulated priority (a reader that rejoins).
    void reset() noexcept {
        std::apply([](auto&... m) { ((m.index_scores.clear(), m.key_scores.clear()), ...); }, members_);
    }

private:
    using members = std::tuple<detail::budget_member<Members>...>;

    struct pick {
        double score;
        std::uint32_t member;
        std::uint32_t change;
    };

    std::size_t packet_bytes(std::size_t delta_bits) const noexcept {
        return packet_overhead_bytes + (delta_header_bits + delta_bits + 7) / 8;
    }

    template <class Priority>
    budgeted_write_result write_with(std::span<std::byte> buffer, delta_header header, std::uint32_t fingerprint,
                                     const value_type& msg, const value_type& baseline, value_type& held,
                                     Priority& priority, const packet_options& options) {
        const std::size_t budget = buffer.size() < max_bytes_ ? buffer.size() : max_bytes_;
        // 1. The changes and their scores, best first (ties: member, then its order).
        errc collected = errc::none;
        picks_.clear();
        for_each_member([&](auto& m, auto ptr, std::uint32_t index) {
            if (collected != errc::none) return;
            collected = m.collect(msg.*ptr, baseline.*ptr, priority);
            for (std::uint32_t c = 0; c < m.changes.size(); ++c) picks_.push_back({m.changes[c].score, index, c});
        });
        if (collected != errc::none) return {{{}, detail::failure_at(collected, 0)}};
        std::stable_sort(picks_.begin(), picks_.end(), [](const pick& a, const pick& b) { return a.score > b.score; });

        // 2. The most changes that fit: the size grows with the changes chosen.
        // The delta's bits with the k best changes (or a failure).
        const auto bits_with = [&](std::size_t k, error& failure) -> std::size_t {
            choose(k);
            build(msg, baseline);
            measure_stream m;
            if (!serialize_delta(m, candidate_, baseline)) failure = m.error();
            return m.bits_processed();
        };
        const auto fits = [&](std::size_t bits) { return packet_bytes(bits) <= budget; };
        error failure;
        std::size_t k = picks_.size();
        const std::size_t all_bits = bits_with(k, failure);
        if (failure) return {{{}, failure}};
        if (!fits(all_bits)) {
            std::size_t lo = 0, hi = picks_.size(); // fits with lo, not with hi
            std::size_t lo_bits = bits_with(0, failure), hi_bits = all_bits;
            if (failure) return {{{}, failure}};
            if (!fits(lo_bits)) return {{{}, detail::failure_at(errc::overflow, 0)}};
            // The bits grow about linearly with the changes taken: interpolate, and
            // bisect after a step that did not halve the interval (a few measures, not
            // log2(changes)).
            const std::size_t room_bits = (budget - packet_overhead_bytes) * 8 - delta_header_bits;
            bool bisect = false;
            while (hi - lo > 1) {
                std::size_t next = lo + (hi - lo) / 2;
                if (!bisect && hi_bits > lo_bits && room_bits > lo_bits) {
                    const double share = static_cast<double>(room_bits - lo_bits) / static_cast<double>(hi_bits - lo_bits);
                    next = lo + static_cast<std::size_t>(share * static_cast<double>(hi - lo));
                    next = next <= lo ? lo + 1 : next >= hi ? hi - 1 : next;
                }
                const std::size_t width = hi - lo;
                const std::size_t bits = bits_with(next, failure);
                if (failure) return {{{}, failure}};
                if (fits(bits)) lo = next, lo_bits = bits;
                else hi = next, hi_bits = bits;
                bisect = !bisect && (hi - lo) * 2 > width;
            }
            k = lo;
            choose(k);
            build(msg, baseline);
        }

        // 3. The packet, and what its reader will hold.
        std::span<std::byte> room = buffer.first(budget);
        const packet_write_result written = detail::write_delta(room, header, fingerprint,
                                                                candidate_, baseline, options);
        if (written.error) return {{{}, written.error}};
        read_stream r(written.bytes);
        r.set_context(options.context);
        std::uint32_t crc = 0, sequences = 0, fingerprint_field = 0; // known: they were just written
        if (!serialize_bits(r, crc, 32) || !serialize_bits(r, sequences, 32) || !serialize_bits(r, fingerprint_field, 32) ||
            !serialize_delta(r, held, baseline))
            return {{{}, r.error()}};
        for_each_member([&](auto& m, auto ptr, std::uint32_t) { m.commit(msg.*ptr); });
        std::size_t sent = 0; // the k best, but for additions that waited for room
        for_each_member([&](auto& m, auto, std::uint32_t) { sent += m.chosen_count(); });
        return {{written.bytes, {}}, sent, picks_.size() - sent};
    }

    void choose(std::size_t k) {
        for_each_member([](auto& m, auto, std::uint32_t) { std::fill(m.chosen.begin(), m.chosen.end(), 0); });
        for (std::size_t i = 0; i < k; ++i) {
            const pick& p = picks_[i];
            for_each_member([&](auto& m, auto, std::uint32_t index) {
                if (index == p.member) m.chosen[p.change] = 1;
            });
        }
    }

    void build(const value_type& msg, const value_type& baseline) {
        candidate_ = msg;
        for_each_member([&](auto& m, auto ptr, std::uint32_t) { m.build(candidate_.*ptr, msg.*ptr, baseline.*ptr); });
    }

    template <class F>
    void for_each_member(F&& f) {
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (f(std::get<I>(members_), Members, static_cast<std::uint32_t>(I)), ...);
        }(std::make_index_sequence<sizeof...(Members)>{});
    }

    std::size_t max_bytes_;
    members members_;
    std::vector<pick> picks_;
    value_type candidate_{};
};

} // namespace netser
