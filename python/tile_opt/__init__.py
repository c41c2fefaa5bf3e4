"""Load and launch tile-opt kernels from Python.

A thin layer over the runtime's C API (libtile_runtime.so, through ctypes;
no build step). Importing needs neither the library nor CUDA; opening an
artifact needs the library; loading and launching need the NVIDIA driver.

    import tile_opt
    kernel = tile_opt.load("out/matmul_matmul0.json")  # manifest + binaries
    kernel(a, b, c)                                    # c (+)= a @ b

Arguments are any objects with __cuda_array_interface__ (PyTorch, CuPy,
Numba) or DLPack (__dlpack__ / __dlpack_device__: PyTorch, CuPy, JAX; bf16
needs DLPack). Each is checked against the manifest before any CUDA call:
its shape (A m x k, B k x n, C m x n; for a batched kernel, info.batch > 1,
3-d arrays (batch, rows, cols): C[b] (+)= A[b] @ B[b]), element type (the
manifest's f32, bf16 or f16), strides (the manifest's, in elements:
row_stride and col_stride, and batch_stride first for a batched kernel;
a param with an offset, a strided memref's, takes the view of its matrix
and the kernel gets that address minus the offset), alignment, that C is
writable and that all are on one CUDA device; a
mismatch raises ArgumentError naming the argument. The launch is
asynchronous on `stream` (default: the legacy default stream), in the
device's primary context (the one PyTorch and CuPy use).
"""

import ctypes

from . import _arrays, _capi
from ._errors import ArgumentError, TileError

__all__ = ["load", "Kernel", "KernelInfo", "ParamInfo", "TileError",
           "ArgumentError", "library_candidates"]


def library_candidates():
    """The paths libtile_runtime.so is looked for at, in order."""
    return _capi.candidates()


def _fail(lib, status, error_type=TileError):
    name = _capi.text(lib.tile_status_name(status))
    raise error_type("%s (%s)" % (_capi.text(lib.tile_last_error()), name),
                     status, name)


# A dynamic offset or stride in ParamInfo (the manifest's "dynamic").
DYNAMIC = -1


class ParamInfo:
    """One kernel parameter as the manifest describes it. `batch` is the
    kernel's (1 unless it is batched)."""

    def __init__(self, c, batch=1):
        self.name = _capi.text(c.name)
        self.role = _capi.text(c.role)
        self.element_type = _capi.text(c.element_type)
        self.rows, self.cols = c.rows, c.cols
        self.row_stride, self.col_stride = c.row_stride, c.col_stride
        self.batch, self.batch_stride = batch, c.batch_stride
        # A strided operand's offset (a memref subview's): elements from the
        # buffer the kernel takes to element (0, 0). An array passed for it
        # is that element's view; the kernel gets its address minus offset.
        self.offset = c.offset
        self.alignment = c.alignment
        self.access = _capi.text(c.access)
        self.element_bytes = c.element_bytes
        self.required_bytes = c.required_bytes

    @property
    def dynamic(self):
        """Whether some offset or stride is dynamic (DYNAMIC, -1): the
        array passed for the param gives it at launch."""
        return DYNAMIC in (self.offset, self.row_stride, self.col_stride,
                           self.batch_stride)

    @property
    def batched(self):
        """True for the matrices of a batched kernel: 3-d arrays."""
        return self.batch > 1

    @property
    def shape(self):
        """(rows, cols), or (batch, rows, cols) for a batched kernel."""
        if self.batched:
            return (self.batch, self.rows, self.cols)
        return (self.rows, self.cols)

    @property
    def strides(self):
        """In elements, as (row, column), or (batch, row, column) for a
        batched kernel."""
        if self.batched:
            return (self.batch_stride, self.row_stride, self.col_stride)
        return (self.row_stride, self.col_stride)

    def __repr__(self):
        return ("ParamInfo(%s: %s %s %s, strides %s)" %
                (self.name, self.role,
                 "x".join(str(x) for x in self.shape), self.element_type,
                 self.strides))


