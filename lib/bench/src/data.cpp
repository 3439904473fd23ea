#include "payback/bench/data.hpp"

#include <random>

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/base/text_file.hpp"

namespace payback::bench {
namespace {

constexpr int record_pixels = 3 * 32 * 32;
constexpr int record_bytes = 1 + record_pixels;

Batch empty_batch(int size) {
    Batch batch;
    batch.size = size;
    batch.images.resize(static_cast<std::size_t>(size) * record_pixels);
    batch.labels.resize(static_cast<std::size_t>(size));
    return batch;
}

}  // namespace

Batch synthetic_batch(int size, std::uint64_t seed, int classes) {
    Batch batch = empty_batch(size);
    std::mt19937_64 generator(seed);
    std::uniform_real_distribution<float> pixel(-1.0f, 1.0f);
    std::uniform_int_distribution<int> label(0, classes - 1);
    for (auto& p : batch.images) p = pixel(generator);
    for (auto& l : batch.labels) l = label(generator);
    return batch;
}

Batch learnable_batch(int size, std::uint64_t task_seed, std::uint64_t batch_seed, int classes) {
    // Each class's pattern is fixed by task_seed; noise of the same size as the pattern keeps the
    // task learnable but not trivial.
    std::mt19937_64 task(task_seed);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::vector<float> patterns(static_cast<std::size_t>(classes) * record_pixels);
    for (auto& p : patterns) p = unit(task);

    Batch batch = empty_batch(size);
    std::mt19937_64 generator(batch_seed);
    std::uniform_int_distribution<int> label(0, classes - 1);
    std::normal_distribution<float> noise(0.0f, 0.5f);
    for (int i = 0; i < size; ++i) {
        const int c = label(generator);
        batch.labels[i] = c;
        for (int p = 0; p < record_pixels; ++p)
            batch.images[static_cast<std::size_t>(i) * record_pixels + p] =
                0.5f * patterns[static_cast<std::size_t>(c) * record_pixels + p] + noise(generator);
    }
    return batch;
}

Cifar10File::Cifar10File(const std::string& path) {
    const std::string bytes = detail::read_text_file(path, "CIFAR-10 file");
    if (bytes.empty()) throw InputError(path, 0, "", "the CIFAR-10 file is empty");
    if (bytes.size() % record_bytes != 0)
        throw InputError(path, 0, "",
                         fmt::format("not a CIFAR-10 binary file: {} bytes is not a whole number of {}-byte records "
                                     "(one label byte and 3,072 pixel bytes)",
                                     bytes.size(), record_bytes));
    const std::size_t records = bytes.size() / record_bytes;
    labels_.resize(records);
    pixels_.resize(records * record_pixels);
    for (std::size_t r = 0; r < records; ++r) {
        const auto* record = reinterpret_cast<const std::uint8_t*>(bytes.data()) + r * record_bytes;
        if (record[0] > 9)
            throw InputError(path, 0, "",
                             fmt::format("record {} (byte {}) has label {}; CIFAR-10 labels are 0 to 9", r + 1,
                                         r * record_bytes, record[0]));
        labels_[r] = record[0];
        std::copy(record + 1, record + record_bytes, pixels_.begin() + static_cast<std::ptrdiff_t>(r * record_pixels));
    }
}

Batch Cifar10File::batch(int first, int size) const {
    Batch batch = empty_batch(size);
    for (int i = 0; i < size; ++i) {
        const std::size_t r = static_cast<std::size_t>(first + i) % labels_.size();
        batch.labels[i] = labels_[r];
        // ToTensor() then Normalize(0.5, 0.5), as the tutorial: (p / 255 - 0.5) / 0.5.
        for (int p = 0; p < record_pixels; ++p)
            batch.images[static_cast<std::size_t>(i) * record_pixels + p] =
                (pixels_[r * record_pixels + p] / 255.0f - 0.5f) / 0.5f;
    }
    return batch;
}

}  // namespace payback::bench
