"""python -m gpusort.bench's JAX rows: gpusort.jax's calls compiled with
jax.jit against jnp.sort, jnp.argsort and jax.lax.top_k compiled the same
way, on JAX's first GPU.

JAX publishes no stream to record CUDA events on, so these rows are timed
on the wall clock: a compiled call and block_until_ready(), the median of
the runs after warm-up (the dispatch, tens of microseconds, is under 1% of a
call at these sizes). Every output is verified: sorted keys bit for bit
against jnp.sort's, indices against jnp.argsort's (stable), top-k values and
indices against jax.lax.top_k's (keys in [0, 1): no NaN and no -0.0, where
the two orders agree). Rows: jax_py_sort, jax_py_argsort, jax_py_topk_k<K>
(gpusort.jax) and jax_sort, jax_argsort, jax_topk_k<K> (JAX's own).
"""

import os

from .bench import _wall_median


def rows(b, big, ratios):
    """Appends the JAX rows to the Bench b and their ratios; returns a note
    for the CSV's comment lines."""
    # JAX takes 75% of the GPU at its first call; half leaves room for what
    # PyTorch and CuPy keep (their caches are freed before these rows). Its
    # pool stays preallocated: with XLA_PYTHON_CLIENT_PREALLOCATE=false each
    # call waits for XLA's allocation of its buffers (docs/guide.md).
    os.environ.setdefault("XLA_PYTHON_CLIENT_MEM_FRACTION", "0.5")
    try:
        import jax
        import jax.numpy as jnp
        import gpusort.jax as gj
        gpu = jax.devices("gpu")[0]
    except (ImportError, RuntimeError) as e:
        return f"JAX rows not run ({e})"

    def timed(fn, x):
        f = jax.jit(fn)
        out = jax.block_until_ready(f(x))
        return out, _wall_median(lambda: jax.block_until_ready(f(x)), b.runs)

    def same(a, c):
        return bool(jnp.array_equal(jax.lax.bitcast_convert_type(a, jnp.int32),
                                    jax.lax.bitcast_convert_type(c, jnp.int32)))

    x = jax.device_put(jax.random.uniform(jax.random.key(5), (big,), jnp.float32), gpu)
    cases = (
        ("sort", "-", x, gj.sort, jnp.sort, same),
        ("argsort", "i32", x, gj.argsort, jnp.argsort, lambda a, c: bool(jnp.array_equal(a, c))),
        ("sort", "-", x.reshape(-1, 256), jax.vmap(gj.sort), jax.vmap(jnp.sort), same),
    )
    for op, value, keys, ours_fn, peer_fn, check in cases:
        dist = "unit" if keys.ndim == 1 else f"rows{keys.shape[-1]}"
        ours, t_ours = timed(ours_fn, keys)
        ref, t_ref = timed(peer_fn, keys)
        g_ours = b.row(f"jax_py_{op}", "f32", value, big, dist, t_ours, check(ours, ref))
        g_ref = b.row(f"jax_{op}", "f32", value, big, dist, t_ref, True)
        ratios.append(f"jax_py_{op} f32 {dist} / jax_{op} {g_ours / g_ref:.2f}x")
        del ours, ref
    for keys, k in ((x, 1024), (x.reshape(-1, 4096), 32)):
        dist = "unit" if keys.ndim == 1 else f"rows{keys.shape[-1]}"
        (v, i), t_ours = timed(lambda a: gj.top_k(a, k), keys)
        (lv, li), t_ref = timed(lambda a: jax.lax.top_k(a, k), keys)
        ok = same(v, lv) and bool(jnp.array_equal(i, li))
        g_ours = b.row(f"jax_py_topk_k{k}", "f32", "i32", big, dist, t_ours, ok)
        g_ref = b.row(f"jax_topk_k{k}", "f32", "i32", big, dist, t_ref, True)
        ratios.append(f"jax_py_topk_k{k} f32 {dist} / jax_topk {g_ours / g_ref:.2f}x")
        del v, i, lv, li
    return f"jax {jax.__version__} on {gpu.device_kind}: jax.jit calls, wall clock (block_until_ready)"
