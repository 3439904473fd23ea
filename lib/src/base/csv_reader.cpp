#include "base/csv_reader.hpp"
#include "payback/base/text_file.hpp"


#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace payback::detail {

namespace {

// Splits CSV text into records, each with the line it starts on. Knows the header once it has
// read it, so errors in data rows can name their column.
class Parser {
public:
    Parser(std::string_view text, const std::string& path) : text_(text), path_(path) {
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") text_.remove_prefix(3);  // UTF-8 byte order mark
    }

    /// The next record, or false at the end of the text. Skips blank and comment lines.
    bool next(std::vector<std::string>& fields, int& record_line, const std::vector<std::string>* header) {
        fields.clear();
        while (skip_blank_or_comment_line()) {
        }
        if (at_end()) return false;
        record_line = line_;
        for (;;) {
            const std::string column =
                header && fields.size() < header->size() ? (*header)[fields.size()] : std::string();
            fields.push_back(peek() == '"' ? quoted_field(column) : plain_field(column));
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            end_of_line();
            return true;
        }
    }

private:
    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return at_end() ? '\0' : text_[pos_]; }

    // Consumes one blank line (only spaces, tabs, CR) or '#' comment line; false if there is none.
    bool skip_blank_or_comment_line() {
        if (at_end()) return false;
        std::size_t end = pos_;
        if (text_[pos_] != '#')
            while (end < text_.size() && (text_[end] == ' ' || text_[end] == '\t' || text_[end] == '\r'))
                ++end;
        else
            end = std::min(text_.find('\n', pos_), text_.size());
        if (end < text_.size() && text_[end] != '\n') return false;
        pos_ = end;
        end_of_line();
        return true;
    }

    // Consumes "\n", "\r\n" or the end of the text after a record; anything else is an error.
    void end_of_line() {
        if (peek() == '\r' && (pos_ + 1 == text_.size() || text_[pos_ + 1] == '\n')) ++pos_;
        if (at_end()) return;
        if (text_[pos_] != '\n') throw InputError(path_, line_, "", "a stray carriage return");
        ++pos_;
        ++line_;
    }

    std::string plain_field(const std::string& column) {
        std::string field;
        while (!at_end() && text_[pos_] != ',' && text_[pos_] != '\n') {
            if (text_[pos_] == '"')
                throw InputError(path_, line_, column,
                                 "a quote inside an unquoted field: quote the whole field and double "
                                 "the quotes inside it");
            if (text_[pos_] == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] != '\n')
                throw InputError(path_, line_, column, "a stray carriage return");
            if (text_[pos_] == '\r') break;  // CRLF: end_of_line takes it
            field += text_[pos_++];
        }
        return field;
    }

    std::string quoted_field(const std::string& column) {
        const int opened_on = line_;
        std::string field;
        ++pos_;  // the opening quote
        for (;;) {
            if (at_end())
                throw InputError(path_, opened_on, column, "unterminated quoted field: no closing quote");
            const char c = text_[pos_++];
            if (c == '"') {
                if (peek() != '"') break;
                field += '"';
                ++pos_;
            } else if (c == '\r' && peek() == '\n') {
                // CRLF inside quotes reads as a plain line break, whatever the file's line endings.
            } else {
                if (c == '\n') ++line_;
                field += c;
            }
        }
        const char after = peek();
        if (after != ',' && after != '\n' && after != '\r' && after != '\0')
            throw InputError(path_, line_, column,
                             fmt::format("unexpected '{}' after a closing quote: expected a comma or the "
                                         "end of the line",
                                         after));
        return field;
    }

    std::string_view text_;
    const std::string& path_;
    std::size_t pos_ = 0;
    int line_ = 1;
};

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) {
        if (!out.empty()) out += ',';
        out += name;
    }
    return out;
}

}  // namespace

CsvTable CsvTable::load(const std::string& path) {
    return parse(read_text_file(path), path);
}

CsvTable CsvTable::parse(std::string_view text, const std::string& path) {
    CsvTable table;
    table.path_ = path;
    Parser parser(text, path);
    int line = 0;
    if (!parser.next(table.columns_, line, nullptr))
        throw InputError(path, 0, "", "empty file: expected a header row naming the columns");
    for (std::size_t i = 0; i < table.columns_.size(); ++i) {
        const std::string& name = table.columns_[i];
        if (name.empty())
            throw InputError(path, line, "", fmt::format("column {} of the header has no name", i + 1));
        for (std::size_t j = 0; j < i; ++j)
            if (table.columns_[j] == name)
                throw InputError(path, line, name, "column named twice in the header");
    }
    std::vector<std::string> fields;
    while (parser.next(fields, line, &table.columns_)) {
        if (fields.size() != table.columns_.size())
            throw InputError(path, line, "",
                             fmt::format("expected {} fields ({}), got {}", table.columns_.size(),
                                         joined(table.columns_), fields.size()));
        table.rows_.push_back(fields);
        table.lines_.push_back(line);
    }
    return table;
}

int CsvTable::line_of(std::size_t row) const { return lines_.at(row); }

bool CsvTable::has_column(std::string_view name) const {
    for (const auto& column : columns_)
        if (column == name) return true;
    return false;
}

void CsvTable::require_columns(const std::vector<std::string>& names) const {
    for (const auto& name : names)
        if (!has_column(name))
            throw InputError(path_, 0, name,
                             fmt::format("missing column; the header has: {}", joined(columns_)));
}

std::size_t CsvTable::index_of(std::string_view column) const {
    for (std::size_t i = 0; i < columns_.size(); ++i)
        if (columns_[i] == column) return i;
    throw InputError(path_, 0, std::string(column),
                     fmt::format("missing column; the header has: {}", joined(columns_)));
}

const std::string& CsvTable::text(std::size_t row, std::string_view column) const {
    const std::size_t index = index_of(column);
    return rows_.at(row)[index];
}

const std::string& CsvTable::required(std::size_t row, std::string_view column) const {
    const std::string& value = text(row, column);
    if (is_blank(value)) throw error(row, column, "must not be empty");
    return value;
}

double CsvTable::number(std::size_t row, std::string_view column) const {
    const std::string& cell = text(row, column);
    if (cell.empty()) throw error(row, column, "expected a number, got an empty field");
    double value = 0.0;
    const auto [end, code] = std::from_chars(cell.data(), cell.data() + cell.size(), value);
    if (code != std::errc() || end != cell.data() + cell.size())
        throw error(row, column, fmt::format("expected a number, got \"{}\"", cell));
    if (!std::isfinite(value))
        throw error(row, column, fmt::format("expected a finite number, got \"{}\"", cell));
    return value;
}

InputError CsvTable::error(std::size_t row, std::string_view column, const std::string& message) const {
    return InputError(path_, line_of(row), std::string(column), message);
}

}  // namespace payback::detail
