"""python -m gpusort.bench --distributed, under torchrun: several GPUs.

    torchrun --nproc_per_node 2 -m gpusort.bench --distributed --csv out.csv [--sizes 2^31]

Rows (u32 keys, uniform over all 2^32 values, n in all):
  dist_sort           gpusort.distributed.sort over the p ranks (n / p each)
  py_sort_1gpu        gpusort.sort of all n keys on rank 0's GPU alone
  gather_torch_sort   all_gather of the shards to every rank, then torch.sort
                      on rank 0 (what a job without a distributed sort does)
  gather_py_sort      the same all_gather, then gpusort.sort on rank 0
  host_multi_sort_    gpusort.sort_(numpy_array, devices=g) of n keys over the
                      g GPUs of one process, host to host, in place: the only
                      row of `python -m gpusort.bench --distributed` run
                      without torchrun (torchrun sets OMP_NUM_THREADS=1, and
                      the pageable staging copies use the OpenMP threads)
  host_multi_sort_pinned  gpusort.sort(pinned_tensor, devices=g, out=pinned) of
                      the same keys: page-locked input and output, moved by
                      DMA alone (multi::sort(in, out)); also without torchrun
Each is timed after warm-up, the median of --runs runs: the distributed rows
from a barrier to the last rank's end (CUDA events on each rank's stream,
the slowest rank's time of each run), the others with CUDA events on rank 0
(the host row on the wall clock). Every output is checked against one
reference, gpusort.sort of the gathered keys on rank 0, itself checked
against torch.sort where that takes the size and dtype (ordered as int32
after flipping the top bit); rows whose call cannot run (memory) are named
in a comment instead.
"""

import os
import statistics
import time

import numpy as np

import gpusort


def _flip(torch, x):
    """u32 keys as int32 of the same order (the top bit flipped): torch.sort's view of them."""
    return x.view(torch.int32) ^ torch.iinfo(torch.int32).min


