#include "text_table.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace payback::cli {

namespace {

constexpr std::size_t first_column_most = 32;

std::string pad(const std::string& text, std::size_t width, TextTable::Align align) {
    const std::size_t used = display_width(text);
    const std::string fill(width > used ? width - used : 0, ' ');
    return align == TextTable::Align::left ? text + fill : fill + text;
}

// The bytes of `text`'s first `count` code points.
std::size_t bytes_of_first(const std::string& text, std::size_t count) {
    std::size_t seen = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 && seen++ == count) return i;
    return text.size();
}

std::size_t longest_word(const std::string& text) {
    std::size_t most = 0, start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        most = std::max(most, display_width(text.substr(start, end - start)));
        start = end + 1;
    }
    return most;
}

}  // namespace

std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
    width = std::max<std::size_t>(width, 1);
    std::vector<std::string> lines(1);
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        std::string word = text.substr(start, end - start);
        start = end + 1;
        if (word.empty()) continue;  // a run of spaces
        if (!lines.back().empty() && display_width(lines.back()) + 1 + display_width(word) > width) lines.emplace_back();
        while (display_width(word) > width) {  // a word wider than the line: in pieces of the line's width
            if (!lines.back().empty()) lines.emplace_back();
            const std::size_t bytes = bytes_of_first(word, width);
            lines.back() = word.substr(0, bytes);
            lines.emplace_back();
            word.erase(0, bytes);
        }
        lines.back() += (lines.back().empty() ? "" : " ") + word;
    }
    return lines;
}

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {
    if (columns_.empty()) throw std::invalid_argument("TextTable: no columns");
}

void TextTable::add_row(std::vector<std::string> cells) {
    if (cells.size() != columns_.size()) throw std::invalid_argument("TextTable: a row with the wrong number of cells");
    rows_.push_back(std::move(cells));
}

std::string TextTable::render(const Style& style, std::size_t width) const {
    // Each column as wide as its widest cell; its header as well, up to header_most_ (or its longest word).
    std::vector<std::size_t> widths;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
        std::size_t cells = 0;
        for (const auto& row : rows_) cells = std::max(cells, display_width(row[c]));
        const std::size_t header = display_width(columns_[c].header);
        const std::size_t room = header_most_ > 0 ? std::min(header, header_most_) : header;
        widths.push_back(std::max({cells, room, longest_word(columns_[c].header)}));
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
        // A block of one column too wide beside the first: the first wraps narrower, to 8 at the least.
        std::size_t rest = 0;
        for (std::size_t c : blocks[b]) rest += 2 + widths[c];
        const std::size_t room = width > rest ? width - rest : 0;
        const std::size_t first = std::min(widths[0], std::max<std::size_t>(8, room));
        // A row of cells as lines: each cell wrapped to its column, headers at the bottom, the rest at the top.
        const auto lines = [&](const std::vector<std::string>& cells, bool header) {
            std::vector<std::vector<std::string>> wrapped;
            std::size_t height = 1;
            for (std::size_t c = 0; c < cells.size(); ++c) {
                const bool shown = c == 0 || std::find(blocks[b].begin(), blocks[b].end(), c) != blocks[b].end();
                wrapped.push_back(shown ? wrap_words(cells[c], c == 0 ? first : widths[c]) : std::vector<std::string>{});
                height = std::max(height, wrapped.back().size());
            }
            std::string text;
            for (std::size_t line = 0; line < height; ++line) {
                const auto at = [&](std::size_t c) {
                    const auto& cell = wrapped[c];
                    const std::size_t skip = header ? height - cell.size() : 0;
                    return line >= skip && line - skip < cell.size() ? cell[line - skip] : std::string();
                };
                std::string one = pad(at(0), first, columns_[0].align);
                for (std::size_t c : blocks[b]) one += "  " + pad(at(c), widths[c], columns_[c].align);
                one.erase(one.find_last_not_of(' ') + 1);
                text += (header ? style.bold(one) : one) + "\n";
            }
            return text;
        };
        std::vector<std::string> headers;
        for (const auto& column : columns_) headers.push_back(column.header);
        out += lines(headers, true);
        for (const auto& row : rows_) out += lines(row, false);
    }
    return out;
}

}  // namespace payback::cli
