"""gpusort's PyTorch operators and gpusort.torch: the registrations
(torch.library.opcheck), torch.compile(fullgraph=True), autograd, CUDA graph
capture, out=, errors, and PyTorch staying an optional import. CPU tensors
run everywhere (gpusort's host path); the CUDA cases need a GPU."""
import subprocess
import sys

import pytest

from torch_cases import DEVICES, CUDA, keys, needs_cuda, needs_nan_order, same_bits, torch

import gpusort  # noqa: E402
import gpusort.torch as gt  # noqa: E402

ops = torch.ops.gpusort


def floats(shape, device, requires_grad=False, seed=0):
    """Distinct float64 keys (gradients are defined where no two keys tie)."""
    g = torch.Generator().manual_seed(seed)
    n = 1
    for s in shape:
        n *= s
    x = (torch.randperm(n, generator=g).double() + torch.rand(n, generator=g, dtype=torch.float64) / 2).reshape(shape)
    return x.to(device).requires_grad_(requires_grad)


# ---- registration -----------------------------------------------------------------
def opcheck_cases(device):
    x = floats((6, 9), device, requires_grad=True)
    i = keys(torch.int32, (5, 7), seed=2, few=True, device=device)
    h = keys(torch.bfloat16, (3, 4, 50), seed=3, device=device).nan_to_num()  # opcheck's compare: NaN != NaN
    v = floats((6, 9), device, requires_grad=True, seed=1)
    return [
        (ops.sort.default, (x, 0, False, False)), (ops.sort.default, (x, -1, True, True)),
        (ops.sort.default, (i, 1, False, True)), (ops.sort.default, (h, 1, True, False)),
        (ops.argsort.default, (x, 0, True, True)), (ops.argsort.default, (i, -1, False, False)),
        (ops.topk.default, (x, 3, 1, True, True)), (ops.topk.default, (x, 2, 0, False, True)),
        (ops.topk.default, (h, 7, -1, True, False)), (ops.topk.default, (i, 0, 1, True, True)),
        (ops.sort_pairs.default, (x, v, 1, False, True)), (ops.sort_pairs.default, (x, v, 0, True, True)),
        (ops.sort_pairs.default, (i, keys(torch.int64, (5, 7), device=device), 0, False, True)),
    ]


@pytest.mark.parametrize("device", DEVICES)
def test_opcheck(device):
    """Schema (new outputs, no mutation), autograd registration, fake kernels
    and AOT dispatch (eager against compiled, gradients included)."""
    for op, args in opcheck_cases(device):
        torch.library.opcheck(op, args)


# ---- torch.compile ------------------------------------------------------------------
def compiled_calls(x, v):
    s = gt.sort(x, dim=0, descending=True)
    t = gt.topk(x, 3)
    k = gt.kthvalue(x, 2, dim=1, keepdim=True)
    m = gt.msort(x)
    a = gt.argsort(x, dim=-1, stable=True)
    g = gpusort.sort(x)
    ga = gpusort.argsort(x, axis=0)
    gk = gpusort.topk(x, 2)
    gp = gpusort.sort_pairs(x, v)
    loss = s.values[0].sum() + t.values.sum() * 2 + k.values.sum() * 3 + m[-1].sum()
    return loss, (s.indices, t.indices, k.indices, a, g, ga, gk[0], gk[1], gp[0], gp[1])


def eager_reference(x, v):
    s = torch.sort(x, dim=0, descending=True, stable=True)
    t = torch.topk(x, 3)
    k = torch.kthvalue(x, 2, dim=1, keepdim=True)
    m = torch.msort(x)
    a = torch.argsort(x, dim=-1, stable=True)
    g = torch.sort(x, stable=True)
    ga = torch.argsort(x, dim=0, stable=True)
    gk = torch.topk(x, 2)
    gp = v.gather(-1, torch.argsort(x, stable=True))
    loss = s.values[0].sum() + t.values.sum() * 2 + k.values.sum() * 3 + m[-1].sum()
    return loss, (s.indices, t.indices, k.indices, a, g.values, ga, gk.values, gk.indices, g.values, gp)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
