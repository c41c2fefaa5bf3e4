# -*- Python -*-
# lit configuration of tile-opt's tests: .mlir files under test/ run through
# tile-opt, upstream mlir-opt (with the plugin), FileCheck and ptxas.

import os
import shutil
import subprocess
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "TILE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py", "README.md"]

llvm_config.with_system_environment(["HOME", "TMP", "TEMP", "CUDA_HOME"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["tile-opt", "tile-interp", "tile-run", "tile-tune"], [config.tile_tools_dir])
llvm_config.add_tool_substitutions(["mlir-opt", "mlir-tblgen"],
                                   [config.llvm_tools_dir])

config.substitutions.append(("%tile_plugin", config.tile_plugin))
config.substitutions.append(("%tile_src_root", config.tile_src_root))
config.substitutions.append(("%tile_obj_root", config.tile_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%mlir_dir", config.mlir_dir))

# The Python that runs lit (Debian's /usr/bin/python3, which has Debian's
# python3-matplotlib) runs the project's Python scripts and tests.
config.substitutions.append(("%python", sys.executable))

# The runtime's C library and its stand-in CUDA driver, for the Python
# module's tests (python/tests).
config.substitutions.append(
    ("%tile_runtime_library",
     os.path.join(config.tile_obj_root, "runtime", "libtile_runtime.so")))
config.substitutions.append(
    ("%tile_fake_cuda_driver",
     os.path.join(config.tile_unittest_dir, "libTileFakeCudaDriver.so")))

# matplotlib (python3-matplotlib, from scripts/install-deps.sh): the plot
# script's test says "REQUIRES: matplotlib" and is unsupported, with a note,
# without it.
if subprocess.run([sys.executable, "-c", "import matplotlib"],
                  capture_output=True).returncode == 0:
    config.available_features.add("matplotlib")
else:
    lit_config.note("skipped: no matplotlib for %s (install "
                    "python3-matplotlib: scripts/install-deps.sh): the plot "
                    "test is unsupported here" % sys.executable)

# ptxas: CUDA_HOME, /usr/local/cuda, or PATH. Tests that need it say
# "REQUIRES: ptxas" and are reported unsupported, with a note, without it.
ptxas = None
for candidate in [os.path.join(os.environ.get("CUDA_HOME", ""), "bin", "ptxas"),
                  "/usr/local/cuda/bin/ptxas", shutil.which("ptxas") or ""]:
    if candidate and os.access(candidate, os.X_OK):
        ptxas = candidate
        break
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("skipped: no ptxas (set CUDA_HOME): the tests that "
                    "assemble PTX are unsupported here")

# A build with AddressSanitizer and UndefinedBehaviorSanitizer
# (TILE_SANITIZE=ON, build-asan/): tests that load the project's code into
# an uninstrumented program (the plugin in mlir-opt), link it into another
# project (Downstream) or run kernels (GPU) say "UNSUPPORTED: sanitizer".
sanitized = config.tile_sanitize.upper() in ("ON", "1", "TRUE", "YES")
if sanitized:
    config.available_features.add("sanitizer")
    # Every report stops the program (the build also compiles with
    # -fno-sanitize-recover). Leak checking stays on: MLIR frees what
    # tile-opt allocates through it. The symbolizer gives the reports
    # function names and lines.
    config.environment["ASAN_OPTIONS"] = "abort_on_error=1:detect_leaks=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    symbolizer = os.path.join(config.llvm_tools_dir, "llvm-symbolizer")
    if os.access(symbolizer, os.X_OK):
        config.environment["ASAN_SYMBOLIZER_PATH"] = symbolizer
        config.environment["UBSAN_SYMBOLIZER_PATH"] = symbolizer
    lit_config.note("sanitizer build: the plugin, downstream and GPU tests "
                    "are unsupported here")

# A GPU: the driver library loads and nvidia-smi lists a device. Tests that
# run kernels say "REQUIRES: gpu".
def has_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        result = subprocess.run([smi, "-L"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0 and b"GPU" in result.stdout

if has_gpu():
    config.available_features.add("gpu")
    # PyTorch with CUDA, for the Python example's GPU test.
    if subprocess.run([sys.executable, "-c",
                       "import torch, sys; "
                       "sys.exit(0 if torch.cuda.is_available() else 1)"],
                      capture_output=True).returncode == 0:
        config.available_features.add("torch")
    else:
        lit_config.note("skipped: no PyTorch with CUDA for %s: the Python "
                        "example's GPU test is unsupported here"
                        % sys.executable)
else:
    lit_config.note("skipped: no GPU: the tests that run kernels are "
                    "unsupported here")
