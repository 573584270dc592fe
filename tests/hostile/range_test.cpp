// Hostile input against the entropy-coded stage (issue 30, item 6): range_read_stream
// reads of the fuzz types (plain, and deltas against a baseline), with the library's
// default prior, a prior trained on the type and a prior as confident as a prior can be
// (every model at p0 = 32767, count 31: the most logical bits a byte can hold), and
// range-coded predicted delta packets of a Swarm (fuzz/session_common.hpp).
//
// Damage: cut at every byte and at every bit (the coder's bytes are MSB first, so a cut
// inside a byte keeps its top bits and zeroes the rest), every single-bit flip, a byte
// more, random bytes of every length up to 64. Every read must end cleanly:
// - a failure with a decode code, at a logical bit below the reader's limit
//   (detail::range_logical_bit_limit), with a path rooted at the type;
// - or a value inside the declared ranges that writes bit-packed; that a bit-packed read
//   of the logical bits the range reader decoded gives bit for bit (the range reader is
//   the bit-packed reader over other bytes); that range-coded again reads back to a value
//   writing the same bits; and, when those logical bits are the value's own encoding,
//   that reads back exactly and ends cleanly exactly when the bytes are the encoder's for
//   it (so no damaged packet is taken cleanly for the original's bits: the encoder's
//   packet for given bits is unique);
// - within its allocation budget: a range reader charges every element, so a read of a
//   recursive type allocates exactly what it was charged, and no more than the budget.
// Strings too: their length is checked against the reader's logical bit limit (32 KiB per
// packet byte), so their bytes must be charged (they were not: a 1,200-byte packet made a
// read allocate 39 MB past a 2.2 MiB budget).
// Predicted packets: every read agrees with expect_predicted_range (the documented
// header and framing, the body decoded against the independent model of the prediction):
// the same code at the documented bit, or exactly the model's value; msg untouched when
// refused before the body (missing_baseline, baseline_mismatch, header errors).
#include "hostile/hostile_types.hpp"

#include <netser/predicted_delta_packet.hpp>
#include <netser/range_stream.hpp>

#include "fuzz/range_common.hpp"
#include "fuzz/session_common.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace hostile_range {

using namespace netser_fuzz;
using hostile::alloc_scope;
using hostile::alloc_totals;
using hostile::is_decode_code;
using hostile::rooted_at;
using netser::errc;
using netser_test::exact_block;

