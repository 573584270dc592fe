#pragma once

#include <netser/delta.hpp>
#include <netser/reflect.hpp>
#include <netser/stream.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

// profile_stream: where does the bandwidth go? A measure stream that the visitor tells
// when each member and element starts and ends; it adds up the bits of every member
// path (elements of a container share one path, "cubes[]") over many packets.

namespace netser {

/// One line of a bit budget.
struct profile_row {
    std::string path;     ///< e.g. "Snapshot.cubes[].position"
    int depth = 0;        ///< nesting level (0 = the whole packet)
    double mean = 0;      ///< mean bits per packet
    double share = 0;     ///< mean / the packet's mean bits
    std::size_t min = 0;  ///< fewest bits in one packet
    std::size_t max = 0;  ///< most bits in one packet
};

/// A class template only so that its functions are compiled where they are used: a
/// translation unit that includes <netser/netser.hpp> without profiling pays nothing
/// for them. Use it as netser::profile_stream.
template <class = void>
class basic_profile_stream : public measure_stream {
public:
    /// Measures obj as one packet and adds its bits to the budget. False if the
    /// measure fails (a value a write would refuse). The context and the nesting
    /// limit set on the stream stay for every packet.
    template <class T>
    bool profile(const T& obj) {
        return profile_with(obj, [&] { return serialize(*this, obj); });
    }

    /// Measures obj's delta against baseline (serialize_delta) as one packet. The bits
    /// of a container's element list (which elements changed) count in the container's
    /// row, not in its elements' ("cubes" minus "cubes[]").
    template <class T>
    bool profile_delta(const T& obj, const T& baseline) {
        return profile_with(obj, [&] { return serialize_delta(*this, obj, baseline); });
    }

    // Hooks the visitor calls (see detail::profiling_stream).
    void enter_member(std::string_view name) {
        stack_.push_back({path_.size(), bits_processed()});
        path_ += '.';
        path_ += name;
        order_.try_emplace(path_, order_.size());
    }
    void enter_element() {
        stack_.push_back({path_.size(), bits_processed()});
        path_ += "[]";
        order_.try_emplace(path_, order_.size());
    }
    void leave() {
        const frame f = stack_.back();
        stack_.pop_back();
        sample_[path_] += bits_processed() - f.start_bit;
        path_.resize(f.path_length);
    }

    std::size_t packets() const noexcept { return packets_; }

    /// The budget in tree order: a member before its children, siblings in wire order.
    std::vector<profile_row> rows() const {
        std::vector<profile_row> out;
        if (packets_ == 0) return out;
        const double whole = stats_.empty() ? 0.0 : root_mean();
        for (const auto& [path, st] : stats_) {
            profile_row r;
            r.path = path;
            r.depth = static_cast<int>(std::count(path.begin(), path.end(), '.'));
            r.mean = static_cast<double>(st.sum) / static_cast<double>(packets_);
            r.share = whole > 0 ? r.mean / whole : 0;
            r.min = st.seen < packets_ ? 0 : st.min;
            r.max = st.max;
            out.push_back(std::move(r));
        }
        std::sort(out.begin(), out.end(), [this](const profile_row& a, const profile_row& b) {
            const auto ka = sort_key(a.path), kb = sort_key(b.path);
            // Element by element: vector's operator< compares size_t keys with memcmp on
            // big-endian hosts, which misorders them under qemu-s390x.
            return std::lexicographical_compare(ka.begin(), ka.end(), kb.begin(), kb.end(),
                                                [](std::size_t x, std::size_t y) { return x < y; });
        });
        return out;
    }

    /// A text table: path, mean bits, share, min, max.
    void print_table(std::ostream& os) const {
        char line[256];
        std::snprintf(line, sizeof line, "%-48s %12s %7s %10s %10s\n", "member path", "mean bits", "share", "min",
                      "max");
        os << line;
        for (const auto& r : rows()) {
            const std::string label = std::string(static_cast<std::size_t>(r.depth) * 2, ' ') + leaf(r.path);
            std::snprintf(line, sizeof line, "%-48s %12.1f %6.1f%% %10zu %10zu\n", label.c_str(), r.mean,
                          100.0 * r.share, r.min, r.max);
            os << line;
        }
    }