class KernelInfo:
    """What the manifest says about the kernel."""

    def __init__(self, c):
        text = _capi.text
        self.kernel = text(c.kernel)
        self.manifest_path = text(c.manifest_path)
        self.chip = text(c.chip)
        self.cubin_path = text(c.cubin_path)
        self.ptx_path = text(c.ptx_path)
        self.grid = tuple(c.grid)
        self.block = tuple(c.block)
        self.cluster = tuple(c.cluster)
        self.dynamic_shared_bytes = c.dynamic_shared_bytes
        self.m, self.n, self.k = c.m, c.n, c.k
        # The number of matrices of a batched kernel (grid y); 1 otherwise.
        self.batch = c.batch
        self.element_type = text(c.element_type)
        self.c_init = text(c.c_init)
        self.c_fill_value = c.c_fill_value
        self.params = [ParamInfo(c.params[i], c.batch)
                       for i in range(c.num_params)]
        self.num_tensor_maps = c.num_tensor_maps
        self.strategy = text(c.strategy)
        self.config = text(c.config_text)
        self.config_short = text(c.config_short)
        self.registers = c.registers

    @property
    def result_type(self):
        return self.params[-1].element_type

    def __repr__(self):
        batch = "%d x " % self.batch if self.batch > 1 else ""
        return ("KernelInfo(%s: %s%dx%dx%d %s, C %s %s, %s)" %
                (self.kernel, batch, self.m, self.n, self.k,
                 self.element_type, self.result_type, self.c_init,
                 self.config_short))


def _stream_handle(stream):
    if stream is None:
        return None
    if isinstance(stream, int):
        return stream or None
    for attribute in ("cuda_stream", "ptr", "handle"):  # torch, cupy, ...
        value = getattr(stream, attribute, None)
        if isinstance(value, int):
            return value or None
    raise ArgumentError("stream: expected a CUstream handle (an int) or an "
                        "object with .cuda_stream (torch.cuda.Stream) or .ptr "
                        "(cupy.cuda.Stream), got %s" % type(stream).__name__)


