// range_coder: the adaptive binary range coder (include/netser/range_coder.hpp).
// Golden vectors from the independent model tools/range_coder_reference.py; round trips
// of skewed, uniform and mixed scripts; code length against the entropy; cut, flipped
// and garbage packets, where the end check must hold exactly when the packet is the
// encoder's output for what it decodes to; encoder overflow at every capacity.
// The hidden test case [.range_coder_export] writes cases for the reference to check
// (ctest netser_range_coder_reference, tests/CMakeLists.txt).

#include "core/hex.hpp"

#include <netser/range_coder.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using netser::bit_probability;
using netser::range_decoder;
using netser::range_encoder;
using netser_test::hex;
using netser_test::unhex;

namespace {

// The reference's lcg() (tools/range_coder_reference.py): the same numbers everywhere.
class lcg {
public:
    explicit lcg(std::uint64_t seed) : state_(seed) {}
    std::uint32_t next() {
        state_ = state_ * 6364136223846793005u + 1442695040888963407u;
        return static_cast<std::uint32_t>(state_ >> 32);
    }
    std::uint32_t below(std::uint32_t n) { return next() % n; }
    std::uint64_t next64() { return std::uint64_t{next()} << 32 | next(); }

private:
    std::uint64_t state_;
};

// One call of a script: an adaptive bit (model index, the model's initial raw value),
// direct bits, or a bit tree (tree index, fresh models).
struct op {
    enum kind_t { adaptive, direct, tree } kind;
    int index_or_bits; // adaptive, tree: which model / tree; direct: bits
    int tree_bits;     // tree only
    std::uint32_t initial_raw;
    std::uint64_t value;
};

op bit_op(int model, unsigned bit, std::uint32_t raw = 0x4000) { return {op::adaptive, model, 0, raw, bit}; }
op direct_op(std::uint64_t value, int bits) { return {op::direct, bits, 0, 0, value}; }
op tree_op(int tree, std::uint32_t value, int bits) { return {op::tree, tree, bits, 0, value}; }

// The models of a script, created on first use as the reference does.
class model_set {
public:
    bit_probability& model(const op& o) {
        const auto i = static_cast<std::size_t>(o.index_or_bits);
        if (models_.size() <= i) models_.resize(i + 1);
        if (!models_[i]) models_[i] = bit_probability::from_raw(o.initial_raw);
        return *models_[i];
    }
    bit_probability* tree(const op& o) {
        const auto i = static_cast<std::size_t>(o.index_or_bits);
        if (trees_.size() <= i) trees_.resize(i + 1);
        if (trees_[i].empty()) trees_[i].assign(std::size_t{1} << o.tree_bits, bit_probability{});
        return trees_[i].data();
    }

private:
    std::vector<std::optional<bit_probability>> models_;
    std::vector<std::vector<bit_probability>> trees_;
};

// Encodes a script into [data, data + capacity); the packet, or nothing on overflow.
std::optional<std::vector<std::byte>> encode_into(const std::vector<op>& script, std::byte* data, std::size_t capacity,
                                                  std::size_t* bound = nullptr) {
    range_encoder e(data, capacity);
    model_set m;
    for (const op& o : script) {
        switch (o.kind) {
        case op::adaptive: e.encode(m.model(o), static_cast<unsigned>(o.value)); break;
        case op::direct: e.encode_equiprobable(o.value, o.index_or_bits); break;
        case op::tree: e.encode_tree(m.tree(o), static_cast<std::uint32_t>(o.value), o.tree_bits); break;
        }
    }
    if (bound) *bound = e.finished_size();
    if (!e.finish()) {
        CHECK(e.failed());
        CHECK(e.bytes().empty());
        return std::nullopt;
    }
    CHECK_FALSE(e.failed());
    const auto bytes = e.bytes();
    return std::vector<std::byte>(bytes.begin(), bytes.end());
}

std::vector<std::byte> encode(const std::vector<op>& script) {
    std::vector<std::byte> buffer(64 + script.size() * 9);
    auto packet = encode_into(script, buffer.data(), buffer.size());
    REQUIRE(packet);
    return *packet;
}

struct decoded {
    std::vector<std::uint64_t> values;
    bool clean;
    std::size_t consumed;
};

// Decodes a script's calls from a packet held in a heap block of exactly its size (so
// that AddressSanitizer sees a read outside it).
decoded decode(const std::vector<op>& script, const std::vector<std::byte>& packet) {
    const std::unique_ptr<std::byte[]> block(new std::byte[packet.size()]);
    for (std::size_t i = 0; i < packet.size(); ++i) block[i] = packet[i];
    range_decoder d(block.get(), packet.size());
    model_set m;
    decoded out{{}, false, 0};
    for (const op& o : script) {
        switch (o.kind) {
        case op::adaptive: out.values.push_back(d.decode(m.model(o))); break;
        case op::direct: out.values.push_back(d.decode_equiprobable(o.index_or_bits)); break;
        case op::tree: out.values.push_back(d.decode_tree(m.tree(o), o.tree_bits)); break;
        }
    }
    out.clean = d.ended_cleanly();
    out.consumed = d.bytes_consumed();
    return out;
}

std::vector<std::uint64_t> values_of(const std::vector<op>& script) {
    std::vector<std::uint64_t> v;
    for (const op& o : script) v.push_back(o.value);
    return v;
}

// The script with the values a decoder read in place of its own.
std::vector<op> with_values(std::vector<op> script, const std::vector<std::uint64_t>& values) {
    for (std::size_t i = 0; i < script.size(); ++i) script[i].value = values[i];
    return script;
}

// The end check's definition: a packet is clean exactly when it is the encoder's
// output for the values it decodes to.
void check_end_rule(const std::vector<op>& script, const std::vector<std::byte>& packet) {
    const decoded d = decode(script, packet);
    const auto canonical = encode(with_values(script, d.values));
    INFO("packet " << hex(packet) << ", canonical " << hex(canonical));
    CHECK(d.clean == (canonical == packet));
}

std::vector<op> skewed_script(std::uint64_t seed, std::size_t count, std::uint32_t per_mille_ones, int models = 1) {
    lcg g(seed);
    std::vector<op> s;
    for (std::size_t i = 0; i < count; ++i) {
        const int model = models == 1 ? 0 : static_cast<int>(i % static_cast<std::size_t>(models));
        s.push_back(bit_op(model, g.below(1000) < per_mille_ones ? 1u : 0u));
    }
    return s;
}

// Adaptive bits on a few models (skewed or not), direct bits of 0..64, trees of 1..8 bits.
std::vector<op> mixed_script(lcg& g, std::size_t count) {
    std::vector<op> s;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t kind = g.below(10);
        if (kind < 6) {
            const int model = static_cast<int>(g.below(6));
            const std::uint32_t ones = model < 3 ? 30u : 500u; // per mille
            const std::uint32_t raw = model == 5 ? 0x1F7000u : 0x4000u;
            s.push_back(bit_op(model, g.below(1000) < ones ? 1u : 0u, raw));
        } else if (kind < 8) {
            const int bits = static_cast<int>(g.below(65));
            const std::uint64_t v = bits == 0 ? 0 : g.next64() >> (64 - bits);
            s.push_back(direct_op(v, bits));
        } else {
            const int tree = static_cast<int>(g.below(3));
            const int bits = tree + 1 + (tree == 2 ? 5 : 0); // trees 0, 1, 2: 1, 2 and 8 bits
            // Small values more often, as residuals are.
            const std::uint32_t v = g.below(4) == 0 ? g.below(1u << bits) : g.below(1u << bits) >> (bits / 2);
            s.push_back(tree_op(tree, v, bits));
        }
    }
    return s;
}

