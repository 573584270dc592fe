#pragma once

#include <netser/delta.hpp>
#include <netser/reflect.hpp>
#include <netser/stream.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

// profile_stream: where does the bandwidth go? A measure stream that the visitor tells
// when each member, element and variant alternative starts and ends; it adds up the
// bits of every member path (elements of a container share one path, "cubes[]"; each
// alternative of a variant has its own, "command<Move>", and so has the index,
// "command.index()") over many packets.

namespace netser {

/// One line of a bit budget.
struct profile_row {
    std::string path;     ///< e.g. "Snapshot.cubes[].position", "Envelope.command<Move>.dx"
    std::string label;    ///< the row in the tree: "position", "cubes[]", "<Move>", "index()"
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
    [[nodiscard]] bool profile(const T& obj) {
        return profile_with(obj, [&] { return serialize(*this, obj); });
    }

    /// Measures obj's delta against baseline (serialize_delta) as one packet. The bits
    /// of a container's element list (which elements changed) count in the container's
    /// row, not in its elements' ("cubes" minus "cubes[]").
    template <class T>
    [[nodiscard]] bool profile_delta(const T& obj, const T& baseline) {
        return profile_with(obj, [&] { return serialize_delta(*this, obj, baseline); });
    }

    // Hooks the visitor calls (see detail::profiling_stream).
    void enter_member(std::string_view name) {
        enter({".", name, ""}, 1, [&](const node&) { return std::string(name); });
    }
    void enter_element() { // a container's elements: a row beside it, "cubes[]"
        enter({"[]", "", ""}, 0, [](const node& container) { return container.label + "[]"; });
    }
    void enter_alternative(std::string_view name) {
        enter({"<", name, ">"}, 1, [&](const node&) { return std::string("<").append(name).append(">"); });
    }
    void enter_index() {
        enter({".index()", "", ""}, 1, [](const node&) { return std::string("index()"); });
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
        const double whole = root_mean();
        for (const auto& [path, st] : stats_) {
            const node& n = nodes_.at(path);
            profile_row r;
            r.path = path;
            r.label = n.label;
            r.depth = n.depth;
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

    /// A text table: path, mean bits, share, min, max. The first column is as wide as
    /// the widest row (a long root name included), so the numbers stay aligned. Ostream
    /// is a std::ostream (a template parameter, so that this header needs no <ostream>).
    template <class Ostream>
    void print_table(Ostream& os) const {
        const auto rs = rows();
        std::size_t width = std::string_view("member path").size();
        for (const auto& r : rs) width = std::max(width, indent(r).size() + r.label.size());
        char numbers[96];
        std::snprintf(numbers, sizeof numbers, " %12s %7s %10s %10s\n", "mean bits", "share", "min", "max");
        os << pad("member path", width) << numbers;
        for (const auto& r : rs) {
            std::snprintf(numbers, sizeof numbers, " %12.1f %6.1f%% %10zu %10zu\n", r.mean, 100.0 * r.share, r.min,
                          r.max);
            os << pad(indent(r) + r.label, width) << numbers;
        }
    }

    /// A horizontal bar chart of the mean bits per path, as a standalone SVG.
    template <class Ostream>
    void write_svg(Ostream& os, std::string_view title = "netser bit budget") const {
        const auto rs = rows();
        const int row_height = 22, bar_width = 520, top = 40;
        // Labels in 12 px monospace (about 7.2 px a character), at least 360 px wide.
        int label_width = 360;
        for (const auto& r : rs)
            label_width = std::max(label_width, 10 + r.depth * 12 + static_cast<int>(r.label.size()) * 15 / 2 + 10);
        const int height = top + row_height * static_cast<int>(rs.size()) + 20;
        const double whole = rs.empty() ? 1.0 : std::max(rs.front().mean, 1.0);
        os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label_width + bar_width + 160 << "\" height=\""
           << height << "\" font-family=\"monospace\" font-size=\"12\">\n";
        os << "<text x=\"10\" y=\"22\" font-size=\"16\">" << escape(title) << " (" << packets_
           << " packets, mean bits per packet)</text>\n";
        int y = top;
        for (const auto& r : rs) {
            const int w = static_cast<int>(bar_width * r.mean / whole);
            os << "<text x=\"" << 10 + r.depth * 12 << "\" y=\"" << y + 15 << "\">" << escape(r.label) << "</text>\n";
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
        stack_.clear();
        nodes_.try_emplace(path_, node{nodes_.size(), 0, path_, {}});
        const bool ok = measure();
        sample_[path_] += bits_processed();
        fold();
        return ok;
    }

    struct frame {
        std::size_t path_length;
        std::size_t start_bit;
        int depth;
    };
    // A path's place in the tree, from the first time it was entered.
    struct node {
        std::size_t order; // entered after the nodes with a smaller order
        int depth;
        std::string label;
        std::string parent; // empty for a root
    };

    // Extends the path by the three parts; depth_step is 1 for a child, 0 for a row shown
    // beside the current one (a container's elements, still sorted below it). A path seen
    // for the first time gets its label from label_of(the current node).
    template <class Label>
    void enter(const std::string_view (&parts)[3], int depth_step, Label&& label_of) {
        const int depth = (stack_.empty() ? 0 : stack_.back().depth) + depth_step;
        const std::size_t parent_length = path_.size();
        stack_.push_back({parent_length, bits_processed(), depth});
        for (std::string_view part : parts) path_ += part;
        if (nodes_.find(path_) != nodes_.end()) return;
        std::string parent = path_.substr(0, parent_length);
        std::string label = label_of(nodes_.at(parent));
        nodes_.emplace(path_, node{nodes_.size(), depth, std::move(label), std::move(parent)});
    }

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
        // The first root (depth 0); every sample of a packet is below it.
        for (const auto& [path, st] : stats_)
            if (nodes_.at(path).depth == 0 && nodes_.at(path).parent.empty())
                return static_cast<double>(st.sum) / static_cast<double>(packets_);
        return 0;
    }

    // The orders of a path's ancestors and its own: sorting by it lists a parent before
    // its children and siblings in the order they are serialized.
    std::vector<std::size_t> sort_key(const std::string& path) const {
        std::vector<std::size_t> key;
        for (const node* n = &nodes_.at(path);; n = &nodes_.at(n->parent)) {
            key.push_back(n->order);
            if (n->parent.empty()) break;
        }
        std::reverse(key.begin(), key.end());
        return key;
    }
    static std::string indent(const profile_row& r) { return std::string(static_cast<std::size_t>(r.depth) * 2, ' '); }
    static std::string pad(std::string text, std::size_t width) {
        if (text.size() < width) text.append(width - text.size(), ' ');
        return text;
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
    std::map<std::string, node> nodes_; // every path entered
    std::size_t packets_ = 0;
};

using profile_stream = basic_profile_stream<>;

} // namespace netser
