"""The caller's process group, and gpusort's NCCL communicator for it.

A group is what the caller already has: a `torch.distributed` process group
or an `mpi4py` communicator. gpusort uses it for two small things only: the
pre-check's all-gather of a few integers (_dist_records.py) and, once per
(group, device), the broadcast of an NCCL unique id from the group's rank 0.
The sort itself runs over an NCCL communicator of gpusort's own, made from
that id with gpusort's configuration (multi::comm_config: the exchange's
CTAs capped), so it neither depends on the group's backend nor disturbs the
group's own NCCL communicator and streams.

The communicators are cached per (group, device) in `_COMMS`. A group
that takes weak references (torch's ProcessGroup does) releases its
communicator when it is destroyed (torch.distributed.destroy_process_group);
`release()` frees them on request. Not at interpreter exit: a communicator
destroyed while the peers may already be gone can wait on them, and the
process's end frees it anyway.
"""

import weakref

from . import _dist_load

_COMMS = {}  # (kind, id(group object), device) -> _Entry


class _Entry:
    __slots__ = ("handle", "keep", "finalizer")

    def __init__(self, handle):
        self.handle = handle
        self.keep = None  # a strong reference to a group that takes no weak ones (so its id stays its own)
        self.finalizer = None


class TorchGroup:
    """A torch.distributed process group (None: the default group)."""

    kind = "torch"

    def __init__(self, group):
        import torch
        import torch.distributed as dist
        if not dist.is_available() or not dist.is_initialized():
            raise RuntimeError("gpusort.distributed: torch.distributed is not initialized: call "
                               "torch.distributed.init_process_group first (e.g. backend='nccl', under torchrun), "
                               "or pass an mpi4py communicator as group")
        self._torch, self._dist = torch, dist
        self.obj = dist.group.WORLD if group is None else group
        self.rank = dist.get_rank(self.obj)
        if self.rank < 0:
            raise ValueError("gpusort.distributed: this process is not a member of the process group")
        self.size = dist.get_world_size(self.obj)
        # The group's own collectives take CUDA tensors when it has an NCCL
        # backend ("nccl", "cpu:gloo,cuda:nccl"), else host tensors (gloo, mpi).
        self.cuda = "nccl" in str(dist.get_backend(self.obj)).lower()
        global_rank = getattr(dist, "get_global_rank", None)
        self.root = global_rank(self.obj, 0) if global_rank else 0

    def current_device(self):
        return self._torch.cuda.current_device()

    def _place(self, device):
        return self._torch.device("cuda", device) if self.cuda else self._torch.device("cpu")

    def all_gather_ints(self, values, device):
        t = self._torch.tensor(values, dtype=self._torch.int64, device=self._place(device))
        parts = [self._torch.empty_like(t) for _ in range(self.size)]
        self._dist.all_gather(parts, t, group=self.obj)
        return [p.tolist() for p in parts]

    def broadcast_bytes(self, data, nbytes, device):
        t = self._torch.zeros(nbytes, dtype=self._torch.uint8, device=self._place(device))
        if data is not None:
            t.copy_(self._torch.frombuffer(bytearray(data), dtype=self._torch.uint8))
        self._dist.broadcast(t, src=self.root, group=self.obj)
        return bytes(t.cpu().tolist())


class MpiGroup:
    """An mpi4py communicator (None: MPI.COMM_WORLD)."""

    kind = "mpi"

    def __init__(self, comm):
        if comm is None:
            try:
                from mpi4py import MPI
            except ImportError as e:
                raise ImportError("gpusort.distributed: CuPy arrays sort over an mpi4py communicator (pip install "
                                  "mpi4py; launch with mpirun -np N), or pass a torch.distributed group") from e
            comm = MPI.COMM_WORLD
        self.obj = comm
        self.rank = comm.Get_rank()
        self.size = comm.Get_size()

    @staticmethod
    def current_device():
        import cupy
        return cupy.cuda.runtime.getDevice()

    def all_gather_ints(self, values, device):
        return [list(r) for r in self.obj.allgather(list(values))]

    def broadcast_bytes(self, data, nbytes, device):
        return self.obj.bcast(data, root=0)


def group_for(group, framework):
    """The adapter of `group`: by its type, or (None) the framework's default."""
    if group is None:
        return MpiGroup(None) if framework == "cupy" else TorchGroup(None)
    mod = type(group).__module__.split(".")[0]
    if mod == "torch":
        return TorchGroup(group)
    if mod == "mpi4py":
        return MpiGroup(group)
    raise TypeError(f"gpusort.distributed: group must be a torch.distributed ProcessGroup or an mpi4py "
                    f"communicator, not {type(group).__module__}.{type(group).__name__}")


def communicator(g, device):
    """gpusort's NCCL communicator for group g on `device`: cached, or made
    now by every rank together (rank 0's unique id broadcast through g)."""
    key = (g.kind, id(g.obj), device)
    entry = _COMMS.get(key)
    if entry is not None:
        return entry.handle
    mod = _dist_load.module()
    uid = mod.unique_id() if g.rank == 0 else None
    uid = g.broadcast_bytes(uid, mod.unique_id_bytes(), device)
    entry = _Entry(mod.comm_init(uid, g.size, g.rank, device))
    try:
        entry.finalizer = weakref.finalize(g.obj, _drop, key, False)
        entry.finalizer.atexit = False
    except TypeError:
        entry.keep = g.obj
    _COMMS[key] = entry
    return entry.handle


def _drop(key, abort):
    entry = _COMMS.pop(key, None)
    if entry is None:
        return
    if entry.finalizer is not None:
        entry.finalizer.detach()
    mod = _dist_load.module()
    try:
        (mod.comm_abort if abort else mod.comm_destroy)(entry.handle)
    except (RuntimeError, ValueError):
        pass  # a communicator that failed is freed by the abort's attempt, or by the process's end


def abort(g, device):
    """Aborts and forgets group g's communicator on `device` (after a failure
    within NCCL, which may have left it unusable)."""
    _drop((g.kind, id(g.obj), device), True)


def release(group=None):
    """Destroys the communicators of `group` (every device), or all of them."""
    for key in list(_COMMS):
        if group is None or key[1] == id(group):
            _drop(key, False)


def cached():
    """How many communicators are cached (for tests and tools)."""
    return len(_COMMS)
