"""gpusort.jax (XLA FFI custom calls) under jax.jit and jax.vmap, against
jnp.sort, jnp.argsort(stable=True) and jax.lax.top_k, computed by JAX on
its CPU device. Runs on JAX's CPU platform everywhere and on its CUDA
platform where JAX has a GPU (skipped, with the reason, where not)."""
import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="jax is not installed: gpusort.jax needs it")
import jax.numpy as jnp  # noqa: E402

import gpusort  # noqa: E402
import oracle  # noqa: E402

try:
    import gpusort.jax as gj
except ImportError as e:  # the extension module was built without XLA's FFI headers
    pytest.skip(f"gpusort.jax is not available: {e}", allow_module_level=True)

try:
    import ml_dtypes
except ImportError:  # pragma: no cover (jax needs ml_dtypes)
    ml_dtypes = None
try:
    from hypothesis import given, settings, strategies as st
except ImportError:
    given = None

DTYPES = ["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float16", "bfloat16",
          "float32", "float64"]
FLOATS = {"float16", "bfloat16", "float32", "float64"}
CPU = jax.devices("cpu")[0]


def _gpu():
    try:
        return jax.devices("gpu")[0]
    except RuntimeError:
        return None


GPU = _gpu()


@pytest.fixture(scope="module", params=["cpu", "cuda"])
def device(request):
    if request.param == "cpu":
        return CPU
    if GPU is None:
        pytest.skip("JAX has no GPU here: the CUDA handlers need jax with CUDA and a device")
    return GPU


@pytest.fixture
def x64(request):
    """jax_enable_x64 on for the test (64-bit keys stay 64-bit), as it was after."""
    with jax.enable_x64(True):
        yield


def np_dtype(name):
    return ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)


def keys(dtype, shape, seed=1, few=False):
    """Keys of `dtype`; floats get NaNs of both signs (one with a payload),
    ±inf and ±0 mixed in; few=True: many ties."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    dt = np_dtype(dtype)
    if dtype in FLOATS:
        x = (rng.integers(-20, 20, n) if few else rng.standard_normal(n) * 100).astype(np.float32).astype(dt)
        if n >= 9:
            x[:8] = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.0, -0.0], np.float32).astype(dt)
            u = oracle.UINT[x.itemsize]
            x[8:9] = (np.array([-np.nan], np.float32).astype(dt).view(u) | u(1)).view(dt)  # -NaN with a payload
            rng.shuffle(x)
        return x.reshape(shape)
    info = np.iinfo(dt)
    lo, hi = (0, 5) if few else (info.min, info.max)
    return rng.integers(lo, hi, n, dtype=dt, endpoint=True).reshape(shape)


def bits(a):
    a = np.asarray(a)
    return a.view(oracle.UINT[a.dtype.itemsize])


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    np.testing.assert_array_equal(bits(a), bits(b))


def ref_argsort(x, axis=-1, descending=False):
    """JAX's stable argsort, on its CPU device."""
    return np.asarray(jnp.argsort(jax.device_put(x, CPU), axis=axis, stable=True, descending=descending))


def ref_sort(x, axis=-1, descending=False):
    """The keys in ref_argsort's order (descending: stable, equal keys in
    input order, where jnp.sort(descending=True) reverses them)."""
    if axis is None:
        return np.asarray(x).ravel()[ref_argsort(np.asarray(x).ravel(), descending=descending)]
    return np.take_along_axis(np.asarray(x), ref_argsort(x, axis, descending), axis=axis)


def on(device, x):
    return jax.device_put(x, device)


def need_x64(dtype, request):
    if np.dtype(np_dtype(dtype)).itemsize == 8:
        request.getfixturevalue("x64")