double entropy_bits(const std::vector<op>& script) {
    double ones = 0;
    for (const op& o : script) ones += static_cast<double>(o.value);
    const double n = static_cast<double>(script.size());
    const double p = ones / n;
    return p <= 0 || p >= 1 ? 0 : -n * (p * std::log2(p) + (1 - p) * std::log2(1 - p));
}

} // namespace

// --- the models ------------------------------------------------------------------

TEST_CASE("bit_probability starts at 1/2, adapts by 1/2^bit_width(n+1), saturates and clamps", "[range_coder]") {
    bit_probability m;
    CHECK(m.p0() == 16384);
    CHECK(m.count() == 0);
    CHECK(m.raw() == 0x4000);
    // The worked example's model: 0, 1, 0, 0.
    m.update(0);
    CHECK(m.raw() == 0x16000); // 16384 + 16384 / 2
    m.update(1);
    CHECK(m.raw() == 0x24800); // 24576 - 24576 / 4
    m.update(0);
    CHECK(m.raw() == 0x35600); // 18432 + 14336 / 4
    m.update(0);
    CHECK(m.raw() == 0x45B40); // 22016 + 10752 / 8

    bit_probability zeros, ones;
    for (int i = 0; i < 10000; ++i) {
        zeros.update(0);
        ones.update(1);
    }
    CHECK(zeros.p0() == 32705); // the first p0 where (32768 - p0) / 64 is 0
    CHECK(ones.p0() == 63);          // p0 - p0 / 64 stops at 63
    CHECK(zeros.count() == 31);
    bit_probability lowest = bit_probability::from(0, 99);
    CHECK(lowest.p0() == 1);
    CHECK(lowest.count() == 31);
    lowest.update(1);
    CHECK(lowest.p0() == 1);
    bit_probability highest = bit_probability::from(40000, 0);
    CHECK(highest.p0() == 32767);
    highest.update(0);
    CHECK(highest.p0() == 32767);
    CHECK(bit_probability::from_raw(0x1F7800) == bit_probability::from(30720, 31));
    CHECK(bit_probability::from_raw(0x1F7800).raw() == 0x1F7800);
    CHECK(bit_probability::from_raw(0).p0() == 1);
}

