"""What a launch argument is: a device pointer with a shape, strides, an
element type and a device, read from the object's __cuda_array_interface__
(version 2 or 3: CuPy, PyTorch, Numba) or, without one, its DLPack capsule
(__dlpack__ and __dlpack_device__: PyTorch, CuPy, JAX; the way to pass
bf16). Nothing here calls CUDA."""

import ctypes

from ._errors import ArgumentError

# __cuda_array_interface__ typestrs of the kernels' element types (bf16 has
# no standard typestr: pass bf16 arrays through DLPack).
TYPESTRS = {"<f4": "f32", "<f2": "f16"}
OTHER_TYPESTRS = {"<f8": "float64", "<i4": "int32", "<i8": "int64",
                  "|i1": "int8", "|u1": "uint8", "<u2": "uint16",
                  "<i2": "int16", "|b1": "bool", "<V2": "2-byte void",
                  "|V2": "2-byte void"}
ITEMSIZE = {"f32": 4, "f16": 2, "bf16": 2}

# DLPack (dlpack.h): device types and data type codes.
DL_CPU, DL_CUDA, DL_CUDA_HOST, DL_CUDA_MANAGED = 1, 2, 3, 13
DL_DEVICE_NAMES = {1: "the CPU (kDLCPU)", 3: "pinned host memory (kDLCUDAHost)",
                   4: "OpenCL", 7: "Vulkan", 8: "Metal", 10: "ROCm",
                   14: "oneAPI"}
DL_INT, DL_UINT, DL_FLOAT, DL_BFLOAT = 0, 1, 2, 4


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class ArrayView:
    """One argument as the kernel sees it. `strides` are in elements;
    `device` is the CUDA ordinal, or None where the object does not say;
    `keepalive` holds what must live until the launch is enqueued."""

    def __init__(self, name, ptr, shape, strides, element_type, readonly,
                 device, keepalive=None, typename=""):
        self.name = name
        self.ptr = ptr
        self.shape = shape
        self.strides = strides
        self.element_type = element_type
        self.readonly = readonly
        self.device = device
        self.keepalive = keepalive
        self.typename = typename


