#include "text_table.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace payback::cli {

namespace {

constexpr std::size_t first_column_most = 32;

// `text` cut to `width` code points, its last one replaced by "~" when cut.
std::string cut(const std::string& text, std::size_t width) {
    if (display_width(text) <= width) return text;
    std::string out;
    std::size_t used = 0;
    for (char c : text) {
        const bool starts = (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        if (starts && ++used > width - 1) break;
        out += c;
    }
    return out + "~";
}

std::string pad(const std::string& text, std::size_t width, TextTable::Align align) {
    const std::size_t used = display_width(text);
    const std::string fill(width > used ? width - used : 0, ' ');
    return align == TextTable::Align::left ? text + fill : fill + text;
}

}  // namespace

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {
    if (columns_.empty()) throw std::invalid_argument("TextTable: no columns");
}

void TextTable::add_row(std::vector<std::string> cells) {
    if (cells.size() != columns_.size()) throw std::invalid_argument("TextTable: a row with the wrong number of cells");
    rows_.push_back(std::move(cells));
}

std::string TextTable::render(const Style& style, std::size_t width) const {
    std::vector<std::size_t> widths;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
        std::size_t w = display_width(columns_[c].header);
        for (const auto& row : rows_) w = std::max(w, display_width(row[c]));
        widths.push_back(w);
    }
    widths[0] = std::min(widths[0], first_column_most);

    // Blocks of columns after the first, each as many as fit beside it (at least one).
    std::vector<std::vector<std::size_t>> blocks;
    std::size_t used = width;
    for (std::size_t c = 1; c < columns_.size(); ++c) {
        if (blocks.empty() || used + 2 + widths[c] > width) {
            blocks.emplace_back();
            used = widths[0];
        }
        blocks.back().push_back(c);
        used += 2 + widths[c];
    }
    if (blocks.empty()) blocks.emplace_back();

    std::string out;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        if (b > 0) out += "\n";
        // A block of one column too wide beside the first: the first is cut further, to 8 at the least.
        std::size_t rest = 0;
        for (std::size_t c : blocks[b]) rest += 2 + widths[c];
        const std::size_t room = width > rest ? width - rest : 0;
        const std::size_t first = std::min(widths[0], std::max<std::size_t>(8, room));
        const auto line = [&](const std::vector<std::string>& cells, bool header) {
            std::string text = pad(cut(cells[0], first), first, columns_[0].align);
            for (std::size_t c : blocks[b]) text += "  " + pad(cells[c], widths[c], columns_[c].align);
            text.erase(text.find_last_not_of(' ') + 1);
            return (header ? style.bold(text) : text) + "\n";
        };
        std::vector<std::string> headers;
        for (const auto& column : columns_) headers.push_back(column.header);
        out += line(headers, true);
        for (const auto& row : rows_) out += line(row, false);
    }
    return out;
}

}  // namespace payback::cli
