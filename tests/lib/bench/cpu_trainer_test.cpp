#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/kernels.hpp"
#include "cpu/layers.hpp"
#include "payback/bench/cpu_trainer.hpp"
#include "payback/bench/data.hpp"
#include "payback/workload/network.hpp"
#include "support/isa_choice.hpp"

using namespace payback;
using namespace payback::bench;
using cpu::ImageShape;
using cpu::Range;

// Gradients are checked against central finite differences of a scalar objective. For the layers the
// objective is Σ r·y with fixed random weights r, so its gradient with respect to y is r:
//  - conv2d and linear are linear in their input and in their weights, so a central difference is
//    exact up to rounding whatever the step; with a step of 0.5 the float rounding of y (≈1e-7
//    relative, summed over ≲1,000 outputs in double) moves the quotient by < 1e-5: tolerance 1e-4 + 1e-4 relative.
//  - relu and max-pool are piecewise linear: inputs are distinct multiples of 1/64 (never 0) and the
//    step is 1/256, so no kink or tie is crossed and x ± h is exact in float: tolerance 1e-5.
//  - cross-entropy is smooth: differences of a double-precision reference loss with a step of 1e-4
//    (truncation ≈1e-9) against the float gradient (rounding ≈1e-7): tolerance 1e-6.
// Every layer check runs with the AVX2 kernels and with the portable ones.

namespace {

std::vector<float> uniform(std::size_t n, std::uint64_t seed, float bound = 1.0f) {
    std::mt19937_64 generator(seed);
    std::uniform_real_distribution<float> u(-bound, bound);
    std::vector<float> v(n);
    for (auto& x : v) x = u(generator);
    return v;
}

/// n distinct values (k + 0.5 − n/2)/64 in random order: no ties, no zeros, exact steps of 1/256.
std::vector<float> distinct_grid(std::size_t n, std::uint64_t seed) {
    std::vector<float> v(n);
    for (std::size_t k = 0; k < n; ++k) v[k] = (float(k) + 0.5f - float(n) / 2) / 64.0f;
    std::shuffle(v.begin(), v.end(), std::mt19937_64(seed));
    return v;
}

double dot(const std::vector<float>& a, const std::vector<float>& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += double(a[i]) * b[i];
    return sum;
}

/// Compares `analytic` with central differences of objective() as each element of `v` moves by ±h.
template <class Objective>
void check_gradient(const char* what, std::vector<float>& v, const std::vector<float>& analytic, Objective objective,
                    float h, double tolerance, double relative = 0.0) {
    REQUIRE(analytic.size() == v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        const float saved = v[i];
        v[i] = saved + h;
        const double plus = objective();
        v[i] = saved - h;
        const double minus = objective();
        v[i] = saved;
        const double numeric = (plus - minus) / (double(saved + h) - double(saved - h));
        INFO(what << "[" << i << "]: analytic " << analytic[i] << ", finite difference " << numeric);
        CHECK(std::fabs(analytic[i] - numeric) <= tolerance + relative * std::fabs(numeric));
    }
}

}  // namespace

