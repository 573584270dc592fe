// Uses netser as a downstream project would; exits 0 when it works. With netser::netser
// and a directory argument, it writes there what the installed schema tools read
// (check_tools.cmake): a schema and a packet.
#ifdef NETSER_CONSUMER_CORE_ONLY
#include <netser/core.hpp>
#else
#include <netser/netser.hpp>
#endif

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>

#ifndef NETSER_CONSUMER_CORE_ONLY
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace consumer {
/// A recursive type with a sparse vector: what the tools must handle.
struct Node {
  std::uint8_t value = 0;
  std::vector<std::optional<Node>> kids;
};
NETSER_STRUCT(Node, (value, netser::range(0, 100)), (kids, netser::sparse, netser::max_size(20)))
} // namespace consumer

// DIR/node.schema.json and DIR/node.bin: value 7, kids[3] a node of value 9.
int write_tool_inputs(const std::string& dir) {
  consumer::Node node{7, {}};
  node.kids.resize(5);
  node.kids[3] = consumer::Node{9, {}};
  std::vector<std::byte> packet;
  if (netser::write_packet(packet, node).error) {
    std::puts("consumer: write_packet failed");
    return 4;
  }
  std::ofstream(dir + "/node.schema.json") << netser::schema_json<consumer::Node>();
  std::ofstream(dir + "/node.bin", std::ios::binary)
    .write(reinterpret_cast<const char*>(packet.data()), static_cast<std::streamsize>(packet.size()));
  return 0;
}
#endif

int main(int argc, char** argv) {
#ifndef NETSER_CONSUMER_CORE_ONLY
  if (argc == 2) return write_tool_inputs(argv[1]);
#else
  (void)argc, (void)argv;
#endif
  std::array<std::byte, 8> buffer{};
  netser::write_stream w(buffer);
  std::uint32_t a = 13;
  std::uint32_t b = 52;
  if (!netser::serialize_bits(w, a, 5) || !netser::serialize_bits(w, b, 6)) {
    std::puts("consumer: write failed");
    return 1;
  }
  const auto packet = w.finish();
  if (packet.size() != 2 || packet[0] != std::byte{0x8D} || packet[1] != std::byte{0x06}) {
    std::puts("consumer: expected bytes 8D 06");
    return 2;
  }

  netser::read_stream r(packet);
  std::uint32_t ra = 0;
  std::uint32_t rb = 0;
  if (!netser::serialize_bits(r, ra, 5) || !netser::serialize_bits(r, rb, 6) || ra != 13 ||
      rb != 52) {
    std::puts("consumer: read back failed");
    return 3;
  }

  // Warns under -Wconversion on purpose: if netser leaked -Werror, this would not build.
  const double half = static_cast<double>(packet.size()) / 2.0;
  int one = half;
  return one - 1;
}
