"""gpusort.distributed and gpusort.sort(devices=) without GPUs: the API's
shape, the import without the multi-GPU module, the pre-check records and
their verdicts, the source pointers, argument errors (every rank enters the
pre-check before raising: a fake group records it), and devices= checks.
The runs on GPUs: test_distributed_gpu.py and test_distributed_ranks.py."""
import importlib
import inspect
import subprocess
import sys

import numpy as np
import pytest

import gpusort
from gpusort import _dist_load, _host_multi
from gpusort import _dist_records as rec

try:
    from hypothesis import given, strategies as st
except ImportError:
    given = None

needs_module = pytest.mark.skipif(not _dist_load.available(),
                                  reason="no gpusort._gpusort_dist in this build (CMake found no NCCL)")
NAMES = [n for n, _ in sorted(gpusort._arrays.KEY_CODE_OF_DTYPE.items(), key=lambda kv: kv[1])]


# ---- the module and the import ----------------------------------------------------------------
def test_base_package_imports_without_the_multi_gpu_module():
    code = ("import sys; sys.modules['gpusort._gpusort_dist'] = None\n"
            "import numpy as np, gpusort\n"
            "assert (gpusort.sort(np.array([3, 1, 2], np.int32)) == [1, 2, 3]).all()\n"
            "try:\n    import gpusort.distributed\nexcept ImportError as e:\n    print(e)\n"
            "else:\n    raise SystemExit('imported')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "gpusort._gpusort_dist" in r.stdout and "NCCL" in r.stdout and "nvidia-nccl" in r.stdout


def test_import_error_says_how_to_get_the_module(monkeypatch):
    monkeypatch.setitem(sys.modules, "gpusort._gpusort_dist", None)
    monkeypatch.delattr(gpusort, "_gpusort_dist", raising=False)
    monkeypatch.delitem(sys.modules, "gpusort.distributed", raising=False)
    monkeypatch.setattr(_dist_load, "_module", None)
    with pytest.raises(ImportError, match="CMake finds NCCL"):
        importlib.import_module("gpusort.distributed")
    assert not _dist_load.available()


@needs_module
def test_api_shape():
    import gpusort.distributed as gd
    assert gd.__all__ == ["sort", "sort_pairs", "release"]
    p = inspect.signature(gd.sort).parameters
    assert list(p) == ["x", "group", "descending", "return_indices", "nan"]
    assert all(p[k].kind is inspect.Parameter.KEYWORD_ONLY for k in ("descending", "return_indices", "nan"))
    p = inspect.signature(gd.sort_pairs).parameters
    assert list(p) == ["keys", "values", "group", "descending", "nan"]
    assert "devices" in inspect.signature(gpusort.sort).parameters


@needs_module
def test_module_calls_that_need_no_gpu():
    m = _dist_load.module()
    assert m.nccl_version() >= 21700
    assert len(m.unique_id()) == m.unique_id_bytes() == 128
    for n, p in ((0, 2), (10, 2), (1 << 31, 2), (1 << 32, 4), (10**6, 3)):
        share = -(-n // p)
        assert m.output_capacity(n, p) == max(share + share // 16 + 1, min(n, 65536))
    with pytest.raises(ValueError, match="unique id of 3 bytes"):
        m.comm_init(b"abc", 2, 0, 0)
    with pytest.raises(ValueError, match="rank 2 of 2"):
        m.comm_init(m.unique_id(), 2, 2, 0)
    with pytest.raises(ValueError, match="null NCCL communicator"):
        m.sort_device(0, 2, 10, 10, 0, 0, 0, 0, 0, False, True, 0, 0, query=True)
    with pytest.raises(ValueError, match="unknown key type code"):
        m.sort_device(1, 99, 10, 10, 0, 0, 0, 0, 0, False, True, 0, 0, query=True)


# ---- records and verdicts ---------------------------------------------------------------------
def _records(p, key=6, vsize=0, desc=False, nl=True, sizes=None):
    sizes = sizes or [5] * p
    return [rec.record(rec.OK, key, vsize, desc, nl, sizes[q]) for q in range(p)]


def test_verdicts():
    assert rec.verdict(_records(3), 0, "sort", NAMES) is None
    r = _records(2)
    r[1][2] = 7
    e = rec.verdict(r, 0, "sort", NAMES)
    assert isinstance(e, TypeError) and "rank 0: int32" in str(e) and "rank 1: int64" in str(e)
    r = _records(2, vsize=8)
    r[0][3] = 0
    assert isinstance(rec.verdict(r, 1, "sort_pairs", NAMES), TypeError)
    r = _records(2)
    r[1][4] = 1
    assert "descending=" in str(rec.verdict(r, 0, "sort", NAMES))
    r = _records(2)
    r[1][0] = 0
    assert isinstance(rec.verdict(r, 0, "sort", NAMES), RuntimeError)
    r = _records(3)
    r[2][1] = rec.WRONG_DEVICE
    e = rec.verdict(r, 0, "sort", NAMES)
    assert isinstance(e, ValueError) and "rank 2" in str(e) and "current CUDA device" in str(e)
    own = rec.CheckError(rec.WRONG_DEVICE, ValueError("precise"))
    assert rec.verdict(r, 2, "sort", NAMES, own) is own.exc
    assert rec.total(_records(3, sizes=[1, 0, 7])) == 8


def test_source_pointers():
    pos = np.arange(10, dtype=np.int64)
    packed = rec.pack_source(3, pos)
    r, p = rec.unpack_source(packed)
    assert (r == 3).all() and (p == pos).all()
    with pytest.raises(ValueError):
        rec.pack_source(rec.MAX_RANKS, pos)


if given is not None:
    @given(st.integers(0, rec.MAX_RANKS - 1), st.lists(st.integers(0, rec.POSITION_MASK), max_size=50))
    def test_source_pointers_round_trip(rank, positions):
        pos = np.array(positions, dtype=np.int64)
        r, p = rec.unpack_source(rec.pack_source(rank, pos))
        assert (r == rank).all() and (p == pos).all()
        assert (rec.pack_source(rank, pos) >= 0).all()

    @given(st.integers(1, 8), st.integers(0, 11), st.integers(0, 16), st.booleans(), st.booleans(),
           st.lists(st.integers(0, 1 << 40), min_size=8, max_size=8), st.data())
    def test_verdict_of_agreeing_ranks_and_of_one_that_differs(p, key, vsize, desc, nl, sizes, data):
        r = _records(p, key, vsize, desc, nl, sizes)
        assert rec.verdict(r, 0, "sort", NAMES) is None and rec.total(r) == sum(sizes[:p])
        if p > 1:
            q, field = data.draw(st.integers(1, p - 1)), data.draw(st.sampled_from([1, 2, 3, 4, 5]))
            r[q][field] += 1
            assert isinstance(rec.verdict(r, 0, "sort", NAMES), (TypeError, ValueError, MemoryError))
else:
    def test_hypothesis_cases():
        pytest.skip("hypothesis is not installed")


# ---- argument errors: raised after the pre-check, on every rank -----------------------------
class FakeGroup:
    """Rank 0 of p ranks whose other ranks send `others` (a record each)."""
    kind = "fake"

    def __init__(self, others):
        self.obj, self.rank, self.size, self.others, self.gathered = self, 0, 1 + len(others), others, 0

    @staticmethod
    def current_device():
        return 0

    def all_gather_ints(self, values, device):
        self.gathered += 1
        return [list(values)] + [list(o) for o in self.others]


@needs_module
@pytest.mark.parametrize("x, exc, text", [
    (np.zeros(4, np.float32), TypeError, "PyTorch tensor or CuPy array"),
    ([1, 2, 3], TypeError, "PyTorch tensor or CuPy array"),
])
def test_local_faults_enter_the_pre_check_first(monkeypatch, x, exc, text):
    import gpusort.distributed as gd
    g = FakeGroup([rec.record(rec.OK, 6, 0, False, True, 4)])
    monkeypatch.setattr(gd._dist_groups, "group_for", lambda group, fw: g)
    with pytest.raises(exc, match=text):
        gd.sort(x)
    assert g.gathered == 1


@needs_module
def test_another_ranks_fault_is_raised_here(monkeypatch):
    import gpusort.distributed as gd
    g = FakeGroup([rec.record(rec.NOT_1D, 0, 0, False, True, 0)])
    monkeypatch.setattr(gd._dist_groups, "group_for", lambda group, fw: g)
    monkeypatch.setattr(gd, "_check_keys", lambda x, fw, fn, dev: (None, 6))
    with pytest.raises(ValueError, match="rank 1 failed its checks .its shard is not 1-D"):
        gd.sort(object())
    with pytest.raises(ValueError, match="nan must be"):
        gd.sort(object(), nan="first")
    assert g.gathered == 2


@needs_module
def test_group_type_is_checked():
    import gpusort.distributed as gd
    with pytest.raises(TypeError, match="ProcessGroup or an mpi4py communicator"):
        gd.sort(np.zeros(3, np.float32), group=object())


# ---- gpusort.sort(host_array, devices=) -----------------------------------------------------
def test_devices_arguments():
    x = np.arange(100, 0, -1, dtype=np.int64)
    assert (gpusort.sort(x, devices=1) == np.arange(1, 101)).all()
    assert (gpusort.sort(x, devices=[0]) == np.arange(1, 101)).all()
    with pytest.raises(ValueError, match="at least one GPU"):
        gpusort.sort(x, devices=0)
    with pytest.raises(TypeError, match="not a bool"):
        gpusort.sort(x, devices=True)
    with pytest.raises(ValueError, match="first g GPUs"):
        gpusort.sort(x, devices=[1])
    with pytest.raises(ValueError, match="first g GPUs"):
        gpusort.sort(x, devices=[0, 2])
    if _dist_load.available():
        with pytest.raises(ValueError, match="1-D array"):
            gpusort.sort(x.reshape(10, 10), devices=2)
        with pytest.raises(ValueError, match="whole keys"):
            gpusort.sort(x, devices=2, begin_bit=4)
        with pytest.raises(ValueError, match="GPUs, .* visible"):
            gpusort.sort(x, devices=4096)


def test_devices_default_keeps_one_gpu_below_the_threshold(monkeypatch):
    calls = []
    monkeypatch.setattr(_host_multi, "sort", lambda *a: calls.append(a))
    x = np.random.default_rng(3).integers(0, 1000, 5000).astype(np.uint32)
    assert (gpusort.sort(x) == np.sort(x)).all() and not calls
    if _dist_load.available() and _dist_load.module().device_count() < 2:
        monkeypatch.setattr(_host_multi, "MULTI_MIN_KEYS", 1)
        assert (gpusort.sort(x) == np.sort(x)).all() and not calls