def _contiguous(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return tuple(reversed(strides))


def _device_attribute(obj, name):
    """The CUDA ordinal an object's `.device` names (torch.device: type and
    index; cupy.cuda.Device: id), or None."""
    try:
        device = getattr(obj, "device", None)
    except Exception:
        return None
    if device is None:
        return None
    kind = getattr(device, "type", None)
    if isinstance(kind, str):
        if kind != "cuda":
            raise ArgumentError("%s: on device '%s', the kernel needs CUDA "
                                "device memory" % (name, kind))
        index = getattr(device, "index", None)
        return index if isinstance(index, int) else None
    index = getattr(device, "id", None)
    return index if isinstance(index, int) else None


def _from_cuda_array_interface(obj, name, cai):
    typename = type(obj).__name__
    if not isinstance(cai, dict):
        raise ArgumentError("%s: __cuda_array_interface__ of %s is not a dict"
                            % (name, typename))
    for key in ("shape", "typestr", "data"):
        if key not in cai:
            raise ArgumentError("%s: __cuda_array_interface__ of %s lacks '%s'"
                                % (name, typename, key))
    if cai.get("mask") is not None:
        raise ArgumentError("%s: masked arrays are not supported" % name)
    shape = tuple(int(x) for x in cai["shape"])
    typestr = cai["typestr"]
    element_type = TYPESTRS.get(typestr)
    if element_type is None:
        described = OTHER_TYPESTRS.get(typestr, "unknown")
        raise ArgumentError(
            "%s: element type '%s' (%s) in __cuda_array_interface__: the "
            "kernels take f32 ('<f4'), f16 ('<f2') or bf16 (through DLPack: "
            "__cuda_array_interface__ has no bf16 typestr)"
            % (name, typestr, described))
    data = cai["data"]
    if not (isinstance(data, (tuple, list)) and len(data) == 2):
        raise ArgumentError("%s: __cuda_array_interface__ 'data' must be "
                            "(pointer, read_only)" % name)
    ptr, readonly = int(data[0] or 0), bool(data[1])
    itemsize = ITEMSIZE[element_type]
    if cai.get("strides") is None:
        strides = _contiguous(shape)
    else:
        byte_strides = tuple(int(x) for x in cai["strides"])
        if any(s % itemsize for s in byte_strides):
            raise ArgumentError("%s: byte strides %s are not multiples of the "
                                "element size %d" % (name, byte_strides,
                                                     itemsize))
        strides = tuple(s // itemsize for s in byte_strides)
    return ArrayView(name, ptr, shape, strides, element_type, readonly,
                     _device_attribute(obj, name), typename=typename)


def _dlpack_element_type(dtype):
    code, bits, lanes = dtype.code, dtype.bits, dtype.lanes
    if lanes == 1:
        if code == DL_FLOAT and bits == 32:
            return "f32", None
        if code == DL_FLOAT and bits == 16:
            return "f16", None
        if code == DL_BFLOAT and bits == 16:
            return "bf16", None
    names = {DL_INT: "int", DL_UINT: "uint", DL_FLOAT: "float",
             DL_BFLOAT: "bfloat"}
    described = "%s%d" % (names.get(code, "code %d " % code), bits)
    if lanes != 1:
        described += "x%d" % lanes
    return None, described


def _from_dlpack(obj, name):
    typename = type(obj).__name__
    try:
        device_type, device_id = obj.__dlpack_device__()
    except Exception as e:
        raise ArgumentError("%s: __dlpack_device__() of %s failed: %s"
                            % (name, typename, e))
    if device_type not in (DL_CUDA, DL_CUDA_MANAGED):
        where = DL_DEVICE_NAMES.get(device_type,
                                    "DLPack device type %d" % device_type)
        raise ArgumentError("%s: %s is on %s, the kernel needs CUDA device "
                            "memory" % (name, typename, where))
    try:
        capsule = obj.__dlpack__()
    except Exception as e:
        raise ArgumentError("%s: __dlpack__() of %s failed: %s"
                            % (name, typename, e))
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    valid = ctypes.pythonapi.PyCapsule_IsValid
    valid.restype = ctypes.c_int
    valid.argtypes = [ctypes.py_object, ctypes.c_char_p]
    if not valid(capsule, b"dltensor"):
        raise ArgumentError("%s: __dlpack__() of %s did not return a "
                            "'dltensor' capsule" % (name, typename))
    # DLManagedTensor starts with its DLTensor.
    tensor = _DLTensor.from_address(get(capsule, b"dltensor"))
    ndim = tensor.ndim
    shape = tuple(tensor.shape[i] for i in range(ndim))
    element_type, described = _dlpack_element_type(tensor.dtype)
    if element_type is None:
        raise ArgumentError("%s: element type %s (DLPack): the kernels take "
                            "f32, f16 or bf16" % (name, described))
    if tensor.strides:
        strides = tuple(tensor.strides[i] for i in range(ndim))
    else:
        strides = _contiguous(shape)
    ptr = (tensor.data or 0) + tensor.byte_offset
    # The capsule (and with it the producer's DLManagedTensor) lives until
    # the view is dropped; its destructor then calls the deleter.
    return ArrayView(name, ptr, shape, strides, element_type, False,
                     tensor.device.device_id, keepalive=capsule,
                     typename=typename)


def view(obj, name):
    """The ArrayView of argument `name`."""
    cai, error = None, None
    try:
        cai = obj.__cuda_array_interface__
    except AttributeError:
        pass
    except Exception as e:  # e.g. torch: bf16 has no typestr
        error = e
    dlpack = hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__")
    # An element type __cuda_array_interface__ cannot name (bf16) may still
    # come through DLPack.
    if cai is not None and not (dlpack and isinstance(cai, dict) and
                                cai.get("typestr") not in TYPESTRS):
        return _from_cuda_array_interface(obj, name, cai)
    if dlpack:
        return _from_dlpack(obj, name)
    if error is not None:
        raise ArgumentError("%s: __cuda_array_interface__ of %s failed: %s"
                            % (name, type(obj).__name__, error))
    raise ArgumentError(
        "%s: expected a CUDA array (an object with __cuda_array_interface__ "
        "or DLPack's __dlpack__, such as a torch.Tensor on a CUDA device or a "
        "cupy.ndarray), got %s" % (name, type(obj).__name__))
