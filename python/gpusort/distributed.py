"""gpusort.distributed: one sort across the ranks of a process group.

    # torchrun --nproc_per_node 2 job.py
    import torch, torch.distributed as dist, gpusort.distributed as gd
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    part = gd.sort(shard)                        # this rank's range of the global order
    keys, src_rank, src_pos = gd.sort(shard, return_indices=True)

    # mpirun -np 2 python job.py  (CuPy arrays, an mpi4py communicator)
    part = gd.sort(cupy_shard)                   # group=None: MPI.COMM_WORLD

Every rank passes its local 1-D shard (sizes may differ, some may be
empty; one dtype for all) and gets back its contiguous part of the global
order: rank 0 the smallest keys (the largest with descending=True), rank
p - 1 the last ones, each about n / p of the n keys (within about 5%: the
C++ multi-GPU sort, include/gpusort/multi.hpp, balances them, ties too).
Stable across ranks: equal keys keep (rank, position) order. NaNs as in
gpusort.sort (nan="largest", or "bits").

Groups: PyTorch tensors sort over a torch.distributed ProcessGroup (None:
the default group), CuPy arrays over an mpi4py communicator (None:
MPI.COMM_WORLD); either group works with either framework. The group
carries only a small all-gather per call and, once per group and device,
the broadcast of an NCCL unique id: gpusort makes an NCCL communicator of
its own from it (cached; released with the group, or by release()), which
carries the sort. So the group's backend need not be NCCL: a gloo group
works as well (its collectives then move host tensors). What is required
is the data: CUDA arrays on the rank's current device (torch.cuda.set_device
/ cupy.cuda.Device(local_rank).use() before the call).

Streams and memory: the sort runs on the framework's current stream of the
rank's device; outputs and scratch come from the framework's allocator
(PyTorch's caching allocator, CuPy's pool). The output is a view of the
first `count` keys of a buffer of output_capacity(n) keys, n / p with 6.25%
to spare. The call waits for its stream (NCCL takes the exchange's sizes
on the host): it is not asynchronous and cannot be captured in a CUDA graph.

Errors, before any NCCL call: every rank checks its own arguments (1-D, a
key dtype, on its current CUDA device, values that match) and all ranks
exchange one record each through the group, so all of them raise when one
rank's arguments are wrong, or the ranks' dtypes, value widths or orders
differ (TypeError for dtypes, ValueError otherwise), instead of the healthy
ranks waiting in NCCL. A second record says whether every rank allocated
its outputs and scratch (MemoryError on all ranks when one could not). A
rank that never enters the call leaves the others waiting in that first
all-gather, as every collective does; through a torch group it times out
with the group's timeout (init_process_group(timeout=...)) and raises
there, not in NCCL. NCCL's communicator set-up (the first call for a group)
waits for every rank, with no timeout. A failure inside NCCL (RuntimeError)
aborts this rank's communicator; the other ranks may then be left waiting:
end the job, as after any NCCL error.
"""

from . import _arrays, _dist_groups, _dist_load, _options
from . import _dist_records as rec

__all__ = ["sort", "sort_pairs", "release"]

_core = _dist_load.module()  # ImportError here, saying how to get the module, when it is absent
_KEY_NAMES = list(_arrays.KEY_OF_DTYPE)
_NAME_OF_CODE = {c: d for d, c in _arrays.KEY_CODE_OF_DTYPE.items()}
_NAMES_BY_CODE = [_NAME_OF_CODE[c] for c in sorted(_NAME_OF_CODE)]


def sort(x, group=None, *, descending=False, return_indices=False, nan="largest"):
    """This rank's part of the global sorted order of every rank's x.

    x: a 1-D PyTorch tensor or CuPy array on this rank's current CUDA
    device, of a key dtype gpusort sorts (u8..u64, i8..i64, f16, bf16, f32,
    f64), the same on every rank. Returns the sorted part, of x's framework;
    with return_indices=True, (keys, source_rank, source_position): for each
    key the rank and the position in that rank's x it came from, two int64
    arrays (carried through the sort as one int64, rank << 40 | position).
    """
    if return_indices:
        keys, src = _sort("sort", x, None, group, descending, nan, True)
        r, p = rec.unpack_source(src)
        return keys, r, p
    return _sort("sort", x, None, group, descending, nan, False)[0]


