// schema_export OUT_DIR: writes, for each type of the schema tests, its schema
// (netser::schema_json) and the cases the independent Python decoder must agree on:
// packets and bare payloads of known values, with the values netser's own reader gives
// back, and hostile packets (every bit flipped and re-CRCed, every truncation, a byte
// appended) with the error netser's reader reports, or the values it reads when it
// accepts one. For deltas (serialize_delta, delta packets) it writes pairs of values with
// the baseline as the reader holds it, the bytes, and what netser's reader makes of them
// (hostile ones included; a delta packet read against another baseline than its own, and
// one written against the initial baseline, a value-initialised T, at sequence 0). It also writes the pairs of schemas that
// tests/schema/test_diff.py compares, and a pcap file of real and hostile packets, plain
// and delta, for the Wireshark test, among them a hostile packet whose answer is the
// tools' own, their element budget's (also in SNode.hostile.json). Keyed deltas: Arena's
// states (spawns, despawns, moves, swap-removes) and Registry's (keys of every kind of
// code) as pairs and in the capture, and the keyed golden types of
// tests/delta/keyed_types.hpp.

#include "delta/delta_types.hpp"
#include "delta/keyed_types.hpp"
#include "packet/packet_types.hpp"
#include "reflect/test_types.hpp"
#include "schema/diff_types.hpp"
#include "schema/schema_types.hpp"

#include <netser/netser.hpp>
#include <netser/sequence.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;
using netser::detail::pack_of;

// ---- decoded values as JSON (docs/schema.md section 8) --------------------------------

const netser::link_context* links = nullptr; // for linked members

void append_hex(std::string& out, std::uint64_t v, int digits) {
    for (int i = digits - 1; i >= 0; --i) out += "0123456789abcdef"[(v >> (4 * i)) & 0xf];
}

// A JSON string, escaped as schema_json escapes it.
void quoted(std::string& out, std::string_view s) {
    netser::detail::json_writer<> w;
    w.string(s);
    out += w.text;
}

// Valid UTF-8, NUL bytes allowed (docs/schema.md section 8: a raw_bytes string that is
// valid UTF-8 prints as text): netser::is_valid_string on each piece between NULs.
bool valid_utf8(std::string_view s) {
    for (std::size_t start = 0;;) {
        const std::size_t nul = s.find('\0', start);
        if (!netser::is_valid_string(s.substr(start, nul == std::string_view::npos ? nul : nul - start))) return false;
        if (nul == std::string_view::npos) return true;
        start = nul + 1;
    }
}

template <class F>
void print_float(std::string& out, F v) {
    using Bits = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
    if (v != v) {
        out += "\"nan(0x";
        append_hex(out, std::bit_cast<Bits>(v), 2 * sizeof(F));
        out += ")\"";
    } else if (v > std::numeric_limits<F>::max() || v < -std::numeric_limits<F>::max()) {
        out += v > 0 ? "\"inf\"" : "\"-inf\"";
    } else {
        char buf[64];
        const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(v));
        const std::string_view text(buf, static_cast<std::size_t>(r.ptr - buf));
        out += text;
        if (text.find_first_of(".e") == std::string_view::npos) out += ".0";
    }
}

template <class I>
void print_integer(std::string& out, I v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// The schema's name of a variant alternative (docs/schema.md: the second struct met
// under a name already taken is Name#2; Hold meets schema_types::Cargo first).
template <class T>
std::string alternative_name() {
    if constexpr (std::is_same_v<T, schema_types::other::Cargo>) return "Cargo#2";
    else if constexpr (netser::detail::described<T>) return std::string(netser::detail::description_of<T>.name);
    else if constexpr (std::is_arithmetic_v<T>) return std::string(netser::detail::wire_scalar_name<T>());
    else return "?";
}

template <class P, class T>
void print_value(std::string& out, const T& v);

/// A codec that states its wire: what it writes, read back field by field through the
/// wire it states (docs/schema.md: "wire").
template <std::size_t N, class Write>
void print_wire(std::string& out, const netser::wire_layout<N>& layout, Write&& write) {
    std::array<std::byte, 64> buffer{};
    netser::write_stream w(buffer);
    if (!write(w)) throw std::runtime_error("a user codec failed to write");
    netser::read_stream r(w.finish());
    std::array<std::uint64_t, N> codes{};
    if (!netser::serialize_wire(r, layout, codes) || r.bits_processed() != w.bits_processed())
        throw std::runtime_error("a user codec's bits did not read back through its wire");
    out += '{';
    for (std::size_t i = 0; i < N; ++i) {
        const netser::wire_field& f = layout.fields[i];
        if (i) out += ", ";
        quoted(out, std::string(f.name));
        out += ": ";
        switch (f.as) {
        case netser::wire_field::kind::flag: out += codes[i] ? "true" : "false"; break;
        case netser::wire_field::kind::integer: print_integer(out, f.min + static_cast<std::int64_t>(codes[i])); break;
        case netser::wire_field::kind::quantized: print_float(out, f.q.decode(static_cast<std::uint32_t>(codes[i]))); break;
        default: print_integer(out, codes[i]);
        }
    }
    out += '}';
}

template <class C>
void print_members(std::string& out, const C& obj, bool& first);

template <class P, class T>
void print_value(std::string& out, const T& v) {
    using A = pack_of<P>;
    if constexpr (A::template user_codec_for<T>()) {
        constexpr auto& a = P::value.user();
        constexpr std::string_view tag = a.schema_tag();
        if constexpr (tag == "linked" || tag == "linked_strict") {
            const std::uint32_t id = v == nullptr ? 0 : links->id_of(v);
            if (id == 0) out += "null";
            else print_integer(out, id);
        } else if constexpr (tag == "smallest_three" || tag == "unit_quaternion" || tag == "unit_vector") {
            if constexpr (requires { v.x; }) {
                out += "{\"x\": ";
                print_float(out, v.x);
                out += ", \"y\": ";
                print_float(out, v.y);
                out += ", \"z\": ";
                print_float(out, v.z);
                if constexpr (requires { v.w; }) {
                    out += ", \"w\": ";
                    print_float(out, v.w);
                }
                out += '}';
            } else {
                out += '[';
                for (std::size_t i = 0; i < v.size(); ++i) {
                    if (i) out += ", ";
                    print_float(out, v[i]);
                }
                out += ']';
            }
        } else if constexpr (requires { a.wire(); }) {
            print_wire(out, a.wire(), [&](netser::write_stream& w) {
                T copy = v;
                return a.serialize(w, copy);
            });
        } else {
            // An opaque fixed-width codec: its code, as the codec writes it.
            std::array<std::byte, 16> buffer{};
            netser::write_stream w(buffer);
            T copy = v;
            a.serialize(w, copy);
            netser::read_stream r(w.finish());
            std::uint64_t code = 0;
            if (!r.process_bits(code, static_cast<int>(a.max_bits())))
                throw std::runtime_error("a user attribute's bits did not read back");
            out += "{\"code\": ";
            print_integer(out, code);
            out += ", \"bits\": ";
            print_integer(out, a.max_bits());
            out += '}';
        }
    } else if constexpr (std::is_same_v<T, bool>) {
        out += v ? "true" : "false";
    } else if constexpr (std::is_enum_v<T>) {
        if constexpr (netser::detail::is_described_enum<T>) {
            const char* name = boost::describe::enum_to_string(v, nullptr);
            quoted(out, name ? name : "?");
        } else {
            print_integer(out, static_cast<std::underlying_type_t<T>>(v));
        }
    } else if constexpr (std::is_integral_v<T>) {
        print_integer(out, v);
    } else if constexpr (std::is_floating_point_v<T>) {
        print_float(out, v);
    } else if constexpr (netser::detail::has_attr<P, netser::attr_kind::sparse>) {
        using EP = netser::detail::without<P, netser::attr_kind::sparse, netser::attr_kind::max_size>;
        out += '[';
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            if (v[i]) print_value<EP>(out, *v[i]);
            else out += "null";
        }
        out += ']';
    } else if constexpr (std::is_array_v<T> || netser::detail::is_std_array<T>::value) {
        out += '[';
        bool first = true;
        for (const auto& e : v) {
            if (!first) out += ", ";
            first = false;
            print_value<P>(out, e);
        }
        out += ']';
    } else if constexpr (netser::detail::is_string<T>) {
        if (valid_utf8(v)) {
            quoted(out, v);
        } else {
            out += "{\"bytes\": \"";
            for (char c : v) append_hex(out, static_cast<unsigned char>(c), 2);
            out += "\"}";
        }
    } else if constexpr (netser::detail::is_vector<T>::value || netser::detail::is_set<T>::value) {
        using EP = netser::detail::without<P, netser::attr_kind::max_size, netser::attr_kind::keyed>;
        out += '[';
        bool first = true;
        for (const auto& e : v) {
            if (!first) out += ", ";
            first = false;
            using E = std::remove_cvref_t<decltype(e)>;
            const E copy = e; // vector<bool>'s proxies
            print_value<EP>(out, copy);
        }
        out += ']';
    } else if constexpr (netser::detail::is_map<T>::value) {
        using EP = netser::detail::without<P, netser::attr_kind::max_size>;
        out += '[';
        bool first = true;
        for (const auto& [key, value] : v) {
            if (!first) out += ", ";
            first = false;
            out += '[';
            print_value<netser::detail::no_attrs>(out, key);
            out += ", ";
            print_value<EP>(out, value);
            out += ']';
        }
        out += ']';
    } else if constexpr (netser::detail::is_optional<T>::value || netser::detail::is_unique_ptr<T>::value) {
        if (v) print_value<P>(out, *v);
        else out += "null";
    } else if constexpr (netser::detail::is_variant<T>::value) {
        out += "{\"index\": ";
        print_integer(out, v.index());
        std::visit(
            [&](const auto& alternative) {
                using E = std::remove_cvref_t<decltype(alternative)>;
                out += ", \"alternative\": ";
                quoted(out, alternative_name<E>());
                out += ", \"value\": ";
                print_value<netser::detail::no_attrs>(out, alternative);
            },
            v);
        out += '}';
    } else if constexpr (requires { netser_wire(static_cast<const T*>(nullptr)); }) {
        print_wire(out, netser_wire(static_cast<const T*>(nullptr)), [&](netser::write_stream& w) {
            T copy = v;
            return netser::detail::adl::call(w, copy);
        });
    } else if constexpr (netser::detail::adl::has_serialize<netser::measure_stream, T>) {
        std::array<std::byte, 16> buffer{};
        netser::write_stream w(buffer);
        T copy = v;
        netser::detail::adl::call(w, copy);
        netser::read_stream r(w.finish());
        const std::size_t bits = netser_max_bits(static_cast<const T*>(nullptr));
        std::uint64_t code = 0;
        if (!r.process_bits(code, static_cast<int>(bits))) throw std::runtime_error("a user codec's bits did not read back");
        out += "{\"code\": ";
        print_integer(out, code);
        out += ", \"bits\": ";
        print_integer(out, bits);
        out += '}';
    } else if constexpr (netser::detail::described<T>) {
        out += '{';
        bool first = true;
        if constexpr (pack_of<P>::size != 0) {
            // Attributes applied to every member: all of them are on the wire.
            [&]<std::size_t... I>(std::index_sequence<I...>) {
                ((out += first ? "" : ", ", first = false, quoted(out, netser::detail::member_at<T, I>::name),
                  out += ": ", print_value<P>(out, v.*netser::detail::member_at<T, I>::pointer)),
                 ...);
            }(netser::detail::member_indices<T>{});
        } else {
            print_members(out, v, first);
        }
        out += '}';
    } else if constexpr (std::is_aggregate_v<T>) {
        out += '{';
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            ((out += I == 0 ? "\"field" : ", \"field", out += std::to_string(I), out += "\": ",
              print_value<P>(out, boost::pfr::get<I>(v))),
             ...);
        }(std::make_index_sequence<boost::pfr::tuple_size_v<T>>{});
        out += '}';
    } else {
        static_assert(netser::detail::always_false<T>, "no printer for this type");
    }
}

