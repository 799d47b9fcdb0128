"""gpusort's PyTorch operators, registered with torch.library:

    gpusort::sort(Tensor self, int dim=-1, bool descending=False, bool stable=False, bool nan_largest=True)
        -> (Tensor values, Tensor indices)
    gpusort::argsort(Tensor self, int dim=-1, bool descending=False, bool stable=False, bool nan_largest=True)
        -> Tensor
    gpusort::topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True, bool nan_largest=True)
        -> (Tensor values, Tensor indices)
    gpusort::sort_pairs(Tensor keys, Tensor values, int dim=-1, bool descending=False, bool stable=True,
                        bool nan_largest=True) -> (Tensor keys, Tensor values)

Each has a CUDA kernel (gpusort's device sort on PyTorch's current stream,
outputs and large scratch from PyTorch's caching allocator, no host
synchronisation, so it can be captured in a CUDA graph), a CPU kernel (gpusort's host path), a fake
kernel that tells torch.compile the outputs' shapes and dtypes, and an
autograd formula: sort's and topk's are torch.sort's and torch.topk's
(the values' gradient back through the indices), argsort's indices carry
none, sort_pairs sends both gradients back through the keys' order; and a
torch.vmap rule (the batch dim first, one more dim to sort along). Every
output is a new tensor: no operator mutates or aliases its inputs.

Order: PyTorch's. NaNs rank above +inf whatever their sign and payload, all
equal to each other (nan_largest=False: CUB's order, NaNs by their bits, the
generic calls' nan="bits"); -0.0 and +0.0 are equal. Indices are int64, and the
sorts are stable whatever `stable` says (gpusort's argsort is stable).

Any dim: the kernels work on rows of the last axis. Another dim is moved
last with one contiguous copy, and the outputs are moved back the same way.
"""

import torch

from . import _arrays
from . import _gpusort as _core

if _arrays._torch is None:
    _arrays._torch_init()

# Some keys are gathered as the signed integers of their width: PyTorch's
# gather has no unsigned kernels but 8-bit, and its bfloat16 kernel rewrites
# NaNs (0x7fc0 comes out 0xffff), while sorted values keep their bits.
# bool sorts as uint8.
_GATHER_AS = {torch.bfloat16: torch.int16, torch.uint16: torch.int16, torch.uint32: torch.int32,
              torch.uint64: torch.int64}
_BOOL_CODE = _arrays.TORCH_KEY_CODE[torch.uint8]
_C = torch._C


def _key_code(x, op):
    code = _arrays.TORCH_KEY_CODE.get(x.dtype)
    if code is None:
        if x.dtype == torch.bool:
            return _BOOL_CODE
        raise TypeError(f"{op}: dtype {x.dtype} is not a key type gpusort sorts (supported: bool, "
                        f"{', '.join(str(t) for t in _arrays.TORCH_KEY_CODE)})")
    return code


def dim_of(x, dim, op):
    """The dim normalised to [0, ndim) (0 for a 0-d tensor), or ValueError/TypeError."""
    _key_code(x, op)
    if x.layout != torch.strided:
        raise TypeError(f"{op}: only strided (dense) tensors are supported, not {x.layout}")
    nd = max(x.dim(), 1)
    if not isinstance(dim, int) or not -nd <= dim < nd:
        raise ValueError(f"{op}: dim={dim!r} is out of range for a {x.dim()}-d tensor "
                         f"(expected an int in [{-nd}, {nd - 1}])")
    return dim % nd


def _rows(x, d):
    """x with dim d last, contiguous (a 0-d tensor as one row of one key)."""
    if d == x.dim() - 1:
        return x.contiguous()
    if x.dim() == 0:
        return x.reshape(1)
    return x.movedim(d, -1).contiguous()


def _back(t, like, d):
    """The inverse of _rows: t (rows of the last axis) with its last dim put back at d."""
    if like.dim() == 0:
        return t.reshape(())
    if d == like.dim() - 1:
        return t
    return t.movedim(-1, d).contiguous()


