// netser::predict_linear and netser::predicted_baseline: the value a predicted delta is
// sent against. The extrapolation of codes against its definition (rounding, clamping,
// damping, the third baseline's test), which members it reaches (nested, inherited,
// only_if, vectors by position, rotations), and that a delta against the prediction
// reads back exactly and costs less for motion that goes on as it went.

#include <netser/netser.hpp>
#include <netser/predicted_delta_packet.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <random>
#include <vector>

namespace pr {

struct Point {
    float x = 0.f, y = 0.f;
    int hp = 0;
};
NETSER_STRUCT(Point, (x, netser::quantize(-64.f, 64.f, 1.f / 512), netser::predict_linear),
              (y, netser::quantize(-64.f, 64.f, 1.f / 512)), (hp, netser::range(0, 100), netser::predict_linear(1, 2)))

struct PointUnpredicted {
    float x = 0.f, y = 0.f;
    int hp = 0;
};
NETSER_STRUCT(PointUnpredicted, (x, netser::quantize(-64.f, 64.f, 1.f / 512)), (y, netser::quantize(-64.f, 64.f, 1.f / 512)),
              (hp, netser::range(0, 100)))

struct Rot {
    float x = 0.f, y = 0.f, z = 0.f, w = 1.f;
};
NETSER_STRUCT(Rot, x, y, z, w)

struct Flags {
    std::vector<bool> on;
    int level = 0;
};
NETSER_STRUCT(Flags, (on, netser::max_size(8)), (level, netser::range(0, 100), netser::predict_linear))

struct Inner {
    std::int32_t a = 0;
    std::uint8_t b = 0;
};
NETSER_STRUCT(Inner, (a, netser::range(-1000, 1000)), (b, netser::bits(4)))

struct Body {
    bool moving = false;
    Point at;
    Inner inner;
    Rot rotation;
    std::int32_t speed = 0;
    std::vector<Point> trail;
};
NETSER_STRUCT(Body, moving, at, (inner, netser::predict_linear), (rotation, netser::smallest_three(9), netser::predict_linear),
              (speed, netser::range(-500, 500), netser::predict_linear, netser::only_if(&Body::moving)),
              (trail, netser::max_size(8)))

} // namespace pr

using netser::linear_prediction;
using netser::prediction_spacing;

namespace {

// The definition, as a quotient and a remainder: c0 + step * ahead * num / (span * den),
// the remainder's double compared with the divisor for the rounding.
std::uint64_t expected_code(std::int64_t c0, std::int64_t c1, std::int64_t ahead, std::int64_t span, std::int64_t num,
                            std::int64_t den, std::int64_t max) {
    const std::int64_t n = (c0 - c1) * ahead * num, d = span * den;
    std::int64_t q = n / d;
    const std::int64_t rem = n % d;
    if (2 * (rem < 0 ? -rem : rem) >= d) q += n < 0 ? -1 : 1;
    const std::int64_t p = c0 + q;
    return static_cast<std::uint64_t>(p < 0 ? 0 : (p > max ? max : p));
}

} // namespace

