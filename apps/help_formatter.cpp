#include "help_formatter.hpp"

#include <sstream>

#include "command_common.hpp"

namespace payback::cli {

namespace {

constexpr std::size_t help_width = 80;

// Wrapped to `width`, without the final newline (CLI11 indents the lines after the first).
std::string lines(const std::string& text, std::size_t width) {
    std::string out = wrapped(text, width);
    out.pop_back();
    return out;
}

}  // namespace

std::string HelpFormatter::make_option_desc(const CLI::Option* option) const {
    return lines(CLI::Formatter::make_option_desc(option), help_width - get_column_width());
}

std::string HelpFormatter::make_subcommand(const CLI::App* command) const {
    std::stringstream out;
    CLI::detail::format_help(out, command->get_display_name(true),
                             lines(command->get_description(), help_width - get_column_width()), get_column_width());
    return out.str();
}

std::string HelpFormatter::make_description(const CLI::App* app) const {
    std::string description = CLI::Formatter::make_description(app);  // "" or ending in a newline
    if (description.empty()) return description;
    description.pop_back();
    return wrapped(description, help_width);
}

}  // namespace payback::cli