SHAPES = [(0,), (1,), (2,), (1000,), (7, 300), (2, 3, 257), (5, 0), (4, 1)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_sort_argsort_jit(device, dtype, descending, shape, request):
    need_x64(dtype, request)
    x = keys(dtype, shape, few=(shape == (1000,)))
    xd = on(device, x)
    y = jax.jit(lambda a: gj.sort(a, descending=descending))(xd)
    i = jax.jit(lambda a: gj.argsort(a, descending=descending))(xd)
    assert y.devices() == {device} and i.devices() == {device}
    same_bits(y, ref_sort(x, descending=descending))
    assert i.dtype == jnp.argsort(jnp.asarray(x)).dtype
    np.testing.assert_array_equal(i, ref_argsort(x, descending=descending))
    # against jnp.sort itself: the same keys (NaN equal to NaN, -0.0 to +0.0)
    np.testing.assert_array_equal(np.asarray(y, np.float64 if dtype in FLOATS else None),
                                  np.asarray(jnp.sort(jax.device_put(x, CPU), descending=descending),
                                             np.float64 if dtype in FLOATS else None))
    same_bits(xd, x)  # the operand is unchanged


@pytest.mark.parametrize("dtype", ["float32", "int16", "bfloat16", "float64"])
@pytest.mark.parametrize("axis", [0, 1, -2, None])
def test_axis(device, dtype, axis, request):
    need_x64(dtype, request)
    x = keys(dtype, (40, 3, 17), seed=2, few=True)
    xd = on(device, x)
    # gj.sort moves `axis` last and back with XLA's transposes; on the CPU,
    # JAX 0.10.2's transpose of this shape quiets a bfloat16 NaN's payload
    # (jnp.moveaxis alone does it). The reference sorts the keys as that round
    # trip leaves them, so the check stays bit for bit on gpusort's part.
    xr = x if axis is None else np.asarray(jnp.moveaxis(jnp.moveaxis(xd, axis, -1), -1, axis))
    for descending in (False, True):
        same_bits(jax.jit(lambda a: gj.sort(a, axis=axis, descending=descending))(xd),
                  ref_sort(xr, axis, descending))
        np.testing.assert_array_equal(jax.jit(lambda a: gj.argsort(a, axis=axis, descending=descending))(xd),
                                      ref_argsort(x.ravel() if axis is None else x, -1 if axis is None else axis,
                                                  descending))


@pytest.mark.parametrize("dtype", ["float32", "uint8", "float16", "int64"])
def test_vmap(device, dtype, request):
    need_x64(dtype, request)
    x = keys(dtype, (6, 5, 130), seed=3)
    xd = on(device, x)
    same_bits(jax.vmap(gj.sort)(xd), ref_sort(x))
    # the batch on another axis, nested, and jit around vmap and vmap around jit
    same_bits(jax.vmap(gj.sort, in_axes=1, out_axes=1)(xd), ref_sort(x))
    same_bits(jax.jit(jax.vmap(jax.vmap(lambda r: gj.sort(r, descending=True))))(xd), ref_sort(x, descending=True))
    np.testing.assert_array_equal(jax.vmap(jax.jit(gj.argsort))(xd), ref_argsort(x))
    np.testing.assert_array_equal(jax.vmap(lambda r: gj.argsort(r, axis=0), in_axes=2, out_axes=2)(xd),
                                  ref_argsort(x, axis=0))
    v, i = jax.jit(jax.vmap(lambda r: gj.top_k(r, 7)))(xd)
    ref = ref_argsort(x, descending=True)[..., :7]
    np.testing.assert_array_equal(i, ref)
    same_bits(v, np.take_along_axis(x, ref, -1))
    # a batched array joined to an unbatched one before the call
    w = on(device, keys(dtype, (130,), seed=4))
    out = jax.vmap(lambda r, c: gj.sort(jnp.concatenate([r, c])), in_axes=(0, None))(xd[0], w)
    same_bits(out, ref_sort(np.concatenate([x[0], np.broadcast_to(np.asarray(w), (5, 130))], -1)))


def clean(x):
    """x without what jax.lax.top_k orders by bits (-NaN below everything,
    -0.0 below +0.0): there gpusort's order and lax.top_k's agree."""
    if x.dtype.name not in FLOATS:
        return x
    x = x.copy()
    x[np.isnan(x)] = np.float32(np.nan).astype(x.dtype)
    x[x == 0] = np.float32(0).astype(x.dtype)
    return x


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape,k", [((1,), 1), ((100,), 0), ((100,), 1), ((1000,), 17), ((9, 64), 64),
                                     ((2, 3, 5000), 100)], ids=str)
