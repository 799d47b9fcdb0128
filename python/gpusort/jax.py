"""gpusort for JAX: sort, argsort and top-k as XLA custom calls, so that they
run inside jax.jit and batch under jax.vmap.

    import jax, jax.numpy as jnp
    import gpusort.jax as gj
    x = jax.random.normal(jax.random.key(0), (64, 100_000))
    y = jax.jit(gj.sort)(x)                                 # each row sorted
    i = jax.jit(lambda x: gj.argsort(x, descending=True))(x)
    v, i = jax.vmap(lambda r: gj.top_k(r, 16))(x)           # as jax.lax.top_k

Each call is an XLA FFI custom call (jax.ffi.ffi_call) to the handlers in
the extension module. On a GPU it runs on XLA's stream, with no host
synchronisation: the call is as asynchronous as JAX's own ops and can be
traced, compiled and fused around like them. Its scratch is one more result
of the custom call, sized when the call is traced, so XLA plans and reuses
it as it does every buffer of the program. On the CPU platform it runs
gpusort's host sort (jax.lax.platform_dependent picks the handler).

Shapes: the sorted axis is moved last (a transpose that XLA plans) and every
other dimension is a row, sorted on its own; jax.vmap adds its batch as one
more row dimension (a custom_vmap rule, which sizes the scratch for the
batched call).

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
from ._arrays import KEY_CODE_OF_DTYPE, KEY_OF_DTYPE

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


def _scratch_bytes(op, x, k=0, index_dtype=None, flag=False, sorted_=True, nan_largest=True):
    """The CUDA handler's scratch for the operand x (its last axis sorted,
    every other dimension a row), at least one byte; sized on the current
    device. Without a usable CUDA device the CUDA lowering never runs: one
    byte stands in."""
    cols = x.shape[-1] if x.ndim else 1
    rows = x.size // cols if cols else 0
    ib = np.dtype(index_dtype).itemsize if index_dtype is not None else 8
    try:
        need = _core.xla_scratch_bytes(op, KEY_CODE_OF_DTYPE[x.dtype.name], rows, cols, k, ib, bool(flag),
                                       bool(sorted_), bool(nan_largest))
    except (RuntimeError, ValueError):
        if _core.gpu_available():
            raise
        need = 0
    return max(int(need), 1)


def _ffi(target, results, x, scratch, **attrs):
    """The custom call `target` on x. results(y): the results' shapes for
    an operand y (a ShapeDtypeStruct or a tuple of them); scratch(y): its
    scratch bytes. The CUDA handler returns the scratch as one more result,
    the CPU handler has none: jax.lax.platform_dependent picks by the
    platform the program is lowered for. A batch under jax.vmap becomes
    more rows of the same call, its results and scratch shaped for them."""
    attrs = {name: np.bool_(value) for name, value in attrs.items()}
    single = not isinstance(results(x), tuple)

    def outs(y):
        r = results(y)
        return (r,) if single else r

    def cuda(y):
        got = jax.ffi.ffi_call(target, (*outs(y), jax.ShapeDtypeStruct((scratch(y),), np.uint8)))(y, **attrs)
        return tuple(got[:-1])

    def cpu(y):
        return tuple(jax.ffi.ffi_call(target, outs(y))(y, **attrs))

    @jax.custom_batching.custom_vmap
    def call(y):
        return jax.lax.platform_dependent(y, cpu=cpu, default=cuda)

    @call.def_vmap
    def _batched(axis_size, in_batched, y):
        # the batch axis comes first: one more row dimension of the same call
        got = call(y)
        return got, (in_batched[0],) * len(got)

    got = call(x)
    return got[0] if single else got


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
    y = jax.lax.stop_gradient(y)
    return _ffi("gpusort_argsort", lambda z: jax.ShapeDtypeStruct(z.shape, idx), y,
                lambda z: _scratch_bytes("argsort", z, index_dtype=idx, flag=descending, nan_largest=nan_largest),
                descending=descending, nan_largest=nan_largest)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2))
def _sort_last(y, descending, nan_largest):
    return _ffi("gpusort_sort", lambda z: jax.ShapeDtypeStruct(z.shape, z.dtype), y,
                lambda z: _scratch_bytes("sort", z, flag=descending, nan_largest=nan_largest),
                descending=descending, nan_largest=nan_largest)


@_sort_last.defjvp
def _sort_last_jvp(descending, nan_largest, primals, tangents):
    (y,), (dy,) = primals, tangents
    i = _argsort_last(y, descending, nan_largest, _index_dtype(None, y.shape[-1], "sort"))
    return _gather(y, i), _gather(dy, i)


@functools.partial(jax.custom_jvp, nondiff_argnums=(1, 2, 3, 4, 5))
def _top_k_last(y, k, largest, sorted_, nan_largest, idx):
    def results(z):
        shape = z.shape[:-1] + (k,)
        return jax.ShapeDtypeStruct(shape, z.dtype), jax.ShapeDtypeStruct(shape, idx)

    scratch = lambda z: _scratch_bytes("topk", z, k=k, index_dtype=idx, flag=largest, sorted_=sorted_,  # noqa: E731
                                       nan_largest=nan_largest)
    return tuple(_ffi("gpusort_topk", results, y, scratch, largest=largest, sorted=sorted_, nan_largest=nan_largest))


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