@pytest.mark.parametrize("device", DEVICES)
def test_compile_fullgraph(device, backend):
    """gpusort.torch and the generic calls inside one graph, with no break,
    their results and the gradient equal to eager torch's."""
    torch._dynamo.reset()
    f = torch.compile(compiled_calls, fullgraph=True, backend=backend)
    x = floats((8, 33), device, requires_grad=True)
    v = torch.arange(x.numel(), dtype=torch.float32, device=device).reshape(x.shape)
    loss, outs = f(x, v)
    (grad,) = torch.autograd.grad(loss, x)
    xr = x.detach().clone().requires_grad_()
    loss_r, want = eager_reference(xr, v)
    (grad_r,) = torch.autograd.grad(loss_r, xr)
    torch.testing.assert_close(loss.detach(), loss_r.detach())  # (a fused sum may round differently)
    for got, ref in zip(outs, want):
        same_bits(got, ref)
    assert torch.equal(grad, grad_r)


@pytest.mark.parametrize("device", DEVICES)
def test_compile_dynamic_shapes(device):
    """One compiled graph serves several sizes (the fake kernels take symbolic shapes)."""
    torch._dynamo.reset()
    f = torch.compile(lambda t: gt.sort(t, descending=True).values + gt.topk(t, 2).values.sum(), fullgraph=True,
                      dynamic=True, backend="aot_eager")
    for n in (5, 17, 100):
        x = floats((3, n), device).float()
        want = torch.sort(x, descending=True).values + torch.topk(x, 2).values.sum()
        assert torch.equal(f(x), want)


# ---- autograd -----------------------------------------------------------------------
@pytest.mark.parametrize("device", DEVICES)
def test_gradcheck(device):
    x = floats((4, 6), device, requires_grad=True)
    for dim in (0, 1, -1):
        assert torch.autograd.gradcheck(lambda t: gt.sort(t, dim, True).values, (x,))
        assert torch.autograd.gradcheck(lambda t: gt.topk(t, 3, dim, largest=False).values, (x,))
        assert torch.autograd.gradcheck(lambda t: gt.kthvalue(t, 2, dim).values, (x,))
    assert torch.autograd.gradcheck(gt.msort, (x,))
    v = floats((4, 6), device, requires_grad=True, seed=5)
    assert torch.autograd.gradcheck(lambda k, w: ops.sort_pairs(k, w, 0, False, True), (x, v))
    assert torch.autograd.gradgradcheck(lambda t: gt.sort(t, 1).values, (x,))


@pytest.mark.parametrize("device", DEVICES)
def test_gradients_as_torch(device):
    """With ties, the gradient goes where torch's stable sort sends it."""
    x = keys(torch.float32, (5, 40), seed=7, few=True, device=device).nan_to_num(0.0, 3.0, -3.0)
    w = torch.randn(5, 40, device=device)
    a, b = x.clone().requires_grad_(), x.clone().requires_grad_()
    ((gt.sort(a, 1, stable=True).values * w).sum() + gt.topk(a, 4, 0).values.sum()).backward()
    ((torch.sort(b, dim=1, stable=True).values * w).sum() + torch.sort(b, dim=0, descending=True,
                                                                       stable=True).values[:4].sum()).backward()
    assert torch.equal(a.grad, b.grad)
    assert not gt.argsort(a).requires_grad and not gt.sort(a).indices.requires_grad


# ---- torch.vmap ---------------------------------------------------------------------------
@pytest.mark.parametrize("device", DEVICES)
def test_vmap(device):
    """Batched over any dim, each item sorted along any of its dims, as torch's calls under vmap."""
    x = keys(torch.float32, (4, 5, 6), seed=4, few=True, device=device).nan_to_num(0.0, 9.0, -9.0)
    for bdim in (0, 1, 2):
        vmap = lambda f: torch.vmap(f, in_dims=bdim)(x)  # noqa: E731
        for dim in (0, 1, -1):
            got, want = vmap(lambda t: gt.sort(t, dim, True)), vmap(lambda t: torch.sort(t, dim=dim, descending=True,
                                                                                      stable=True))
            assert torch.equal(got.values, want.values) and torch.equal(got.indices, want.indices)
            want = vmap(lambda t: torch.argsort(t, dim=dim, stable=True))
            assert torch.equal(vmap(lambda t: gt.argsort(t, dim)), want)
            got, want = vmap(lambda t: gt.kthvalue(t, 2, dim)), vmap(lambda t: torch.kthvalue(t, 2, dim))
            assert torch.equal(got.values, want.values)
            assert torch.equal(vmap(lambda t: gt.topk(t, 2, dim).values), vmap(lambda t: torch.topk(t, 2, dim).values))
    v = torch.randn(4, device=device)
    assert torch.equal(torch.vmap(lambda t: gt.sort(t).values)(v), v)  # items of 0 dims
    assert torch.equal(torch.vmap(lambda t: gt.topk(t, 1).values)(v), v)
    k, vals = x[0], torch.arange(6.0, device=device)  # values not batched
    got = torch.vmap(lambda a, b: ops.sort_pairs(a, b), in_dims=(0, None))(k, vals)
    assert torch.equal(got[1], vals[torch.argsort(k, dim=1, stable=True)])


