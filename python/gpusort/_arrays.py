"""Arrays of every framework as the extension module sees them.

`describe(x)` turns a PyTorch tensor, CuPy array, JAX array, NumPy array,
or any producer of DLPack or the CUDA array interface into an `Array`: its
address, shape, dtype name, device (-1: host memory) and the stream its
producer queues work on. `Array.empty(shape, dtype)` allocates an output in
the same framework on the same device, and `Array.finish(out)` hands it
back as the framework's array.

Streams: work is queued on the producer's current stream (PyTorch, CuPy,
the `stream` of a CUDA array interface), so it runs after what the
framework queued before, with no host synchronisation. JAX publishes no
stream: its arrays are waited for (`block_until_ready`, that array only),
sorted on gpusort's own stream, and that stream is waited for before the
output goes back.

Memory: outputs come from the framework's allocator, and so does the scratch
of a device call (`run_device`): PyTorch's caching allocator and CuPy's
memory pool. JAX arrays and bare producers take their scratch from
gpusort's pool.
"""

import math
import sys

import numpy as np

from . import _gpusort as _core

# dtype name -> gpusort key name
KEY_OF_DTYPE = {
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
}
KEY_CODE = {name: code for code, name in enumerate(_core.key_names())}
KEY_CODE_OF_DTYPE = {d: KEY_CODE[k] for d, k in KEY_OF_DTYPE.items()}



def key_code(a, fn, what="", allow_bool=False):
    """The extension's key code of the Array a's dtype, or TypeError naming
    the call `fn` (and `what`, e.g. "key 2 "); with allow_bool, bool keys
    (0 or 1 in one byte) sort as uint8."""
    if allow_bool and a.dtype == "bool":
        return KEY_CODE_OF_DTYPE["uint8"]
    code = KEY_CODE_OF_DTYPE.get(a.dtype)
    if code is None:
        names = (["bool"] if allow_bool else []) + list(KEY_OF_DTYPE)
        raise TypeError(f"gpusort.{fn}: {what}dtype {a.dtype} is not a key type gpusort sorts "
                        f"(supported: {', '.join(names)})")
    return code


# (DLPack kind, bits) -> dtype name, and back
_DL_NAMES = {("u", 8): "uint8", ("u", 16): "uint16", ("u", 32): "uint32", ("u", 64): "uint64",
             ("i", 8): "int8", ("i", 16): "int16", ("i", 32): "int32", ("i", 64): "int64",
             ("f", 16): "float16", ("f", 32): "float32", ("f", 64): "float64", ("bf", 16): "bfloat16",
             ("b", 8): "bool", ("c", 64): "complex64", ("c", 128): "complex128"}
