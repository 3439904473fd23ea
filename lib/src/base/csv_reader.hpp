// A small reader for the CSV data files under pricing/: one header row, then data rows (RFC 4180
// quoting, LF or CRLF, '#' comment lines and blank lines skipped). Every error is an InputError
// naming the file, the 1-based line and the column, so a bad catalog row is easy to find.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "payback/base/error.hpp"

namespace payback::detail {

/// True when a cell holds nothing but spaces and tabs: a required cell left empty.
inline bool is_blank(const std::string& text) { return text.find_first_not_of(" \t") == std::string::npos; }

class CsvTable {
public:
    /// Reads and parses `path`. InputError when the file is missing, not a regular file, holds no
    /// header row, has an unterminated quote, a stray quote, an empty or repeated column name, or
    /// a row whose field count differs from the header's.
    static CsvTable load(const std::string& path);

    /// Parses CSV `text` as if read from `path` (used by load, and handy for tests).
    static CsvTable parse(std::string_view text, const std::string& path);

    const std::string& path() const { return path_; }
    const std::vector<std::string>& columns() const { return columns_; }
    /// Number of data rows (the header, comments and blank lines are not rows).
    std::size_t rows() const { return rows_.size(); }
    /// 1-based line of the file on which data row `row` (0-based) starts.
    int line_of(std::size_t row) const;

    bool has_column(std::string_view name) const;
    /// InputError (line 0, key = the column) for the first of `names` the header lacks.
    void require_columns(const std::vector<std::string>& names) const;

    /// The raw text of a cell, exactly as written (quotes removed, no trimming).
    const std::string& text(std::size_t row, std::string_view column) const;
    /// The text of a cell that must not be blank; InputError "must not be empty" when it is.
    const std::string& required(std::size_t row, std::string_view column) const;
    /// A cell as a finite number; the whole cell must parse ("12abc", " 12", "" and "inf" do not).
    double number(std::size_t row, std::string_view column) const;

    /// An InputError about a cell: this file, the row's line, the column as the key.
    InputError error(std::size_t row, std::string_view column, const std::string& message) const;

private:
    std::size_t index_of(std::string_view column) const;

    std::string path_;
    std::vector<std::string> columns_;
    std::vector<std::vector<std::string>> rows_;
    std::vector<int> lines_;
};

}  // namespace payback::detail
