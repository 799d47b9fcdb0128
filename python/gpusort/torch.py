"""gpusort for PyTorch users: torch.sort, torch.argsort, torch.topk,
torch.kthvalue and torch.msort with the same signatures and results.

    import torch, gpusort.torch as gt
    x = torch.randn(4096, 1000, device="cuda", requires_grad=True)
    values, indices = gt.sort(x, dim=0, descending=True)
    top = gt.topk(x, 10)                       # torch.return_types.topk
    med = gt.kthvalue(x, 500, dim=1).values
    (values.sum() + top.values.sum()).backward()   # gradients as torch.sort's and torch.topk's

Each call goes through a registered operator (gpusort::sort, gpusort::argsort,
gpusort::topk; see _torch_ops.py), so it works under torch.compile
(fullgraph=True), in CUDA graphs, and with autograd: the gradient of the
values flows back to the input through the indices. CUDA tensors are sorted
on the current stream with outputs from PyTorch's caching allocator; CPU
tensors take gpusort's host path.

Results are torch's: NaNs are largest (last ascending, first descending,
whatever their sign), -0.0 equals +0.0, indices are int64, any dim (negative
too), 0-d and empty tensors. The sorts are always stable, so stable=False
gives the stable order too (allowed: torch leaves it unspecified). Ties in
topk and kthvalue go to the lowest indices.

Importing this module imports PyTorch and registers the operators; `import
gpusort` alone does neither.
"""

import torch

from . import _torch_ops

__all__ = ["sort", "argsort", "topk", "kthvalue", "msort"]


def _tensor(x, fn):
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"gpusort.torch.{fn}: input must be a torch.Tensor, not {type(x).__name__}")


def _flag(value, name, fn):
    if not isinstance(value, bool):
        raise TypeError(f"gpusort.torch.{fn}: {name} must be a bool, not {type(value).__name__}")


def _call(op, kernel, x, *args):
    """The operator, or its kernel straight away where nothing needs the
    dispatcher (plain eager calls: _torch_ops.eager)."""
    return kernel(x, *args) if _torch_ops.eager(x) else op(x, *args)


def _into(out, results, fn):
    """Writes (values, indices) into the caller's out= pair, resizing it as torch does."""
    if not (isinstance(out, (tuple, list)) and len(out) == 2 and all(isinstance(o, torch.Tensor) for o in out)):
        raise TypeError(f"gpusort.torch.{fn}: out must be a (values, indices) pair of tensors")
    for o, r, name in zip(out, results, ("values", "indices")):
        if o.dtype != r.dtype:
            raise TypeError(f"gpusort.torch.{fn}: out {name} has dtype {o.dtype}, expected {r.dtype}")
        if o.device != r.device:
            raise ValueError(f"gpusort.torch.{fn}: out {name} is on {o.device}, expected {r.device}")
        if o.shape != r.shape:
            o.resize_(r.shape)
        o.copy_(r)
    return out


def sort(input, dim=-1, descending=False, stable=False, *, out=None):
    """As torch.sort: returns torch.return_types.sort(values, indices)."""
    _tensor(input, "sort")
    _flag(descending, "descending", "sort")
    _flag(stable, "stable", "sort")
    result = _call(_torch_ops.sort, _torch_ops.sort_kernel, input, dim, descending, stable)
    if out is not None:
        result = _into(out, result, "sort")
    return torch.return_types.sort(result)


def argsort(input, dim=-1, descending=False, stable=False):
    """As torch.argsort: the int64 indices that sort input along dim."""
    _tensor(input, "argsort")
    _flag(descending, "descending", "argsort")
    _flag(stable, "stable", "argsort")
    return _call(_torch_ops.argsort, _torch_ops.argsort_kernel, input, dim, descending, stable)


def topk(input, k, dim=-1, largest=True, sorted=True, *, out=None):
    """As torch.topk: returns torch.return_types.topk(values, indices).

    With sorted=False the order of the k winners is unspecified, as in torch
    (CUDA rows of at most 4096 keys list them in input order; larger rows
    and CPU tensors list them sorted)."""
    _tensor(input, "topk")
    _flag(largest, "largest", "topk")
    _flag(sorted, "sorted", "topk")
    result = _call(_torch_ops.topk, _torch_ops.topk_kernel, input, _index(k, "k", "topk"), dim, largest, sorted)
    if out is not None:
        result = _into(out, result, "topk")
    return torch.return_types.topk(result)


def kthvalue(input, k, dim=-1, keepdim=False, *, out=None):
    """As torch.kthvalue: the k-th smallest value along dim (k from 1) and its
    index; returns torch.return_types.kthvalue(values, indices)."""
    _tensor(input, "kthvalue")
    _flag(keepdim, "keepdim", "kthvalue")
    k = _index(k, "k", "kthvalue")
    d = _torch_ops.dim_of(input, dim, "gpusort.torch.kthvalue")
    size = input.shape[d] if input.dim() else 1
    if not 1 <= k <= size:
        raise ValueError(f"gpusort.torch.kthvalue: k={k} is out of range for a dimension of size {size} (1 to {size})")
    # The k smallest, sorted: the k-th is the last of them.
    values, indices = _call(_torch_ops.topk, _torch_ops.topk_kernel, input, k, d, False, True)
    if input.dim():
        values, indices = values.narrow(d, k - 1, 1), indices.narrow(d, k - 1, 1)
        if not keepdim:
            values, indices = values.squeeze(d), indices.squeeze(d)
    result = (values.contiguous(), indices.contiguous())
    if out is not None:
        result = _into(out, result, "kthvalue")
    return torch.return_types.kthvalue(result)


def msort(input, *, out=None):
    """As torch.msort: input sorted along its first dim."""
    _tensor(input, "msort")
    values = _call(_torch_ops.sort, _torch_ops.sort_kernel, input, 0, False, False)[0]
    if out is None:
        return values
    if not isinstance(out, torch.Tensor) or out.dtype != values.dtype or out.device != values.device:
        raise TypeError(f"gpusort.torch.msort: out must be a {values.dtype} tensor on {values.device}")
    if out.shape != values.shape:
        out.resize_(values.shape)
    return out.copy_(values)


def _index(value, name, fn):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"gpusort.torch.{fn}: {name} must be an int, not {type(value).__name__}")
    return value
