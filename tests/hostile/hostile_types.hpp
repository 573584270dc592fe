#pragma once

// Shared by the hostile-input tests: the packet types of the fuzz targets
// (fuzz/fuzz_types.hpp), small holder types whose first member is the field under
// attack (so a packet can be forged bit by bit with a write_stream), the counting
// allocator's interface (bounded_memory_test.cpp replaces the global operator new),
// each type's static allocation bound, and runners that read from exactly sized blocks.

#include "core/test_util.hpp"
#include "fuzz/fuzz_types.hpp"

#include <netser/netser.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace hostile {

using netser_test::exact_block;
using namespace netser_fuzz;

// --- the counting allocator (defined in bounded_memory_test.cpp) ----------------

struct alloc_totals {
    std::size_t bytes = 0; ///< bytes requested from operator new while counting
    std::size_t calls = 0; ///< operator new calls while counting
};

void start_counting() noexcept;
alloc_totals stop_counting() noexcept;

/// Counts every operator new between its construction and totals().
class alloc_scope {
public:
    alloc_scope() noexcept { start_counting(); }
    ~alloc_scope() {
        if (!stopped_) stop_counting();
    }
    alloc_scope(const alloc_scope&) = delete;
    alloc_scope& operator=(const alloc_scope&) = delete;
    /// Stops counting (call it before any Catch2 assertion, which allocates).
    alloc_totals totals() noexcept {
        if (!stopped_) totals_ = stop_counting(), stopped_ = true;
        return totals_;
    }

private:
    alloc_totals totals_;
    bool stopped_ = false;
};

// --- static allocation bounds (libstdc++ layouts) --------------------------------

/// std::string: nothing up to the 15 bytes kept inline; past that, resize allocates
/// max(length, 2 * 15) + 1 bytes (libstdc++ at least doubles the inline capacity).
constexpr std::size_t string_heap(std::size_t max_length) noexcept {
    return max_length <= 15 ? 0 : (max_length > 30 ? max_length : 30) + 1;
}

/// One node of std::map / std::set: the red-black links (colour + 3 pointers) and the value.
template <class V>
constexpr std::size_t tree_node_heap() noexcept {
    return 4 * sizeof(void*) + sizeof(V) + alignof(V);
}

/// std::vector<bool> of n bits: whole words.
constexpr std::size_t bit_vector_heap(std::size_t n) noexcept {
    constexpr std::size_t word_bits = 8 * sizeof(unsigned long);
    return (n + word_bits - 1) / word_bits * sizeof(unsigned long);
}

inline constexpr std::size_t node_min_bits = 11 + 3; // v in [-1000, 1000], kid count in [0, 4]

/// The most bytes a read of T may allocate, from its declared limits alone. The
/// recursive types are bounded by the nesting limit: a Chain holds at most max_depth
/// nodes, a tree at most one node per node_min_bits of packet, plus the slots allocated
/// ahead of reading them (at most max_kids per open level).
template <class T>
std::size_t heap_bound(std::size_t packet_bits, std::size_t max_depth = 64) {
    if constexpr (std::is_same_v<T, Player>) {
        return string_heap(16) + string_heap(8) + 8 * sizeof(std::uint16_t);
    } else if constexpr (std::is_same_v<T, Inventory>) {
        return 4 * (sizeof(std::string) + string_heap(12)) +
               6 * tree_node_heap<std::pair<const std::uint8_t, std::int32_t>>() +
               5 * tree_node_heap<std::uint16_t>() + string_heap(40) + string_heap(20) +
               3 * sizeof(std::optional<std::uint8_t>) + bit_vector_heap(10);
    } else if constexpr (std::is_same_v<T, Entities>) {
        return mark_slots * sizeof(std::optional<std::uint8_t>);
    } else if constexpr (std::is_same_v<T, Body>) {
        return 3 * sizeof(Quat);
    } else if constexpr (std::is_same_v<T, Node>) {
        return (packet_bits / node_min_bits + max_depth * node_max_kids) * sizeof(Node);
    } else if constexpr (std::is_same_v<T, Chain>) {
        return max_depth * sizeof(Chain);
    } else if constexpr (std::is_same_v<T, Envelope>) {
        return string_heap(64);
    } else {
        static_assert(std::is_same_v<T, Extremes>);
        return 0;
    }
}

// --- runners ---------------------------------------------------------------------

struct packet {
    std::vector<std::byte> bytes;
    std::size_t bits = 0;
};

/// Writes value (must succeed) and checks that measuring counts the same bits.
template <class T>
packet write_value(const T& value) {
    packet out;
    out.bytes.resize(write_capacity<T>());
    netser::write_stream w{std::span<std::byte>(out.bytes)};
    const bool ok = netser::serialize(w, value);
    INFO("write error " << netser::to_string(w.error().code) << " at " << w.error().path());
    REQUIRE(ok);
    netser::measure_stream m;
    REQUIRE(netser::serialize(m, value));
    REQUIRE(m.bits_processed() == w.bits_processed());
    out.bits = w.bits_processed();
    out.bytes.resize(w.finish().size());
    return out;
}

