"""ctypes declarations of the runtime's C API (runtime/include/tile/runtime/
tile_runtime.h) and where libtile_runtime.so is found.

The library is loaded on first use, not at import: importing tile_opt needs
neither the library nor CUDA. The library itself opens the NVIDIA driver
only when a kernel is loaded.
"""

import ctypes
import ctypes.util
import os

from ._errors import TileError

c_char_p = ctypes.c_char_p
c_int = ctypes.c_int
c_int64 = ctypes.c_int64
c_uint32 = ctypes.c_uint32
c_uint64 = ctypes.c_uint64
c_size_t = ctypes.c_size_t
c_double = ctypes.c_double
c_void_p = ctypes.c_void_p

# tile_status
SUCCESS = 0
ERROR_INVALID_ARGUMENT = 1
ERROR_INVALID_LAUNCH_ARGS = 10

# tile_binary_choice
BINARY_CHOICES = {"auto": 0, "cubin": 1, "ptx": 2}


class Buffer(ctypes.Structure):
    _fields_ = [("device_ptr", c_uint64), ("size_bytes", c_uint64)]


class Layout(ctypes.Structure):
    """tile_layout: one param's offset and strides at a launch."""
    _fields_ = [("offset", c_int64), ("row_stride", c_int64),
                ("col_stride", c_int64), ("batch_stride", c_int64)]


class ParamInfo(ctypes.Structure):
    _fields_ = [
        ("name", c_char_p),
        ("role", c_char_p),
        ("element_type", c_char_p),
        ("rows", c_int64),
        ("cols", c_int64),
        ("row_stride", c_int64),
        ("col_stride", c_int64),
        ("alignment", c_uint32),
        ("access", c_char_p),
        ("element_bytes", c_uint32),
        ("required_bytes", c_uint64),
        ("num_tensor_maps", c_uint32),
        # Appended with batched kernels (tile_runtime.h).
        ("batch_stride", c_int64),
        # Appended with strided operands.
        ("offset", c_int64),
    ]


class TensorMapInfo(ctypes.Structure):
    _fields_ = [
        ("param", c_char_p),
        ("param_index", c_size_t),
        ("box_rows", c_uint32),
        ("box_cols", c_uint32),
        ("swizzle", c_char_p),
        ("l2_promotion", c_char_p),
        ("repack_row_stride", c_int64),
    ]


class KernelInfo(ctypes.Structure):
    _fields_ = [
        ("kernel", c_char_p),
        ("manifest_path", c_char_p),
        ("chip", c_char_p),
        ("ptx_version", c_char_p),
        ("cubin_path", c_char_p),
        ("ptx_path", c_char_p),
        ("grid", c_uint32 * 3),
        ("block", c_uint32 * 3),
        ("cluster", c_uint32 * 3),
        ("dynamic_shared_bytes", c_uint32),
        ("m", c_int64),
        ("n", c_int64),
        ("k", c_int64),
        ("element_type", c_char_p),
        ("accumulator_type", c_char_p),
        ("c_init", c_char_p),
        ("c_fill_value", c_double),
        ("num_params", c_size_t),
        ("params", ctypes.POINTER(ParamInfo)),
        ("num_tensor_maps", c_size_t),
        ("tensor_maps", ctypes.POINTER(TensorMapInfo)),
        ("strategy", c_char_p),
        ("config_text", c_char_p),
        ("config_short", c_char_p),
        ("registers", c_int64),
        ("spill_stores", c_int64),
        ("spill_loads", c_int64),
        ("stack_bytes", c_int64),
        # Appended with batched kernels (tile_runtime.h).
        ("batch", c_int64),
    ]


class LoadOptions(ctypes.Structure):
    _fields_ = [("device", c_int), ("binary", c_int)]


class LoadInfo(ctypes.Structure):
    _fields_ = [
        ("device", c_int),
        ("device_name", ctypes.c_char * 256),
        ("compute_major", c_int),
        ("compute_minor", c_int),
        ("driver_version", c_int),
        ("binary_format", c_char_p),
        ("binary_path", c_char_p),
        ("registers", c_int),
        ("local_bytes", c_int),
        ("max_threads_per_block", c_int),
        ("context", c_void_p),
    ]


def _declare(lib):
    """Argument and result types of every function used."""
    P = ctypes.POINTER
    lib.tile_status_name.argtypes = [c_int]
    lib.tile_status_name.restype = c_char_p
    lib.tile_last_error.argtypes = []
    lib.tile_last_error.restype = c_char_p
    lib.tile_artifact_open.argtypes = [c_char_p, P(c_void_p)]
    lib.tile_artifact_open.restype = c_int
    lib.tile_artifact_close.argtypes = [c_void_p]
    lib.tile_artifact_close.restype = None
    lib.tile_artifact_get_info.argtypes = [c_void_p, P(KernelInfo)]
    lib.tile_artifact_get_info.restype = c_int
    lib.tile_artifact_check_args.argtypes = [c_void_p, P(Buffer), c_size_t]
    lib.tile_artifact_check_args.restype = c_int
    lib.tile_artifact_check_layouts.argtypes = [c_void_p, P(Buffer),
                                                P(Layout), c_size_t]
    lib.tile_artifact_check_layouts.restype = c_int
    lib.tile_kernel_load.argtypes = [c_void_p, P(LoadOptions), P(c_void_p)]
    lib.tile_kernel_load.restype = c_int
    lib.tile_kernel_get_load_info.argtypes = [c_void_p, P(LoadInfo)]
    lib.tile_kernel_get_load_info.restype = c_int
    lib.tile_kernel_launch.argtypes = [c_void_p, P(Buffer), c_size_t,
                                       c_void_p]
    lib.tile_kernel_launch.restype = c_int
    lib.tile_kernel_launch_layouts.argtypes = [c_void_p, P(Buffer), P(Layout),
                                               c_size_t, c_void_p]
    lib.tile_kernel_launch_layouts.restype = c_int
    lib.tile_kernel_unload.argtypes = [c_void_p]
    lib.tile_kernel_unload.restype = None
    return lib


_LIBRARY_NAME = "libtile_runtime.so"
_lib = None


def candidates():
    """Where libtile_runtime.so is looked for, in order: $TILE_RUNTIME_LIBRARY
    (only there, when set); the build trees of this repository (build/runtime
    of the whole project, /tmp/tile-rt of bench/gpu's runtime builds); then
    the loader's own search (LD_LIBRARY_PATH, installed libraries)."""
    explicit = os.environ.get("TILE_RUNTIME_LIBRARY")
    if explicit:
        return [explicit]
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    paths = [os.path.join(root, "build", "runtime", _LIBRARY_NAME),
             os.path.join(os.environ.get("TILE_RT_BUILD", "/tmp/tile-rt"),
                          _LIBRARY_NAME)]
    found = [p for p in paths if os.path.exists(p)]
    system = ctypes.util.find_library("tile_runtime")
    return found + [system or _LIBRARY_NAME]


def library():
    """The runtime library, loaded on first use."""
    global _lib
    if _lib is None:
        tried = []
        for path in candidates():
            try:
                _lib = _declare(ctypes.CDLL(path))
                break
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
        else:
            raise TileError(
                "cannot load the tile runtime library: tried " +
                "; ".join(tried) + ". Build it (cmake -S runtime -B BUILD && "
                "ninja -C BUILD tile_runtime) and set TILE_RUNTIME_LIBRARY to "
                "BUILD/libtile_runtime.so")
    return _lib


def text(value):
    return value.decode("utf-8", "replace") if value is not None else None
