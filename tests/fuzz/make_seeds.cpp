// Writes the seed corpora of the fuzz targets from valid packets of every type:
//   make_seeds <folder>   ->  <folder>/raw/<Type>-<n>              (read_fuzz, roundtrip_fuzz)
//                             <folder>/packet/<Type>-<n>           (packet_fuzz, packet_crc_fuzz)
//                             <folder>/delta/<Type>-<n>            (delta_fuzz)
//                             <folder>/delta_roundtrip/<Type>-<n>  (delta_roundtrip_fuzz)
//                             <folder>/session/<n>, predicted-<n>, predicted-range-<n>  (session_fuzz)
//                             <folder>/budget/<n>                  (budget_fuzz)
// Each file is the type's selector byte, then the bytes of netser::serialize (raw) or
// netser::write_packet (packet); a delta seed is the selector, the baseline's seed byte,
// then netser::serialize_delta of a value against that baseline; a delta_roundtrip seed
// the selector, a control byte, then the plain bytes of a value and of a far baseline.
// Session and budget seeds have no selector (their targets take Grid snapshots): a session
// seed is a start sequence number, a world seed and a script of operations a game runs
// (send, deliver, ack, a damaged or late packet, a jump across the wrap-around), or one
// of predicted packets of a Swarm (flipped, cut, re-headered, forged); a budget
// seed is a budget, the plain bytes of a baseline and a message, and per round a buffer
// size, an ack, an evolve seed and priority bytes (session_fuzz.cpp, budget_fuzz.cpp).
// Raw and packet seeds are of the packet types, delta ones of delta_types. The values come
// from fuzz_types.hpp's generator: the default value, small and full-size random values,
// and the deepest trees a default read accepts; for a type with an evolve() (Roster, the
// keyed deltas), also deltas of a value against its own earlier state, which keep, change,
// remove, add and move entries, where unrelated values mostly replace them. Raw and delta
// seeds also come range-coded (range_common.hpp: the selector names the coding, the bytes
// are range_write_stream's with its prior), and session seeds named predicted-range-<n>
// send range-coded predicted packets and attack them. The output is the same on every run
// and every host.
#include "range_common.hpp"
#include "session_common.hpp"

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr int random_per_mode = 12;

void save(const fs::path& file, std::size_t selector, std::span<const std::byte> bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    const char s = static_cast<char>(selector);
    out.write(&s, 1);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + file.string());
}

// Appends the plain bytes of `value` to `out`; false (and says why) when it does not write.
template <class T>
bool append_plain(std::vector<std::byte>& out, const std::string& name, const T& value) {
    std::vector<std::byte> buffer(netser_fuzz::write_capacity<T>());
    netser::write_stream w{std::span<std::byte>(buffer)};
    if (!netser::serialize(w, value)) {
        std::fprintf(stderr, "make_seeds: %s does not write: %s at bit %zu (%.*s)\n", name.c_str(),
                     netser::to_string(w.error().code).data(), w.error().bit,
                     static_cast<int>(w.error().path().size()), w.error().path().data());
        return false;
    }
    const auto bytes = w.finish();
    out.insert(out.end(), bytes.begin(), bytes.end());
    return true;
}

template <class T>
bool emit(const fs::path& root, std::size_t index, const std::string& name, const T& value) {
    std::vector<std::byte> raw;
    if (!append_plain(raw, name, value)) return false;
    save(root / "raw" / name, index, raw);
    std::vector<std::byte> buffer(netser_fuzz::write_capacity<T>() + netser::packet_overhead_bytes + 8);
    const auto p = netser::write_packet(std::span<std::byte>(buffer), value);
    if (p.error) {
        std::fprintf(stderr, "make_seeds: %s does not write as a packet\n", name.c_str());
        return false;
    }
    save(root / "packet" / name, index, p.bytes);
    return true;
}

