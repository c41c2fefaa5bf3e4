// How fast C takes a tile's f32 sums by atomic adds: one element at a time
// (red.global.add.f32, what atomicAdd with an unused result becomes), two
// at a time (red.global.add.v2.f32, sm_90, PTX 8.1) or four (v4), against
// plain stores, in the wgmma accumulator layout (each thread holds pairs of
// adjacent columns, 8 rows and 8 columns apart).
//
//   nvcc -O3 -arch=sm_90 -o red-vector bench/probe/red-vector.cu && ./red-vector
//
// Each block writes one 128x256 tile of a 4096 x 4096 f32 C (512 tiles), as a
// kernel with two consumer warpgroups does; the sum of all adds is checked
// against the expected value. Prints the median of 20 timed launches after 5
// warm-ups, per variant, for the whole grid and for one wave of 132 blocks.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e));                      \
      return 1;                                                                \
    }                                                                          \
  } while (0)

constexpr int kN = 4096, kTileM = 128, kTileN = 256;

template <int kVariant>
__global__ void __launch_bounds__(256) addTile(float *c, float value) {
  int tilesN = kN / kTileN;
  int row0 = (blockIdx.x / tilesN) * kTileM, col0 = (blockIdx.x % tilesN) * kTileN;
  int t = threadIdx.x, wg = t / 128, warp = (t % 128) / 32, lane = t % 32;
  for (int j = 0; j < kTileN / 8; ++j)
    for (int h = 0; h < 2; ++h) {
      int row = row0 + wg * 64 + warp * 16 + lane / 4 + 8 * h;
      int col = col0 + 8 * j + (lane % 4) * 2;
      float *p = c + static_cast<size_t>(row) * kN + col;
      if (kVariant == 0) {
        *reinterpret_cast<float2 *>(p) = make_float2(value, value);
      } else if (kVariant == 1) {
        atomicAdd(p, value);
        atomicAdd(p + 1, value);
      } else if (kVariant == 2) {
        asm volatile("red.global.add.v2.f32 [%0], {%1, %2};" ::"l"(p),
                     "f"(value), "f"(value)
                     : "memory");
      }
    }
}

// v4: the same elements, four adjacent columns per thread (a layout the
// accumulators would need a shuffle for).
__global__ void __launch_bounds__(256) addTileV4(float *c, float value) {
  int tilesN = kN / kTileN;
  int row0 = (blockIdx.x / tilesN) * kTileM, col0 = (blockIdx.x % tilesN) * kTileN;
  int t = threadIdx.x;
  for (int i = 0; i < kTileM * kTileN / 4 / 256; ++i) {
    int e = (i * 256 + t) * 4;
    int row = row0 + e / kTileN, col = col0 + e % kTileN;
    float *p = c + static_cast<size_t>(row) * kN + col;
    asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p),
                 "f"(value), "f"(value), "f"(value), "f"(value)
                 : "memory");
  }
}

int main() {
  float *c;
  size_t elements = static_cast<size_t>(kN) * kN;
  CHECK(cudaMalloc(&c, elements * sizeof(float)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const char *names[] = {"store v2", "atomicAdd f32", "red.v2.f32", "red.v4.f32"};
  std::printf("| variant | blocks | adds | median us | Gadds/s |\n|---|---:|---:|---:|---:|\n");
  for (int blocks : {512, 132}) {
    for (int v = 0; v < 4; ++v) {
      auto launch = [&]() {
        if (v == 0) addTile<0><<<blocks, 256>>>(c, 1.0f);
        if (v == 1) addTile<1><<<blocks, 256>>>(c, 1.0f);
        if (v == 2) addTile<2><<<blocks, 256>>>(c, 1.0f);
        if (v == 3) addTileV4<<<blocks, 256>>>(c, 1.0f);
      };
      // Correctness: from zero, one launch adds 1 to each element of the
      // blocks' tiles (the store writes 1).
      CHECK(cudaMemset(c, 0, elements * sizeof(float)));
      launch();
      CHECK(cudaDeviceSynchronize());
      std::vector<float> host(elements);
      CHECK(cudaMemcpy(host.data(), c, elements * sizeof(float), cudaMemcpyDeviceToHost));
      double sum = 0;
      for (float x : host) sum += x;
      double expected = static_cast<double>(blocks) * kTileM * kTileN;
      if (sum != expected) {
        std::printf("%s: sum %.0f, expected %.0f: FAIL\n", names[v], sum, expected);
        return 1;
      }
      for (int i = 0; i < 5; ++i) launch();
      std::vector<float> times;
      for (int i = 0; i < 20; ++i) {
        CHECK(cudaEventRecord(start));
        launch();
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        times.push_back(ms);
      }
      std::sort(times.begin(), times.end());
      double us = times[times.size() / 2] * 1e3;
      double adds = expected;
      std::printf("| %s | %d | %.0f | %.2f | %.1f |\n", names[v], blocks, adds, us,
                  adds / us * 1e-3);
    }
  }
  return 0;
}