def _gather(rows, idx):
    """rows.gather(-1, idx), for every key dtype."""
    as_signed = _GATHER_AS.get(rows.dtype)
    if as_signed is None:
        return rows.gather(-1, idx)
    return rows.view(as_signed).gather(-1, idx).view(rows.dtype)


def _on_device(x, fn, *args, **kwargs):
    """fn(*args, stream, device, **kwargs), one of the extension's device
    calls, on x's device and PyTorch's current stream, its scratch taken as
    the generic calls take it (_arrays.run_device): up to POOL_MAX bytes
    from gpusort's pool within the call, more from PyTorch's caching
    allocator on that stream, given back once the work is queued."""
    dev = x.get_device()
    args += (_arrays._torch_stream(dev), dev)
    need = fn(*args, pool_max=_arrays.POOL_MAX, **kwargs)
    if need:
        block = _arrays._scratch_torch_on(x.device, need)
        fn(*args, temp=block.data_ptr(), temp_bytes=need, **kwargs)


def _argsort_rows(rows, descending, nan_largest):
    """int64 indices that sort each row of the contiguous tensor rows."""
    idx = torch.empty_like(rows, dtype=torch.int64)
    n = rows.numel()
    if n == 0:
        return idx
    code = _key_code(rows, "gpusort::argsort")
    count = n // rows.shape[-1]
    if rows.is_cuda:
        _on_device(rows, _core.argsort_device, code, n, count, rows.data_ptr(), idx.data_ptr(), 8, descending, "auto",
                   0, -1, nan_largest=nan_largest)
    else:
        _core.argsort_host(code, n, count, rows.data_ptr(), idx.data_ptr(), 8, descending, "auto", 0, -1, False,
                           nan_largest=nan_largest)
    return idx


def eager(x):
    """Whether a call on x may run its kernel directly rather than through
    the dispatcher: a plain CPU or CUDA tensor (the dispatcher answers for
    the others: fake and meta tensors, other devices), no gradient to record, and
    nothing that needs to see the operator (torch.compile, a tracer, a
    torch function or dispatch mode, a functorch transform). The dispatcher
    and the autograd wrapper of a Python operator cost about 10 us, several
    times the kernel's own Python; this check costs under a microsecond."""
    return (not torch.compiler.is_compiling() and type(x) is torch.Tensor and (x.is_cuda or x.is_cpu)
            and not (x.requires_grad and _C.is_grad_enabled()) and not _C._is_torch_function_mode_enabled()
            and _C._len_torch_dispatch_stack() == 0 and not _C._are_functorch_transforms_active()
            and _C._get_tracing_state() is None)


# ---- the kernels (CPU and CUDA) ----------------------------------------------------
def sort_kernel(x, dim=-1, descending=False, stable=False, nan_largest=True):
    d = dim_of(x, dim, "gpusort::sort")
    rows = _rows(x, d)
    idx = _argsort_rows(rows, descending, nan_largest)
    return _back(_gather(rows, idx), x, d), _back(idx, x, d)


def argsort_kernel(x, dim=-1, descending=False, stable=False, nan_largest=True):
    d = dim_of(x, dim, "gpusort::argsort")
    return _back(_argsort_rows(_rows(x, d), descending, nan_largest), x, d)


def _topk_shape(x, k, dim, op):
    d = dim_of(x, dim, op)
    size = x.shape[d] if x.dim() else 1
    if not isinstance(k, int) or not 0 <= k <= size:
        raise ValueError(f"{op}: k={k!r} is out of range for a dimension of size {size}")
    shape = list(x.shape)
    if shape:
        shape[d] = k
    return d, shape