// A delta of `value` against the small generator value of `seed` (as a reader holds it),
// which is one of the baselines delta_fuzz reads against.
template <class T>
bool emit_delta(const fs::path& root, std::size_t index, const std::string& name, const T& value, std::uint8_t seed) {
    T base{};
    if (netser::as_received(netser_fuzz::make_value<T>(seed, netser_fuzz::size_mode::small), base)) return false;
    std::vector<std::byte> buffer(netser_fuzz::delta_capacity<T>() + 1);
    buffer[0] = static_cast<std::byte>(seed);
    netser::write_stream w{std::span<std::byte>(buffer).subspan(1)};
    if (!netser::serialize_delta(w, value, base)) {
        std::fprintf(stderr, "make_seeds: %s does not write as a delta\n", name.c_str());
        return false;
    }
    save(root / "delta" / name, index, std::span<const std::byte>(buffer).first(1 + w.finish().size()));
    return true;
}

// The control byte, then the plain bytes of `value` and of `far` (delta_roundtrip_fuzz).
template <class T>
bool emit_delta_round_trip(const fs::path& root, std::size_t index, const std::string& name, std::uint8_t control,
                           const T& value, const T& far) {
    std::vector<std::byte> input{static_cast<std::byte>(control)};
    if (!append_plain(input, name, value) || !append_plain(input, name, far)) return false;
    save(root / "delta_roundtrip" / name, index, input);
    return true;
}

// `value` range-coded with each range coding's prior, as read_fuzz reads it
// (<folder>/raw/<Type>-range<c>-<suffix>).
template <class T>
bool emit_range(const fs::path& root, std::size_t index, const std::string& name, const T& value, std::size_t& files) {
    using namespace netser_fuzz;
    const plain_codec<T> codec;
    const auto plain = bit_packed_of(value, codec);
    if (!plain) return false;
    for (const coding c : {coding::range_default, coding::range_trained, coding::range_confident}) {
        const auto bytes = range_coded_of(value, codec, prior_for<T>(c, false), plain->bits);
        if (!bytes) {
            std::fprintf(stderr, "make_seeds: %s does not range-code\n", name.c_str());
            return false;
        }
        save(root / "raw" / (name + "-range" + std::to_string(static_cast<int>(c))), selector_of(index, c, type_count), *bytes);
        ++files;
    }
    return true;
}

// A delta of `value` against the small generator value of `seed`, range-coded with each
// range coding's prior, as delta_fuzz reads it (<folder>/delta/<Type>-range<c>-<suffix>).
template <class T>
bool emit_range_delta(const fs::path& root, std::size_t index, const std::string& name, const T& value,
                      std::uint8_t seed, std::size_t& files) {
    using namespace netser_fuzz;
    T base{};
    if (netser::as_received(make_value<T>(seed, size_mode::small), base)) return false;
    const delta_codec<T> codec{&base};
    const auto plain = bit_packed_of(value, codec);
    if (!plain) return false;
    for (const coding c : {coding::range_default, coding::range_trained, coding::range_confident}) {
        const auto bytes = range_coded_of(value, codec, prior_for<T>(c, true), plain->bits);
        if (!bytes) {
            std::fprintf(stderr, "make_seeds: %s does not range-code as a delta\n", name.c_str());
            return false;
        }
        std::vector<std::byte> input{static_cast<std::byte>(seed)};
        input.insert(input.end(), bytes->begin(), bytes->end());
        save(root / "delta" / (name + "-range" + std::to_string(static_cast<int>(c))),
             selector_of(index, c, delta_type_count), input);
        ++files;
    }
    return true;
}

// A seed of its own format (no selector byte).
void save_bytes(const fs::path& file, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + file.string());
}

// session_fuzz: operation codes (the target's switch, input byte % 12).
enum session_op : std::uint8_t { evolve_world = 0, send = 1, deliver = 3, damaged = 4, ack = 5, forged_ack = 6,
                                 forged = 7, jump = 8, ring_op = 9, predicted_send = 10, predicted_attack = 11,
                                 range_send = 12, range_attack = 13 };

