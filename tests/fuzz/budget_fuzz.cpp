// Budgeted delta writes (delta_budget) with budgets, priorities and values from the input:
// a few packets of a Grid whose containers are all budgeted, each at its own budget (by
// max_bytes and by the buffer's size, from 0 bytes up), with priorities that include 0,
// negative, NaN, infinite, huge and tiny ones, and baselines acked or lost in between.
// Promises checked, besides the sanitizers':
// - a write gives a packet of at most the budget, or fails with overflow (nothing else for
//   valid values), and then gives no bytes and leaves `held` alone;
// - a failed write changes nothing: a twin budget that never saw the failed writes gives
//   the same packets, sent and deferred counts and `held`;
// - `held` is what an independent reader of the packet decodes against the baseline, and
//   satisfies the declared ranges; sent + deferred are the changes counted by hand
//   (changes_between), held carries exactly `sent` of them and lacks `deferred`.
//
// Input: [max_bytes, 2 bytes][rounds][plain bytes of the baseline][plain bytes of the
// message][per round: buffer size (2 bytes), ack, evolve seed, priority bytes...].
#include "session_common.hpp"

#include <cmath>
#include <limits>

namespace {

using namespace netser_fuzz;
using netser::errc;

constexpr std::string_view type = "Grid";

[[noreturn]] void fail(std::string_view what, const netser::error* e = nullptr) { finding(what, type, e); }

template <class T>
bool same_content(const T& a, const T& b) {
    const auto pa = plain_of(a), pb = plain_of(b);
    return pa && pb && *pa == *pb;
}

// Priorities drawn from the input's bytes in the order the budget asks for them; the
// same bytes for the twin budget's write.
struct input_priority {
    std::span<const std::uint8_t> bytes;
    mutable std::size_t at = 0;
    template <class E>
    double operator()(const E&) const {
        const std::uint8_t b = bytes.empty() ? 0 : bytes[at++ % bytes.size()];
        switch (b) {
        case 0: return 0.0;
        case 1: return -1.0;
        case 2: return std::numeric_limits<double>::quiet_NaN();
        case 3: return std::numeric_limits<double>::infinity();
        case 4: return -std::numeric_limits<double>::infinity();
        case 5: return 1e308;
        case 6: return 1e-300;
        case 7: return std::numeric_limits<double>::denorm_min();
        default: return static_cast<double>(b - 8) / 16.0;
        }
    }
};

// A Grid from the input's plain bytes at `at` (advanced past them), as a reader holds it;
// else the generator's for `seed`.
Grid grid_from(std::span<const std::uint8_t> data, std::size_t& at, std::uint8_t seed) {
    if (at < data.size()) {
        const exact_bytes rest(std::as_bytes(data.subspan(at)));
        netser::read_stream r(rest.span());
        Grid g;
        if (netser::serialize(r, g)) {
            at += r.bytes_processed();
            Grid held;
            if (received(g, held) && delta_writable(held)) return held;
        }
    }
    return as_held(make_value<Grid>(seed, size_mode::full));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 3) return 0;
    const std::span<const std::uint8_t> in(data, size);
    const std::size_t max_bytes = (std::size_t{data[0]} | std::size_t{data[1]} << 8) % 4097u;
    const std::size_t rounds = 1 + data[2] % 6;
    std::size_t at = 3;
    Grid base = grid_from(in, at, data[2]);
    Grid msg = grid_from(in, at, static_cast<std::uint8_t>(data[2] + 1));
    const auto take = [&]() -> std::uint8_t { return at < size ? data[at++] : 0; };

    grid_budget budget(max_bytes), twin(max_bytes);
    std::vector<std::byte> buffer(4096), twin_buffer(4096);
    const Grid untouched = as_held(make_value<Grid>(0xdead, size_mode::full));
    std::uint16_t sequence = 1, baseline = netser::initial_sequence;
    for (std::size_t round = 0; round < rounds; ++round) {
        const std::size_t room_low = take();
        const std::size_t room = (room_low | std::size_t{take()} << 8) % 4097u;
        const std::uint8_t ack = take(), seed = take();
        const std::size_t priority_count = take() % 16;
        const auto priorities = in.subspan(at < size ? at : size).first(std::min(priority_count, size - std::min(at, size)));
        at += priorities.size();
        const std::size_t limit = std::min(room, max_bytes);
        const std::size_t changes = changes_between(msg, base);

        Grid held = untouched;
        const auto r = budget.write(std::span<std::byte>(buffer).first(room), {sequence, baseline}, msg, base, held,
                                    input_priority{priorities});
        if (r.error) {
            if (r.error.code == errc::too_large)
                fail("a budgeted write of valid values fails with too_large (the budget chose additions and left "
                     "removals for later, past max_size)",
                     &r.error);
            if (r.error.code != errc::overflow) fail("a budgeted write of valid values fails with another error than overflow", &r.error);
            if (!r.bytes.empty()) fail("a failed budgeted write gives bytes");
            if (!same_content(held, untouched) || held.tick != untouched.tick) fail("a failed budgeted write changed held");
        } else {
            if (r.bytes.size() > limit) fail("a budgeted packet is larger than its budget");
            Grid twin_held = untouched;
            const auto t = twin.write(std::span<std::byte>(twin_buffer).first(room), {sequence, baseline}, msg, base,
                                      twin_held, input_priority{priorities});
            if (t.error) fail("a twin budget that never saw the failed writes fails where the budget wrote", &t.error);
            if (t.sent != r.sent || t.deferred != r.deferred || t.bytes.size() != r.bytes.size() ||
                !std::equal(t.bytes.begin(), t.bytes.end(), r.bytes.begin()) || !same_content(twin_held, held))
                fail("a failed budgeted write changed what the budget writes next (its accumulators moved)");

            // An independent reader of the packet, against the baseline.
            Grid read = untouched;
            const exact_bytes packet(r.bytes);
            const netser::error e = netser::read_delta_packet(
                packet.span(), read, [&](std::uint16_t s) { return s == baseline ? &base : nullptr; });
            if (e) fail("a budgeted packet does not read against its baseline", &e);
            if (!same_content(read, held)) fail("held is not what a reader of the budgeted packet decodes");
            if (!satisfies_declared(held)) fail("held has values outside their declared ranges");
            if (r.sent + r.deferred != changes) fail("sent + deferred is not the number of changed elements");
            if (changes_between(held, base) != r.sent) fail("held does not carry exactly the changes sent");
            if (changes_between(msg, held) != r.deferred) fail("held does not lack exactly the changes deferred");
            if (r.deferred == 0 && !same_content(held, msg)) fail("nothing deferred, yet held is not the message");
            if ((ack & 1u) != 0) { // acked: the next packet goes against what the reader holds
                base = held;
                baseline = sequence;
            }
        }
        sequence = netser::next_sequence(sequence);
        if ((ack & 2u) != 0) {
            rng g{seed};
            evolve(msg, g);
            msg = as_held(msg);
            if (!delta_writable(msg)) return 0;
        }
    }
    return 0;
}