def topk_kernel(x, k, dim=-1, largest=True, sorted=True, nan_largest=True):
    d, _ = _topk_shape(x, k, dim, "gpusort::topk")
    if x.dim() == 0:
        k = 1  # as torch.topk: a 0-d input comes back whole for k = 0 too
    rows = _rows(x, d)
    shape = rows.shape[:-1] + (k,)
    if rows.is_cuda:
        values = rows.new_empty(shape)
        idx = rows.new_empty(shape, dtype=torch.int64)
        n = rows.numel()
        if n and k:
            _on_device(rows, _core.topk_device, _key_code(rows, "gpusort::topk"), n, n // rows.shape[-1], k,
                       rows.data_ptr(), values.data_ptr(), idx.data_ptr(), 8, largest, sorted, nan_largest=nan_largest)
    else:
        # Host tensors: the stable argsort's first k, so ties go to the
        # lowest indices and the winners come sorted (sorted=False allows it).
        idx = _argsort_rows(rows, largest, nan_largest)[..., :k].contiguous()
        values = _gather(rows, idx)
    return _back(values, x, d), _back(idx, x, d)


def _sort_pairs_kernel(keys, values, dim=-1, descending=False, stable=True, nan_largest=True):
    d = dim_of(keys, dim, "gpusort::sort_pairs")
    _check_values(keys, values)
    krows, vrows = _rows(keys, d), _rows(values, d)
    kout, vout = torch.empty_like(krows), torch.empty_like(vrows)
    n = krows.numel()
    if n:
        code, count, item = _key_code(krows, "gpusort::sort_pairs"), n // krows.shape[-1], vrows.element_size()
        if krows.is_cuda:
            _on_device(krows, _core.sort_device, code, n, count, krows.data_ptr(), kout.data_ptr(), vrows.data_ptr(),
                       vout.data_ptr(), item, descending, "auto", 0, -1, nan_largest=nan_largest)
        else:
            _core.sort_host(code, n, count, krows.data_ptr(), kout.data_ptr(), vrows.data_ptr(), vout.data_ptr(),
                            item, descending, "auto", 0, -1, False, nan_largest=nan_largest)
    return _back(kout, keys, d), _back(vout, values, d)


def _check_values(keys, values):
    if values.shape != keys.shape:
        raise ValueError(f"gpusort::sort_pairs: values of shape {tuple(values.shape)} do not match keys of shape "
                         f"{tuple(keys.shape)}")
    if values.device != keys.device:
        raise ValueError(f"gpusort::sort_pairs: values are on {values.device}, keys on {keys.device}")
    if values.layout != torch.strided or not 1 <= values.element_size() <= 16:
        raise TypeError(f"gpusort::sort_pairs: values of dtype {values.dtype} (dense, 1 to 16 bytes are supported)")


# ---- the fake kernels: shapes and dtypes only, for torch.compile ----------------------
def _sort_fake(x, dim=-1, descending=False, stable=False, nan_largest=True):
    dim_of(x, dim, "gpusort::sort")
    return torch.empty_like(x, memory_format=torch.contiguous_format), _empty_indices(x, x.shape)


def _argsort_fake(x, dim=-1, descending=False, stable=False, nan_largest=True):
    dim_of(x, dim, "gpusort::argsort")
    return _empty_indices(x, x.shape)


def _topk_fake(x, k, dim=-1, largest=True, sorted=True, nan_largest=True):
    _, shape = _topk_shape(x, k, dim, "gpusort::topk")
    return x.new_empty(shape), _empty_indices(x, shape)


def _sort_pairs_fake(keys, values, dim=-1, descending=False, stable=True, nan_largest=True):
    dim_of(keys, dim, "gpusort::sort_pairs")
    _check_values(keys, values)
    return (torch.empty_like(keys, memory_format=torch.contiguous_format),
            torch.empty_like(values, memory_format=torch.contiguous_format))


def _empty_indices(x, shape):
    return torch.empty(shape, dtype=torch.int64, device=x.device)


# ---- autograd: the values' gradient goes back through the indices -----------------
def _save_indices(ctx, inputs, output, dim_at):
    x = inputs[0]
    ctx.shape = x.shape
    ctx.dim = inputs[dim_at] % max(x.dim(), 1)
    ctx.save_for_backward(output[1])


def _scatter_grad(ctx, grad_values):
    """d(input): zeros, with each selected key's gradient at its index (as
    torch.sort and torch.topk's backward); indices carry none."""
    (idx,) = ctx.saved_tensors
    if not ctx.shape:  # a 0-d input: its one key is always selected
        return grad_values.reshape(())
    return grad_values.new_zeros(ctx.shape).scatter(ctx.dim, idx, grad_values)


