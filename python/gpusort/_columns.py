"""Sorting rows by several key columns: gpusort.sort_by and gpusort.lexsort.

Both return the stable permutation: rows ordered by the first (sort_by) or
last (lexsort, as numpy.lexsort) key, ties by the next, then by position.
The columns' order-preserving bits are packed into one normalized key of up
to 64 bits per pass and sorted by the radix sort (include/gpusort/columns.hpp):
columns of 64 bits in all take one pass, wider tables one pass per 64-bit
group. GPU arrays are sorted on their device and stream (scratch from the
framework's allocator, as for sort()); NumPy arrays are copied to the GPU
and sorted there when one is present, else sorted on the CPU.
"""

from . import _arrays, _axes, _options
from . import _gpusort as _core
from ._arrays import HOST


def _directions(descending, count, fn):
    if isinstance(descending, bool) or descending is None:
        return [bool(descending)] * count
    d = [bool(x) for x in descending]
    if len(d) != count:
        raise ValueError(f"gpusort.{fn}: descending has {len(d)} entries for {count} columns")
    return d


def _describe_all(columns, fn):
    if hasattr(columns, "__dlpack__") or hasattr(columns, "__cuda_array_interface__") or hasattr(columns, "__array__"):
        try:
            columns = list(columns)  # a 2-D array: its rows are the keys
        except TypeError:
            raise TypeError(f"gpusort.{fn}: expects a sequence of key arrays") from None
    columns = list(columns)
    for c in columns:
        if _arrays.is_jax_tracer(c) or _arrays.torch_compiling(c):
            raise TypeError(f"gpusort.{fn}: not supported inside jax.jit, jax.vmap or torch.compile (it needs the "
                            "arrays' addresses); call it outside the compiled function")
    arrays = [_arrays.describe(c) for c in columns]
    for i, a in enumerate(arrays[1:], 1):
        if a.fw != arrays[0].fw or a.device != arrays[0].device:
            raise ValueError(f"gpusort.{fn}: key {i} is a {a.fw} array on device {a.device}, key 0 a "
                             f"{arrays[0].fw} array on device {arrays[0].device}: all keys must be alike")
        if tuple(a.shape) != tuple(arrays[0].shape):
            raise ValueError(f"gpusort.{fn}: key {i} has shape {tuple(a.shape)}, key 0 {tuple(arrays[0].shape)}")
    return arrays


def _permutation(owner, arrays, descending, n, nan_largest, index_dtype, fn):
    """The stable permutation of n rows by the contiguous key arrays (first
    primary): an Array of index_dtype, made in owner's framework (owner: an
    Array on the keys' device)."""
    a = owner
    o = a.empty((n,), index_dtype)
    codes = [_arrays.key_code(x, fn, f"key {i}: ", allow_bool=True) for i, x in enumerate(arrays)]
    ptrs = [x.ptr for x in arrays]
    ib = 8 if index_dtype == "int64" else 4
    if a.device != HOST:
        _arrays.run_device(a, _core.sort_by_columns_device, codes, ptrs, descending, n, o.ptr, ib, nan_largest,
                           a.stream, a.device)
    else:
        _core.sort_by_columns_host(codes, ptrs, descending, n, o.ptr, ib, nan_largest)
    return o


def sort_by(columns, descending=False, *, nan="largest", index_dtype="int64"):
    """The permutation that sorts rows by several key columns, the first
    column primary, ties by the next, remaining ties in row order (stable).

    columns: a sequence of 1-D arrays of one framework and device and of one
    length, each of any key dtype (bool, u8..u64, i8..i64, f16, bf16, f32,
    f64), or a 2-D array whose rows are the columns. descending: one bool
    for every column, or one per column. nan: as for sort() ("largest":
    NaNs after +inf, all equal). index_dtype: "int64" or "int32". Returns
    the indices as an array of the columns' framework on their device:
    x[perm] for each column x is the table sorted.
    """
    fn = "sort_by"
    nl = _options.nan_largest(nan, fn)
    if index_dtype not in ("int64", "int32"):
        raise ValueError(f"gpusort.{fn}: index_dtype must be 'int64' or 'int32', not {index_dtype!r}")
    arrays = _describe_all(columns, fn)
    if not arrays:
        raise ValueError(f"gpusort.{fn}: needs at least one column")
    if len(arrays[0].shape) != 1:
        raise ValueError(f"gpusort.{fn}: columns must be 1-D, not of shape {tuple(arrays[0].shape)} "
                         "(gpusort.lexsort sorts N-D keys along an axis)")
    n = arrays[0].size
    if index_dtype == "int32" and n > 2**31 - 1:
        raise ValueError(f"gpusort.{fn}: {n} rows need int64 indices")
    o = _permutation(arrays[0], arrays, _directions(descending, len(arrays), fn), n, nl, index_dtype, fn)
    return arrays[0].finish(o)


def lexsort(keys, axis=-1, *, nan="largest"):
    """As numpy.lexsort: the indices that sort by several keys, the LAST
    key primary, along `axis` of the keys' common shape; stable.

    keys: a sequence of arrays of one framework, device and shape (PyTorch,
    CuPy, JAX or NumPy), or an array whose first axis lists the keys. Every
    key ascending; nan: as for sort(). Returns int64 indices of the keys'
    shape, in their framework: along a 1-D axis, keys[i][perm] sorts them.
    An N-D key sorts each row along the axis on its own (the row number is
    the most significant column), as numpy.lexsort does.
    """
    fn = "lexsort"
    nl = _options.nan_largest(nan, fn)
    arrays = _describe_all(keys, fn)
    if not arrays:
        raise TypeError(f"gpusort.{fn}: needs at least one key")
    arrays = arrays[::-1]  # primary first
    a = arrays[0]
    if len(a.shape) == 0:
        raise ValueError(f"gpusort.{fn}: keys must have at least one dimension")
    if axis is None:
        raise TypeError(f"gpusort.{fn}: axis must be an integer, not None")
    ax = _options.axis(a, axis, fn)
    moved = _axes.moves(a, ax)
    if moved:
        arrays = [_axes.to_last(x, ax, fn) for x in arrays]
    s = arrays[0]
    n = s.shape[-1]
    rows = s.size // n if n else 0
    direction = [False] * len(arrays)
    if rows > 1:  # each row on its own: the row number leads
        ids = _arrays.describe(_row_ids(s, rows, n))
        arrays, direction = [ids] + arrays, [False] + direction
    o = _permutation(s, arrays, direction, s.size, nl, "int64", fn)
    perm = s.finish(o)
    if rows > 1:
        perm = perm % n
    perm = perm.reshape(tuple(s.shape))
    return _axes.back(a, perm, ax) if moved else perm


def _row_ids(s, rows, n):
    """The row number of each of rows * n items (row-major), as uint32 (or
    uint64 past 2^32 rows), in s's framework on its device."""
    dtype = "uint32" if rows <= 2**32 else "uint64"
    if s.fw == "torch":
        import torch
        dt = torch.int32 if rows <= 2**31 else torch.int64  # as unsigned: non-negative either way
        return torch.arange(rows, dtype=dt, device=s.obj.device).repeat_interleave(n)
    if s.fw == "cupy":
        import cupy
        with cupy.cuda.Device(s.device):
            return cupy.repeat(cupy.arange(rows, dtype=dtype), n)
    if s.fw == "jax":
        import jax
        import jax.numpy as jnp
        return jax.device_put(jnp.repeat(jnp.arange(rows, dtype=dtype), n), s.obj.devices().pop())
    import numpy as np
    return np.repeat(np.arange(rows, dtype=dtype), n)
