// What-if grids: the scenario's metrics over a 1-D or 2-D grid of any numeric keys
// (`payback sweep`), and for a 2-D grid the break-even contour, where NPV savings cross zero.
//
// Each grid point is the scenario with its keys set as `--set` would set them; the points are
// evaluated together through the sample model (sample_model.hpp), whose fast path is checked
// against the exact model first at the grid's corners, centre and quarter points (and when any
// differs every point is evaluated exactly).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "payback/scenario/scenario.hpp"
#include "payback/whatif/sample_model.hpp"
#include "payback/whatif/sample_plan.hpp"

namespace payback {

/// One axis of a grid: KEY=LO:HI:STEP.
struct SweepAxis {
    std::string key;  ///< a numeric key path, as for --set
    double low = 0.0;
    double high = 0.0;
    double step = 0.0;
};

/// The most points one axis may have, and a whole grid.
inline constexpr std::size_t max_axis_points = 10000;
inline constexpr std::size_t max_grid_points = 1000000;

/// Parses "KEY=LO:HI:STEP" (numbers as C++ reads them: 0.1, -3, 1e3). Throws
/// InputError("--vary", 0, key, message) for bad text, LO >= HI, STEP <= 0, numbers that are not
/// finite, or more than max_axis_points points.
SweepAxis parse_axis(const std::string& text);

/// The axis's values: LO, LO + STEP, LO + 2 STEP, ... up to HI, and HI itself always (the last
/// interval is shorter when STEP does not divide HI - LO; a value within 1e-9 STEP of HI is HI).
/// Each is LO + k STEP, computed afresh, not accumulated.
std::vector<double> axis_values(const SweepAxis& axis);

/// The zero contour of one cloud option's NPV savings over a 2-D grid, in the axes' units:
/// x is the first axis's key, y the second's.
struct ContourLine {
    std::string cloud;
    /// Marching squares, joined: each polyline is a run of points through neighbouring cells.
    /// One that closes on itself repeats its first point at its end; one that ends does so on the
    /// grid's border (or beside a cell with a NaN corner).
    std::vector<std::vector<std::pair<double, double>>> polylines;
};

struct SweepResult {
    std::vector<SweepAxis> axes;
    std::vector<std::vector<double>> values;  ///< per axis (axis_values)
    /// Row-major over the grid, the first axis slowest: point (i, j) is i * values[1].size() + j.
    SampleMetrics metrics;
    std::vector<std::string> clouds;    ///< the order of the per-cloud metrics
    std::vector<ContourLine> contours;  ///< 2-D only: one per cloud option, in the same order
    std::string path_note;              ///< the sample model's path (fast or exact, and why)
    std::size_t points() const { return metrics.rig_total_cost.size(); }
};

/// Metrics of every grid point. 1 or 2 axes, different keys, each end admitted by its key
/// (InputError("--vary", 0, key, "... is not allowed: ...") otherwise), at most max_grid_points.
SweepResult sweep(const Scenario& scenario, const std::vector<SweepAxis>& axes, const EvaluationOptions& options = {});

/// sweep() in steps (sample_plan.hpp): the grid's rows, the first axis slowest, and where the
/// model is probed and verified; throws InputError as sweep() does.
SamplePlan sweep_plan(const Scenario& scenario, const std::vector<SweepAxis>& axes);

/// ... and the result of the metrics of every row of sweep_plan(), in order, evaluated with
/// `model` (plan.model()).
SweepResult sweep_result(const std::vector<SweepAxis>& axes, const SampleModel& model, SampleMetrics metrics);

/// The zero contour of `values` (row-major, nx × ny, x slowest) over the grid xs × ys by marching
/// squares: a corner is "above" when its value is > 0, each crossing is linearly interpolated on
/// its cell edge (so a zero corner is on the contour), and the two saddle cases are decided by
/// the bilinear interpolant's value at its saddle point (the asymptotic decider), so a cell's
/// pieces agree with the surface its four corners define. Cells with a NaN corner are skipped.
std::vector<std::vector<std::pair<double, double>>> zero_contour(const std::vector<double>& xs,
                                                                 const std::vector<double>& ys,
                                                                 const std::vector<double>& values);

/// The cloud option a what-if compares the rig with: the one named (InputError("--against", ...)
/// with the closest name when none is), else the one closest to beating the rig, the lowest NPV
/// savings at the scenario's current values (the first on a tie). Throws InputError when the
/// scenario has no cloud options.
std::size_t against_index(const Scenario& scenario, const std::optional<std::string>& name);

}  // namespace payback
