// A prediction as `payback predict --json` prints it and `payback.predict()` returns it: {device,
// workload, precision, quant, phase, batch, samples_per_second or tokens_per_second, expected_error:
// {low, high}, basis, fits_memory, memory_gb_needed, memory_gb}, exactly these (issue 20).
#pragma once

#include <nlohmann/json.hpp>

#include "payback/workload/predictor.hpp"

namespace payback {

nlohmann::ordered_json prediction_json(const Prediction& prediction);

}  // namespace payback
