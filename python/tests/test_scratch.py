"""The scratch of the extension's device calls: the size query (made on the
host, so it runs everywhere, CI included) and how the package hands a call
its framework's memory (run_device)."""
import pytest

from gpusort import _arrays
from gpusort import _gpusort as core

N = 1 << 24
KEYS_IN, OUT = 1 << 40, 1 << 41  # addresses the query checks and never reads


def argsort_bytes(key, index_bytes, n=N, rows=1):
    return core.argsort_device(_arrays.KEY_CODE[key], n, rows, KEYS_IN, OUT, index_bytes, False, "auto", 0, -1, 0, 0,
                               pool_max=0)


def pairs_bytes(key, n=N):
    return core.sort_device(_arrays.KEY_CODE[key], n, 1, KEYS_IN, OUT, 1 << 42, 1 << 43, 4, False, "auto", 0, -1, 0,
                            0, pool_max=0)


def test_argsort_scratch_is_at_most_keys_and_indices():
    """f32 keys, int64 indices: 4 B of keys and 8 of indices a key, plus
    onesweep's look-back tables (it was 20 B a key)."""
    assert argsort_bytes("f32", 8) <= 12 * N + N // 4


@pytest.mark.parametrize("key", ["u8", "u16", "i32", "f32", "u64", "i64", "f64"])
@pytest.mark.parametrize("index_bytes", [4, 8])
def test_argsort_scratch_is_its_pairs_sort_and_the_sorted_indices(key, index_bytes):
    """Beyond the (key, u32 index) pairs sort's own scratch: the sorted u32
    indices for int64 output (and iota for 8-byte keys), the sorted keys
    and iota for int32 output; the rest lies in the output."""
    width = int(key[1:]) // 8
    own = {4: (width + 4) * N, 8: 4 * N if width <= 4 else 8 * N}[index_bytes]
    assert argsort_bytes(key, index_bytes) <= pairs_bytes(key) + own + 512


def test_size_query_is_pure_and_repeatable():
    sizes = {argsort_bytes("f32", 8) for _ in range(3)}
    assert len(sizes) == 1 and sizes.pop() > 0


def test_caller_scratch_is_checked():
    need = argsort_bytes("f32", 8)
    args = (_arrays.KEY_CODE["f32"], N, 1, KEYS_IN, OUT, 8, False, "auto", 0, -1, 0, 0)
    with pytest.raises(ValueError, match="aligned"):
        core.argsort_device(*args, temp=(1 << 44) + 8, temp_bytes=need)
    with pytest.raises(ValueError, match="temp_bytes"):
        core.argsort_device(*args, temp=1 << 44, temp_bytes=need - 1)


class _Calls:
    """A stand-in for a device call: it needs `need` bytes of scratch."""

    def __init__(self, need):
        self.need = need
        self.seen = []

    def __call__(self, *args, temp=0, temp_bytes=0, pool_max=-1):
        self.seen.append((args, temp, temp_bytes, pool_max))
        if temp or pool_max < 0 or self.need <= pool_max:
            return 0
        return self.need


def test_run_device_takes_large_scratch_from_the_framework(monkeypatch):
    blocks = []
    monkeypatch.setitem(_arrays._SCRATCH, "fake", lambda a, n: (blocks.append(n) or object(), 1 << 30))
    a = _arrays.Array("fake", None, 0, (4,), "float32", 4, 0, 0)
    call = _Calls(_arrays.POOL_MAX + 1)
    _arrays.run_device(a, call, 1, 2)
    assert blocks == [_arrays.POOL_MAX + 1]
    assert call.seen == [((1, 2), 0, 0, _arrays.POOL_MAX), ((1, 2), 1 << 30, _arrays.POOL_MAX + 1, -1)]


def test_run_device_small_scratch_is_one_call(monkeypatch):
    monkeypatch.setitem(_arrays._SCRATCH, "fake", lambda a, n: pytest.fail("no framework block for small scratch"))
    a = _arrays.Array("fake", None, 0, (4,), "float32", 4, 0, 0)
    call = _Calls(1000)
    _arrays.run_device(a, call, 1)
    assert call.seen == [((1,), 0, 0, _arrays.POOL_MAX)]


@pytest.mark.parametrize("fw", ["jax", "cai", "dlpack"])
def test_run_device_without_an_allocator_uses_the_pool(fw):
    a = _arrays.Array(fw, None, 0, (4,), "float32", 4, 0, 0)
    call = _Calls(1 << 40)
    _arrays.run_device(a, call, 7)
    assert call.seen == [((7,), 0, 0, -1)]


@pytest.mark.parametrize("cols", [16, 256, 4096])
def test_rows_of_up_to_4096_keys_size_no_large_class(cols):
    """Equal rows of up to 4096 keys all sort in the segmented sort's block
    classes: sort needs about 9 bytes a row (offsets and the class list),
    argsort also the sorted u32 indices."""
    rows = N // cols
    keys = core.sort_device(_arrays.KEY_CODE["f32"], N, rows, KEYS_IN, OUT, 0, 0, 0, False, "auto", 0, -1, 0, 0,
                            pool_max=0)
    assert keys <= 16 * rows + 4096
    assert argsort_bytes("f32", 8, rows=rows) <= 4 * N + 16 * rows + 4096
