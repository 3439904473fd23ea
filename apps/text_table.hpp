// A text table that fits a terminal of 80 columns: the first column (the row's name) is cut with
// "~" to at most 32 columns, and columns that do not fit beside it go to a further block below,
// each block starting with the first column again, as R prints a wide data frame.
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
    /// Lines of at most `width` columns (a single cell wider than that stays whole), headers in bold
    /// when the style is on.
    std::string render(const Style& style, std::size_t width = 80) const;

private:
    std::vector<Column> columns_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace payback::cli
