"""gpusort: sorting on NVIDIA GPUs, for PyTorch, CuPy, JAX and NumPy arrays.

    import gpusort, torch
    x = torch.rand(1 << 28, device="cuda")
    y = gpusort.sort(x)                       # a sorted copy, a torch tensor
    i = gpusort.argsort(x, descending=True)   # int64 indices
    k, v = gpusort.sort_pairs(x, torch.arange(x.numel(), device="cuda"))

Arrays on a GPU are sorted there, on the producer's current stream, with no
host synchronisation (JAX, which publishes no stream, is waited for; inside
jax.jit or jax.vmap, sort, argsort and topk are XLA custom calls on XLA's
stream: gpusort.jax).
NumPy arrays (and CPU tensors) take the host path: the pipelined GPU sort
when a GPU is present, the parallel CPU sort otherwise. A 2-D array (any
N-D array) sorts each row of its last axis, with the segmented sort.

Order: CUB's. -0.0 and +0.0 are equal (and keep their order); NaNs order
by their bits: positive NaNs after +inf, negative NaNs before -inf.
PyTorch users: gpusort.torch has torch.sort, argsort, topk, kthvalue and
msort's signatures and results, as registered operators (torch.compile,
autograd, CUDA graphs); under torch.compile the functions here call them.
Errors: TypeError for an array or dtype gpusort cannot sort, ValueError
for bad arguments, MemoryError when the device runs out of memory (the
input is never changed then), RuntimeError for a CUDA failure.
"""

from . import _arrays
from . import _gpusort as _core
from ._arrays import HOST, DeviceArray

__all__ = ["sort", "sort_", "argsort", "topk", "sort_pairs", "sort_pairs_", "segmented_sort", "gpu_available",
           "release_memory", "algorithms", "DeviceArray"]
__version__ = "0.1.0"

_ALGOS = dict(_core.algorithm_names())  # name -> stable


def gpu_available():
    """Whether a usable CUDA device is present."""
    return _core.gpu_available()


def release_memory():
    """Gives the device memory gpusort keeps for scratch back to the device."""
    _core.release_memory()


def algorithms():
    """The algorithm names, with whether each is stable."""
    return dict(_ALGOS)


# ---- argument checks ---------------------------------------------------------------
def _key(a, fn):
    code = _arrays.KEY_CODE_OF_DTYPE.get(a.dtype)
    if code is None:
        raise TypeError(f"gpusort.{fn}: dtype {a.dtype} is not a key type gpusort sorts "
                        f"(supported: {', '.join(_arrays.KEY_OF_DTYPE)})")
    return code


def _algorithm(algorithm, stable, fn):
    if algorithm not in _ALGOS:
        raise ValueError(f"gpusort.{fn}: unknown algorithm '{algorithm}' (known: {', '.join(_ALGOS)})")
    if stable and not _ALGOS[algorithm]:
        raise ValueError(f"gpusort.{fn}: algorithm '{algorithm}' is not stable; pass stable=False to use it")
    return algorithm


def _bits(begin_bit, end_bit):
    return (0 if begin_bit is None else int(begin_bit)), (-1 if end_bit is None else int(end_bit))