# ---- CUDA graphs ---------------------------------------------------------------------
@needs_cuda
def test_cuda_graph_capture():
    """Operators captured in a CUDA graph replay correctly on new data: no
    host synchronisation; outputs from PyTorch's graph pool, scratch taken
    and freed in stream order."""
    x = torch.randn(64, 1000, device="cuda")
    out = {}
    calls = lambda: (gt.sort(x, dim=0), gt.topk(x, 16), gt.argsort(x, descending=True), gpusort.sort(x))  # noqa: E731
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        calls()  # warm-up: scratch pools and lazy state outside the capture
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out["r"] = calls()
    for seed in (1, 2):
        torch.manual_seed(seed)
        x.copy_(torch.randn_like(x))
        g.replay()
        torch.cuda.synchronize()
        s, t, a, v = out["r"]
        assert torch.equal(s.values, torch.sort(x, dim=0).values)
        assert torch.equal(t.values, torch.topk(x, 16).values)
        assert torch.equal(a, torch.argsort(x, descending=True, stable=True))
        assert torch.equal(v, torch.sort(x).values)


# ---- out=, shapes, errors ---------------------------------------------------------------
@pytest.mark.parametrize("device", DEVICES)
def test_out(device):
    x = floats((4, 9), device).float()
    vals, idx = torch.empty(0, device=device), torch.empty(0, dtype=torch.int64, device=device)
    r = gt.sort(x, 0, out=(vals, idx))
    assert r.values is vals and r.indices is idx
    assert torch.equal(vals, torch.sort(x, dim=0).values) and torch.equal(idx, torch.sort(x, dim=0).indices)
    gt.topk(x, 2, out=(vals, idx))
    assert torch.equal(vals, torch.topk(x, 2).values) and vals.shape == (4, 2)
    gt.kthvalue(x, 3, 0, out=(vals, idx))
    assert torch.equal(vals, torch.kthvalue(x, 3, 0).values) and torch.equal(idx, torch.kthvalue(x, 3, 0).indices)
    m = torch.empty(1, device=device)
    assert gt.msort(x, out=m) is m and torch.equal(m, torch.msort(x))
    with pytest.raises(TypeError, match="out indices has dtype torch.int32"):
        gt.sort(x, out=(vals, idx.int()))


@pytest.mark.parametrize("device", DEVICES)
def test_shapes(device):
    for shape in [(), (0,), (3, 0), (0, 4), (1, 1), (2, 3, 4)]:
        x = torch.ones(shape, device=device)
        for dim in range(-max(x.dim(), 1), max(x.dim(), 1)):
            s = gt.sort(x, dim)
            assert s.values.shape == shape and s.indices.shape == shape and s.indices.dtype == torch.int64
            assert s.values.is_contiguous()
            assert gt.argsort(x, dim).shape == shape
            t = gt.topk(x, 0, dim)
            assert t.values.shape == torch.topk(x.cpu(), 0, dim).values.shape


