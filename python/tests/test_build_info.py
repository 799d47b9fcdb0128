"""The commit the package was built from (gpusort._build_info, written by
cmake/commit.cmake at build time) and the bench's use of it. Runs
everywhere, CI included."""
from gpusort import _build_info, bench


def test_the_build_names_its_commit():
    # a git hash (with -dirty for uncommitted changes), what the tree's
    # .gpusort-commit names, or 'unknown' for a tree outside git: one line
    c = _build_info.commit
    assert isinstance(c, str) and c and "\n" not in c


def test_the_bench_names_the_built_commit(monkeypatch):
    monkeypatch.delenv("GPUSORT_COMMIT", raising=False)
    assert bench._commit() == _build_info.commit
    monkeypatch.setenv("GPUSORT_COMMIT", "0123abcd")
    assert bench._commit() == "0123abcd"
