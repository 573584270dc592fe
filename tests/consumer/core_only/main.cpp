// Uses netser's core alone, as a project without Boost would; exits 0 when it works.
#include <netser/core.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

int main() {
  std::vector<std::byte> out;
  netser::vector_write_stream w(out); // grows as needed
  std::uint32_t a = 13;
  std::uint32_t b = 52;
  std::string name = "h\xC3\xA9llo"; // valid UTF-8
  if (!netser::serialize_bits(w, a, 5) || !netser::serialize_bits(w, b, 6) ||
      !netser::serialize_string(w, name, 15)) {
    std::puts("consumer: write failed");
    return 1;
  }
  w.finish();
  if (out.size() != 8 || out[0] != std::byte{0x8D} || out[1] != std::byte{0x36}) {
    std::puts("consumer: expected bytes 8D 36 ...");
    return 2;
  }

  netser::read_stream r(out.data(), out.size());
  std::uint32_t ra = 0;
  std::uint32_t rb = 0;
  std::string rname;
  if (!netser::serialize_bits(r, ra, 5) || !netser::serialize_bits(r, rb, 6) ||
      !netser::serialize_string(r, rname, 15) || ra != 13 || rb != 52 || rname != name) {
    std::puts("consumer: read back failed");
    return 3;
  }
  std::puts("consumer: netser::core works without Boost");
  return 0;
}