def run(args):
    import sys

    import torch
    import torch.distributed as dist

    import gpusort.distributed as gd
    from . import bench

    if "RANK" not in os.environ:  # not under torchrun: the host row alone
        return _host_only(args, torch, gd, bench)
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    dist.init_process_group("nccl")
    rank, p = dist.get_rank(), dist.get_world_size()
    n = args.n[0] if args.n else 1 << 31
    share = [n // p + (1 if q < n % p else 0) for q in range(p)]
    b = bench.Bench(max(args.runs, 10), args.csv)
    tevent = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731

    gen = torch.Generator(device="cuda").manual_seed(1000 + rank)
    shard = torch.randint(-(1 << 31), 1 << 31, (share[rank],), dtype=torch.int32, device="cuda",
                          generator=gen).view(torch.uint32)

    def gathered():
        parts = [torch.empty(s, dtype=torch.uint32, device="cuda") for s in share]
        dist.all_gather([t.view(torch.int32) for t in parts], shard.view(torch.int32))
        return torch.cat(parts) if rank == 0 else None

    def dist_median(fn):
        for _ in range(3):
            fn()
        times = []
        for _ in range(b.runs):
            dist.barrier()
            torch.cuda.synchronize()
            start, stop = tevent(), tevent()
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            t = torch.tensor([start.elapsed_time(stop)], device="cuda")
            dist.all_reduce(t, op=dist.ReduceOp.MAX)
            times.append(float(t))
        return statistics.median(times)

    def failed(name, e):
        b.comments.append(f"{name}: not run ({type(e).__name__}: {str(e).splitlines()[0][:160] if str(e) else ''})")

    # the reference, on rank 0: gpusort.sort of the gathered keys, checked against torch.sort
    whole = gathered()
    ref = None
    ref_ok = False
    if rank == 0:
        ref = gpusort.sort(whole)
        try:
            ref_ok = bool(torch.equal(_flip(torch, ref), torch.sort(_flip(torch, whole)).values))
        except (RuntimeError, MemoryError) as e:
            b.comments.append(f"reference: torch.sort could not check it ({type(e).__name__}); checked as ordered")
            r = _flip(torch, ref)
            ref_ok = bool((r[1:] >= r[:-1]).all())
        # the GPU copies leave room for the distributed sort's scratch (about
        # five capacities a rank); rows check against host copies
        whole, ref = whole.cpu(), ref.cpu()
        torch.cuda.empty_cache()

    # ---- gpusort.distributed.sort ------------------------------------------------------------------
    part = gd.sort(shard)
    ms = dist_median(lambda: gd.sort(shard))
    counts = [None] * p
    dist.all_gather_object(counts, int(part.numel()))
    cap = max(counts)
    padded = torch.zeros(cap, dtype=torch.uint32, device="cuda")
    padded[:part.numel()] = part
    pieces = [torch.empty(cap, dtype=torch.uint32, device="cuda") for _ in range(p)]
    dist.all_gather([t.view(torch.int32) for t in pieces], padded.view(torch.int32))
    if rank == 0:
        got = torch.cat([pieces[q][:counts[q]].cpu() for q in range(p)])
        b.row("dist_sort", "u32", "-", n, "uniform", ms, ref_ok and bool(torch.equal(got, ref)))
        b.comments.append(f"dist_sort counts by rank: {counts} (n / p = {n // p})")
        del got
    del part, padded, pieces
    torch.cuda.empty_cache()

    # ---- all_gather + a sort on rank 0 ---------------------------------------------------------------
    def gather_then(sort):
        def fn():
            w = gathered()
            return sort(w) if rank == 0 else None
        return fn

    peers = (("gather_torch_sort", "i64", lambda w: torch.sort(_flip(torch, w)).values, lambda: _flip(torch, ref)),
             ("gather_py_sort", "-", gpusort.sort, lambda: ref))
    for name, value, sort, expect in peers:
        if name == "gather_torch_sort" and n > (1 << 31) - 1:
            # torch.sort of 2^31 keys or more left no figure within minutes on an H100
            b.comments.append(f"{name}: not run above 2^31 - 1 keys")
            continue
        try:
            out = gather_then(sort)()
            ms = dist_median(gather_then(sort))
            if rank == 0:
                b.row(name, "u32", value, n, "uniform", ms, ref_ok and bool(torch.equal(out.cpu(), expect())))
            del out
        except (RuntimeError, MemoryError) as e:
            failed(name, e)
        torch.cuda.empty_cache()
        dist.barrier()

    # ---- one GPU: gpusort.sort of all n keys on rank 0 ---------------------------------------------------
    if rank == 0:
        try:
            keys = whole.cuda()
            out = gpusort.sort(keys)
            ms = bench._gpu_median(lambda: gpusort.sort(keys), b.runs, torch.cuda.synchronize, tevent)
            b.row("py_sort_1gpu", "u32", "-", n, "uniform", ms, ref_ok and bool(torch.equal(out.cpu(), ref)))
            del out, keys
        except (RuntimeError, MemoryError) as e:
            failed("py_sort_1gpu", e)
        torch.cuda.empty_cache()
    dist.barrier()

    dist.barrier()
    status = _finish(b, args, torch, p) if rank == 0 else 0
    dist.destroy_process_group()
    sys.stdout.flush()
    return status


def _host_only(args, torch, gd, bench):
    """The host row: n u32 keys from host memory over every GPU of this process, checked against numpy.sort."""
    g = torch.cuda.device_count()
    n = args.n[0] if args.n else 2_000_000_000
    b = bench.Bench(max(args.runs, 10), args.csv)
    src = np.random.default_rng(1000).integers(0, 1 << 32, n, dtype=np.uint32)
    work = np.empty_like(src)
    times = []
    for i in range(b.runs + 1):
        work[:] = src
        t = time.perf_counter()
        gpusort.sort_(work, devices=g)
        if i:
            times.append((time.perf_counter() - t) * 1e3)
    expect = np.sort(src)
    b.row("host_multi_sort_", "u32", "-", n, "uniform", statistics.median(times), np.array_equal(work, expect))
    del work
    pinned = torch.from_numpy(src).pin_memory()
    out = torch.empty_like(pinned).pin_memory()
    times = []
    for i in range(b.runs + 1):
        t = time.perf_counter()
        gpusort.sort(pinned, devices=g, out=out)
        if i:
            times.append((time.perf_counter() - t) * 1e3)
    ok = np.array_equal(out.numpy(), expect) and np.array_equal(pinned.numpy(), src)
    b.row("host_multi_sort_pinned", "u32", "-", n, "uniform", statistics.median(times), ok)
    gd.release_host_cache()
    return _finish(b, args, torch, g, launcher=f"one process over {g} GPUs")


def _finish(b, args, torch, p, launcher=None):
    """The header ('#' lines: the cards, the versions, the commit) and the rows, appended to --csv."""
    import gpusort.distributed  # noqa: F401 (the module is loaded: its NCCL version)
    from . import _dist_load, bench
    names = sorted({torch.cuda.get_device_name(d) for d in range(torch.cuda.device_count())})
    v = _dist_load.module().nccl_version()
    nccl = f"{v // 10000}.{v // 100 % 100}.{v % 100}"
    env = ", ".join(f"{k}={os.environ[k]}" for k in ("NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST",
                                                     "NVSHMEM_DISABLE_NVLS") if k in os.environ)
    header = [f"# device: {p} x {' / '.join(names)} ({torch.cuda.device_count()} visible to each rank)",
              f"# python distributed: torch {torch.__version__}, CUDA {torch.version.cuda}, NCCL {nccl} (gpusort's), "
              f"{launcher or f'{p} ranks under torchrun'}, gpusort commit {bench._commit()}" +
              (f"; {env}" if env else "")]
    header += [f"# {c}" for c in b.comments]
    for line in header:
        print(line)
    bench.append_csv(args.csv, header, b.rows)
    return 0 if b.rows and all(r.endswith(",1") for r in b.rows) else 1
