// Writes the seed corpora of the fuzz targets from valid packets of every type:
//   make_seeds <folder>   ->  <folder>/raw/<Type>-<n>              (read_fuzz, roundtrip_fuzz)
//                             <folder>/packet/<Type>-<n>           (packet_fuzz, packet_crc_fuzz)
//                             <folder>/delta/<Type>-<n>            (delta_fuzz)
//                             <folder>/delta_roundtrip/<Type>-<n>  (delta_roundtrip_fuzz)
// Each file is the type's selector byte, then the bytes of netser::serialize (raw) or
// netser::write_packet (packet); a delta seed is the selector, the baseline's seed byte,
// then netser::serialize_delta of a value against that baseline; a delta_roundtrip seed
// the selector, a control byte, then the plain bytes of a value and of a far baseline.
// Raw and packet seeds are of the packet types, delta ones of delta_types. The values come
// from fuzz_types.hpp's generator: the default value, small and full-size random values,
// and the deepest trees a default read accepts; for a type with an evolve() (Roster, the
// keyed deltas), also deltas of a value against its own earlier state, which keep, change,
// remove, add and move entries, where unrelated values mostly replace them. The output is
// the same on every run and every host.
#include "fuzz_common.hpp"

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
    std::printf("make_seeds: %zu files in %s\n", files, root.c_str());
    return ok ? 0 : 1;
}