def sort_pairs(keys, values, group=None, *, descending=False, nan="largest"):
    """This rank's part of the global order of every rank's keys, with their
    values: returns (keys, values). values: an array of the keys' framework,
    device and length, of any dtype of 1 to 16 bytes (the same on every rank).
    """
    return _sort("sort_pairs", keys, values, group, descending, nan, False)


def release(group=None):
    """Frees gpusort's NCCL communicators of `group` (None: of every group).

    A collective teardown: call it on every rank of the group, as
    destroy_process_group. The next call on the group makes a new one.
    Communicators of a torch ProcessGroup are also freed when the group is.
    The host sort's communicators (gpusort.sort(array, devices=...)) are
    freed by gpusort.distributed.release_host_cache()."""
    _dist_groups.release(group)


def release_host_cache():
    """Frees what gpusort.sort(host_array, devices=...) keeps between calls:
    its communicators over this process's GPUs and its device memory pools."""
    _core.release_cache()


# ---- one call ---------------------------------------------------------------------
def _framework(x):
    mod = type(x).__module__.split(".")[0]
    return mod if mod in ("torch", "cupy") else None


def _current_device(fw, g):
    """The rank's device: the CUDA device current in x's framework (the group's when x is neither)."""
    if fw == "cupy":
        return _dist_groups.MpiGroup.current_device()
    if fw == "torch":
        import torch
        return torch.cuda.current_device()
    return g.current_device()


def _check_keys(x, fw, fn, current):
    """(Array, key code) of x, or CheckError."""
    call = f"gpusort.distributed.{fn}"
    if fw is None:
        raise rec.CheckError(rec.NOT_CUDA, TypeError(
            f"{call}: x must be a PyTorch tensor or CuPy array, not {type(x).__module__}.{type(x).__name__}"))
    a = _arrays.describe(x)
    if len(a.shape) != 1:
        raise rec.CheckError(rec.NOT_1D, ValueError(f"{call}: the shard must be 1-D, not of shape {tuple(a.shape)}"))
    code = _arrays.KEY_CODE_OF_DTYPE.get(a.dtype)
    if code is None:
        raise rec.CheckError(rec.BAD_DTYPE, TypeError(
            f"{call}: dtype {a.dtype} is not a key type gpusort sorts (supported: {', '.join(_KEY_NAMES)})"))
    if a.device == _arrays.HOST:
        raise rec.CheckError(rec.NOT_CUDA, ValueError(f"{call}: the shard is in host memory; pass a CUDA array"))
    if a.device != current:
        raise rec.CheckError(rec.WRONG_DEVICE, ValueError(
            f"{call}: the shard is on CUDA device {a.device}, but this rank's current device is {current}: "
            "make the rank's GPU current first (torch.cuda.set_device(local_rank), cupy.cuda.Device(d).use())"))
    return a, code


def _check_values(a, values, fn):
    call = f"gpusort.distributed.{fn}"
    try:
        v = _arrays.describe(values)
    except TypeError as e:
        raise rec.CheckError(rec.BAD_VALUES, e) from None
    if v.fw != a.fw or v.device != a.device or tuple(v.shape) != tuple(a.shape):
        raise rec.CheckError(rec.BAD_VALUES, ValueError(
            f"{call}: values must be a 1-D {a.fw} array of the keys' length ({a.size}) on their device"))
    if not 1 <= v.itemsize <= 16:
        raise rec.CheckError(rec.BAD_VALUES, TypeError(f"{call}: values of {v.itemsize} bytes (1 to 16 are supported)"))
    return v


