#include "payback/market/price_import.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "base/csv_reader.hpp"
#include "market/import/importers.hpp"
#include "payback/base/calendar.hpp"
#include "payback/base/error.hpp"
#include "payback/base/text_file.hpp"

namespace payback {

namespace {

std::string csv_cell(const std::string &text) {
  // A line opening with '#' reads as a comment: a cell that starts so is
  // quoted, in case it opens its row.
  if (text.find_first_of(",\"\r\n") == std::string::npos &&
      !text.starts_with('#'))
    return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"')
      quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

} // namespace

const std::vector<std::string> &catalog_columns(PriceCatalog catalog) {
  static const std::vector<std::string> instances = {
      "provider",
      "instance",
      "region",
      "gpu",
      "gpu_count",
      "gpu_memory_gb",
      "vcpus",
      "ram_gb",
      "on_demand_per_hour",
      "spot_per_hour",
      "reserved_1y_per_hour",
      "reserved_3y_per_hour",
      "billing_increment_seconds",
      "billing_minimum_seconds",
      "currency",
      "as_of",
      "source"};
  static const std::vector<std::string> rental = {"market",
                                                  "gpu",
                                                  "host_price_per_hour",
                                                  "host_price_p10_per_hour",
                                                  "host_price_p90_per_hour",
                                                  "platform_fee",
                                                  "occupancy",
                                                  "occupancy_is_assumption",
                                                  "currency",
                                                  "as_of",
                                                  "source"};
  static const std::vector<std::string> api = {
      "provider",     "model",   "input", "output",
      "cached_input", "context", "as_of", "source"};
  static const std::vector<std::string> series = {
      "date", "item", "price", "currency", "units_sold", "as_of", "source"};
  switch (catalog) {
  case PriceCatalog::instances:
    return instances;
  case PriceCatalog::rental_markets:
    return rental;
  case PriceCatalog::api_prices:
    return api;
  case PriceCatalog::price_series:
    return series;
  }
  return instances;
}

GpuAliases GpuAliases::load(const std::string &path,
                            const std::vector<std::string> &gpu_names) {
  return parse(detail::read_text_file(path, "alias table"), path, gpu_names);
}

GpuAliases GpuAliases::parse(const std::string &text, const std::string &path,
                             const std::vector<std::string> &gpu_names) {
  const auto table = detail::CsvTable::parse(text, path);
  table.require_columns({"scope", "alias", "gpu", "gpu_count", "source"});
  GpuAliases result;
  for (std::size_t row = 0; row < table.rows(); ++row) {
    GpuAlias alias{table.text(row, "scope"), table.text(row, "alias"),
                   table.text(row, "gpu"), std::nullopt};
    for (const char *column : {"scope", "alias", "gpu", "source"})
      if (detail::is_blank(table.text(row, column)))
        throw table.error(row, column, "required, got an empty cell");
    if (std::find(gpu_names.begin(), gpu_names.end(), alias.gpu) ==
        gpu_names.end())
      throw table.error(row, "gpu",
                        "expected a gpus.csv name, got \"" + alias.gpu + "\"");
    if (!detail::is_blank(table.text(row, "gpu_count"))) {
      const double count = table.number(row, "gpu_count");
      if (count < 1 || count > 64 || count != static_cast<int>(count))
        throw table.error(row, "gpu_count",
                          "expected a whole number 1-64, got " +
                              table.text(row, "gpu_count"));
      alias.gpu_count = static_cast<int>(count);
    }
    if (result.find(alias.scope, {alias.alias}) &&
        result.find(alias.scope, {alias.alias})->scope == alias.scope)
      throw table.error(row, "alias",
                        "\"" + alias.alias + "\" is already mapped in scope " +
                            alias.scope);
    result.aliases_.push_back(std::move(alias));
  }
  return result;
}

const GpuAlias *GpuAliases::find(const std::string &scope,
                                 const std::vector<std::string> &names) const {
  for (const std::string *wanted :
       {&scope, static_cast<const std::string *>(nullptr)}) {
    const std::string in = wanted ? *wanted : "*";
    for (const std::string &name : names)
      for (const GpuAlias &alias : aliases_)
        if (alias.scope == in && alias.alias == name && !name.empty())
          return &alias;
  }
  return nullptr;
}

const std::vector<std::string> &import_formats() {
  static const std::vector<std::string> formats = {
      "skypilot", "aws-ec2",    "azure-retail", "vast-offers",
      "litellm",  "llm-prices", "silybench",    "epoch"};
  return formats;
}

ImportResult import_prices(const std::string &format,
                           const std::vector<PriceFile> &files,
                           const ImportOptions &options,
                           const GpuAliases &aliases) {
  const auto &formats = import_formats();
  if (std::find(formats.begin(), formats.end(), format) == formats.end())
    throw InputError("--format", 0, "",
                     fmt::format("expected one of {}, got \"{}\"",
                                 fmt::join(formats, ", "), format));
  if (!options.as_of.empty())
    detail::checked_date(options.as_of, "--as-of", 0, "");
  ImportResult result;
  result.format = format;
  result.catalog = format == "vast-offers" ? PriceCatalog::rental_markets
                   : format == "litellm" || format == "llm-prices"
                       ? PriceCatalog::api_prices
                   : format == "epoch" ? PriceCatalog::price_series
                                       : PriceCatalog::instances;
  const detail::ImportContext context{format, options, aliases};
  for (const PriceFile &file : files)
    if (file.text.size() > max_price_file_bytes)
      throw InputError(
          file.path, 0, "",
          fmt::format("{} bytes is over the {} MiB a price file may have",
                      file.text.size(), max_price_file_bytes >> 20));
  if (format == "vast-offers")
    detail::import_vast_offers(files, context, result);
  for (const PriceFile &file :
       format == "vast-offers" ? std::vector<PriceFile>{} : files) {
    if (format == "skypilot")
      detail::import_skypilot(file, context, result);
    else if (format == "aws-ec2")
      detail::import_aws_ec2(file, context, result);
    else if (format == "azure-retail")
      detail::import_azure_retail(file, context, result);
    else if (format == "litellm")
      detail::import_litellm(file, context, result);
    else if (format == "llm-prices")
      detail::import_llm_prices(file, context, result);
    else if (format == "silybench")
      detail::import_silybench(file, context, result);
    else
      detail::import_epoch(file, context, result);
  }
  const auto &columns = catalog_columns(result.catalog);
  const std::size_t as_of = static_cast<std::size_t>(
      std::find(columns.begin(), columns.end(), "as_of") - columns.begin());
  result.as_of = options.as_of;
  if (result.as_of.empty())
    for (const auto &row : result.rows)
      result.as_of = std::max(result.as_of, row[as_of]);
  return result;
}

std::string to_csv(const ImportResult &result) {
  std::string out;
  const auto line = [&](const std::vector<std::string> &cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i)
        out += ',';
      out += csv_cell(cells[i]);
    }
    out += '\n';
  };
  line(catalog_columns(result.catalog));
  for (const auto &row : result.rows)
    line(row);
  return out;
}