// --- golden vectors ----------------------------------------------------------------

// python3 tools/range_coder_reference.py --vectors
// (tools/range_coder_reference.py --check compares these lines with its own vectors)
// no bits at all
constexpr std::string_view golden_nothing = "00";
// a 0 with a fresh model
constexpr std::string_view golden_one_zero = "00";
// a 1 with a fresh model
constexpr std::string_view golden_one_one = "80";
// the worked example: 0 1 0 0 with one fresh model, 5 in 3 direct bits, 2 in a 2-bit tree of fresh models
constexpr std::string_view golden_example = "68 51";
// 0xDEADBEEF in 32 direct bits, then 1 in 1
constexpr std::string_view golden_direct_bytes = "DE AD BE E8 D3";
// 0x0123456789ABCDEF in 64 direct bits
constexpr std::string_view golden_direct_64 = "01 23 45 66 66 66 66 65 55";
// 1 1 0 1 with a trained prior raw 0x1F7800 (p0 30720/32768, count 31)
constexpr std::string_view golden_trained_prior = "FF C9";
// 40 ones with a fresh model
constexpr std::string_view golden_all_ones_run = "F5";
// 1000 zeros with a fresh model
constexpr std::string_view golden_all_zeros_run = "00 00";
// 32 ones, each with a fresh model of its own (the interval's top: FF FF FF FF decodes to the same, but no encoder writes it)
constexpr std::string_view golden_top_ones = "FF FF FF FE";
// 200 bits from lcg(7), 5% ones, one fresh model
constexpr std::string_view golden_skewed_200 = "0E 33 24 D6 14 47 7A E6";
// the values 0..15 and back in a 4-bit tree
constexpr std::string_view golden_tree_values = "06 0A 95 B1 73 8B B4 B9 B1 0D 56 0E 5E 8C CF E7 F6 3B F2 B6";

