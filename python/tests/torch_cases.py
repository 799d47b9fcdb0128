"""Tensors and checks shared by the gpusort.torch tests: keys of every dtype
with the cases that tell sorts apart (ties, NaNs of both signs, -0.0 and
+0.0, infinities), and comparisons that see NaNs and bit patterns."""
import math

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed: the gpusort.torch tests need it")

import gpusort  # noqa: E402

CUDA = torch.cuda.is_available() and gpusort.gpu_available()
DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(not CUDA, reason="no CUDA device: "
                                                                "the CUDA half of the gpusort.torch tests needs one"))]
needs_cuda = pytest.mark.skipif(not CUDA, reason="no CUDA device: this gpusort.torch test needs one")


def _nan_order():
    """Whether this build ranks a NaN with the sign bit set above +inf (the
    extension's NaN order option); without it keys() draws positive NaNs only."""
    import gpusort.torch as gt
    return bool(gt.sort(torch.tensor([-math.nan, 1.0])).values[-1].isnan())


NAN_ORDER = _nan_order()
needs_nan_order = pytest.mark.skipif(not NAN_ORDER, reason="this build of the extension module has no NaN order "
                                     "option (nan_largest): negative NaNs sort first")

FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
INTS = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint16, torch.uint32, torch.uint64]
DTYPES = [torch.bool] + INTS + FLOATS
# dtypes torch.topk and torch.kthvalue have CPU kernels for
SELECTABLE = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64] + FLOATS

_SIGNED = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
_QUIET_NAN = {torch.float16: 0x7E00, torch.bfloat16: 0x7FC0, torch.float32: 0x7FC00000,
              torch.float64: 0x7FF8000000000000}
_NUMPY_INT = {torch.uint8: np.uint8, torch.int8: np.int8, torch.int16: np.int16, torch.int32: np.int32,
              torch.int64: np.int64, torch.uint16: np.uint16, torch.uint32: np.uint32, torch.uint64: np.uint64}


def keys(dtype, shape, seed=0, few=False, device="cpu"):
    """Random keys: few=True draws from a handful of values (many ties);
    floats get NaN, +-inf and zeros, and a random sign bit on a third of
    the keys (so NaNs and zeros of both signs)."""
    rng = np.random.default_rng(seed)
    n = math.prod(shape)
    if dtype == torch.bool:
        x = torch.from_numpy(rng.integers(0, 2, n).astype(bool))
    elif dtype in FLOATS:
        base = rng.integers(-3, 4, n).astype(np.float64) if few else rng.standard_normal(n) * 100
        special = rng.random(n) < 0.25
        base[special] = rng.choice([np.nan, np.inf, -np.inf, 0.0], int(special.sum()))
        x = torch.from_numpy(base).to(dtype)
        bits = x.view(_SIGNED[x.element_size()])
        sign = torch.from_numpy(rng.random(n) < 0.3)
        x = torch.where(sign, bits | torch.iinfo(bits.dtype).min, bits).view(dtype)
        if not NAN_ORDER:  # one positive NaN (conversions may give others: 0xffff in bfloat16)
            x = torch.where(x.isnan(), _QUIET_NAN[dtype], x.view(bits.dtype)).view(dtype)
    else:
        nd = _NUMPY_INT[dtype]
        info = np.iinfo(nd)
        lo, hi = (0, 3) if few else (info.min, info.max)
        x = torch.from_numpy(rng.integers(lo, hi, n, dtype=nd, endpoint=True))
    return x.reshape(shape).to(device)


def bits(t):
    """t's bit patterns as signed integers (bool as uint8), on the CPU."""
    t = t.detach().cpu()
    if t.dtype == torch.bool:
        return t.view(torch.uint8)
    return t.view(_SIGNED[t.element_size()])


def same_bits(a, b):
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
    assert torch.equal(bits(a), bits(b))


def same_values(a, b):
    """Equal as numbers: NaN equals NaN (of any sign or payload), -0.0 equals +0.0."""
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
    a, b = a.detach().cpu(), b.detach().cpu()
    if a.is_floating_point():
        assert bool(((a == b) | (a.isnan() & b.isnan())).all()), (a, b)
    else:
        assert torch.equal(bits(a), bits(b)), (a, b)


def gathered(x, dim, idx):
    """x's keys at idx along dim, bit for bit (gather has no unsigned kernels,
    and its bfloat16 one rewrites NaNs)."""
    x, idx = x.detach().cpu(), idx.cpu()
    if x.dim() == 0:
        return x
    return bits(x).gather(dim, idx).view(x.dtype)


def is_permutation(idx, dim, size):
    """Every row of idx along dim lists each of 0..size-1 once."""
    if idx.dim() == 0:
        return int(idx) == 0
    s = idx.cpu().sort(dim).values
    want = torch.arange(size).reshape([-1 if d == dim % idx.dim() else 1 for d in range(idx.dim())])
    return bool((s == want).all())
