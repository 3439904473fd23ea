// A fresh directory under the system temp dir for a test's files, removed with everything in it at
// scope exit.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

namespace payback::test {

class TempDir {
public:
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "payback-test-XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    /// Writes `text` byte for byte to `name` in this directory and returns its path.
    std::string write(const std::string& name, const std::string& text) const {
        const std::filesystem::path path = path_ / name;
        std::ofstream out(path, std::ios::binary);
        out << text;
        REQUIRE(out.good());
        return path.string();
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace payback::test
