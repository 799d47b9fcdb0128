"""gpusort for JAX: sort, argsort and top-k as XLA custom calls, so that they
run inside jax.jit and batch under jax.vmap.

    import jax, jax.numpy as jnp
    import gpusort.jax as gj
    x = jax.random.normal(jax.random.key(0), (64, 100_000))
    y = jax.jit(gj.sort)(x)                                 # each row sorted
    i = jax.jit(lambda x: gj.argsort(x, descending=True))(x)
    v, i = jax.vmap(lambda r: gj.top_k(r, 16))(x)           # as jax.lax.top_k

Each call is an XLA FFI custom call (jax.ffi.ffi_call) to the handlers in
the extension module. On a GPU it runs on XLA's stream with scratch from
XLA's allocator, with no host synchronisation: the call is as asynchronous
as JAX's own ops and can be traced, compiled and fused around like them. On
the CPU platform it runs gpusort's host sort.

Shapes: the sorted axis is moved last (a transpose that XLA plans) and every
other dimension is a row, sorted on its own; jax.vmap adds its batch as one
more row dimension (vmap_method "broadcast_all").

Order: ascending, or descending with descending=True; always stable (equal
keys keep their order; -0.0 and +0.0 are equal). NaNs, by default
(nan="largest"), as NumPy and jnp.sort order them: every NaN above +inf,
whatever its sign and payload, all NaNs equal (so last ascending, first
descending); nan="bits" gives CUB's order (NaNs with the sign bit set before
-inf). top_k follows the same order, where jax.lax.top_k orders by bits
(-NaN smallest, -0.0 below +0.0). sort and top_k's values are
differentiable as jnp.sort's and jax.lax.top_k's (the permutation applied to
the tangent); indices are not.

JAX is imported by this module only; `import gpusort` does not need it.
"""

import functools
import operator

import jax
import jax.numpy as jnp
import numpy as np

from . import _gpusort as _core
from ._arrays import KEY_OF_DTYPE

__all__ = ["sort", "argsort", "top_k"]

if not hasattr(_core, "xla_ffi_targets"):
    raise ImportError("gpusort.jax: this gpusort was built without XLA's FFI headers (jax was not installed when its "
                      "extension module was built); rebuild gpusort with jax installed")

for _platform, _targets in _core.xla_ffi_targets().items():
    for _name, _handler in _targets.items():
        jax.ffi.register_ffi_target(_name, _handler, platform=_platform)

_INT32_MAX = 2**31 - 1


def _operand(x, fn):
    x = jnp.asarray(x)
    if x.dtype.name not in KEY_OF_DTYPE:
        raise TypeError(f"gpusort.jax.{fn}: dtype {x.dtype} is not a key type gpusort sorts "
                        f"(supported: {', '.join(KEY_OF_DTYPE)})")
    return x


def _nan_largest(nan, fn):
    if nan not in ("largest", "bits"):
        raise ValueError(f"gpusort.jax.{fn}: nan must be 'largest' or 'bits', not {nan!r}")
    return nan == "largest"


def _axis(x, axis, fn, name="axis"):
    if x.ndim == 0:
        raise ValueError(f"gpusort.jax.{fn}: cannot sort a 0-d array along an axis (pass axis=None)")
    try:
        a = operator.index(axis)
    except TypeError:
        raise TypeError(f"gpusort.jax.{fn}: {name} must be an int, not {type(axis).__name__}") from None
    if not -x.ndim <= a < x.ndim:
        raise ValueError(f"gpusort.jax.{fn}: {name}={axis} is out of range for an array of {x.ndim} dimensions")
    return a % x.ndim


def _index_dtype(dtype, cols, fn, name="dtype"):
    """The canonical index dtype (int64 becomes int32 unless jax_enable_x64),
    checked to count to the row length."""
    dt = np.dtype(jax.dtypes.canonicalize_dtype(np.int64 if dtype is None else dtype))
    if dt not in (np.dtype(np.int32), np.dtype(np.int64)):
        raise ValueError(f"gpusort.jax.{fn}: {name} must be int32 or int64, not {dt}")
    if dt == np.int32 and cols > _INT32_MAX:
        raise ValueError(f"gpusort.jax.{fn}: rows of {cols} keys need int64 indices (enable jax_enable_x64)")
    return dt


def _along(x, axis, fn, call):
    """call(x with `axis` moved last), its outputs' last axis moved back;
    axis=None: call(x flattened)."""
    if axis is None:
        return call(x.ravel())
    a = _axis(x, axis, fn)
    if a == x.ndim - 1:
        return call(x)
    out = call(jnp.moveaxis(x, a, -1))
    return jax.tree.map(lambda o: jnp.moveaxis(o, -1, a), out)


def _ffi(target, results, x, **attrs):
    attrs = {name: np.bool_(value) for name, value in attrs.items()}
    return jax.ffi.ffi_call(target, results, vmap_method="broadcast_all")(x, **attrs)


# ---- the calls along the last axis, with their derivatives ------------------------------
# A sort's derivative is its permutation applied to the tangent, as jnp.sort's and
# jax.lax.top_k's are: the JVP rules sort by index (argsort, or top-k's indices) and
# gather the keys and their tangents with the same indices. Indices have no tangent.
def _gather(a, i):
    if a.dtype == jax.dtypes.float0:  # the tangent of integer keys
        return np.zeros(i.shape, jax.dtypes.float0)
    return jnp.take_along_axis(a, i, axis=-1)