namespace {

/// T's name in the fuzz types' lists.
template <class T>
std::string_view name_of() {
    std::string_view name;
    for_each_type<delta_types>([&]<class U>(std::type_identity<U>, std::size_t index) {
        if (std::is_same_v<T, U>) name = delta_type_names[index];
    });
    return name;
}

template <class T>
bool declared(const T& v) {
    return satisfies_declared(v);
}

template <class T>
struct range_read {
    T value{};
    netser::error error;
    std::size_t bits = 0; ///< logical bits
    bool clean = false;
    std::size_t charged = 0, budget = 0;
    alloc_totals heap;
    std::optional<coded_bits> logical;
};

/// A range read of an exactly sized copy of `bytes`, its allocations counted (the log's
/// buffer and the stream's models are taken before counting starts).
template <class T, class Codec>
range_read<T> read_range(std::span<const std::byte> bytes, const netser::range_prior& prior, const Codec& codec,
                         std::optional<std::size_t> budget = std::nullopt) {
    range_read<T> out;
    const exact_block block(bytes);
    logging_range_reader r(block.span(), prior, range_log_buffer());
    if (budget) r.set_max_allocation(*budget);
    {
        alloc_scope scope;
        (void)codec.read(r, out.value); // r.error() says how it went
        out.heap = scope.totals();
    }
    out.error = r.error();
    out.bits = r.bits_processed();
    out.clean = r.ended_cleanly();
    out.charged = r.allocated();
    out.budget = r.max_allocation();
    out.logical = r.logical();
    return out;
}

/// What reads of one kind ended with.
struct tally {
    std::size_t reads = 0, failed = 0, decoded = 0, clean = 0, clean_other_bits = 0, canonical = 0;
    std::size_t max_heap = 0, max_bits_per_byte = 0;
    void add(const tally& t) {
        reads += t.reads, failed += t.failed, decoded += t.decoded, clean += t.clean;
        clean_other_bits += t.clean_other_bits, canonical += t.canonical;
        max_heap = std::max(max_heap, t.max_heap);
        max_bits_per_byte = std::max(max_bits_per_byte, t.max_bits_per_byte);
    }
};

/// What a read of T may allocate besides the budget: the static bound of the type (its
/// declared limits: strings, containers, map and set nodes beyond what they are charged);
/// for the keyed deltas, their temporaries too; nothing for the recursive types, whose
/// every allocation is charged.
template <class T>
std::size_t uncharged_bound() {
    if constexpr (std::is_same_v<T, Node> || std::is_same_v<T, Chain>) return 0;
    else if constexpr (std::is_same_v<T, Fleet> || std::is_same_v<T, Roster>) return std::size_t{1} << 16;
    else return hostile::heap_bound<T>(0);
}

/// The checks every read of damaged or hostile bytes passes (see the file's comment).
template <class T, class Codec>
void check_range_read(const range_read<T>& r, std::span<const std::byte> bytes, const Codec& codec,
                      const netser::range_prior& prior, tally& t) {
    ++t.reads;
    t.max_heap = std::max(t.max_heap, r.heap.bytes);
    t.max_bits_per_byte = std::max(t.max_bits_per_byte, r.bits / std::max<std::size_t>(bytes.size(), 1));
    const std::size_t limit = netser::detail::range_logical_bit_limit(bytes.size());
    INFO(name_of<T>() << ": " << bytes.size() << " bytes, error " << netser::to_string(r.error.code) << " at bit "
                      << r.error.bit << " path '" << r.error.path() << "', " << r.bits << " logical bits, heap "
                      << r.heap.bytes << ", charged " << r.charged << " of " << r.budget);
    CHECK(r.charged <= r.budget);
    if constexpr (std::is_same_v<T, Node> || std::is_same_v<T, Chain>) {
        if (std::is_same_v<Codec, plain_codec<T>>) CHECK(r.heap.bytes <= r.charged); // every allocation charged
    }
    CHECK(r.heap.bytes <= r.budget + uncharged_bound<T>());
    CHECK(r.bits <= limit);
    if (r.error) {
        ++t.failed;
        CHECK(is_decode_code(r.error.code));
        CHECK(r.error.bit <= limit);
        CHECK(rooted_at(r.error.path(), name_of<T>()));
        return;
    }
    ++t.decoded;
    t.clean += r.clean ? 1u : 0u;
    CHECK(declared(r.value));
    const auto plain = bit_packed_of(r.value, codec);
    REQUIRE(plain); // a decoded value writes bit-packed
    REQUIRE(r.logical);
    CHECK(r.logical->bits == r.bits);
    {
        // The bit-packed reader over the logical bits: the same value, the same bits.
        const exact_block block(r.logical->bytes);
        netser::read_stream b(block.span());
        b.set_max_allocation(SIZE_MAX);
        T again{};
        CHECK(codec.read(b, again));
        CHECK(b.bits_processed() == r.bits);
        CHECK(bits_of(again) == bits_of(r.value));
    }
    // Range-coded again, read back cleanly: a value that writes the same bits (a rotation
    // decoded from codes that are no fixed point writes the codes of what it decoded to).
    const auto again = range_coded_of(r.value, codec, prior, plain->bits);
    REQUIRE(again);
    const auto logical = range_logical_of(r.value, codec, prior, plain->bits); // the range writer's calls
    REQUIRE(logical);
    netser::range_read_stream rr(*again, prior);
    rr.set_max_allocation(SIZE_MAX);
    T back{};
    CHECK(codec.read(rr, back));
    CHECK(rr.ended_cleanly());
    CHECK(rr.bits_processed() == logical->bits);
    CHECK(bit_packed_of(back, codec) == plain);
    if (*logical == *r.logical) { // the decoded bits are the value's own: exactly the value
        ++t.canonical;
        CHECK(bits_of(back) == bits_of(r.value));
        const bool encoder_bytes = std::equal(again->begin(), again->end(), bytes.begin(), bytes.end());
        CHECK(r.clean == encoder_bytes);
    }
}

/// A copy of `bytes` with bit `bit` (MSB first within a byte: the coder's order) flipped.
std::vector<std::byte> flipped_at(std::span<const std::byte> bytes, std::size_t bit) {
    std::vector<std::byte> out(bytes.begin(), bytes.end());
    out[bit / 8] ^= static_cast<std::byte>(0x80u >> (bit % 8));
    return out;
}

/// The first `bit` bits of `bytes` in the coder's order (the rest of the last byte zero).
std::vector<std::byte> cut_at(std::span<const std::byte> bytes, std::size_t bit) {
    std::vector<std::byte> out(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>((bit + 7) / 8));
    if (bit % 8 != 0) out.back() &= static_cast<std::byte>(0xff00u >> (bit % 8));
    return out;
}

/// `original` range-coded with `prior`, then cut at every bit, flipped at every bit and
/// given a byte more: every read passes check_range_read, and none is taken cleanly for
/// the original's logical bits.
template <class T, class Codec>
void attack(const T& original, const Codec& codec, const netser::range_prior& prior, tally& cuts, tally& flips,
            tally& longer) {
    const auto bit_packed = bit_packed_of(original, codec);
    REQUIRE(bit_packed);
    const auto packet = range_coded_of(original, codec, prior, bit_packed->bits);
    const auto plain = range_logical_of(original, codec, prior, bit_packed->bits); // the calls coded
    REQUIRE(packet);
    REQUIRE(plain);
    {
        const auto r = read_range<T>(*packet, prior, codec);
        INFO(name_of<T>() << ": " << netser::to_string(r.error.code) << " at " << r.error.path());
        REQUIRE_FALSE(r.error);
        CHECK(r.clean);
        CHECK(r.bits == plain->bits);
        CHECK(r.logical == plain);
        CHECK(bits_of(r.value) == bits_of(original));
    }
    // Taken cleanly for the original's bits: what the coder's end check rules out.
    const auto as_original = [&](const range_read<T>& r) { return !r.error && r.clean && r.logical == plain; };
    const std::size_t bits = packet->size() * 8;
    for (std::size_t cut = 0; cut < bits; ++cut) {
        const auto shorter = cut_at(*packet, cut);
        if (shorter == *packet) continue; // the original's trailing zero bits
        const auto r = read_range<T>(shorter, prior, codec);
        check_range_read(r, shorter, codec, prior, cuts);
        INFO("cut at bit " << cut << " of " << bits);
        CHECK_FALSE(as_original(r));
        cuts.clean_other_bits += !r.error && r.clean ? 1u : 0u;
    }
    for (std::size_t bit = 0; bit < bits; ++bit) {
        const auto f = flipped_at(*packet, bit);
        const auto r = read_range<T>(f, prior, codec);
        check_range_read(r, f, codec, prior, flips);
        INFO("flip of bit " << bit << " of " << bits);
        CHECK_FALSE(as_original(r));
        flips.clean_other_bits += !r.error && r.clean ? 1u : 0u;
    }
    for (const unsigned extra : {0x00u, 0x01u, 0x80u, 0xffu, 0x5au}) {
        auto more = *packet;
        more.push_back(static_cast<std::byte>(extra));
        const auto r = read_range<T>(more, prior, codec);
        check_range_read(r, more, codec, prior, longer);
        INFO("a byte " << extra << " more");
        CHECK_FALSE(as_original(r));
        longer.clean_other_bits += !r.error && r.clean ? 1u : 0u;
    }
}

/// Random bytes of every length up to `max_length` (`per_length` of each), and runs of
/// 00, FF and 80: every read passes check_range_read.
template <class T, class Codec>
void garbage(const Codec& codec, const netser::range_prior& prior, rng& r, tally& t, std::size_t max_length = 64,
             int per_length = 6) {
    for (std::size_t n = 0; n <= max_length; ++n) {
        for (int k = 0; k < per_length + 3; ++k) {
            std::vector<std::byte> bytes(n);
            for (auto& b : bytes)
                b = static_cast<std::byte>(k == 0 ? 0x00u : k == 1 ? 0xffu : k == 2 ? 0x80u : r.below(256));
            check_range_read(read_range<T>(bytes, prior, codec), bytes, codec, prior, t);
        }
    }
}

/// Values of T as a reader holds them: small and full-size, from `seeds` seeds.
template <class T>
std::vector<T> values_of(std::uint64_t first, std::uint64_t seeds) {
    std::vector<T> out;
    for (std::uint64_t s = first; s < first + seeds; ++s) {
        T v{};
        if (received(make_value<T>(s, s % 2 == 0 ? size_mode::small : size_mode::full), v)) out.push_back(std::move(v));
    }
    return out;
}

/// Figures for the record: printed when NETSER_RANGE_REPORT is set.
bool reporting() { return std::getenv("NETSER_RANGE_REPORT") != nullptr; }
#define FIGURE(message)                                                                                                \
    INFO(message);                                                                                                     \
    if (reporting()) WARN(message)

void report(std::string_view what, const tally& t) {
    if (reporting())
        WARN(what << ": " << t.reads << " reads, " << t.failed << " failed, " << t.decoded << " decoded (" << t.clean
                  << " cleanly, " << t.canonical << " to their value's own bits; " << t.clean_other_bits
                  << " taken cleanly for other bits), most heap " << t.max_heap << " bytes, most logical bits a byte "
                  << t.max_bits_per_byte);
    CHECK(t.reads > 0);
}

/// Plain reads of T: each value cut, flipped and lengthened with the default prior and a
/// prior trained on the type; garbage with those and the confident prior.
template <class T>
void plain_attacks(std::uint64_t seeds, tally& all) {
    const std::vector<T> values = values_of<T>(0, seeds);
    REQUIRE(values.size() == seeds);
    const plain_codec<T> codec;
    const std::vector<T> training = values_of<T>(1000, 48);
    const trained_prior t = train_prior<T>(training, codec, name_of<T>());
    tally cuts[2], flips[2], longer[2], junk[3];
    rng r{0x7a4e + seeds};
    const netser::range_prior* priors[3] = {&netser::default_range_prior(), &t.prior, &confident_prior()};
    for (std::size_t p = 0; p < 2; ++p)
        for (const T& v : values) attack(v, codec, *priors[p], cuts[p], flips[p], longer[p]);
    for (std::size_t p = 0; p < 3; ++p) garbage<T>(codec, *priors[p], r, junk[p]);
    const std::string name(name_of<T>());
    static constexpr std::string_view prior_names[3] = {" (default prior)", " (trained prior)", " (confident prior)"};
    for (std::size_t p = 0; p < 3; ++p) {
        if (p < 2) {
            report(name + " cut" + std::string(prior_names[p]), cuts[p]);
            report(name + " flipped" + std::string(prior_names[p]), flips[p]);
            report(name + " a byte longer" + std::string(prior_names[p]), longer[p]);
            CHECK(flips[p].failed > 0);
            CHECK(cuts[p].failed > 0);
            all.add(cuts[p]), all.add(flips[p]), all.add(longer[p]);
        }
        report(name + " garbage" + std::string(prior_names[p]), junk[p]);
        all.add(junk[p]);
    }
}

/// Delta reads of T against a baseline: the same attacks.
template <class T>
void delta_attacks(std::uint64_t seeds, tally& all) {
    const std::vector<T> bases = values_of<T>(200, seeds), values = values_of<T>(300, seeds);
    REQUIRE(values.size() == seeds);
    tally cuts, flips, longer, junk;
    rng r{0x5eed + seeds};
    for (std::size_t i = 0; i < values.size(); ++i) {
        const T& base = i % 3 == 2 ? values[i] : bases[i]; // and a delta of nothing changed
        const delta_codec<T> codec{&base};
        std::vector<T> training;
        for (std::uint64_t k = 0; k < 24; ++k) {
            T v{};
            if (received(make_value<T>(500 + 24 * i + k, k % 2 == 0 ? size_mode::small : size_mode::full), v))
                training.push_back(std::move(v));
        }
        const trained_prior t = train_prior<T>(training, codec, name_of<T>());
        for (const netser::range_prior* prior : {&netser::default_range_prior(), &t.prior}) {
            attack(values[i], codec, *prior, cuts, flips, longer);
            garbage<T>(codec, *prior, r, junk, 48, 2);
        }
        garbage<T>(codec, confident_prior(), r, junk, 48, 2);
    }
    const std::string name = std::string(name_of<T>()) + " delta";
    report(name + " cut", cuts);
    report(name + " flipped", flips);
    report(name + " a byte longer", longer);
    report(name + " garbage", junk);
    all.add(cuts), all.add(flips), all.add(longer), all.add(junk);
}

} // namespace