def _sort_setup(ctx, inputs, output):
    _save_indices(ctx, inputs, output, 1)


def _sort_backward(ctx, grad_values, grad_indices):
    return _scatter_grad(ctx, grad_values), None, None, None, None


def _topk_setup(ctx, inputs, output):
    _save_indices(ctx, inputs, output, 2)


def _topk_backward(ctx, grad_values, grad_indices):
    return _scatter_grad(ctx, grad_values), None, None, None, None, None


def _argsort_setup(ctx, inputs, output):
    pass


def _argsort_backward(ctx, grad_indices):
    # indices are piecewise constant in the keys: no gradient, as torch.argsort
    return None, None, None, None, None


def _sort_pairs_setup(ctx, inputs, output):
    keys, values, dim, descending, stable, nan_largest = inputs  # (defaults filled in)
    ctx.dim, ctx.descending, ctx.nan_largest = dim, descending, nan_largest
    ctx.save_for_backward(keys)


def _sort_pairs_backward(ctx, grad_keys, grad_values):
    """Both outputs are the inputs permuted by the keys' order. The kernel is
    stable, so that order is the stable argsort of the keys, computed again
    here rather than kept by every forward call."""
    (keys,) = ctx.saved_tensors
    d = ctx.dim % max(keys.dim(), 1)
    if keys.dim() == 0:
        return grad_keys, grad_values, None, None, None, None
    idx = argsort(keys, d, ctx.descending, True, ctx.nan_largest)
    need_keys, need_values = ctx.needs_input_grad[:2]
    gk = grad_keys.new_zeros(keys.shape).scatter(d, idx, grad_keys) if need_keys else None
    gv = grad_values.new_zeros(grad_values.shape).scatter(d, idx, grad_values) if need_values else None
    return gk, gv, None, None, None, None


# ---- torch.vmap: the batch dim goes first and the operator runs on one more dim ------------
def _batched(x, bdim, batch_size):
    """x with its batch dim first (an unbatched x expanded to the batch), and
    whether its per-item shape is 0-d (it then gets a dim of one key)."""
    x = x.unsqueeze(0).expand(batch_size, *x.shape) if bdim is None else x.movedim(bdim, 0)
    scalar = x.dim() == 1
    return (x.unsqueeze(1) if scalar else x), scalar


def _physical(x, dim):
    """The dim of the batched tensor x (batch first) that the item's dim is."""
    return dim % (x.dim() - 1) + 1


def _unbatched(outputs, scalar):
    return tuple(o.squeeze(1) for o in outputs) if scalar else tuple(outputs)


def _sort_vmap(info, in_dims, x, dim=-1, descending=False, stable=False, nan_largest=True):
    x, scalar = _batched(x, in_dims[0], info.batch_size)
    return _unbatched(sort(x, _physical(x, dim), descending, stable, nan_largest), scalar), (0, 0)


def _argsort_vmap(info, in_dims, x, dim=-1, descending=False, stable=False, nan_largest=True):
    x, scalar = _batched(x, in_dims[0], info.batch_size)
    return _unbatched((argsort(x, _physical(x, dim), descending, stable, nan_largest),), scalar)[0], 0


def _topk_vmap(info, in_dims, x, k, dim=-1, largest=True, sorted=True, nan_largest=True):
    x, scalar = _batched(x, in_dims[0], info.batch_size)
    return _unbatched(topk(x, 1 if scalar else k, _physical(x, dim), largest, sorted, nan_largest), scalar), (0, 0)


def _sort_pairs_vmap(info, in_dims, keys, values, dim=-1, descending=False, stable=True, nan_largest=True):
    keys, scalar = _batched(keys, in_dims[0], info.batch_size)
    values, _ = _batched(values, in_dims[1], info.batch_size)
    return (_unbatched(sort_pairs(keys, values, _physical(keys, dim), descending, stable, nan_largest), scalar),
            (0, 0))