TEST_CASE("linear_prediction extrapolates codes, rounding halves away from zero and clamping to the range",
          "[delta][prediction]") {
    const linear_prediction six_ahead{{6, 1, 0}, 1, 1};
    CHECK(six_ahead.code(100, 98, nullptr, 1000) == 112);
    CHECK(six_ahead.code(100, 103, nullptr, 1000) == 82);
    CHECK(six_ahead.code(100, 100, nullptr, 1000) == 100); // at rest
    CHECK(six_ahead.code(5, 10, nullptr, 1000) == 0);      // clamped below
    CHECK(six_ahead.code(995, 990, nullptr, 1000) == 1000); // clamped above
    // 1 step over 2: a half, away from zero either way.
    const linear_prediction half{{1, 2, 0}, 1, 1};
    CHECK(half.code(10, 9, nullptr, 100) == 11);
    CHECK(half.code(10, 11, nullptr, 100) == 9);
    // Damped: 3/4 of 6 steps of 3 = 13.5, rounded to 14.
    const linear_prediction damped{{6, 1, 0}, 3, 4};
    CHECK(damped.code(100, 97, nullptr, 1000) == 114);
    CHECK(damped.code(100, 103, nullptr, 1000) == 86);
    // One baseline: nothing to extrapolate.
    CHECK(linear_prediction{{6, 0, 0}, 1, 1}.code(100, 90, nullptr, 1000) == 100);

    std::mt19937 rng(30);
    for (int i = 0; i < 20000; ++i) {
        const auto max = static_cast<std::int64_t>(rng() % 70000 + 1);
        const auto c0 = static_cast<std::int64_t>(rng() % static_cast<std::uint32_t>(max + 1));
        const auto c1 = static_cast<std::int64_t>(rng() % static_cast<std::uint32_t>(max + 1));
        const auto ahead = static_cast<std::uint32_t>(rng() % 40 + 1), span = static_cast<std::uint32_t>(rng() % 12 + 1);
        const int den = static_cast<int>(rng() % 16 + 1), num = static_cast<int>(rng() % static_cast<std::uint32_t>(den)) + 1;
        const linear_prediction p{{ahead, span, 0}, num, den};
        INFO(c0 << " " << c1 << " ahead " << ahead << " span " << span << " gain " << num << "/" << den);
        REQUIRE(p.code(static_cast<std::uint64_t>(c0), static_cast<std::uint64_t>(c1), nullptr,
                       static_cast<std::uint64_t>(max)) ==
                expected_code(c0, c1, ahead, span, num, den, max));
    }
}

TEST_CASE("a third baseline keeps the newest code where the same extrapolation missed it one interval earlier",
          "[delta][prediction]") {
    const linear_prediction p{{6, 1, 1}, 1, 1};
    const std::uint64_t c2_linear = 96, c2_bounce = 102, c2_slowing = 94;
    // 96, 98, 100: extrapolated from 96 and 98 to 100, exact: linear, so 100 + 6 * 2.
    CHECK(p.code(100, 98, &c2_linear, 1000) == 112);
    // 102, 98, 100: a bounce; the earlier extrapolation (94) misses 100 by 6 >= the step 2.
    CHECK(p.code(100, 98, &c2_bounce, 1000) == 100);
    // 94, 98, 100: slowing; earlier (102) misses by 2 >= 2: hold.
    CHECK(p.code(100, 98, &c2_slowing, 1000) == 100);
    // 95, 98, 100: misses by 1 < 2: extrapolate.
    const std::uint64_t c2_close = 95;
    CHECK(p.code(100, 98, &c2_close, 1000) == 112);
    // A third baseline farther back: the earlier extrapolation scales by span / span2.
    const linear_prediction spaced{{6, 2, 4}, 1, 1};
    const std::uint64_t c2_far = 90; // 90 -> 98 over 4: 4 over 2, 102, misses 100 by 2: hold
    CHECK(spaced.code(100, 98, &c2_far, 1000) == 100);
    const std::uint64_t c2_even = 94; // 94 -> 98 over 4: 2 over 2, exact: 100 + 6 / 2 * 2
    CHECK(spaced.code(100, 98, &c2_even, 1000) == 106);
}