TEST_CASE("conv2d: forward matches the definition, backward matches finite differences", "[bench][cpu]") {
    const payback::test::IsaChoice isa(GENERATE(from_range(payback::runnable_isa_variants())));  // each variant's kernels
    // 20 wide with a 5×5 kernel: 16-wide output rows, read in place; 9 wide with 3×3: 7-wide rows, im2col.
    const int width = GENERATE(20, 9);
    const int kernel = width == 20 ? 5 : 3;
    const ImageShape in{3, 7, width};
    const int out_channels = 7, samples = 2;
    const ImageShape out = cpu::conv2d_output(in, out_channels, kernel);
    REQUIRE(out.height == 7 - kernel + 1);
    std::vector<float> x = uniform(samples * in.size(), 1);
    std::vector<float> w = uniform(std::size_t(out_channels) * in.channels * kernel * kernel, 2, 0.3f);
    std::vector<float> b = uniform(out_channels, 3);
    const std::vector<float> r = uniform(samples * out.size(), 4);

    std::vector<float> y(samples * out.size());
    const auto objective = [&] {
        cpu::conv2d_forward(x.data(), in, w.data(), b.data(), out_channels, kernel, samples, y.data());
        return dot(y, r);
    };
    objective();
    // The definition, in double.
    for (int s = 0; s < samples; ++s)
        for (int o = 0; o < out_channels; ++o)
            for (int oh = 0; oh < out.height; ++oh)
                for (int ow = 0; ow < out.width; ++ow) {
                    double sum = b[o];
                    for (int c = 0; c < in.channels; ++c)
                        for (int i = 0; i < kernel; ++i)
                            for (int j = 0; j < kernel; ++j)
                                sum += double(w[((o * in.channels + c) * kernel + i) * kernel + j]) *
                                       x[s * in.size() + (c * in.height + oh + i) * in.width + ow + j];
                    CHECK(y[s * out.size() + (o * out.height + oh) * out.width + ow] == Approx(sum).margin(1e-5));
                }

    std::vector<float> dw(w.size()), db(b.size()), dx(x.size());
    cpu::conv2d_backward(x.data(), in, w.data(), out_channels, kernel, samples, r.data(), dw.data(), db.data(), dx.data());
    check_gradient("dweight", w, dw, objective, 0.5f, 1e-4, 1e-4);
    check_gradient("dbias", b, db, objective, 0.5f, 1e-4, 1e-4);
    check_gradient("dx", x, dx, objective, 0.5f, 1e-4, 1e-4);

    // Without an input gradient the weight gradient is the same; with no samples it is zero.
    std::vector<float> dw2(w.size(), 9.0f), db2(b.size(), 9.0f);
    cpu::conv2d_backward(x.data(), in, w.data(), out_channels, kernel, samples, r.data(), dw2.data(), db2.data(), nullptr);
    CHECK(dw2 == dw);
    cpu::conv2d_backward(x.data(), in, w.data(), out_channels, kernel, 0, r.data(), dw2.data(), db2.data(), nullptr);
    CHECK(std::all_of(dw2.begin(), dw2.end(), [](float v) { return v == 0.0f; }));
    CHECK(std::all_of(db2.begin(), db2.end(), [](float v) { return v == 0.0f; }));
}

TEST_CASE("relu: forward and backward on a block, in place", "[bench][cpu]") {
    std::vector<float> x = distinct_grid(60, 5);
    const std::vector<float> r = uniform(60, 6);
    std::vector<float> y(60);
    // A 4×10 block of rows 15 apart: the rest of each row is untouched.
    const auto objective = [&] {
        std::fill(y.begin(), y.end(), 7.0f);
        cpu::relu_forward(x.data(), y.data(), 4, 10, 15);
        return dot(y, r);
    };
    objective();
    for (int i = 0; i < 60; ++i) CHECK(y[i] == (i % 15 < 10 ? std::max(x[i], 0.0f) : 7.0f));
    std::vector<float> dx = r;
    cpu::relu_backward(y.data(), dx.data(), 4, 10, 15);
    for (int i = 0; i < 60; ++i)
        if (i % 15 >= 10) dx[i] = 0.0f;  // outside the block: y is the constant 7
    check_gradient("dx", x, dx, objective, 1.0f / 256, 1e-5);

    std::vector<float> z = x;
    cpu::relu_forward(z.data(), z.data(), 6, 10, 10);
    for (int i = 0; i < 60; ++i) CHECK(z[i] == std::max(x[i], 0.0f));
    float nan = std::nanf("");
    cpu::relu_forward(&nan, &nan, 1, 1, 1);
    CHECK(std::isnan(nan));  // NaN propagates, as in PyTorch
}

