#pragma once

// A simulated network path (--loss, --latency): drops a share of the datagrams handed
// to it and delivers the others a fixed delay later, in order. Owned by one thread,
// which calls flush() whenever it is awake; the datagrams leave through that thread's
// own socket, so the receiver sees the real sender.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

namespace snapshot {

class delay_line {
public:
    using clock = std::chrono::steady_clock;

    delay_line(double loss_percent, std::chrono::milliseconds latency, std::uint32_t seed)
        : loss_(loss_percent / 100.0), latency_(latency), rng_(seed) {}

    /// Queues a copy of bytes for now + latency; false when the path drops it. A tag
    /// (an ENet channel, say) travels with it; a datagram that is not droppable (sent
    /// reliably: the transport retransmits it) is only delayed.
    bool push(std::span<const std::byte> bytes, clock::time_point now, std::uint8_t tag = 0, bool droppable = true) {
        if (droppable && loss_ > 0 && std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < loss_) {
            ++dropped_;
            return false;
        }
        queue_.push_back({now + latency_, tag, {bytes.begin(), bytes.end()}});
        return true;
    }

    /// Sends (send(bytes), or send(bytes, tag)) every datagram due by now, in order.
    template <class Send>
    void flush(clock::time_point now, Send&& send) {
        while (!queue_.empty() && queue_.front().due <= now) {
            const datagram d = std::move(queue_.front());
            queue_.pop_front();
            if constexpr (std::is_invocable_v<Send&, std::span<const std::byte>, std::uint8_t>)
                send(std::span<const std::byte>(d.bytes), d.tag);
            else
                send(std::span<const std::byte>(d.bytes));
        }
    }

    std::optional<clock::time_point> next_due() const {
        if (queue_.empty()) return std::nullopt;
        return queue_.front().due;
    }
    bool empty() const noexcept { return queue_.empty(); }
    std::size_t dropped() const noexcept { return dropped_; }

private:
    struct datagram {
        clock::time_point due;
        std::uint8_t tag = 0;
        std::vector<std::byte> bytes;
    };
    double loss_;
    std::chrono::milliseconds latency_;
    std::mt19937 rng_;
    std::deque<datagram> queue_;
    std::size_t dropped_ = 0;
};

} // namespace snapshot