TEST_CASE("range-coded plain reads cut at every bit, flipped at every bit, lengthened and garbage end cleanly",
          "[hostile][range][long]") {
    tally all;
    plain_attacks<Player>(6, all);
    plain_attacks<Inventory>(6, all);
    plain_attacks<Envelope>(8, all);
    plain_attacks<Node>(6, all);
    plain_attacks<Chain>(4, all);
    plain_attacks<Entities>(4, all);
    plain_attacks<Body>(4, all);
    plain_attacks<Extremes>(4, all);
    report("every plain read", all);
    // A byte holds thousands of likely bits, never as many as the reader's limit.
    CHECK(all.max_bits_per_byte < netser::detail::range_logical_bit_limit(0) / 8);
}

TEST_CASE("range-coded delta reads cut at every bit, flipped at every bit, lengthened and garbage end cleanly",
          "[hostile][range][long]") {
    tally all;
    delta_attacks<Player>(4, all);
    delta_attacks<Inventory>(4, all);
    delta_attacks<Envelope>(4, all);
    delta_attacks<Fleet>(3, all);
    delta_attacks<Roster>(3, all);
    report("every delta read", all);
}

namespace {

/// A kilobyte of bytes: an element far larger than the bits it can take in a range-coded
/// packet (a zero byte costs about 0.02 bits there).
struct Blob {
    std::array<std::uint8_t, 1024> data{};
};
NETSER_STRUCT(Blob, data)

struct Blobs {
    std::vector<Blob> v;
};
NETSER_STRUCT(Blobs, (v, netser::max_size(1 << 20)))

/// 64-bit words, to hold as many logical bits per byte as the coder allows.
struct Words {
    std::vector<std::uint64_t> v;
};
NETSER_STRUCT(Words, (v, netser::max_size(1 << 18)))

/// Raw text of any length below 2^32 - 1.
struct LongText {
    std::string s;
};
NETSER_STRUCT(LongText, (s, netser::max_length(0xfffffffeull), netser::raw_bytes))

/// Range-coded calls forged with a stream: (value, bits) pairs.
std::vector<std::byte> range_forged(std::initializer_list<std::pair<std::uint64_t, int>> calls,
                                    const netser::range_prior& prior = netser::default_range_prior(),
                                    std::size_t pad_bytes = 0) {
    std::vector<std::byte> buffer(64 + 2 * pad_bytes);
    netser::range_write_stream w(buffer, prior);
    for (const auto& [value, bits] : calls) REQUIRE(w.process_bits(value, bits));
    rng r{pad_bytes};
    for (std::size_t i = 0; i < pad_bytes; ++i) REQUIRE(w.process_bits(r.below(256), 8));
    const auto b = w.finish();
    REQUIRE(w.ok());
    return {b.begin(), b.end()};
}

/// Reads T range-coded from an exactly sized copy, counting its allocations.
template <class T>
range_read<T> read_counted(std::span<const std::byte> bytes, const netser::range_prior& prior,
                           std::optional<std::size_t> budget = std::nullopt) {
    return read_range<T>(bytes, prior, plain_codec<T>{}, budget);
}

/// A full tree of `levels` levels, every inner node with 4 kids.
Node full_tree(int levels) {
    Node n;
    if (levels > 1) n.kids.assign(node_max_kids, full_tree(levels - 1));
    return n;
}
std::size_t nodes_in(const Node& n) {
    std::size_t count = 1;
    for (const Node& k : n.kids) count += nodes_in(k);
    return count;
}

} // namespace