def test_top_k(device, dtype, shape, k, request):
    need_x64(dtype, request)
    x = keys(dtype, shape, seed=5, few=(shape[-1] == 64))
    xd = on(device, x)
    v, i = jax.jit(lambda a: gj.top_k(a, k))(xd)
    assert i.dtype == jnp.int32 and v.dtype == xd.dtype and v.shape == shape[:-1] + (k,)
    # the documented order: the stable descending argsort, cut to k
    ref = ref_argsort(x, descending=True)[..., :k]
    np.testing.assert_array_equal(i, ref)
    same_bits(v, np.take_along_axis(x, ref, -1))
    # against jax.lax.top_k where the orders agree
    c = clean(x)
    v, i = jax.jit(lambda a: gj.top_k(a, k))(on(device, c))
    lv, li = jax.lax.top_k(jax.device_put(c, CPU), k)
    same_bits(v, lv)
    np.testing.assert_array_equal(i, li)


@pytest.mark.parametrize("dtype", ["float32", "int32", "bfloat16"])
def test_top_k_options(device, dtype):
    x = keys(dtype, (3, 2000), seed=6, few=True)
    xd = on(device, x)
    v, i = jax.jit(lambda a: gj.top_k(a, 50, largest=False))(xd)
    ref = ref_argsort(x)[..., :50]
    np.testing.assert_array_equal(i, ref)
    same_bits(v, np.take_along_axis(x, ref, -1))
    # unsorted: the same winners, in index order
    v, i = jax.jit(lambda a: gj.top_k(a, 50, sorted=False))(xd)
    ref = np.sort(ref_argsort(x, descending=True)[..., :50], axis=-1)
    np.testing.assert_array_equal(np.sort(np.asarray(i), -1), ref)
    same_bits(np.take_along_axis(x, np.asarray(i), -1), v)
    # along another axis
    v, i = jax.jit(lambda a: gj.top_k(a, 2, axis=0))(xd)
    ref = ref_argsort(x, axis=0, descending=True)[:2]
    np.testing.assert_array_equal(i, ref)
    same_bits(v, np.take_along_axis(x, ref, 0))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_nan_bits(device, dtype, request):
    """nan="bits": CUB's order (the oracle), NaNs with the sign bit first."""
    need_x64(dtype, request)
    x = keys(dtype, (3, 100), seed=7)
    xd = on(device, x)
    for descending in (False, True):
        same_bits(jax.jit(lambda a: gj.sort(a, descending=descending, nan="bits"))(xd), oracle.sort(x, descending, nan="bits"))
        np.testing.assert_array_equal(jax.jit(lambda a: gj.argsort(a, descending=descending, nan="bits"))(xd),
                                      oracle.argsort(x, descending, nan="bits"))


def test_index_dtype(device, x64):
    x = on(device, keys("float32", (4, 50)))
    assert gj.argsort(x).dtype == jnp.int64
    assert gj.argsort(x, dtype=jnp.int32).dtype == jnp.int32
    assert gj.top_k(x, 3)[1].dtype == jnp.int32
    assert gj.top_k(x, 3, index_dtype=jnp.int64)[1].dtype == jnp.int64
    np.testing.assert_array_equal(gj.argsort(x, dtype=jnp.int32), ref_argsort(np.asarray(x)))