std::size_t emit_session(const fs::path& root) {
    std::size_t files = 0;
    for (int k = 0; k < 16; ++k) {
        const auto start = static_cast<std::uint16_t>(k % 4 == 0 ? 65530 : k % 4 == 1 ? 0 : 1000 * k);
        std::vector<std::uint8_t> in{static_cast<std::uint8_t>(start), static_cast<std::uint8_t>(start >> 8),
                                     static_cast<std::uint8_t>(k)};
        netser_fuzz::rng r{static_cast<std::uint64_t>(k) + 900};
        for (int tick = 0; tick < 12; ++tick) {
            in.insert(in.end(), {evolve_world, static_cast<std::uint8_t>(r.below(256)), send});
            // Delivered (maybe late: another of the recent packets), then acked (maybe lost).
            in.insert(in.end(), {deliver, static_cast<std::uint8_t>(r.below(256)), ack, static_cast<std::uint8_t>(r.below(4))});
            if (k % 3 == 1 && tick % 4 == 2) // a damaged packet, CRC recomputed or not
                in.insert(in.end(), {damaged, static_cast<std::uint8_t>(r.below(256)), static_cast<std::uint8_t>(r.below(256)),
                                     static_cast<std::uint8_t>(r.below(2)), static_cast<std::uint8_t>(r.below(2))});
            if (k % 4 == 3 && tick == 5) // a forged ack with every bit of previous set
                in.insert(in.end(), {forged_ack, static_cast<std::uint8_t>(r.below(256)), static_cast<std::uint8_t>(r.below(256)),
                                     0xff, 0xff, 0xff, 0xff});
            if (k % 5 == 4 && tick == 6) in.insert(in.end(), {jump, 0xff, 0xff}); // a whole lap, less one
            if (k % 6 == 5 && tick == 7) in.insert(in.end(), {ring_op, 1}); // the reader forgets everything
        }
        in.insert(in.end(), {forged, 16});
        for (int i = 0; i < 16; ++i) in.push_back(static_cast<std::uint8_t>(r.below(256)));
        in.push_back(1); // its CRC recomputed
        save_bytes(root / "session" / std::to_string(k), in);
        ++files;
    }
    return files;
}

