// extern_serialize.hpp: NETSER_EXTERN / NETSER_INSTANTIATE. The types of
// extern_messages.hpp are compiled in extern_messages.cpp; this file calls
// netser::serialize on them and must get exactly what the header-only code gives: the
// same bits, the same values, the same errors with the same paths.

#include "reflect/extern_messages.hpp"
#include "reflect/test_types.hpp"

#include <netser/profile_stream.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using netser::errc;
using netser::detail::compiled_elsewhere;
using namespace extern_test;
using namespace reflect_test;

namespace extern_test {
bool write_move_here(netser::write_stream& s, const Move& m); // extern_messages.cpp
}

// The three core streams call the compiled functions; any other stream, and a type
// derived from an extern one, compile their own.
static_assert(compiled_elsewhere<netser::write_stream, Pose>);
static_assert(compiled_elsewhere<netser::read_stream, Pose>);
static_assert(compiled_elsewhere<netser::measure_stream, Pose>);
static_assert(compiled_elsewhere<netser::read_stream, Move>);
static_assert(!compiled_elsewhere<netser::vector_write_stream, Pose>);
static_assert(!compiled_elsewhere<netser::profile_stream, Pose>);
static_assert(!compiled_elsewhere<netser::write_stream, TaggedPose>);
static_assert(compiled_elsewhere<netser::write_stream, Secret>);
static_assert(compiled_elsewhere<netser::measure_stream, Cells<2, 3>>);
// Move's description is not in this file: its serialize code cannot have been compiled here.
static_assert(!netser::detail::described<Move>);
static_assert(!boost::describe::has_describe_enumerators<Gait>::value);

namespace {

Pose random_pose(std::mt19937& rng) {
    Pose p;
    p.stance = static_cast<Stance>(rng() % 3);
    p.yaw = static_cast<float>(static_cast<int>(rng() % 721) - 360) * 0.5f;
    p.name.assign(rng() % 13, static_cast<char>('a' + rng() % 26));
    p.items.resize(rng() % 5);
    for (auto& i : p.items) i = static_cast<std::uint8_t>(rng() % 100);
    if (rng() % 2) p.target = static_cast<int>(rng() % 1001);
    return p;
}

// yaw within half its resolution (quantized on the wire).
bool same(const Pose& a, const Pose& b) {
    return a.stance == b.stance && std::abs(a.yaw - b.yaw) <= 0.25f && a.name == b.name && a.items == b.items && a.target == b.target;
}

// Pose's serialize code compiled in this file (what serialize would do without NETSER_EXTERN).
template <class S>
bool here(S& s, Pose& p) {
    return netser::detail::basic_serialize_fn<false>{}(s, p);
}

struct bytes_written {
    std::vector<std::byte> bytes;
    std::size_t bits = 0;
    bool ok = false;
};

template <class F>
bytes_written write_with(F&& write) {
    std::vector<std::byte> buffer(256, std::byte{0xA5});
    netser::write_stream w(buffer.data(), buffer.size());
    bytes_written out;
    out.ok = write(w);
    out.bits = w.bits_processed();
    const auto bytes = w.finish();
    out.bytes.assign(bytes.begin(), bytes.end());
    return out;
}

} // namespace

TEST_CASE("NETSER_EXTERN: the compiled functions write, read and measure what the header-only code does",
          "[extern]") {
    std::mt19937 rng(7);
    for (int i = 0; i < 2000; ++i) {
        const Pose p = random_pose(rng);
        const auto compiled = write_with([&](netser::write_stream& w) { return netser::serialize(w, p); });
        const auto local = write_with([&](netser::write_stream& w) { return here(w, const_cast<Pose&>(p)); });
        REQUIRE(compiled.ok);
        REQUIRE(local.ok);
        REQUIRE(compiled.bits == local.bits);
        REQUIRE(compiled.bytes == local.bytes);
        netser::measure_stream m;
        REQUIRE(netser::serialize(m, p));
        REQUIRE(m.bits_processed() == compiled.bits);
        Pose back;
        back.name = "stale";
        REQUIRE(read_bytes(compiled.bytes, back).code == errc::none);
        REQUIRE(same(back, p));
    }
}

