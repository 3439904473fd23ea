// The report as one self-contained HTML page (`payback report`): inline CSS and SVG charts, no
// scripts and no network, readable on screen and in print. Sections: the answer, the options,
// cumulative cost over time, the monthly cost breakdown, break-even over the workload's hours,
// uncertainty (Monte Carlo histogram and tornado) when the scenario has any, the rig's power,
// circuit, heat and carbon, and every assumption with its source. docs/report.md describes it.
#pragma once

#include <string>

#include "payback/report/report_data.hpp"

namespace payback {

/// Key figures carry data-metric (and data-option, data-rig) attributes, so tests and scripts can
/// find them in the page; their text is the number as shown.
std::string html_report(const ReportData& data);

}  // namespace payback