namespace {

// 32 ones, each with a model of its own: the top of the interval.
std::vector<op> top_ones() {
    std::vector<op> s;
    for (int i = 0; i < 32; ++i) s.push_back(bit_op(i, 1));
    return s;
}

struct golden_case {
    std::string_view name;
    std::string_view packet;
    std::vector<op> script;
};

std::vector<golden_case> golden_cases() {
    std::vector<golden_case> cases;
    cases.push_back({"nothing", golden_nothing, {}});
    cases.push_back({"one_zero", golden_one_zero, {bit_op(0, 0)}});
    cases.push_back({"one_one", golden_one_one, {bit_op(0, 1)}});
    cases.push_back({"example", golden_example,
                     {bit_op(0, 0), bit_op(0, 1), bit_op(0, 0), bit_op(0, 0), direct_op(5, 3), tree_op(0, 2, 2)}});
    cases.push_back({"direct_bytes", golden_direct_bytes, {direct_op(0xDEADBEEF, 32), direct_op(1, 1)}});
    cases.push_back({"direct_64", golden_direct_64, {direct_op(0x0123456789ABCDEF, 64)}});
    std::vector<op> trained;
    for (const unsigned b : {1u, 1u, 0u, 1u}) trained.push_back(bit_op(0, b, 0x1F7800));
    cases.push_back({"trained_prior", golden_trained_prior, trained});
    cases.push_back({"all_ones_run", golden_all_ones_run, std::vector<op>(40, bit_op(0, 1))});
    cases.push_back({"all_zeros_run", golden_all_zeros_run, std::vector<op>(1000, bit_op(0, 0))});
    cases.push_back({"top_ones", golden_top_ones, top_ones()});
    cases.push_back({"skewed_200", golden_skewed_200, skewed_script(7, 200, 50)});
    std::vector<op> tree;
    for (std::uint32_t v = 0; v < 16; ++v) tree.push_back(tree_op(0, v, 4));
    for (std::uint32_t v = 16; v-- > 0;) tree.push_back(tree_op(0, v, 4));
    cases.push_back({"tree_values", golden_tree_values, tree});
    return cases;
}

} // namespace

TEST_CASE("range_coder writes the reference's golden vectors and reads them back", "[range_coder]") {
    for (const golden_case& c : golden_cases()) {
        INFO("golden " << c.name);
        CHECK(hex(encode(c.script)) == c.packet);
        const decoded d = decode(c.script, unhex(c.packet));
        CHECK(d.values == values_of(c.script));
        CHECK(d.clean);
    }
}

TEST_CASE("range_decoder: a value on a split point is a 1", "[range_coder]") {
    // The wire text's rule, bit = (code >= bound), at code = bound and one below
    // (python3 -c 'import range_coder_reference as r; ...' in tools/ gives the same).
    bit_probability m;
    CHECK(range_decoder(unhex("7F FF C0 00").data(), 4).decode(m) == 1); // bound 0x7FFFC000
    m = bit_probability{};
    CHECK(range_decoder(unhex("7F FF BF FF").data(), 4).decode(m) == 0);
    CHECK(range_decoder(unhex("7F FF FF FF").data(), 4).decode_equiprobable(1) == 1); // range 0x7FFFFFFF
    CHECK(range_decoder(unhex("7F FF FF FE").data(), 4).decode_equiprobable(1) == 0);
}

TEST_CASE("range_coder: the worked example, 9 bits in 2 bytes, and its neighbours", "[range_coder]") {
    const std::vector<op> script = golden_cases()[3].script;
    REQUIRE(hex(encode(script)) == "68 51");
    // One byte short, one byte more, another last byte: never these values cleanly.
    for (const std::string_view other : {"68", "68 51 00", "68 51 01", "68 52", "68 50"}) {
        INFO(other);
        const decoded d = decode(script, unhex(other));
        CHECK_FALSE((d.clean && d.values == values_of(script)));
        check_end_rule(script, unhex(other));
    }
}

// --- round trips ---------------------------------------------------------------------

TEST_CASE("range_coder round trips skewed, uniform and mixed scripts", "[range_coder]") {
    lcg g(30);
    for (int trial = 0; trial < 400; ++trial) {
        std::vector<op> script;
        switch (trial % 4) {
        case 0: script = skewed_script(static_cast<std::uint64_t>(trial), g.below(400), 50, 3); break;
        case 1: script = skewed_script(static_cast<std::uint64_t>(trial), g.below(400), 500, 2); break;
        case 2: script = skewed_script(static_cast<std::uint64_t>(trial), g.below(50), 2, 1); break;
        default: script = mixed_script(g, g.below(300)); break;
        }
        INFO("trial " << trial);
        std::size_t bound = 0;
        std::vector<std::byte> buffer(64 + script.size() * 9);
        const auto packet = encode_into(script, buffer.data(), buffer.size(), &bound);
        REQUIRE(packet);
        CHECK(packet->size() == bound);
        const decoded d = decode(script, *packet);
        CHECK(d.values == values_of(script));
        CHECK(d.clean);
        // The decoder reads exactly 3 bytes past the end of a clean packet.
        CHECK(d.consumed == packet->size() + 3);
    }
}

