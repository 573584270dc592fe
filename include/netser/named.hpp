#pragma once

#include <netser/stream.hpp>

#include <concepts>
#include <string_view>
#include <type_traits>

namespace netser {

/// Names a member in hand-written serialize code, so that a failure inside it has a
/// rooted member path as in described structs: `named(s, "pc", [&] { return
/// netser::serialize(s, o.pc); })` reports "Outer.pc.x" where the nested serialize alone
/// would report "Outer.Inner.x", and `named(s, "hp", [&] { return serialize_int(s, o.hp,
/// 0, 100); })` reports "Outer.hp" where the primitive alone leaves the path at "Outer".
/// On a stream that failed before, f is not called and the path stays as it is.
template <stream S, class F>
    requires std::invocable<F&> && std::convertible_to<std::invoke_result_t<F&>, bool>
[[nodiscard]] bool named(S& s, std::string_view member, F&& f) {
    if (s.error()) [[unlikely]] return false;
    if (detail::call_user_code(s, f)) [[likely]] return true;
    s.error().name_member(member);
    return false;
}

} // namespace netser