TEST_CASE("NETSER_EXTERN: a type described only in the file that instantiates it", "[extern]") {
    const Move m{-500, 499, Gait::sprint};
    const auto compiled = write_with([&](netser::write_stream& w) { return netser::serialize(w, m); });
    const auto there = write_with([&](netser::write_stream& w) { return write_move_here(w, m); });
    REQUIRE(compiled.ok);
    CHECK(compiled.bits == 22); // 10 + 10 + 2: the description's ranges and enumerators, not the types' widths
    CHECK(compiled.bytes == there.bytes);
    Move back;
    REQUIRE(read_bytes(compiled.bytes, back).code == errc::none);
    CHECK(back.dx == -500);
    CHECK(back.dy == 499);
    CHECK(back.gait == Gait::sprint);

    // The wire as the description says: dx + 500, dy + 500, the enumerator's index.
    reference_writer golden;
    golden.put(0, 10);
    golden.put(999, 10);
    golden.put(2, 2);
    CHECK(compiled.bytes == golden.bytes());

    reference_writer forged; // enumerator code 3: there is none
    forged.put(500, 10);
    forged.put(500, 10);
    forged.put(3, 2);
    CHECK(failure_of(read_forged(forged, back)) == fail(errc::invalid_value, 20, "Move.gait"));

    const Move bad{501, 0, Gait::walk};
    CHECK(failure_of(write_error(bad)) == fail(errc::out_of_range, 0, "Move.dx"));
}

TEST_CASE("NETSER_EXTERN: errors keep their code, bit and path rooted at the type's name", "[extern]") {
    Pose p;
    p.name = "scout";
    p.items = {1, 2, 3};
    p.target = 1001; // out of range
    const netser::error e = write_error(p);
    CHECK(e.code == errc::out_of_range);
    CHECK(std::string(e.path()) == "Pose.target");

    // A packet cut after every byte: the compiled reader fails exactly as the local one does.
    p.target = 640;
    const auto full = write_with([&](netser::write_stream& w) { return netser::serialize(w, p); });
    REQUIRE(full.ok);
    for (std::size_t bytes = 0; bytes < full.bytes.size(); ++bytes) {
        std::vector<std::byte> cut(full.bytes.begin(), full.bytes.begin() + static_cast<std::ptrdiff_t>(bytes));
        Pose a, b;
        netser::read_stream ra(cut.data(), cut.size());
        netser::read_stream rb(cut.data(), cut.size());
        const bool oka = netser::serialize(ra, a);
        const bool okb = here(rb, b);
        INFO("cut at " << bytes << " bytes");
        REQUIRE(oka == okb);
        REQUIRE(ra.error().code == rb.error().code);
        REQUIRE(ra.error().bit == rb.error().bit);
        REQUIRE(ra.error().path() == rb.error().path());
        CHECK_FALSE(oka); // fewer bytes than the packet holds: never a value
    }
}

TEST_CASE("NETSER_EXTERN: a struct derived from an extern type writes its base's members, then its own",
          "[extern]") {
    TaggedPose t;
    t.stance = Stance::prone;
    t.yaw = -90.f;
    t.items = {7};
    t.tag = 5;
    const auto base = write(static_cast<const Pose&>(t));
    const auto derived = write(t);
    CHECK(derived.bits == base.bits + 3);
    TaggedPose back;
    REQUIRE(read_hex(derived.hex, back).code == errc::none);
    CHECK(same(back, t));
    CHECK(back.tag == 5);
}

TEST_CASE("NETSER_EXTERN: private members, and a template's specialization with its own serialize", "[extern]") {
    const Secret secret(777);
    Cells<2, 3> cells;
    for (std::size_t i = 0; i < cells.c.size(); ++i) cells.c[i] = static_cast<std::uint8_t>(20 * i + 1);
    const auto compiled = write_with(
        [&](netser::write_stream& w) { return netser::serialize(w, secret) && netser::serialize(w, cells); });
    const auto local = write_with([&](netser::write_stream& w) {
        const netser::detail::basic_serialize_fn<false> here_fn;
        return here_fn(w, secret) && here_fn(w, cells);
    });
    REQUIRE(compiled.ok);
    CHECK(compiled.bits == 10 + 6 * 7); // range(0, 1000); six cells in [0, 127]
    CHECK(compiled.bytes == local.bytes);
    netser::read_stream r(compiled.bytes.data(), compiled.bytes.size());
    Secret secret_back;
    Cells<2, 3> cells_back;
    REQUIRE(netser::serialize(r, secret_back));
    REQUIRE(netser::serialize(r, cells_back));
    CHECK(secret_back.key() == 777);
    CHECK(cells_back.c == cells.c);

    const Secret bad(1001);
    CHECK(failure_of(write_error(bad)) == fail(errc::out_of_range, 0, "Secret.key_"));
}
