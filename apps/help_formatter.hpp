// CLI11's help, fitted to an 80-column terminal: descriptions wrapped beside the option column, the
// command's own description wrapped, and examples kept whole (add_example breaks long ones with a
// backslash, so they still paste).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace payback::cli {

class HelpFormatter : public CLI::Formatter {
public:
    HelpFormatter() { column_width(26); }
    std::string make_option_desc(const CLI::Option* option) const override;
    std::string make_subcommand(const CLI::App* command) const override;
    std::string make_description(const CLI::App* app) const override;
};

}  // namespace payback::cli
