#include "terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "payback/whatif/sample_model.hpp"

namespace payback::cli {

namespace {
constexpr std::size_t bar_cells = 24;
constexpr std::size_t line_width = 79;  // one short of 80: a full last column would wrap on some terminals
}  // namespace

bool colour_allowed() {
    const char* no_colour = std::getenv("NO_COLOR");
    if (no_colour && *no_colour) return false;
    const char* term = std::getenv("TERM");
    return !(term && std::string_view(term) == "dumb");
}

Style Style::for_stdout(bool to_terminal) { return Style(to_terminal && colour_allowed()); }

std::string Style::wrap(const char* code, const std::string& text) const {
    return on_ ? fmt::format("\033[{}m{}\033[0m", code, text) : text;
}

std::size_t terminal_width() {
    std::size_t columns = 80;
    winsize size{};
    if (const char* env = std::getenv("COLUMNS"); env && *env) {
        char* end = nullptr;
        const long n = std::strtol(env, &end, 10);
        if (*end == '\0' && n > 0) columns = static_cast<std::size_t>(n);
    } else if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
        columns = size.ws_col;
    }
    return std::max<std::size_t>(columns, 40);
}

std::size_t display_width(const std::string& text) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\033') {  // CSI: ESC [ parameters final-byte
            while (i < text.size() && !(text[i] >= '@' && text[i] <= '~' && text[i] != '[')) ++i;
            continue;
        }
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++width;  // not a continuation byte
    }
    return width;
}

ProgressBar::ProgressBar(std::string label) : label_(std::move(label)), shown_(isatty(STDERR_FILENO) != 0) {}

ProgressBar::~ProgressBar() { clear(); }

void ProgressBar::update(double fraction, const std::string& note) {
    if (!shown_) return;
    fraction = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
    const int percent = static_cast<int>(std::floor(100.0 * fraction));
    if (percent == percent_ && note == note_) return;
    percent_ = percent;
    note_ = note;
    const auto filled = static_cast<std::size_t>(std::lround(fraction * bar_cells));
    std::string line = fmt::format("{} [{}{}] {:3d} %", label_, std::string(filled, '#'),
                                   std::string(bar_cells - filled, '.'), percent);
    if (!note.empty()) line += "  " + note;
    // Cut to the line (by code points; the label and notes are ASCII or UTF-8 text) and pad over the last one.
    std::string fitted;
    std::size_t width = 0;
    for (char c : line) {
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80 && ++width > line_width) break;
        fitted += c;
    }
    std::fprintf(stderr, "\r%s\033[K", fitted.c_str());
    std::fflush(stderr);
    drawn_ = true;
}

void ProgressBar::clear() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
    percent_ = -1;
}

namespace {
std::atomic<bool> interrupted{false};
extern "C" void on_interrupt(int /*signal*/) { interrupted = true; }
}  // namespace

void run_interruptible(const std::string& command, ProgressBar& bar,
                       const std::function<void(std::atomic<bool>& cancel)>& work) {
    interrupted = false;
    std::signal(SIGINT, on_interrupt);
    try {
        work(interrupted);
    } catch (const Cancelled&) {
        bar.clear();
        std::fprintf(stderr, "payback %s: interrupted; nothing written\n", command.c_str());
        std::exit(130);
    }
    std::signal(SIGINT, SIG_DFL);
}

}  // namespace payback::cli