TEST_CASE("predicted_baseline extrapolates the members marked predict_linear and keeps the others",
          "[delta][prediction]") {
    pr::Body b1, b0;
    b1.at = {1.f, 2.f, 10};
    b0.at = {2.f, 3.f, 20};
    b1.inner = {10, 3};
    b0.inner = {12, 4};
    b1.moving = b0.moving = true;
    b1.speed = 100;
    b0.speed = 110;
    b1.trail = {{0.f, 0.f, 0}, {1.f, 1.f, 50}};
    b0.trail = {{0.5f, 0.f, 0}, {1.f, 1.f, 52}, {9.f, 9.f, 9}};
    pr::Body out;
    netser::predicted_baseline(out, {6, 1, 0}, b0, &b1);
    CHECK(out.at.x == 8.f);   // 2 + 6 * 1 m
    CHECK(out.at.y == 3.f);   // not predicted: the newest
    CHECK(out.at.hp == 50);   // 20 + 6 * 10 / 2
    CHECK(out.inner.a == 24); // predict_linear on the struct reaches its members
    CHECK(out.inner.b == 10);
    CHECK(out.speed == 170);
    REQUIRE(out.trail.size() == 3);                      // the newest's elements
    CHECK(out.trail[0].x == 3.5f);                       // by position, as far as both go
    CHECK(out.trail[1].hp == 58);
    CHECK(out.trail[2].x == 9.f);                        // no older element: kept
    CHECK(out.moving);

    // A member one baseline did not send (only_if false) is not extrapolated.
    b1.moving = false;
    b1.speed = 0;
    netser::predicted_baseline(out, {6, 1, 0}, b0, &b1);
    CHECK(out.speed == 110);

    // One baseline: the prediction is that baseline.
    netser::predicted_baseline(out, {6, 0, 0}, b0);
    CHECK(out.at.x == 2.f);
    CHECK(out.inner.a == 12);
}

TEST_CASE("a smallest_three rotation is predicted code by code, across a switch of its largest component too",
          "[delta][prediction]") {
    const netser::smallest_three codec{9};
    const netser::quantization q = codec.params();
    const auto fields_of = [&](const pr::Rot& r) {
        return netser::detail::smallest_three_write(netser::detail::to_xyzw(r), q);
    };
    const auto rot_of = [&](std::uint32_t largest, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        pr::Rot r;
        netser::detail::from_xyzw(r, netser::detail::smallest_three_decode({largest, {a, b, c}}, q));
        return r;
    };
    pr::Body b1, b0, out;
    b1.rotation = rot_of(3, 250, 255, 260);
    b0.rotation = rot_of(3, 252, 255, 257);
    netser::predicted_baseline(out, {6, 1, 0}, b0, &b1);
    const auto f = fields_of(out.rotation);
    CHECK(f.largest == 3);
    CHECK(f.codes[0] == 264);
    CHECK(f.codes[1] == 255);
    CHECK(f.codes[2] == 239);

    // z overtaken by w: b1's codes re-expressed with w, then extrapolated.
    const auto unit = [](float x, float y, float z, float w) {
        const float n = std::sqrt(x * x + y * y + z * z + w * w);
        return pr::Rot{x / n, y / n, z / n, w / n};
    };
    pr::Body t1, t0;
    t1.rotation = unit(0.1f, 0.12f, 0.705f, 0.69f);
    t0.rotation = unit(0.1f, 0.12f, 0.695f, 0.70f);
    t1.rotation = rot_of(fields_of(t1.rotation).largest, fields_of(t1.rotation).codes[0],
                         fields_of(t1.rotation).codes[1], fields_of(t1.rotation).codes[2]);
    t0.rotation = rot_of(fields_of(t0.rotation).largest, fields_of(t0.rotation).codes[0],
                         fields_of(t0.rotation).codes[1], fields_of(t0.rotation).codes[2]);
    const auto f1 = fields_of(t1.rotation), f0 = fields_of(t0.rotation);
    REQUIRE(f1.largest == 2);
    REQUIRE(f0.largest == 3);
    const auto r1 = netser::detail::smallest_three_reexpress(f1, 3, q.max_int);
    netser::predicted_baseline(out, {2, 1, 0}, t0, &t1);
    const auto g = fields_of(out.rotation);
    CHECK(g.largest == 3);
    for (std::size_t k = 0; k < 3; ++k) {
        const long want = static_cast<long>(f0.codes[k]) + 2 * (static_cast<long>(f0.codes[k]) - static_cast<long>(r1.codes[k]));
        CHECK(static_cast<long>(g.codes[k]) == std::clamp(want, 0L, static_cast<long>(q.max_int)));
    }
    CHECK(g.codes[2] < f0.codes[2]); // z keeps falling behind w
}