TEST_CASE("range_coder codes likely bits in few bytes", "[range_coder]") {
    const std::vector<op> script(1000, bit_op(0, 0));
    const auto packet = unhex(golden_all_zeros_run);
    CHECK(packet.size() == 2); // about 9 bits of information
    const decoded d = decode(script, packet);
    CHECK(d.values == values_of(script));
    CHECK(d.clean);
    // One byte less is another packet: it decodes, but not cleanly.
    CHECK_FALSE(decode(script, {std::byte{0}}).clean);
}

TEST_CASE("range_encoder: finished_size() is the size finish() gives, after every call", "[range_coder]") {
    lcg g(34);
    for (int trial = 0; trial < 20; ++trial) {
        const auto script = mixed_script(g, 1 + g.below(100));
        for (std::size_t n = 0; n <= script.size(); ++n) {
            const std::vector<op> prefix(script.begin(), script.begin() + static_cast<std::ptrdiff_t>(n));
            std::size_t predicted = 0;
            std::vector<std::byte> buffer(64 + n * 9);
            const auto packet = encode_into(prefix, buffer.data(), buffer.size(), &predicted);
            REQUIRE(packet);
            CHECK(packet->size() == predicted);
        }
    }
}

TEST_CASE("range_coder codes close to the entropy", "[range_coder]") {
    SECTION("a fixed-seed source with p = 0.05 on one fresh model") {
        const auto script = skewed_script(1, 100000, 50);
        const double ideal_bytes = entropy_bits(script) / 8;
        const auto size = static_cast<double>(encode(script).size());
        INFO("entropy " << ideal_bytes << " bytes, coded " << size);
        // The model's rate ends at 1/64: about 2% over the entropy of a stationary
        // source at p = 0.05 (the price of adapting within a packet).
        CHECK(size <= ideal_bytes * 1.025 + 4);
        CHECK(size >= ideal_bytes - 4);
    }
    SECTION("p = 0.2 and 0.5") {
        for (const std::uint32_t per_mille : {200u, 500u}) {
            const auto script = skewed_script(2, 100000, per_mille);
            const double ideal_bytes = entropy_bits(script) / 8;
            const auto size = static_cast<double>(encode(script).size());
            INFO(per_mille << ": entropy " << ideal_bytes << " bytes, coded " << size);
            CHECK(size <= ideal_bytes * 1.012 + 4);
        }
    }
    SECTION("direct bits cost a bit each") {
        lcg g(3);
        std::vector<op> script;
        for (int i = 0; i < 2500; ++i) script.push_back(direct_op(g.next64() >> 24, 40));
        CHECK(encode(script).size() <= 2500 * 40 / 8 + 2);
    }
}

// --- hostile input -------------------------------------------------------------------

TEST_CASE("range_coder: cut packets decode and the end check holds exactly", "[range_coder][hostile]") {
    lcg g(31);
    std::size_t cuts = 0, accepted = 0, extended = 0, extended_accepted = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const auto script = trial % 2 == 0 ? mixed_script(g, 1 + g.below(120))
                                           : skewed_script(static_cast<std::uint64_t>(trial), 1 + g.below(300), 80, 2);
        const auto packet = encode(script);
        INFO("trial " << trial << ": " << hex(packet));
        // Every byte cut.
        for (std::size_t n = 0; n < packet.size(); ++n) {
            const std::vector<std::byte> cut(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(n));
            const decoded d = decode(script, cut);
            // Never the same values from a cut packet: the shortest packet is unique.
            CHECK_FALSE((d.clean && d.values == values_of(script)));
            check_end_rule(script, cut);
            ++cuts;
            accepted += d.clean;
        }
        // Every bit cut: the last bits of the packet zeroed from bit b on.
        for (std::size_t b = 1; b < packet.size() * 8; b += 3) {
            auto cut = packet;
            cut[b / 8] &= static_cast<std::byte>(0xFF00u >> (b % 8));
            for (std::size_t i = b / 8 + 1; i < cut.size(); ++i) cut[i] = std::byte{0};
            if (cut == packet) continue;
            const decoded d = decode(script, cut);
            CHECK_FALSE((d.clean && d.values == values_of(script)));
            check_end_rule(script, cut);
        }
        // Bytes added: clean only if the packet then decodes to other values.
        for (const unsigned extra : {0x00u, 0x01u, 0x80u, 0xFFu}) {
            auto longer = packet;
            longer.push_back(static_cast<std::byte>(extra));
            const decoded d = decode(script, longer);
            CHECK_FALSE((d.clean && d.values == values_of(script)));
            check_end_rule(script, longer);
            ++extended;
            extended_accepted += d.clean;
        }
    }
    // A cut or longer packet can be the clean packet of other values (the flush's
    // redundancy is a few bits), but rarely: the CRC and the packet's end value catch those.
    INFO(accepted << " of " << cuts << " cut packets, " << extended_accepted << " of " << extended
                  << " longer packets are another script's packet");
    CHECK(accepted * 10 < cuts);
    CHECK(extended_accepted * 20 < extended);
}

