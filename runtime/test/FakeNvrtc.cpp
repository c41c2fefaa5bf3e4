//===- FakeNvrtc.cpp - A host-only stand-in for libnvrtc ------------------===//
//
// Exports the NVRTC entry points tile-run resolves, with nvrtc.h's
// prototypes, for the bench's separate elementwise epilogue kernel. It
// "compiles" a program into a text image the fake driver accepts (a
// PTX-like entry with one .u64 parameter per kernel parameter); with
// TILE_FAKE_NVRTC_CXX set it also builds the CUDA C source for the host
// (FakeHostKernel.h), and the image names that library, which the fake
// driver then runs at each launch. Without it the image's kernel does
// nothing.
//
//   TILE_FAKE_NVRTC_LOG     a file; each compilation appends a line
//                           "nvrtcCompileProgram NAME: OPTIONS", then the
//                           source, then "// end of NAME"
//   TILE_FAKE_NVRTC_CXX     the host's C++ compiler, to build the kernel
//   TILE_FAKE_NVRTC_DIR     where the host libraries go (default $TMPDIR
//                           or /tmp)
//   TILE_FAKE_NVRTC_FAIL    if set, every compilation fails with this text
//                           as its log
//
// Built a second time with TILE_FAKE_NVRTC_PTX_ONLY defined: an NVRTC
// without nvrtcGetCUBINSize and nvrtcGetCUBIN (PTX only, as before CUDA
// 11.1).
//
//===----------------------------------------------------------------------===//

#include "FakeHostKernel.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

