// main() for the g++ builds of the fuzz targets (no libFuzzer): replays inputs through
// LLVMFuzzerTestOneInput. Arguments are files, or folders whose regular files are all
// replayed (recursively, in name order). A broken promise aborts, so the exit status
// says whether the corpus passes; run it under valgrind for a memcheck of the corpus.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s <file or folder>...\n", argv[0]);
        return 2;
    }
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            for (const auto& entry : fs::recursive_directory_iterator(arg))
                if (entry.is_regular_file()) files.push_back(entry.path());
        } else if (fs::is_regular_file(arg, ec)) {
            files.push_back(arg);
        } else {
            std::fprintf(stderr, "%s: no such file or folder\n", argv[i]);
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    std::size_t bytes = 0;
    for (const auto& file : files) {
        std::ifstream in(file, std::ios::binary);
        const std::vector<char> content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.eof() && in.fail()) {
            std::fprintf(stderr, "%s: cannot read\n", file.c_str());
            return 2;
        }
        // An exactly sized block, as libFuzzer gives: valgrind sees any over-read.
        const std::size_t n = content.size();
        std::unique_ptr<std::uint8_t[]> data(new std::uint8_t[n]);
        std::copy(content.begin(), content.end(), data.get());
        LLVMFuzzerTestOneInput(data.get(), n);
        bytes += n;
    }
    std::printf("%s: replayed %zu inputs (%zu bytes)\n", argv[0], files.size(), bytes);
    return files.empty() ? 1 : 0;
}
