#include "payback/base/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace payback::detail {
namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// The lower-case words of a name: split at spaces, '-' and '_' ("GB10 DGX Spark": gb10, dgx, spark).
std::vector<std::string> words_of(std::string_view name) {
    std::vector<std::string> words;
    std::string word;
    for (const char c : lower(name) + ' ') {
        if (c == ' ' || c == '-' || c == '_') {
            if (!word.empty()) words.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    return words;
}

/// The known name sharing the most words of two letters or more with `word` (fewest words of its own
/// on a tie, then the first): "DGX Spark" and "NVIDIA GB10" find "GB10 DGX Spark". "" when none shares one.
std::string sharing_words(std::string_view word, const std::vector<std::string>& known) {
    const std::vector<std::string> asked = words_of(word);
    std::string best;
    std::size_t best_shared = 0, best_size = 0;
    for (const auto& candidate : known) {
        const std::vector<std::string> own = words_of(candidate);
        std::size_t shared = 0;
        for (const std::string& w : asked)
            if (w.size() >= 2 && std::find(own.begin(), own.end(), w) != own.end()) ++shared;
        if (shared > best_shared || (shared > 0 && shared == best_shared && own.size() < best_size)) {
            best_shared = shared;
            best_size = own.size();
            best = candidate;
        }
    }
    return best;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string closest_match(std::string_view word, const std::vector<std::string>& known) {
    std::string best;
    // Allow about one typo per four letters, at least two: "psu_efficency" finds "psu_efficiency". Case
    // is no typo: "rtx 4090" finds "RTX 4090".
    std::size_t best_distance = std::max<std::size_t>(2, word.size() / 4) + 1;
    const std::string asked = lower(word);
    for (const auto& candidate : known) {
        const std::size_t d = edit_distance(asked, lower(candidate));
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    return best.empty() ? sharing_words(word, known) : best;
}

}  // namespace payback::detail
