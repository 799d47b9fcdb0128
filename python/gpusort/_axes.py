"""Sorting along an axis that is not the last one.

gpusort sorts rows: the last axis of a C-contiguous array. Another axis is
moved last by a transposed, contiguous copy made in the array's own
framework (on its device, in its stream order), the rows of that copy are
sorted, and the result is moved back by a second transposed copy (into
`out=` when one is given). So a non-last axis costs two transposing copies
on top of the sort of the same data along the last axis.

What that costs, measured on the host path without a GPU (float32 keys,
NumPy 2.4, medians of 5, on a shared two-core machine under load, so
roughly): a 4096 x 4096 array sorts along axis 0 in 3.60 s against 2.79 s
along axis -1 (+29%: the two copies take about 0.36 s each; numpy.sort
takes 0.82 s against 0.09 s), and a 2^20 x 16 array along axis 0 in 5.19 s
against 4.69 s for its transpose along axis -1 (+11%). The copies are
memory-bound: on a GPU each reads and writes the keys once, beside a sort's
several passes over them.

The array operations this needs, and those of partition() (_partition.py),
are here for each framework, made with the framework's own calls.
"""

import contextlib
import importlib

from . import _arrays


def moves(a, ax):
    """Whether sorting a along axis ax needs the axis moved last."""
    return ax is not None and ax != len(a.shape) - 1


def ops(a):
    """The array operations of a's framework, or None for bare producers."""
    return _OPS.get(a.fw)


def to_last(a, ax, fn):
    """An Array of a's framework: a contiguous copy of a with axis ax last."""
    o = ops(a)
    if o is None:
        raise ValueError(f"gpusort.{fn}: sorting along axis {ax} of a {len(a.shape)}-d array needs a transposed copy, "
                         "which gpusort makes for PyTorch, CuPy, JAX and NumPy arrays only; move the axis last first")
    t = _arrays.describe(o.last(a.obj, ax))
    if a.fw == "jax_host":  # moved on the host, handed back as a JAX array
        t.fw = "jax_host"
    return t


def back(a, y, ax, out=None):
    """y (a's framework, axis ax moved last) with that axis moved back to ax,
    as a new contiguous array, or written into out (a contiguous array of
    a's shape and y's dtype, or of as many items)."""
    return _OPS[a.fw].back(y, ax, out)


def head(a, y, k):
    """A contiguous copy of the first k items of each row (the last axis) of
    y, an array of a's framework."""
    return _OPS[a.fw].head(y, k)


class _ArrayModule:
    """NumPy's and CuPy's operations (one API; the module imported when first used)."""

    def __init__(self, name):
        self._name = name
        self._xp = None

    @property
    def xp(self):
        if self._xp is None:
            self._xp = importlib.import_module(self._name)
        return self._xp

    def on(self, x):
        """The context that runs CuPy's kernels on x's device (NumPy: none)."""
        return x.device if self._name == "cupy" else contextlib.nullcontext()

    def last(self, x, ax):
        with self.on(x):
            return self.xp.ascontiguousarray(self.xp.moveaxis(x, ax, -1))

    def back(self, y, ax, out):
        with self.on(y):
            v = self.xp.moveaxis(y, -1, ax)
            if out is None:
                return self.xp.ascontiguousarray(v)
            out.reshape(v.shape)[...] = v
            return out

    def head(self, y, k):
        return self.xp.ascontiguousarray(y[..., :k])

    def flat(self, x):
        return self.xp.ascontiguousarray(x).reshape(-1)

    def flip(self, v):
        return self.xp.ascontiguousarray(self.xp.flip(v, axis=-1))

    def full_u8(self, like, value):
        return self.xp.full(like.shape, value, dtype=self.xp.uint8)

    def scatter_rows(self, mask, idx, value):
        """mask[r, idx[r, j]] = value for every row r of the last axis."""
        n, m = mask.shape[-1], idx.shape[-1]
        rows = mask.size // n if n else 0
        mask.reshape(rows, n)[self.xp.arange(rows)[:, None], idx.reshape(rows, m)] = value


class _Torch:
    """The same operations on PyTorch tensors (which run on their own device)."""

    @staticmethod
    def on(x):
        return contextlib.nullcontext()

    @staticmethod
    def last(x, ax):
        return x.movedim(ax, -1).contiguous()

    @staticmethod
    def back(y, ax, out):
        v = y.movedim(-1, ax)
        if out is None:
            return v.contiguous()
        out.view(v.shape).copy_(v)
        return out

    @staticmethod
    def head(y, k):
        return y[..., :k].contiguous()

    @staticmethod
    def flat(x):
        return x.contiguous().reshape(-1)

    @staticmethod
    def flip(v):
        return v.flip(-1)

    @staticmethod
    def full_u8(like, value):
        import torch
        return torch.full(like.shape, value, dtype=torch.uint8, device=like.device)

    @staticmethod
    def scatter_rows(mask, idx, value):
        import torch
        n, m = mask.shape[-1], idx.shape[-1]
        rows = mask.numel() // n if n else 0
        mask.view(rows, n)[torch.arange(rows, device=mask.device)[:, None], idx.reshape(rows, m)] = value


class _Jax:
    """JAX arrays (immutable: moved and sliced into new arrays only)."""

    @staticmethod
    def last(x, ax):
        import jax.numpy as jnp
        return jnp.moveaxis(x, ax, -1)

    @staticmethod
    def back(y, ax, out):
        import jax.numpy as jnp
        return jnp.moveaxis(y, -1, ax)

    @staticmethod
    def head(y, k):
        return y[..., :k]


_NUMPY = _ArrayModule("numpy")


class _JaxHost(_Jax):
    """JAX arrays on the host are described as their NumPy copy (a.obj):
    moved there with NumPy, and moved back as JAX arrays."""
    last = staticmethod(_NUMPY.last)


_OPS = {"numpy": _NUMPY, "cupy": _ArrayModule("cupy"), "torch": _Torch, "jax": _Jax, "jax_host": _JaxHost}