namespace detail {

std::string price_text(double value) { return fmt::format("{:.12g}", value); }

std::string checked_date(const std::string &text, const std::string &file,
                         int line, const std::string &field) {
  std::string date =
      text.size() > 10 && text[10] == 'T' ? text.substr(0, 10) : text;
  if (date.size() != 10 || !parse_date(date))
    throw InputError(file, line, field,
                     "expected a date YYYY-MM-DD, got \"" + text + "\"");
  return date;
}

std::string as_of_option(const ImportContext &context,
                         const std::string &file) {
  if (context.options.as_of.empty())
    throw InputError(file, 0, "--as-of",
                     fmt::format("this {} file does not say when its prices "
                                 "held: give --as-of YYYY-MM-DD",
                                 context.format));
  return context.options.as_of;
}

std::string source_option(const ImportContext &context,
                          const std::string &file) {
  if (!context.options.source.empty())
    return context.options.source;
  return fmt::format("{} file {}", context.format,
                     std::filesystem::path(file).filename().string());
}

// Price files nest a few levels; nlohmann's parser recurses per level, so a
// file nested thousands deep (found by the fuzzer) would overflow the stack.
// Refused before parsing.
constexpr int max_json_depth = 64;

void check_json_depth(const PriceFile &file) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < file.text.size(); ++i) {
    const char c = file.text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_json_depth)
        throw InputError(
            file.path, line_of_offset(file.text, i), "",
            fmt::format("not a price file: nested deeper than {} levels",
                        max_json_depth));
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

Json parse_json(const PriceFile &file) {
  check_json_depth(file);
  try {
    return nlohmann::ordered_json::parse(file.text);
  } catch (const nlohmann::ordered_json::parse_error &e) {
    throw InputError(file.path,
                     line_of_offset(file.text, e.byte == 0 ? 0 : e.byte - 1), "",
                     "not JSON: " + std::string(e.what()).substr(
                                        std::string(e.what()).find(':') + 2));
  } catch (const nlohmann::ordered_json::out_of_range
               &e) { // a number past double's range (1e400)
    throw InputError(
        file.path, 0, "",
        "not a price file: " +
            std::string(e.what()).substr(std::string(e.what()).find(']') + 2));
  }
}