def test_errors():
    x = torch.randn(3, 4)
    with pytest.raises(ValueError, match=r"gpusort::sort: dim=2 is out of range"):
        gt.sort(x, 2)
    with pytest.raises(ValueError, match=r"gpusort::topk: k=5 is out of range"):
        gt.topk(x, 5)
    with pytest.raises(ValueError, match=r"gpusort.torch.kthvalue: k=0"):
        gt.kthvalue(x, 0)
    with pytest.raises(TypeError, match=r"dtype torch.complex64 is not a key type"):
        gt.sort(x.to(torch.complex64))
    with pytest.raises(TypeError, match=r"gpusort.torch.argsort: input must be a torch.Tensor"):
        gt.argsort([3, 1, 2])
    with pytest.raises(TypeError, match=r"gpusort.torch.topk: k must be an int"):
        gt.topk(x, 1.5)
    with pytest.raises(TypeError, match=r"gpusort.torch.sort: descending must be a bool"):
        gt.sort(x, 0, "yes")
    with pytest.raises(ValueError, match=r"values of shape \(3,\) do not match"):
        ops.sort_pairs(x, torch.zeros(3))


def test_compile_untraceable_arguments():
    """algorithm= and bit ranges are not operator arguments: such calls run
    eagerly, after a graph break (an error with fullgraph=True)."""
    torch._dynamo.reset()
    x = torch.randn(3, 40)
    f = lambda t: gpusort.sort(t * 2, algorithm="merge_path", end_bit=32) + 1  # noqa: E731
    assert torch.equal(torch.compile(f, backend="aot_eager")(x), torch.sort(x * 2).values + 1)
    torch._dynamo.reset()
    with pytest.raises(torch._dynamo.exc.Unsupported):
        torch.compile(f, fullgraph=True, backend="aot_eager")(x)


def test_meta_tensors():
    """The fake kernels answer for meta tensors, without data."""
    x = torch.empty(5, 7, device="meta")
    s = gt.sort(x, 0)
    assert s.values.device.type == "meta" and s.indices.dtype == torch.int64 and s.values.shape == (5, 7)
    assert gt.topk(x, 3).values.shape == (5, 3)


@needs_nan_order
@pytest.mark.parametrize("device", DEVICES)
def test_nan_order(device):
    """Every NaN ranks above +inf, whatever its sign: last ascending, first descending, in input order."""
    x = torch.tensor([1.0, -float("nan"), float("inf"), float("nan"), -0.0, 0.0, -float("inf")], device=device)
    assert torch.signbit(x[1])  # 0xffc00000, as 0.0 / 0.0 gives on x86
    s = gt.sort(x)
    assert s.indices.tolist() == [6, 4, 5, 0, 2, 1, 3]
    assert gt.sort(x, descending=True).indices.tolist() == [1, 3, 2, 0, 4, 5, 6]
    assert gt.topk(x, 2).indices.tolist() == [1, 3]
    assert gt.kthvalue(x, 6).indices.item() == 1


@needs_nan_order
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_nan_all_ones(dtype):
    """The NaN with every bit set (PyTorch's float-to-bfloat16 conversion
    makes it) is a NaN like the others: first descending."""
    x = torch.tensor([float("nan"), 1.0, 2.0]).to(dtype)
    x[0] = torch.tensor([-1], dtype=torch.int16 if dtype == torch.bfloat16 else torch.int32).view(dtype)
    assert gt.sort(x, descending=True).indices.tolist() == torch.sort(x, descending=True, stable=True).indices.tolist()


@pytest.mark.parametrize("device", DEVICES)
def test_nan_bits_order(device):
    """nan_largest=False: CUB's order, NaNs by their bits (the sign bit set: below -inf)."""
    x = torch.tensor([1.0, float("nan"), -float("inf"), 0.0], device=device)
    x[1] = torch.tensor([-4194304], dtype=torch.int32).view(torch.float32).to(device)  # 0xffc00000, as 0.0 / 0.0
    assert ops.sort(x, -1, False, True, False)[1].tolist() == [1, 2, 3, 0]
    assert ops.argsort(x, -1, True, True, False).tolist() == [0, 3, 2, 1]
    assert ops.topk(x, 1, -1, False, True, False)[1].tolist() == [1]
    assert ops.sort_pairs(x, torch.arange(4, device=device), -1, False, True, False)[1].tolist() == [1, 2, 3, 0]


@pytest.mark.skipif(CUDA, reason="checks the no-GPU fallback")
def test_cpu_tensors_without_gpu():
    assert torch.equal(gt.sort(torch.tensor([3, 1, 2])).values, torch.tensor([1, 2, 3]))


def test_torch_stays_optional():
    """`import gpusort` imports neither PyTorch nor the operators."""
    code = "import sys, gpusort; import numpy as np; gpusort.sort(np.ones(3)); assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
