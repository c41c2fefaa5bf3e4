"""Tests of the tile_opt Python module without a GPU.

Loading and argument checks use the runtime's fixture artifacts
(runtime/test/fixtures) and fake arrays: host memory exposed through
__cuda_array_interface__ or a DLPack capsule. Launches go through the
runtime's stand-in driver (TILE_CUDA_DRIVER_LIBRARY=libTileFakeCudaDriver.so,
whose device memory is host memory and whose "kernel" computes the matmul
the test describes in TILE_FAKE_CUDA_MATMUL), so the numbers the kernel
writes are checked too.

Run with TILE_RUNTIME_LIBRARY (libtile_runtime.so) and TILE_FAKE_CUDA_DRIVER
(libTileFakeCudaDriver.so) set, python/ on PYTHONPATH (test/Python runs
them).
"""

import ctypes
import itertools
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

import tile_opt

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "runtime", "test", "fixtures")
FAKE_DRIVER = os.environ.get("TILE_FAKE_CUDA_DRIVER", "")


def fixture(name):
    return os.path.join(FIXTURES, "tile_test_matmul_%s.json" % name)


def to_bf16(value):
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16


def from_bf16(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def round_f32(value):
    return struct.unpack("<f", struct.pack("<f", value))[0]


def contiguous_strides(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return tuple(reversed(strides))


class HostArray:
    """A matrix (or, 3-d, a batch of matrices) in host memory (64-byte
    aligned plus `offset` bytes), element (i, j) at i * strides[0] + j *
    strides[1] (elements); (b, i, j) at b * strides[0] + i * strides[1] +
    j * strides[2]."""

    FORMATS = {"f32": ("f", 4), "f16": ("e", 2), "bf16": ("H", 2)}

    def __init__(self, shape, element_type="f32", strides=None, offset=0):
        self.shape = tuple(shape)
        self.element_type = element_type
        self.format, self.itemsize = self.FORMATS[element_type]
        self.strides = tuple(strides) if strides else \
            contiguous_strides(self.shape)
        extent = sum((n - 1) * s for n, s in zip(self.shape, self.strides)) + 1
        self.storage = (ctypes.c_char * (extent * self.itemsize + 128))()
        address = ctypes.addressof(self.storage)
        self.ptr = address + (-address) % 64 + offset

    def _at(self, *index):
        return self.ptr + sum(i * s for i, s in zip(index, self.strides)) * \
            self.itemsize

    def __getitem__(self, index):
        raw = ctypes.string_at(self._at(*index), self.itemsize)
        value = struct.unpack("<" + self.format, raw)[0]
        return from_bf16(value) if self.element_type == "bf16" else value

    def __setitem__(self, index, value):
        if self.element_type == "bf16":
            value = to_bf16(value)
        ctypes.memmove(self._at(*index), struct.pack("<" + self.format, value),
                       self.itemsize)

    def fill_random(self, rng):
        for index in itertools.product(*(range(n) for n in self.shape)):
            self[index] = rng.uniform(-1, 1)
        return self


class CudaArray:
    """Exposes a HostArray through __cuda_array_interface__ (version 3),
    with the typestr, strides (bytes; None for contiguous), pointer,
    read-only flag and `device` attribute a test wants."""

    TYPESTRS = {"f32": "<f4", "f16": "<f2", "bf16": "<V2"}

    def __init__(self, host, typestr=None, strides="auto", ptr=None,
                 readonly=False, device=None, shape=None, **extra):
        self.host = host
        byte_strides = tuple(s * host.itemsize for s in host.strides)
        if strides == "auto":
            strides = None if host.strides == contiguous_strides(host.shape) \
                else byte_strides
        self.__cuda_array_interface__ = dict(
            shape=shape or host.shape,
            typestr=typestr or self.TYPESTRS[host.element_type],
            strides=strides,
            data=(host.ptr if ptr is None else ptr, readonly),
            version=3, **extra)
        if device is not None:
            self.device = device


class TorchLikeDevice:
    def __init__(self, kind, index):
        self.type, self.index = kind, index


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", tile_opt._arrays._DLTensor),
                ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


class DLPackArray:
    """Exposes a HostArray through DLPack: __dlpack_device__ and a
    'dltensor' capsule (no deleter: the array owns the memory)."""

    CODES = {"f32": (2, 32), "f16": (2, 16), "bf16": (4, 16)}

    def __init__(self, host, device=(2, 0), dtype=None):
        self.host = host
        self.device = device
        code, bits = dtype or self.CODES[host.element_type]
        ndim = len(host.shape)
        self.shape = (ctypes.c_int64 * ndim)(*host.shape)
        self.strides = (ctypes.c_int64 * ndim)(*host.strides)
        self.managed = _DLManagedTensor()
        t = self.managed.dl_tensor
        t.data = host.ptr
        t.device.device_type, t.device.device_id = device
        t.ndim = ndim
        t.dtype.code, t.dtype.bits, t.dtype.lanes = code, bits, 1
        t.shape = self.shape
        t.strides = self.strides
        t.byte_offset = 0

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new(ctypes.addressof(self.managed), b"dltensor", None)


def batched_fixture(directory, name, batch, gap=0):
    """The fixture `name` as a batched kernel of `batch` matrices, written to
    `directory` with the PTX: problem.batch and grid y `batch`, each param's
    matrices `gap` elements apart past what one spans. Returns its path."""
    with open(fixture(name)) as f:
        manifest = json.load(f)
    manifest["problem"]["batch"] = batch
    manifest["launch"]["grid"][1] = batch
    for p in manifest["params"]:
        span = (p["rows"] - 1) * p["row_stride"] + \
            (p["cols"] - 1) * p["col_stride"] + 1
        p["batch_stride"] = span + gap
    shutil.copy(os.path.join(FIXTURES, "naive_matmul.ptx"), directory)
    path = os.path.join(directory, "%s_batched.json" % name)
    with open(path, "w") as f:
        json.dump(manifest, f)
    return path


def write_edited_fixture(directory, name, out_name, edit):
    """The fixture `name`'s manifest changed by `edit` (on the parsed
    JSON), written to `directory`/`out_name` beside a copy of the fixtures'
    PTX. Returns its path."""
    with open(fixture(name)) as f:
        manifest = json.load(f)
    edit(manifest)
    shutil.copy(os.path.join(FIXTURES, "naive_matmul.ptx"), directory)
    path = os.path.join(directory, out_name)
    with open(path, "w") as f:
        json.dump(manifest, f)
    return path


def arrays_for(kernel, rng=None, wrap=CudaArray):
    """A, B, C for `kernel`'s params (their shapes, types and strides)."""
    arrays = []
    for p in kernel.info.params:
        host = HostArray(p.shape, p.element_type, p.strides)
        if rng:
            host.fill_random(rng)
        arrays.append(host)
    return arrays, [wrap(h) for h in arrays]


class ImportTest(unittest.TestCase):
    def test_import_needs_no_library_and_no_cuda(self):
        env = dict(os.environ, TILE_RUNTIME_LIBRARY="/nonexistent/libtile.so",
                   TILE_CUDA_DRIVER_LIBRARY="/nonexistent/libcuda.so.1",
                   PYTHONPATH=os.path.dirname(os.path.dirname(
                       tile_opt.__file__)))
        code = ("import tile_opt\n"
                "print('imported')\n"
                "try:\n"
                "    tile_opt.load(%r)\n"
                "except tile_opt.TileError as e:\n"
                "    print('TileError:', e)\n" % fixture("accumulate"))
        out = subprocess.run([sys.executable, "-c", code], env=env,
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("imported", out.stdout)
        self.assertIn("TileError: cannot load the tile runtime library: "
                      "tried /nonexistent/libtile.so", out.stdout)
        self.assertIn("set TILE_RUNTIME_LIBRARY", out.stdout)

    def test_library_candidates(self):
        self.assertEqual(tile_opt.library_candidates(),
                         [os.environ["TILE_RUNTIME_LIBRARY"]])


class InfoTest(unittest.TestCase):
    def test_manifest_fields(self):
        with tile_opt.load(fixture("accumulate")) as k:
            info = k.info
            self.assertEqual(info.kernel, "tile_test_matmul_accumulate")
            self.assertEqual((info.m, info.n, info.k), (96, 80, 72))
            self.assertEqual(info.grid, (5, 6, 1))
            self.assertEqual(info.block, (16, 16, 1))
            self.assertEqual(info.cluster, (1, 1, 1))
            self.assertEqual(info.element_type, "f32")
            self.assertEqual(info.result_type, "f32")
            self.assertEqual(info.c_init, "accumulate")
            self.assertEqual(info.strategy, "fma")
            self.assertEqual(info.chip, "sm_90")
            self.assertIsNone(info.cubin_path)
            self.assertTrue(info.ptx_path.endswith("naive_matmul.ptx"))
            self.assertEqual(info.registers, -1)
            self.assertEqual([p.name for p in info.params], ["A", "B", "C"])
            b = info.params[1]
            self.assertEqual((b.role, b.shape, b.strides, b.alignment,
                              b.access, b.element_bytes, b.required_bytes),
                             ("rhs", (72, 80), (80, 1), 16, "read", 4,
                              72 * 80 * 4))
            self.assertEqual(info.params[2].access, "readwrite")
            self.assertIsNone(k.load_info)

    def test_strided_and_tma_manifests(self):
        with tile_opt.load(fixture("strided")) as k:
            self.assertEqual(k.info.c_init, "fill")
            self.assertEqual(k.info.c_fill_value, 0.5)
            self.assertEqual(k.info.params[1].strides, (1, 72))
            self.assertEqual(k.info.params[2].strides, (84, 1))
            self.assertEqual(k.info.params[2].required_bytes,
                             (95 * 84 + 80) * 4)
        with tile_opt.load(fixture("bf16_tma")) as k:
            self.assertEqual(k.info.element_type, "bf16")
            self.assertEqual(k.info.result_type, "bf16")
            self.assertEqual(k.info.num_tensor_maps, 2)
            self.assertEqual(k.info.cluster, (1, 2, 1))
            self.assertEqual(k.info.params[0].element_bytes, 2)


class BatchedInfoTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_batched_manifest_fields(self):
        path = batched_fixture(self.dir, "strided", 3, gap=16)
        with tile_opt.load(path) as k:
            info = k.info
            self.assertEqual(info.batch, 3)
            self.assertEqual(info.grid, (5, 3, 1))
            b, c = info.params[1], info.params[2]
            self.assertTrue(c.batched)
            self.assertEqual(b.shape, (3, 72, 80))
            self.assertEqual(b.strides, (72 * 80 + 16, 1, 72))
            self.assertEqual(c.batch_stride, 95 * 84 + 80 + 16)
            self.assertEqual(c.required_bytes,
                             (2 * (95 * 84 + 80 + 16) + 95 * 84 + 80) * 4)
            self.assertIn("3 x 96x80x72", repr(info))

    def test_unbatched_manifest_has_batch_one(self):
        with tile_opt.load(fixture("accumulate")) as k:
            self.assertEqual(k.info.batch, 1)
            self.assertFalse(k.info.params[0].batched)
            self.assertEqual(k.info.params[0].batch_stride, 0)
            self.assertEqual(k.info.params[0].shape, (96, 72))

    def test_invalid_batched_manifest(self):
        path = batched_fixture(self.dir, "fill", 3)
        with open(path) as f:
            manifest = json.load(f)
        del manifest["params"][2]["batch_stride"]
        with open(path, "w") as f:
            json.dump(manifest, f)
        with self.assertRaises(tile_opt.TileError) as e:
            tile_opt.load(path)
        self.assertEqual(e.exception.status_name,
                         "TILE_ERROR_INVALID_MANIFEST")
        self.assertIn('param "C" (result) has no batch_stride',
                      str(e.exception))


class OpenErrorTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def copy_fixture(self, edit_manifest=None, edit_ptx=None):
        manifest = os.path.join(self.dir, "k.json")
        with open(fixture("accumulate")) as f:
            text = f.read()
        with open(manifest, "w") as f:
            f.write(edit_manifest(text) if edit_manifest else text)
        with open(os.path.join(FIXTURES, "naive_matmul.ptx")) as f:
            ptx = f.read()
        with open(os.path.join(self.dir, "naive_matmul.ptx"), "w") as f:
            f.write(edit_ptx(ptx) if edit_ptx else ptx)
        return manifest

    def test_missing_manifest(self):
        with self.assertRaises(tile_opt.TileError) as e:
            tile_opt.load(os.path.join(self.dir, "none.json"))
        self.assertEqual(e.exception.status_name, "TILE_ERROR_IO")
        self.assertIn("none.json", str(e.exception))

    def test_invalid_manifest(self):
        path = self.copy_fixture(lambda t: t.replace('"m": 96', '"m": "96"'))
        with self.assertRaises(tile_opt.TileError) as e:
            tile_opt.load(path)
        self.assertEqual(e.exception.status_name,
                         "TILE_ERROR_INVALID_MANIFEST")
        self.assertIn("problem.m", str(e.exception))

    def test_binary_mismatch(self):
        path = self.copy_fixture(edit_ptx=lambda t: t + "\n// edited\n")
        with self.assertRaises(tile_opt.TileError) as e:
            tile_opt.load(path)
        self.assertEqual(e.exception.status_name, "TILE_ERROR_BINARY_MISMATCH")
        self.assertIn("does not match the manifest", str(e.exception))

    def test_closed_kernel(self):
        k = tile_opt.load(fixture("accumulate"))
        k.close()
        with self.assertRaisesRegex(tile_opt.TileError, "is closed"):
            k.check(1, 2, 3)
        k.close()  # twice is fine


class ArgumentTest(unittest.TestCase):
    """Every check happens before CUDA: no driver is loaded here (the kernel
    is never loaded)."""

    def setUp(self):
        self.kernel = tile_opt.load(fixture("accumulate"))
        self.hosts, self.args = arrays_for(self.kernel)

    def tearDown(self):
        self.kernel.close()

    def assertRejected(self, args, message):
        with self.assertRaises(tile_opt.ArgumentError) as e:
            self.kernel.check(*args)
        self.assertIn(message, str(e.exception))
        self.assertIsInstance(e.exception, ValueError)
        self.assertIsNone(self.kernel.load_info)

    def replaced(self, index, value):
        args = list(self.args)
        args[index] = value
        return args

    def test_good_arguments(self):
        views, buffers = self.kernel.check(*self.args)
        self.assertEqual([v.shape for v in views], [(96, 72), (72, 80),
                                                    (96, 80)])
        self.assertEqual(buffers[2].device_ptr, self.hosts[2].ptr)
        self.assertEqual(buffers[2].size_bytes, 96 * 80 * 4)

    def test_count(self):
        self.assertRejected(self.args[:2], "expected 3 arrays (A, B, C), got 2")

    def test_not_an_array(self):
        self.assertRejected(self.replaced(1, 42),
                            "B: expected a CUDA array (an object with "
                            "__cuda_array_interface__ or DLPack's __dlpack__")

    def test_shape(self):
        c = HostArray((96, 81))
        self.assertRejected(self.replaced(2, CudaArray(c)),
                            "C: shape (96, 81), the kernel takes 96 x 80 "
                            "(m x n)")
        self.assertRejected(
            self.replaced(0, CudaArray(self.hosts[0], shape=(96 * 72,),
                                       strides=None)),
            "A: 1 dimensions (6912,), the kernel takes a matrix (96 x 72, "
            "m x k)")

    def test_element_type(self):
        self.assertRejected(self.replaced(0, CudaArray(self.hosts[0],
                                                       typestr="<f2")),
                            "A: element type f16, the kernel takes f32")
        self.assertRejected(self.replaced(0, CudaArray(self.hosts[0],
                                                       typestr="<f8")),
                            "A: element type '<f8' (float64) in "
                            "__cuda_array_interface__")
        self.assertRejected(self.replaced(0, CudaArray(self.hosts[0],
                                                       typestr="<V2")),
                            "bf16 (through DLPack: __cuda_array_interface__ "
                            "has no bf16 typestr)")

    def test_strides(self):
        # B stored column-major (a transposed view): the kernel needs
        # row-major.
        b = HostArray((72, 80), strides=(1, 72))
        self.assertRejected(self.replaced(1, CudaArray(b)),
                            "B: strides (1, 72) (elements), the kernel takes "
                            "(80, 1): a row-major contiguous array")
        self.assertRejected(
            self.replaced(1, CudaArray(self.hosts[1], strides=(322, 4))),
            "B: byte strides (322, 4) are not multiples of the element size 4")

    def test_strides_the_manifest_names(self):
        with tile_opt.load(fixture("strided")) as k:
            hosts, args = arrays_for(k)
            k.check(*args)
            contiguous = CudaArray(HostArray((72, 80)))
            with self.assertRaisesRegex(
                    tile_opt.ArgumentError,
                    r"B: strides \(80, 1\) \(elements\), the kernel takes "
                    r"\(1, 72\): the manifest's row_stride and col_stride"):
                k.check(args[0], contiguous, args[2])

    def test_extent_one_strides_do_not_matter(self):
        # A 1 x n matrix's row stride is never used.
        path = None
        with open(fixture("accumulate")) as f:
            manifest = json.load(f)
        directory = tempfile.mkdtemp()
        try:
            shutil.copy(os.path.join(FIXTURES, "naive_matmul.ptx"), directory)
            manifest["problem"]["m"] = 1
            manifest["params"][0]["rows"] = 1
            manifest["params"][2]["rows"] = 1
            path = os.path.join(directory, "one.json")
            with open(path, "w") as f:
                json.dump(manifest, f)
            with tile_opt.load(path) as k:
                a = HostArray((1, 72), strides=(5000, 1))
                c = HostArray((1, 80), strides=(7, 1))
                k.check(CudaArray(a), self.args[1], CudaArray(c))
        finally:
            shutil.rmtree(directory)

    def test_pointer(self):
        self.assertRejected(self.replaced(2, CudaArray(self.hosts[2], ptr=0)),
                            "C: null pointer")
        misaligned = HostArray((72, 80), offset=4)
        self.assertRejected(self.replaced(1, CudaArray(misaligned)),
                            "B: address 0x%x is not 16-byte aligned"
                            % misaligned.ptr)

    def test_read_only(self):
        self.assertRejected(
            self.replaced(2, CudaArray(self.hosts[2], readonly=True)),
            "C: read-only array, the kernel writes it")
        # A and B may be read-only.
        self.kernel.check(CudaArray(self.hosts[0], readonly=True),
                          CudaArray(self.hosts[1], readonly=True),
                          self.args[2])

    def test_masked(self):
        self.assertRejected(self.replaced(0, CudaArray(self.hosts[0],
                                                       mask=object())),
                            "A: masked arrays are not supported")

    def test_devices(self):
        on = [CudaArray(h, device=TorchLikeDevice("cuda", i))
              for h, i in zip(self.hosts, (0, 1, 0))]
        self.assertRejected(on, "the arrays are on different devices (A on 0, "
                            "B on 1, C on 0)")
        cpu = CudaArray(self.hosts[0], device=TorchLikeDevice("cpu", None))
        self.assertRejected(self.replaced(0, cpu),
                            "A: on device 'cpu', the kernel needs CUDA device "
                            "memory")
        views, _ = self.kernel.check(
            *[CudaArray(h, device=TorchLikeDevice("cuda", 1))
              for h in self.hosts])
        self.assertEqual([v.device for v in views], [1, 1, 1])

    def test_dlpack(self):
        views, _ = self.kernel.check(*[DLPackArray(h) for h in self.hosts])
        self.assertEqual(views[1].strides, (80, 1))
        self.assertEqual(views[1].ptr, self.hosts[1].ptr)
        self.assertEqual(views[1].device, 0)
        self.assertRejected(self.replaced(0, DLPackArray(self.hosts[0],
                                                         device=(1, 0))),
                            "A: DLPackArray is on the CPU (kDLCPU), the kernel "
                            "needs CUDA device memory")
        self.assertRejected(self.replaced(0, DLPackArray(self.hosts[0],
                                                         dtype=(0, 8))),
                            "A: element type int8 (DLPack)")
        self.assertRejected(self.replaced(0, DLPackArray(self.hosts[0],
                                                         dtype=(4, 16))),
                            "A: element type bf16, the kernel takes f32")

    def test_both_interfaces(self):
        # __cuda_array_interface__ first; DLPack where it cannot name the
        # type (bf16: typestr '<V2') or fails.
        class Both(DLPackArray):
            def __init__(self, host, typestr=None, fails=False):
                super().__init__(host)
                self.cai = CudaArray(host, typestr=typestr)
                self.fails = fails

            @property
            def __cuda_array_interface__(self):
                if self.fails:
                    raise TypeError("no typestr for this dtype")
                return self.cai.__cuda_array_interface__

        views, _ = self.kernel.check(*[Both(h) for h in self.hosts])
        self.assertEqual([v.keepalive for v in views], [None] * 3)
        with tile_opt.load(fixture("bf16_tma")) as k:
            hosts, _ = arrays_for(k)
            views, _ = k.check(*[Both(h, typestr="<V2") for h in hosts])
            self.assertEqual([v.element_type for v in views], ["bf16"] * 3)
            self.assertTrue(all(v.keepalive is not None for v in views))
            views, _ = k.check(*[Both(h, fails=True) for h in hosts])
            self.assertEqual([v.element_type for v in views], ["bf16"] * 3)
        failing = CudaArray(self.hosts[0])
        failing.__class__ = type("Failing", (CudaArray,), {
            "__cuda_array_interface__": property(
                lambda self: (_ for _ in ()).throw(TypeError("no dtype")))})
        self.assertRejected(self.replaced(0, failing),
                            "A: __cuda_array_interface__ of Failing failed: "
                            "no dtype")

    def test_dlpack_bf16(self):
        with tile_opt.load(fixture("bf16_tma")) as k:
            hosts, args = arrays_for(k, wrap=DLPackArray)
            views, _ = k.check(*args)
            self.assertEqual([v.element_type for v in views],
                             ["bf16", "bf16", "bf16"])
            with self.assertRaisesRegex(tile_opt.ArgumentError,
                                        "A: element type f16, the kernel "
                                        "takes bf16"):
                k.check(CudaArray(HostArray((96, 72), "f16")), *args[1:])

    def test_bad_stream(self):
        with self.assertRaisesRegex(tile_opt.ArgumentError,
                                    "stream: expected a CUstream handle"):
            self.kernel.launch(*self.args, stream="default")

    def test_bad_binary_choice(self):
        with self.assertRaisesRegex(tile_opt.ArgumentError,
                                    "binary must be auto, cubin or ptx"):
            self.kernel.load(binary="sass")


class BatchedArgumentTest(unittest.TestCase):
    """A batched kernel (the fill fixture as 3 matrices, each 16 elements
    apart past its end) takes 3-d arrays (batch, rows, cols) with the
    manifest's strides."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.kernel = tile_opt.load(batched_fixture(self.dir, "fill", 3,
                                                    gap=16))
        self.hosts, self.args = arrays_for(self.kernel)

    def tearDown(self):
        self.kernel.close()
        shutil.rmtree(self.dir)

    def assertRejected(self, args, message):
        with self.assertRaises(tile_opt.ArgumentError) as e:
            self.kernel.check(*args)
        self.assertIn(message, str(e.exception))

    def replaced(self, index, value):
        args = list(self.args)
        args[index] = value
        return args

    def test_good_arguments(self):
        views, buffers = self.kernel.check(*self.args)
        self.assertEqual([v.shape for v in views],
                         [(3, 96, 72), (3, 72, 80), (3, 96, 80)])
        self.assertEqual(views[2].strides, (96 * 80 + 16, 80, 1))
        self.assertEqual(buffers[2].device_ptr, self.hosts[2].ptr)
        # Every matrix: (batch-1) * batch_stride + one matrix.
        self.assertEqual(buffers[2].size_bytes,
                         (2 * (96 * 80 + 16) + 96 * 80) * 4)
        # DLPack arrays of three dimensions too.
        views, _ = self.kernel.check(*[DLPackArray(h) for h in self.hosts])
        self.assertEqual(views[0].shape, (3, 96, 72))
        self.assertEqual(views[0].strides, (96 * 72 + 16, 72, 1))

    def test_a_matrix_is_not_a_batch(self):
        self.assertRejected(
            self.replaced(0, CudaArray(HostArray((96, 72)))),
            "A: 2 dimensions (96, 72), the batched kernel takes a batch of "
            "matrices (3 x 96 x 72, batch x m x k)")
        self.assertRejected(
            self.replaced(2, CudaArray(HostArray((3, 1, 96, 80)))),
            "C: 4 dimensions (3, 1, 96, 80), the batched kernel takes a batch "
            "of matrices (3 x 96 x 80, batch x m x n)")

    def test_batch_and_matrix_shape(self):
        self.assertRejected(
            self.replaced(1, CudaArray(HostArray((2, 72, 80)))),
            "B: shape (2, 72, 80), the kernel takes 3 x 72 x 80 "
            "(batch x k x n)")
        self.assertRejected(
            self.replaced(2, CudaArray(HostArray((3, 80, 96)))),
            "C: shape (3, 80, 96), the kernel takes 3 x 96 x 80 "
            "(batch x m x n)")

    def test_batch_stride(self):
        # A contiguous batch: its matrices lack the manifest's 16-element
        # gaps.
        dense = HostArray((3, 96, 80))
        self.assertRejected(
            self.replaced(2, CudaArray(dense)),
            "C: strides (7680, 80, 1) (elements), the kernel takes "
            "(7696, 80, 1): the manifest's batch_stride, row_stride and "
            "col_stride")
        # The right batch stride over a column-major matrix.
        b = HostArray((3, 72, 80), strides=(72 * 80 + 16, 1, 72))
        self.assertRejected(
            self.replaced(1, CudaArray(b)),
            "B: strides (5776, 1, 72) (elements), the kernel takes "
            "(5776, 80, 1)")

    def test_contiguous_batches_are_suggested(self):
        path = batched_fixture(self.dir, "accumulate", 2)
        with tile_opt.load(path) as k:
            hosts, args = arrays_for(k)
            self.assertEqual(hosts[0].strides, (96 * 72, 72, 1))
            k.check(*args)
            gapped = HostArray((2, 96, 72), strides=(96 * 72 + 8, 72, 1))
            with self.assertRaisesRegex(
                    tile_opt.ArgumentError,
                    r"A: strides \(6920, 72, 1\) \(elements\), the kernel "
                    r"takes \(6912, 72, 1\): a row-major contiguous array"):
                k.check(CudaArray(gapped), *args[1:])


@unittest.skipUnless(FAKE_DRIVER, "TILE_FAKE_CUDA_DRIVER not set")
class FakeLaunchTest(unittest.TestCase):
    """Launches through the stand-in driver: device memory is host memory and
    the launch computes the matmul on the CPU."""

    def setUp(self):
        self.saved = dict(os.environ)
        os.environ["TILE_CUDA_DRIVER_LIBRARY"] = FAKE_DRIVER
        self.rng = random.Random(7)

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.saved)

    def describe(self, kernel):
        """TILE_FAKE_CUDA_MATMUL for `kernel`'s manifest."""
        i = kernel.info
        a, b, c = i.params
        os.environ["TILE_FAKE_CUDA_MATMUL"] = " ".join(map(str, [
            i.m, i.n, i.k, i.c_init, i.c_fill_value, a.row_stride,
            a.col_stride, b.row_stride, b.col_stride, c.row_stride,
            c.col_stride, i.element_type, i.result_type]))

    def expected(self, kernel, a, b, c0, i, j):
        acc = c0 if kernel.info.c_init == "accumulate" else \
            kernel.info.c_fill_value
        return acc + sum(a[i, kk] * b[kk, j] for kk in range(kernel.info.k))

    def check_result(self, kernel, hosts, c0, tolerance):
        a, b, c = hosts
        for i in range(kernel.info.m):
            for j in range(kernel.info.n):
                want = self.expected(kernel, a, b, c0 and c0[i][j], i, j)
                self.assertAlmostEqual(c[i, j], want, delta=tolerance *
                                       max(1.0, abs(want)), msg=(i, j))

    def test_accumulate(self):
        with tile_opt.load(fixture("accumulate")) as k:
            self.describe(k)
            hosts, args = arrays_for(k, self.rng)
            c0 = [[hosts[2][i, j] for j in range(80)] for i in range(96)]
            k(*args)
            info = k.load_info
            self.assertEqual(info["device"], 0)
            self.assertEqual(info["binary_format"], "ptx")
            self.assertEqual(info["compute_capability"], (9, 0))
            self.check_result(k, hosts, c0, 1e-5)
            # C changed: the launch wrote it.
            self.assertNotEqual(hosts[2][0, 0], c0[0][0])

    def test_strided_fill(self):
        with tile_opt.load(fixture("strided")) as k:
            self.describe(k)
            hosts, args = arrays_for(k, self.rng)
            c = hosts[2]
            # The padding of C's rows (columns 80..83) is left alone.
            pad = ctypes.c_float.from_address(c.ptr + 80 * 4)
            pad.value = 123.0
            k(*args, stream=0)
            self.check_result(k, hosts, None, 1e-5)
            self.assertEqual(pad.value, 123.0)

    def test_offsets(self):
        # Strided params with offsets (memref subviews): each array is its
        # matrix's view; the kernel gets the address `offset` elements
        # before it, and adds the offset back (TILE_FAKE_CUDA_OFFSETS).
        def edit(manifest):
            for p, offset in zip(manifest["params"], (4, 12, 8)):
                p["offset"] = offset
        directory = tempfile.mkdtemp()
        try:
            path = write_edited_fixture(directory, "strided", "offsets.json",
                                        edit)
            with tile_opt.load(path) as k:
                self.assertEqual([p.offset for p in k.info.params],
                                 [4, 12, 8])
                # The buffer a param needs counts its offset.
                plain = tile_opt.load(fixture("strided"))
                self.assertEqual(k.info.params[2].required_bytes,
                                 plain.info.params[2].required_bytes + 8 * 4)
                plain.close()
                self.describe(k)
                os.environ["TILE_FAKE_CUDA_OFFSETS"] = "4 12 8"
                hosts, args = arrays_for(k, self.rng)
                k(*args)
                self.check_result(k, hosts, None, 1e-5)
        finally:
            shutil.rmtree(directory)

    def test_dynamic_layouts(self):
        # A's and C's row strides and offsets dynamic (a memref with
        # strided<[?, 1], offset: ?>): the arrays give them, each at its
        # own padding; B's stay static and must match.
        def edit(manifest):
            for index in (0, 2):
                manifest["params"][index]["row_stride"] = "dynamic"
                manifest["params"][index]["offset"] = "dynamic"
        directory = tempfile.mkdtemp()
        try:
            path = write_edited_fixture(directory, "strided", "dynamic.json",
                                        edit)
            with tile_opt.load(path) as k:
                a, b, c = k.info.params
                self.assertTrue(a.dynamic)
                self.assertFalse(b.dynamic)
                self.assertEqual((a.row_stride, a.offset),
                                 (tile_opt.DYNAMIC, tile_opt.DYNAMIC))
                self.assertEqual(a.required_bytes, 0)
                hosts = [HostArray(a.shape, "f32", (a.cols + 12, 1)),
                         HostArray(b.shape, "f32", b.strides),
                         HostArray(c.shape, "f32", (c.cols + 24, 1))]
                for h in hosts:
                    h.fill_random(self.rng)
                os.environ["TILE_FAKE_CUDA_MATMUL"] = " ".join(map(str, [
                    k.info.m, k.info.n, k.info.k, k.info.c_init,
                    k.info.c_fill_value, a.cols + 12, 1, b.row_stride,
                    b.col_stride, c.cols + 24, 1, "f32", "f32"]))
                pad = ctypes.c_float.from_address(hosts[2].ptr + c.cols * 4)
                pad.value = 123.0
                k(*[CudaArray(h) for h in hosts])
                self.check_result(k, hosts, None, 1e-5)
                self.assertEqual(pad.value, 123.0)
                # A row stride off the kernel's alignment is the runtime's
                # to refuse.
                odd = HostArray(a.shape, "f32", (a.cols + 1, 1))
                with self.assertRaises(tile_opt.ArgumentError) as caught:
                    k.check(CudaArray(odd), CudaArray(hosts[1]),
                            CudaArray(hosts[2]))
                self.assertIn("argument 0 (A): row_stride %d (%d bytes) is "
                              "not a multiple of the %d bytes the kernel "
                              "assumes" % (a.cols + 1, (a.cols + 1) * 4,
                                           a.alignment),
                              str(caught.exception))
                # B's static strides are still the manifest's.
                wide = HostArray(b.shape, "f32", (1, b.col_stride + 4))
                with self.assertRaises(tile_opt.ArgumentError) as caught:
                    k.check(CudaArray(hosts[0]), CudaArray(wide),
                            CudaArray(hosts[2]))
                self.assertIn("B: strides", str(caught.exception))
        finally:
            shutil.rmtree(directory)

    def test_bf16_tensor_maps_through_dlpack(self):
        with tile_opt.load(fixture("bf16_tma")) as k:
            self.describe(k)
            hosts, args = arrays_for(k, self.rng, wrap=DLPackArray)
            k(*args)
            # C is bf16: 8 bits of mantissa.
            self.check_result(k, hosts, None, 2 ** -7)

    def test_batched(self):
        directory = tempfile.mkdtemp()
        try:
            path = batched_fixture(directory, "accumulate", 3, gap=4)
            with tile_opt.load(path) as k:
                self.describe(k)
                a, b, c = k.info.params
                os.environ["TILE_FAKE_CUDA_BATCH"] = "%d %d %d" % (
                    a.batch_stride, b.batch_stride, c.batch_stride)
                hosts, args = arrays_for(k, self.rng)
                c0 = [[[hosts[2][l, i, j] for j in range(80)]
                       for i in range(96)] for l in range(3)]
                k(*args)
                self.assertEqual(k.load_info["binary_format"], "ptx")
                for l in range(3):
                    for i in range(0, 96, 7):
                        for j in range(0, 80, 9):
                            want = c0[l][i][j] + sum(
                                hosts[0][l, i, kk] * hosts[1][l, kk, j]
                                for kk in range(72))
                            self.assertAlmostEqual(
                                hosts[2][l, i, j], want,
                                delta=1e-5 * max(1.0, abs(want)),
                                msg=(l, i, j))
        finally:
            shutil.rmtree(directory)

    def test_launch_on_the_arrays_device_only(self):
        with tile_opt.load(fixture("accumulate")) as k:
            self.describe(k)
            hosts, args = arrays_for(k, self.rng)
            k(*args)
            on1 = [CudaArray(h, device=TorchLikeDevice("cuda", 1))
                   for h in hosts]
            with self.assertRaisesRegex(tile_opt.ArgumentError,
                                        "the arrays are on device 1, the "
                                        "kernel was loaded on device 0"):
                k(*on1)
            with self.assertRaisesRegex(tile_opt.TileError,
                                        "is loaded on device 0 already"):
                k.load(device=1)
            k.load(device=0)  # the same device: nothing to do

    def test_launch_fails(self):
        os.environ["TILE_FAKE_CUDA_LAUNCH_RESULT"] = "719"
        with tile_opt.load(fixture("accumulate")) as k:
            hosts, args = arrays_for(k)
            with self.assertRaises(tile_opt.TileError) as e:
                k(*args)
            self.assertEqual(e.exception.status_name,
                             "TILE_ERROR_LAUNCH_FAILED")

    def test_load_errors(self):
        with tile_opt.load(fixture("accumulate")) as k:
            with self.assertRaises(tile_opt.TileError) as e:
                k.load(binary="cubin")
            self.assertIn("cubin", str(e.exception))
            with self.assertRaises(tile_opt.TileError) as e:
                k.load(device=5)
            self.assertEqual(e.exception.status_name,
                             "TILE_ERROR_INVALID_ARGUMENT")
            self.assertIn("device 5", str(e.exception))
            self.assertIsNone(k.load_info)

    def test_no_driver(self):
        os.environ["TILE_CUDA_DRIVER_LIBRARY"] = "/nonexistent/libcuda.so.1"
        code = ("import tile_opt\n"
                "k = tile_opt.load(%r)\n"
                "try:\n"
                "    k.load()\n"
                "except tile_opt.TileError as e:\n"
                "    print(e.status_name, e)\n" % fixture("accumulate"))
        out = subprocess.run([sys.executable, "-c", code],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("TILE_ERROR_NO_DRIVER", out.stdout)
        self.assertIn("/nonexistent/libcuda.so.1", out.stdout)


if __name__ == "__main__":
    unittest.main()
