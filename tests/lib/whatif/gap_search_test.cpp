#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "payback/model/metrics.hpp"
#include "whatif/gap_search.hpp"

using namespace payback;

namespace {

// Coefficient rows per month (over the features), as GapSearch takes them.
struct Rows {
    std::vector<std::vector<double>> start, end;

    GapSearch search() const {
        std::vector<const std::vector<double>*> s, e;
        for (std::size_t m = 0; m < end.size(); ++m) {
            s.push_back(&start[m]);
            e.push_back(&end[m]);
        }
        return GapSearch(s, e);
    }

    // The engine's way: every month through CrossingSearch, from the first.
    double month_by_month(const std::vector<double>& x) const {
        auto search = CrossingSearch<double>::start(0.0);
        const auto dot = [&](const std::vector<double>& row) {
            double sum = 0.0;
            for (std::size_t a = 0; a < x.size(); ++a) sum += row[a] * x[a];
            return sum;
        };
        for (std::size_t m = 0; m < end.size(); ++m) search.step(static_cast<int>(m) + 1, dot(start[m]), dot(end[m]));
        return search.months;
    }
};

// The paybacks of these lanes (each a feature vector), in blocks.
std::vector<double> paybacks(const GapSearch& search, const std::vector<std::vector<double>>& lanes) {
    const auto block = static_cast<std::size_t>(LaneBlock::SizeAtCompileTime);
    const std::size_t features = lanes.front().size();
    std::vector<double> out(lanes.size());
    for (std::size_t first = 0; first < lanes.size(); first += block) {
        const std::size_t n = std::min(block, lanes.size() - first);
        std::vector<LaneBlock> x(features, LaneBlock::Zero());
        for (std::size_t a = 0; a < features; ++a)
            for (std::size_t i = 0; i < block; ++i)
                x[a][static_cast<Eigen::Index>(i)] = lanes[first + std::min(i, n - 1)][a];  // padded as the batch pads
        search.paybacks(x, out.data() + first, static_cast<Eigen::Index>(n));
    }
    return out;
}

void require_same(double want, double got) {
    if (std::isnan(want)) CHECK(std::isnan(got));
    else CHECK(got == Approx(want).epsilon(1e-12).margin(1e-12));
}

}  // namespace

TEST_CASE("gap search: crossings worked by hand", "[gap_search]") {
    // Two features, the constant 1 and x, over 5 months. A month's gap at its end is
    // 100 - 30 (m + 1) - 10 (m + 1) x, at its start 100 - 30 m - 10 m x (m from 0).
    Rows rows;
    for (int m = 0; m < 5; ++m) {
        rows.start.push_back({100.0 - 30.0 * m, -10.0 * m});
        rows.end.push_back({100.0 - 30.0 * (m + 1), -10.0 * (m + 1)});
    }
    const GapSearch search = rows.search();
    CHECK(search.along_shape());
    const std::vector<double> got = paybacks(search, {{1, 0}, {1, 1}, {1, 10}, {1, -3}, {1, -10}, {1, -2}});
    // x = 0: ends 70, 40, 10, -20: month index 3, from 10 to -20, a third of the way: 3.3333.
    CHECK(got[0] == Approx(3.0 + 10.0 / 30.0));
    // x = 1: ends 60, 20, -20: month 2, from 100 - 80 = 20 to -20: 2.5.
    CHECK(got[1] == Approx(2.5));
    // x = 10: ends -30 at once: month 0, from 100 to -30: 100/130.
    CHECK(got[2] == Approx(100.0 / 130.0));
    // x = -3: the gap stays at 100; x = -10: it rises. Never.
    CHECK(std::isnan(got[3]));
    CHECK(std::isnan(got[4]));
    // x = -2: ends 90, 80, 70, 60, 50: falls, but not to zero within 5 months.
    CHECK(std::isnan(got[5]));
}

TEST_CASE("gap search: the same crossing as the month-by-month search, whatever the shape", "[gap_search][property]") {
    // Gaps shaped as the model makes them (constant flows, discounted, escalating, a one-off at
    // the start, each flow escalating at its own rate) and shapes it does not (wiggles that fall
    // and rise), over horizons from one month to twenty years; lanes with features across signs
    // and sizes, so that crossings land at once, late, never, and on gaps that are not monotone.
    // Where every feature's flows share one profile the crossing is read off the scenario's own
    // shape (along_shape); else the search bounds, guesses and steps. Both must agree with the
    // month-by-month search.
    std::mt19937_64 random(2026);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    int crossed = 0, never = 0;
    for (const int months : {1, 2, 7, 12, 60, 240}) {
        for (int shape = 0; shape < 6; ++shape) {
            INFO(months << " months, shape " << shape);
            constexpr std::size_t features = 4;
            Rows rows;
            // Per feature, a monthly flow and a one-off at the start; the gap is the one-off less
            // the flows so far, each month's flow weighted by the shape.
            std::vector<double> flow(features), upfront(features);
            for (std::size_t a = 0; a < features; ++a) {
                flow[a] = a == 0 ? 40.0 : 30.0 * unit(random);
                upfront[a] = a == 0 ? 1000.0 : 300.0 * unit(random);
            }
            std::vector<double> gap(features);
            for (std::size_t a = 0; a < features; ++a) gap[a] = upfront[a];
            for (int m = 0; m < months; ++m) {
                const double t = m + 1.0;
                double weight = 1.0;
                if (shape == 1) weight = std::pow(1.07, -t / 12.0);                   // discounted
                if (shape == 2) weight = std::pow(1.04, std::floor(m / 12.0));       // escalating yearly
                if (shape == 3) weight = std::pow(1.07, -t / 12.0) * (1.0 + 0.3 * std::sin(t));  // wiggly
                std::vector<double> start = gap, end(features);
                for (std::size_t a = 0; a < features; ++a) {
                    double own = 1.0;
                    if (shape == 4) own = 1.0 + 0.5 * std::sin(t * (a + 1.0));                     // each its own wiggle
                    if (shape == 5) own = std::pow(1.0 + 0.05 * a, std::floor(m / 12.0)) / (1.0 + t * 1e-3);  // own rates
                    end[a] = start[a] - flow[a] * weight * own;
                }
                rows.start.push_back(start);
                rows.end.push_back(end);
                gap = end;
            }
            const GapSearch search = rows.search();
            // One profile for every feature (or too few months to tell): along the shape.
            CHECK(search.along_shape() == (shape <= 3 || months <= 2 || (shape == 5 && months <= 12)));
            std::vector<std::vector<double>> lanes;
            for (int i = 0; i < 400; ++i) {
                std::vector<double> x{1.0};
                for (std::size_t a = 1; a < features; ++a) x.push_back(std::pow(10.0, unit(random)) * unit(random));
                lanes.push_back(x);
            }
            const std::vector<double> got = paybacks(search, lanes);
            for (std::size_t i = 0; i < lanes.size(); ++i) {
                INFO("lane " << i);
                const double want = rows.month_by_month(lanes[i]);
                require_same(want, got[i]);
                (std::isnan(want) ? never : crossed) += 1;
            }
        }
    }
    CHECK(crossed > 3000);
    CHECK(never > 1000);
}
