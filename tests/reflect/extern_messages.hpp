#pragma once

// Message types whose serialize code is compiled once, in extern_messages.cpp
// (NETSER_EXTERN here, NETSER_INSTANTIATE there), for extern_serialize_test.cpp.

#include <netser/reflect.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace extern_test {

BOOST_DEFINE_ENUM_CLASS(Stance, stand, crouch, prone)

// Described here, where every file sees the description.
struct Pose {
    Stance stance = Stance::stand;
    float yaw = 0.f;
    std::string name;
    std::vector<std::uint8_t> items;
    std::optional<int> target;
};
NETSER_STRUCT(Pose, stance, (yaw, netser::quantize(-180.f, 180.f, 0.5f)), (name, netser::max_length(12)),
              (items, netser::max_size(4), netser::range(0, 99)), (target, netser::range(0, 1000)))
NETSER_EXTERN(Pose);

// Described in extern_messages.cpp only, with its enum: a file that serializes it needs
// no description.
enum class Gait { walk, run, sprint };
struct Move {
    std::int16_t dx = 0;
    std::int16_t dy = 0;
    Gait gait = Gait::walk;
};
NETSER_EXTERN(Move);

// Private members (NETSER_CLASS, in the class: every file sees it), and a class template's
// specialization with its own serialize function (a name with a comma).
class Secret {
public:
    Secret() = default;
    explicit Secret(int key) : key_(key) {}
    int key() const { return key_; }

private:
    int key_ = 0;
    NETSER_CLASS(Secret, (key_, netser::range(0, 1000)))
};
NETSER_EXTERN(Secret);

template <std::size_t W, std::size_t H>
struct Cells {
    std::array<std::uint8_t, W * H> c{};
};
template <netser::stream S, std::size_t W, std::size_t H>
bool serialize(S& s, Cells<W, H>& cells) {
    for (auto& x : cells.c)
        if (!netser::serialize_int(s, x, 0, 127)) return false;
    return true;
}
NETSER_EXTERN(Cells<2, 3>);

// Derived from an extern type, compiled where it is used: its serialize must not call
// its base's functions (the base's members, then its own).
struct TaggedPose : Pose {
    std::uint8_t tag = 0;
};
NETSER_DERIVED_STRUCT(TaggedPose, (Pose), (tag, netser::bits(3)))

} // namespace extern_test
