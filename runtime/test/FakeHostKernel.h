//===- FakeHostKernel.h - CUDA C kernels built for the host -----*- C++ -*-===//
//
// The tests run tile-run's generated elementwise epilogue kernel (CUDA C,
// generateEpilogueKernel in tools/TileRun.h) without a GPU: the source is
// compiled by the host's C++ compiler, after a prelude that defines what
// CUDA C has and C++ lacks (__global__, threadIdx, blockIdx, __float_as_uint,
// the f16 conversions NVRTC's source takes from PTX instructions, taken here
// from HalfPrecision.h), into a shared library with one entry point that
// runs every thread of a grid one after another. The fake NVRTC
// (FakeNvrtc.cpp) builds such libraries, the fake driver (FakeCudaDriver.cpp)
// launches them, and the unit tests call them directly.
//
// Header-only; needs <dlfcn.h> where it is loaded.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_TEST_FAKEHOSTKERNEL_H
#define TILE_RUNTIME_TEST_FAKEHOSTKERNEL_H

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace tile::test {

/// The entry point of a host kernel library: runs kernel `name` (given at
/// build time) over the grid, one thread after another; `params` as
/// cuLaunchKernel takes them (each points at one argument's bytes).
using HostKernelLaunch = void (*)(void **params, const unsigned *grid,
                                  const unsigned *block);
inline constexpr const char *kHostKernelLaunchSymbol = "tile_host_launch";

/// The marker that starts an image of a host kernel library ("// " this,
/// the library's path, a newline), which the fake driver loads.
inline constexpr const char *kHostKernelMarker = "tile-fake-host-kernel";

/// The name of the kernel a CUDA C `source` defines (after
/// `__global__ void` and an optional `__launch_bounds__(...)`), and the
/// number of its parameters; false when there is none.
inline bool findCudaKernel(const std::string &source, std::string &name,
                           int &params) {
  size_t at = source.find("__global__ void");
  if (at == std::string::npos)
    return false;
  at += std::string("__global__ void").size();
  auto skipSpace = [&] {
    while (at < source.size() &&
           std::isspace(static_cast<unsigned char>(source[at])))
      ++at;
  };
  skipSpace();
  if (source.compare(at, 17, "__launch_bounds__") == 0) {
    at = source.find(')', at);
    if (at == std::string::npos)
      return false;
    ++at;
    skipSpace();
  }
  size_t end = at;
  while (end < source.size() &&
         (std::isalnum(static_cast<unsigned char>(source[end])) ||
          source[end] == '_'))
    ++end;
  if (end == at || end >= source.size() || source[end] != '(')
    return false;
  name = source.substr(at, end - at);
  int depth = 0;
  bool any = false;
  params = 0;
  for (size_t i = end; i < source.size(); ++i) {
    char ch = source[i];
    if (ch == '(') {
      ++depth;
    } else if (ch == ')') {
      if (--depth == 0)
        break;
    } else if (depth == 1 && ch == ',') {
      ++params;
    } else if (depth == 1 && !std::isspace(static_cast<unsigned char>(ch))) {
      any = true;
    }
  }
  if (any)
    ++params;
  return true;
}

/// What the host's C++ compiler needs before a CUDA C kernel source.
inline std::string getHostKernelPrelude() {
  return R"(// Host prelude of a tile-run test: CUDA C on the CPU.
#include "HalfPrecision.h"
#include <cstddef>
#include <cstring>
#include <math.h>
#include <utility>
namespace {
struct tile_host_dim3 {
  unsigned x, y, z;
};
tile_host_dim3 threadIdx, blockIdx, blockDim, gridDim;
inline unsigned __float_as_uint(float f) { return tile::run::floatBits(f); }
inline float __uint_as_float(unsigned u) {
  return tile::run::floatFromBits(u);
}
// What the source takes from cvt.f32.f16 and cvt.rn.f16.f32 on the GPU.
inline float tile_f16_to_f32(unsigned short h) {
  return tile::run::f16ToFloat(h);
}
inline unsigned short tile_f32_to_f16(float f) {
  return tile::run::floatToF16(f);
}
} // namespace
#define __global__
#define __device__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__ __restrict
#line 1 "kernel.cu"
)";
}

/// What follows the source: the entry point that runs kernel `name`.
inline std::string getHostKernelLauncher(const std::string &name) {
  return R"(
namespace {
template <typename T> T tile_host_argument(void *bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(value));
  return value;
}
template <typename... T, std::size_t... I>
void tile_host_call(void (*kernel)(T...), void **params,
                    std::index_sequence<I...>) {
  kernel(tile_host_argument<T>(params[I])...);
}
template <typename... T>
void tile_host_invoke(void (*kernel)(T...), void **params) {
  tile_host_call(kernel, params, std::index_sequence_for<T...>{});
}
} // namespace
extern "C" void tile_host_launch(void **params, const unsigned *grid,
                                 const unsigned *block) {
  gridDim = {grid[0], grid[1], grid[2]};
  blockDim = {block[0], block[1], block[2]};
  for (unsigned bz = 0; bz < grid[2]; ++bz)
    for (unsigned by = 0; by < grid[1]; ++by)
      for (unsigned bx = 0; bx < grid[0]; ++bx)
        for (unsigned tz = 0; tz < block[2]; ++tz)
          for (unsigned ty = 0; ty < block[1]; ++ty)
            for (unsigned tx = 0; tx < block[0]; ++tx) {
              blockIdx = {bx, by, bz};
              threadIdx = {tx, ty, tz};
              tile_host_invoke(&)" +
         name + R"(, params);
            }
}
)";
}

/// Compiles `source` (CUDA C defining kernel `name`) with the host's C++
/// compiler `cxx` into the shared library `library` (its source and the
/// compiler's output beside it: `library`.cpp, `library`.log). `includeDir`
/// holds HalfPrecision.h. No FMA contraction, as NVRTC's --fmad=false.
/// False, with the compiler's output in `log`, when it does not compile.
inline bool buildHostKernel(const std::string &cxx,
                            const std::string &includeDir,
                            const std::string &source, const std::string &name,
                            const std::string &library, std::string &log) {
  std::string file = library + ".cpp", logFile = library + ".log";
  {
    std::ofstream out(file);
    out << getHostKernelPrelude() << source << getHostKernelLauncher(name);
    if (!out) {
      log = "cannot write " + file;
      return false;
    }
  }
  std::string command = "'" + cxx +
                        "' -std=c++17 -O1 -fPIC -shared -ffp-contract=off "
                        "-fno-fast-math -I'" +
                        includeDir + "' -o '" + library + "' '" + file +
                        "' > '" + logFile + "' 2>&1";
  int status = std::system(command.c_str());
  std::ifstream in(logFile);
  std::stringstream text;
  text << in.rdbuf();
  log = text.str();
  if (status != 0 && log.empty())
    log = "'" + command + "' failed with status " + std::to_string(status);
  return status == 0;
}

} // namespace tile::test

#endif // TILE_RUNTIME_TEST_FAKEHOSTKERNEL_H
