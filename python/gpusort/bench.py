"""python -m gpusort.bench: gpusort against torch.sort, torch.argsort,
cupy.sort, cupy.argsort and numpy.sort, in one process on one GPU.

Every case is timed with CUDA events on the current stream after warm-up:
the median of --runs runs (at least 10). No case sorts in place, so the
input stays pristine between runs. Every output is verified (against a
peer's output, and argsort results as permutations that sort the keys,
equal to torch's stable argsort). NumPy cases are timed on the wall clock.
Rows are written in bench/results' CSV form:
algorithm,key,value,n,distribution,median_ms,gkeys_per_s,verified
with algorithms py_sort, py_argsort, torch_sort, torch_argsort, cupy_sort,
cupy_argsort, numpy_sort, and py_topk_k<K> against torch_topk_k<K>. `value` is the index type a call returns
(torch.sort returns indices too), or '-'. Where JAX has a GPU, gpusort.jax's
calls under jax.jit against JAX's (jax_py_* against jax_*: _bench_jax.py).
Several key columns: gpusort.sort_by against chained torch.argsort and
cupy.lexsort (_bench_columns.py).
--real runs the real-data rows instead: sort and argsort (int32 indices for
gpusort) of f32 f64 i32 i64 u32 u64 keys at 2^27 and 2^28 on the
distributions of gpusort._dists (as the C++ bench's: normal, unit, grid for
floats; small_signed, ids, timestamps for integers; sorted, nearly_sorted,
reverse, zipf, few_unique, equal for both), against torch and cupy where
they take the dtype.
--distributed, under torchrun, times gpusort.distributed.sort against one
GPU and against an all_gather and a sort on rank 0; without torchrun, a host
array over every GPU of the process (_bench_dist.py).
Usage: python -m gpusort.bench [--csv PATH] [--runs N] [--quick] [--real [--n SIZES]]
       torchrun --nproc_per_node N -m gpusort.bench --distributed [--csv PATH] [--sizes 2^31]
       python -m gpusort.bench --distributed [--csv PATH] [--sizes 2e9]
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np

import gpusort


def _gpu_median(fn, runs, sync, event):
    for _ in range(3):
        fn()
    sync()
    times = []
    for _ in range(runs):
        start, stop = event(), event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return statistics.median(times)


def _wall_median(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


class Bench:
    def __init__(self, runs, out):
        self.runs = runs
        self.rows = []
        self.comments = []
        self.out = out

    def row(self, algo, key, value, n, dist, ms, ok):
        g = n / ms / 1e6
        self.rows.append(f"{algo},{key},{value},{n},{dist},{ms:.6f},{g:.6f},{int(bool(ok))}")
        print(f"{algo:14s} {key:4s} {value:4s} n={n:<10d} {dist:10s} {ms:9.3f} ms {g:8.2f} Gkeys/s "
              f"{'verified' if ok else 'WRONG'}", flush=True)
        return g


def _host_and_overhead(b, args, ratios, torch, dev):
    # ---- NumPy: the host path against numpy.sort (one thread) ---------------------------------
    n = 10**7 if args.quick else 10**8
    h = np.random.default_rng(7).integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)
    ref = np.sort(h)
    ours = gpusort.sort(h)
    g_ours = b.row("py_sort", "u64", "-", n, "uniform", _wall_median(lambda: gpusort.sort(h), b.runs),
                   np.array_equal(ours, ref))
    g_np = b.row("numpy_sort", "u64", "-", n, "uniform", _wall_median(lambda: np.sort(h), max(3, b.runs // 3)), True)
    ratios.append(f"py_sort u64 host / numpy_sort {g_ours / g_np:.2f}x")
    del h, ref, ours

    # ---- the overhead of a small call: Python against C++ ---------------------------------------
    small = torch.rand(4096, device="cuda")
    out = torch.empty_like(small)
    reps = 2000
    cxx, py = [], []
    for _ in range(7):
        cxx.append(gpusort._core.cxx_sort_seconds(small.data_ptr(), out.data_ptr(), 4096, reps, dev))
        wait = gpusort._core.stream_synchronize  # the C++ loop's wait: cudaStreamSynchronize
        t = time.perf_counter()
        for _ in range(reps):
            gpusort.sort(small)
            wait(0, dev)
        py.append((time.perf_counter() - t) / reps)
    c_us, p_us = statistics.median(cxx) * 1e6, statistics.median(py) * 1e6
    overhead = f"4096 f32 keys, call + synchronize: C++ gpusort::sort_keys (two-phase, scratch kept) {c_us:.1f} us, gpusort.sort {p_us:.1f} us, overhead {p_us - c_us:.1f} us"
    print(overhead)

    return overhead


_REAL_KEYS = (("float32", "f32"), ("float64", "f64"), ("int32", "i32"), ("int64", "i64"), ("uint32", "u32"),
              ("uint64", "u64"))


def _real_rows(b, args, torch, cupy, ttime, cupy_elapsed):
    """The real-data rows (--real): gpusort's sort and argsort against
    torch's and cupy's, each output checked against a peer's (floats by
    value, so -0.0 and +0.0 match; integers by bits), argsort also as a
    permutation, stable as torch's stable sort where torch takes the dtype."""
    from . import _dists
    signed = {4: torch.int32, 8: torch.int64}
    sizes = args.n or ((1 << 20, 1 << 22) if args.quick else (1 << 27, 1 << 28))
    ratios = []

    def same(a, c):
        if a.dtype.is_floating_point:
            return bool(torch.equal(a, c))
        return bool(torch.equal(a.view(signed[a.element_size()]), c.view(signed[c.element_size()])))

    def peer(name, fn):
        try:
            return fn()
        except (RuntimeError, TypeError, NotImplementedError, AttributeError) as e:
            print(f"{name}: not run ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})")
            return None

    for dtype, key in _REAL_KEYS:
        if not hasattr(torch, dtype):
            print(f"{key}: skipped (this torch has no {dtype} tensors)")
            continue
        dists = _dists.FLOAT_DISTS if dtype.startswith("float") else _dists.INT_DISTS
        for dist in dists:
            for n in sizes:
                x = torch.from_numpy(_dists.generate(dist, dtype, n, seed=1)).cuda()
                xc = peer(f"cupy {key}", lambda: cupy.asarray(x)) if cupy is not None else None
                # the reference: torch's stable sort, else cupy's
                ref = peer(f"torch.sort {key}", lambda: torch.sort(x, stable=True))
                ref_v = ref.values if ref is not None else None
                if ref_v is None and xc is not None:
                    ref_v = peer(f"cupy.sort {key}", lambda: torch.as_tensor(cupy.sort(xc), device="cuda"))
                ours = gpusort.sort(x)
                g = b.row("py_sort", key, "-", n, dist, ttime(lambda: gpusort.sort(x)),
                          ref_v is not None and same(ours, ref_v))
                if ref is not None:
                    g_t = b.row("torch_sort", key, "i64", n, dist, ttime(lambda: torch.sort(x)), True)
                    ratios.append(f"py_sort {key} {dist} 2^{n.bit_length() - 1} / torch_sort {g / g_t:.2f}x")
                if xc is not None and peer(f"cupy.sort {key}", lambda: cupy.sort(xc)) is not None:
                    b.row("cupy_sort", key, "-", n, dist, cupy_elapsed(lambda: cupy.sort(xc)), True)
                idx = gpusort.argsort(x, index_dtype="int32")
                seen = torch.zeros(n, dtype=torch.bool, device="cuda").index_fill_(0, idx.long(), True)
                bits = x if x.dtype.is_floating_point else x.view(signed[x.element_size()])
                ok = bool(seen.all()) and ref_v is not None and same(bits[idx.long()], ref_v.view(bits.dtype))
                if ref is not None:
                    ok = ok and bool(torch.equal(idx.long(), ref.indices))
                g = b.row("py_argsort", key, "i32", n, dist,
                          ttime(lambda: gpusort.argsort(x, index_dtype="int32")), ok)
                if ref is not None:
                    g_t = b.row("torch_argsort", key, "i64", n, dist, ttime(lambda: torch.argsort(x)), True)
                    ratios.append(f"py_argsort {key} {dist} 2^{n.bit_length() - 1} / torch_argsort {g / g_t:.2f}x")
                if xc is not None and peer(f"cupy.argsort {key}", lambda: cupy.argsort(xc)) is not None:
                    b.row("cupy_argsort", key, "i64", n, dist, cupy_elapsed(lambda: cupy.argsort(xc)), True)
                del x, xc, ref, ref_v, ours, idx, seen, bits
                torch.cuda.empty_cache()
    return ratios