def test_generic_calls_route_tracers(device):
    """gpusort.sort, argsort and topk inside jax.jit and jax.vmap go through XLA."""
    x = keys("float32", (5, 300), seed=8)
    xd = on(device, x)
    same_bits(jax.jit(gpusort.sort)(xd), ref_sort(x))
    same_bits(jax.jit(lambda a: gpusort.sort(a, descending=True, axis=0))(xd), ref_sort(x, 0, True))
    same_bits(jax.vmap(gpusort.sort)(xd), ref_sort(x))
    i = jax.jit(lambda a: gpusort.argsort(a, descending=True))(xd)
    np.testing.assert_array_equal(i, ref_argsort(x, descending=True))
    assert i.dtype == jnp.argsort(jnp.asarray(x)).dtype  # int64 where JAX has it
    assert jax.jit(lambda a: gpusort.argsort(a, index_dtype="int32"))(xd).dtype == jnp.int32
    v, i = jax.jit(lambda a: gpusort.topk(a, 4, largest=False))(xd)
    ref = ref_argsort(x)[..., :4]
    np.testing.assert_array_equal(i, ref)
    same_bits(v, np.take_along_axis(x, ref, -1))
    for kwargs in (dict(algorithm="radix_msd"), dict(begin_bit=0), dict(end_bit=8)):
        with pytest.raises(ValueError, match="gpusort.sort: .* traced JAX array"):
            jax.jit(lambda a: gpusort.sort(a, **kwargs))(xd)


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_derivatives(device, dtype):
    """sort and top_k's values carry the tangent through their permutation,
    as jnp.sort's and jax.lax.top_k's do; argsort cuts it (integer output)."""
    xh = np.random.default_rng(10).integers(-20, 20, (4, 300)).astype(np.float32).astype(np_dtype(dtype))  # ties
    x = on(device, xh)
    w = jnp.linspace(-1, 1, x.size, dtype=x.dtype).reshape(x.shape)
    f32 = lambda a: np.asarray(a, np.float32)  # noqa: E731
    for axis in (-1, 0):
        for descending in (False, True):
            ours = jax.grad(lambda a: (gj.sort(a, axis=axis, descending=descending) * w).sum())(x)
            # d/da sum(sort(a) * w): w scattered back through the (stable) permutation
            ref = np.zeros(xh.shape, np.float32)
            np.put_along_axis(ref, ref_argsort(xh, axis, descending), f32(w), axis)
            np.testing.assert_array_equal(f32(ours), ref)
        jnp_grad = jax.grad(lambda a: (jnp.sort(a, axis=axis) * jax.device_put(w, CPU)).sum())(jax.device_put(x, CPU))
        np.testing.assert_array_equal(f32(jax.grad(lambda a: (gj.sort(a, axis=axis) * w).sum())(x)), f32(jnp_grad))
    ours = jax.jit(jax.grad(lambda a: (gj.top_k(a, 9)[0] * w[:, :9]).sum()))(x)
    ref = jax.grad(lambda a: (jax.lax.top_k(a, 9)[0] * jax.device_put(w[:, :9], CPU)).sum())(jax.device_put(x, CPU))
    np.testing.assert_array_equal(f32(ours), f32(ref))
    # through argsort's indices: the gather is differentiated, the indices are constants
    by_sort = f32(jax.grad(lambda a: (gj.sort(a) * w).sum())(x))
    ours = jax.grad(lambda a: (jnp.take_along_axis(a, gj.argsort(a), -1) * w).sum())(x)
    np.testing.assert_array_equal(f32(ours), by_sort)
    # and under vmap
    np.testing.assert_array_equal(f32(jax.vmap(jax.grad(lambda r, c: (gj.sort(r) * c).sum()))(x, w)), by_sort)


def test_async_and_donation(device):
    """Calls chained inside one program and dispatched back to back, with the
    operand donated, with no wait between them; the program is a custom call
    to gpusort's handler, not a host callback."""
    x = keys("float32", (8, 4096), seed=9)

    @jax.jit
    def step(a):
        s = gj.sort(a, descending=True)
        v, i = gj.top_k(s[:, ::-1] + 1, 10)
        return s, v, i

    hlo = step.lower(on(device, x)).as_text()
    assert "gpusort_sort" in hlo and "gpusort_topk" in hlo and "callback" not in hlo
    donated = jax.jit(gj.sort, donate_argnums=0)
    outs = []
    for r in range(4):
        outs.append(step(on(device, x + r)))
        outs.append(donated(on(device, x - r)))
    jax.block_until_ready(outs)
    for r in range(4):
        s, v, i = outs[2 * r]
        same_bits(s, ref_sort(x + r, descending=True))
        ref = ref_argsort(ref_sort(x + r, descending=True)[:, ::-1] + 1, descending=True)[:, :10]
        np.testing.assert_array_equal(i, ref)
        same_bits(outs[2 * r + 1], ref_sort(x - r))


