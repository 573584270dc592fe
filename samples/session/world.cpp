#include "world.hpp"

#include <bit>
#include <cmath>
#include <stdexcept>

namespace session {

namespace {

constexpr std::uint32_t march_ticks = 2 * ticks_per_second; // then a halt of one second
constexpr std::uint32_t cycle_ticks = 3 * ticks_per_second;

bool same_float(float a, float b) noexcept { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

// A triangle wave over [-60, 60] m: position `u` sixteenths of a metre along a path
// that turns at the field's edges.
float bounce(std::uint32_t u) noexcept {
    const std::uint32_t v = u % 3840;
    return static_cast<float>(v < 1920 ? v : 3840 - v) / 16.f - 60.f;
}

} // namespace

bool same_unit(const Unit& a, const Unit& b) noexcept {
    return a.moving == b.moving && same_float(a.x, b.x) && same_float(a.y, b.y);
}

bool same_world(const World& a, const World& b) noexcept {
    for (std::size_t i = 0; i < unit_count; ++i)
        if (!same_unit(a.units[i], b.units[i])) return false;
    if (a.players.size() != b.players.size()) return false;
    for (std::size_t i = 0; i < a.players.size(); ++i) {
        const Player &p = a.players[i], &q = b.players[i];
        if (p.id != q.id || p.score != q.score || !same_float(p.x, q.x) || !same_float(p.y, q.y)) return false;
    }
    return true;
}

Simulation::Simulation(std::uint32_t seed) : rng_(seed) {
    const auto spot = [this] { return static_cast<float>(rng_() >> 8) / 16777216.f * 120.f - 60.f; };
    walkers_.resize(unit_count);
    for (Walker& w : walkers_) {
        w.x = spot(), w.y = spot(), w.to_x = spot(), w.to_y = spot();
        w.speed = 1.5f + static_cast<float>(rng_() % 16) / 8.f; // 1.5 to 3.4 m/s
    }
    publish();
}

void Simulation::step() {
    ++tick_;
    if (tick_ % cycle_ticks < march_ticks) {
        for (Walker& w : walkers_) {
            const float dx = w.to_x - w.x, dy = w.to_y - w.y;
            const float left = std::sqrt(dx * dx + dy * dy), stride = w.speed / ticks_per_second;
            if (left <= stride) {
                w.x = w.to_x, w.y = w.to_y;
                w.to_x = static_cast<float>(rng_() >> 8) / 16777216.f * 120.f - 60.f;
                w.to_y = static_cast<float>(rng_() >> 8) / 16777216.f * 120.f - 60.f;
            } else {
                w.x += dx / left * stride, w.y += dy / left * stride;
            }
        }
    }
    publish();
}

void Simulation::publish() {
    World raw;
    const bool marching = tick_ % cycle_ticks < march_ticks && tick_ > 0;
    for (std::size_t i = 0; i < unit_count; ++i) raw.units[i] = {marching, walkers_[i].x, walkers_[i].y};
    // Player slot k is away one period in three; each time it returns it has a new id.
    for (std::uint32_t k = 0; k < max_players; ++k) {
        const std::uint32_t period = 40 + 7 * k, generation = tick_ / period;
        if (generation % 3 == 0) continue;
        const auto id = static_cast<std::uint16_t>(k + max_players * generation);
        raw.players.push_back({id, bounce(k * 97 + tick_ * (3 + k % 4)), bounce(k * 311 + tick_ * (2 + k % 3)),
                               static_cast<std::uint8_t>(tick_ / ticks_per_second + k)});
    }
    if (netser::as_received(raw, snapshot_)) throw std::runtime_error("the world does not encode");
}

} // namespace session