TEST_CASE("max_pool2d: the first maximum of each window takes the gradient", "[bench][cpu]") {
    const payback::test::IsaChoice isa(GENERATE(from_range(payback::runnable_isa_variants())));  // each variant's kernels
    const int kernel = GENERATE(2, 3);
    const int width = GENERATE(8, 21);  // 21 / 2 = 10 windows a row: the vectorized 2×2 path, edge dropped
    const ImageShape in{2, 7, width};   // 7 is not a multiple of 2 or 3: the last row is dropped
    const int samples = 2;
    const ImageShape out = cpu::max_pool2d_output(in, kernel);
    CHECK(out.height == 7 / kernel);
    CHECK(out.width == width / kernel);
    std::vector<float> x = distinct_grid(samples * in.size(), 7);
    const std::vector<float> r = uniform(samples * out.size(), 8);
    std::vector<float> y(samples * out.size());
    std::vector<std::int32_t> argmax(y.size());
    const auto objective = [&] {
        cpu::max_pool2d_forward(x.data(), in, kernel, samples, y.data(), argmax.data());
        return dot(y, r);
    };
    objective();
    std::vector<float> dx(x.size(), 5.0f);
    cpu::max_pool2d_backward(r.data(), argmax.data(), in, kernel, samples, dx.data());
    check_gradient("dx", x, dx, objective, 1.0f / 256, 1e-5);

    // Relu then max-pool in one pass: the same outputs, and the gradient of the two layers in turn. The
    // input is shifted down so that most windows hold no positive value.
    std::vector<float> shifted(x.size()), relu_x(x.size()), fused_y(y.size()), fused_dx(x.size()), separate_dx(x.size());
    std::vector<std::int32_t> fused_argmax(y.size());
    const float largest = *std::max_element(x.begin(), x.end());
    for (std::size_t i = 0; i < x.size(); ++i) shifted[i] = x[i] - 0.9f * largest;
    cpu::relu_forward(shifted.data(), relu_x.data(), 1, int(x.size()), 0);
    cpu::max_pool2d_forward(relu_x.data(), in, kernel, samples, y.data(), argmax.data());
    cpu::max_pool2d_forward(shifted.data(), in, kernel, samples, fused_y.data(), fused_argmax.data(), true);
    CHECK(fused_y == y);
    CHECK(std::count(y.begin(), y.end(), 0.0f) > 0);
    CHECK(std::count(y.begin(), y.end(), 0.0f) < std::ptrdiff_t(y.size()));
    cpu::max_pool2d_backward(r.data(), argmax.data(), in, kernel, samples, separate_dx.data());
    cpu::relu_backward(relu_x.data(), separate_dx.data(), 1, int(x.size()), 0);
    cpu::max_pool2d_backward(r.data(), fused_argmax.data(), in, kernel, samples, fused_dx.data(), fused_y.data());
    CHECK(fused_dx == separate_dx);

    // Ties: PyTorch routes the gradient to the first maximum in row-major window order.
    const ImageShape one{1, 2, 2};
    const float window[4] = {1.0f, 3.0f, 3.0f, 3.0f};
    float top = 0.0f, grad[4];
    std::int32_t at = -1;
    cpu::max_pool2d_forward(window, one, 2, 1, &top, &at);
    CHECK(top == 3.0f);
    CHECK(at == 1);
    const float unit = 1.0f;
    cpu::max_pool2d_backward(&unit, &at, one, 2, 1, grad);
    CHECK(std::vector<float>(grad, grad + 4) == std::vector<float>{0.0f, 1.0f, 0.0f, 0.0f});
}