// session_fuzz's predicted packets of a Swarm (session_fuzz.cpp, predicted_session): a
// motion sent against one to three baselines, some lost, read in stages, a jump past the
// half circle (then refused writes until newer baselines), baselines named in the input's
// order; packets flipped, cut, padded, re-headered and forged, CRC recomputed or not;
// the reader's ring evicted, cleared, or given other content.
std::size_t emit_predicted_session(const fs::path& root) {
    std::size_t files = 0;
    for (int k = 0; k < 12; ++k) {
        const auto start = static_cast<std::uint16_t>(k % 3 == 0 ? 65530 : k % 3 == 1 ? 0x7ff0 : 1000 * k);
        std::vector<std::uint8_t> in{static_cast<std::uint8_t>(start), static_cast<std::uint8_t>(start >> 8),
                                     static_cast<std::uint8_t>(k)};
        netser_fuzz::rng r{static_cast<std::uint64_t>(k) + 1300};
        const auto byte = [&] { return static_cast<std::uint8_t>(r.below(256)); };
        for (int tick = 0; tick < 16; ++tick) {
            // Control: count - 1 (bits 0-1), the motion (4), picked (8), a jump (0x10),
            // lost (0x20), the staged reader (0x40).
            std::uint8_t control = static_cast<std::uint8_t>(4 | (k % 2 == 0 ? tick % 3 : 2));
            if (k % 4 == 1 && tick % 5 == 3) control |= 0x20;
            if (k % 2 == 1) control |= 0x40;
            const bool picked = k % 4 == 3 && tick % 4 == 0, jump = k % 4 == 2 && tick == 8;
            if (picked) control |= 0x08;
            if (jump) control |= 0x10;
            if (tick == 11 && k % 6 == 0) control = 3 | 4; // four baselines: refused
            in.insert(in.end(), {predicted_send, control, byte()});
            if (picked)
                for (int i = 0; i <= (control & 3); ++i) in.push_back(byte());
            if (jump) in.insert(in.end(), {0x00, 0x80}); // 32768 ahead: the old baselines are out of order
            if (tick % 4 == 1) { // a flip, a cut, garbage, a re-header, each CRC recomputed (0x80) or not
                const std::uint8_t patch = (k + tick) % 3 != 0 ? 0x80 : 0;
                switch ((k + tick / 4) % 4) {
                case 0: in.insert(in.end(), {predicted_attack, static_cast<std::uint8_t>(patch | 0), byte(), byte(), byte()}); break;
                case 1: in.insert(in.end(), {predicted_attack, static_cast<std::uint8_t>(patch | 1), byte(), byte(), byte()}); break;
                case 2: in.insert(in.end(), {predicted_attack, static_cast<std::uint8_t>(patch | 2), byte(), 3, byte(), byte(), byte()}); break;
                default: // the same body under numbers shifted by 1 and the reader's fingerprint
                    in.insert(in.end(), {predicted_attack, 3, byte(), 4, 1, 1, 1, 1}); break;
                }
            }
            if (tick == 13 && k % 3 == 2) in.insert(in.end(), {predicted_attack, 5, 2, byte(), byte()}); // other content
            if (tick == 14 && k % 4 == 0) in.insert(in.end(), {predicted_attack, 5, 1}); // the reader forgets
        }
        in.insert(in.end(), {predicted_attack, 0x84, 24}); // 24 bytes of the input, CRC recomputed
        for (int i = 0; i < 24; ++i) in.push_back(byte());
        save_bytes(root / "session" / ("predicted-" + std::to_string(k)), in);
        ++files;
    }
    return files;
}

// session_fuzz's range-coded predicted packets (session_fuzz.cpp, range_attack): a motion
// sent range-coded with the default or the trained prior (some packets bit-packed between),
// then flipped, cut (as bits and in the coder's order), padded, re-headered, read with
// another coding, given the input's bytes as a body or as a whole packet.
std::size_t emit_range_session(const fs::path& root) {
    std::size_t files = 0;
    for (int k = 0; k < 12; ++k) {
        const auto start = static_cast<std::uint16_t>(k % 3 == 0 ? 65530 : k % 3 == 1 ? 0x7ff0 : 1000 * k);
        std::vector<std::uint8_t> in{static_cast<std::uint8_t>(start), static_cast<std::uint8_t>(start >> 8),
                                     static_cast<std::uint8_t>(k + 40)};
        netser_fuzz::rng r{static_cast<std::uint64_t>(k) + 1700};
        const auto byte = [&] { return static_cast<std::uint8_t>(r.below(256)); };
        const auto prior = static_cast<std::uint8_t>(k % 2); // 0: the default prior, 1: the trained one
        for (int tick = 0; tick < 16; ++tick) {
            // Control as predicted_send's: count - 1, the motion (4), the staged reader (0x40).
            std::uint8_t control = static_cast<std::uint8_t>(4 | (k % 4 < 2 ? tick % 3 : 2));
            if (k % 3 == 2) control |= 0x40;
            if (k % 4 == 1 && tick % 5 == 3) control |= 0x20; // lost
            if (tick % 6 == 5) in.insert(in.end(), {predicted_send, control, byte()}); // bit-packed between
            else in.insert(in.end(), {range_send, prior, control, byte()});
            const std::uint8_t patch = (k + tick) % 3 != 0 ? 0x80 : 0;
            switch ((k + tick) % 8) {
            case 0: in.insert(in.end(), {predicted_attack, static_cast<std::uint8_t>(patch | 0), byte(), byte(), byte()}); break;
            case 1: in.insert(in.end(), {predicted_attack, static_cast<std::uint8_t>(patch | 1), byte(), byte(), byte()}); break;
            case 2: in.insert(in.end(), {predicted_attack, static_cast<std::uint8_t>(patch | 2), byte(), 3, byte(), byte(), byte()}); break;
            case 3: in.insert(in.end(), {predicted_attack, 3, byte(), 4, 1, 1, 1, 1}); break;
            case 4: { // the input's bytes as a packet in the prior's coding, CRC recomputed
                const auto n = static_cast<std::uint8_t>(8 + r.below(40));
                in.insert(in.end(), {range_attack, static_cast<std::uint8_t>(0x80 | prior << 2), n});
                for (int i = 0; i < n; ++i) in.push_back(byte());
                break;
            }
            case 5: // read with another coding, CRC recomputed or not
                in.insert(in.end(), {range_attack, static_cast<std::uint8_t>(patch | 1 | (tick % 3) << 2), byte()});
                break;
            case 6: { // a garbage body behind the header
                const auto n = static_cast<std::uint8_t>(r.below(48));
                in.insert(in.end(), {range_attack, static_cast<std::uint8_t>(2 | prior << 2), byte(), n});
                for (int i = 0; i < n; ++i) in.push_back(byte());
                break;
            }
            default: // cut in the coder's order
                in.insert(in.end(), {range_attack, static_cast<std::uint8_t>(patch | 3), byte(), byte(), byte()});
            }
            if (tick == 13 && k % 3 == 2) in.insert(in.end(), {predicted_attack, 5, 2, byte(), byte()}); // other content
        }
        save_bytes(root / "session" / ("predicted-range-" + std::to_string(k)), in);
        ++files;
    }
    return files;
}

