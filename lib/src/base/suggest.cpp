#include "payback/base/suggest.hpp"

#include <algorithm>
#include <numeric>

namespace payback::detail {

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
    // Allow about one typo per four letters, at least two: "psu_efficency" finds "psu_efficiency".
    std::size_t best_distance = std::max<std::size_t>(2, word.size() / 4) + 1;
    for (const auto& candidate : known) {
        const std::size_t d = edit_distance(word, candidate);
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    return best;
}

}  // namespace payback::detail