TEST_CASE("a forged count of large elements is charged before anything is allocated, as measured without the budget",
          "[hostile][range][budget][long]") {
    // 2^20 kilobyte blobs in 3 bytes: more than the logical bits of 3 bytes hold (8,192
    // a blob): refused at the count, nothing allocated.
    const auto forged = range_forged({{1u << 20, 21}});
    INFO(forged.size() << " bytes");
    const auto r = read_counted<Blobs>(forged, netser::default_range_prior());
    CHECK(r.error.code == errc::overflow);
    CHECK(r.error.bit == 0);
    CHECK(r.error.path() == "Blobs.v");
    CHECK(r.heap.bytes == 0);
    // What the budget stops: without it, the count is checked only against the logical
    // bits (8,192 a blob: 32 blobs per packet byte), and allocated before any is read.
    for (const std::size_t pad : {std::size_t{100}, std::size_t{1200}}) {
        const std::uint64_t most = netser::detail::range_logical_bit_limit(pad) / (8 * 1024) - 64;
        const auto claim = range_forged({{most, 21}}, netser::default_range_prior(), pad);
        const auto open = read_counted<Blobs>(claim, netser::default_range_prior(), SIZE_MAX);
        const auto budgeted = read_counted<Blobs>(claim, netser::default_range_prior());
        FIGURE(claim.size() << " bytes claiming " << most << " blobs: without a budget " << open.heap.bytes
                          << " bytes allocated (" << open.heap.bytes / claim.size() << " a packet byte), "
                          << netser::to_string(open.error.code) << "; with the default budget "
                          << budgeted.heap.bytes << ", " << netser::to_string(budgeted.error.code));
        CHECK(open.heap.bytes >= most * sizeof(Blob)); // 32 KiB a packet byte
        CHECK(open.heap.bytes > 16 * budgeted.budget / 10);
        CHECK(open.error.code == errc::overflow); // the blobs themselves are not there
        CHECK(budgeted.error.code == errc::too_large);
        CHECK(budgeted.error.bit == 0);
        CHECK(budgeted.heap.bytes == 0);
    }
    // A valid packet of 1,000 zero blobs (1 MB of elements in a few kilobytes) reads with
    // the default budget of its size, not with a smaller one.
    Blobs many;
    many.v.resize(1000);
    const auto packet = range_coded_of(many, plain_codec<Blobs>{}, netser::default_range_prior(), 1 << 15);
    REQUIRE(packet);
    FIGURE("1,000 blobs in " << packet->size() << " bytes");
    CHECK(packet->size() < 4000);
    const auto ok = read_counted<Blobs>(*packet, netser::default_range_prior());
    CHECK_FALSE(ok.error);
    CHECK(ok.value.v.size() == 1000);
    CHECK(ok.charged == 1000 * sizeof(Blob));
    CHECK(ok.heap.bytes == ok.charged);
    const auto refused = read_counted<Blobs>(*packet, netser::default_range_prior(), 999 * sizeof(Blob));
    CHECK(refused.error.code == errc::too_large);
    CHECK(refused.heap.bytes == 0);
}

TEST_CASE("a recursive type range-coded allocates exactly what it is charged, at most the budget",
          "[hostile][range][budget]") {
    // Full 4-ary trees of zeros: 87,381 nodes (2.8 MB) in a few hundred bytes at 9 levels.
    for (const int levels : {6, 7, 8, 9}) {
        const Node tree = full_tree(levels);
        const std::size_t nodes = nodes_in(tree);
        const auto packet = range_coded_of(tree, plain_codec<Node>{}, netser::default_range_prior(), nodes * 2);
        REQUIRE(packet);
        const auto r = read_counted<Node>(*packet, netser::default_range_prior());
        const std::size_t need = (nodes - 1) * sizeof(Node);
        FIGURE(levels << " levels, " << nodes << " nodes in " << packet->size() << " bytes (bit-packed "
                    << (nodes * hostile::node_min_bits + 7) / 8 << "): " << netser::to_string(r.error.code)
                    << ", heap " << r.heap.bytes << ", charged " << r.charged << " of " << r.budget);
        CHECK(r.heap.bytes == r.charged);
        CHECK(r.charged <= r.budget);
        if (need <= r.budget) {
            CHECK_FALSE(r.error);
            CHECK(r.charged == need);
            CHECK(nodes_in(r.value) == nodes);
        } else {
            CHECK(r.error.code == errc::too_large);
            CHECK(r.error.path().ends_with(".kids"));
            const auto wide = read_counted<Node>(*packet, netser::default_range_prior(), need);
            CHECK_FALSE(wide.error); // with the budget it needs
            CHECK(wide.heap.bytes == need);
            CHECK(nodes_in(wide.value) == nodes);
        }
    }
}