_DL_KIND = {v: k for k, v in _DL_NAMES.items()}
_ITEMSIZE = {v: k[1] // 8 for k, v in _DL_NAMES.items()}

HOST = -1


class Array:
    """One array as gpusort sees it (C order, contiguous)."""

    __slots__ = ("fw", "obj", "ptr", "shape", "dtype", "itemsize", "device", "stream", "size", "_mod")

    def __init__(self, fw, obj, ptr, shape, dtype, itemsize, device, stream, mod=None):
        self.fw = fw
        self.obj = obj
        self.ptr = ptr
        self.shape = shape
        self.dtype = dtype
        self.itemsize = itemsize
        self.device = device
        self.stream = stream
        self._mod = mod
        self.size = math.prod(shape)

    def empty(self, shape, dtype):
        """A new array of this framework on this device."""
        return _EMPTY[self.fw](self, tuple(shape), dtype)

    def finish(self, out):
        """The framework's array for an output made by empty()."""
        fin = _FINISH.get(self.fw)
        return fin(self, out) if fin else out.obj


def _c_contiguous(shape, strides_items):
    expect = 1
    for s, st in zip(reversed(shape), reversed(strides_items)):
        if s != 1 and st != expect:
            return False
        expect *= s
    return True


# ---- PyTorch ---------------------------------------------------------------------
_torch = None
_torch_stream = None
TorchTensor = None  # torch.Tensor once torch has been seen (the fast path's test)
TORCH_KEY_CODE = {}  # torch dtype -> key code
_TORCH_NAMES = {}
_TORCH_DTYPES = {}


def _torch_init():
    global _torch, _torch_stream, TorchTensor
    import torch
    _torch = torch
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    _torch_stream = raw if raw else (lambda dev: torch.cuda.current_stream(dev).cuda_stream)
    for name in ("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16",
                 "bfloat16", "float32", "float64", "bool", "complex64", "complex128"):
        dt = getattr(torch, name, None)
        if dt is not None:
            _TORCH_NAMES[dt] = name
            _TORCH_DTYPES[name] = dt
            if name in KEY_CODE_OF_DTYPE:
                TORCH_KEY_CODE[dt] = KEY_CODE_OF_DTYPE[name]
    TorchTensor = torch.Tensor


def torch_compiling(x):
    """Whether x is a tensor that torch.compile is tracing: such a call goes
    to gpusort's registered operators (_torch_ops.py), which the compiler can
    put in its graph, instead of reading addresses it does not have."""
    t = sys.modules.get("torch")
    return t is not None and isinstance(x, t.Tensor) and t.compiler.is_compiling()


def torch_sort_fast(x, out, descending):
    """sort() of a contiguous 1-D CUDA tensor of a key dtype, with defaults
    otherwise (NaNs largest): the common small call, with no Array objects (its overhead is
    a stated bound). Returns None when x is not such a tensor."""
    code = TORCH_KEY_CODE.get(x.dtype)
    if code is None or x.dim() != 1 or not x.is_cuda or not x.is_contiguous():
        return None
    if out is None:
        out = _torch.empty_like(x)
    elif (type(out) is not TorchTensor or out.dtype != x.dtype or out.shape != x.shape or not out.is_contiguous()
          or out.device != x.device):
        return None
    dev = x.get_device()
    n, xp, op, stream = x.numel(), x.data_ptr(), out.data_ptr(), _torch_stream(dev)
    need = _core.sort_device(code, n, 1, xp, op, 0, 0, 0, descending, "auto", 0, -1, stream, dev, pool_max=POOL_MAX,
                            nan_largest=True)
    if need:
        block = _scratch_torch_on(x.device, need)
        _core.sort_device(code, n, 1, xp, op, 0, 0, 0, descending, "auto", 0, -1, stream, dev, temp=block.data_ptr(),
                          temp_bytes=need, nan_largest=True)
    return out


def _describe_torch(x, need_contiguous=True):
    if _torch is None:
        _torch_init()
    if need_contiguous and not x.is_contiguous():
        x = x.contiguous()
    dtype = _TORCH_NAMES.get(x.dtype, str(x.dtype))
    if x.is_cuda:
        dev = x.get_device()
        stream = _torch_stream(dev)
    elif x.device.type == "cpu":
        dev, stream = HOST, 0
    else:
        raise ValueError(f"gpusort: tensors on device '{x.device}' are not supported (CUDA or CPU)")
    return Array("torch", x, x.data_ptr(), x.shape, dtype, x.element_size(), dev, stream)


def _empty_torch(a, shape, dtype):
    if dtype == a.dtype and shape == a.shape:
        t = _torch.empty_like(a.obj)
    else:
        t = _torch.empty(shape, dtype=_TORCH_DTYPES[dtype], device=a.obj.device)
    return Array("torch", t, t.data_ptr(), shape, dtype, t.element_size(), a.device, a.stream)


def _scratch_torch_on(device, nbytes):
    try:
        return _torch.empty(nbytes, dtype=_torch.uint8, device=device)
    except _torch.cuda.OutOfMemoryError as e:
        raise MemoryError(f"gpusort: scratch of {nbytes} bytes on {device}: PyTorch's allocator is out of "
                          f"memory ({e})") from None


def _scratch_torch(a, nbytes):
    block = _scratch_torch_on(a.obj.device, nbytes)
    return block, block.data_ptr()


# ---- CuPy ------------------------------------------------------------------------
_cupy = None


def _describe_cupy(x, need_contiguous=True):
    global _cupy
    if _cupy is None:
        import cupy
        _cupy = cupy
    if need_contiguous and not x.flags.c_contiguous:
        x = _cupy.ascontiguousarray(x)
    dev = x.device.id
    stream = _cupy.cuda.get_current_stream(dev).ptr if hasattr(_cupy.cuda, "get_current_stream") else 0
    return Array("cupy", x, x.data.ptr, x.shape, x.dtype.name, x.dtype.itemsize, dev, stream)


def _empty_cupy(a, shape, dtype):
    if dtype == a.dtype and shape == a.shape:
        c = _cupy.empty_like(a.obj)
    else:
        with _cupy.cuda.Device(a.device):
            c = _cupy.empty(shape, dtype=dtype)
    return Array("cupy", c, c.data.ptr, shape, dtype, c.dtype.itemsize, a.device, a.stream)


def _scratch_cupy(a, nbytes):
    try:
        with _cupy.cuda.Device(a.device):
            block = _cupy.cuda.alloc(nbytes)
    except _cupy.cuda.memory.OutOfMemoryError as e:
        raise MemoryError(f"gpusort: scratch of {nbytes} bytes on device {a.device}: CuPy's memory pool is out of "
                          f"memory ({e})") from None
    return block, block.ptr


# ---- NumPy -----------------------------------------------------------------------
def _describe_numpy(x, need_contiguous=True):
    if need_contiguous and not x.flags.c_contiguous:
        x = np.ascontiguousarray(x)
    name = x.dtype.name
    return Array("numpy", x, x.ctypes.data, x.shape, name, x.dtype.itemsize, HOST, 0)


def _numpy_dtype(name):
    if name == "bfloat16":
        try:
            import ml_dtypes
            return ml_dtypes.bfloat16
        except ImportError:  # pragma: no cover
            raise TypeError("gpusort: bfloat16 NumPy arrays need ml_dtypes") from None
    return np.dtype(name)


def _empty_numpy(a, shape, dtype):
    h = np.empty_like(a.obj) if dtype == a.dtype and shape == a.shape else np.empty(shape, dtype=_numpy_dtype(dtype))
    return Array("numpy", h, h.ctypes.data, shape, dtype, h.dtype.itemsize, HOST, 0)


# ---- gpusort's own device buffers: JAX and bare producers ---------------------------
def _empty_buffer(a, shape, dtype):
    item = _ITEMSIZE[dtype]
    buf = _core.DeviceBuffer(math.prod(shape) * item, a.device)
    return Array("buffer", buf, buf.ptr, shape, dtype, item, a.device, a.stream)


def _finish_buffer(a, out, framework=""):
    _core.stream_synchronize(a.stream, a.device)
    kind, bits = _DL_KIND[out.dtype]
    return _core.as_array(out.obj, kind, bits, list(out.shape), framework)


# ---- JAX -------------------------------------------------------------------------
def _describe_jax(x, need_contiguous=True):
    devices = x.devices()
    if len(devices) != 1:
        raise ValueError("gpusort: sharded JAX arrays are not supported (one device per array)")
    d = next(iter(devices))
    if d.platform != "gpu":
        host = np.asarray(x)
        a = _describe_numpy(host)
        a.fw, a._mod = "jax_host", host
        return a
    x.block_until_ready()
    dev = getattr(d, "local_hardware_id", None)
    dev = d.id if dev is None else dev
    dtype = np.dtype(x.dtype).name
    return Array("jax", x, x.unsafe_buffer_pointer(), tuple(x.shape), dtype, np.dtype(x.dtype).itemsize, dev,
                 _core.own_stream(dev))


def _finish_jax(a, out):
    return _finish_buffer(a, out, "jax")


def _empty_jax_host(a, shape, dtype):
    out = _empty_numpy(a, shape, dtype)
    out.fw = "jax_host"
    return out


def _finish_jax_host(a, out):
    import jax.numpy as jnp
    return jnp.asarray(out.obj)


# ---- CUDA array interface and DLPack producers ------------------------------------------
def _describe_cai(x, need_contiguous=True):
    cai = x.__cuda_array_interface__
    shape = tuple(cai["shape"])
    typestr = np.dtype(cai["typestr"])
    if typestr.byteorder == ">":
        raise ValueError("gpusort: big-endian arrays are not supported")
    strides = cai.get("strides")
    if strides is not None:
        items = [s // typestr.itemsize for s in strides]
        if not _c_contiguous(shape, items):
            raise ValueError("gpusort: non-contiguous CUDA array interface arrays are not supported; copy to C order first")
    ptr = cai["data"][0]
    stream = cai.get("stream") or 0
    if stream == 1:  # the legacy default stream, by the interface's convention
        stream = 0
    dev = _core.pointer_device(ptr) if ptr else 0
    return Array("cai", x, ptr, shape, typestr.name, typestr.itemsize, max(dev, 0), stream, type(x).__module__)


def _finish_cai(a, out):
    _core.stream_synchronize(a.stream, a.device)
    view = DeviceArray(out.obj, out.shape, out.dtype)
    if a._mod and a._mod.split(".")[0] == "numba":
        from numba import cuda
        return cuda.as_cuda_array(view)
    return view


def _describe_dlpack(x, need_contiguous=True):
    ptr, shape, strides, kind, bits, dev_type, dev_id = _core.dlpack_info(x)
    shape = tuple(shape)
    dtype = _DL_NAMES.get((kind, bits), f"{kind}{bits}")
    if not _c_contiguous(shape, strides):
        raise ValueError("gpusort: non-contiguous DLPack arrays are not supported; copy to C order first")
    if dev_type == 1:  # kDLCPU
        host = np.from_dlpack(x)
        return _describe_numpy(host)
    if dev_type not in (2, 13):  # kDLCUDA, kDLCUDAManaged
        raise ValueError(f"gpusort: DLPack device type {dev_type} is not supported (CUDA or CPU)")
    return Array("dlpack", x, ptr, shape, dtype, max(bits // 8, 1), dev_id, _core.own_stream(dev_id))


def _finish_dlpack(a, out):
    _core.stream_synchronize(a.stream, a.device)
    return DeviceArray(out.obj, out.shape, out.dtype)


class DeviceArray:
    """A gpusort-owned device array, returned for producers that are not
    PyTorch, CuPy, JAX or NumPy. It speaks DLPack and the CUDA array
    interface, so any framework can take it without a copy."""

    def __init__(self, buffer, shape, dtype):
        self._buffer = buffer
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype) if dtype != "bfloat16" else dtype
        self._dtype_name = dtype

    @property
    def __cuda_array_interface__(self):
        typestr = np.dtype(self._dtype_name).str if self._dtype_name != "bfloat16" else "<V2"
        return {"shape": self.shape, "typestr": typestr, "data": (self._buffer.ptr, False), "version": 3,
                "strides": None, "stream": None}

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        # The data is ready (the stream was waited for before this array was
        # made), so any consumer stream may use it at once. nanobind's bare
        # export is the (unversioned) DLPack capsule itself.
        kind, bits = _DL_KIND[self._dtype_name]
        return _core.as_array(self._buffer, kind, bits, list(self.shape), "")

    def __dlpack_device__(self):
        return (2, self._buffer.device)


# ---- the scratch of a device call -----------------------------------------------------
# A device call of the extension module (sort_device, argsort_device,
# topk_device, segmented_sort_device) takes its scratch from the caller's
# framework, on the call's stream: the framework's current stream, where the
# allocator hands the block out and where the work is queued. The block goes
# back to the framework as soon as the work is queued. That is safe: PyTorch's
# caching allocator and CuPy's pool give a freed block again only to
# allocations for the same stream, whose work queues behind the sort (a block
# used on another stream would need record_stream; none is).
# Scratch of up to POOL_MAX bytes comes from gpusort's pool within the same
# extension call: a framework allocation (torch.empty_like: 3.6 us on an
# H200, docs/perf/python.md) and a second call would eat most of the 10 us
# bound on a small call's overhead, and that pool then holds at most a few
# such blocks. A call that needs more queues nothing and returns the bytes it
# needs.
POOL_MAX = 4 << 20


def run_device(a, fn, *args, **kwargs):
    """fn(*args, **kwargs), one of the extension's device calls on a's
    device and stream, with its scratch from a's framework."""
    alloc = _SCRATCH.get(a.fw)
    if alloc is None:
        fn(*args, **kwargs)
        return
    need = fn(*args, pool_max=POOL_MAX, **kwargs)
    if need:
        block, ptr = alloc(a, need)
        fn(*args, temp=ptr, temp_bytes=need, **kwargs)
        del block  # back to the framework's cache, for work queued after this call's


def is_jax_tracer(x):
    """Whether x is a JAX tracer (an array inside jax.jit or jax.vmap), which
    has no data to describe: gpusort.jax sorts it through XLA. JAX is not
    imported for this."""
    core = sys.modules.get("jax.core")
    return core is not None and isinstance(x, core.Tracer)


def describe(x, need_contiguous=True):
    """An Array for x, or TypeError for an object gpusort cannot read."""
    f = _DESCRIBE.get(type(x))
    if f is None:
        f = _describer_for(x)
        _DESCRIBE[type(x)] = f
    return f(x, need_contiguous)


def _describer_for(x):
    mod = type(x).__module__.split(".")[0]
    if mod == "torch":
        return _describe_torch
    if mod == "cupy":
        return _describe_cupy
    if isinstance(x, np.ndarray):
        return _describe_numpy
    if mod in ("jax", "jaxlib"):
        return _describe_jax
    if hasattr(x, "__cuda_array_interface__"):
        return _describe_cai
    if hasattr(x, "__dlpack__"):
        return _describe_dlpack
    raise TypeError(f"gpusort: cannot sort a {type(x).__module__}.{type(x).__name__}: pass a PyTorch, CuPy, JAX "
                    "or NumPy array, or an object with __dlpack__ or __cuda_array_interface__")


_DESCRIBE = {np.ndarray: _describe_numpy}
_EMPTY = {"torch": _empty_torch, "cupy": _empty_cupy, "numpy": _empty_numpy, "jax": _empty_buffer,
          "jax_host": _empty_jax_host, "cai": _empty_buffer, "dlpack": _empty_buffer}
_SCRATCH = {"torch": _scratch_torch, "cupy": _scratch_cupy}
_FINISH = {"jax": _finish_jax, "jax_host": _finish_jax_host, "cai": _finish_cai, "dlpack": _finish_dlpack}