def _source_values(a, rank):
    """rank << 40 | position for every key of a, in a's framework, on its stream."""
    if a.fw == "torch":
        import torch
        pos = torch.arange(a.size, dtype=torch.int64, device=a.obj.device)
    else:
        import cupy
        with cupy.cuda.Device(a.device):
            pos = cupy.arange(a.size, dtype=cupy.int64)
    s = _arrays.describe(rec.pack_source(rank, pos))
    return s


def _agree(g, device, fn, failure):
    """The second record: whether every rank is ready (allocated); raises on
    every rank when one is not."""
    code = rec.ALLOCATION if failure is not None else rec.OK
    gathered = g.all_gather_ints([rec.MAGIC, code], device)
    failed = [q for q, r in enumerate(gathered) if r[1] != rec.OK]
    if failure is not None:
        raise MemoryError(f"gpusort.distributed.{fn}: rank {g.rank} could not allocate its outputs or scratch "
                          f"({failure}); no rank sorted") from failure
    if failed:
        raise MemoryError(f"gpusort.distributed.{fn}: rank {', '.join(map(str, failed))} could not allocate its "
                          f"outputs or scratch; no rank sorted (rank {g.rank} raises too)")


def _sort(fn, x, values, group, descending, nan, with_sources):
    """(keys, values or sources or None) of this rank's part."""
    fw = _framework(x)
    g = _dist_groups.group_for(group, fw)
    own, a, v, key, vsize, nl = None, None, None, 0, 0, True
    device = _current_device(fw, g)
    try:
        try:
            nl = _options.nan_largest(nan, f"distributed.{fn}")
        except ValueError as e:
            raise rec.CheckError(rec.BAD_ARGUMENT, e) from None
        a, key = _check_keys(x, fw, fn, device)
        if values is not None:
            v = _check_values(a, values, fn)
            vsize = v.itemsize
        elif with_sources:
            if a.size > rec.POSITION_MASK:
                raise rec.CheckError(rec.TOO_LARGE, ValueError(
                    f"gpusort.distributed.{fn}: return_indices takes shards below 2^{rec.POSITION_BITS} keys"))
            vsize = 8
    except rec.CheckError as e:
        own = e
    n = a.size if a is not None else 0
    records = g.all_gather_ints(rec.record(own.code if own else rec.OK, key, vsize, descending, nl, n), device)
    exc = rec.verdict(records, g.rank, fn, _NAMES_BY_CODE, own)
    if exc is not None:
        raise exc
    n_total = rec.total(records)
    if n_total == 0:
        vo = None if not vsize else (v.empty((0,), v.dtype) if v is not None else a.empty((0,), "int64"))
        return a.finish(a.empty((0,), a.dtype)), (None if vo is None else vo.obj)
    comm = _dist_groups.communicator(g, device)
    cap = _core.output_capacity(n_total, g.size)
    failure = temp = block = None
    need = 0
    try:
        if with_sources:
            v = _source_values(a, g.rank)
        ko = a.empty((cap,), a.dtype)
        vo = v.empty((cap,), v.dtype) if v is not None else None
        args = (comm, key, n, cap, a.ptr, ko.ptr, v.ptr if v else 0, vo.ptr if vo else 0, vsize, descending, nl,
                a.stream, device)
        need = _core.sort_device(*args, query=True)[0]
        alloc = _arrays._SCRATCH.get(a.fw)
        if need and alloc is not None:
            block, temp = alloc(a, need)
    except Exception as e:  # noqa: BLE001 (the frameworks' out-of-memory errors differ: every one is agreed on)
        failure = e
    _agree(g, device, fn, failure)
    try:
        _, count, _counts = _core.sort_device(*args, temp=temp or 0, temp_bytes=need if temp else 0)
    except RuntimeError as e:
        _dist_groups.abort(g, device)
        raise RuntimeError(f"{e}; gpusort aborted this rank's NCCL communicator of the group: the other ranks may "
                           "be left waiting in NCCL; end the job") from e
    finally:
        del block  # back to the framework's cache, for work queued after the sort's
    keys_out = ko.obj[:count]
    return keys_out, (vo.obj[:count] if vo is not None else None)