TEST_CASE("the most logical bits a byte can hold stay below the reader's limit; a read of never-ending input stops",
          "[hostile][range][long]") {
    // 2^18 zero words (16.8 million logical bits) with the confident prior: tens of
    // thousands of logical bits a byte (a zero costs 2^-15 / ln 2 bits, more where the
    // range is short: bound = (range >> 15) * p0 rounds down), below the limit of 2^18.
    Words zeros;
    zeros.v.resize(std::size_t{1} << 18);
    const auto packet = range_coded_of(zeros, plain_codec<Words>{}, confident_prior(), 4096);
    REQUIRE(packet);
    const std::size_t logical = 64 * zeros.v.size() + 19;
    FIGURE(logical << " logical bits in " << packet->size() << " bytes: " << logical / packet->size() << " a byte");
    CHECK(logical / packet->size() > 50000);
    CHECK(logical < netser::detail::range_logical_bit_limit(packet->size()));
    const auto r = read_counted<Words>(*packet, confident_prior(), SIZE_MAX);
    CHECK_FALSE(r.error);
    CHECK(r.clean);
    CHECK(r.bits == logical);
    CHECK(r.value.v == zeros.v);
    // The same count over the first bytes only: the words run out (overflow), below the limit.
    for (std::size_t keep : {std::size_t{0}, std::size_t{1}, std::size_t{3}, packet->size() / 2, packet->size() - 1}) {
        const std::vector<std::byte> cut(packet->begin(), packet->begin() + static_cast<std::ptrdiff_t>(keep));
        const auto c = read_counted<Words>(cut, confident_prior(), SIZE_MAX);
        INFO("first " << keep << " bytes: " << netser::to_string(c.error.code) << " after " << c.bits << " bits");
        CHECK((c.error.code == errc::overflow || !c.error));
        CHECK_FALSE((c.clean && c.value.v.size() == zeros.v.size()));
        CHECK(c.bits <= netser::detail::range_logical_bit_limit(keep));
    }
    // A count past the logical bits a packet can hold fails at the count.
    const auto claim = range_forged({{(1u << 18) - 1, 19}}, confident_prior());
    INFO("a claim of 2^18 - 1 words in " << claim.size() << " bytes");
    const auto c = read_counted<Words>(claim, confident_prior(), SIZE_MAX);
    CHECK(c.error);
    CHECK(c.heap.bytes <= ((1u << 18) - 1) * 8);
}

TEST_CASE("a range-coded string's bytes are charged before they are allocated: its length is bounded only by the "
          "logical bit limit, 32 KiB a packet byte",
          "[hostile][range][budget]") {
    // A length, then the string's bytes as the packet has them: the reader checks the
    // length against bits_remaining() / 8 (the logical limit: (size + 8) * 32768 bytes), so
    // the budget is what bounds the string it resizes before reading a byte.
    for (const std::size_t pad : {std::size_t{1}, std::size_t{1195}}) {
        const std::uint64_t length = netser::detail::range_logical_bit_limit(pad) / 8 - 64;
        const auto packet = range_forged({{length, 32}}, netser::default_range_prior(), pad);
        const auto r = read_counted<LongText>(packet, netser::default_range_prior());
        const auto none = read_counted<LongText>(packet, netser::default_range_prior(), 0);
        FIGURE(packet.size() << " bytes claiming " << length << " bytes of text: " << netser::to_string(r.error.code)
                           << ", heap " << r.heap.bytes << " (budget " << r.budget << ", charged " << r.charged
                           << "); with a budget of 0: heap " << none.heap.bytes << ", "
                           << netser::to_string(none.error.code));
        CHECK(r.error); // the bytes are not there
        // What SECURITY.md promises a range reader: every allocation charged, at most the budget.
        CHECK(r.heap.bytes <= r.budget);
        CHECK(r.charged == r.heap.bytes - (r.heap.bytes != 0 ? 1 : 0)); // the length, and the terminator
        if (length > r.budget) {
            CHECK(r.error.code == errc::too_large);
            CHECK(r.error.bit == 0);
            CHECK(r.heap.bytes == 0);
        }
        CHECK(none.error.code == errc::too_large);
        CHECK(none.heap.bytes == 0);
    }
}

// --- range-coded predicted delta packets of a Swarm --------------------------------

namespace {

using entry = netser::baseline_entry<Swarm>;

Swarm sentinel() {
    Swarm s = as_held(make_value<Swarm>(0xdead, size_mode::full));
    s.local = 0x5a5a;
    return s;
}
Swarm junk_scratch() {
    Swarm s = as_held(make_value<Swarm>(0xbeef, size_mode::full));
    s.local = -7;
    return s;
}
bool same_bits(const Swarm& a, const Swarm& b) { return bits_of(a) == bits_of(b); }

struct predicted_read {
    netser::error error;
    netser::predicted_delta_header header;
    Swarm msg;
    alloc_totals heap;
};

/// read_predicted_delta_packet in a coding from an exactly sized copy into a copy of
/// `before`, its allocations counted.
predicted_read read_predicted(std::span<const std::byte> bytes, const netser::baseline_ring<Swarm>& ring,
                              const Swarm& before, const body_coding& coding, bool staged = false) {
    predicted_read out;
    out.msg = before;
    Swarm scratch = junk_scratch();
    const exact_block block(bytes);
    const netser::packet_options options = coding.options();
    if (staged) {
        netser::predicted_delta_packet_reader<Swarm> r(block.span(), options);
        out.error = r.error();
        if (!out.error) {
            out.header = r.header();
            std::array<const entry*, 3> found{};
            for (std::size_t i = 0; i < out.header.count; ++i) found[i] = ring.find(out.header.baselines[i]);
            out.error = r.read(out.msg, {found.data(), out.header.count}, scratch);
        }
        return out;
    }
    alloc_scope scope;
    out.error = netser::read_predicted_delta_packet(block.span(), out.msg, ring, scratch, &out.header, options);
    out.heap = scope.totals();
    return out;
}

struct outcomes {
    std::size_t decoded = 0, refused_before_body = 0, failed_in_body = 0, check_failed = 0, changed_msg = 0;
    std::size_t disagreements = 0, most_heap = 0;
};

std::string where(const netser::error& e) {
    return std::string(netser::to_string(e.code)) + " at bit " + std::to_string(e.bit) + " path '" +
           std::string(e.path()) + "'";
}

/// Reads `bytes` and compares with expect_predicted_range: the same code, the same bit
/// where the model names one; msg untouched before the body; the model's value bit for
/// bit on success, inside the declared ranges; a body failure with a decode code.
errc agrees_with_model(std::span<const std::byte> bytes, const netser::baseline_ring<Swarm>& ring, const Swarm& before,
                       const body_coding& coding, outcomes& tally, bool staged = false) {
    const predicted_read r = read_predicted(bytes, ring, before, coding, staged);
    const predicted_expectation m = expect_predicted_in(bytes, ring, coding);
    bool ok = r.error.code == m.code && (!m.bit || r.error.bit == *m.bit);
    if (m.before_body) ok = ok && same_bits(r.msg, before);
    if (m.code == errc::none) ok = ok && same_bits(r.msg, m.value) && satisfies_declared(r.msg);
    if (r.error && !m.before_body) ok = ok && is_decode_code(r.error.code);
    tally.most_heap = std::max(tally.most_heap, r.heap.bytes);
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
        tally.check_failed += r.error.code == errc::check_failed ? 1u : 0u;
        tally.changed_msg += same_bits(r.msg, before) ? 0u : 1u;
    }
    return r.error.code;
}

