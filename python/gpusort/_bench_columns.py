"""python -m gpusort.bench's rows for several key columns: the stable
permutation of a table's rows, gpusort.sort_by against what PyTorch and
CuPy users write today, on the same torch tensors (CuPy views of them):

    torch_chained_argsort  stable argsorts chained from the last column to
                           the first (perm = argsort(last); then for each
                           earlier column perm = perm[argsort(col[perm])]),
                           as PyTorch has no lexsort
    cupy_lexsort           cupy.lexsort of the columns stacked (int64)

Rows: py_sort_by, torch_chained_argsort and cupy_lexsort, key "i32+i32"
(ids in [0, 50,000) then small signed values in [-1000, 1000)), "i32+i32"
uniform (every bit random), and "i64+f64desc" (small signed int64, then
N(0, 1) float64 descending; CuPy's lexsort has no descending key and is
skipped there). Every output is checked against the chained argsort's,
which is stable, so the permutations must be equal.
"""


def rows(b, n, torch, cupy, ttime, cupy_elapsed, ratios):
    g = torch.Generator(device="cuda").manual_seed(11)

    def chained(cols, desc):
        perm = torch.argsort(cols[-1], stable=True, descending=desc[-1])
        for c, d in zip(reversed(cols[:-1]), reversed(desc[:-1])):
            perm = perm[torch.argsort(c[perm], stable=True, descending=d)]
        return perm

    import gpusort
    i32 = torch.int32
    cases = (
        ("i32+i32", "ids+small", lambda: (torch.randint(0, 50000, (n,), device="cuda", dtype=i32, generator=g),
                                          torch.randint(-1000, 1000, (n,), device="cuda", dtype=i32, generator=g)),
         (False, False)),
        ("i32+i32", "uniform", lambda: tuple(torch.randint(-2**31, 2**31 - 1, (n,), device="cuda", dtype=i32,
                                                           generator=g) for _ in range(2)), (False, False)),
        ("i64+f64desc", "small+normal", lambda: (
            torch.randint(-2**15, 2**15, (n,), device="cuda", dtype=torch.int64, generator=g),
            torch.randn(n, device="cuda", dtype=torch.float64, generator=g)), (False, True)),
    )
    for key, dist, make, desc in cases:
        cols = make()
        want = chained(cols, desc)
        ok = bool(torch.equal(gpusort.sort_by(cols, descending=list(desc)), want))
        g_ours = b.row("py_sort_by", key, "i64", n, dist, ttime(lambda: gpusort.sort_by(cols, descending=list(desc))),
                       ok)
        g_t = b.row("torch_chained_argsort", key, "i64", n, dist, ttime(lambda: chained(cols, desc)), True)
        ratios.append(f"py_sort_by {key} {dist} / torch_chained_argsort {g_ours / g_t:.2f}x")
        if cupy is not None and not any(desc):
            stacked = cupy.stack([cupy.asarray(c).astype(cupy.int64) for c in cols[::-1]])
            ok = bool((cupy.lexsort(stacked) == cupy.asarray(want)).all())
            g_c = b.row("cupy_lexsort", key, "i64", n, dist, cupy_elapsed(lambda: cupy.lexsort(stacked)), ok)
            ratios.append(f"py_sort_by {key} {dist} / cupy_lexsort {g_ours / g_c:.2f}x")
            del stacked
        del cols, want
        torch.cuda.empty_cache()
        if cupy is not None:
            cupy.get_default_memory_pool().free_all_blocks()
