// expect: netser: Node\.next: no encoding for this type; describe it with NETSER_STRUCT, or give it an ADL function
// A pointer means nothing to the peer. Fix: send an index or an id instead (or
// std::unique_ptr<Node> for an owned child), or mark it netser::skip.
#include <netser/netser.hpp>

namespace game {

struct Node {
    int value = 0;
    Node* next = nullptr;
};
NETSER_STRUCT(Node, value, next)

bool measure(netser::measure_stream& s, Node& v) { return netser::serialize(s, v); }

} // namespace game
