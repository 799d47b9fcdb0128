"""What the ranks of a distributed sort agree on before NCCL runs, and the
source pointers of return_indices. Pure Python: no GPU, no framework.

The pre-check: every rank checks its own arguments and enters one small
all-gather through the caller's group with its record (`record`), whatever
it found; a rank that found a fault sends an error code instead of raising
at once. So every rank learns every fault, and every rank raises before
any NCCL call, instead of the healthy ranks waiting in NCCL for one that
left. The records also carry the local sizes, whose sum sizes the outputs,
so the check costs no extra collective. `verdict` turns the gathered
records into the exception every rank raises, or None.

Source pointers: with return_indices, each key travels with one int64,
rank << 40 | position (positions below 2^40, ranks below 2^23), and is
split back into two int64 arrays, (rank, position), after the sort.
"""

MAGIC = 0x67707364  # "gpsd": a record of this package's layout
POSITION_BITS = 40
POSITION_MASK = (1 << POSITION_BITS) - 1
MAX_RANKS = 1 << (63 - POSITION_BITS)

# error codes: what a rank found wrong with its own arguments
OK, NOT_1D, BAD_DTYPE, WRONG_DEVICE, NOT_CUDA, BAD_VALUES, TOO_LARGE, ALLOCATION, BAD_ARGUMENT = range(9)
_DESCRIBE = {
    NOT_1D: ("its shard is not 1-D", ValueError),
    BAD_DTYPE: ("its shard's dtype is not a key type gpusort sorts", TypeError),
    WRONG_DEVICE: ("its shard is not on the rank's current CUDA device", ValueError),
    NOT_CUDA: ("its shard is not a CUDA array", ValueError),
    BAD_VALUES: ("its values do not match its keys (length, device, or 1 to 16 bytes an item)", ValueError),
    TOO_LARGE: (f"its shard has 2^{POSITION_BITS} keys or more (return_indices' limit)", ValueError),
    ALLOCATION: ("it could not allocate the outputs or scratch", MemoryError),
    BAD_ARGUMENT: ("an argument is invalid (nan=)", ValueError),
}
FIELDS = ("magic", "error", "key", "val_size", "descending", "nan_largest", "n")


class CheckError(Exception):
    """A fault a rank found in its own arguments: the code it sends to the
    others and the exception (with the full message) it raises itself."""

    def __init__(self, code, exc):
        super().__init__(str(exc))
        self.code = code
        self.exc = exc


def record(error, key, val_size, descending, nan_largest, n):
    """One rank's record, as the int64 list that is all-gathered."""
    return [MAGIC, int(error), int(key), int(val_size), int(bool(descending)), int(bool(nan_largest)), int(n)]


def verdict(records, rank, fn, key_names, own=None):
    """The exception every rank raises for the gathered records (a list, by
    rank, of record()'s lists), or None when every rank may sort. own: this
    rank's CheckError, raised as it is (its message is the most precise)."""
    call = f"gpusort.distributed.{fn}"
    if any(len(r) != len(FIELDS) or r[0] != MAGIC for r in records):
        return RuntimeError(f"{call}: the ranks are not in the same call (a rank entered another collective "
                            "of the group, or another gpusort version)")
    bad = [(q, r[1]) for q, r in enumerate(records) if r[1] != OK]
    if bad:
        if own is not None:
            return own.exc
        what, exc = _DESCRIBE.get(bad[0][1], ("an unknown fault", RuntimeError))
        others = ", ".join(str(q) for q, _ in bad)
        return exc(f"{call}: rank {others} failed its checks ({what}); no rank sorted (rank {rank} raises too)")
    keys = [r[2] for r in records]
    if len(set(keys)) > 1:
        named = ", ".join(f"rank {q}: {_name(key_names, k)}" for q, k in enumerate(keys))
        return TypeError(f"{call}: the ranks' shards have different dtypes ({named}); every rank must pass one dtype")
    widths = [r[3] for r in records]
    if len(set(widths)) > 1:
        named = ", ".join(f"rank {q}: {w or 'none'}" for q, w in enumerate(widths))
        return TypeError(f"{call}: the ranks' values differ in width (bytes an item: {named})")
    for field, label in ((4, "descending"), (5, "nan")):
        if len({r[field] for r in records}) > 1:
            return ValueError(f"{call}: the ranks passed different {label}= arguments; every rank must pass the same")
    return None


def _name(key_names, code):
    return key_names[code] if 0 <= code < len(key_names) else f"code {code}"


def total(records):
    """The keys of every rank together."""
    return sum(r[6] for r in records)


def pack_source(rank, positions):
    """rank << 40 | positions: positions an int64 array (or an int), in any
    framework that has << and |, or plain ints."""
    if not 0 <= rank < MAX_RANKS:
        raise ValueError(f"gpusort.distributed: rank {rank} does not fit the source pointer (below {MAX_RANKS})")
    return positions + (rank << POSITION_BITS)


def unpack_source(packed):
    """(rank, position) of packed source pointers (an int64 array or an int)."""
    return packed >> POSITION_BITS, packed & POSITION_MASK