/// Writes value as a packet (must succeed).
template <class T>
std::vector<std::byte> write_packet_value(const T& value) {
    std::vector<std::byte> buffer(write_capacity<T>() + netser::packet_overhead_bytes + 8);
    const auto result = netser::write_packet(std::span<std::byte>(buffer), value);
    REQUIRE_FALSE(result.error);
    return {result.bytes.begin(), result.bytes.end()};
}

template <class T>
struct read_result {
    T value{};
    netser::error error;
    std::size_t bits = 0;    ///< bits read
    alloc_totals heap;       ///< what the read allocated
};

/// Reads T from an exactly sized copy of bytes, counting its allocations.
template <class T>
read_result<T> read_value(std::span<const std::byte> bytes, std::size_t max_depth = 64) {
    read_result<T> out;
    const exact_block block(bytes);
    netser::read_stream r(block.span());
    r.set_max_depth(max_depth);
    {
        alloc_scope scope;
        (void)netser::serialize(r, out.value); // r.error() below says how it went
        out.heap = scope.totals();
    }
    out.error = r.error();
    out.bits = r.bits_processed();
    return out;
}

/// serialize_delta against base from an exactly sized copy of bytes into a fresh object,
/// counting its allocations.
template <class T>
read_result<T> read_delta_value(std::span<const std::byte> bytes, const T& base) {
    read_result<T> out;
    const exact_block block(bytes);
    netser::read_stream r(block.span());
    {
        alloc_scope scope;
        (void)netser::serialize_delta(r, out.value, base); // r.error() says how it went
        out.heap = scope.totals();
    }
    out.error = r.error();
    out.bits = r.bits_processed();
    return out;
}

/// read_packet from an exactly sized copy, counting its allocations.
template <class T>
read_result<T> read_packet_value(std::span<const std::byte> bytes) {
    read_result<T> out;
    const exact_block block(bytes);
    {
        alloc_scope scope;
        out.error = netser::read_packet(block.span(), out.value);
        out.heap = scope.totals();
    }
    return out;
}

/// T's name in fuzz_types.hpp's list of packet types (type_names).
template <class T>
std::string_view type_name() {
    std::string_view name;
    for_each_type([&]<class U>(std::type_identity<U>, std::size_t index) {
        if (std::is_same_v<T, U>) name = type_names[index];
    });
    return name;
}

/// A decode error code: what a failed read of a packet's payload may report (never none,
/// never a packet-level code such as bad_crc).
inline bool is_decode_code(netser::errc code) noexcept {
    using netser::errc;
    return code == errc::overflow || code == errc::out_of_range || code == errc::invalid_value ||
           code == errc::too_large || code == errc::check_failed;
}

/// A member path rooted at the type: its name alone, or followed by a member ('.'), an
/// element ('[') or a variant's alternative ('<'); "..." starts a path cut to fit its buffer.
inline bool rooted_at(std::string_view path, std::string_view root) noexcept {
    if (path.starts_with("...")) return true;
    if (!path.starts_with(root)) return false;
    return path.size() == root.size() || std::string_view(".[<").find(path[root.size()]) != std::string_view::npos;
}

/// What every read of hostile bytes must end with (SECURITY.md 5 and 6): a failure with a
/// decode code, a bit inside the packet and a path rooted at the type; or a success that
/// stayed inside the packet with values inside the declared ranges.
template <class T>
void check_read_outcome(const read_result<T>& r, std::size_t packet_bytes, std::size_t max_depth = 64) {
    if (r.error) {
        CHECK(is_decode_code(r.error.code));
        CHECK(r.error.bit <= packet_bytes * 8);
        CHECK(rooted_at(r.error.path(), type_name<T>()));
    } else {
        CHECK(r.bits <= packet_bytes * 8);
        if constexpr (std::is_same_v<T, Node> || std::is_same_v<T, Chain>) CHECK(satisfies_declared(r.value, max_depth));
        else CHECK(satisfies_declared(r.value));
    }
}

/// What every read of hostile bytes must do: the outcome above, and no more allocation
/// than the type's bound.
template <class T>
void check_hostile_read(const read_result<T>& r, std::size_t packet_bytes, std::size_t max_depth = 64) {
    INFO("error " << netser::to_string(r.error.code) << " at bit " << r.error.bit << " path " << r.error.path());
    CHECK(r.heap.bytes <= heap_bound<T>(packet_bytes * 8, max_depth));
    check_read_outcome(r, packet_bytes, max_depth);
}

/// A packet forged field by field with a write_stream: put(value, bits) writes the low
/// bits of value as they are, whatever the declared range says. Room for capacity bytes:
/// a test that forges more says so (a loop of small forgeries under ASan spent most of its
/// time mapping and clearing a 256 KiB buffer each time).
class forge {
public:
    explicit forge(std::size_t capacity = 4096) : buffer_(capacity) {}