std::optional<double> json_number(const Json &record, const std::string &key,
                                  const std::string &file, int line) {
  const auto at = record.find(key);
  if (at == record.end() || at->is_null())
    return std::nullopt;
  if (at->is_number())
    return at->get<double>();
  if (at->is_string()) {
    const std::string &text = at->get_ref<const std::string &>();
    double value = 0;
    const auto [end, error] =
        std::from_chars(text.data(), text.data() + text.size(), value);
    if (!text.empty() && error == std::errc() &&
        end == text.data() + text.size() && std::isfinite(value))
      return value;
  }
  throw InputError(file, line, key, "expected a number, got " + at->dump());
}

std::optional<std::string> json_text(const Json &record, const std::string &key,
                                     const std::string &file, int line) {
  const auto at = record.find(key);
  if (at == record.end() || at->is_null())
    return std::nullopt;
  if (!at->is_string())
    throw InputError(file, line, key, "expected text, got " + at->dump());
  return at->get<std::string>();
}

namespace {

// A skipping reader over valid JSON: enough to find where values start.
struct JsonCursor {
  std::string_view text;
  std::size_t at = 0;

  void blanks() {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' ||
                                text[at] == '\n' || text[at] == '\r'))
      ++at;
  }
  std::string
  string() { // at the opening quote; returns the raw contents (escapes kept)
    const std::size_t start = ++at;
    while (at < text.size() && text[at] != '"')
      at += text[at] == '\\' ? 2 : 1;
    return std::string(text.substr(start, (at++) - start));
  }
  void value() {
    blanks();
    if (at >= text.size())
      return;
    if (text[at] == '"') {
      string();
      return;
    }
    if (text[at] == '{' || text[at] == '[') {
      const char close = text[at] == '{' ? '}' : ']';
      ++at;
      blanks();
      while (at < text.size() && text[at] != close) {
        if (close == '}') {
          string();
          blanks();
          ++at; // ':'
        }
        value();
        blanks();
        if (at < text.size() && text[at] == ',')
          ++at;
        blanks();
      }
      ++at;
      return;
    }
    while (at < text.size() && std::string_view(",]} \t\r\n").find(text[at]) ==
                                   std::string_view::npos)
      ++at;
  }
};

} // namespace

std::vector<int> json_child_lines(std::string_view text,
                                  const std::vector<std::string> &path) {
  JsonCursor cursor{text};
  for (const std::string &key :
       path) { // descend: find `key` in the object here
    cursor.blanks();
    if (cursor.at >= text.size() || text[cursor.at] != '{')
      return {};
    ++cursor.at;
    bool found = false;
    while (!found) {
      cursor.blanks();
      if (cursor.at >= text.size() || text[cursor.at] != '"')
        return {};
      found = cursor.string() == key;
      cursor.blanks();
      ++cursor.at; // ':'
      if (!found) {
        cursor.value();
        cursor.blanks();
        if (cursor.at < text.size() && text[cursor.at] == ',')
          ++cursor.at;
      }
    }
  }
  std::vector<int> lines;
  cursor.blanks();
  if (cursor.at >= text.size() ||
      (text[cursor.at] != '{' && text[cursor.at] != '['))
    return lines;
  const bool object = text[cursor.at] == '{';
  ++cursor.at;
  for (;;) {
    cursor.blanks();
    if (cursor.at >= text.size() || text[cursor.at] == (object ? '}' : ']'))
      break;
    lines.push_back(line_of_offset(text, cursor.at));
    if (object) {
      cursor.string();
      cursor.blanks();
      ++cursor.at;
    }
    cursor.value();
    cursor.blanks();
    if (cursor.at < text.size() && text[cursor.at] == ',')
      ++cursor.at;
  }
  return lines;
}

std::vector<std::string> InstanceRow::cells() const {
  const auto number = [](const std::optional<double> &v) {
    return v ? price_text(*v) : std::string();
  };
  return {provider,
          instance,
          region,
          gpu,
          std::to_string(gpu_count),
          number(gpu_memory_gb),
          number(vcpus),
          number(ram_gb),
          number(on_demand),
          number(spot),
          number(reserved_1y),
          number(reserved_3y),
          "",
          "",
          "USD",
          as_of,
          source};
}

} // namespace detail

} // namespace payback
