// The same bytes on every host: each packet type's generated values (the generator is
// host-independent, fuzz_types.hpp) must write exactly the bytes recorded here on
// x86-64, on s390x (big-endian, under qemu) and on i686, raw and as whole packets
// (whose CRC also covers schema_hash<T>(), so the schema hash is checked too).
// Bytes are recorded as their length and FNV-1a 64 hash; NETSER_PRINT_GOLDEN=1 prints
// the rows of a host, to compare or to record them after a deliberate format change.
#include "hostile/hostile_types.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>

namespace hostile {

namespace {

struct golden_row {
    std::string_view type;
    std::uint64_t seed;
    std::size_t raw_bits;
    std::uint64_t raw_fnv;
    std::size_t packet_bytes;
    std::uint64_t packet_fnv;
    std::uint32_t schema;
};

constexpr golden_row golden[] = {
    // Recorded on x86-64 with NETSER_PRINT_GOLDEN=1.
    {"Player", 0, 468, 0x6ff1374f7ac53063ull, 67, 0x124b023d14da6e50ull, 0x26e311a1u},
    {"Player", 1, 396, 0x076799bba69f235eull, 58, 0x294fa3591c6db33aull, 0x26e311a1u},
    {"Player", 2, 668, 0x2ae0e2a6b4c80977ull, 92, 0xcec9e32aa7bb9a78ull, 0x26e311a1u},
    {"Player", 3, 572, 0xf2ff773a2b868365ull, 80, 0x65e0ade043ac62f0ull, 0x26e311a1u},
    {"Inventory", 0, 224, 0x3a78f91c97a137baull, 36, 0x1c01dc42b90de3e4ull, 0x05c65c8eu},
    {"Inventory", 1, 170, 0x8d7133d3e7289b88ull, 30, 0xf3f3651f3d236291ull, 0x05c65c8eu},
    {"Inventory", 2, 269, 0x6f520e12c592466full, 42, 0xce8b949ada391406ull, 0x05c65c8eu},
    {"Inventory", 3, 571, 0x39145579ae711413ull, 80, 0x9f9367aa786ad9c5ull, 0x05c65c8eu},
    {"Entities", 0, 137, 0xb54fb3728ec67b21ull, 26, 0xf93e04ca8caca9feull, 0x44e1178cu},
    {"Entities", 1, 298, 0x4b3ff1c438a67c74ull, 46, 0x565672cf8e810567ull, 0x44e1178cu},
    {"Entities", 2, 5359, 0x4a6f40bc2851f9f6ull, 678, 0x5e1904c35abbddfdull, 0x44e1178cu},
    {"Entities", 3, 5181, 0x05351d30740e8847ull, 656, 0x3dfff9c5076d631full, 0x44e1178cu},
    {"Body", 0, 195, 0x655891cd8bf64807ull, 33, 0xd8c301c6802c3ad7ull, 0x50b53a1bu},
    {"Body", 1, 195, 0x01692bd96da9673full, 33, 0x400d61a3278e9d5cull, 0x50b53a1bu},
    {"Body", 2, 195, 0xd9d184c9926a8766ull, 33, 0x724ce7afcb73a034ull, 0x50b53a1bu},
    {"Body", 3, 264, 0x5bc08af2e368fe78ull, 41, 0xd6c0769ebb7d3325ull, 0x50b53a1bu},
    {"Node", 0, 14, 0x09efbe07b665b4b4ull, 10, 0x4cd1baabcea58fa6ull, 0xffc8303au},
    {"Node", 1, 98, 0x32ece50b3fdb2313ull, 21, 0x2e3001ca64749abcull, 0xffc8303au},
    {"Node", 2, 14, 0x09ca5607b645e7bfull, 10, 0x8c597636319c1614ull, 0xffc8303au},
    {"Node", 3, 1694, 0xd23ec7cd1451d5daull, 220, 0xda170f81ed3a1aabull, 0xffc8303au},
    {"Chain", 0, 9, 0x08c4aa07b56797d0ull, 10, 0x9a5352acd283acf1ull, 0xb3229bd5u},
    {"Chain", 1, 27, 0xc6677e4a9994973aull, 12, 0x737b23eb9a5cb913ull, 0xb3229bd5u},
    {"Chain", 2, 9, 0x07f1f607b4b493e2ull, 10, 0xa2c0e0e12909cddbull, 0xb3229bd5u},
    {"Chain", 3, 9, 0x0b030007b74f8de1ull, 10, 0x619704283788c937ull, 0xb3229bd5u},
    {"Envelope", 0, 46, 0xf752443f70f83ff9ull, 14, 0xa2db41a569e6ad28ull, 0xc105440bu},
    {"Envelope", 1, 47, 0x8b290199ce82e5b0ull, 14, 0x16cbc645461400fdull, 0xc105440bu},
    {"Envelope", 2, 203, 0xdff4b82ef2f87d79ull, 34, 0x7d9f85f4b92e56e0ull, 0xc105440bu},
    {"Envelope", 3, 51, 0x1e6fd4f5f408f338ull, 15, 0x6829588ab390d8c8ull, 0xc105440bu},
    {"Extremes", 0, 456, 0x71276c63552cca98ull, 65, 0xfd693d4e84b0bffcull, 0x810e172fu},
    {"Extremes", 1, 456, 0x0661b94e8fa88c10ull, 65, 0xe273bb8d6b97c301ull, 0x810e172fu},
    {"Extremes", 2, 456, 0xc56d234ca8811127ull, 65, 0x8bebb66e23869e32ull, 0x810e172fu},
    {"Extremes", 3, 456, 0x7f37db62f928e8a0ull, 65, 0x83977da2285a38dcull, 0x810e172fu},
};

std::uint64_t fnv1a64(std::span<const std::byte> bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::byte b : bytes) {
        h ^= std::to_integer<std::uint64_t>(b);
        h *= 0x100000001b3ull;
    }
    return h;
}

} // namespace

