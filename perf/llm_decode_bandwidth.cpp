// llm-decode on the CPU against this machine's memory bandwidth, in one run: a decode step must read
// every weight of the model's matrices once, so tokens per second can be at most
//     bandwidth / weight bytes per token,
// with the bandwidth measured here on the same number of threads by a copy kernel (STREAM's Copy,
// https://www.cs.virginia.edu/stream/ref.html: bytes read + bytes written over the time, best of the runs)
// and by a read kernel (bytes read: what a decode step does). Prints both limits and the fraction of each
// reached, and where the KV cache is 1 % of the weights or more, the read limit counting it too
// (docs/benchmark.md records runs). Run by hand:
//     build/bin/llm_decode_bandwidth [--threads 2] [--quant q8_0,q4_0,f16] [--context 128] [--tokens 16]
//                                    [--llm layers=22,d_model=2048,heads=32,kv_heads=4,ffn=5632,vocab=32000]
// The default shape is TinyLlama 1.1B's (https://huggingface.co/TinyLlama/TinyLlama-1.1B-Chat-v1.0,
// config.json): 1.1 GB of Q8_0 matrices, far beyond any cache.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "payback/bench/llm_decoder.hpp"

using namespace payback::bench;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Copy bandwidth in bytes per second (read + written), best of `runs`, each thread copying its share.
double copy_bandwidth(int threads, std::size_t bytes, int runs) {
    std::vector<char> from(bytes, 1), to(bytes, 0);
    double best = 0;
    for (int run = 0; run < runs; ++run) {
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t)
            workers.emplace_back([&, t] {
                const std::size_t begin = bytes * t / threads, end = bytes * (t + 1) / threads;
                std::memcpy(to.data() + begin, from.data() + begin, end - begin);
            });
        for (auto& w : workers) w.join();
        best = std::max(best, 2.0 * static_cast<double>(bytes) / seconds_since(start));
    }
    if (to[bytes / 2] != 1) std::puts("copy failed");
    return best;
}

/// Read bandwidth in bytes per second, best of `runs`: each thread reads its share as four streams side
/// by side (its quarters), 64 bytes from each in turn, prefetching 2 KB ahead, and sums the 64-bit words
/// into eight independent sums, so that the adds keep up with memory even in the baseline build; the total
/// is checked, so the reads cannot be optimized away. One stream a thread keeps too few cache-line fills
/// in flight: on the 2-core VM of docs/benchmark.md it reads 22 to 26 GB/s with any prefetch distance,
/// four streams 30 to 41 (and a plain loop without prefetches 14). The decode kernels read four rows, or
/// four groups of rows, side by side for the same reason.
double read_bandwidth(int threads, std::size_t bytes, int runs) {
    constexpr std::size_t streams = 4, line = 8, ahead = 2048 / sizeof(std::uint64_t);  // in words
    std::vector<std::uint64_t> words(bytes / 8, 1);
    double best = 0;
    for (int run = 0; run < runs; ++run) {
        std::vector<std::uint64_t> sums(static_cast<std::size_t>(threads));
        const auto start = std::chrono::steady_clock::now();
        std::vector<std::thread> workers;
        for (int t = 0; t < threads; ++t)
            workers.emplace_back([&, t] {
                const std::size_t begin = words.size() * t / threads, end = words.size() * (t + 1) / threads;
                const std::size_t length = (end - begin) / streams / line * line;  // words a stream
                std::uint64_t sum[line] = {};
                for (std::size_t i = 0; i < length; i += line)
                    for (std::size_t s = 0; s < streams; ++s) {
                        const std::uint64_t* at = words.data() + begin + s * length + i;
                        __builtin_prefetch(at + ahead);
                        for (std::size_t k = 0; k < line; ++k) sum[k] += at[k];
                    }
                for (std::size_t i = begin + streams * length; i < end; ++i) sum[0] += words[i];
                sums[t] = sum[0] + sum[1] + sum[2] + sum[3] + sum[4] + sum[5] + sum[6] + sum[7];
            });
        for (auto& w : workers) w.join();
        best = std::max(best, static_cast<double>(bytes) / seconds_since(start));
        std::uint64_t total = 0;
        for (std::uint64_t sum : sums) total += sum;
        if (total != words.size()) std::puts("read failed");
    }
    return best;
}

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        parts.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return parts;
}

}  // namespace

int main(int argc, char** argv) {
    int threads = 2, context = 128, tokens = 16, rounds = 5;
    std::string quants = "q8_0,q4_0,f16";
    std::string shape = "layers=22,d_model=2048,heads=32,kv_heads=4,ffn=5632,vocab=32000";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        if (flag == "--threads") threads = std::stoi(value);
        else if (flag == "--context") context = std::stoi(value);
        else if (flag == "--tokens") tokens = std::stoi(value);
        else if (flag == "--rounds") rounds = std::stoi(value);
        else if (flag == "--quant") quants = value;
        else if (flag == "--llm") shape = value;
        else {
            std::fprintf(stderr, "unknown flag %s\n", flag.c_str());
            return 2;
        }
    }
    const LlmConfig config = parse_llm_config(shape);
    constexpr std::size_t copy_bytes = std::size_t(512) << 20;  // 512 MiB each way: no cache holds it
    std::printf("model: %s, %d threads, context %d\n", shape.c_str(), threads, context);

    for (const std::string& name : split(quants)) {
        const Quant quant = parse_quant(name);
        LlmDecoder decoder(config, quant, 1, threads, 1, context + 1);
        decoder.fill_cache(2);
        const double weight_bytes = static_cast<double>(decoder.matrix_bytes());
        const double kv_bytes = static_cast<double>(llm_kv_bytes(config, context + 1));
        int token = 0;
        auto decode_tokens = [&](int count) {
            const auto start = std::chrono::steady_clock::now();
            for (int t = 0; t < count; ++t) {
                decoder.set_length(0, context);
                decoder.decode({token++ % config.vocab});
            }
            return count / seconds_since(start);
        };
        decode_tokens(2);  // warm-up: page faults, the threads' first wake-up
        // Rounds of a copy then a decode run, so that both see the machine in the same state; the best of each.
        double copy = 0, read = 0, rate = 0;
        for (int round = 0; round < rounds; ++round) {
            copy = std::max(copy, copy_bandwidth(threads, copy_bytes, 2));
            read = std::max(read, read_bandwidth(threads, copy_bytes, 2));
            rate = std::max(rate, decode_tokens(tokens));
        }
        const double copy_limit = copy / weight_bytes, read_limit = read / weight_bytes;
        std::printf("%-5s weights %.3f GB a token (+ %.1f MB of KV cache), kernels %s | measured %.2f tokens/s\n"
                    "      copy bandwidth %.2f GB/s: limit %.2f tokens/s, reached %.1f %%"
                    " | read bandwidth %.2f GB/s: limit %.2f tokens/s, reached %.1f %%\n",
                    name.c_str(), weight_bytes / 1e9, kv_bytes / 1e6, decoder.kernels(), rate, copy / 1e9,
                    copy_limit, 100 * rate / copy_limit, read / 1e9, read_limit, 100 * rate / read_limit);
        // At long contexts a step also reads the cache: the limits above count the weights only, as the
        // target is worded; this one counts both.
        if (kv_bytes >= 0.01 * weight_bytes) {
            const double with_cache = read / (weight_bytes + kv_bytes);
            std::printf("      counting the KV cache a step reads too: read limit %.2f tokens/s, reached %.1f %%\n",
                        with_cache, 100 * rate / with_cache);
        }
        std::fflush(stdout);
    }
    return 0;
}
