// Probe: the runtime's repacking copy (rows of any byte length into rows
// padded to 128 bytes) by cuMemcpy2DAsync against a plain copy kernel in
// which each thread writes 16 bytes of the padded copy and reads its
// elements one at a time (the only loads an odd row pitch allows).
// Event medians of 20 after 5 warm-ups, sources rotated past L2, every
// element of the copy checked.
//   nvcc -O3 -arch=sm_90 -o repack-kernel bench/probe/repack-kernel.cu -lcuda
//   ./repack-kernel                 -> one line per shape and method
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e = (x);                                                      \
    if (e != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));           \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

// T: the element; each thread writes 16 bytes (16 / sizeof(T) elements).
template <typename T>
__global__ void repack(const T *__restrict__ src, T *__restrict__ dst,
                       int64_t rows, int64_t cols, int64_t srcStride,
                       int64_t dstStride) {
  constexpr int per = 16 / sizeof(T);
  int64_t chunks = dstStride / per;
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= rows * chunks)
    return;
  int64_t r = i / chunks, c = (i - r * chunks) * per;
  union {
    T e[per];
    uint4 v;
  } u;
  const T *row = src + r * srcStride;
#pragma unroll
  for (int j = 0; j < per; ++j)
    u.e[j] = c + j < cols ? row[c + j] : T(0);
  *reinterpret_cast<uint4 *>(dst + r * dstStride + c) = u.v;
}

// The same with each thread writing 32 bytes (two 16-byte stores).
template <typename T>
__global__ void repack2(const T *__restrict__ src, T *__restrict__ dst,
                        int64_t rows, int64_t cols, int64_t srcStride,
                        int64_t dstStride) {
  constexpr int per = 16 / sizeof(T);
  int64_t chunks = dstStride / per;
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  int64_t half = (chunks + 1) / 2;
  if (i >= rows * half)
    return;
  int64_t r = i / half, c0 = (i - r * half) * per;
  const T *row = src + r * srcStride;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    int64_t c = c0 + h * half * per;
    if (c >= dstStride)
      break;
    union {
      T e[per];
      uint4 v;
    } u;
#pragma unroll
    for (int j = 0; j < per; ++j)
      u.e[j] = c + j < cols ? row[c + j] : T(0);
    *reinterpret_cast<uint4 *>(dst + r * dstStride + c) = u.v;
  }
}

template <typename T>
void run(size_t rows, size_t cols, const char *type) {
  size_t eb = sizeof(T), perLine = 128 / eb;
  size_t stride = (cols + perLine - 1) / perLine * perLine;
  size_t inBytes = rows * cols * eb, outBytes = rows * stride * eb;
  int sets = int(std::min<size_t>(16, std::max<size_t>(1, (size_t(256) << 20) / inBytes)));
  std::vector<T *> src(sets);
  std::vector<uint16_t> host(inBytes / 2);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = uint16_t((i * 2654435761u) >> 9);
  for (auto &p : src) {
    CHECK(cudaMalloc(&p, inBytes));
    CHECK(cudaMemcpy(p, host.data(), inBytes, cudaMemcpyHostToDevice));
  }
  cudaStream_t st;
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  for (int method = 0; method < 3; ++method) {
    std::vector<float> ts;
    T *dst = nullptr;
    for (int it = 0; it < 25; ++it) {
      CHECK(cudaEventRecord(e0, st));
      CHECK(cudaMallocAsync(&dst, outBytes, st));
      if (method == 0) {
        CHECK(cudaMemcpy2DAsync(dst, stride * eb, src[it % sets], cols * eb,
                                cols * eb, rows, cudaMemcpyDeviceToDevice, st));
      } else if (method == 1) {
        int64_t n = rows * (stride * eb / 16);
        repack<T><<<(n + 255) / 256, 256, 0, st>>>(src[it % sets], dst, rows,
                                                   cols, cols, stride);
      } else {
        int64_t n = rows * ((stride * eb / 16 + 1) / 2);
        repack2<T><<<(n + 255) / 256, 256, 0, st>>>(src[it % sets], dst, rows,
                                                    cols, cols, stride);
      }
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(e1, st));
      CHECK(cudaStreamSynchronize(st));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, e0, e1));
      if (it >= 5)
        ts.push_back(ms);
      if (it < 24)
        CHECK(cudaFreeAsync(dst, st));
    }
    std::vector<uint16_t> out(outBytes / 2);
    CHECK(cudaMemcpy(out.data(), dst, outBytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFreeAsync(dst, st));
    CHECK(cudaStreamSynchronize(st));
    size_t bad = 0, w = eb / 2;
    int last = (24 % sets);
    (void)last; // every source holds the same values
    for (size_t r = 0; r < rows; ++r)
      for (size_t c = 0; c < cols * w; ++c)
        bad += out[r * stride * w + c] != host[r * cols * w + c];
    std::sort(ts.begin(), ts.end());
    double med = ts[ts.size() / 2];
    static const char *names[] = {"memcpy2d", "kernel16", "kernel32"};
    std::printf("%-4s %6zu x %6zu  %-9s %8.1f us  %6.0f GB/s  bad %zu\n", type,
                rows, cols, names[method], med * 1e3,
                (inBytes + outBytes) / (med * 1e6), bad);
  }
  for (auto p : src)
    CHECK(cudaFree(p));
  CHECK(cudaStreamDestroy(st));
}

int main() {
  size_t bf[][2] = {{2223, 6121}, {6121, 2223}, {3792, 6121}, {4095, 4093},
                    {8191, 8191}, {1000, 1001}, {511, 509},   {37, 13},
                    {16, 8191},   {8192, 17},   {64 * 512, 65}};
  for (auto &s : bf)
    run<uint16_t>(s[0], s[1], "b16");
  size_t f[][2] = {{4095, 4093}, {1000, 1001}, {2927, 867}};
  for (auto &s : f)
    run<float>(s[0], s[1], "f32");
  return 0;
}