// A described struct's members as they went on the wire: bases first, then its own;
// skipped members and those whose only_if flag is false are absent. (Functions, not
// lambdas in folds: clang 14 crashes on those.)
template <class C, std::size_t I>
void print_member(std::string& out, const C& obj, bool& first) {
    using D = netser::detail::member_at<C, I>;
    using P = netser::detail::member_attrs<C, I>;
    if constexpr (!netser::detail::has_attr<P, netser::attr_kind::skip>) {
        if constexpr (netser::detail::has_attr<P, netser::attr_kind::only_if>) {
            constexpr auto flag = P::value.template get<netser::attr_kind::only_if>().flag;
            if (!(obj.*flag)) return;
        }
        if (!first) out += ", ";
        first = false;
        quoted(out, D::name);
        out += ": ";
        print_value<netser::detail::without<P, netser::attr_kind::only_if, netser::attr_kind::check>>(out,
                                                                                                       obj.*D::pointer);
    }
}

template <class C, std::size_t... I>
void print_member_list(std::string& out, const C& obj, bool& first, std::index_sequence<I...>) {
    (print_member<C, I>(out, obj, first), ...);
}

template <class C>
void print_members(std::string& out, const C& obj, bool& first) {
    boost::mp11::mp_for_each<netser::detail::described_bases<C>>([&](auto b) {
        using B = typename decltype(b)::type;
        print_members(out, static_cast<const B&>(obj), first);
    });
    print_member_list(out, obj, first, netser::detail::member_indices<C>{});
}

template <class T>
std::string value_json(const T& v) {
    std::string out;
    print_value<netser::detail::no_attrs>(out, v);
    return out;
}

// ---- cases ---------------------------------------------------------------------------------

std::string hex_of(std::span<const std::byte> bytes) {
    std::string out;
    for (std::byte b : bytes) {
        if (!out.empty()) out += ' ';
        append_hex(out, std::to_integer<unsigned>(b), 2);
    }
    return out;
}

std::string error_json(const netser::error& e, std::string_view root) {
    std::string out = "{\"ok\": false, \"error\": ";
    quoted(out, netser::to_string(e.code));
    out += ", \"bit\": ";
    print_integer(out, e.bit);
    out += ", \"path\": ";
    quoted(out, e.path());
    out += ", \"cpp_root\": ";
    quoted(out, root);
    out += '}';
    return out;
}

struct case_writer {
    std::string text;
    std::size_t count = 0;

    void add(std::string_view name, std::string_view mode, std::optional<std::uint32_t> protocol_id,
             std::span<const std::byte> bytes, const std::string& expect) {
        text += count++ ? ",\n" : "";
        text += "  {\"name\": ";
        quoted(text, name);
        text += ", \"mode\": ";
        quoted(text, mode);
        text += ", \"protocol_id\": ";
        if (protocol_id) print_integer(text, *protocol_id);
        else text += "null";
        text += ", \"hex\": \"";
        text += hex_of(bytes);
        text += "\",\n   \"expect\": ";
        text += expect;
        text += '}';
    }
};

template <class T>
std::size_t measured(const T& v) {
    netser::measure_stream m;
    m.set_context(const_cast<netser::link_context*>(links));
    if (!netser::serialize(m, v)) {
        std::cerr << "measure failed: " << m.error().path() << "\n";
        std::exit(1);
    }
    return m.bits_processed();
}

// netser's refusal e, as the decoder's output. When it is too_large under the default
// allocation budget, "unbounded" adds what netser reads without a budget (retry(SIZE_MAX)):
// the tools count elements, not bytes, and read that far (docs/schema.md section 7).
template <class T, class Retry>
std::string refusal_json(const netser::error& e, std::optional<std::size_t> max_allocation, Retry retry) {
    std::string out = error_json(e, netser::detail::root_name<T>());
    if (e.code != netser::errc::too_large || max_allocation) return out;
    out.pop_back();
    return out + ", \"unbounded\": " + retry(SIZE_MAX) + '}';
}

// What netser's read_packet makes of a packet, as the decoder's output.
template <class T>
std::string read_packet_json(std::span<const std::byte> packet, std::optional<std::uint32_t> protocol_id,
                             std::optional<std::size_t> bits, std::optional<std::size_t> max_allocation = {}) {
    T got{};
    netser::packet_options options;
    options.protocol_id = protocol_id;
    options.max_allocation = max_allocation;
    const netser::error e = netser::read_packet(packet, got, options);
    if (e)
        return refusal_json<T>(e, max_allocation,
                               [&](std::size_t m) { return read_packet_json<T>(packet, protocol_id, bits, m); });
    std::string out = "{\"ok\": true, \"value\": " + value_json(got);
    if (bits) out += ", \"bits\": " + std::to_string(*bits);
    return out + "}";
}

template <class T>
std::string read_payload_json(std::span<const std::byte> payload, std::optional<std::size_t> bits,
                              std::optional<std::size_t> max_allocation = {}) {
    T got{};
    netser::read_stream r(payload);
    r.set_context(const_cast<netser::link_context*>(links));
    if (max_allocation) r.set_max_allocation(*max_allocation);
    if (!netser::serialize(r, got))
        return refusal_json<T>(r.error(), max_allocation,
                               [&](std::size_t m) { return read_payload_json<T>(payload, bits, m); });
    std::string out = "{\"ok\": true, \"value\": " + value_json(got);
    if (bits) out += ", \"bits\": " + std::to_string(*bits);
    return out + "}";
}

