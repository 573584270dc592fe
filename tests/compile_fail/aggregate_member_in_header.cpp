// expect: netser: Packet\.hello: a plain aggregate \(no NETSER_STRUCT\) has default encodings only.*describe the struct with NETSER_STRUCT
// The struct is described in a header: the mistake still names the member, within the
// line budget. Fix: NETSER_STRUCT(Hello, id, (name, netser::max_length(16))).
#include "headers/late_aggregate.hpp"

bool measure(netser::measure_stream& s, game::Packet& v) { return netser::serialize(s, v); }