TEST_CASE("linear: forward, weight and input gradients, whole and by feature ranges", "[bench][cpu]") {
    const payback::test::IsaChoice isa(GENERATE(from_range(payback::runnable_isa_variants())));  // each variant's kernels
    // 5 samples take the small-matrix kernels; 30 samples and 50 outputs the packed ones.
    const int samples = GENERATE(5, 30);
    const int in = 40, out = 50;
    std::vector<float> x = uniform(std::size_t(samples) * in, 9);
    std::vector<float> w = uniform(std::size_t(out) * in, 10, 0.2f);
    std::vector<float> b = uniform(out, 11);
    const std::vector<float> r = uniform(std::size_t(samples) * out, 12);
    std::vector<float> y(std::size_t(samples) * out);
    const auto objective = [&] {
        cpu::linear_forward(x.data(), samples, in, w.data(), b.data(), out, y.data(), {0, out});
        return dot(y, r);
    };
    objective();
    for (int s = 0; s < samples; ++s)
        for (int o = 0; o < out; ++o) {
            double sum = b[o];
            for (int i = 0; i < in; ++i) sum += double(x[s * in + i]) * w[o * in + i];
            CHECK(y[s * out + o] == Approx(sum).margin(1e-5));
        }
    std::vector<float> dw(w.size()), db(b.size()), dx(x.size());
    cpu::linear_weight_grad(x.data(), r.data(), samples, in, out, dw.data(), db.data(), {0, out});
    cpu::linear_input_grad(r.data(), w.data(), samples, in, out, dx.data(), {0, in});
    check_gradient("dweight", w, dw, objective, 0.5f, 1e-4, 1e-4);
    check_gradient("dbias", b, db, objective, 0.5f, 1e-4, 1e-4);
    check_gradient("dx", x, dx, objective, 0.5f, 1e-4, 1e-4);

    // Two feature ranges, as two threads would split the layer, give the same results.
    objective();  // y at the unperturbed point
    std::vector<float> y2(y.size()), dw2(dw.size()), db2(db.size()), dx2(dx.size());
    for (Range part : {Range{0, 16}, Range{16, out}}) {
        cpu::linear_forward(x.data(), samples, in, w.data(), b.data(), out, y2.data(), part);
        cpu::linear_weight_grad(x.data(), r.data(), samples, in, out, dw2.data(), db2.data(), part);
    }
    for (Range part : {Range{0, 32}, Range{32, in}})
        cpu::linear_input_grad(r.data(), w.data(), samples, in, out, dx2.data(), part);
    for (std::size_t i = 0; i < y.size(); ++i) CHECK(y2[i] == Approx(y[i]).margin(1e-6));
    for (std::size_t i = 0; i < dw.size(); ++i) CHECK(dw2[i] == Approx(dw[i]).margin(1e-6));
    CHECK(db2 == db);
    for (std::size_t i = 0; i < dx.size(); ++i) CHECK(dx2[i] == Approx(dx[i]).margin(1e-6));
}

TEST_CASE("cross-entropy: stable, and its gradient is (softmax − one-hot)/batch", "[bench][cpu]") {
    const int samples = 3, classes = 10;
    std::vector<float> logits = uniform(samples * classes, 13, 4.0f);
    const std::vector<int> labels{3, 0, 9};
    std::vector<float> grad(logits.size());
    const float scale = 1.0f / samples;
    const double total = cpu::cross_entropy(logits.data(), labels.data(), samples, classes, scale, grad.data());
    // The reference in double: mean of logsumexp − logit[label].
    const auto reference = [&] {
        double sum = 0.0;
        for (int s = 0; s < samples; ++s) {
            const float* l = logits.data() + s * classes;
            const double top = *std::max_element(l, l + classes);
            double e = 0.0;
            for (int j = 0; j < classes; ++j) e += std::exp(double(l[j]) - top);
            sum += top + std::log(e) - l[labels[s]];
        }
        return sum / samples;
    };
    CHECK(total / samples == Approx(reference()).epsilon(1e-6));
    std::vector<double> numeric(logits.size());
    for (std::size_t i = 0; i < logits.size(); ++i) {
        // Differences in double around the float logits.
        double sum_plus = 0, sum_minus = 0;
        for (int sign : {1, -1}) {
            double sum = 0.0;
            for (int s = 0; s < samples; ++s) {
                std::vector<double> l(classes);
                for (int j = 0; j < classes; ++j)
                    l[j] = logits[s * classes + j] + (std::size_t(s * classes + j) == i ? sign * 1e-4 : 0.0);
                const double top = *std::max_element(l.begin(), l.end());
                double e = 0.0;
                for (double v : l) e += std::exp(v - top);
                sum += top + std::log(e) - l[labels[s]];
            }
            (sign > 0 ? sum_plus : sum_minus) = sum / samples;
        }
        numeric[i] = (sum_plus - sum_minus) / 2e-4;
        INFO("logit " << i);
        CHECK(grad[i] == Approx(numeric[i]).margin(1e-6));
    }
    // Logits far beyond exp's range: no overflow, the loss is still the margin.
    const std::vector<float> huge{1000.0f, 0.0f, -1000.0f};
    std::vector<float> huge_grad(3);
    const int label = 1;
    CHECK(cpu::cross_entropy(huge.data(), &label, 1, 3, 1.0f, huge_grad.data()) == Approx(1000.0));
    CHECK(huge_grad == std::vector<float>{1.0f, -1.0f, 0.0f});
}

