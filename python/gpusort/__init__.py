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
when a GPU is present, the parallel CPU sort otherwise; a large one over
every GPU of the process (devices=: a count). Shards spread over the ranks
of a job (torchrun, mpirun) sort together with gpusort.distributed. An N-D array sorts
along one axis (the last by default: each row, with the segmented sort;
another axis through a transposed copy), or flattened with axis=None.

Order: the frameworks'. -0.0 and +0.0 are equal (and keep their order);
every NaN ranks above +inf whatever its sign and payload, and NaNs are
equal to each other, so they come last ascending and first descending, as
in NumPy, PyTorch, CuPy and JAX (nan="bits" gives CUB's order instead:
NaNs by their bits, positive ones after +inf, negative ones before -inf).
PyTorch users: gpusort.torch has torch.sort, argsort, topk, kthvalue and
msort's signatures and results, as registered operators (torch.compile,
autograd, CUDA graphs); under torch.compile the functions here call them.
Errors: TypeError for an array or dtype gpusort cannot sort, ValueError
for bad arguments, MemoryError when the device runs out of memory (the
input is never changed then), RuntimeError for a CUDA failure.
"""

from . import _arrays, _axes, _host_multi, _options
from . import _gpusort as _core
from ._arrays import HOST, DeviceArray
from ._columns import lexsort, sort_by
from ._partition import argpartition, partition

__all__ = ["sort", "sort_", "argsort", "topk", "sort_pairs", "sort_pairs_", "segmented_sort", "partition",
           "argpartition", "sort_by", "lexsort", "gpu_available", "release_memory", "algorithms", "DeviceArray"]
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
    return _arrays.key_code(a, fn)


def _algorithm(algorithm, stable, fn):
    if algorithm not in _ALGOS:
        raise ValueError(f"gpusort.{fn}: unknown algorithm '{algorithm}' (known: {', '.join(_ALGOS)})")
    if stable and not _ALGOS[algorithm]:
        raise ValueError(f"gpusort.{fn}: algorithm '{algorithm}' is not stable; pass stable=False to use it")
    return algorithm


def _bits(begin_bit, end_bit):
    return (0 if begin_bit is None else int(begin_bit)), (-1 if end_bit is None else int(end_bit))


def _layout(a, axis, fn):
    """(s, ax, rows, shape) for sorting a along `axis`: s is the array whose
    rows (last axis) are sorted, a itself or a copy with the axis moved
    last; ax the axis (None: flattened); shape the shape of s's output."""
    ax = _options.axis(a, axis, fn)
    s = _axes.to_last(a, ax, fn) if _axes.moves(a, ax) else a
    if ax is None:
        return s, ax, 1, (a.size,)
    cols = s.shape[-1] if s.shape else 1
    return s, ax, (s.size // cols if cols else 0), tuple(s.shape)


def _output(a, s, ax, out, shape, dtype, fn, what="out"):
    """The Array a sort of s writes: out's, or a new one of s's framework
    when there is no out or the axis moves (out then takes the result as it
    is moved back)."""
    o = _check_out(a, out, a.shape if _axes.moves(a, ax) else shape, dtype, fn, what) if out is not None else None
    return o if o is not None and not _axes.moves(a, ax) else s.empty(shape, dtype)


def _result(a, s, o, ax, out):
    """What a call returns for the output o of s: out, or the framework's array."""
    if _axes.moves(a, ax):
        return _axes.back(a, s.finish(o), ax, out)
    return out if out is not None else a.finish(o)


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


# ---- the module's calls ------------------------------------------------------------
def _sort_rows(key, s, o, rows, v, vo, descending, algo, begin, end, nan_largest):
    """Sorts the rows of s into o (and values v into vo when v is not None)."""
    vin, vout, vsize = (v.ptr, vo.ptr, v.itemsize) if v is not None else (0, 0, 0)
    if s.device != HOST:
        _arrays.run_device(s, _core.sort_device, key, s.size, max(rows, 1), s.ptr, o.ptr, vin, vout, vsize, descending,
                           algo, begin, end, s.stream, s.device, nan_largest=nan_largest)
    else:
        _core.sort_host(key, s.size, max(rows, 1), s.ptr, o.ptr, vin, vout, vsize, descending, algo, begin, end,
                        False, nan_largest=nan_largest)


def _argsort_rows(key, s, o, rows, index_bytes, descending, algo, begin, end, nan_largest):
    """The indices that sort each row of s, into o."""
    if s.device != HOST:
        _arrays.run_device(s, _core.argsort_device, key, s.size, max(rows, 1), s.ptr, o.ptr, index_bytes, descending,
                           algo, begin, end, s.stream, s.device, nan_largest=nan_largest)
    else:
        _core.argsort_host(key, s.size, max(rows, 1), s.ptr, o.ptr, index_bytes, descending, algo, begin, end,
                           False, nan_largest=nan_largest)


# ---- the functions -----------------------------------------------------------------
def _traced(fn, x, **kwargs):
    """The call on a JAX tracer (inside jax.jit or jax.vmap): through XLA, by gpusort.jax."""
    from . import jax as gpusort_jax
    return gpusort_jax.traced(fn, x, **kwargs)


def sort(x, *, axis=-1, descending=False, stable=True, algorithm="auto", begin_bit=None, end_bit=None,
         nan="largest", kind=None, order=None, out=None, devices=None):
    """A sorted copy of x along an axis (the last by default: each row of a 2-D array).

    x: a PyTorch tensor, CuPy, JAX or NumPy array, or any DLPack or CUDA
    array interface producer, of u8..u64, i8..i64, f16, bf16, f32 or f64.
    axis: any axis, negative counting from the end (a non-last axis of a
    PyTorch, CuPy, JAX or NumPy array moves through a transposed copy:
    two memory-bound copies on top of the sort), or None to sort the
    flattened array. descending: largest first. stable: equal keys keep
    their order (the default; an unstable algorithm must be asked for with
    stable=False). algorithm: "auto" (the fastest) or a gpusort algorithm
    name (1-D only). begin_bit, end_bit: sort by bits [begin_bit, end_bit)
    of the key's order-preserving bit pattern. nan: "largest" (NaNs above
    +inf, all equal: last ascending, first descending, as the frameworks)
    or "bits" (CUB's order). kind: NumPy's (None, "quicksort", "mergesort",
    "heapsort", "stable"; the last two ask for a stable sort); order: not
    supported (ValueError). out: an array to write the result to (may be x
    itself). devices: for a host array (NumPy, CPU tensor) sorted whole (1-D,
    or axis=None): how many GPUs of this process sort it together, a count g
    or the list [0, ..., g - 1] (the first g GPUs; CUDA_VISIBLE_DEVICES picks
    others), over NCCL (gpusort._gpusort_dist); None: every GPU when there are
    two or more and x has at least gpusort._host_multi.MULTI_MIN_KEYS keys,
    else one. sort() copies x into a pageable output first (into a pinned
    out= the GPUs write it directly); sort_(x, devices=g) sorts in place with
    no copy. Returns an array of x's framework on x's
    device.
    """
    nl = _options.nan_largest(nan, "sort")
    stable = _options.stable_for_kind(kind, order, stable, "sort")
    if _arrays.torch_compiling(x) and algorithm == "auto" and begin_bit is None and end_bit is None:
        from ._torch_ops import compiled_sort
        return compiled_sort(x, axis, descending, stable, out, nan_largest=nl)
    if (type(x) is _arrays.TorchTensor and axis == -1 and algorithm == "auto" and begin_bit is None
            and end_bit is None and nan == "largest" and kind is None and order is None and devices is None):
        y = _arrays.torch_sort_fast(x, out, descending)
        if y is not None:
            return y
    if _arrays.is_jax_tracer(x):
        return _traced("sort", x, axis=axis, descending=descending, stable=stable, algorithm=algorithm,
                       begin_bit=begin_bit, end_bit=end_bit, out=out, nan=nan)
    a = _arrays.describe(x)
    key = _key(a, "sort")
    algo = _algorithm(algorithm, stable, "sort")
    begin, end = _bits(begin_bit, end_bit)
    s, ax, rows, shape = _layout(a, axis, "sort")
    g = 0
    if devices is not None or (a.device == HOST and a.size >= _host_multi.MULTI_MIN_KEYS):
        g = _host_multi.gpus(devices, a, ax, algo == "auto" and (begin, end) == (0, -1), "sort")
    o = _output(a, s, ax, out, shape, a.dtype, "sort")
    if g:
        _host_multi.sort(key, s, o, g, descending, nl)
    else:
        _sort_rows(key, s, o, rows, None, None, descending, algo, begin, end, nl)
    return _result(a, s, o, ax, out)


def sort_(x, **kwargs):
    """Sorts x in place (PyTorch, CuPy, NumPy); returns x. Arguments as for sort()."""
    return sort(x, out=x, **kwargs)


def argsort(x, *, axis=-1, descending=False, stable=True, algorithm="auto", begin_bit=None, end_bit=None,
            index_dtype="int64", nan="largest", kind=None, order=None, out=None):
    """The indices that sort x along an axis, as int64 (or index_dtype="int32").

    Stable: equal keys (and all NaNs, with nan="largest") are listed in
    input order, as numpy.argsort(kind="stable"). Arguments as for sort().
    """
    nl = _options.nan_largest(nan, "argsort")
    _options.stable_for_kind(kind, order, stable, "argsort")
    if _arrays.torch_compiling(x) and algorithm == "auto" and begin_bit is None and end_bit is None:
        from ._torch_ops import compiled_argsort
        return compiled_argsort(x, axis, descending, stable, index_dtype, out, nan_largest=nl)
    if _arrays.is_jax_tracer(x):
        return _traced("argsort", x, axis=axis, descending=descending, stable=stable, algorithm=algorithm,
                       begin_bit=begin_bit, end_bit=end_bit, index_dtype=index_dtype, out=out, nan=nan)
    a = _arrays.describe(x)
    key = _key(a, "argsort")
    _options.stable_for_kind(kind, order, stable, "argsort")
    if index_dtype not in ("int64", "int32"):
        raise ValueError(f"gpusort.argsort: index_dtype must be 'int64' or 'int32', not {index_dtype!r}")
    algo = _algorithm(algorithm, True, "argsort")
    begin, end = _bits(begin_bit, end_bit)
    s, ax, rows, shape = _layout(a, axis, "argsort")
    o = _output(a, s, ax, out, shape, index_dtype, "argsort")
    _argsort_rows(key, s, o, rows, 8 if index_dtype == "int64" else 4, descending, algo, begin, end, nl)
    return _result(a, s, o, ax, out)


def topk(x, k, dim=-1, largest=True, sorted=True, *, nan="largest"):
    """The k largest (or smallest) keys of x along dimension dim (any, as
    torch.topk), and their indices (int64): returns (values, indices).

    Ties at the boundary go to the lowest indices; sorted output lists the
    winners best first (equal keys by index); unsorted output lists them in
    input order, except rows of more than 4096 keys on the GPU, which come
    sorted. nan: as for sort() ("largest": NaNs are the largest keys, as in
    torch.topk). Radix selection on the GPU (gpusort's topk, no host
    synchronisation); host arrays are sorted and sliced. A dim other than
    the last moves through transposed copies, as in sort().
    """
    nl = _options.nan_largest(nan, "topk")
    if _arrays.torch_compiling(x):
        from ._torch_ops import compiled_topk
        return compiled_topk(x, k, dim, largest, sorted, nan_largest=nl)
    if _arrays.is_jax_tracer(x):
        return _traced("topk", x, k=k, dim=dim, largest=largest, sorted=sorted, nan=nan)
    a = _arrays.describe(x)
    key = _key(a, "topk")
    if len(a.shape) == 0 and a.fw != "torch":
        raise ValueError("gpusort.topk: cannot select from a 0-d array")
    s, ax, rows, full = _layout(a, dim, "topk")
    cols = full[-1] if full else 1
    k = int(k)
    if k < 0 or k > cols:
        raise ValueError(f"gpusort.topk: k = {k} is out of range for a dimension of {cols}")
    shape = tuple(full[:-1]) + (k,) if full else ()
    if s.device == HOST:
        # The winners are the first k of the stable sort (ties to the lowest
        # index); unsorted, they are put back in index order by a sort by index.
        vo, io = s.empty(full, s.dtype), s.empty(full, "int64")
        _sort_rows(key, s, vo, rows, None, None, largest, "auto", 0, -1, nl)
        _argsort_rows(key, s, io, rows, 8, largest, "auto", 0, -1, nl)
        v, i = _axes.head(s, s.finish(vo), k), _axes.head(s, s.finish(io), k)
        if not sorted:
            i, v = sort_pairs(i, v)
    else:
        vo, io = s.empty(shape, s.dtype), s.empty(shape, "int64")
        if rows and k:
            _core.topk_device(key, s.size, max(rows, 1), k, s.ptr, vo.ptr, io.ptr, 8, largest, sorted, s.stream,
                              s.device, nan_largest=nl)
        v, i = s.finish(vo), s.finish(io)
    if _axes.moves(a, ax):
        return _axes.back(a, v, ax), _axes.back(a, i, ax)
    return v, i


def sort_pairs(keys, values, *, axis=-1, descending=False, stable=True, algorithm="auto", begin_bit=None,
               end_bit=None, nan="largest", kind=None, order=None, out=None):
    """Sorts keys and moves values with them; returns (keys, values).

    values: an array of the keys' framework and device and of their shape
    (any dtype of 1 to 16 bytes). out: a (keys, values) pair to write to.
    Other arguments as for sort().
    """
    nl = _options.nan_largest(nan, "sort_pairs")
    stable = _options.stable_for_kind(kind, order, stable, "sort_pairs")
    if _arrays.torch_compiling(keys) and algorithm == "auto" and begin_bit is None and end_bit is None:
        from ._torch_ops import compiled_sort_pairs
        return compiled_sort_pairs(keys, values, axis, descending, stable, out, nan_largest=nl)
    a = _arrays.describe(keys)
    v = _arrays.describe(values)
    key = _key(a, "sort_pairs")
    _same_place(a, v, "sort_pairs")
    algo = _algorithm(algorithm, stable, "sort_pairs")
    begin, end = _bits(begin_bit, end_bit)
    s, ax, rows, shape = _layout(a, axis, "sort_pairs")
    sv = _axes.to_last(v, ax, "sort_pairs") if _axes.moves(a, ax) else v
    kout, vout = (None, None) if out is None else out
    ko = _output(a, s, ax, kout, shape, a.dtype, "sort_pairs", "out[0]")
    vo = _output(v, sv, ax, vout, shape, v.dtype, "sort_pairs", "out[1]")
    _sort_rows(key, s, ko, rows, sv, vo, descending, algo, begin, end, nl)
    return _result(a, s, ko, ax, kout), _result(v, sv, vo, ax, vout)


def sort_pairs_(keys, values, **kwargs):
    """Sorts keys and values in place; returns (keys, values)."""
    return sort_pairs(keys, values, out=(keys, values), **kwargs)


def segmented_sort(x, offsets, *, values=None, descending=False, begin_bit=None, end_bit=None, nan="largest"):
    """Sorts each segment [offsets[i], offsets[i+1]) of the 1-D array x on its own.

    offsets: int32 or int64, len(offsets) = segments + 1, in x's framework
    and on x's device. Items outside every segment keep their value. With
    values=, returns (keys, values). Stable. nan: as for sort().
    """
    a = _arrays.describe(x)
    key = _key(a, "segmented_sort")
    nl = _options.nan_largest(nan, "segmented_sort")
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
                           v.itemsize if vo else 0, off.ptr, ob, descending, begin, end, a.stream, a.device,
                           nan_largest=nl)
    else:
        o.obj[...] = a.obj
        if vo is not None:
            vo.obj[...] = v.obj
        _core.segmented_sort_host(key, a.size, segments, o.ptr, vo.ptr if vo else 0, v.itemsize if vo else 0,
                                  off.ptr, ob, descending, begin, end, nan_largest=nl)
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
