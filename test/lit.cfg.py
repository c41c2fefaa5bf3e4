# -*- Python -*-
# lit configuration of tile-opt's tests: .mlir files under test/ run through
# tile-opt, upstream mlir-opt (with the plugin), FileCheck and ptxas.

import os
import shutil
import subprocess

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
else:
    lit_config.note("skipped: no GPU: the tests that run kernels are "
                    "unsupported here")
