//===- TestUtils.h - Helpers for the runtime's unit tests -------*- C++ -*-===//

#ifndef TILE_RUNTIME_TEST_TESTUTILS_H
#define TILE_RUNTIME_TEST_TESTUTILS_H

#include "tile/runtime/Manifest.h"

#include <string>
#include <utility>
#include <vector>

namespace tile::test {

/// runtime/test/fixtures/<name>.
std::string fixturePath(const std::string &name);

/// A fresh folder under $TMPDIR (or /tmp), removed with its files.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return dir; }
  std::string file(const std::string &name) const { return dir + "/" + name; }

private:
  std::string dir;
};

bool writeFile(const std::string &path, const std::string &text);
std::string readFile(const std::string &path);

/// Sets (or, with null, unsets) an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
  std::string name;
  bool hadValue = false;
  std::string oldValue;
};

struct CommandResult {
  /// The exit status, or 128 + signal when the process was killed.
  int exitCode = -1;
  bool crashed = false;
  std::string out, err;
};

/// Runs `argv` with `env` added to (or, for a null value, removed from) this
/// process's environment; captures stdout and stderr.
CommandResult
runCommand(const std::vector<std::string> &argv,
           const std::vector<std::pair<std::string, const char *>> &env = {});

/// Every variable that steers the fake driver (and the fake NVRTC), unset:
/// tests start from their defaults whatever the environment they run in.
std::vector<std::pair<std::string, const char *>> getFakeDriverDefaults();

/// A valid manifest: the first example of docs/artifact.md, an f32 FMA
/// kernel (no cluster, no tensor maps).
runtime::KernelManifest makeExampleManifest();

/// The second example of docs/artifact.md: a bf16 wgmma kernel with a
/// cluster of 2 and tensor maps for A and B, writing bf16 C.
runtime::KernelManifest makeWgmmaExampleManifest();

/// The fixture manifest `name` (runtime/test/fixtures/<name>.json) as a
/// batched kernel of `batch` matrices, written to `dir`/<name>_batched.json
/// beside a copy of naive_matmul.ptx: problem.batch and grid y `batch`, each
/// param's matrices `gap` elements apart past the elements one spans, and
/// its tensor maps batched. Returns the manifest's path (empty on failure).
std::string writeBatchedFixture(const TempDir &dir, const std::string &name,
                                int64_t batch, int64_t gap = 0);

/// The number of times `needle` occurs in `haystack`.
size_t countOccurrences(const std::string &haystack, const std::string &needle);

} // namespace tile::test

#endif // TILE_RUNTIME_TEST_TESTUTILS_H
