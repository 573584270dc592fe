// Uses netser as a downstream project would; exits 0 when it works.
#ifdef NETSER_CONSUMER_CORE_ONLY
#include <netser/core.hpp>
#else
#include <netser/netser.hpp>
#endif

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>

int main() {
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