def _argsort_last(y, descending, nan_largest, idx):
    # stop_gradient: integer indices carry no derivative, so the call needs no JVP rule
    return _ffi("gpusort_argsort", jax.ShapeDtypeStruct(y.shape, idx), jax.lax.stop_gradient(y),
                descending=descending, nan_largest=nan_largest)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2))
def _sort_last(y, descending, nan_largest):
    return _ffi("gpusort_sort", jax.ShapeDtypeStruct(y.shape, y.dtype), y, descending=descending,
                nan_largest=nan_largest)


@_sort_last.defjvp
def _sort_last_jvp(descending, nan_largest, primals, tangents):
    (y,), (dy,) = primals, tangents
    i = _argsort_last(y, descending, nan_largest, _index_dtype(None, y.shape[-1], "sort"))
    return _gather(y, i), _gather(dy, i)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3, 4, 5))
def _top_k_last(y, k, largest, sorted_, nan_largest, idx):
    shape = y.shape[:-1] + (k,)
    results = (jax.ShapeDtypeStruct(shape, y.dtype), jax.ShapeDtypeStruct(shape, idx))
    return tuple(_ffi("gpusort_topk", results, y, largest=largest, sorted=sorted_, nan_largest=nan_largest))


@_top_k_last.defjvp
def _top_k_last_jvp(k, largest, sorted_, nan_largest, idx, primals, tangents):
    (y,), (dy,) = primals, tangents
    v, i = _top_k_last(y, k, largest, sorted_, nan_largest, idx)
    return (v, i), (_gather(dy, i), np.zeros(i.shape, jax.dtypes.float0))


# ---- the API --------------------------------------------------------------------------
def sort(x, axis=-1, descending=False, stable=True, nan="largest"):
    """A sorted copy of x along `axis` (None: the flattened array).

    x: a JAX array (or anything jnp.asarray takes) of uint8..uint64,
    int8..int64, float16, bfloat16, float32 or float64. stable: accepted for
    jnp.sort's signature; the sort is always stable. nan: "largest" (NaNs
    last ascending, as jnp.sort) or "bits" (CUB's order). Differentiable as
    jnp.sort is.
    """
    x = _operand(x, "sort")
    nan_largest = _nan_largest(nan, "sort")
    return _along(x, axis, "sort", lambda y: _sort_last(y, bool(descending), nan_largest))


def argsort(x, axis=-1, descending=False, stable=True, nan="largest", dtype=None):
    """The indices that sort x along `axis`, stable (equal keys in input
    order, as jnp.argsort(stable=True), descending too).

    dtype: the index type, int32 or int64; None: JAX's default integer
    (int64 with jax_enable_x64, else int32). Other arguments as for sort().
    """
    x = _operand(x, "argsort")
    nan_largest = _nan_largest(nan, "argsort")
    cols = x.size if axis is None or x.ndim == 0 else x.shape[_axis(x, axis, "argsort")]
    idx = _index_dtype(dtype, cols, "argsort")
    return _along(x, axis, "argsort", lambda y: _argsort_last(y, bool(descending), nan_largest, idx))


def top_k(operand, k, *, axis=-1, largest=True, sorted=True, nan="largest", index_dtype=np.int32):
    """The k largest entries along `axis` and their indices, as
    jax.lax.top_k: returns (values, indices), int32 indices by default.

    Best first, equal keys by index (lower first). largest=False: the k
    smallest. sorted=False: the k winners in index order. nan: as for
    sort(), so with "largest" NaNs are the largest keys. The values are
    differentiable as jax.lax.top_k's are.
    """
    x = _operand(operand, "top_k")
    a = _axis(x, axis, "top_k")
    cols = x.shape[a]
    try:
        k = operator.index(k)
    except TypeError:
        raise TypeError(f"gpusort.jax.top_k: k must be an int, not {type(k).__name__}") from None
    if not 0 <= k <= cols:
        raise ValueError(f"gpusort.jax.top_k: k={k} is out of range for an axis of {cols}")
    idx = _index_dtype(index_dtype, cols, "top_k", "index_dtype")
    nan_largest = _nan_largest(nan, "top_k")
    return _along(x, a, "top_k", lambda y: _top_k_last(y, k, bool(largest), bool(sorted), nan_largest, idx))


_TRACED_UNSUPPORTED = ("algorithm", "begin_bit", "end_bit", "out")


def traced(fn, x, **kwargs):
    """gpusort.sort, argsort or topk (`fn`, with its keyword arguments) given
    a JAX tracer, inside jax.jit or jax.vmap: the same call through XLA.
    Arguments that need a concrete array (algorithm, a bit range, out=) are
    refused."""
    for name in _TRACED_UNSUPPORTED:
        value = kwargs.pop(name, None)
        if value is not None and not (name == "algorithm" and value == "auto"):
            raise ValueError(f"gpusort.{fn}: {name}= is not supported on a traced JAX array (inside jax.jit or "
                             f"jax.vmap); leave it out")
    if fn == "sort":
        return sort(x, **kwargs)
    if fn == "argsort":
        return argsort(x, dtype=kwargs.pop("index_dtype", "int64"), **kwargs)
    return top_k(x, kwargs.pop("k"), axis=kwargs.pop("dim", -1), index_dtype=np.int64, **kwargs)