TEST_CASE("range_coder: flipped bits and garbage decode, the end check holds exactly", "[range_coder][hostile]") {
    lcg g(32);
    for (int trial = 0; trial < 30; ++trial) {
        const auto script = mixed_script(g, 1 + g.below(80));
        const auto packet = encode(script);
        for (std::size_t b = 0; b < packet.size() * 8; ++b) {
            auto flipped = packet;
            flipped[b / 8] ^= static_cast<std::byte>(1u << (b % 8));
            const decoded d = decode(script, flipped);
            CHECK_FALSE((d.clean && d.values == values_of(script)));
            check_end_rule(script, flipped);
        }
    }
    for (int trial = 0; trial < 400; ++trial) {
        std::vector<std::byte> garbage(g.below(48));
        for (auto& b : garbage) b = static_cast<std::byte>(g.below(256));
        if (trial % 8 == 0) garbage.assign(garbage.size(), std::byte{0xFF});
        const auto script = mixed_script(g, g.below(100));
        check_end_rule(script, garbage);
    }
}

TEST_CASE("range_coder: a packet starting FF FF FF FF is never clean", "[range_coder][hostile]") {
    // It decodes as FF FF FF FE would: to the values of golden_top_ones, cleanly there.
    const auto script = top_ones();
    REQUIRE(golden_top_ones == "FF FF FF FE");
    const decoded d = decode(script, unhex("FF FF FF FF"));
    CHECK(d.values == values_of(script));
    CHECK(d.consumed == 7);
    CHECK_FALSE(d.clean);
    check_end_rule(script, unhex("FF FF FF FF"));
    for (const std::string_view packet : {"FF FF FF FF 01", "FF FF FF FF FF FF FF FF"}) {
        const auto bytes = unhex(packet);
        for (const std::size_t count : {0u, 1u, 30u}) {
            const decoded other = decode(std::vector<op>(count, bit_op(0, 1)), bytes);
            CHECK_FALSE(other.clean);
        }
    }
}

TEST_CASE("range_coder: bits outside the widths code nothing", "[range_coder]") {
    std::array<std::byte, 16> buffer{};
    range_encoder e(buffer.data(), buffer.size());
    CHECK_FALSE(e.encode_equiprobable(1, 65));
    CHECK_FALSE(e.encode_equiprobable(1, -1));
    std::vector<bit_probability> models(2);
    CHECK_FALSE(e.encode_tree(models.data(), 1, 32));
    CHECK(e.encode_equiprobable(0, 0));
    REQUIRE(e.finish());
    CHECK(hex(e.bytes()) == "00"); // nothing coded: one byte
    CHECK(e.finish());             // again: the same packet
    CHECK(hex(e.bytes()) == "00");

    range_decoder d(buffer.data(), 1);
    CHECK(d.decode_equiprobable(65) == 0);
    CHECK(d.decode_tree(models.data(), -1) == 0);
    CHECK(d.bytes_consumed() == 4); // the initial 4 only
    CHECK(d.bytes_past_end() == 3);
    CHECK(d.ended_cleanly());
    CHECK_FALSE(range_decoder(buffer.data(), 0).ended_cleanly());
}