    /// A horizontal bar chart of the mean bits per path, as a standalone SVG.
    void write_svg(std::ostream& os, std::string_view title = "netser bit budget") const {
        const auto rs = rows();
        const int row_height = 22, label_width = 360, bar_width = 520, top = 40;
        const int height = top + row_height * static_cast<int>(rs.size()) + 20;
        const double whole = rs.empty() ? 1.0 : std::max(rs.front().mean, 1.0);
        os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label_width + bar_width + 160 << "\" height=\""
           << height << "\" font-family=\"monospace\" font-size=\"12\">\n";
        os << "<text x=\"10\" y=\"22\" font-size=\"16\">" << escape(title) << " (" << packets_
           << " packets, mean bits per packet)</text>\n";
        int y = top;
        for (const auto& r : rs) {
            const int w = static_cast<int>(bar_width * r.mean / whole);
            os << "<text x=\"" << 10 + r.depth * 12 << "\" y=\"" << y + 15 << "\">" << escape(leaf(r.path))
               << "</text>\n";
            os << "<rect x=\"" << label_width << "\" y=\"" << y + 3 << "\" width=\"" << std::max(w, 1)
               << "\" height=\"" << row_height - 6 << "\" fill=\"" << (r.depth == 0 ? "#555" : "#3b7dd8")
               << "\"/>\n";
            char value[64];
            std::snprintf(value, sizeof value, "%.1f bits (%.1f%%)", r.mean, 100.0 * r.share);
            os << "<text x=\"" << label_width + std::max(w, 1) + 6 << "\" y=\"" << y + 15 << "\">" << value
               << "</text>\n";
            y += row_height;
        }
        os << "</svg>\n";
    }

private:
    template <class T, class Measure>
    bool profile_with(const T&, Measure&& measure) {
        void* const context = this->context();
        const std::size_t depth = this->max_depth();
        static_cast<measure_stream&>(*this) = measure_stream{}; // a fresh count and error
        this->set_context(context);
        this->set_max_depth(depth);
        path_ = std::string(detail::root_name<T>());
        const bool ok = measure();
        sample_[path_] += bits_processed();
        fold();
        return ok;
    }

    struct frame {
        std::size_t path_length;
        std::size_t start_bit;
    };
    struct stat {
        std::size_t sum = 0;
        std::size_t min = std::numeric_limits<std::size_t>::max();
        std::size_t max = 0;
        std::size_t seen = 0;
    };

    void fold() {
        for (const auto& [path, bits] : sample_) {
            stat& st = stats_[path];
            st.sum += bits;
            st.min = std::min(st.min, bits);
            st.max = std::max(st.max, bits);
            ++st.seen;
        }
        sample_.clear();
        ++packets_;
    }

    double root_mean() const {
        // The root is the shortest path (no '.'); all samples share it.
        for (const auto& [path, st] : stats_)
            if (path.find('.') == std::string::npos) return static_cast<double>(st.sum) / static_cast<double>(packets_);
        return 0;
    }

    // The order in which each prefix of the path was first entered: sorting by it lists
    // a parent before its children and siblings in the order they are serialized.
    std::vector<std::size_t> sort_key(const std::string& path) const {
        std::vector<std::size_t> key;
        for (std::size_t i = 1; i <= path.size(); ++i) {
            if (i != path.size() && path[i] != '.' && path[i] != '[') continue;
            const auto it = order_.find(path.substr(0, i));
            key.push_back(it == order_.end() ? 0 : it->second + 1);
        }
        return key;
    }
    static std::string leaf(const std::string& path) {
        const auto dot = path.rfind('.');
        return dot == std::string::npos ? path : path.substr(dot + 1);
    }
    static std::string escape(std::string_view text) {
        std::string out;
        for (char c : text) {
            if (c == '<') out += "&lt;";
            else if (c == '>') out += "&gt;";
            else if (c == '&') out += "&amp;";
            else out += c;
        }
        return out;
    }

    std::string path_;
    std::vector<frame> stack_;
    std::map<std::string, std::size_t> sample_;
    std::map<std::string, stat> stats_;
    std::map<std::string, std::size_t> order_; // first time each path was entered
    std::size_t packets_ = 0;
};

using profile_stream = basic_profile_stream<>;

} // namespace netser
