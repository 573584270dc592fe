#pragma once

// The Boost.Asio bits: UDP sockets on 127.0.0.1 only (nothing ever leaves the
// machine) and a receive that gives up after a timeout, so no thread can hang.

#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address_v4.hpp>
#include <boost/asio/ip/udp.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <string>

namespace snapshot::net {

using boost::asio::ip::udp;

/// A UDP socket bound to a free port on the loopback interface.
inline udp::socket open_loopback(boost::asio::io_context& io) {
    udp::socket socket(io, udp::endpoint(boost::asio::ip::address_v4::loopback(), 0));
    // Room for bursts (a snapshot's packets plus hostile traffic); the kernel may cap it.
    boost::system::error_code ignored;
    socket.set_option(udp::socket::receive_buffer_size(4 << 20), ignored);
    return socket;
}

inline std::string to_string(const udp::endpoint& e) {
    return e.address().to_string() + ":" + std::to_string(e.port());
}

/// Sends one datagram; false when the socket refused it.
inline bool send(udp::socket& socket, const udp::endpoint& to, std::span<const std::byte> bytes) {
    boost::system::error_code ec;
    socket.send_to(boost::asio::buffer(bytes.data(), bytes.size()), to, 0, ec);
    return !ec;
}

/// Waits at most `timeout` for one datagram; its size, or nothing on timeout or error.
/// A datagram larger than `buffer` is cut to its size (so make the buffer 64 KiB).
inline std::optional<std::size_t> receive_for(boost::asio::io_context& io, udp::socket& socket,
                                              std::span<std::byte> buffer, udp::endpoint& from,
                                              std::chrono::milliseconds timeout) {
    bool done = false;
    boost::system::error_code result;
    std::size_t size = 0;
    socket.async_receive_from(boost::asio::buffer(buffer.data(), buffer.size()), from,
                              [&](const boost::system::error_code& ec, std::size_t n) {
                                  done = true;
                                  result = ec;
                                  size = n;
                              });
    io.restart();
    io.run_for(timeout); // returns as soon as the handler has run
    if (!done) {
        boost::system::error_code ignored;
        socket.cancel(ignored); // completes the receive with operation_aborted
        io.restart();
        io.run();
    }
    if (!done || result) return std::nullopt;
    return size;
}

} // namespace snapshot::net