// Every bit flipped (for long packets, every 7th) and re-CRCed, every truncation, a
// byte appended: whatever netser's reader says about each is what the decoder must say.
template <class T>
void hostile_cases(case_writer& cases, std::string_view name, const std::vector<std::byte>& packet,
                   std::optional<std::uint32_t> protocol_id) {
    const std::uint32_t id = protocol_id ? *protocol_id : netser::schema_hash<T>();
    const std::size_t step = packet.size() <= 48 ? 1 : 7;
    for (std::size_t bit = 32; bit < 8 * packet.size(); bit += step) {
        std::vector<std::byte> forged = packet;
        forged[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
        packet_test::recrc(forged, id);
        cases.add(std::string(name) + " flip " + std::to_string(bit), "packet", protocol_id, forged,
                  read_packet_json<T>(forged, protocol_id, std::nullopt));
    }
    const std::size_t cut_step = packet.size() <= 48 ? 1 : 5;
    for (std::size_t n = 0; n < packet.size(); n += cut_step) {
        std::vector<std::byte> cut(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(n));
        if (n >= 4) packet_test::recrc(cut, id);
        cases.add(std::string(name) + " cut " + std::to_string(n), "packet", protocol_id, cut,
                  read_packet_json<T>(cut, protocol_id, std::nullopt));
    }
    std::vector<std::byte> longer = packet;
    longer.push_back(std::byte{0});
    packet_test::recrc(longer, id);
    cases.add(std::string(name) + " appended", "packet", protocol_id, longer,
              read_packet_json<T>(longer, protocol_id, std::nullopt));
    std::vector<std::byte> damaged = packet;
    damaged[0] ^= std::byte{1};
    cases.add(std::string(name) + " bad crc", "packet", protocol_id, damaged,
              read_packet_json<T>(damaged, protocol_id, std::nullopt));
}

void write_file(const fs::path& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
    if (!f) {
        std::cerr << "cannot write " << path << "\n";
        std::exit(1);
    }
}

std::vector<std::byte> packet_bytes(std::span<const std::byte> bytes) { return {bytes.begin(), bytes.end()}; }

struct captured_packet {
    std::uint16_t port;
    std::vector<std::byte> bytes;
    std::string expect; // the decoder's output for it
    bool delta = false;
};
std::vector<captured_packet> capture;
std::vector<std::byte> buffer_for_capture(8192);

/// The schema of T and its cases: each value as a packet (and its hostile variants), with
/// the default protocol id unless one is given, or as a bare payload.
template <class T>
void export_type(const fs::path& dir, std::string_view name, std::vector<T> values, bool as_packets = true,
                 std::optional<std::uint32_t> protocol_id = std::nullopt, std::uint16_t port = 0) {
    write_file(dir / (std::string(name) + ".schema.json"), netser::schema_json<T>());
    case_writer cases;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const T& v = values[i];
        const std::string case_name = std::string(name) + " #" + std::to_string(i);
        std::vector<std::byte> buffer(8192);
        const std::size_t bits = measured(v);
        if (as_packets) {
            netser::packet_options options;
            options.protocol_id = protocol_id;
            const auto w = netser::write_packet(std::span<std::byte>(buffer), v, options);
            if (w.error) {
                std::cerr << case_name << ": write_packet failed: " << netser::to_string(w.error.code) << " in "
                          << w.error.path() << "\n";
                std::exit(1);
            }
            const auto packet = packet_bytes(w.bytes);
            const std::string expect = read_packet_json<T>(packet, protocol_id, bits);
            cases.add(case_name, "packet", protocol_id, packet, expect);
            if (port != 0) capture.push_back({port, packet, expect});
            if (i < 3) hostile_cases<T>(cases, case_name, packet, protocol_id);
        }
        netser::write_stream w(buffer);
        w.set_context(const_cast<netser::link_context*>(links));
        if (!netser::serialize(w, v)) {
            std::cerr << case_name << ": write failed in " << w.error().path() << "\n";
            std::exit(1);
        }
        const auto payload = packet_bytes(w.finish());
        cases.add(case_name + " payload", "payload", std::nullopt, payload, read_payload_json<T>(payload, bits));
    }
    write_file(dir / (std::string(name) + ".cases.json"),
               "{\"schema\": \"" + std::string(name) + ".schema.json\", \"cases\": [\n" + cases.text + "\n]}\n");
}

// ---- delta cases ---------------------------------------------------------------------------

/// What a reader holds after reading v: the baseline of a delta.
template <class T>
void received_into(const T& v, T& out) {
    const netser::error e = netser::as_received(v, out, const_cast<netser::link_context*>(links));
    if (e) {
        std::cerr << "as_received failed: " << netser::to_string(e.code) << " in " << e.path() << "\n";
        std::exit(1);
    }
}

/// A delta packet's header as the decoder prints it: the two sequence numbers and the
/// baseline fingerprint.
std::string header_json(const netser::delta_header& h, std::uint32_t fingerprint) {
    return "{\"sequence\": " + std::to_string(h.sequence) + ", \"baseline\": " + std::to_string(h.baseline) +
           ", \"baseline_fingerprint\": " + std::to_string(fingerprint) + "}";
}

// The decoder's output with "header" added after "ok" (a JSON object's text).
template <class T>
std::string with_header(const std::string& out, const netser::delta_packet_reader<T>& reader) {
    const std::size_t comma = out.find(',');
    return out.substr(0, comma) + ", \"header\": " + header_json(reader.header(), reader.baseline_fingerprint()) +
           out.substr(comma);
}

/// What netser's serialize_delta reads from a bare delta body against base.
template <class T>
std::string read_delta_json(std::span<const std::byte> body, const T& base, std::optional<std::size_t> bits,
                            std::optional<std::size_t> max_allocation = {}) {
    T got{};
    netser::read_stream r(body);
    r.set_context(const_cast<netser::link_context*>(links));
    if (max_allocation) r.set_max_allocation(*max_allocation);
    if (!netser::serialize_delta(r, got, base))
        return refusal_json<T>(r.error(), max_allocation,
                               [&](std::size_t m) { return read_delta_json(body, base, bits, m); });
    std::string out = "{\"ok\": true, \"value\": " + value_json(got);
    if (bits) out += ", \"bits\": " + std::to_string(*bits);
    return out + "}";
}

/// What netser's delta_packet_reader makes of a delta packet, base being the baseline its
/// header names (the header is part of the answer when it was read).
template <class T>
std::string read_delta_packet_json(std::span<const std::byte> packet, const T& base,
                                   std::optional<std::uint32_t> protocol_id, std::optional<std::size_t> bits,
                                   std::optional<std::size_t> max_allocation = {}) {
    netser::packet_options options;
    options.protocol_id = protocol_id;
    options.context = const_cast<netser::link_context*>(links);
    options.max_allocation = max_allocation;
    netser::delta_packet_reader<T> reader(packet, options);
    if (reader.error()) return error_json(reader.error(), netser::detail::root_name<T>());
    T got{};
    const netser::error e = reader.read(got, &base);
    if (e)
        return with_header(refusal_json<T>(e, max_allocation,
                                           [&](std::size_t m) {
                                               return read_delta_packet_json(packet, base, protocol_id, bits, m);
                                           }),
                           reader);
    std::string out = "{\"ok\": true, \"value\": " + value_json(got);
    if (bits) out += ", \"bits\": " + std::to_string(*bits);
    return with_header(out + "}", reader);
}

template <class T>
std::vector<std::byte> delta_body(const T& obj, const T& base, std::size_t& bits) {
    std::vector<std::byte> buffer(1 << 16);
    netser::write_stream w(buffer);
    w.set_context(const_cast<netser::link_context*>(links));
    if (!netser::serialize_delta(w, obj, base)) {
        std::cerr << "serialize_delta failed: " << netser::to_string(w.error().code) << " in " << w.error().path() << "\n";
        std::exit(1);
    }
    bits = w.bits_processed();
    return packet_bytes(w.finish());
}

template <class T>
std::vector<std::byte> delta_packet_of(const T& obj, const T& base, netser::delta_header h,
                                       std::optional<std::uint32_t> protocol_id) {
    netser::packet_options options;
    options.protocol_id = protocol_id;
    options.context = const_cast<netser::link_context*>(links);
    std::vector<std::byte> out;
    const auto w = netser::write_delta_packet(out, h, obj, base, options);
    if (w.error) {
        std::cerr << "write_delta_packet failed: " << netser::to_string(w.error.code) << " in " << w.error.path() << "\n";
        std::exit(1);
    }
    return out;
}

/// A delta case: the bytes, the baseline's value as the decoder would print it, and
/// what netser reads.
struct delta_case_writer {
    std::string text;
    std::size_t count = 0;
    void add(std::string_view name, std::string_view mode, std::optional<std::uint32_t> protocol_id,
             std::span<const std::byte> bytes, const std::string& baseline, const std::string& expect) {
        text += count++ ? ",\n" : "";
        text += "  {\"name\": ";
        quoted(text, name);
        text += ", \"mode\": ";
        quoted(text, mode);
        text += ", \"protocol_id\": ";
        if (protocol_id) print_integer(text, *protocol_id);
        else text += "null";
        text += ", \"hex\": \"" + hex_of(bytes) + "\",\n   \"baseline\": " + baseline + ",\n   \"expect\": " + expect + '}';
    }
};