// --- encoder overflow ----------------------------------------------------------------

TEST_CASE("range_encoder fails cleanly at every capacity below the packet's size", "[range_coder][hostile]") {
    constexpr std::size_t guard = 16;
    lcg g(33);
    for (int trial = 0; trial < 40; ++trial) {
        const auto script = trial % 3 == 0 ? skewed_script(static_cast<std::uint64_t>(trial), 200, 100)
                                           : mixed_script(g, 1 + g.below(60));
        const auto packet = encode(script);
        for (std::size_t capacity = 0; capacity <= packet.size() + 2; ++capacity) {
            INFO("trial " << trial << ", capacity " << capacity << " of " << packet.size());
            std::vector<std::byte> storage(capacity + 2 * guard, std::byte{0xA5});
            const auto result = encode_into(script, storage.data() + guard, capacity);
            for (std::size_t i = 0; i < guard; ++i) {
                CHECK(storage[i] == std::byte{0xA5});
                CHECK(storage[guard + capacity + i] == std::byte{0xA5});
            }
            if (capacity < packet.size()) {
                CHECK_FALSE(result);
            } else {
                REQUIRE(result);
                CHECK(*result == packet);
            }
        }
    }
}

// --- cases for the reference (ctest netser_range_coder_reference) -----------------------

namespace {

std::string ops_text(const std::vector<op>& script, const std::vector<std::uint64_t>& values) {
    std::string out;
    for (std::size_t i = 0; i < script.size(); ++i) {
        const op& o = script[i];
        if (!out.empty()) out += ' ';
        char buf[64];
        switch (o.kind) {
        case op::adaptive:
            std::snprintf(buf, sizeof buf, "a%d:%X", o.index_or_bits, static_cast<unsigned>(o.initial_raw));
            break;
        case op::direct: std::snprintf(buf, sizeof buf, "d%d", o.index_or_bits); break;
        case op::tree: std::snprintf(buf, sizeof buf, "t%d:%d", o.index_or_bits, o.tree_bits); break;
        }
        out += buf;
        out += '=';
        out += std::to_string(values[i]);
    }
    return out;
}

std::string plain_hex(const std::vector<std::byte>& bytes) {
    std::string h = hex(bytes);
    std::erase(h, ' ');
    return h;
}

} // namespace

TEST_CASE("range_coder: cases for the reference", "[.range_coder_export]") {
    const char* path = std::getenv("NETSER_RANGE_CODER_CASES");
    REQUIRE(path != nullptr);
    std::ofstream out(path);
    REQUIRE(out);
    lcg g(35);
    std::size_t lines = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const auto script = trial % 3 == 0 ? skewed_script(static_cast<std::uint64_t>(trial), g.below(300), 60, 2)
                                           : mixed_script(g, g.below(150));
        const auto packet = encode(script);
        const decoded d = decode(script, packet);
        REQUIRE(d.clean);
        out << "enc;" << plain_hex(packet) << ';' << ops_text(script, values_of(script)) << ";1\n";
        ++lines;
        // The same calls on other bytes: cut, flipped, extended, garbage.
        for (int k = 0; k < 6; ++k) {
            std::vector<std::byte> other = packet;
            switch (k) {
            case 0: if (!other.empty()) other.pop_back(); break;
            case 1: other.push_back(std::byte{0}); break;
            case 2: other.push_back(static_cast<std::byte>(1 + g.below(255))); break;
            case 3:
                if (!other.empty()) other[g.below(static_cast<std::uint32_t>(other.size()))] ^= std::byte{0x10};
                break;
            case 4:
                other.resize(g.below(20));
                for (auto& b : other) b = static_cast<std::byte>(g.below(256));
                break;
            default: other.assign(4 + g.below(3), std::byte{0xFF}); break;
            }
            const decoded od = decode(script, other);
            out << "dec;" << plain_hex(other) << ';' << ops_text(script, od.values) << ';' << (od.clean ? 1 : 0) << '\n';
            ++lines;
        }
    }
    REQUIRE(out.good());
    CHECK(lines == 2100);
}