namespace {
using Result = int;
enum : Result {
  NVRTC_SUCCESS = 0,
  NVRTC_ERROR_INVALID_INPUT = 3,
  NVRTC_ERROR_INVALID_PROGRAM = 4,
  NVRTC_ERROR_INVALID_OPTION = 5,
  NVRTC_ERROR_COMPILATION = 6,
};

struct FakeProgram {
  std::string source, name;
  std::string image, log;
  bool compiled = false;
  /// Compiled for a real architecture (--gpu-architecture=sm_XY): a "cubin".
  bool real = false;
};

std::string envString(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

void appendLog(const std::string &text) {
  std::string path = envString("TILE_FAKE_NVRTC_LOG");
  if (path.empty())
    return;
  if (FILE *file = std::fopen(path.c_str(), "a")) {
    std::fputs(text.c_str(), file);
    std::fclose(file);
  }
}
} // namespace

#define FAKE_API extern "C" __attribute__((visibility("default")))

FAKE_API const char *nvrtcGetErrorString(Result result) {
  switch (result) {
  case NVRTC_SUCCESS:
    return "NVRTC_SUCCESS";
  case NVRTC_ERROR_INVALID_INPUT:
    return "NVRTC_ERROR_INVALID_INPUT";
  case NVRTC_ERROR_INVALID_PROGRAM:
    return "NVRTC_ERROR_INVALID_PROGRAM";
  case NVRTC_ERROR_INVALID_OPTION:
    return "NVRTC_ERROR_INVALID_OPTION";
  case NVRTC_ERROR_COMPILATION:
    return "NVRTC_ERROR_COMPILATION";
  }
  return "NVRTC_ERROR_FAKE";
}

FAKE_API Result nvrtcVersion(int *major, int *minor) {
  *major = 13;
  *minor = 0;
  return NVRTC_SUCCESS;
}

FAKE_API Result nvrtcCreateProgram(FakeProgram **program, const char *source,
                                   const char *name, int numHeaders,
                                   const char *const *, const char *const *) {
  if (!program || !source || numHeaders != 0)
    return NVRTC_ERROR_INVALID_INPUT;
  auto *created = new FakeProgram();
  created->source = source;
  created->name = name ? name : "default_program";
  *program = created;
  return NVRTC_SUCCESS;
}

FAKE_API Result nvrtcDestroyProgram(FakeProgram **program) {
  if (!program || !*program)
    return NVRTC_ERROR_INVALID_PROGRAM;
  delete *program;
  *program = nullptr;
  return NVRTC_SUCCESS;
}

FAKE_API Result nvrtcCompileProgram(FakeProgram *program, int numOptions,
                                    const char *const *options) {
  if (!program)
    return NVRTC_ERROR_INVALID_PROGRAM;
  std::string joined;
  std::string arch;
  for (int i = 0; i < numOptions; ++i) {
    joined += (i ? " " : "") + std::string(options[i]);
    const char prefix[] = "--gpu-architecture=";
    if (std::strncmp(options[i], prefix, sizeof(prefix) - 1) == 0)
      arch = options[i] + sizeof(prefix) - 1;
  }
  appendLog("nvrtcCompileProgram " + program->name + ": " + joined + "\n" +
            program->source + "// end of " + program->name + "\n");
  if (arch.rfind("sm_", 0) != 0 && arch.rfind("compute_", 0) != 0) {
    program->log = "nvrtc: error: no --gpu-architecture=sm_XY or "
                   "compute_XY";
    return NVRTC_ERROR_INVALID_OPTION;
  }
  program->real = arch.rfind("sm_", 0) == 0;
  std::string failure = envString("TILE_FAKE_NVRTC_FAIL");
  if (!failure.empty()) {
    program->log = failure + "\n";
    return NVRTC_ERROR_COMPILATION;
  }
  std::string name;
  int params = 0;
  if (!tile::test::findCudaKernel(program->source, name, params)) {
    program->log = "fake-nvrtc: no __global__ kernel in the source\n";
    return NVRTC_ERROR_COMPILATION;
  }
  std::string image;
  std::string cxx = envString("TILE_FAKE_NVRTC_CXX");
  if (!cxx.empty()) {
    static int count = 0;
    std::string dir = envString("TILE_FAKE_NVRTC_DIR");
    if (dir.empty())
      dir = envString("TMPDIR");
    if (dir.empty())
      dir = "/tmp";
    std::string library = dir + "/fake-nvrtc-" + std::to_string(getpid()) +
                          "-" + std::to_string(count++) + ".so";
    std::string log;
    if (!tile::test::buildHostKernel(cxx, TILE_FAKE_NVRTC_INCLUDE_DIR,
                                     program->source, name, library, log)) {
      program->log = log;
      return NVRTC_ERROR_COMPILATION;
    }
    image += "// " + std::string(tile::test::kHostKernelMarker) + " " +
             library + "\n";
  }
  image += "// fake-nvrtc " + arch + "\n.version 8.0\n.target " + arch +
           "\n.address_size 64\n\n.visible .entry " + name + "(";
  for (int i = 0; i < params; ++i)
    image += std::string(i ? ",\n" : "\n") + "\t.param .u64 " + name +
             "_param_" + std::to_string(i);
  image += "\n)\n{\n\tret;\n}\n";
  program->image = image;
  program->log.clear();
  program->compiled = true;
  return NVRTC_SUCCESS;
}

FAKE_API Result nvrtcGetProgramLogSize(FakeProgram *program, size_t *bytes) {
  if (!program)
    return NVRTC_ERROR_INVALID_PROGRAM;
  *bytes = program->log.size() + 1;
  return NVRTC_SUCCESS;
}

FAKE_API Result nvrtcGetProgramLog(FakeProgram *program, char *log) {
  if (!program)
    return NVRTC_ERROR_INVALID_PROGRAM;
  std::memcpy(log, program->log.c_str(), program->log.size() + 1);
  return NVRTC_SUCCESS;
}

FAKE_API Result nvrtcGetPTXSize(FakeProgram *program, size_t *bytes) {
  if (!program || !program->compiled)
    return NVRTC_ERROR_INVALID_PROGRAM;
  *bytes = program->image.size() + 1;
  return NVRTC_SUCCESS;
}

FAKE_API Result nvrtcGetPTX(FakeProgram *program, char *ptx) {
  if (!program || !program->compiled)
    return NVRTC_ERROR_INVALID_PROGRAM;
  std::memcpy(ptx, program->image.c_str(), program->image.size() + 1);
  return NVRTC_SUCCESS;
}

#ifndef TILE_FAKE_NVRTC_PTX_ONLY
// A "cubin" is the same text (the fake driver reads both alike); only a
// compilation for a real architecture has one, as with NVRTC.
FAKE_API Result nvrtcGetCUBINSize(FakeProgram *program, size_t *bytes) {
  if (!program || !program->compiled)
    return NVRTC_ERROR_INVALID_PROGRAM;
  if (!program->real)
    return NVRTC_ERROR_INVALID_INPUT;
  *bytes = program->image.size() + 1;
  return NVRTC_SUCCESS;
}

FAKE_API Result nvrtcGetCUBIN(FakeProgram *program, char *cubin) {
  if (!program || !program->compiled)
    return NVRTC_ERROR_INVALID_PROGRAM;
  if (!program->real)
    return NVRTC_ERROR_INVALID_INPUT;
  std::memcpy(cubin, program->image.c_str(), program->image.size() + 1);
  return NVRTC_SUCCESS;
}
#endif // TILE_FAKE_NVRTC_PTX_ONLY
