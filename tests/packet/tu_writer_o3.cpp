// One of the two "separately compiled programs" of cross_tu_test.cpp: built at -O3
// (tests/CMakeLists.txt). Its Snapshot types are its own (anonymous namespace).

#include "packet_types.hpp"

namespace packet_test::cross_tu {

std::vector<std::byte> write_o3(std::uint32_t seed) { return write_snapshot(seed); }
std::string read_o3(std::span<const std::byte> packet, std::uint32_t seed) { return read_snapshot(packet, seed); }
std::uint32_t schema_o3() { return netser::schema_hash<Snapshot>(); }

} // namespace packet_test::cross_tu