struct scene {
    std::vector<std::uint16_t> named;
    std::vector<Swarm> values;
    Swarm msg;
    std::uint16_t sequence = 0;
    netser::baseline_ring<Swarm> writer{8}, reader{8};
    std::vector<std::byte> packet;
};

/// Frame 20 of motion `seed` under `sequence`, against the frames `gap`, `gap + 1`, ...
/// before it, range-coded in `coding`.
scene make_scene(std::uint64_t seed, std::size_t count, std::uint16_t sequence, const body_coding& coding,
                 std::uint16_t gap = 6) {
    scene s;
    s.sequence = sequence;
    s.msg = swarm_frame(seed, 20);
    std::vector<const entry*> entries;
    for (std::size_t i = 0; i < count; ++i) {
        const auto back = static_cast<std::uint16_t>(gap + i);
        s.named.push_back(static_cast<std::uint16_t>(sequence - back));
        s.values.push_back(swarm_frame(seed, 20u - back));
        REQUIRE(s.writer.put(s.named.back(), s.values.back()) != nullptr);
        REQUIRE(s.reader.put(s.named.back(), as_held(s.values.back())) != nullptr);
    }
    for (const auto n : s.named) entries.push_back(s.writer.find(n));
    Swarm scratch = junk_scratch();
    const auto w = netser::write_predicted_delta_packet(s.packet, sequence, s.msg, entries, scratch, coding.options());
    INFO("write: " << where(w.error));
    REQUIRE_FALSE(w.error);
    return s;
}

/// The logical bits of a packet's body, decoded cleanly against `prediction` (nothing when
/// the body does not decode, or not cleanly).
std::optional<coded_bits> body_bits(std::span<const std::byte> packet, std::size_t count, const netser::range_prior& prior,
                               const Swarm& prediction) {
    const exact_block body(packet.subspan(predicted_range_body_byte(count)));
    logging_range_reader r(body.span(), prior, range_log_buffer());
    Swarm value{};
    if (!netser::serialize_delta(r, value, prediction) || !r.ended_cleanly()) return std::nullopt;
    return r.logical();
}

/// The codings under test: the library default and the trained prior of Swarm motions.
std::array<body_coding, 2> range_codings() { return {default_range_coding(), trained_swarm_prior().coding()}; }

} // namespace

TEST_CASE("a range-coded predicted packet's CRC, header and body are as documented, and it reads back exactly",
          "[hostile][range][prediction]") {
    CHECK(netser::range_coded_packet_salt == documented_range_salt);
    CHECK(trained_swarm_prior().prior.fingerprint() == trained_swarm_prior().fingerprint);
    CHECK(trained_swarm_prior().fingerprint != 0);
    const Swarm before = sentinel();
    std::size_t checked = 0, smaller = 0;
    for (const body_coding& coding : range_codings()) {
        for (std::uint64_t seed = 0; seed < 24; ++seed) {
            for (std::size_t count = 1; count <= 3; ++count) {
                INFO("seed " << seed << ", " << count << " baselines, prior fingerprint " << coding.fingerprint);
                const auto seq = static_cast<std::uint16_t>(seed % 4 == 0 ? 20 + seed : 0xa5a5 + 977 * seed);
                const scene s = make_scene(seed, count, seq, coding);
                CHECK(stored_crc(s.packet) == predicted_range_crc<Swarm>(s.packet, coding.fingerprint));
                const predicted_fields f = fields_of_predicted(s.packet);
                CHECK(f.sequence == seq);
                CHECK(f.count_field == count - 1);
                CHECK(f.baselines == s.named);
                std::vector<const Swarm*> values;
                for (const Swarm& v : s.values) values.push_back(&v);
                CHECK(f.fingerprint == combined_fingerprint_by_definition<Swarm>(values).value());
                const auto body = std::span<const std::byte>(s.packet).subspan(predicted_range_body_byte(count));
                CHECK(predicted_range_packet_by_hand<Swarm>(f, body, coding.fingerprint) == s.packet);
                // The body: the coder's bytes of serialize_delta against the model's prediction.
                const Swarm prediction = predicted_by_model(spacing_by_definition(seq, s.named), values);
                const auto plain = bit_packed_of(s.msg, delta_codec<Swarm>{&prediction});
                REQUIRE(plain);
                const auto coded = range_coded_of(s.msg, delta_codec<Swarm>{&prediction}, *coding.prior, plain->bits);
                REQUIRE(coded);
                CHECK(std::equal(body.begin(), body.end(), coded->begin(), coded->end()));
                // Read back (both readers), as the model says.
                outcomes tally;
                CHECK(agrees_with_model(s.packet, s.reader, before, coding, tally) == errc::none);
                CHECK(agrees_with_model(s.packet, s.reader, before, coding, tally, true) == errc::none);
                const auto r = read_predicted(s.packet, s.reader, before, coding);
                REQUIRE_FALSE(r.error);
                CHECK(same_bits(r.msg, s.msg));
                CHECK(r.header.sequence == seq);
                // Another coding's reader refuses it by its CRC, msg untouched.
                for (const body_coding& other : {body_coding{}, default_range_coding(), trained_swarm_prior().coding()}) {
                    if (other.prior == coding.prior) continue;
                    const auto o = read_predicted(s.packet, s.reader, before, other);
                    CHECK(o.error.code == errc::bad_crc);
                    CHECK(same_bits(o.msg, before));
                }
                // Beside the bit-packed packet of the same message.
                std::vector<std::byte> bit_packed_packet;
                std::vector<const entry*> entries;
                for (const auto n : s.named) entries.push_back(s.writer.find(n));
                Swarm scratch = junk_scratch();
                REQUIRE_FALSE(netser::write_predicted_delta_packet(bit_packed_packet, seq, s.msg, entries, scratch).error);
                smaller += s.packet.size() < bit_packed_packet.size() ? 1u : 0u;
                ++checked;
            }
        }
    }
    FIGURE(smaller << " of " << checked << " range-coded packets smaller than bit-packed ones");
    CHECK(checked == 144);
    CHECK(smaller > checked / 2);
}