def _rows(a, axis, fn):
    """(rows, output shape) for sorting along `axis`."""
    nd = len(a.shape)
    if axis is None:
        return 1, (a.size,)
    if nd == 0:
        raise ValueError(f"gpusort.{fn}: cannot sort a 0-d array along an axis (pass axis=None)")
    if axis not in (-1, nd - 1):
        raise ValueError(f"gpusort.{fn}: only the last axis can be sorted (axis=-1), not axis={axis}")
    if nd == 1:
        return 1, a.shape
    return (a.size // a.shape[-1] if a.shape[-1] else 0), a.shape


def _check_out(a, out, shape, dtype, fn, what="out"):
    o = _arrays.describe(out)
    if o.fw != a.fw or o.device != a.device:
        raise ValueError(f"gpusort.{fn}: {what} must be a {a.fw} array on the input's device")
    if o.fw in ("jax", "jax_host"):
        raise ValueError(f"gpusort.{fn}: JAX arrays are immutable: {what}= and in-place sorts are not supported")
    if o.obj is not out:
        raise ValueError(f"gpusort.{fn}: {what} must be C-contiguous")
    if tuple(o.shape) != tuple(shape) and o.size != a.size:
        raise ValueError(f"gpusort.{fn}: {what} has shape {tuple(o.shape)}, expected {tuple(shape)}")
    if o.dtype != dtype:
        raise ValueError(f"gpusort.{fn}: {what} has dtype {o.dtype}, expected {dtype}")
    o.stream = a.stream
    return o


def _same_place(a, v, fn):
    if v.fw != a.fw or v.device != a.device:
        raise ValueError(f"gpusort.{fn}: values must be a {a.fw} array on the keys' device")
    if tuple(v.shape) != tuple(a.shape):
        raise ValueError(f"gpusort.{fn}: values of shape {tuple(v.shape)} do not match keys of shape {tuple(a.shape)}")
    if not 1 <= v.itemsize <= 16:
        raise TypeError(f"gpusort.{fn}: values of {v.itemsize} bytes (1 to 16 are supported)")


# ---- the functions -----------------------------------------------------------------
def _traced(fn, x, **kwargs):
    """The call on a JAX tracer (inside jax.jit or jax.vmap): through XLA, by gpusort.jax."""
    from . import jax as gpusort_jax
    return gpusort_jax.traced(fn, x, **kwargs)


def sort(x, *, axis=-1, descending=False, stable=True, algorithm="auto", begin_bit=None, end_bit=None, out=None):
    """A sorted copy of x (along its last axis: each row of a 2-D array).

    x: a PyTorch tensor, CuPy, JAX or NumPy array, or any DLPack or CUDA
    array interface producer, of u8..u64, i8..i64, f16, bf16, f32 or f64.
    axis: -1 (the last axis), or None to sort the flattened array.
    descending: largest first. stable: equal keys keep their order (the
    default; an unstable algorithm must be asked for with stable=False).
    algorithm: "auto" (the fastest) or a gpusort algorithm name (1-D only).
    begin_bit, end_bit: sort by bits [begin_bit, end_bit) of the key's
    order-preserving bit pattern. out: an array to write the result to
    (may be x itself). Returns an array of x's framework on x's device.
    """
    if _arrays.torch_compiling(x) and algorithm == "auto" and begin_bit is None and end_bit is None:
        from ._torch_ops import compiled_sort
        return compiled_sort(x, axis, descending, stable, out)
    if (type(x) is _arrays.TorchTensor and axis == -1 and algorithm == "auto" and begin_bit is None
            and end_bit is None):
        y = _arrays.torch_sort_fast(x, out, descending)
        if y is not None:
            return y
    if _arrays.is_jax_tracer(x):
        return _traced("sort", x, axis=axis, descending=descending, stable=stable, algorithm=algorithm,
                       begin_bit=begin_bit, end_bit=end_bit, out=out)
    a = _arrays.describe(x)
    key = _key(a, "sort")
    rows, shape = _rows(a, axis, "sort")
    algo = _algorithm(algorithm, stable, "sort")
    begin, end = _bits(begin_bit, end_bit)
    o = _check_out(a, out, shape, a.dtype, "sort") if out is not None else a.empty(shape, a.dtype)
    if a.device != HOST:
        _arrays.run_device(a, _core.sort_device, key, a.size, max(rows, 1), a.ptr, o.ptr, 0, 0, 0, descending, algo,
                           begin, end, a.stream, a.device)
    else:
        _core.sort_host(key, a.size, max(rows, 1), a.ptr, o.ptr, 0, 0, 0, descending, algo, begin, end, False)
    return out if out is not None else a.finish(o)


def sort_(x, **kwargs):
    """Sorts x in place (PyTorch, CuPy, NumPy); returns x."""
    return sort(x, out=x, **kwargs)


def argsort(x, *, axis=-1, descending=False, stable=True, algorithm="auto", begin_bit=None, end_bit=None,
            index_dtype="int64", out=None):
    """The indices that sort x (within each row), as int64 (or index_dtype="int32").

    Stable: equal keys are listed in input order. Arguments as for sort().
    """
    if _arrays.torch_compiling(x) and algorithm == "auto" and begin_bit is None and end_bit is None:
        from ._torch_ops import compiled_argsort
        return compiled_argsort(x, axis, descending, stable, index_dtype, out)
    if _arrays.is_jax_tracer(x):
        return _traced("argsort", x, axis=axis, descending=descending, stable=stable, algorithm=algorithm,
                       begin_bit=begin_bit, end_bit=end_bit, index_dtype=index_dtype, out=out)
    a = _arrays.describe(x)
    key = _key(a, "argsort")
    rows, shape = _rows(a, axis, "argsort")
    if index_dtype not in ("int64", "int32"):
        raise ValueError(f"gpusort.argsort: index_dtype must be 'int64' or 'int32', not {index_dtype!r}")
    if not stable and algorithm == "auto":
        stable = True
    algo = _algorithm(algorithm, True, "argsort")
    begin, end = _bits(begin_bit, end_bit)
    ib = 8 if index_dtype == "int64" else 4
    o = _check_out(a, out, shape, index_dtype, "argsort") if out is not None else a.empty(shape, index_dtype)
    if a.device != HOST:
        _arrays.run_device(a, _core.argsort_device, key, a.size, max(rows, 1), a.ptr, o.ptr, ib, descending, algo,
                           begin, end, a.stream, a.device)
    else:
        _core.argsort_host(key, a.size, max(rows, 1), a.ptr, o.ptr, ib, descending, algo, begin, end, False)
    return out if out is not None else a.finish(o)


def topk(x, k, dim=-1, largest=True, sorted=True):
    """The k largest (or smallest) keys of x along its last axis, and their
    indices (int64), as torch.topk: returns (values, indices).

    Ties at the boundary go to the lowest indices; sorted output lists the
    winners best first (equal keys by index); unsorted output lists them in
    input order, except rows of more than 4096 keys on the GPU, which come
    sorted. Radix selection on the GPU (gpusort's topk, no host
    synchronisation); host arrays are sorted (gpusort.argsort) and sliced.
    """
    if _arrays.torch_compiling(x):
        from ._torch_ops import compiled_topk
        return compiled_topk(x, k, dim, largest, sorted)
    if _arrays.is_jax_tracer(x):
        return _traced("topk", x, k=k, dim=dim, largest=largest, sorted=sorted)
    a = _arrays.describe(x)
    key = _key(a, "topk")
    nd = len(a.shape)
    if nd == 0:
        raise ValueError("gpusort.topk: cannot select from a 0-d array")
    if dim not in (-1, nd - 1):
        raise ValueError(f"gpusort.topk: only the last dimension is supported (dim=-1), not dim={dim}")
    cols = a.shape[-1]
    k = int(k)
    if k < 0 or k > cols:
        raise ValueError(f"gpusort.topk: k = {k} is out of range for a dimension of {cols}")
    rows = a.size // cols if cols else 0
    shape = tuple(a.shape[:-1]) + (k,)
    if a.device == HOST:
        idx = argsort(x, descending=largest)
        import numpy as np
        i = np.asarray(idx)[..., :k]
        v = np.take_along_axis(np.asarray(x), i, axis=-1)
        if not sorted:
            order = np.argsort(i, axis=-1, kind="stable")
            i = np.take_along_axis(i, order, axis=-1)
            v = np.take_along_axis(v, order, axis=-1)
        return v, i
    vo, io = a.empty(shape, a.dtype), a.empty(shape, "int64")
    if rows and k:
        _arrays.run_device(a, _core.topk_device, key, a.size, max(rows, 1), k, a.ptr, vo.ptr, io.ptr, 8, largest,
                           sorted, a.stream, a.device)
    return a.finish(vo), a.finish(io)


def sort_pairs(keys, values, *, axis=-1, descending=False, stable=True, algorithm="auto", begin_bit=None,
               end_bit=None, out=None):
    """Sorts keys and moves values with them; returns (keys, values).

    values: an array of the keys' framework and device with as many items
    (any dtype of 1 to 16 bytes). out: a (keys, values) pair to write to.
    """
    if _arrays.torch_compiling(keys) and algorithm == "auto" and begin_bit is None and end_bit is None:
        from ._torch_ops import compiled_sort_pairs
        return compiled_sort_pairs(keys, values, axis, descending, stable, out)
    a = _arrays.describe(keys)
    v = _arrays.describe(values)
    key = _key(a, "sort_pairs")
    _same_place(a, v, "sort_pairs")
    rows, shape = _rows(a, axis, "sort_pairs")
    algo = _algorithm(algorithm, stable, "sort_pairs")
    begin, end = _bits(begin_bit, end_bit)
    if out is not None:
        ko = _check_out(a, out[0], shape, a.dtype, "sort_pairs", "out[0]")
        vo = _check_out(v, out[1], v.shape, v.dtype, "sort_pairs", "out[1]")
    else:
        ko, vo = a.empty(shape, a.dtype), v.empty(v.shape, v.dtype)
    if a.device != HOST:
        _arrays.run_device(a, _core.sort_device, key, a.size, max(rows, 1), a.ptr, ko.ptr, v.ptr, vo.ptr, v.itemsize,
                           descending, algo, begin, end, a.stream, a.device)
    else:
        _core.sort_host(key, a.size, max(rows, 1), a.ptr, ko.ptr, v.ptr, vo.ptr, v.itemsize, descending, algo,
                        begin, end, False)
    if out is not None:
        return out
    return a.finish(ko), v.finish(vo)


def sort_pairs_(keys, values, **kwargs):
    """Sorts keys and values in place; returns (keys, values)."""
    return sort_pairs(keys, values, out=(keys, values), **kwargs)


def segmented_sort(x, offsets, *, values=None, descending=False, begin_bit=None, end_bit=None):
    """Sorts each segment [offsets[i], offsets[i+1]) of the 1-D array x on its own.

    offsets: int32 or int64, len(offsets) = segments + 1, in x's framework
    and on x's device. Items outside every segment keep their value. With
    values=, returns (keys, values). Stable.
    """
    a = _arrays.describe(x)
    key = _key(a, "segmented_sort")
    if len(a.shape) != 1:
        raise ValueError("gpusort.segmented_sort: x must be 1-D")
    off = _arrays.describe(offsets)
    if off.fw != a.fw or off.device != a.device:
        raise ValueError("gpusort.segmented_sort: offsets must be on x's device, in x's framework")
    if off.dtype not in ("int32", "int64", "uint32", "uint64") or len(off.shape) != 1:
        raise TypeError(f"gpusort.segmented_sort: offsets must be a 1-D int32 or int64 array, not {off.dtype}")
    ob = off.itemsize if off.dtype.startswith("u") else -off.itemsize
    segments = max(off.size - 1, 0)
    begin, end = _bits(begin_bit, end_bit)
    o = a.empty(a.shape, a.dtype)
    vo = None
    if values is not None:
        v = _arrays.describe(values)
        _same_place(a, v, "segmented_sort")
        vo = v.empty(v.shape, v.dtype)
    if a.device != HOST:
        _copy_device(a, o)
        if vo is not None:
            _copy_device(v, vo)
        _arrays.run_device(a, _core.segmented_sort_device, key, a.size, segments, o.ptr, vo.ptr if vo else 0,
                           v.itemsize if vo else 0, off.ptr, ob, descending, begin, end, a.stream, a.device)
    else:
        o.obj[...] = a.obj
        if vo is not None:
            vo.obj[...] = v.obj
        _core.segmented_sort_host(key, a.size, segments, o.ptr, vo.ptr if vo else 0, v.itemsize if vo else 0,
                                  off.ptr, ob, descending, begin, end)
    if values is None:
        return a.finish(o)
    return a.finish(o), v.finish(vo)


def _copy_device(src, dst):
    """dst = src on the device, in stream order (the framework's own copy)."""
    if src.fw == "torch":
        dst.obj.copy_(src.obj)
    elif src.fw == "cupy":
        dst.obj[...] = src.obj
    else:
        _core.copy_device(dst.ptr, src.ptr, src.size * src.itemsize, src.stream, src.device)