class Kernel:
    """A kernel artifact: opened from its manifest (the binaries' sizes and
    hashes checked, no GPU needed), loaded onto a device on first launch."""

    def __init__(self, manifest_path):
        self._lib = _capi.library()
        self._artifact = ctypes.c_void_p()
        self._kernel = ctypes.c_void_p()
        self._device = None
        status = self._lib.tile_artifact_open(
            str(manifest_path).encode(), ctypes.byref(self._artifact))
        if status != _capi.SUCCESS:
            _fail(self._lib, status)
        info = _capi.KernelInfo()
        status = self._lib.tile_artifact_get_info(self._artifact,
                                                  ctypes.byref(info))
        if status != _capi.SUCCESS:
            _fail(self._lib, status)
        self.info = KernelInfo(info)

    # Lifetime.
    def close(self):
        """Unloads the kernel and closes the artifact."""
        if getattr(self, "_kernel", None):
            self._lib.tile_kernel_unload(self._kernel)
            self._kernel = ctypes.c_void_p()
        if getattr(self, "_artifact", None):
            self._lib.tile_artifact_close(self._artifact)
            self._artifact = ctypes.c_void_p()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _check_open(self):
        if not self._artifact:
            raise TileError("kernel %s is closed" % self.info.kernel)

    # Arguments.
    def check(self, *arrays):
        """Checks launch arguments against the manifest without CUDA; returns
        their views and buffers. Raises ArgumentError. A param whose offset
        or strides are dynamic (ParamInfo.dynamic) takes the array's strides
        there, and the array's first element as its matrix's (a dynamic
        offset of 0)."""
        views, buffers, _ = self._check_arguments(arrays)
        return views, buffers

    def _check_arguments(self, arrays):
        self._check_open()
        params = self.info.params
        if len(arrays) != len(params):
            raise ArgumentError(
                "expected %d arrays (%s), got %d" %
                (len(params), ", ".join(p.name for p in params), len(arrays)))
        views = [_arrays.view(a, p.name) for a, p in zip(arrays, params)]
        for v, p in zip(views, params):
            self._check_one(v, p)
        devices = {v.device for v in views if v.device is not None}
        if len(devices) > 1:
            raise ArgumentError(
                "the arrays are on different devices (%s): they must all be "
                "on one" % ", ".join("%s on %d" % (v.name, v.device)
                                     for v in views if v.device is not None))
        if self._device is not None and devices and devices != {self._device}:
            raise ArgumentError(
                "the arrays are on device %d, the kernel was loaded on device "
                "%d" % (devices.pop(), self._device))
        buffers = (_capi.Buffer * len(views))()
        layouts = None
        if any(p.dynamic for p in params):
            layouts = (_capi.Layout * len(views))()
        for i, (v, p) in enumerate(zip(views, params)):
            if layouts is None:
                # The array's shape and strides are the manifest's: it spans
                # what the param needs (the runtime's getRequiredBytes, batch
                # included).
                buffers[i].device_ptr = v.ptr - p.offset * p.element_bytes
                buffers[i].size_bytes = p.required_bytes
                continue
            # Dynamic fields take the array's strides; a dynamic offset is
            # 0 from the array's first element.
            offset = 0 if p.offset == DYNAMIC else p.offset
            strides = dict(zip(("batch", "row", "col")[-len(v.strides):],
                               v.strides))
            layout = layouts[i]
            layout.offset = offset
            for field, key in (("row_stride", "row"), ("col_stride", "col"),
                               ("batch_stride", "batch")):
                own = getattr(p, field)
                setattr(layout, field,
                        strides.get(key, 0) if own == DYNAMIC else own)
            buffers[i].device_ptr = v.ptr - offset * p.element_bytes
            span = offset + 1 + sum((n - 1) * st for n, st in
                                    zip(v.shape, v.strides))
            buffers[i].size_bytes = span * p.element_bytes
        if layouts is None:
            status = self._lib.tile_artifact_check_args(
                self._artifact, buffers, len(views))
        else:
            status = self._lib.tile_artifact_check_layouts(
                self._artifact, buffers, layouts, len(views))
        if status != _capi.SUCCESS:
            _fail(self._lib, status, ArgumentError)
        return views, buffers, layouts

    def _check_one(self, v, p):
        what = {"lhs": "m x k", "rhs": "k x n", "result": "m x n"}.get(p.role,
                                                                       "")
        if p.batched:
            # A batched kernel's matrices: (batch, rows, cols).
            what = "batch x " + what
            expected = "%d x %d x %d" % p.shape
            if len(v.shape) != 3:
                raise ArgumentError("%s: %d dimensions %s, the batched kernel "
                                    "takes a batch of matrices (%s, %s)" %
                                    (v.name, len(v.shape), v.shape, expected,
                                     what))
        else:
            expected = "%d x %d" % p.shape
            if len(v.shape) != 2:
                raise ArgumentError("%s: %d dimensions %s, the kernel takes a "
                                    "matrix (%s, %s)" %
                                    (v.name, len(v.shape), v.shape, expected,
                                     what))
        if v.element_type != p.element_type:
            raise ArgumentError("%s: element type %s, the kernel takes %s" %
                                (v.name, v.element_type, p.element_type))
        if v.shape != p.shape:
            raise ArgumentError("%s: shape %s, the kernel takes %s (%s)"
                                % (v.name, v.shape, expected, what))
        # A stride of an extent-1 dimension is never used; a dynamic one is
        # the array's (the runtime checks it at launch).
        mismatched = [i for i in range(len(p.shape))
                      if v.shape[i] > 1 and p.strides[i] != DYNAMIC and
                      v.strides[i] != p.strides[i]]
        if mismatched:
            contiguous = p.strides == (p.cols, 1) or (
                p.batched and p.strides == (p.rows * p.cols, p.cols, 1))
            manifest = ("the manifest's batch_stride, row_stride and "
                        "col_stride" if p.batched else
                        "the manifest's row_stride and col_stride")
            raise ArgumentError(
                "%s: strides %s (elements), the kernel takes %s: %s" %
                (v.name, v.strides, p.strides,
                 "a row-major contiguous array (e.g. .contiguous())"
                 if contiguous else manifest))
        if v.ptr == 0:
            raise ArgumentError("%s: null pointer" % v.name)
        # (A strided param's offset keeps the alignment: tile-opt writes
        # offsets that are multiples of it.)
        if v.ptr % p.alignment:
            raise ArgumentError("%s: address 0x%x is not %d-byte aligned, as "
                                "the kernel assumes" % (v.name, v.ptr,
                                                        p.alignment))
        if p.access != "read" and v.readonly:
            raise ArgumentError("%s: read-only array, the kernel writes it" %
                                v.name)

    # Loading and launching.
    def load(self, device=0, binary="auto"):
        """Loads the kernel on CUDA device `device` (the cubin, or the PTX
        when the device is of another compute capability; `binary` =
        "cubin" or "ptx" forces one). Launches load it on their arrays'
        device when it is not loaded."""
        self._check_open()
        if binary not in _capi.BINARY_CHOICES:
            raise ArgumentError("binary must be auto, cubin or ptx, got %r" %
                                (binary,))
        if self._kernel:
            if device == self._device:
                return self
            raise TileError("kernel %s is loaded on device %d already" %
                            (self.info.kernel, self._device))
        options = _capi.LoadOptions(device, _capi.BINARY_CHOICES[binary])
        kernel = ctypes.c_void_p()
        status = self._lib.tile_kernel_load(self._artifact,
                                            ctypes.byref(options),
                                            ctypes.byref(kernel))
        if status != _capi.SUCCESS:
            _fail(self._lib, status)
        self._kernel, self._device = kernel, device
        return self

    @property
    def load_info(self):
        """How the kernel was loaded (device, binary, registers), or None."""
        if not self._kernel:
            return None
        info = _capi.LoadInfo()
        status = self._lib.tile_kernel_get_load_info(self._kernel,
                                                     ctypes.byref(info))
        if status != _capi.SUCCESS:
            _fail(self._lib, status)
        return {"device": info.device,
                "device_name": _capi.text(info.device_name),
                "compute_capability": (info.compute_major, info.compute_minor),
                "driver_version": info.driver_version,
                "binary_format": _capi.text(info.binary_format),
                "binary_path": _capi.text(info.binary_path),
                "registers": info.registers,
                "local_bytes": info.local_bytes}

    def launch(self, a, b, c, stream=None):
        """Checks the arguments, loads the kernel on their device if it is
        not loaded, and enqueues C (+)= A @ B on `stream` (for a batched
        kernel C[b] (+)= A[b] @ B[b] for every b). Asynchronous."""
        views, buffers, layouts = self._check_arguments((a, b, c))
        handle = _stream_handle(stream)
        if not self._kernel:
            device = next((v.device for v in views if v.device is not None), 0)
            self.load(device)
        if layouts is None:
            status = self._lib.tile_kernel_launch(self._kernel, buffers,
                                                  len(views), handle)
        else:
            status = self._lib.tile_kernel_launch_layouts(
                self._kernel, buffers, layouts, len(views), handle)
        if status != _capi.SUCCESS:
            _fail(self._lib, status,
                  ArgumentError if status == _capi.ERROR_INVALID_LAUNCH_ARGS
                  else TileError)
        del views  # the DLPack capsules may go now: the launch is enqueued

    __call__ = launch

    def __repr__(self):
        return "Kernel(%r)" % (self.info,)


def load(manifest_path):
    """Opens the artifact whose manifest is `manifest_path`."""
    return Kernel(manifest_path)
