#include "market/import/yaml_records.hpp"

#include <fmt/format.h>

#include "payback/base/error.hpp"

namespace payback::detail {

namespace {

std::string trim(const std::string& text) {
    const auto first = text.find_first_not_of(' ');
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

struct LineReader {
    const std::string& path;
    int line;

    [[noreturn]] void fail(const std::string& key, const std::string& message) const { throw InputError(path, line, key, message); }

    YamlScalar scalar(const std::string& key, std::string text) const {
        text = trim(text);
        if (text.empty() || text == "null" || text == "~") return std::nullopt;
        if (text.front() == '\'' || text.front() == '"') {
            const char quote = text.front();
            std::string value;
            std::size_t at = 1;
            for (; at < text.size(); ++at) {
                if (text[at] == quote) {
                    if (quote == '\'' && at + 1 < text.size() && text[at + 1] == '\'') {
                        value += '\'';
                        ++at;
                        continue;
                    }
                    break;
                }
                if (quote == '"' && text[at] == '\\') {
                    if (at + 1 >= text.size() || (text[at + 1] != '"' && text[at + 1] != '\\'))
                        fail(key, "an escape other than \\\" or \\\\ (outside the YAML this reader takes)");
                    ++at;
                }
                value += text[at];
            }
            if (at >= text.size()) fail(key, "a quoted value that does not end on its line");
            const std::string rest = trim(text.substr(at + 1));
            if (!rest.empty() && rest.front() != '#') fail(key, "text after the closing quote: " + rest);
            return value;
        }
        if (std::string("[{|>&*!%@`").find(text.front()) != std::string::npos)
            fail(key, fmt::format("a value starting with '{}' (flow collections, block scalars, anchors and tags are "
                                  "outside the YAML this reader takes)", text.front()));
        if (const auto comment = text.find(" #"); comment != std::string::npos) text = trim(text.substr(0, comment));
        return text;
    }

    // "key: value" -> (key, value text); fails on anything else.
    std::pair<std::string, std::string> key_value(const std::string& text) const {
        const auto colon = text.find(':');
        if (colon == std::string::npos || colon == 0 || (colon + 1 < text.size() && text[colon + 1] != ' '))
            fail("", "expected \"key: value\", got \"" + text + "\"");
        const std::string key = text.substr(0, colon);
        if (key.find_first_of(" '\"#-") != std::string::npos) fail("", "expected a plain key, got \"" + key + "\"");
        return {key, text.substr(colon + 1)};
    }
};

}  // namespace

YamlRecords parse_yaml_records(const PriceFile& file) {
    YamlRecords out;
    std::size_t at = 0;
    int line = 0;
    int item_indent = -1;  // columns of the "- " of the list's records; -1 before the first
    bool in_list = false;
    while (at < file.text.size()) {
        ++line;
        const std::size_t end = std::min(file.text.find('\n', at), file.text.size());
        std::string text = file.text.substr(at, end - at);
        at = end + 1;
        if (!text.empty() && text.back() == '\r') text.pop_back();
        const LineReader reader{file.path, line};
        if (text.find('\t') != std::string::npos) reader.fail("", "a tab (YAML indents with spaces)");
        const auto indent = text.find_first_not_of(' ');
        if (indent == std::string::npos || text[indent] == '#') continue;
        if (text == "---" && line == 1) continue;
        const std::string body = text.substr(indent);
        if (body.rfind("- ", 0) == 0 || body == "-") {
            if (!in_list) reader.fail("", "a list item outside the list (one list is read)");
            if (item_indent >= 0 && static_cast<int>(indent) != item_indent) reader.fail(out.list_key, "a list item at another indent");
            item_indent = static_cast<int>(indent);
            out.records.push_back({line, {}, {}});
            const std::string first = trim(body.substr(1));
            if (first.empty()) continue;
            const auto [key, value] = reader.key_value(first);
            out.records.back().fields[key] = reader.scalar(key, value);
            out.records.back().lines[key] = line;
            continue;
        }
        if (indent == 0) {
            const auto [key, value] = reader.key_value(body);
            if (trim(value).empty() && out.list_key.empty() && !out.top.count(key)) {
                out.list_key = key;  // a list follows (its items may sit at column 0)
                in_list = true;
                continue;
            }
            if (out.top.count(key) || key == out.list_key) reader.fail(key, "a key given twice");
            in_list = false;
            out.top[key] = reader.scalar(key, value);
            continue;
        }
        if (!in_list || out.records.empty() || static_cast<int>(indent) != item_indent + 2)
            reader.fail("", "a nested or misaligned line (only flat records in one list are read)");
        const auto [key, value] = reader.key_value(body);
        auto& fields = out.records.back().fields;
        if (fields.count(key)) reader.fail(out.list_key + "." + key, "a key given twice in one record");
        fields[key] = reader.scalar(key, value);
        out.records.back().lines[key] = line;
    }
    return out;
}

}  // namespace payback::detail
