#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "payback/base/error.hpp"
#include "payback/bench/data.hpp"
#include "support/input_errors.hpp"
#include "support/temp_dir.hpp"

using namespace payback::bench;
using payback::test::input_error;
using payback::test::TempDir;

namespace {

// One CIFAR-10 record: a label byte, then 1,024 R, 1,024 G and 1,024 B bytes.
std::string record(unsigned char label, unsigned char red, unsigned char green, unsigned char blue) {
    std::string r(1, static_cast<char>(label));
    r += std::string(1024, static_cast<char>(red));
    r += std::string(1024, static_cast<char>(green));
    r += std::string(1024, static_cast<char>(blue));
    return r;
}

}  // namespace

TEST_CASE("a CIFAR-10 binary file is read record by record, normalized as the tutorial does", "[bench][data]") {
    TempDir dir;
    std::string bytes = record(3, 0, 255, 51) + record(9, 102, 0, 0);
    bytes[1 + 5] = static_cast<char>(204);  // record 1, red plane, row 0, column 5
    const Cifar10File file(dir.write("data_batch_1.bin", bytes));
    CHECK(file.records() == 2);
    const Batch batch = file.batch(1, 3);  // records 2, 1, 2: wraps around
    REQUIRE(batch.size == 3);
    CHECK(batch.labels == std::vector<int>{9, 3, 9});
    // (p/255 - 0.5)/0.5: 102 → -0.2, 0 → -1, 255 → 1, 51 → -0.6, 204 → 0.6.
    CHECK(batch.images[0] == Approx(-0.2));
    CHECK(batch.images[1024] == Approx(-1.0));
    CHECK(batch.images[3072 + 0] == Approx(-1.0));
    CHECK(batch.images[3072 + 5] == Approx(0.6));
    CHECK(batch.images[3072 + 1024] == Approx(1.0));
    CHECK(batch.images[3072 + 2048] == Approx(-0.6));
}

TEST_CASE("files that are not CIFAR-10 are refused naming the file", "[bench][data][errors]") {
    TempDir dir;
    const std::string truncated = dir.write("short.bin", record(1, 0, 0, 0).substr(0, 3000));
    const auto e = input_error([&] { Cifar10File{truncated}; });
    CHECK(e.source() == truncated);
    CHECK_THAT(e.message(), Catch::Contains("3000 bytes is not a whole number of 3073-byte records"));

    const std::string bad_label = dir.write("label.bin", record(1, 0, 0, 0) + record(10, 0, 0, 0));
    CHECK_THAT(input_error([&] { Cifar10File{bad_label}; }).message(),
               Catch::Contains("record 2 (byte 3073) has label 10"));
    const std::string empty = dir.write("empty.bin", "");
    CHECK_THAT(input_error([&] { Cifar10File{empty}; }).message(), Catch::Contains("empty"));
    CHECK_THAT(input_error([&] { Cifar10File{(dir.path() / "missing.bin").string()}; }).message(),
               Catch::Contains("no such CIFAR-10 file"));
}

TEST_CASE("synthetic batches are seeded, in the tutorial's range, with every label", "[bench][data]") {
    const Batch a = synthetic_batch(256, 5);
    CHECK(a.images.size() == 256u * 3072u);
    CHECK(a.images == synthetic_batch(256, 5).images);
    CHECK(a.images != synthetic_batch(256, 6).images);
    CHECK(*std::min_element(a.images.begin(), a.images.end()) >= -1.0f);
    CHECK(*std::max_element(a.images.begin(), a.images.end()) <= 1.0f);
    for (int label = 0; label < 10; ++label)
        CHECK(std::count(a.labels.begin(), a.labels.end(), label) > 0);
}

TEST_CASE("a learnable batch is its class's pattern plus noise", "[bench][data]") {
    // Two samples of the same class are closer to each other than to a sample of another class.
    const Batch b = learnable_batch(64, 1, 2);
    const auto distance = [&](int i, int j) {
        double d = 0;
        for (int p = 0; p < 3072; ++p) {
            const double x = b.images[i * 3072 + p] - b.images[j * 3072 + p];
            d += x * x;
        }
        return d;
    };
    int same_i = -1, same_j = -1, other = -1;
    for (int i = 0; i < 64 && same_j < 0; ++i)
        for (int j = i + 1; j < 64; ++j)
            if (b.labels[i] == b.labels[j]) {
                same_i = i;
                same_j = j;
                break;
            }
    for (int k = 0; k < 64; ++k)
        if (b.labels[k] != b.labels[same_i]) other = k;
    REQUIRE(same_j >= 0);
    REQUIRE(other >= 0);
    CHECK(distance(same_i, same_j) < distance(same_i, other));
    CHECK(learnable_batch(8, 1, 3).labels != learnable_batch(8, 1, 4).labels);
}
