// The same bytes on every host: each packet type's generated values (the generator is
// host-independent, fuzz_types.hpp) must write exactly the bytes of the rows below on
// x86-64, on s390x (big-endian, under qemu) and on i686, raw and as whole packets
// (whose CRC also covers schema_hash<T>(), so the schema hash is checked too).
// Bytes are given as their length and FNV-1a 64 hash. The rows come from the independent
// model tools/golden_types.py (the generator, the encodings, the schema hash and the
// packet written from the docs); `python3 tools/golden.py --hostile` prints them and
// ctest's netser_golden_model checks this table against it.
#include "hostile/hostile_types.hpp"

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
    // python3 tools/golden.py --hostile (seeds 0 and 1 small, 2 and 3 full).
    {"Player", 0, 468, 0x6ff1374f7ac53063ull, 67, 0x9c7e14b04865a9e8ull, 0x26e311a1u},
    {"Player", 1, 396, 0x076799bba69f235eull, 58, 0x9bda3429925b3f23ull, 0x26e311a1u},
    {"Player", 2, 668, 0xd246748386a7bab3ull, 92, 0x223c077647e07afdull, 0x26e311a1u},
    {"Player", 3, 572, 0xf2ff773a2b868365ull, 80, 0x717215cf8823f292ull, 0x26e311a1u},
    {"Inventory", 0, 224, 0xacf8da9957ce3bb5ull, 36, 0x4cd58a78d8c1c37full, 0x05c65c8eu},
    {"Inventory", 1, 170, 0x8d7133d3e7289b88ull, 30, 0x863bd8710bf75acdull, 0x05c65c8eu},
    {"Inventory", 2, 269, 0x06c7a627cdd3aa1bull, 42, 0x8c172a4bf81b66dbull, 0x05c65c8eu},
    {"Inventory", 3, 571, 0xa8fb00d2939c5ab4ull, 80, 0xa72f07418d8941e6ull, 0x05c65c8eu},
    {"Entities", 0, 137, 0xb54fb3728ec67b21ull, 26, 0x4714edd5bc3e8ea0ull, 0x44e1178cu},
    {"Entities", 1, 298, 0x4b3ff1c438a67c74ull, 46, 0x10221e97fb1336e3ull, 0x44e1178cu},
    {"Entities", 2, 5359, 0x4a6f40bc2851f9f6ull, 678, 0xf0ef543365b59cfaull, 0x44e1178cu},
    {"Entities", 3, 5181, 0x05351d30740e8847ull, 656, 0x46daba62ec41039aull, 0x44e1178cu},
    {"Body", 0, 195, 0x655891cd8bf64807ull, 33, 0xe7807e29dafd0deeull, 0x471343cbu},
    {"Body", 1, 195, 0x01692bd96da9673full, 33, 0x311c6703f6ea1ec5ull, 0x471343cbu},
    {"Body", 2, 195, 0xd9d184c9926a8766ull, 33, 0x8236a785fc32f001ull, 0x471343cbu},
    {"Body", 3, 264, 0x5bc08af2e368fe78ull, 41, 0x33b679b292e15e10ull, 0x471343cbu},
    {"Node", 0, 14, 0x09efbe07b665b4b4ull, 10, 0xe01aaf8fce258e25ull, 0xffc8303au},
    {"Node", 1, 98, 0x32ece50b3fdb2313ull, 21, 0xef08c95c3d23c6a9ull, 0xffc8303au},
    {"Node", 2, 14, 0x09ca5607b645e7bfull, 10, 0x6cbcba46dd5050f3ull, 0xffc8303au},
    {"Node", 3, 1694, 0xd23ec7cd1451d5daull, 220, 0x04374efaf6228875ull, 0xffc8303au},
    {"Chain", 0, 9, 0x08c4aa07b56797d0ull, 10, 0xc98bef0febbf0f8cull, 0xb3229bd5u},
    {"Chain", 1, 27, 0xc6677e4a9994973aull, 12, 0x6db9a0424d961cf3ull, 0xb3229bd5u},
    {"Chain", 2, 9, 0x07f1f607b4b493e2ull, 10, 0x63eea31aa1007ea2ull, 0xb3229bd5u},
    {"Chain", 3, 9, 0x0b030007b74f8de1ull, 10, 0x0362d7f670388deaull, 0xb3229bd5u},
    {"Envelope", 0, 46, 0xf752443f70f83ff9ull, 14, 0x8a4a2a38bc9762a5ull, 0x7097e8dau},
    {"Envelope", 1, 47, 0x8b290199ce82e5b0ull, 14, 0x1df00660d3a5bc81ull, 0x7097e8dau},
    {"Envelope", 2, 203, 0x080f794dcd99c90aull, 34, 0x2b31377e513d341aull, 0x7097e8dau},
    {"Envelope", 3, 51, 0x1e6fd4f5f408f338ull, 15, 0x75bd191a9ab172c7ull, 0x7097e8dau},
    {"Extremes", 0, 456, 0x71276c63552cca98ull, 65, 0x6d338115b3777abaull, 0x810e172fu},
    {"Extremes", 1, 456, 0x0661b94e8fa88c10ull, 65, 0xa3ce1fb63a47178bull, 0x810e172fu},
    {"Extremes", 2, 456, 0xc56d234ca8811127ull, 65, 0x51cf509f4c698208ull, 0x810e172fu},
    {"Extremes", 3, 456, 0x7f37db62f928e8a0ull, 65, 0x845d244aaeb1cc06ull, 0x810e172fu},
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
    std::size_t checked = 0;
    for_each_type([&]<class T>(std::type_identity<T>, std::size_t index) {
        for (std::uint64_t seed = 0; seed < 4; ++seed) {
            const T value = make_value<T>(seed, seed >= 2 ? size_mode::full : size_mode::small);
            const packet raw = write_value(value);
            const auto whole = write_packet_value(value);
            INFO(type_names[index] << " seed " << seed);
            const golden_row* expected = nullptr;
            for (const auto& g : golden)
                if (g.type == type_names[index] && g.seed == seed) expected = &g;
            REQUIRE(expected != nullptr);
            CHECK(raw.bits == expected->raw_bits);
            CHECK(fnv1a64(raw.bytes) == expected->raw_fnv);
            CHECK(whole.size() == expected->packet_bytes);
            CHECK(fnv1a64(whole) == expected->packet_fnv);
            CHECK(netser::schema_hash<T>() == expected->schema);
            // And what is read back writes the same bytes (bit-exact round trip).
            const auto back = read_value<T>(raw.bytes);
            REQUIRE_FALSE(back.error);
            CHECK(write_value(back.value).bytes == raw.bytes);
            ++checked;
        }
    });
    CHECK(checked == std::size(golden)); // every row was compared
}

} // namespace hostile