if given is not None:
    @settings(max_examples=60, deadline=None, database=None)
    @given(dtype=st.sampled_from(DTYPES), shape=st.lists(st.integers(0, 33), min_size=1, max_size=3),
           axis=st.integers(-3, 2), descending=st.booleans(), few=st.booleans(), seed=st.integers(0, 2**31),
           k=st.integers(0, 33), op=st.sampled_from(["sort", "argsort", "top_k"]))
    def test_hypothesis(device, dtype, shape, axis, descending, few, seed, k, op):
        shape = tuple(shape)
        axis %= len(shape)
        k = min(k, shape[axis])
        with jax.enable_x64(True):
            x = keys(dtype, shape, seed=seed, few=few)
            xd = on(device, x)
            if op == "sort":
                same_bits(jax.jit(lambda a: gj.sort(a, axis=axis, descending=descending))(xd),
                          ref_sort(x, axis, descending))
            elif op == "argsort":
                np.testing.assert_array_equal(jax.jit(lambda a: gj.argsort(a, axis=axis, descending=descending))(xd),
                                              ref_argsort(x, axis, descending))
            else:
                v, i = jax.jit(lambda a: gj.top_k(a, k, axis=axis, largest=not descending))(xd)
                ref = np.take(ref_argsort(x, axis, not descending), np.arange(k), axis=axis)
                np.testing.assert_array_equal(i, ref)
                same_bits(v, np.take_along_axis(x, ref, axis))
else:
    def test_hypothesis():
        pytest.skip("hypothesis is not installed: the generated cases need it")


_DISPATCH = """
import time, jax, numpy as np, gpusort.jax as gj
f = jax.jit(lambda a: gj.sort(a, descending=True))
xs = [jax.random.uniform(jax.random.key(r), (1 << 24,)) for r in range(20)]
jax.block_until_ready(f(xs[0]))
start = time.perf_counter()
outs = [f(x) for x in xs]
queued = time.perf_counter() - start
jax.block_until_ready(outs)
done = time.perf_counter() - start
ok = bool((np.asarray(outs[3]) == np.sort(np.asarray(xs[3]))[::-1]).all())
print(queued, done, ok)
"""


def test_dispatch_does_not_wait():
    """On the GPU the calls are queued, not waited for: 20 sorts of 2^24 keys
    are dispatched in a fraction of the time the device needs for them (a
    handler that synchronised the host would take as long as the sorts).

    In a process of its own, with JAX's default allocator (a preallocated
    pool, here a tenth of the GPU; this process's other frameworks free
    their caches first): with XLA_PYTHON_CLIENT_PREALLOCATE=false
    XLA's own allocation of the call's buffers waits on each call (docs/guide.md)."""
    if GPU is None:
        pytest.skip("JAX has no GPU here: the CUDA handlers need jax with CUDA and a device")
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if k != "XLA_PYTHON_CLIENT_PREALLOCATE"}
    env["XLA_PYTHON_CLIENT_MEM_FRACTION"] = "0.1"
    for name, free in (("torch", lambda m: m.cuda.empty_cache()),
                       ("cupy", lambda m: m.get_default_memory_pool().free_all_blocks())):
        if name in sys.modules:
            free(sys.modules[name])
    gpusort.release_memory()
    got = subprocess.run([sys.executable, "-c", _DISPATCH], env=env, capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr[-2000:]
    queued, done, ok = got.stdout.split()[-3:]
    queued, done = float(queued), float(done)
    assert ok == "True"
    assert queued < 0.5 * done, f"dispatch took {queued * 1e3:.1f} ms of {done * 1e3:.1f} ms"


def test_errors():
    with pytest.raises(TypeError, match=r"gpusort.jax.sort: dtype bool"):
        gj.sort(jnp.zeros(4, bool))
    with pytest.raises(TypeError, match=r"gpusort.jax.argsort: dtype complex64"):
        gj.argsort(jnp.zeros(4, jnp.complex64))
    with pytest.raises(ValueError, match=r"gpusort.jax.sort: axis=2 is out of range"):
        gj.sort(jnp.zeros((2, 2)), axis=2)
    with pytest.raises(ValueError, match=r"gpusort.jax.sort: cannot sort a 0-d array"):
        gj.sort(jnp.float32(1))
    with pytest.raises(ValueError, match=r"gpusort.jax.top_k: k=5 is out of range"):
        gj.top_k(jnp.zeros(4), 5)
    with pytest.raises(TypeError, match=r"gpusort.jax.top_k: k must be an int"):
        gj.top_k(jnp.zeros(4), 1.5)
    with pytest.raises(ValueError, match=r"gpusort.jax.sort: nan must be 'largest' or 'bits'"):
        gj.sort(jnp.zeros(4), nan="first")
    with pytest.raises(ValueError, match=r"gpusort.jax.argsort: dtype must be int32 or int64"):
        gj.argsort(jnp.zeros(4), dtype=jnp.int16)
    assert gj.sort(jnp.float32(1), axis=None).shape == (1,)
