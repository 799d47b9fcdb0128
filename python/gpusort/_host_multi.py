"""gpusort.sort(host_array, devices=...): one host array over several GPUs
of this process, by the C++ convenience call gpusort::multi::sort(in, out, g)
(one thread a GPU, shards copied up through pinned slots, one NCCL sort,
each GPU's range copied back; its communicators and memory pools kept
between calls). A pageable output is first filled from the input with every
core and sorted in place; a page-locked one (out= a pinned CPU tensor) is
written by DMA alone.

The C++ call takes a count g and uses GPUs 0 .. g - 1 of the process, so
`devices` is a count, or the list [0, 1, ..., g - 1]; other GPUs are chosen
with CUDA_VISIBLE_DEVICES before the process starts.

devices=None chooses: every visible GPU when there are at least two and the
array has at least MULTI_MIN_KEYS keys, else the single-GPU host path
(in core or out of core through one GPU, or the CPU without one).
"""

from . import _dist_load
from ._arrays import HOST

# From this many keys the sort over every GPU is expected to beat one GPU's
# host pipeline: both are bound by the host copies, which several GPUs
# drive in parallel, while the multi call pays NCCL's set-up per call
# (communicators are cached) and an exchange. A tuning constant, to be
# measured on two and four GPUs (python -m gpusort.bench --distributed
# prints the host rows); until then a conservative 2^26.
MULTI_MIN_KEYS = 1 << 26


def gpus(devices, a, ax, plain, fn):
    """How many GPUs sort the host array a: 0 for the single-GPU path, g >= 2
    for the multi-GPU call. plain: whole keys by the automatic algorithm
    (the multi call takes no bit range or algorithm). Raises for a devices=
    that cannot be honoured."""
    flat = ax is None or len(a.shape) == 1
    if devices is None:
        if a.device != HOST or not flat or not plain or a.size < MULTI_MIN_KEYS or not _dist_load.available():
            return 0
        g = _dist_load.module().device_count()
        return g if g >= 2 else 0
    if isinstance(devices, bool):
        raise TypeError(f"gpusort.{fn}: devices must be a GPU count or a list of GPU ordinals, not a bool")
    if isinstance(devices, int):
        g = devices
        if g < 1:
            raise ValueError(f"gpusort.{fn}: devices={g}: at least one GPU")
    else:
        ords = [int(d) for d in devices]
        if ords != list(range(len(ords))) or not ords:
            raise ValueError(f"gpusort.{fn}: devices={ords}: the multi-GPU host sort runs on the first g GPUs of "
                             "the process (a count g, or [0, 1, ..., g - 1]); choose other GPUs with "
                             "CUDA_VISIBLE_DEVICES")
        g = len(ords)
    if g == 1:
        return 0
    if a.device != HOST:
        raise ValueError(f"gpusort.{fn}: devices= applies to host arrays (NumPy, CPU tensors); a GPU array sorts "
                         "on its own device (gpusort.distributed sorts shards across ranks)")
    if not flat:
        raise ValueError(f"gpusort.{fn}: devices={devices!r} sorts one 1-D array (or axis=None), not rows")
    if not plain:
        raise ValueError(f"gpusort.{fn}: devices={devices!r} sorts whole keys with the automatic algorithm "
                         "(no begin_bit/end_bit, algorithm='auto')")
    count = _dist_load.module().device_count()
    if g > count:
        raise ValueError(f"gpusort.{fn}: devices={devices!r} asks for {g} GPUs, {count} visible")
    return g


def sort(key, s, o, g, descending, nan_largest):
    """Sorts the host keys of s into o over GPUs 0 .. g - 1 (o may be s)."""
    _dist_load.module().sort_host(key, s.size, s.ptr, o.ptr, g, descending, nan_largest)