namespace {

/// The network's mean loss in double precision, straight from the layers' definitions: the reference
/// whose finite differences check the trainer's gradients.
double reference_loss(const Workload& workload, const std::vector<Tensor>& params, const Batch& batch) {
    double total = 0.0;
    for (int s = 0; s < batch.size; ++s) {
        int channels = workload.channels, height = workload.height, width = workload.width;
        const std::size_t size = std::size_t(channels) * height * width;
        std::vector<double> a(batch.images.begin() + s * size, batch.images.begin() + (s + 1) * size);
        std::size_t p = 0;
        for (const Layer& layer : workload.layers) {
            std::vector<double> y;
            switch (layer.kind) {
            case LayerKind::conv2d: {
                const auto& w = params[p].data;
                const auto& b = params[p + 1].data;
                p += 2;
                const int k = layer.kernel, oh_n = height - k + 1, ow_n = width - k + 1;
                for (int o = 0; o < layer.out_channels; ++o)
                    for (int oh = 0; oh < oh_n; ++oh)
                        for (int ow = 0; ow < ow_n; ++ow) {
                            double sum = b[o];
                            for (int c = 0; c < channels; ++c)
                                for (int i = 0; i < k; ++i)
                                    for (int j = 0; j < k; ++j)
                                        sum += w[((o * channels + c) * k + i) * k + j] *
                                               a[(c * height + oh + i) * width + ow + j];
                            y.push_back(sum);
                        }
                channels = layer.out_channels, height = oh_n, width = ow_n;
                break;
            }
            case LayerKind::max_pool2d: {
                const int k = layer.kernel;
                for (int c = 0; c < channels; ++c)
                    for (int oh = 0; oh < height / k; ++oh)
                        for (int ow = 0; ow < width / k; ++ow) {
                            double top = -INFINITY;
                            for (int i = 0; i < k; ++i)
                                for (int j = 0; j < k; ++j)
                                    top = std::max(top, a[(c * height + oh * k + i) * width + ow * k + j]);
                            y.push_back(top);
                        }
                height /= k, width /= k;
                break;
            }
            case LayerKind::linear: {
                const auto& w = params[p].data;
                const auto& b = params[p + 1].data;
                p += 2;
                for (int o = 0; o < layer.out_channels; ++o) {
                    double sum = b[o];
                    for (int i = 0; i < layer.in_channels; ++i) sum += w[o * layer.in_channels + i] * a[i];
                    y.push_back(sum);
                }
                width = layer.out_channels;
                break;
            }
            case LayerKind::relu:
                y = a;
                for (double& v : y) v = std::max(v, 0.0);
                break;
            case LayerKind::flatten:
                y = a;
                width = channels * height * width, channels = height = 1;
                break;
            }
            a = std::move(y);
        }
        const double top = *std::max_element(a.begin(), a.end());
        double sum = 0.0;
        for (double v : a) sum += std::exp(v - top);
        total += top + std::log(sum) - a[batch.labels[s]];
    }
    return total / batch.size;
}

/// An MLP small enough for a double-precision reference, with layers large enough (≥ 2^18 weights)
/// that the trainer splits them across threads by features rather than by samples.
Workload small_mlp() {
    using enum LayerKind;
    return {"small-mlp", "", 3, 16, 16, 10,
            {{flatten}, {linear, 768, 512}, {relu}, {linear, 512, 512}, {relu}, {linear, 512, 10}}};
}

/// A seeded batch of the workload's image shape, pixels uniform in [-1, 1].
Batch random_batch(const Workload& workload, int size, std::uint64_t seed) {
    Batch batch;
    batch.size = size, batch.channels = workload.channels, batch.height = workload.height, batch.width = workload.width;
    batch.images = uniform(std::size_t(size) * workload.channels * workload.height * workload.width, seed);
    std::mt19937_64 generator(seed);
    for (int i = 0; i < size; ++i) batch.labels.push_back(int(generator() % workload.classes));
    return batch;
}

double largest_magnitude(const std::vector<float>& v) {
    double m = 0.0;
    for (float x : v) m = std::max(m, double(std::fabs(x)));
    return m;
}

}  // namespace