/// <name>.delta.json: each pair (value, baseline) as a bare delta body and as a delta
/// packet; for the first pairs (unless `hostile` is false), every bit of the body flipped
/// and every cut, and packets damaged (flips and cuts under a recomputed CRC, a byte
/// appended, a bad CRC, a plain packet).
template <class T>
void export_delta(const fs::path& dir, std::string_view name, const std::vector<std::pair<const T*, const T*>>& pairs,
                  bool packets = true, bool hostile = true, std::optional<std::uint32_t> protocol_id = std::nullopt) {
    write_file(dir / (std::string(name) + ".schema.json"), netser::schema_json<T>());
    delta_case_writer cases;
    const std::uint32_t id = (protocol_id ? *protocol_id : netser::schema_hash<T>()) ^ netser::delta_packet_salt;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const T& obj = *pairs[i].first;
        T base;
        received_into(*pairs[i].second, base);
        const std::string base_json = value_json(base);
        const std::string case_name = std::string(name) + " delta #" + std::to_string(i);
        std::size_t bits = 0;
        const auto body = delta_body(obj, base, bits);
        cases.add(case_name, "delta_payload", std::nullopt, body, base_json, read_delta_json(body, base, bits));
        if (hostile && i < 2) {
            const std::size_t step = body.size() <= 24 ? 1 : 7;
            for (std::size_t bit = 0; bit < 8 * body.size(); bit += step) {
                auto flipped = body;
                flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
                cases.add(case_name + " flip " + std::to_string(bit), "delta_payload", std::nullopt, flipped, base_json,
                          read_delta_json(flipped, base, std::nullopt));
            }
            for (std::size_t n = 0; n < body.size(); ++n) {
                const std::span<const std::byte> cut(body.data(), n);
                cases.add(case_name + " cut " + std::to_string(n), "delta_payload", std::nullopt, cut, base_json,
                          read_delta_json(cut, base, std::nullopt));
            }
        }
        if (!packets) continue;
        const netser::delta_header h{static_cast<std::uint16_t>(i + 1), static_cast<std::uint16_t>(i)};
        const auto packet = delta_packet_of(obj, base, h, protocol_id);
        cases.add(case_name + " packet", "delta_packet", protocol_id, packet, base_json,
                  read_delta_packet_json(packet, base, protocol_id, netser::delta_header_bits + bits));
        if (i == 0 && netser::baseline_fingerprint(T{})) {
            // Against the initial baseline (sequence 0), a value-initialised T as a
            // baseline_ring holds it: the first packet of a session.
            T initial;
            received_into(T{}, initial);
            const auto first = delta_packet_of(obj, initial, {1, netser::initial_sequence}, protocol_id);
            cases.add(case_name + " packet initial baseline", "delta_packet", protocol_id, first, value_json(initial),
                      read_delta_packet_json(first, initial, protocol_id, std::nullopt));
        }
        if (hostile && i < 2) {
            const std::size_t step = packet.size() <= 40 ? 1 : 5;
            for (std::size_t bit = 32; bit < 8 * packet.size(); bit += step) {
                auto flipped = packet;
                flipped[bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
                packet_test::recrc(flipped, id);
                cases.add(case_name + " packet flip " + std::to_string(bit), "delta_packet", protocol_id, flipped,
                          base_json, read_delta_packet_json(flipped, base, protocol_id, std::nullopt));
            }
            for (std::size_t n = 0; n < packet.size(); n += packet.size() <= 40 ? 1u : 3u) {
                std::vector<std::byte> cut(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(n));
                if (n >= 4) packet_test::recrc(cut, id);
                cases.add(case_name + " packet cut " + std::to_string(n), "delta_packet", protocol_id, cut, base_json,
                          read_delta_packet_json(cut, base, protocol_id, std::nullopt));
            }
            // Read against another baseline than its own: baseline_mismatch at bit 64,
            // unless that one has the same content (then the same fingerprint).
            const std::size_t other = (i + 1) % pairs.size();
            T wrong;
            received_into(pairs[other].second != pairs[i].second ? *pairs[other].second : *pairs[other].first, wrong);
            cases.add(case_name + " packet wrong baseline", "delta_packet", protocol_id, packet, value_json(wrong),
                      read_delta_packet_json(packet, wrong, protocol_id, std::nullopt));
            auto longer = packet;
            longer.push_back(std::byte{0});
            packet_test::recrc(longer, id);
            cases.add(case_name + " packet appended", "delta_packet", protocol_id, longer, base_json,
                      read_delta_packet_json(longer, base, protocol_id, std::nullopt));
            auto damaged = packet;
            damaged[0] ^= std::byte{1};
            cases.add(case_name + " packet bad crc", "delta_packet", protocol_id, damaged, base_json,
                      read_delta_packet_json(damaged, base, protocol_id, std::nullopt));
            // A plain packet of the same value is not a delta packet (its CRC is another id's).
            std::vector<std::byte> plain;
            netser::packet_options options;
            options.protocol_id = protocol_id;
            options.context = const_cast<netser::link_context*>(links);
            if (!netser::write_packet(plain, obj, options).error)
                cases.add(case_name + " plain packet", "delta_packet", protocol_id, plain, base_json,
                          read_delta_packet_json(plain, base, protocol_id, std::nullopt));
        }
    }
    write_file(dir / (std::string(name) + ".delta.json"),
               "{\"schema\": \"" + std::string(name) + ".schema.json\", \"cases\": [\n" + cases.text + "\n]}\n");
}

/// Every ordered pair of values (each against each, itself included).
template <class T>
std::vector<std::pair<const T*, const T*>> all_pairs(const std::vector<T>& values) {
    std::vector<std::pair<const T*, const T*>> out;
    for (const T& a : values)
        for (const T& b : values) out.emplace_back(&a, &b);
    return out;
}

// ---- the values ----------------------------------------------------------------------------

std::vector<reflect_test::Player> players() {
    std::mt19937 rng(7);
    std::vector<reflect_test::Player> out;
    out.push_back({100, 0, 1000, true, 25, reflect_test::Weapon::rifle, "bob", {1, 2, 3}, 5});
    for (int i = 0; i < 6; ++i) out.push_back(reflect_test::random_player(rng));
    return out;
}

std::vector<schema_types::Kitchen> kitchens() {
    using namespace schema_types;
    std::vector<Kitchen> out;
    out.emplace_back();
    Kitchen k;
    k.offset = -16;
    k.flags = 0xFFFFF;
    k.big = ~std::uint64_t{0} - 5;
    k.raw64 = -1234567890123456789;
    k.small[0] = -128;
    k.small[1] = 0;
    k.small[2] = 127;
    k.when = 1.0 / 3.0;
    k.speed = 12.34f;
    k.ratio = 0.25f;
    k.temp = 20.5f;
    k.sparse_enum = Sparse::c;
    k.by_range = Raw::hi;
    k.by_bits = static_cast<Raw>(255);
    k.name = "h\xc3\xa9llo";
    k.blob = std::string("\x00\xff\x80", 3);
    k.switches = {true, false, true, true};
    k.scores = {{1, -100}, {7, 100}, {200, 0}};
    k.ids = {0, 999, 500};
    k.cargo = std::make_unique<Cargo>(Cargo{42, true});
    k.target = -5;
    k.grid = {{{0, 1}, {2, 3}}};
    k.cache = 77;
    k.after_check = 1000;
    k.packed.v = 0xABC;
    k.angle = 0.5f;
    k.weapons = {Weapon::rocket, Weapon::pistol};
    out.push_back(std::move(k));
    Kitchen n;
    n.ratio = 1.0f;
    n.temp = -39.75f;
    n.speed = 25.f; // clamps to 20
    n.when = -0.0;
    n.name = std::string(12, 'z');
    n.by_range = static_cast<Raw>(17);
    out.push_back(std::move(n));
    return out;
}

std::vector<schema_types::Rotations> rotations() {
    using namespace schema_types;
    std::vector<Rotations> out;
    out.emplace_back();
    std::mt19937_64 rng(11);
    for (int i = 0; i < 5; ++i) {
        std::uniform_real_distribution<double> u(0.0, 1.0);
        auto quat = [&] {
            const double u1 = u(rng), u2 = u(rng), u3 = u(rng), two_pi = 6.283185307179586;
            const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
            return std::array<float, 4>{static_cast<float>(a * std::sin(two_pi * u2)),
                                        static_cast<float>(a * std::cos(two_pi * u2)),
                                        static_cast<float>(b * std::sin(two_pi * u3)),
                                        static_cast<float>(b * std::cos(two_pi * u3))};
        };
        Rotations r;
        const auto qa = quat(), qb = quat();
        r.a = {qa[0], qa[1], qa[2], qa[3]};
        r.b = {qb[0], qb[1], qb[2], -std::fabs(qb[3])};
        r.c = quat();
        const auto d = quat();
        r.dir = {d[0], d[1], -std::fabs(d[2])};
        r.dir2 = {d[3], d[2], d[1]};
        out.push_back(r);
    }
    return out;
}

std::vector<schema_types::Slots> slots() {
    using namespace schema_types;
    std::vector<Slots> out;
    out.emplace_back();
    Slots s;
    const int at[] = {0, 3, 13, 33, 73, 173, 373};
    const std::uint8_t values[] = {5, 0, 15, 9, 1, 2, 12};
    for (int i = 0; i < 7; ++i) s.fixed[static_cast<std::size_t>(at[i])] = values[i];
    s.grow.resize(150);
    s.grow[1] = 1023;
    s.grow[140] = 7;
    out.push_back(s);
    Slots full;
    for (std::size_t i = 0; i < 400; i += 2) full.fixed[i] = static_cast<std::uint8_t>(i % 16);
    full.grow.resize(200);
    full.grow[199] = 0;
    out.push_back(full);
    return out;
}

std::vector<schema_types::Mover> movers() {
    using namespace schema_types;
    std::vector<Mover> out;
    Mover a;
    a.id = 17;
    a.moving = true;
    a.vx = -12.345f;
    a.pos = {1.25f, -99.5f, 100.f};
    out.push_back(a);
    Mover b;
    b.id = 4095;
    b.vx = 33.f; // not sent
    b.pos = {0.1f, 0.2f, 0.3f};
    out.push_back(b);
    return out;
}

schema_types::Tree tree(int depth, int seed) {
    schema_types::Tree t;
    t.value = static_cast<std::uint8_t>(seed % 201);
    if (depth > 0)
        for (int i = 0; i < (seed % 3) + 1; ++i) t.kids.push_back(tree(depth - 1, seed * 7 + i + 1));
    return t;
}

std::vector<schema_types::SNode> snodes() {
    using schema_types::SNode;
    std::vector<SNode> out(1);
    SNode s;
    s.kids.resize(300);
    s.kids[2] = SNode{};
    s.kids[2]->kids.resize(4);
    s.kids[2]->kids[3] = SNode{};
    s.kids[299] = SNode{};
    out.push_back(s);
    SNode t; // 30000 slots of 32 bytes: under netser's allocation budget for a small packet
    t.kids.resize(30000);
    t.kids[29999] = s;
    out.push_back(std::move(t));
    return out;
}

std::vector<schema_types::Dash> dashes() {
    using schema_types::Dash;
    std::vector<Dash> out(3);
    out[1] = {200, {-1.f, true, 5, 2}, {31, 63, 31}, {{0, 0, 0}, {1, 2, 3}}};
    out[2] = {17, {0.337f, false, -1, 1}, {16, 32, 8}, {{5, 6, 7}, {31, 0, 31}, {0, 63, 0}}};
    return out;
}