# ---- the generic calls (gpusort.sort, ...) on tensors that torch.compile traces ----------
# The operators take dim, descending and stable: a call with algorithm= or a
# bit range is left to the generic path, which the compiler runs eagerly
# (a graph break; an error under fullgraph=True).
def _flat(x, axis):
    return (x.reshape(-1), -1) if axis is None else (x, axis)


def compiled_sort(x, axis, descending, stable, out, nan_largest=True):
    """gpusort.sort on a traced tensor: gpusort::sort's values."""
    values = sort(*_flat(x, axis), descending, stable, nan_largest)[0]
    return values if out is None else out.copy_(values)


def compiled_argsort(x, axis, descending, stable, index_dtype, out, nan_largest=True):
    """gpusort.argsort on a traced tensor: gpusort::argsort."""
    if index_dtype not in ("int64", "int32"):
        raise ValueError(f"gpusort.argsort: index_dtype must be 'int64' or 'int32', not {index_dtype!r}")
    idx = argsort(*_flat(x, axis), descending, stable, nan_largest)
    if index_dtype == "int32":
        idx = idx.to(torch.int32)
    return idx if out is None else out.copy_(idx)


def compiled_topk(x, k, dim, largest, sorted, nan_largest=True):
    """gpusort.topk on a traced tensor: gpusort::topk."""
    return topk(x, k, dim, largest, sorted, nan_largest)


def compiled_sort_pairs(keys, values, axis, descending, stable, out, nan_largest=True):
    """gpusort.sort_pairs on traced tensors: gpusort::sort_pairs."""
    if axis is None:
        keys, values = keys.reshape(-1), values.reshape(-1)
    k, v = sort_pairs(keys, values, -1 if axis is None else axis, descending, stable, nan_largest)
    if out is None:
        return k, v
    out[0].copy_(k)
    out[1].copy_(v)
    return out


# ---- registration ----------------------------------------------------------------
_OPS = (
    ("sort", "sort(Tensor self, int dim=-1, bool descending=False, bool stable=False, bool nan_largest=True) "
             "-> (Tensor values, Tensor indices)", sort_kernel, _sort_fake),
    ("argsort", "argsort(Tensor self, int dim=-1, bool descending=False, bool stable=False, "
                "bool nan_largest=True) -> Tensor",
     argsort_kernel, _argsort_fake),
    ("topk", "topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True, bool nan_largest=True) "
             "-> (Tensor values, Tensor indices)", topk_kernel, _topk_fake),
    ("sort_pairs", "sort_pairs(Tensor keys, Tensor values, int dim=-1, bool descending=False, bool stable=True, "
                   "bool nan_largest=True) -> (Tensor keys, Tensor values)", _sort_pairs_kernel, _sort_pairs_fake),
)

_lib = torch.library.Library("gpusort", "DEF")
for _name, _schema, _kernel, _fake in _OPS:
    _lib.define(_schema)
    _lib.impl(_name, _kernel, "CPU")
    _lib.impl(_name, _kernel, "CUDA")
    torch.library.register_fake(f"gpusort::{_name}", _fake, lib=_lib)
torch.library.register_autograd("gpusort::sort", _sort_backward, setup_context=_sort_setup, lib=_lib)
torch.library.register_autograd("gpusort::topk", _topk_backward, setup_context=_topk_setup, lib=_lib)
torch.library.register_autograd("gpusort::argsort", _argsort_backward, setup_context=_argsort_setup, lib=_lib)
torch.library.register_autograd("gpusort::sort_pairs", _sort_pairs_backward, setup_context=_sort_pairs_setup, lib=_lib)
for _name, _rule in (("sort", _sort_vmap), ("argsort", _argsort_vmap), ("topk", _topk_vmap),
                     ("sort_pairs", _sort_pairs_vmap)):
    torch.library.register_vmap(f"gpusort::{_name}", _rule, lib=_lib)

sort = torch.ops.gpusort.sort.default
argsort = torch.ops.gpusort.argsort.default
topk = torch.ops.gpusort.topk.default
sort_pairs = torch.ops.gpusort.sort_pairs.default
