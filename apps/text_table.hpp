// A text table that fits a line of `width` columns (80, or a terminal's own): the first column (the
// row's name) wraps onto further lines at 32 columns, and headers may wrap too (wrap_headers_at), so
// no name is cut; columns that still do not fit beside the first go to a further block below, each
// block starting with the first column again, as R prints a wide data frame.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "terminal.hpp"

namespace payback::cli {

class TextTable {
public:
    enum class Align { left, right };
    struct Column {
        std::string header;
        Align align = Align::right;
    };

    explicit TextTable(std::vector<Column> columns);
    /// One cell per column.
    void add_row(std::vector<std::string> cells);
    /// Headers (an option's name over its column) wrap at spaces to `width` columns, or to their
    /// column's widest cell or longest word when wider, instead of widening their column.
    void wrap_headers_at(std::size_t width) { header_most_ = width; }
    /// Lines of at most `width` columns (a single word wider than that stays whole), headers in bold
    /// when the style is on.
    std::string render(const Style& style, std::size_t width = 80) const;

private:
    std::vector<Column> columns_;
    std::vector<std::vector<std::string>> rows_;
    std::size_t header_most_ = 0;  ///< 0: headers never wrap
};

/// `text` in lines of at most `width` columns, broken at spaces; a word wider than that is broken
/// within it. At least one line, "" for empty text.
std::vector<std::string> wrap_words(const std::string& text, std::size_t width);

}  // namespace payback::cli