std::vector<schema_types::Maß> masses() {
    return {{7, true, 999}, {200, false, std::nullopt}, {0, true, 0}};
}

std::vector<schema_types::Hold> holds() {
    using namespace schema_types;
    std::vector<Hold> out;
    out.push_back({{3, true}, {-4}, Cargo{99, false}});
    out.push_back({{100, false}, {127}, other::Cargo{-128}});
    out.push_back({{0, false}, {0}, std::uint16_t{65535}});
    return out;
}

/// Arena's states, one after another: spawns and changes, despawns (erased in place), a
/// spawn in the middle of a list kept sorted by id, a swap-remove, a reordered list with
/// spawns and many changes, then everything despawned.
std::vector<schema_types::Arena> arenas() {
    using namespace schema_types;
    std::vector<Arena> out(7);
    Arena& a = out[0];
    a.stores = {{1, {10, false}}, {5, {50, true}}};
    a.scores = {{3, -5}, {9, 100}};
    a.tags = {-1, 4, 7};
    a.npcs = {{100, 50, true}, {200, 60, true}, {300, 70, false}};
    a.pads[2] = Cargo{7, false};
    a.pads[10] = Cargo{20, true};
    a.lanes.resize(5);
    a.lanes[1] = 9;
    out[1] = out[0]; // spawns and changes
    Arena& b = out[1];
    b.stores[8] = {80, false};
    b.stores[1].gold = 11;
    b.scores[3] = -4;
    b.tags.insert(-20);
    b.npcs[1].hp = 61;
    b.npcs.push_back({400, 40, true});
    b.pads[10]->gold = 21;
    b.pads[30] = Cargo{1, true};
    b.lanes[4] = 200;
    out[2] = out[1]; // despawns, erased in place
    Arena& c = out[2];
    c.stores.erase(5);
    c.scores.erase(9);
    c.scores[12] = 0;
    c.tags.erase(4);
    c.npcs.erase(c.npcs.begin() + 1);
    c.pads[2].reset();
    c.lanes.resize(8);
    c.lanes[7] = 3;
    out[3] = out[2]; // a spawn in the middle, the list sorted by id
    Arena& d = out[3];
    d.npcs.insert(d.npcs.begin() + 1, Npc{150, 100, true});
    d.tags.insert(-32768);
    d.tags.insert(32767);
    out[4] = out[3]; // a swap-remove: the last takes the first's place
    Arena& e = out[4];
    e.npcs.front() = e.npcs.back();
    e.npcs.pop_back();
    e.npcs[1].alive = false;
    e.lanes.resize(3);
    out[5] = out[4]; // reordered, spawns, many changes
    Arena& f = out[5];
    std::reverse(f.npcs.begin(), f.npcs.end());
    f.npcs.insert(f.npcs.begin() + 1, Npc{100000, 0, false});
    f.npcs.push_back({7, 1, true});
    f.npcs.push_back({8, 2, false});
    f.stores.erase(1);
    f.scores.erase(3);
    for (int k = 0; k < 7; ++k) {
        f.stores[static_cast<std::uint16_t>(k * 1000 + 2)] = {static_cast<std::uint8_t>(k * 12), k % 2 == 0};
        f.scores[static_cast<std::uint16_t>(65535 - k)] = static_cast<std::int16_t>(k * 25 - 100);
        f.tags.insert(static_cast<std::int16_t>(k * 5 - 20));
    }
    while (f.tags.size() > 8) f.tags.erase(f.tags.begin());
    for (std::size_t i = 0; i < 40; i += 3) f.pads[i] = Cargo{static_cast<std::uint8_t>(i), i % 2 == 1};
    f.lanes = std::vector<std::optional<std::uint8_t>>(30, std::uint8_t{5});
    out[6] = Arena{}; // everything despawned
    return out;
}

/// Registry's states: keys of every kind of code coming and going, bool slots flipping.
std::vector<schema_types::Registry> registries() {
    using namespace schema_types;
    std::vector<Registry> out(5);
    out[0].ammo = {{Weapon::pistol, 12}, {Weapon::rocket, 2}};
    out[0].flags = {false};
    out[0].marks = {{2.f, 1}, {-1.5f, 2}, {0.25f, 3}};
    out[0].near = {-50, 0, 17};
    out[0].lights[1] = false, out[0].lights[4] = true;
    out[1] = out[0];
    out[1].ammo[Weapon::pistol] = 11, out[1].ammo[Weapon::none] = 250, out[1].ammo.erase(Weapon::rocket);
    out[1].flags = {false, true};
    out[1].marks.erase(2.f), out[1].marks[-7.f] = 9, out[1].marks[0.25f] = 0;
    out[1].near.erase(0), out[1].near.insert(50), out[1].near.insert(-1);
    out[1].lights[1] = true, out[1].lights[4].reset(), out[1].lights[5] = false;
    out[2] = out[1];
    out[2].flags = {true};
    out[2].marks = {{1e30f, 4}, {-0.5f, 5}, {3.f, 6}, {-7.f, 9}, {0.f, 7}, {1.f, 8}};
    out[2].near = {-50, -49, 49, 50, 1};
    out[2].lights = {true, false, true, false, true, false};
    out[3] = out[2];
    out[3].ammo.clear();
    out[3].flags.clear();
    out[3].lights[0].reset(), out[3].lights[3] = true;
    out[4] = Registry{};
    return out;
}

std::vector<packet_test::Snapshot> snapshots() {
    std::vector<packet_test::Snapshot> out;
    for (std::uint32_t seed = 1; seed <= 6; ++seed) out.push_back(packet_test::make_snapshot(seed));
    return out;
}

// ---- the pcap file ---------------------------------------------------------------------------

void put16be(std::vector<unsigned char>& b, unsigned v) {
    b.push_back(static_cast<unsigned char>(v >> 8));
    b.push_back(static_cast<unsigned char>(v));
}
void put32le(std::vector<unsigned char>& b, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

/// The classic pcap format (magic a1b2c3d4, little-endian, Ethernet link type), each
/// datagram in Ethernet, IPv4 (header checksum computed) and UDP headers (checksum 0:
/// none, allowed over IPv4), 127.0.0.1:50000 -> 127.0.0.1:port.
void write_pcap(const fs::path& path, const std::vector<captured_packet>& packets) {
    std::vector<unsigned char> out;
    put32le(out, 0xa1b2c3d4u);
    out.push_back(2), out.push_back(0), out.push_back(4), out.push_back(0); // version 2.4
    put32le(out, 0);                                                        // thiszone
    put32le(out, 0);                                                        // sigfigs
    put32le(out, 65535);                                                    // snaplen
    put32le(out, 1);                                                        // LINKTYPE_ETHERNET
    std::uint32_t second = 1700000000;
    for (const auto& p : packets) {
        std::vector<unsigned char> frame;
        for (int i = 0; i < 12; ++i) frame.push_back(static_cast<unsigned char>(i < 6 ? 0x02 : 0x04)); // MACs
        put16be(frame, 0x0800);
        const std::size_t ip_start = frame.size();
        const auto udp_length = static_cast<unsigned>(8 + p.bytes.size());
        frame.push_back(0x45), frame.push_back(0);
        put16be(frame, 20 + udp_length);
        put16be(frame, 1), put16be(frame, 0x4000);                // id, don't fragment
        frame.push_back(64), frame.push_back(17), put16be(frame, 0); // ttl, UDP, checksum
        for (int i = 0; i < 2; ++i) frame.push_back(127), frame.push_back(0), frame.push_back(0), frame.push_back(1);
        std::uint32_t sum = 0;
        for (std::size_t i = ip_start; i < ip_start + 20; i += 2) sum += (unsigned{frame[i]} << 8) | frame[i + 1];
        while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
        frame[ip_start + 10] = static_cast<unsigned char>(~sum >> 8);
        frame[ip_start + 11] = static_cast<unsigned char>(~sum);
        put16be(frame, 50000), put16be(frame, p.port), put16be(frame, udp_length), put16be(frame, 0);
        for (std::byte b : p.bytes) frame.push_back(std::to_integer<unsigned char>(b));
        put32le(out, second++);
        put32le(out, 0);
        put32le(out, static_cast<std::uint32_t>(frame.size()));
        put32le(out, static_cast<std::uint32_t>(frame.size()));
        out.insert(out.end(), frame.begin(), frame.end());
    }
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(out.data()), static_cast<std::streamsize>(out.size()));
}

/// Hostile datagrams for the capture: damaged, truncated, forged with a good CRC.
template <class T>
void hostile_capture(std::uint16_t port, const T& value) {
    std::vector<std::byte> buffer(4096);
    const auto w = netser::write_packet(std::span<std::byte>(buffer), value);
    const auto packet = packet_bytes(w.bytes);
    const std::uint32_t id = netser::schema_hash<T>();
    auto add = [&](std::vector<std::byte> bytes) {
        capture.push_back({port, bytes, read_packet_json<T>(bytes, std::nullopt, std::nullopt)});
    };
    auto damaged = packet;
    damaged[5] ^= std::byte{0x10};
    add(damaged); // bad_crc
    auto cut = packet;
    cut.resize(cut.size() - 3);
    packet_test::recrc(cut, id);
    add(cut); // a good CRC over a truncated packet
    auto flipped = packet;
    flipped[4] ^= std::byte{0xff};
    packet_test::recrc(flipped, id);
    add(flipped); // a good CRC over a damaged payload
    add({packet.begin(), packet.begin() + 2}); // shorter than the CRC
    auto longer = packet;
    longer.push_back(std::byte{0x55});
    packet_test::recrc(longer, id);
    add(longer); // trailing bytes
    std::mt19937 rng(port);
    for (std::size_t n : {std::size_t{4}, std::size_t{5}, packet.size(), std::size_t{1198}}) {
        std::vector<std::byte> garbage(n);
        for (auto& b : garbage) b = static_cast<std::byte>(rng());
        packet_test::recrc(garbage, id);
        add(garbage); // noise under a good CRC
    }
}

