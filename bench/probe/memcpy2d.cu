// Probe: cuMemcpy2DAsync device-to-device with pitches that are not
// multiples of 16 bytes (an unaligned bf16 matrix into a 16-byte pitch).
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char *s; cuGetErrorString(r, &s); printf("%s failed: %s\n", #x, s); return 1; } } while (0)
int run(CUstream st, size_t rows, size_t cols) {
  size_t eb = 2, srcPitch = cols * eb, dstPitch = (cols * eb + 15) / 16 * 16;
  std::vector<unsigned short> h(rows * cols);
  for (size_t i = 0; i < h.size(); ++i) h[i] = (unsigned short)(i * 2654435761u >> 7);
  CUdeviceptr src, dst;
  CK(cuMemAlloc(&src, srcPitch * rows));
  CK(cuMemcpyHtoD(src, h.data(), srcPitch * rows));
  CUevent e0, e1; CK(cuEventCreate(&e0, 0)); CK(cuEventCreate(&e1, 0));
  std::vector<float> ts;
  for (int it = 0; it < 25; ++it) {
    CK(cuEventRecord(e0, st));
    CK(cuMemAllocAsync(&dst, dstPitch * rows, st));
    CUDA_MEMCPY2D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE; c.srcDevice = src; c.srcPitch = srcPitch;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE; c.dstDevice = dst; c.dstPitch = dstPitch;
    c.WidthInBytes = cols * eb; c.Height = rows;
    CUresult r = cuMemcpy2DAsync(&c, st);
    if (r != CUDA_SUCCESS) { const char *s; cuGetErrorString(r, &s); printf("%zux%zu memcpy2d: %s\n", rows, cols, s); return 1; }
    CK(cuEventRecord(e1, st));
    CK(cuStreamSynchronize(st));
    float ms; CK(cuEventElapsedTime(&ms, e0, e1)); ts.push_back(ms);
    if (it == 24) {
      std::vector<unsigned short> out(dstPitch / 2 * rows);
      CK(cuMemcpyDtoH(out.data(), dst, dstPitch * rows));
      size_t bad = 0;
      for (size_t i = 0; i < rows; ++i) for (size_t j = 0; j < cols; ++j)
        bad += out[i * dstPitch / 2 + j] != h[i * cols + j];
      std::sort(ts.begin() + 5, ts.end());
      double med = ts[15];
      printf("%6zu x %6zu  pitch %zu->%zu  median %.4f ms  %.0f GB/s (read+write)  mismatches %zu\n",
             rows, cols, srcPitch, dstPitch, med, 2.0 * rows * cols * eb / med / 1e6, bad);
    }
    CK(cuMemFreeAsync(dst, st));
  }
  CK(cuMemFree(src));
  return 0;
}
int main() {
  CK(cuInit(0)); CUdevice d; CK(cuDeviceGet(&d, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, d)); CK(cuCtxSetCurrent(ctx));
  CUstream st; CK(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
  size_t shapes[][2] = {{4095, 4093}, {4093, 4097}, {8191, 8191}, {1000, 1001}, {37, 13}, {1, 3}, {16, 8191}, {8192, 17}, {2047, 2049}, {511, 509}};
  for (auto &s : shapes) if (run(st, s[0], s[1])) return 1;
  return 0;
}
