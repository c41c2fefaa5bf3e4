// Times the copy that repacks a row-major f32 matrix onto rows padded to a
// multiple of 4 elements (cudaMemcpy2DAsync, device to device): the price
// of reading an operand whose rows are off 16 bytes through a padded copy.
// Event medians of 20 copies after 5 warm-ups, sources rotated past L2.
//   nvcc -O2 -o repack-copy bench/probe/repack-copy.cu
//   ./repack-copy ROWS COLS [ROWS COLS ...]   -> "ROWS COLS pitch_in pitch_out us GB/s"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e = (x);                                                      \
    if (e != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));           \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i += 2) {
    size_t rows = std::atoll(argv[i]), cols = std::atoll(argv[i + 1]);
    size_t padded = (cols + 3) / 4 * 4;
    size_t inBytes = rows * cols * 4, outBytes = rows * padded * 4;
    // Enough sources to rotate past the 50 MiB L2.
    int sets = int(std::max<size_t>(1, (size_t(256) << 20) / inBytes));
    sets = std::min(sets, 16);
    std::vector<float *> src(sets);
    for (auto &p : src) {
      CHECK(cudaMalloc(&p, inBytes));
      CHECK(cudaMemset(p, 0, inBytes));
    }
    float *dst;
    CHECK(cudaMalloc(&dst, outBytes));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<float> times;
    for (int it = 0; it < 25; ++it) {
      CHECK(cudaEventRecord(start));
      CHECK(cudaMemcpy2DAsync(dst, padded * 4, src[it % sets], cols * 4,
                              cols * 4, rows, cudaMemcpyDeviceToDevice));
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      if (it >= 5)
        times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    double us = times[times.size() / 2] * 1e3;
    std::printf("%zu %zu %zu %zu %.2f %.0f\n", rows, cols, cols * 4,
                padded * 4, us, (inBytes + outBytes) / us * 1e-3);
    for (auto p : src)
      CHECK(cudaFree(p));
    CHECK(cudaFree(dst));
  }
  return 0;
}