TEST_CASE("every packet type writes the same bytes on every host", "[hostile][golden]") {
    const bool print = std::getenv("NETSER_PRINT_GOLDEN") != nullptr;
    std::size_t checked = 0;
    for_each_type([&]<class T>(std::type_identity<T>, std::size_t index) {
        for (std::uint64_t seed = 0; seed < 4; ++seed) {
            const T value = make_value<T>(seed, seed >= 2 ? size_mode::full : size_mode::small);
            const packet raw = write_value(value);
            const auto whole = write_packet_value(value);
            const golden_row row{type_names[index], seed, raw.bits, fnv1a64(raw.bytes), whole.size(), fnv1a64(whole),
                                 netser::schema_hash<T>()};
            if (print)
                std::printf("    {\"%s\", %" PRIu64 ", %zu, 0x%016" PRIx64 "ull, %zu, 0x%016" PRIx64 "ull, 0x%08" PRIx32 "u},\n",
                            std::string(row.type).c_str(), row.seed, row.raw_bits, row.raw_fnv, row.packet_bytes,
                            row.packet_fnv, row.schema);
            if (print) continue;
            INFO(row.type << " seed " << seed);
            const golden_row* expected = nullptr;
            for (const auto& g : golden)
                if (g.type == row.type && g.seed == seed) expected = &g;
            REQUIRE(expected != nullptr);
            CHECK(row.raw_bits == expected->raw_bits);
            CHECK(row.raw_fnv == expected->raw_fnv);
            CHECK(row.packet_bytes == expected->packet_bytes);
            CHECK(row.packet_fnv == expected->packet_fnv);
            CHECK(row.schema == expected->schema);
            // And what is read back writes the same bytes (bit-exact round trip).
            const auto back = read_value<T>(raw.bytes);
            REQUIRE_FALSE(back.error);
            CHECK(write_value(back.value).bytes == raw.bytes);
            ++checked;
        }
    });
    if (!print) CHECK(checked == std::size(golden));
}

} // namespace hostile