/// The bits of a relative index of distance d among `max` slots (docs/wire_format.md 3.2),
/// written from the document.
void put_relative_index(netser_test::reference_writer& ref, std::int64_t d, std::int64_t max) {
    ref.put(d == 1 ? 1 : 0, 1);
    if (d == 1) return;
    constexpr std::array<std::pair<int, int>, 5> rungs{{{2, 5}, {6, 13}, {14, 29}, {30, 61}, {62, 125}}};
    for (const auto& [lo, hi] : rungs) {
        ref.put(d <= hi ? 1 : 0, 1);
        if (d <= hi) return ref.put(static_cast<std::uint64_t>(d - lo), netser::bits_required(lo, hi));
    }
    ref.put(static_cast<std::uint64_t>(d - 126), netser::bits_required(126, max + 1));
}

/// The hostile packet of issue 31, `size` bytes: SNode's sparse vector of 65535 slots
/// nested to netser's depth limit (64), each node holding only the next, the deepest
/// with as many empty children as fit. netser without an allocation budget spends 2 MiB
/// a node on it. The tools stop at their element budget (docs/schema.md section 7: 2^20
/// + 1024 per packet byte, a slot counting 1), in the chain: `expect` is their answer.
std::vector<std::byte> hostile_snode(std::size_t size, std::string& expect) {
    constexpr std::int64_t slots = 65535;
    constexpr std::size_t chain = 63; // the deepest node's children are the 64th level
    auto index_bits = [](std::int64_t d) { return static_cast<std::size_t>(netser::relative_index_bits(d, slots)); };
    const std::size_t leaf = 16 + index_bits(slots + 1), room = 8 * (size - 8);
    auto cost = [&](std::size_t leaves, std::size_t extra) {
        return (chain - 1) * (16 + 1 + index_bits(slots)) + 16 + leaves * (1 + leaf) + extra +
               index_bits(slots - static_cast<std::int64_t>(leaves));
    };
    std::size_t leaves = 0;
    while (cost(leaves + 1, 0) <= room) ++leaves;
    // Longer jumps between some children fill the packet to exactly `size` bytes.
    std::vector<std::int64_t> jumps(leaves, 1);
    std::size_t extra = 0;
    for (std::size_t i = 0; i < leaves && room - cost(leaves, extra) >= 8; ++i) {
        for (std::int64_t d : {126, 62, 30, 14, 6, 2}) {
            const std::size_t more = index_bits(d) - 1;
            if (cost(leaves, extra + more) <= room) {
                jumps[i] = d, extra += more;
                break;
            }
        }
    }
    netser_test::reference_writer ref;
    ref.put(0, 32); // the CRC, set below
    for (std::size_t k = 0; k < chain; ++k) {
        ref.put(std::uint64_t{slots}, 16);
        if (k + 1 < chain) put_relative_index(ref, 1, slots);
    }
    std::int64_t previous = -1;
    for (const std::int64_t d : jumps) {
        put_relative_index(ref, d, slots);
        previous += d;
        ref.put(std::uint64_t{slots}, 16);
        put_relative_index(ref, slots + 1, slots);
    }
    put_relative_index(ref, slots - previous, slots);
    for (std::size_t k = 0; k + 1 < chain; ++k) put_relative_index(ref, slots, slots);
    packet_test::put_end_check(ref);
    auto packet = ref.bytes();
    packet_test::recrc(packet, netser::schema_hash<schema_types::SNode>());
    const std::size_t budget = (std::size_t{1} << 20) + 1024 * size;
    const std::size_t k = budget / std::size_t{slots}; // nodes 0..k-1 fit, node k's count passes the budget
    if (packet.size() != size || k >= chain) {
        std::cerr << "hostile_snode: " << packet.size() << " bytes, not " << size << ", or no node past the budget\n";
        std::exit(1);
    }
    std::string path = "SNode";
    for (std::size_t i = 0; i < k; ++i) path += ".kids[0]";
    expect = "{\"ok\": false, \"error\": \"too_large\", \"bit\": " + std::to_string(32 + 17 * k) +
             ", \"path\": \"" + path + ".kids\", \"cpp_root\": \"SNode\", \"tools_only\": true}";
    return packet;
}