// Whole networks through compute_gradients: the loss within 1e-5 relative of the double reference;
// for a few elements of every parameter tensor (both ends, the largest, four at random) the gradient
// within 1e-3 of that tensor's largest gradient of a central difference of the double reference. The
// step is 1e-5: a relu or max-pool input within a step of its kink makes the difference one-sided
// (with 1e-4 several of the tutorial's conv2 biases were off by up to 5 %, with 1e-5 none); rounding
// in the double reference then moves the quotient by ~1e-11.
TEST_CASE("the whole network's gradients match finite differences of a double-precision reference",
          "[bench][cpu]") {
    const std::string name = GENERATE(as<std::string>{}, "cifar10-tutorial", "small-mlp");
    const Workload workload = name == "small-mlp" ? small_mlp() : find_workload(name);
    INFO(name);
    const int batch = 3, threads = 2;  // an odd batch over two threads: uneven shares
    std::vector<Tensor> params = default_parameters(workload, 11);
    const Batch data = random_batch(workload, batch, 12);
    auto trainer = make_cpu_trainer(workload, params, batch, threads);
    const float loss = trainer->compute_gradients(data);
    CHECK(loss == Approx(reference_loss(workload, params, data)).epsilon(1e-5));
    const auto gradients = trainer->gradients();
    REQUIRE(gradients.size() == params.size());
    std::mt19937_64 pick(13);
    for (std::size_t t = 0; t < params.size(); ++t) {
        const auto& g = gradients[t].data;
        REQUIRE(g.size() == params[t].size());
        const double largest = largest_magnitude(g);
        std::vector<std::size_t> elements{0, g.size() - 1,
                                          std::size_t(std::max_element(g.begin(), g.end(), [](float a, float b) {
                                                          return std::fabs(a) < std::fabs(b);
                                                      }) - g.begin())};
        for (int i = 0; i < 4; ++i) elements.push_back(pick() % g.size());
        for (std::size_t e : elements) {
            float& v = params[t].data[e];
            const float saved = v;
            v = saved + 1e-5f;
            const double plus = reference_loss(workload, params, data);
            const double step_plus = v;
            v = saved - 1e-5f;
            const double minus = reference_loss(workload, params, data);
            const double numeric = (plus - minus) / (step_plus - double(v));
            v = saved;
            INFO("tensor " << t << " element " << e << ": gradient " << g[e] << ", finite difference " << numeric);
            CHECK(std::fabs(g[e] - numeric) <= 1e-3 * largest);
        }
    }
}

TEST_CASE("SGD with momentum: two steps worked by hand", "[bench][cpu]") {
    // One input x = 1, two classes, logits z = W·x + b, label 0; lr 0.5, momentum 0.9, W = b = 0.
    //   step 1: z = (0, 0), softmax (½, ½), loss ln 2; g = softmax − one-hot = (−½, ½) for W and b.
    //           v = g = (−½, ½); W = b = 0 − 0.5·v = (0.25, −0.25).
    //   step 2: z = W + b = (0.5, −0.5), softmax (σ(1), 1 − σ(1)) = (0.7310586, 0.2689414),
    //           loss ln(1 + e⁻¹) = 0.3132617; g = (−0.2689414, 0.2689414);
    //           v = 0.9·(−½, ½) + g = (−0.7189414, 0.7189414); W = b = (0.25, −0.25) − 0.5·v
    //           = (0.6094707, −0.6094707).
    using enum LayerKind;
    const Workload tiny{"tiny", "", 1, 1, 1, 2, {{flatten}, {linear, 1, 2}}};
    std::vector<Tensor> zero{Tensor({2, 1}), Tensor({2})};
    auto trainer = make_cpu_trainer(tiny, zero, 1, 1, Sgd{0.5f, 0.9f});
    Batch batch;
    batch.size = 1, batch.channels = 1, batch.height = 1, batch.width = 1;
    batch.images = {1.0f};
    batch.labels = {0};
    CHECK(trainer->train_step(batch) == Approx(std::log(2.0)).epsilon(1e-6));
    for (const auto& p : trainer->parameters()) {
        CHECK(p.data[0] == Approx(0.25).epsilon(1e-6));
        CHECK(p.data[1] == Approx(-0.25).epsilon(1e-6));
    }
    CHECK(trainer->train_step(batch) == Approx(0.3132617).epsilon(1e-6));
    for (const auto& p : trainer->parameters()) {
        CHECK(p.data[0] == Approx(0.6094707).epsilon(1e-6));
        CHECK(p.data[1] == Approx(-0.6094707).epsilon(1e-6));
    }
    // compute_gradients leaves the parameters alone.
    const auto before = trainer->parameters();
    trainer->compute_gradients(batch);
    CHECK(trainer->parameters()[0].data == before[0].data);
}

