// What only a person at a terminal sees: colour on stdout and progress bars on stderr. Colour is on
// when stdout is a terminal, NO_COLOR is unset or empty (no-color.org) and TERM is not "dumb"; a
// progress bar is drawn only when stderr is a terminal. Pipes, files and tests get plain text.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

namespace payback::cli {

/// ANSI styling, or none: each function returns its text unchanged when off.
class Style {
public:
    explicit Style(bool on) : on_(on) {}
    /// On when `to_terminal` (stdout is a terminal, nothing redirected) and the environment allows colour.
    static Style for_stdout(bool to_terminal);
    bool on() const { return on_; }
    std::string bold(const std::string& text) const { return wrap("1", text); }
    std::string good(const std::string& text) const { return wrap("32", text); }     ///< green
    std::string bad(const std::string& text) const { return wrap("31", text); }      ///< red
    std::string warning(const std::string& text) const { return wrap("33", text); }  ///< yellow

private:
    std::string wrap(const char* code, const std::string& text) const;
    bool on_;
};

/// Whether the environment lets us colour a terminal: NO_COLOR unset or empty, TERM not "dumb".
bool colour_allowed();

/// A one-line bar on stderr, "label [#######.........]  42 %  note", redrawn in place, cleared at
/// the end; nothing at all unless stderr is a terminal.
class ProgressBar {
public:
    explicit ProgressBar(std::string label);
    ~ProgressBar();
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    bool shown() const { return shown_; }
    /// `fraction` in [0, 1]; redraws only when the whole percent or the note changes.
    void update(double fraction, const std::string& note = "");
    /// Clears the line (before other messages on stderr, or at the end).
    void clear();

private:
    std::string label_;
    bool shown_;
    int percent_ = -1;
    std::string note_;
    bool drawn_ = false;
};

/// Runs a long evaluation with Ctrl-C stopping it cleanly: `work` gets the flag SIGINT sets (for
/// EvaluationOptions::cancel); when the evaluation throws Cancelled, `bar` is cleared, "payback
/// <command>: interrupted; nothing written" goes to stderr and the program exits 130.
void run_interruptible(const std::string& command, ProgressBar& bar,
                       const std::function<void(std::atomic<bool>& cancel)>& work);

/// The terminal's width in columns: COLUMNS when it is a number, else the terminal's own
/// (stdout's), else 80; at least 40.
std::size_t terminal_width();

/// The columns `text` takes on a terminal: UTF-8 code points, ANSI escapes not counted.
std::size_t display_width(const std::string& text);

}  // namespace payback::cli