TEST_CASE("range-coded predicted packets cut at every bit, flipped at every bit, lengthened, as the model says",
          "[hostile][range][prediction][long]") {
    const Swarm before = sentinel();
    outcomes flips, cuts, longer;
    std::size_t packets = 0, body_flips_taken_for_the_original = 0, same_value_other_bits = 0;
    rng r{4242};
    for (const body_coding& coding : range_codings()) {
        for (std::uint64_t seed = 0; seed < 6; ++seed) {
            for (std::size_t count = 1; count <= 3; ++count) {
                INFO("seed " << seed << ", " << count << " baselines, prior fingerprint " << coding.fingerprint);
                const auto seq = static_cast<std::uint16_t>(seed == 0 ? 0x7fff : 0xa5a5 + 31 * seed);
                const scene s = make_scene(seed + 100, count, seq, coding);
                const std::size_t bits = s.packet.size() * 8, body_bit = 8 * predicted_range_body_byte(count);
                std::vector<const Swarm*> values;
                for (const Swarm& v : s.values) values.push_back(&v);
                const Swarm prediction = predicted_by_model(spacing_by_definition(seq, s.named), values);
                const auto original = body_bits(s.packet, count, *coding.prior, prediction);
                REQUIRE(original);
                ++packets;
                for (std::size_t bit = 0; bit < bits; ++bit) {
                    INFO("flip of bit " << bit << " of " << bits);
                    auto f = s.packet; // the header LSB first as the bit packer, the body MSB first as the coder
                    f[bit / 8] ^= static_cast<std::byte>(bit < body_bit ? 1u << (bit % 8) : 0x80u >> (bit % 8));
                    const auto sent = read_predicted(f, s.reader, before, coding);
                    CHECK(sent.error.code == errc::bad_crc);
                    CHECK(same_bits(sent.msg, before));
                    if (bit < 32) continue;
                    patch_crc_of<Swarm>(f, coding);
                    const errc e = agrees_with_model(f, s.reader, before, coding, flips, bit % 5 == 0);
                    if (e == errc::none && bit >= body_bit) {
                        // Never the original's logical bits (the same value through the other
                        // form of a delta, changed bits or listed indices, is another packet).
                        const auto got = body_bits(f, count, *coding.prior, prediction);
                        body_flips_taken_for_the_original += got == original ? 1u : 0u;
                        const auto value = read_predicted(f, s.reader, before, coding);
                        same_value_other_bits += same_bits(value.msg, s.msg) && got != original ? 1u : 0u;
                    }
                }
                for (std::size_t cut = 0; cut < bits; ++cut) {
                    INFO("cut at bit " << cut << " of " << bits);
                    std::vector<std::byte> shorter(s.packet.begin(),
                                                   s.packet.begin() + static_cast<std::ptrdiff_t>((cut + 7) / 8));
                    if (cut % 8 != 0)
                        shorter.back() &= static_cast<std::byte>(cut < body_bit ? (1u << (cut % 8)) - 1 : 0xff00u >> (cut % 8));
                    if (shorter == s.packet) continue;
                    agrees_with_model(shorter, s.reader, before, coding, cuts);
                    if (shorter.size() < 4) continue;
                    patch_crc_of<Swarm>(shorter, coding);
                    agrees_with_model(shorter, s.reader, before, coding, cuts, cut % 7 == 0);
                }
                for (std::size_t extra = 1; extra <= 9; ++extra) {
                    auto more = s.packet;
                    for (std::size_t k = 0; k < extra; ++k) more.push_back(static_cast<std::byte>(r.below(256)));
                    INFO(extra << " bytes of garbage");
                    const auto sent = read_predicted(more, s.reader, before, coding);
                    CHECK(sent.error.code == errc::bad_crc);
                    patch_crc_of<Swarm>(more, coding);
                    CHECK(agrees_with_model(more, s.reader, before, coding, longer) != errc::none);
                }
            }
        }
    }
    FIGURE(packets << " packets. Flips behind a recomputed CRC: " << flips.decoded << " decoded, "
                 << flips.refused_before_body << " refused before the body, " << flips.failed_in_body
                 << " failed in the body (" << flips.check_failed << " by the end check, " << flips.changed_msg
                 << " with msg partly written). Cuts: " << cuts.decoded << " decoded, " << cuts.refused_before_body
                 << " refused before the body, " << cuts.failed_in_body << " in the body (" << cuts.check_failed
                 << " by the end check). Garbage after it: " << longer.failed_in_body << " failed ("
                 << longer.check_failed << " by the end check). Most heap of a read: "
                 << std::max({flips.most_heap, cuts.most_heap, longer.most_heap}) << " bytes. Body flips decoded "
                 << "cleanly to the value sent through other bits: " << same_value_other_bits);
    CHECK(packets == 36);
    CHECK(flips.disagreements == 0);
    CHECK(cuts.disagreements == 0);
    CHECK(longer.disagreements == 0);
    CHECK(body_flips_taken_for_the_original == 0);
    CHECK(flips.failed_in_body > 0);
    CHECK(flips.check_failed > 0);
    CHECK(std::max({flips.most_heap, cuts.most_heap, longer.most_heap}) <= 4096);
}