// One, two and three threads split the batch (and the MLP's large layers) differently, so sums run in
// different orders: the loss within 1e-6 relative, each gradient within 1e-5 of its tensor's largest
// element, and after three SGD steps every parameter within 1e-6 (they move by ~1e-3).
TEST_CASE("results do not depend on the number of threads", "[bench][cpu]") {
    const std::string name = GENERATE(as<std::string>{}, "cifar10-tutorial", "mlp");
    const int batch = GENERATE(1, 8);
    INFO(name << " at batch " << batch);
    const Workload& workload = find_workload(name);
    const auto initial = default_parameters(workload, 21);
    const Batch data = synthetic_batch(batch, 22, workload.classes);
    auto one = make_cpu_trainer(workload, initial, batch, 1);
    const float loss = one->compute_gradients(data);
    const auto gradients = one->gradients();
    for (int step = 0; step < 3; ++step) one->train_step(synthetic_batch(batch, 30 + step, workload.classes));
    const auto trained = one->parameters();
    for (int threads : {2, 3}) {
        INFO(threads << " threads");
        auto other = make_cpu_trainer(workload, initial, batch, threads);
        CHECK(other->compute_gradients(data) == Approx(loss).epsilon(1e-6));
        const auto g = other->gradients();
        for (std::size_t t = 0; t < g.size(); ++t) {
            const double bound = 1e-5 * largest_magnitude(gradients[t].data);
            double worst = 0.0;
            for (std::size_t i = 0; i < g[t].size(); ++i)
                worst = std::max(worst, double(std::fabs(g[t].data[i] - gradients[t].data[i])));
            INFO("gradient tensor " << t);
            CHECK(worst <= bound);
        }
        for (int step = 0; step < 3; ++step) other->train_step(synthetic_batch(batch, 30 + step, workload.classes));
        const auto p = other->parameters();
        for (std::size_t t = 0; t < p.size(); ++t) {
            double worst = 0.0;
            for (std::size_t i = 0; i < p[t].size(); ++i)
                worst = std::max(worst, double(std::fabs(p[t].data[i] - trained[t].data[i])));
            INFO("parameter tensor " << t);
            CHECK(worst <= 1e-6);
        }
    }
}

TEST_CASE("training trains: the tutorial network learns the learnable task", "[bench][cpu]") {
    // 200 steps of 32 over 16 batches of the learnable task, lr 0.02 with momentum 0.9. Over five
    // initial seeds the mean loss of the last 25 steps ended at 0.02–0.12 and the loss on a fresh batch
    // of the same task at 0.09–0.33, from 2.30 (chance, ln 10) at the start.
    const Workload& workload = find_workload("cifar10-tutorial");
    const int batch = 32, steps = 200;
    std::vector<Batch> pool;
    for (int i = 0; i < 16; ++i) pool.push_back(learnable_batch(batch, 1, 1000 + i));
    auto trainer = make_cpu_trainer(workload, default_parameters(workload, 5), batch, 2, Sgd{0.02f, 0.9f});
    double first = 0.0, last = 0.0;
    for (int step = 0; step < steps; ++step) {
        const float loss = trainer->train_step(pool[step % pool.size()]);
        REQUIRE(std::isfinite(loss));
        if (step < 25) first += loss / 25;
        if (step >= steps - 25) last += loss / 25;
    }
    CHECK(first > 2.2);
    CHECK(last < 0.5);
    auto judge = make_cpu_trainer(workload, trainer->parameters(), 256, 2);
    CHECK(judge->compute_gradients(learnable_batch(256, 1, 99)) < 1.0);
}