bool emit_budget(const fs::path& root, std::size_t& files) {
    using netser_fuzz::Grid;
    for (int k = 0; k < 16; ++k) {
        const std::size_t max_bytes = k % 4 == 0 ? 4096 : static_cast<std::size_t>(16 + 9 * k);
        std::vector<std::uint8_t> in{static_cast<std::uint8_t>(max_bytes), static_cast<std::uint8_t>(max_bytes >> 8),
                                     static_cast<std::uint8_t>(5 + 6 * k)}; // rounds: 1 + byte % 6
        const auto mode = k % 2 == 0 ? netser_fuzz::size_mode::small : netser_fuzz::size_mode::full;
        const Grid base = netser_fuzz::as_held(netser_fuzz::make_value<Grid>(static_cast<std::uint64_t>(k) + 40, mode));
        Grid msg = base;
        netser_fuzz::rng r{static_cast<std::uint64_t>(k)};
        for (int i = 0; i <= k % 4; ++i) netser_fuzz::evolve(msg, r);
        if (k % 5 == 0) msg = netser_fuzz::make_value<Grid>(static_cast<std::uint64_t>(k) + 400, mode);
        // The plain bytes of each, one after the other (the target reads one, then the next).
        std::vector<std::byte> plain;
        if (!append_plain(plain, "budget base", base) || !append_plain(plain, "budget message", msg)) return false;
        for (const auto b : plain) in.push_back(std::to_integer<std::uint8_t>(b));
        for (int round = 0; round < 6; ++round) {
            const auto room = static_cast<std::uint16_t>(round % 3 == 0 ? 4096 : 12 + r.below(80));
            in.insert(in.end(), {static_cast<std::uint8_t>(room), static_cast<std::uint8_t>(room >> 8),
                                 static_cast<std::uint8_t>(r.below(4)), static_cast<std::uint8_t>(r.below(256)), 4});
            for (int p = 0; p < 4; ++p) in.push_back(static_cast<std::uint8_t>(k % 3 == 0 ? r.below(8) : 8 + r.below(64)));
        }
        save_bytes(root / "budget" / std::to_string(k), in);
        ++files;
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <output folder>\n", argv[0]);
        return 2;
    }
    const fs::path root = argv[1];
    fs::create_directories(root / "raw");
    fs::create_directories(root / "packet");
    fs::create_directories(root / "delta");
    fs::create_directories(root / "delta_roundtrip");
    fs::create_directories(root / "session");
    fs::create_directories(root / "budget");
    bool ok = true;
    std::size_t files = 0;
    netser_fuzz::for_each_type([&]<class T>(std::type_identity<T>, std::size_t index) {
        const std::string type(netser_fuzz::type_names[index]);
        auto one = [&](const std::string& suffix, const T& value) {
            ok = emit(root, index, type + "-" + suffix, value) && ok;
            files += 2;
        };
        one("default", T{});
        for (int k = 0; k < random_per_mode; ++k) {
            one("small-" + std::to_string(k), netser_fuzz::make_value<T>(static_cast<std::uint64_t>(k), netser_fuzz::size_mode::small));
            one("full-" + std::to_string(k), netser_fuzz::make_value<T>(static_cast<std::uint64_t>(k), netser_fuzz::size_mode::full));
        }
        for (int k = 0; k < 4; ++k) { // range-coded (read_fuzz's range modes)
            const auto mode = k % 2 == 0 ? netser_fuzz::size_mode::small : netser_fuzz::size_mode::full;
            ok = emit_range(root, index, type + "-" + std::to_string(k), netser_fuzz::make_value<T>(static_cast<std::uint64_t>(k), mode), files) && ok;
        }
        ok = emit_range(root, index, type + "-default", T{}, files) && ok;
        if constexpr (std::is_same_v<T, netser_fuzz::Node>) one("depth-64", netser_fuzz::node_chain(64));
        if constexpr (std::is_same_v<T, netser_fuzz::Chain>) {
            T deepest;
            T* at = &deepest;
            for (int i = 1; i < 64; ++i) at = (at->next = std::make_unique<T>()).get();
            one("depth-64", deepest);
        }
    });
    netser_fuzz::for_each_type<netser_fuzz::delta_types>([&]<class T>(std::type_identity<T>, std::size_t index) {
        const std::string type(netser_fuzz::delta_type_names[index]);
        using netser_fuzz::size_mode;
        const auto value = [](int n, size_mode m) { return netser_fuzz::make_value<T>(static_cast<std::uint64_t>(n), m); };
        for (int k = 0; k < random_per_mode; ++k) {
            const auto seed = static_cast<std::uint8_t>(k);
            const std::string n = std::to_string(k);
            const size_mode mode = k % 2 == 0 ? size_mode::small : size_mode::full;
            ok = emit_delta(root, index, type + "-delta-" + n, value(k + 50, size_mode::small), seed) && ok;
            if (k < 4) ok = emit_range_delta(root, index, type + "-delta-" + n, value(k + 50, size_mode::small), seed, files) && ok;
            ok = emit_delta_round_trip(root, index, type + "-" + n, seed, value(k, mode), value(k + 100, mode)) && ok;
            files += 2;
            if constexpr (requires(T& t, netser_fuzz::rng& r) { netser_fuzz::evolve(t, r); }) {
                // The small value of the seed evolved (a delta against that baseline is one
                // a game sends); and a value whose far baseline is the value evolved.
                netser_fuzz::rng r{static_cast<std::uint64_t>(k) + 7000};
                T next = value(k, size_mode::small);
                for (int ticks = 0; ticks <= k % 3; ++ticks) netser_fuzz::evolve(next, r);
                ok = emit_delta(root, index, type + "-evolved-" + n, next, seed) && ok;
                T far = value(k, mode);
                const T now = far;
                for (int ticks = 0; ticks <= k % 3; ++ticks) netser_fuzz::evolve(far, r, mode);
                ok = emit_delta_round_trip(root, index, type + "-evolved-" + n, seed, now, far) && ok;
                files += 2;
            }
        }
    });
    files += emit_session(root);
    files += emit_predicted_session(root);
    files += emit_range_session(root);
    ok = emit_budget(root, files) && ok;
    std::printf("make_seeds: %zu files in %s\n", files, root.c_str());
    return ok ? 0 : 1;
}