TEST_CASE("range-coded predicted packets: forged headers, garbage bodies, rings without the baselines or with others",
          "[hostile][range][prediction]") {
    const Swarm before = sentinel();
    outcomes headers, bodies, rings;
    rng r{777};
    for (const body_coding& coding : range_codings()) {
        for (std::uint64_t seed = 0; seed < 4; ++seed) {
            for (std::size_t count = 1; count <= 3; ++count) {
                const auto seq = static_cast<std::uint16_t>(1000 + 97 * seed);
                const scene s = make_scene(seed + 300, count, seq, coding);
                const predicted_fields f = fields_of_predicted(s.packet);
                const auto body = std::span<const std::byte>(s.packet).subspan(predicted_range_body_byte(count));
                // The body under other headers: shifted numbers (with the fingerprint of what
                // the reader holds there, or the packet's), other counts, random numbers.
                for (int k = 0; k < 64; ++k) {
                    predicted_fields g = f;
                    g.sequence = k % 4 == 0 ? static_cast<std::uint16_t>(r.below(65536))
                                            : static_cast<std::uint16_t>(seq + r.between(-3, 3));
                    g.count_field = static_cast<std::uint32_t>(k % 8 == 7 ? 3 : r.below(3));
                    g.baselines.clear();
                    std::uint16_t at = g.sequence;
                    for (std::size_t i = 0; i <= g.count_field && i < 3; ++i)
                        g.baselines.push_back(at = static_cast<std::uint16_t>(at - r.between(k % 3 == 0 ? 0 : 1, 8)));
                    std::vector<const Swarm*> held;
                    for (const auto n : g.baselines)
                        if (const auto* e = s.reader.find(n)) held.push_back(&e->value);
                    const auto by_reader = held.size() == g.baselines.size()
                                               ? combined_fingerprint_by_definition<Swarm>(held)
                                               : std::nullopt;
                    if (k % 2 == 0 && by_reader) g.fingerprint = *by_reader;
                    const auto forged = predicted_range_packet_by_hand<Swarm>(g, body, coding.fingerprint);
                    agrees_with_model(forged, s.reader, before, coding, headers, k % 3 == 1);
                }
                // Nonzero padding before the body: invalid_value at the header's end.
                auto padded = s.packet;
                padded[predicted_range_body_byte(count) - 1] |= std::byte{0x80};
                patch_crc_of<Swarm>(padded, coding);
                CHECK(agrees_with_model(padded, s.reader, before, coding, headers) == errc::invalid_value);
                // Garbage bodies of every length up to 64 behind the real header.
                for (std::size_t n = 0; n <= 64; ++n) {
                    for (int k = 0; k < 4; ++k) {
                        std::vector<std::byte> forged(s.packet.begin(),
                                                      s.packet.begin() + static_cast<std::ptrdiff_t>(predicted_range_body_byte(count)));
                        for (std::size_t i = 0; i < n; ++i)
                            forged.push_back(static_cast<std::byte>(k == 0 ? 0x00u : k == 1 ? 0xffu : r.below(256)));
                        patch_crc_of<Swarm>(forged, coding);
                        agrees_with_model(forged, s.reader, before, coding, bodies, k == 3);
                    }
                }
                // Rings that lost a baseline (missing_baseline) or hold another value under its
                // number (baseline_mismatch): refused before the body, msg untouched.
                for (std::size_t i = 0; i < count; ++i) {
                    netser::baseline_ring<Swarm> lost(8), other(8);
                    for (std::size_t j = 0; j < count; ++j) {
                        if (j != i) REQUIRE(lost.put(s.named[j], as_held(s.values[j])) != nullptr);
                        REQUIRE(other.put(s.named[j], as_held(j == i ? swarm_frame(seed + 999, 3) : s.values[j])) != nullptr);
                    }
                    CHECK(agrees_with_model(s.packet, lost, before, coding, rings) == errc::missing_baseline);
                    CHECK(agrees_with_model(s.packet, other, before, coding, rings, true) == errc::baseline_mismatch);
                }
            }
        }
    }
    FIGURE("forged headers: " << headers.decoded << " decoded, " << headers.refused_before_body << " refused before the body, "
                            << headers.failed_in_body << " in the body; garbage bodies: " << bodies.decoded << " decoded, "
                            << bodies.failed_in_body << " failed (" << bodies.check_failed << " by the end check)");
    CHECK(headers.disagreements == 0);
    CHECK(bodies.disagreements == 0);
    CHECK(rings.disagreements == 0);
    CHECK(rings.refused_before_body == rings.decoded + rings.refused_before_body + rings.failed_in_body);
    CHECK(headers.decoded > 0);
    CHECK(headers.refused_before_body > 0);
    CHECK(bodies.failed_in_body > 0);
}

TEST_CASE("a range-coded predicted packet read charges its elements to packet_options::max_allocation",
          "[hostile][range][prediction][budget]") {
    // A message with more drones than every baseline: the added ones are charged.
    const body_coding coding = default_range_coding();
    scene s = make_scene(7, 2, 500, coding);
    Swarm msg = s.msg;
    msg.drones.resize(6);
    std::size_t most_named = 0;
    for (const Swarm& v : s.values) most_named = std::max(most_named, v.drones.size());
    REQUIRE(most_named < 6);
    std::vector<const entry*> entries;
    for (const auto n : s.named) entries.push_back(s.writer.find(n));
    Swarm scratch = junk_scratch();
    std::vector<std::byte> packet;
    REQUIRE_FALSE(netser::write_predicted_delta_packet(packet, 500, msg, entries, scratch, coding.options()).error);
    netser::packet_options options = coding.options();
    Swarm got;
    CHECK_FALSE(netser::read_predicted_delta_packet(packet, got, s.reader, scratch, nullptr, options));
    CHECK(same_bits(got, as_held(msg)));
    options.max_allocation = 0;
    const netser::error e = netser::read_predicted_delta_packet(packet, got, s.reader, scratch, nullptr, options);
    CHECK(e.code == errc::too_large);
    CHECK(e.path() == "Swarm.drones");
    CHECK(e.bit >= 8 * predicted_range_body_byte(2));
}

TEST_CASE("a range-coded predicted write into a vector grows past the bit-packed bound when the prior is confident",
          "[hostile][range][prediction]") {
    // A prior trained on recordings in which every bit was 0 (trained_prior_entries of such
    // counts: p0 = 32767, count 31) makes a 1 cost 15 bits: a valid message takes several
    // times max_predicted_delta_packet_bytes<T>() (the vector overload reserved that + 16
    // and failed with overflow).
    netser::range_statistics counts;
    std::fill(counts.zeros.begin(), counts.zeros.end(), std::uint64_t{40000});
    counts.packets = 1000;
    const auto entries = netser::trained_prior_entries(counts);
    const netser::range_prior zeros(entries);
    netser::packet_options options;
    options.range = &zeros;
    scene s = make_scene(3, 3, 77, default_range_coding());
    std::vector<const entry*> entries3;
    for (const auto n : s.named) entries3.push_back(s.writer.find(n));
    std::size_t failed = 0, most = 0;
    for (std::uint64_t seed = 0; seed < 16; ++seed) {
        const Swarm msg = as_held(make_value<Swarm>(seed + 40, size_mode::full));
        Swarm scratch = junk_scratch();
        std::vector<std::byte> into_vector, into_span(1 << 14);
        const auto v = netser::write_predicted_delta_packet(into_vector, 77, msg, entries3, scratch, options);
        const auto w = netser::write_predicted_delta_packet(std::span<std::byte>(into_span), 77, msg, entries3, scratch,
                                                            options);
        REQUIRE_FALSE(w.error);
        most = std::max(most, w.bytes.size());
        failed += v.error ? 1u : 0u;
        CHECK(std::equal(into_vector.begin(), into_vector.end(), w.bytes.begin(), w.bytes.end()));
        CHECK(v.bytes.size() == into_vector.size());
        Swarm got;
        CHECK_FALSE(netser::read_predicted_delta_packet(w.bytes, got, s.reader, scratch, nullptr, options));
        CHECK(same_bits(got, msg));
    }
    FIGURE(failed << " of 16 vector writes failed; the longest packet is " << most << " bytes, the bit-packed bound "
                << netser::max_predicted_delta_packet_bytes<Swarm>());
    CHECK(failed == 0);
    CHECK(most > 2 * netser::max_predicted_delta_packet_bytes<Swarm>());
}

} // namespace hostile_range