TEST_CASE("the CPU trainer names its device, times steps and refuses what does not fit", "[bench][cpu]") {
    CHECK_FALSE(cpu_model_name().empty());
    const Workload& mlp = find_workload("mlp");
    auto parameters = default_parameters(mlp, 3);
    auto trainer = make_cpu_trainer(mlp, parameters, 4, 2);
    CHECK(trainer->batch_size() == 4);
    CHECK(trainer->device_name() == cpu_model_name() + " (2 threads)");
    CHECK(make_cpu_trainer(mlp, parameters, 4, 1)->device_name() == cpu_model_name() + " (1 thread)");

    const std::vector<Batch> pool{synthetic_batch(4, 1), synthetic_batch(4, 2)};
    CHECK(trainer->timed_steps(pool, 3) > 0.0);
    CHECK(trainer->parameters()[0].data != parameters[0].data);  // timed steps train

    CHECK_THROWS_AS(trainer->compute_gradients(synthetic_batch(5, 1)), std::invalid_argument);
    Batch bad_label = synthetic_batch(4, 1);
    bad_label.labels[2] = 10;
    CHECK_THROWS_AS(trainer->train_step(bad_label), std::invalid_argument);
    CHECK_THROWS_AS(trainer->timed_steps({}, 3), std::invalid_argument);
    CHECK_THROWS_AS(make_cpu_trainer(mlp, parameters, 0, 2), std::invalid_argument);
    CHECK_THROWS_AS(make_cpu_trainer(mlp, parameters, 4, 0), std::invalid_argument);
    auto wrong_shape = parameters;
    wrong_shape[0].shape = {3072, 1024};
    CHECK_THROWS_AS(make_cpu_trainer(mlp, wrong_shape, 4, 2), std::invalid_argument);
    parameters.pop_back();
    CHECK_THROWS_AS(make_cpu_trainer(mlp, parameters, 4, 2), std::invalid_argument);

    using enum LayerKind;
    const Workload unflattened{"bad", "", 3, 32, 32, 10, {{linear, 3072, 10}}};
    CHECK_THROWS_AS(make_cpu_trainer(unflattened, {Tensor({10, 3072}), Tensor({10})}, 4, 1), std::invalid_argument);
}

TEST_CASE("the portable kernels train as the AVX2 ones do", "[bench][cpu]") {
    // Where the CPU has no AVX2 the trainer runs plain loops: the same loss within 1e-6 relative and
    // every gradient within 1e-5 of its tensor's largest element (sums run in other orders).
    const std::string name = GENERATE(as<std::string>{}, "cifar10-tutorial", "small-mlp");
    const Workload workload = name == "small-mlp" ? small_mlp() : find_workload(name);
    INFO(name);
    const auto initial = default_parameters(workload, 41);
    const Batch data = random_batch(workload, 5, 42);
    auto simd = make_cpu_trainer(workload, initial, 5, 2);
    const float loss = simd->compute_gradients(data);
    const auto gradients = simd->gradients();
    const payback::test::IsaChoice portable("baseline");
    auto plain = make_cpu_trainer(workload, initial, 5, 2);
    CHECK(plain->compute_gradients(data) == Approx(loss).epsilon(1e-6));
    const auto g = plain->gradients();
    for (std::size_t t = 0; t < g.size(); ++t) {
        double worst = 0.0;
        for (std::size_t i = 0; i < g[t].size(); ++i)
            worst = std::max(worst, double(std::fabs(g[t].data[i] - gradients[t].data[i])));
        INFO("gradient tensor " << t);
        CHECK(worst <= 1e-5 * largest_magnitude(gradients[t].data));
    }
}