    forge& put(std::uint64_t value, int bits) {
        REQUIRE(w_.process_bits(value, bits));
        return *this;
    }
    forge& align() {
        REQUIRE(w_.align());
        return *this;
    }
    forge& text(std::string_view s) {
        for (char c : s) put(static_cast<unsigned char>(c), 8);
        return *this;
    }
    std::size_t bits() const noexcept { return w_.bits_processed(); }
    std::vector<std::byte> bytes() {
        const auto b = w_.finish();
        return {b.begin(), b.end()};
    }

private:
    std::vector<std::byte> buffer_;
    netser::write_stream w_{std::span<std::byte>(buffer_)};
};

// --- holders: the field under attack comes first ---------------------------------

constexpr std::uint64_t two_31 = std::uint64_t{1} << 31;
constexpr std::uint64_t two_32_minus_1 = 0xffffffffull;

/// 32-bit count fields, so 2^31 and 2^32 - 1 can be forged.
struct HugeList {
    std::vector<std::uint32_t> v;
};
NETSER_STRUCT(HugeList, (v, netser::max_size(0xfffffffeull)))

struct HugeText {
    std::string s;
};
NETSER_STRUCT(HugeText, (s, netser::max_length(0xfffffffeull)))

struct HugeMap {
    std::map<std::uint16_t, std::uint16_t> m;
};
NETSER_STRUCT(HugeMap, (m, netser::max_size(two_31)))

struct HugeSet {
    std::set<std::uint32_t> s;
};
NETSER_STRUCT(HugeSet, (s, netser::max_size(0xfffffffeull)))

struct HugeStrings {
    std::vector<std::string> v;
};
NETSER_STRUCT(HugeStrings, (v, netser::max_size(0xfffffffeull), netser::max_length(100)))

/// 8-bit elements, a 4-bit count.
struct SmallList {
    std::vector<std::uint16_t> v;
};
NETSER_STRUCT(SmallList, (v, netser::max_size(8), netser::range(0, 1023)))

/// A sparse vector: its slot count is checked against max_size only (absent slots take
/// no bits), so the slots are allocated whatever the packet's length.
struct SparseSlots {
    std::vector<std::optional<std::uint8_t>> v;
};
NETSER_STRUCT(SparseSlots, (v, netser::sparse, netser::max_size(1000)))

/// Elements that take no bits at all (a one-value range).
struct ZeroBitElements {
    std::vector<std::uint8_t> v;
};
NETSER_STRUCT(ZeroBitElements, (v, netser::max_size(1000), netser::range(5, 5)))

struct Text {
    std::string s;
};
NETSER_STRUCT(Text, (s, netser::max_length(16)))

struct RawText {
    std::string s;
};
NETSER_STRUCT(RawText, (s, netser::max_length(16), netser::raw_bytes))

struct Ranged {
    int a = 0;             // 7 bits, codes 101..127 above the range
    std::int16_t b = 0;    // 4 bits, codes 11..15 above
    std::uint8_t c = 3;    // 0 bits
    std::uint32_t d = 0;   // 32 bits, code 2^32 - 1 above
    int e = 100;           // common(100, 7, 9): flag, then a 2-bit index (3 is past the end)
    float q = 0;           // quantize(-1, 1, 0.01): max_int 200 in 8 bits
};
NETSER_STRUCT(Ranged,
    (a, netser::range(0, 100)),
    (b, netser::range(-5, 5)),
    (c, netser::range(3, 3)),
    (d, netser::range(0u, 0xfffffffeu)),
    (e, netser::common(100, 7, 9), netser::range(0, 1000)),
    (q, netser::quantize(-1.f, 1.f, 0.01f)))

struct Floats {
    float f = 0;
    double d = 0;
};
NETSER_STRUCT(Floats, f, d)

struct FiniteFloats {
    float f = 0;
    double d = 0;
};
NETSER_STRUCT(FiniteFloats, (f, netser::finite), (d, netser::finite))

struct Quantized {
    float q = 0;
};
NETSER_STRUCT(Quantized, (q, netser::quantize(-10.f, 10.f, 0.5f)))

struct SparseArray {
    std::array<std::optional<std::uint8_t>, 10> a;
};
NETSER_STRUCT(SparseArray, (a, netser::sparse))

struct OneRotation {
    Quat q;
};
NETSER_STRUCT(OneRotation, (q, netser::smallest_three{7}))

struct BookRotation {
    Quat q;
};
NETSER_STRUCT(BookRotation, (q, netser::unit_quaternion{10}))

struct Direction {
    std::array<float, 3> n{0.f, 0.f, 1.f};
};
NETSER_STRUCT(Direction, (n, netser::unit_vector(11)))

struct Modes {
    Mode m = Mode::low;    // codes 0, 3, 10 of 4 bits
    Weapon w = Weapon::none;
};
NETSER_STRUCT(Modes, m, w)

struct Pick {
    std::variant<std::uint8_t, Vec2, Slot> p; // 2-bit index, 3 past the end
};
NETSER_STRUCT(Pick, p)

struct Checked {
    bool a = false; // then 7 bits of padding before b's check
    std::uint8_t b = 0;
};
NETSER_STRUCT(Checked, a, (b, netser::check("checked b")))

} // namespace hostile