TEST_CASE("a delta against the prediction reads back exactly and costs less for steady motion",
          "[delta][prediction]") {
    std::mt19937 rng(3030);
    std::uniform_real_distribution<float> pos(-60.f, 60.f);
    std::size_t predicted_bits = 0, plain_delta_bits = 0;
    for (int i = 0; i < 2000; ++i) {
        // Three snapshots of steady motion (as read: quantized), then the next, six on.
        pr::Body raw[4];
        const float x = pos(rng), v = pos(rng) / 512.f;
        const int hp = static_cast<int>(rng() % 40);
        for (int k = 0; k < 4; ++k) {
            const float t = k < 3 ? static_cast<float>(k) : 8.f;
            raw[k].at = {x + v * t, pos(rng), hp + static_cast<int>(t) * 2};
            raw[k].moving = (rng() & 1) != 0;
            raw[k].speed = raw[k].moving ? static_cast<int>(rng() % 1001) - 500 : 0;
            raw[k].inner = {static_cast<std::int32_t>(rng() % 2001) - 1000, static_cast<std::uint8_t>(rng() % 16)};
        }
        pr::Body b[4];
        for (int k = 0; k < 4; ++k) REQUIRE_FALSE(netser::as_received(raw[k], b[k]));
        pr::Body prediction;
        const prediction_spacing spacing{6, 1, 1};
        netser::predicted_baseline(prediction, spacing, b[2], &b[1], &b[0]);
        std::vector<std::byte> buffer(netser::max_delta_bytes<pr::Body>());
        netser::write_stream w(buffer.data(), buffer.size());
        REQUIRE(netser::serialize_delta(w, b[3], prediction));
        predicted_bits += w.bits_processed();
        const auto bytes = w.finish();
        netser::read_stream r(bytes.data(), bytes.size());
        pr::Body got;
        REQUIRE(netser::serialize_delta(r, got, prediction));
        netser::measure_stream again;
        REQUIRE(netser::serialize_delta(again, got, b[3]));
        REQUIRE(again.bits_processed() == 1); // the same value: the changed bit alone
        netser::measure_stream m;
        REQUIRE(netser::serialize_delta(m, b[3], b[2]));
        plain_delta_bits += m.bits_processed();
    }
    INFO("predicted " << predicted_bits << " bits, against the newest baseline " << plain_delta_bits);
    CHECK(predicted_bits < plain_delta_bits);
}

TEST_CASE("predict_linear changes the schema, not the plain or delta encoding", "[delta][prediction]") {
    CHECK(netser::max_bits<pr::Point>() == netser::max_bits<pr::PointUnpredicted>());
    CHECK(netser::max_delta_bits<pr::Point>() == netser::max_delta_bits<pr::PointUnpredicted>());
    CHECK(netser::schema_hash<pr::Point>() != netser::schema_hash<pr::PointUnpredicted>());
    CHECK(netser::schema_json<pr::Point>().find("predict_linear") != std::string::npos);
    const pr::Point p{1.f, 2.f, 3}, base{0.5f, 2.f, 7};
    const pr::PointUnpredicted u{1.f, 2.f, 3}, ubase{0.5f, 2.f, 7};
    std::vector<std::byte> a(32), b(32);
    netser::write_stream wa(a.data(), a.size()), wb(b.data(), b.size());
    REQUIRE(netser::serialize(wa, p));
    REQUIRE(netser::serialize_delta(wa, p, base));
    REQUIRE(netser::serialize(wb, u));
    REQUIRE(netser::serialize_delta(wb, u, ubase));
    REQUIRE(wa.bits_processed() == wb.bits_processed());
    const auto x = wa.finish(), y = wb.finish();
    CHECK(std::vector<std::byte>(x.begin(), x.end()) == std::vector<std::byte>(y.begin(), y.end()));
}

TEST_CASE("a value holding a std::vector<bool> is predicted too (the flags kept, the codes extrapolated)",
          "[delta][prediction]") {
    const pr::Flags b1{{true, false}, 10}, b0{{false, true, true}, 12};
    pr::Flags out;
    netser::predicted_baseline(out, {6, 1, 0}, b0, &b1);
    CHECK(out.on == b0.on);
    CHECK(out.level == 24);
}
