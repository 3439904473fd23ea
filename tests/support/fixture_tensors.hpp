// The tensors of a PyTorch fixture (tools/torch_fixture.py, tools/gpt_fixture.py: a JSON list of
// {"shape": [...], "data": [...]}) and how far ours are from them.
#pragma once

#include <cmath>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "payback/workload/tensor.hpp"

namespace payback::test {

inline std::vector<Tensor> fixture_tensors(const nlohmann::json& list) {
    std::vector<Tensor> out;
    for (const auto& t : list) {
        Tensor tensor(t.at("shape").get<std::vector<int>>());
        tensor.data = t.at("data").get<std::vector<float>>();
        REQUIRE(tensor.data.size() == Tensor::element_count(tensor.shape));
        out.push_back(std::move(tensor));
    }
    return out;
}

/// ‖ours − reference‖₂ / ‖reference‖₂: a norm-based error, which an element-wise ratio near zero
/// entries would blow up.
inline double relative_error(const Tensor& ours, const Tensor& reference) {
    double difference = 0.0, norm = 0.0;
    for (std::size_t i = 0; i < ours.size(); ++i) {
        difference += std::pow(double(ours.data[i]) - reference.data[i], 2);
        norm += std::pow(double(reference.data[i]), 2);
    }
    return std::sqrt(difference / norm);
}

}  // namespace payback::test