def run(args):
    import torch

    try:
        import cupy
    except ImportError:
        cupy = None
    dev = torch.cuda.current_device()
    name = torch.cuda.get_device_name(dev)
    b = Bench(max(args.runs, 10), args.csv)
    tsync = torch.cuda.synchronize
    tevent = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731

    def cupy_elapsed(fn):
        for _ in range(3):
            fn()
        cupy.cuda.Device().synchronize()
        times = []
        for _ in range(b.runs):
            s, e = cupy.cuda.Event(), cupy.cuda.Event()
            s.record()
            fn()
            e.record()
            e.synchronize()
            times.append(cupy.cuda.get_elapsed_time(s, e))
        return statistics.median(times)

    def ttime(fn):
        return _gpu_median(fn, b.runs, tsync, tevent)

    big = 1 << (24 if args.quick else 28)
    ratios = []
    if args.real:
        ratios = _real_rows(b, args, torch, cupy, ttime, cupy_elapsed)
        return _finish(b, args, torch, cupy, name, "not measured (--real)", ratios)
    if args.columns_only:
        from . import _bench_columns
        _bench_columns.rows(b, 1 << (22 if args.quick else 27), torch, cupy, ttime, cupy_elapsed, ratios)
        return _finish(b, args, torch, cupy, name, "not measured (--columns-only)", ratios)

    def same(a, c):
        return bool(torch.equal(a.view(torch.int32) if a.dtype == torch.float32 else a,
                                 c.view(torch.int32) if c.dtype == torch.float32 else c))

    # ---- keys: f32, i32, i64 -------------------------------------------------------------
    sorts = () if args.topk_only else ((torch.float32, "f32"), (torch.int32, "i32"), (torch.int64, "i64"))
    for dtype, key in sorts:
        if dtype.is_floating_point:
            x = torch.rand(big, device="cuda", dtype=dtype)
        else:
            x = torch.randint(torch.iinfo(dtype).min, torch.iinfo(dtype).max, (big,), device="cuda", dtype=dtype)
        ours = gpusort.sort(x)
        ref = torch.sort(x, stable=True)
        g_ours = b.row("py_sort", key, "-", big, "uniform", ttime(lambda: gpusort.sort(x)), same(ours, ref.values))
        g_t = b.row("torch_sort", key, "i64", big, "uniform", ttime(lambda: torch.sort(x)), True)
        ratios.append(f"py_sort {key} / torch_sort {g_ours / g_t:.2f}x")
        if cupy is not None:
            xc = cupy.asarray(x)
            ok = bool((cupy.sort(xc) == cupy.asarray(ours)).all())
            g_c = b.row("cupy_sort", key, "-", big, "uniform", cupy_elapsed(lambda: cupy.sort(xc)), ok)
            ratios.append(f"py_sort {key} / cupy_sort {g_ours / g_c:.2f}x")
            del xc
        del ours, ref
        if key == "f32":
            idx = gpusort.argsort(x)
            stable = torch.sort(x, stable=True).indices
            perm = torch.zeros(big, dtype=torch.bool, device="cuda").index_fill_(0, idx, True).all()
            ok = bool(perm) and bool(torch.equal(idx, stable))
            g_ours = b.row("py_argsort", key, "i64", big, "uniform", ttime(lambda: gpusort.argsort(x)), ok)
            g_t = b.row("torch_argsort", key, "i64", big, "uniform", ttime(lambda: torch.argsort(x)), True)
            ratios.append(f"py_argsort f32 / torch_argsort {g_ours / g_t:.2f}x")
            if cupy is not None:
                xc = cupy.asarray(x)
                ci = cupy.argsort(xc)
                ok = bool((xc[ci] == xc[cupy.asarray(idx)]).all())
                g_c = b.row("cupy_argsort", key, "i64", big, "uniform", cupy_elapsed(lambda: cupy.argsort(xc)), ok)
                ratios.append(f"py_argsort f32 / cupy_argsort {g_ours / g_c:.2f}x")
                del xc, ci
            del idx, stable
        del x
        torch.cuda.empty_cache()

    # ---- rows of a 2-D array (axis=-1) -----------------------------------------------------
    total = 1 << (22 if args.quick else 26)
    for cols in () if args.topk_only else (16, 256, 4096, 65536):
        x = torch.rand(total // cols, cols, device="cuda")
        dist = f"rows{cols}"
        ours = gpusort.sort(x)
        ref = torch.sort(x, dim=-1).values
        g_ours = b.row("py_sort", "f32", "-", total, dist, ttime(lambda: gpusort.sort(x)), same(ours, ref))
        g_t = b.row("torch_sort", "f32", "i64", total, dist, ttime(lambda: torch.sort(x, dim=-1)), True)
        ratios.append(f"py_sort f32 {dist} / torch_sort {g_ours / g_t:.2f}x")
        if cupy is not None:
            xc = cupy.asarray(x)
            ok = bool((cupy.sort(xc, axis=-1) == cupy.asarray(ours)).all())
            b.row("cupy_sort", "f32", "-", total, dist, cupy_elapsed(lambda: cupy.sort(xc, axis=-1)), ok)
            del xc
        del x, ours, ref
    torch.cuda.empty_cache()

    # ---- several key columns: the permutation of a table's rows ------------------------------
    if not args.topk_only:
        from . import _bench_columns
        _bench_columns.rows(b, 1 << (22 if args.quick else 27), torch, cupy, ttime, cupy_elapsed, ratios)

    # ---- top-k against torch.topk -------------------------------------------------------------
    # torch.rand keys: distribution "unit" (floats in [0, 1), as gpusort's harness names them)
    for shape, k, dist in (((big,), 1024, "unit"), ((big,), 1 << 20, "unit"),
                           ((big // 4096, 4096), 32, "rows4096")):
        x = torch.rand(*shape, device="cuda")
        vals, idx = gpusort.topk(x, k)
        tv = torch.topk(x, k).values
        ok = same(vals, tv) and same(torch.gather(x, -1, idx), vals)
        g_ours = b.row(f"py_topk_k{k}", "f32", "i64", x.numel(), dist, ttime(lambda: gpusort.topk(x, k)), ok)
        g_t = b.row(f"torch_topk_k{k}", "f32", "i64", x.numel(), dist, ttime(lambda: torch.topk(x, k)), True)
        ratios.append(f"py_topk_k{k} f32 {dist} / torch_topk {g_ours / g_t:.2f}x")
        del x, vals, idx, tv
    torch.cuda.empty_cache()
    overhead = "not measured (--topk-only)"
    if not args.topk_only:
        from . import _bench_jax
        # XLA allocates on its own: the other frameworks' caches go back first
        torch.cuda.empty_cache()
        if cupy is not None:
            cupy.get_default_memory_pool().free_all_blocks()
        gpusort.release_memory()
        try:
            b.comments.append("python jax rows: " + _bench_jax.rows(b, big, ratios))
        except Exception as e:  # noqa: BLE001 (XLA's allocator: the rows are named as not run, the rest stays)
            b.comments.append(f"python jax rows: not run: {type(e).__name__}: {str(e).splitlines()[0]}")
        overhead = _host_and_overhead(b, args, ratios, torch, dev)
    return _finish(b, args, torch, cupy, name, overhead, ratios)


def _commit():
    """The gpusort commit measured: $GPUSORT_COMMIT, else the commit the
    package was built from (gpusort._build_info, written at build time: see
    cmake/commit.cmake), else 'unknown'."""
    if os.environ.get("GPUSORT_COMMIT"):
        return os.environ["GPUSORT_COMMIT"]
    try:
        from . import _build_info
    except ImportError:  # the package's sources, not a build of them
        return "unknown"
    return _build_info.commit


def _finish(b, args, torch, cupy, name, overhead, ratios):
    """Prints the '#' lines and appends them and the rows to --csv; the exit status."""
    header = [f"# python: {sys.version.split()[0]}, torch {torch.__version__}, cupy {cupy.__version__ if cupy else '-'}, "
              f"numpy {np.__version__}, device {name}, CUDA {torch.version.cuda}, gpusort commit {_commit()}",
              "# python peers: torch.sort / torch.argsort (default, unstable; values + int64 indices), cupy.sort / "
              "cupy.argsort, numpy.sort (quicksort, one thread); py_* inputs are torch tensors, except u64 host rows "
              "(NumPy arrays)",
              f"# python overhead: {overhead}",
              "# python ratios: " + "; ".join(ratios)] + [f"# {c}" for c in b.comments]
    if args.real:
        header.insert(2, "# python real-data rows: inputs from gpusort._dists (NumPy, seed 1, copied to the GPU); "
                         "py_argsort returns int32 indices, checked against torch's stable sort")
    for line in header[1:]:
        print(line)
    append_csv(args.csv, header, b.rows)
    return 0 if all(r.endswith(",1") for r in b.rows) else 1


def append_csv(path, header, rows):
    """Appends the '#' header lines and the rows to the CSV at path (none: nothing), with its column line if new."""
    if not path:
        return
    exists = os.path.exists(path)
    with open(path, "a") as f:
        if not exists:
            f.write("algorithm,key,value,n,distribution,median_ms,gkeys_per_s,verified\n")
        for line in header + rows:
            f.write(line + "\n")


def _sizes(text):
    """'2^27,2^28' or '134217728' -> (134217728, 268435456)."""
    out = []
    for part in text.split(","):
        base, _, exp = part.strip().partition("^")
        out.append(int(base) ** int(exp) if exp else int(float(base)))
    return tuple(out)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m gpusort.bench", description=__doc__.splitlines()[0])
    p.add_argument("--csv", help="append the rows to this CSV (written with its header if new)")
    p.add_argument("--runs", type=int, default=15, help="timed runs per case (at least 10)")
    p.add_argument("--quick", action="store_true", help="small sizes (a smoke test, not figures)")
    p.add_argument("--topk-only", action="store_true", help="the sorts skipped: top-k against torch.topk only")
    p.add_argument("--columns-only", action="store_true",
                   help="only the several-key-columns rows: gpusort.sort_by against chained torch.argsort and cupy.lexsort")
    p.add_argument("--real", action="store_true",
                   help="only the real-data rows: sort and argsort of six key types on gpusort._dists' distributions")
    # --sizes: the same option under a name torchrun's own parser does not
    # take for an abbreviation of its options (it does --n)
    p.add_argument("--n", "--sizes", dest="n", type=_sizes,
                   help="with --real: the sizes, e.g. 2^27 or 2^27,2^28 (default both); "
                   "with --distributed: the keys of all ranks together (default 2^31; under torchrun write --sizes)")
    p.add_argument("--distributed", action="store_true",
                   help="under torchrun: gpusort.distributed.sort of u32 keys over the ranks, against one GPU and "
                   "an all_gather and a sort on rank 0")
    args = p.parse_args(argv)
    if not gpusort.gpu_available():
        print("gpusort.bench: no CUDA device", file=sys.stderr)
        return 2
    if args.distributed:
        from . import _bench_dist
        return _bench_dist.run(args)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
