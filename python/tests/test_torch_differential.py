"""gpusort.torch against PyTorch's own calls, on cases hypothesis draws:
every dtype, shapes of 0 to 3 dims (0-d and empty ones too), any dim
(negative too), ascending and descending, stable and unstable, keys with
ties, NaNs of both signs, -0.0 and +0.0 and infinities.

Stable calls must match torch bit for bit, indices included. Unstable ones
must give torch's values, and indices that are a permutation gathering to
them. topk and kthvalue must give torch's values, and the indices gpusort
promises (ties to the lowest index: the stable sort's)."""
import math

import pytest

from torch_cases import (DEVICES, DTYPES, SELECTABLE, gathered, is_permutation, keys, same_bits, same_values,
                         torch)

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed: the differential tests need it")
from hypothesis import given, settings, strategies as st  # noqa: E402

import gpusort.torch as gt  # noqa: E402

SETTINGS = settings(max_examples=120, deadline=None, database=None)


@st.composite
def cases(draw, dtypes=DTYPES):
    """(keys, dim): a tensor of at most 2,000 keys and a dim of it."""
    dtype = draw(st.sampled_from(dtypes))
    ndim = draw(st.integers(0, 3))
    long_dim = draw(st.integers(-1, ndim - 1))
    shape = tuple(draw(st.integers(0, 300)) if d == long_dim else draw(st.integers(0, 6)) for d in range(ndim))
    if math.prod(shape) > 2000:
        shape = tuple(min(s, 6) for s in shape)
    x = keys(dtype, shape, seed=draw(st.integers(0, 2**32 - 1)), few=draw(st.booleans()))
    nd = max(ndim, 1)
    return x, draw(st.integers(-nd, nd - 1))


def size_along(x, dim):
    return x.shape[dim] if x.dim() else 1


@pytest.mark.parametrize("device", DEVICES)
@SETTINGS
@given(case=cases(), descending=st.booleans(), stable=st.booleans())
def test_sort_and_argsort(device, case, descending, stable):
    x, dim = case
    ref = torch.sort(x, dim=dim, descending=descending, stable=True)
    got = gt.sort(x.to(device), dim, descending, stable)
    assert isinstance(got, torch.return_types.sort)
    assert got.values.device.type == device and got.indices.dtype == torch.int64
    if stable:
        same_bits(got.values, ref.values)
        assert torch.equal(got.indices.cpu(), ref.indices)
    else:
        same_values(got.values, ref.values)
        assert is_permutation(got.indices, dim, size_along(x, dim))
        same_bits(gathered(x, dim, got.indices), got.values)
    idx = gt.argsort(x.to(device), dim, descending, stable)
    if stable:
        assert torch.equal(idx.cpu(), ref.indices)
    else:
        same_values(gathered(x, dim, idx), ref.values)
        assert is_permutation(idx, dim, size_along(x, dim))


@pytest.mark.parametrize("device", DEVICES)
@SETTINGS
@given(case=cases(), data=st.data())
def test_msort(device, case, data):
    x, _ = case
    if x.dim() == 0:
        x = x.reshape(1)
    same_values(gt.msort(x.to(device)), torch.msort(x))


@pytest.mark.parametrize("device", DEVICES)
@SETTINGS
@given(case=cases(), largest=st.booleans(), sorted_=st.booleans(), data=st.data())
def test_topk(device, case, largest, sorted_, data):
    x, dim = case
    k = data.draw(st.integers(0, size_along(x, dim)))
    got = gt.topk(x.to(device), k, dim, largest, sorted_)
    assert isinstance(got, torch.return_types.topk)
    stable = torch.sort(x, dim=dim, descending=largest, stable=True)
    want_idx = stable.indices.narrow(dim, 0, k) if x.dim() else stable.indices
    want = stable.values.narrow(dim, 0, k) if x.dim() else stable.values
    values, idx = got.values.cpu(), got.indices.cpu()
    if not sorted_ and x.dim():
        # the winners in any order: compare them in index order
        order = idx.argsort(dim)
        values, idx = gathered(values, dim, order), idx.gather(dim, order)
        want_idx, order = want_idx.sort(dim)
        want = gathered(want, dim, order)
    assert torch.equal(idx, want_idx)
    same_bits(values, want)
    if x.dtype in SELECTABLE:
        same_values(got.values.cpu().sort(dim).values if x.dim() else got.values.cpu(),
                    torch.topk(x, k, dim, largest, sorted_).values.sort(dim).values if x.dim()
                    else torch.topk(x, k, dim, largest, sorted_).values)


@pytest.mark.parametrize("device", DEVICES)
@SETTINGS
@given(case=cases(), keepdim=st.booleans(), data=st.data())
def test_kthvalue(device, case, keepdim, data):
    x, dim = case
    size = size_along(x, dim)
    if size == 0 or x.numel() == 0:
        return
    k = data.draw(st.integers(1, size))
    got = gt.kthvalue(x.to(device), k, dim, keepdim)
    assert isinstance(got, torch.return_types.kthvalue)
    stable = torch.sort(x, dim=dim, stable=True)
    want, want_idx = (stable.values.narrow(dim, k - 1, 1), stable.indices.narrow(dim, k - 1, 1)) if x.dim() else stable
    if x.dim() and not keepdim:
        want, want_idx = want.squeeze(dim), want_idx.squeeze(dim)
    assert torch.equal(got.indices.cpu(), want_idx)
    same_bits(got.values, want)
    if x.dtype in SELECTABLE:
        same_values(got.values, torch.kthvalue(x, k, dim, keepdim).values)