/// Delta packets for the capture: states[k] is the value of sequence number k; each link
/// (sequence, baseline) is a delta packet of states[sequence] against the baseline as
/// the reader holds it (a baseline of -1: one the reader never had). With `seed`,
/// <name>.baseline0.json holds sequence 0's value for the dissector (--delta-baseline);
/// then damaged copies of the last link: a bad CRC, and under a recomputed CRC a cut, a
/// flipped byte of the delta, a byte appended; and a packet shorter than a CRC.
template <class T>
void delta_capture(const fs::path& dir, std::string_view name, std::uint16_t port, const std::vector<const T*>& states,
                   const std::vector<std::pair<int, int>>& links_, bool seed) {
    auto received = [](const T& v) {
        auto out = std::make_unique<T>();
        received_into(v, *out);
        return out;
    };
    if (seed) write_file(dir / (std::string(name) + ".baseline0.json"), value_json(*received(*states[0])) + "\n");
    std::vector<std::byte> last;
    std::unique_ptr<T> last_base;
    for (const auto& [sequence, baseline] : links_) {
        const netser::delta_header h{static_cast<std::uint16_t>(sequence), static_cast<std::uint16_t>(baseline < 0 ? 8 : baseline)};
        const auto base = received(*states[baseline < 0 ? 0 : static_cast<std::size_t>(baseline)]);
        const auto packet = delta_packet_of(*states[static_cast<std::size_t>(sequence)], *base, h, std::nullopt);
        std::string expect;
        if (baseline < 0) {
            netser::delta_packet_reader<T> reader(packet);
            T out{};
            expect = with_header(error_json(reader.read(out, nullptr), netser::detail::root_name<T>()), reader);
        } else {
            expect = read_delta_packet_json(packet, *base, std::nullopt, std::nullopt);
            last = packet;
            last_base = received(*states[static_cast<std::size_t>(baseline)]);
        }
        capture.push_back({port, packet, expect, true});
    }
    const std::uint32_t id = netser::schema_hash<T>() ^ netser::delta_packet_salt;
    auto add = [&](std::vector<std::byte> bytes) {
        capture.push_back({port, bytes, read_delta_packet_json(bytes, *last_base, std::nullopt, std::nullopt), true});
    };
    auto damaged = last;
    damaged[last.size() - 6] ^= std::byte{0x10};
    add(damaged); // bad_crc
    auto cut = last;
    cut.resize(cut.size() - 3);
    packet_test::recrc(cut, id);
    add(cut);
    auto flipped = last;
    flipped[12] ^= std::byte{0xff}; // the delta body's first byte
    packet_test::recrc(flipped, id);
    add(flipped);
    auto longer = last;
    longer.push_back(std::byte{0x55});
    packet_test::recrc(longer, id);
    add(longer);
    add({last.begin(), last.begin() + 2});
    std::vector<std::byte> header_only(last.begin(), last.begin() + 8);
    packet_test::recrc(header_only, id);
    add(header_only); // the sequence numbers and nothing else: overflow at bit 64 (the fingerprint)
    if (seed && states.size() > 1) {
        // Against sequence 0, but written against another value than the reader's
        // sequence 0: baseline_mismatch at bit 64, nothing decoded.
        const auto other = received(*states[1]);
        const auto stale = delta_packet_of(*states[1], *other, {999, netser::initial_sequence}, std::nullopt);
        capture.push_back({port, stale, read_delta_packet_json(stale, *received(*states[0]), std::nullopt, std::nullopt),
                           true});
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: schema_export OUT_DIR\n";
        return 2;
    }
    const fs::path dir = argv[1];
    fs::create_directories(dir / "diff");

    netser::link_context context;
    schema_types::GameObject base{1}, a{2}, b{3};
    if (!context.add(&base, 200) || !context.add(&a, 5) || !context.add(&b, 63)) // const GameObject*
        throw std::runtime_error("link ids taken");                               // members find these

    links = &context;

    std::vector<packet_test::Ping> pings = {{677, true}, {0, false}, {1000, false}};
    export_type(dir, "Ping", pings, true, std::nullopt, 40001);
    export_type(dir, "Ping_id", pings, true, 0x12345678u);
    std::vector<packet_test::Message> messages;
    for (auto& m : packet_test::sample_messages()) messages.push_back(m);
    export_type(dir, "Message", messages, true, std::nullopt, 40002);
    export_type(dir, "Envelope", std::vector<packet_test::Envelope>{{9, packet_test::Chat{5, "hi", {1}}}, {255, packet_test::Move{1, 2.f, 3.f, true, {}}}});
    export_type(dir, "Player", players(), true, std::nullopt, 40003);
    export_type(dir, "Squad", std::vector<reflect_test::Squad>{{3, {{100, true}, {0, false}, {55, true}}}, {0, {}}});
    export_type(dir, "Snapshot", snapshots(), true, std::nullopt, 40004);
    export_type(dir, "Kitchen", kitchens(), true, std::nullopt, 40005);
    export_type(dir, "Rotations", rotations(), true, std::nullopt, 40006);
    export_type(dir, "Slots", slots(), true, std::nullopt, 40007);
    export_type(dir, "Mover", movers(), true, std::nullopt, 40008);
    export_type(dir, "Tree", std::vector<schema_types::Tree>{tree(0, 1), tree(3, 5), tree(4, 2)});
    export_type(dir, "Hold", holds(), true, std::nullopt, 40009);
    export_type(dir, "SNode", snodes(), true, std::nullopt, 40010);
    export_type(dir, "Mass", masses(), true, std::nullopt, 40011);
    export_type(dir, "Dash", dashes(), true, std::nullopt, 40012);
    export_type(dir, "Arena", arenas());
    {
        schema_types::Links l1, l2;
        l1.home = &base;
        l1.squad = {&a, nullptr, &b};
        export_type(dir, "Links", std::vector<schema_types::Links>{l1, l2}, false);
    }

    // Deltas: the golden vectors of tests/delta/delta_golden_test.cpp, then pairs of the
    // values above (each against each) and values nudged by a step or two.
    {
        using namespace delta_test;
        const Small small_base{false, 3, 0.f, Weapon::pistol};
        const std::vector<Small> small{small_base, {true, 3, 1.f, Weapon::rocket}, {true, 15, -10.f, Weapon::none},
                                       {false, 2, 9.5f, Weapon::pistol}};
        export_delta(dir, "Small", all_pairs(small));
        const std::vector<Outer> outer{{small_base, small_base}, {small_base, {false, 4, 0.f, Weapon::pistol}},
                                       {{true, 9, -2.5f, Weapon::rifle}, {false, 3, 3.f, Weapon::pistol}}};
        export_delta(dir, "Outer", all_pairs(outer));
        const Codes8 c8{{10, 20, 30, 40, 50, 60, 70, 80}};
        Codes8 c8b = c8;
        c8b.v[1] = 21;
        c8b.v[6] = 300;
        export_delta(dir, "Codes8", all_pairs(std::vector<Codes8>{c8, c8b, Codes8{{1000, 0, 1000, 0, 999, 1, 2, 3}}}));
        Codes40 c40;
        c40.v.fill(100);
        Codes40 c40b = c40;
        c40b.v[3] = 99;
        c40b.v[30] = 1000;
        Codes40 c40c = c40b;
        for (std::size_t i = 0; i < 40; i += 3) c40c.v[i] = static_cast<std::uint16_t>(i * 25);
        export_delta(dir, "Codes40", all_pairs(std::vector<Codes40>{c40, c40b, c40c}));
        export_delta(dir, "Bytes", all_pairs(std::vector<Bytes>{{{1, 2, 3, 4}}, {{1, 2, 3}}, {{1, 2, 9}}, {{}},
                                                               {{100, 0, 100, 0, 100, 0, 100, 0}}}));
        export_delta(dir, "Target", all_pairs(std::vector<Target>{{5}, {}, {6}, {63}}));
        export_delta(dir, "Either", all_pairs(std::vector<Either>{{std::uint8_t{7}}, {std::uint8_t{8}},
                                                                 {std::uint16_t{300}}, {std::uint16_t{65535}}}));
        export_delta(dir, "Name", all_pairs(std::vector<Name>{{"alice"}, {"bob"}, {""}}));
        export_delta(dir, "DMover", all_pairs(std::vector<Mover>{{true, 1.f}, {false, 0.f}, {false, 5.f}, {true, -9.99f}}));
        export_delta(dir, "DTuned", all_pairs(std::vector<Tuned>{{500, 500, 7}, {503, 600, 9}, {0, 1000, 0}}));
    }
    {
        auto ps = players();
        for (std::size_t i = 0, n = ps.size(); i < n; ++i) {
            auto q = ps[i];
            q.x += 0.35f;
            q.y -= 20.f;
            if (!q.inventory.empty()) q.inventory[0] = static_cast<std::uint16_t>((q.inventory[0] + 3) % 1024);
            q.target = q.target ? std::optional<int>((*q.target + 1) % 64) : std::optional<int>(9);
            if (i % 2) q.moving = !q.moving, q.vx = 1.5f;
            ps.push_back(q);
        }
        std::vector<std::pair<const reflect_test::Player*, const reflect_test::Player*>> pairs;
        for (std::size_t i = 0; i < 7; ++i) {
            pairs.emplace_back(&ps[i + 7], &ps[i]);
            pairs.emplace_back(&ps[i], &ps[i + 7]);
            pairs.emplace_back(&ps[i], &ps[(i + 1) % 7]);
            pairs.emplace_back(&ps[i], &ps[i]);
        }
        export_delta(dir, "Player", pairs);
    }
    {
        auto snaps = snapshots();
        auto nudged = snaps;
        for (auto& s : nudged) {
            ++s.tick;
            if (!s.units.empty()) s.units[0].position.x += 0.25f, s.units.back().id = 7;
        }
        std::vector<std::pair<const packet_test::Snapshot*, const packet_test::Snapshot*>> pairs;
        for (std::size_t i = 0; i < snaps.size(); ++i) {
            pairs.emplace_back(&nudged[i], &snaps[i]);
            pairs.emplace_back(&snaps[i], &snaps[(i + 1) % snaps.size()]);
        }
        export_delta(dir, "Snapshot", pairs);
    }
    {
        const auto k = kitchens();
        export_delta(dir, "Kitchen", std::vector<std::pair<const schema_types::Kitchen*, const schema_types::Kitchen*>>{
                                         {&k[1], &k[0]}, {&k[0], &k[1]}, {&k[2], &k[1]}, {&k[1], &k[2]}, {&k[2], &k[2]}});
        export_delta(dir, "Slots", all_pairs(slots()));
        auto m = movers();
        auto m2 = m[0];
        m2.vx += 0.5f;
        m2.pos.y = 3.f;
        m.push_back(m2);
        export_delta(dir, "Mover", all_pairs(m));
        const std::vector<schema_types::Tree> trees{tree(0, 1), tree(3, 5), tree(3, 6), tree(4, 2)};
        export_delta(dir, "Tree", all_pairs(trees));
        export_delta(dir, "Hold", all_pairs(holds()));
        export_delta(dir, "SNode", all_pairs(snodes()));
        export_delta(dir, "Mass", all_pairs(masses()));
        auto rs = rotations();
        for (std::size_t i = 1, n = rs.size(); i < n; ++i) {
            auto r = rs[i];
            r.a.x += 0.004f * static_cast<float>(i), r.a.z -= 0.01f, r.c[2] += 0.001f;
            rs.push_back(r);
        }
        export_delta(dir, "Rotations", all_pairs(rs));
        std::vector<packet_test::Message> messages;
        for (auto& msg : packet_test::sample_messages()) messages.push_back(msg);
        export_delta(dir, "Message", all_pairs(messages));
        std::vector<schema_types::Tuned> tuned(4);
        tuned[1].grid = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
        tuned[1].levels = {1, 2, 3};
        tuned[1].aim = 4000;
        tuned[1].velocity = {0.5f, -0.5f, 9.f};
        tuned[1].cargo = {50, true};
        tuned[1].other = {60, false};
        tuned[1].weapon = schema_types::Weapon::rocket;
        tuned[2] = tuned[1];
        tuned[2].grid[5] = 40;
        tuned[2].grid[11] = 4000;
        tuned[2].levels = {1, 5, 3, 200};
        tuned[2].aim = 4290;
        tuned[2].velocity.x = 0.52f;
        tuned[2].cargo.gold = 51;
        tuned[2].other.gold = 61;
        tuned[2].weapon = schema_types::Weapon::rifle;
        tuned[3] = tuned[2];
        tuned[3].aim.reset();
        tuned[3].levels.clear();
        export_delta(dir, "Tuned", all_pairs(tuned));
        schema_types::Links l1, l2, l3;
        l1.home = &base;
        l1.squad = {&a, nullptr, &b};
        l3.squad = {&b};
        // Bare bodies, nothing damaged: which object an id names is the peers' business
        // (netser's reader fails an id its link_context does not know).
        export_delta(dir, "Links", all_pairs(std::vector<schema_types::Links>{l1, l2, l3}), false, false);
        // Keyed deltas: a tick of every kind first (their hostile variants too), then each
        // state against each (baselines of every age).
        const auto ar = arenas();
        std::vector<std::pair<const schema_types::Arena*, const schema_types::Arena*>> arena_pairs{
            {&ar[1], &ar[0]}, {&ar[4], &ar[3]}, {&ar[2], &ar[1]}, {&ar[3], &ar[2]}, {&ar[5], &ar[4]}, {&ar[6], &ar[5]}};
        for (const auto& p : all_pairs(ar)) arena_pairs.push_back(p);
        export_delta(dir, "Arena", arena_pairs);
        const auto rg = registries();
        std::vector<std::pair<const schema_types::Registry*, const schema_types::Registry*>> registry_pairs{
            {&rg[1], &rg[0]}, {&rg[2], &rg[1]}};
        for (const auto& p : all_pairs(rg)) registry_pairs.push_back(p);
        export_delta(dir, "Registry", registry_pairs);
    }
    // The keyed golden vectors of tests/delta/keyed_golden_test.cpp (and
    // tests/schema/data/golden_deltas.json), each first, then the other way round.
    {
        using namespace keyed_golden;
        const Scores sb{{{10, 50}, {20, 60}, {30, 70}}}, sn{{{10, 51}, {25, 5}, {30, 70}}};
        export_delta(dir, "Scores", std::vector<std::pair<const Scores*, const Scores*>>{{&sn, &sb}, {&sb, &sn}, {&sb, &sb}});
        const HashScores hb{{sb.m.begin(), sb.m.end()}}, hn{{sn.m.begin(), sn.m.end()}};
        export_delta(dir, "HashScores", std::vector<std::pair<const HashScores*, const HashScores*>>{{&hn, &hb}, {&hb, &hn}});
        const Tags tb{{-1, 5, 7}}, tn{{-2, -1, 5}};
        export_delta(dir, "Tags", std::vector<std::pair<const Tags*, const Tags*>>{{&tn, &tb}, {&tb, &tn}});
        const std::vector<Units> units{Units{{{1, 10}, {2, 20}, {3, 30}}}, Units{{{1, 10}, {3, 30}, {4, 40}}},
                                       Units{{{1, 10}, {3, 30}, {5, 50}}}, Units{{{1, 10}, {2, 20}, {3, 30}, {5, 50}}},
                                       Units{{{1, 10}, {2, 20}, {3, 30}, {4, 40}}}, Units{{{1, 10}, {4, 40}, {3, 30}}}};
        export_delta(dir, "Units", std::vector<std::pair<const Units*, const Units*>>{
                                       {&units[1], &units[0]}, {&units[5], &units[4]}, {&units[3], &units[2]},
                                       {&units[0], &units[1]}, {&units[4], &units[5]}, {&units[2], &units[3]}});
        Slots8 pb, pn;
        pb.slots[1] = 10, pb.slots[3] = 30, pb.slots[5] = 50;
        pn.slots[1] = 10, pn.slots[5] = 55, pn.slots[6] = 60;
        export_delta(dir, "Slots8", std::vector<std::pair<const Slots8*, const Slots8*>>{{&pn, &pb}, {&pb, &pn}});
    }

    // Delta packets in the capture (tests/schema/test_dissector.py gives the ports).
    {
        using delta_test::Codes40;
        Codes40 c40;
        c40.v.fill(100);
        Codes40 c40b = c40;
        c40b.v[3] = 99;
        c40b.v[30] = 1000;
        Codes40 c40c = c40b;
        for (std::size_t i = 0; i < 40; i += 3) c40c.v[i] = static_cast<std::uint16_t>(i * 25);
        // No baseline for the dissector: the changes only. A plain packet is no delta packet.
        delta_capture(dir, "Codes40", 41001, std::vector<const Codes40*>{&c40, &c40b, &c40c, &c40c},
                      {{1, 0}, {2, 1}, {3, 2}}, false);
        std::vector<std::byte> plain;
        if (netser::write_packet(plain, c40).error) return 1;
        capture.push_back({41001, plain, read_delta_packet_json(plain, c40, std::nullopt, std::nullopt), true});

        // A port with packets and delta packets of Player; the first baseline given.
        auto ps = players();
        auto q = ps[0];
        q.x += 0.35f, q.moving = true, q.vx = -3.f, q.inventory.push_back(9);
        auto q2 = q;
        q2.y = -1999.f, q2.target.reset(), q2.inventory = {1, 2};
        capture.push_back({41002, packet_bytes(netser::write_packet(std::span<std::byte>(buffer_for_capture), ps[1]).bytes),
                           read_packet_json<reflect_test::Player>(
                               netser::write_packet(std::span<std::byte>(buffer_for_capture), ps[1]).bytes, std::nullopt,
                               std::nullopt)});
        delta_capture(dir, "Player", 41002, std::vector<const reflect_test::Player*>{&ps[0], &q, &q2, &ps[2], &ps[3], &q},
                      {{1, 0}, {2, 1}, {3, 1}, {4, 3}, {5, -1}, {5, 4}}, true);
        const auto k = kitchens();
        delta_capture(dir, "Kitchen", 41003, std::vector<const schema_types::Kitchen*>{&k[0], &k[1], &k[2], &k[1]},
                      {{1, 0}, {2, 1}, {3, 2}}, true);
        std::vector<schema_types::Tuned> tuned(3);
        tuned[1].grid[4] = 4000, tuned[1].levels = {1, 2}, tuned[1].aim = 7, tuned[1].velocity = {1.f, 2.f, 3.f};
        tuned[1].cargo = {5, true}, tuned[1].other = {6, true}, tuned[1].weapon = schema_types::Weapon::rifle;
        tuned[2] = tuned[1];
        tuned[2].grid[4] = 3990, tuned[2].aim = 300, tuned[2].velocity.y = 2.05f, tuned[2].levels = {1, 3, 5};
        delta_capture(dir, "Tuned", 41004, std::vector<const schema_types::Tuned*>{&tuned[0], &tuned[1], &tuned[2], &tuned[0]},
                      {{1, 0}, {2, 1}, {3, 2}}, true);
        const auto snaps = snapshots();
        auto nudged = snaps[0];
        ++nudged.tick;
        if (!nudged.units.empty()) nudged.units[0].position.x += 0.25f;
        delta_capture(dir, "Snapshot", 41005, std::vector<const packet_test::Snapshot*>{&snaps[0], &nudged, &snaps[1]},
                      {{1, 0}, {2, 1}}, true);
        const auto m = movers();
        auto m2 = m[0];
        m2.vx += 0.5f, m2.pos.y = 3.f;
        delta_capture(dir, "Mover", 41006, std::vector<const schema_types::Mover*>{&m[0], &m[1], &m2, &m[0]},
                      {{1, 0}, {2, 1}, {3, 2}}, true);
        std::vector<packet_test::Message> msgs;
        for (auto& msg : packet_test::sample_messages()) msgs.push_back(msg);
        delta_capture(dir, "Message", 41007, std::vector<const packet_test::Message*>{&msgs[4], &msgs[5], &msgs[2], &msgs[3]},
                      {{1, 0}, {2, 1}, {3, 2}}, true);
        // smallest_three's own delta: small turns keep the largest component (differences
        // of codes), a large one sends the rotation whole.
        const auto rots = rotations();
        auto turned = rots[1];
        turned.a.x += 0.01f, turned.a.y -= 0.003f, turned.c[0] += 0.002f;
        auto turned_more = turned;
        turned_more.a = rots[2].a, turned_more.c[1] += 0.5f;
        delta_capture(dir, "Rotations", 41009,
                      std::vector<const schema_types::Rotations*>{&rots[1], &turned, &turned_more, &rots[1]},
                      {{1, 0}, {2, 1}, {3, 2}}, true);
        const auto t1 = tree(3, 5), t2 = tree(3, 6), t3 = tree(4, 2);
        delta_capture(dir, "Tree", 41008, std::vector<const schema_types::Tree*>{&t1, &t2, &t3},
                      {{1, 0}, {2, 1}}, true);
        const auto ms = masses();
        delta_capture(dir, "Mass", 41010, std::vector<const schema_types::Maß*>{&ms[0], &ms[1], &ms[2]},
                      {{1, 0}, {2, 1}}, true);
        const auto sn = snodes();
        delta_capture(dir, "SNode", 41011, std::vector<const schema_types::SNode*>{&sn[1], &sn[0], &sn[2], &sn[1]},
                      {{1, 0}, {2, 1}, {3, 2}}, true);
        // Entities by key: spawns, despawns, a sorted insertion, a swap-remove, a reorder.
        const auto ar = arenas();
        delta_capture(dir, "Arena", 41012,
                      std::vector<const schema_types::Arena*>{&ar[0], &ar[1], &ar[2], &ar[3], &ar[4], &ar[5], &ar[6]},
                      {{1, 0}, {2, 1}, {3, 2}, {4, 3}, {5, 4}, {6, 5}}, true);
        const auto rg = registries();
        delta_capture(dir, "Registry", 41013,
                      std::vector<const schema_types::Registry*>{&rg[0], &rg[1], &rg[2], &rg[3], &rg[4]},
                      {{1, 0}, {2, 1}, {3, 2}, {4, 3}}, true);
    }

    hostile_capture(40003, players().front());
    hostile_capture(40005, kitchens()[1]);
    hostile_capture(40007, slots()[1]);
    hostile_capture(40010, snodes()[1]);
    hostile_capture(40011, masses()[0]);
    {
        std::string expect;
        const auto packet = hostile_snode(1198, expect);
        capture.push_back({40010, packet, expect});
        // netser's own answer, under its allocation budget in bytes (never past it: the
        // packet would have it allocate 2 MiB a node).
        const std::string netser_answer = read_packet_json<schema_types::SNode>(
            packet, std::nullopt, std::nullopt, netser::read_stream::default_max_allocation(packet.size()));
        write_file(dir / "SNode.hostile.json", "{\"schema\": \"SNode.schema.json\", \"hex\": \"" + hex_of(packet) +
                                                   "\",\n \"expect\": " + expect + ",\n \"netser\": " + netser_answer + "}\n");
    }
    write_pcap(dir / "capture.pcap", capture);
    std::string expected = "[\n";
    for (std::size_t i = 0; i < capture.size(); ++i) {
        expected += "  {\"port\": " + std::to_string(capture[i].port) + ", \"delta\": " +
                    (capture[i].delta ? "true" : "false") + ", \"hex\": \"" + hex_of(capture[i].bytes) +
                    "\", \"expect\": " + capture[i].expect + "}";
        expected += i + 1 < capture.size() ? ",\n" : "\n";
    }
    write_file(dir / "capture.json", expected + "]\n");

    diff_types::export_pairs(dir / "diff");
    return 0;
}
