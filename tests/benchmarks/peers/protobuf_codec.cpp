// protobuf (proto3, peers.proto): messages reused from one write or read to the next,
// as the protobuf performance guide advises; SerializeToArray into the caller's buffer.

#include "codec.hpp"

#include "peers.pb.h"

#include <google/protobuf/stubs/common.h>

#include <climits>

namespace netser_peers {

namespace {

template <class Message>
std::size_t serialize_into(const Message& m, std::span<std::byte> out) {
    const int capacity = out.size() > INT_MAX ? INT_MAX : static_cast<int>(out.size());
    if (!m.SerializeToArray(out.data(), capacity)) return 0;
    return static_cast<std::size_t>(m.GetCachedSize());
}

template <class Message>
bool parse_from(Message& m, std::span<const std::byte> in) {
    return in.size() <= INT_MAX && m.ParseFromArray(in.data(), static_cast<int>(in.size()));
}

class protobuf_codec final : public codec_of<protobuf_codec> {
public:
    std::size_t write_one(const S94R& s, std::span<std::byte> out) {
        const S94Codes k = to_codes(s);
        s94_.set_x(k.x);
        s94_.set_y(k.y);
        s94_.set_z(k.z);
        s94_.set_health(k.health);
        s94_.set_alive(k.alive);
        s94_.set_id(k.id);
        return serialize_into(s94_, out);
    }
    bool read_one(std::span<const std::byte> in, S94R& s) {
        if (!parse_from(s94_, in)) return false;
        return from_codes(s94_codes_of(s94_), s);
    }
    std::size_t write_snapshot(const Snapshot& in, std::span<std::byte> out) override {
        snapshot_.Clear(); // keeps the Cube objects for add_cubes to reuse
        for (const CubeState& c : in.cubes) {
            const CubeCodes k = to_codes(c);
            pb::Cube* m = snapshot_.add_cubes();
            m->set_interacting(k.interacting);
            m->set_x(k.x);
            m->set_y(k.y);
            m->set_z(k.z);
            m->set_vx(k.vx); // 0 (left out) unless interacting
            m->set_vy(k.vy);
            m->set_vz(k.vz);
            m->set_largest(k.largest);
            m->set_a(k.smallest[0]);
            m->set_b(k.smallest[1]);
            m->set_c(k.smallest[2]);
        }
        return serialize_into(snapshot_, out);
    }
    bool read_snapshot(std::span<const std::byte> in, Snapshot& out) override {
        if (!parse_from(snapshot_, in)) return false;
        const auto& cubes = snapshot_.cubes();
        return decode_cubes(static_cast<std::size_t>(cubes.size()), out,
                            [&](std::size_t i) { return cube_codes_of(cubes[static_cast<int>(i)]); });
    }

private:
    pb::S94 s94_;
    pb::Snapshot snapshot_;
};

} // namespace

std::vector<named_codec> protobuf_codecs() {
    std::vector<named_codec> v;
    v.push_back({"protobuf", "protobuf", std::make_unique<protobuf_codec>()});
    return v;
}

std::string protobuf_version() { return google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION); }

} // namespace netser_peers
