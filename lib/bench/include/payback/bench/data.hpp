// Batches of CIFAR-shaped training data: synthetic from a seed (the default), a learnable synthetic
// task (to show training trains), or the real CIFAR-10 binary files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace payback::bench {

/// `size` samples: images in NCHW float32 (size × channels × height × width), labels 0..classes-1.
struct Batch {
    int size = 0;
    int channels = 3;
    int height = 32;
    int width = 32;
    std::vector<float> images;
    std::vector<int> labels;
};

/// Pixels as the tutorial feeds them: uniform in [-1, 1] (ToTensor then Normalize(0.5, 0.5)), random labels.
Batch synthetic_batch(int size, std::uint64_t seed, int classes = 10);

/// A task a network can learn: each class has a fixed random pattern, each sample is its class's
/// pattern plus noise (the same `task_seed` gives the same patterns).
Batch learnable_batch(int size, std::uint64_t task_seed, std::uint64_t batch_seed, int classes = 10);

/// One CIFAR-10 binary file (data_batch_N.bin, test_batch.bin): records of one label byte and 3,072
/// pixel bytes (1,024 R, 1,024 G, 1,024 B, each row-major). Pixels become (p/255 - 0.5)/0.5.
/// Throws InputError naming the file (and the record) when it is missing, empty, not a whole number
/// of records, or has a label above 9.
class Cifar10File {
public:
    explicit Cifar10File(const std::string& path);
    int records() const { return static_cast<int>(labels_.size()); }
    /// Records [first, first + size), wrapping around at the end.
    Batch batch(int first, int size) const;

private:
    std::vector<std::uint8_t> pixels_;
    std::vector<int> labels_;
};

}  // namespace payback::bench
