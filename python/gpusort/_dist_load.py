"""The multi-GPU extension module, loaded on first use.

`gpusort._gpusort_dist` links NCCL (libnccl.so.2); the base module does not,
so `import gpusort` works on machines without NCCL. Before the module is
imported, NCCL is loaded from the `nvidia.nccl` package when that is
installed (the nvidia-nccl-cu12 or -cu13 wheel, which PyTorch depends on),
globally, so the module's libnccl.so.2 resolves to it, as PyTorch loads
its own CUDA libraries. Otherwise the dynamic loader finds the system's
(the CUDA toolkit's, LD_LIBRARY_PATH). When PyTorch is imported first, its
NCCL is already loaded and is the one used.
"""

import ctypes
import glob
import os

_module = None

HOW_TO_GET = ("gpusort.distributed and multi-GPU host sorts need the module gpusort._gpusort_dist, built when "
              "CMake finds NCCL (nccl.h and libnccl: the CUDA toolkit's, Debian's libnccl-dev, or set NCCL_ROOT "
              "to the nvidia-nccl wheel's folder), and NCCL's library at run time (pip install nvidia-nccl-cu13, "
              "or -cu12 beside a CUDA 12 PyTorch)")


def _preload_nccl():
    """Loads libnccl.so.2 from the nvidia.nccl package, if installed; returns its path or None."""
    try:
        import nvidia.nccl as pkg
    except ImportError:
        return None
    for root in list(getattr(pkg, "__path__", [])):
        for path in sorted(glob.glob(os.path.join(root, "lib", "libnccl.so*"))):
            try:
                ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
                return path
            except OSError:
                continue
    return None


def module():
    """gpusort._gpusort_dist, or ImportError saying how to get it."""
    global _module
    if _module is None:
        preloaded = _preload_nccl()
        try:
            from . import _gpusort_dist
        except ImportError as e:
            where = f" (NCCL preloaded from {preloaded})" if preloaded else ""
            if "libnccl" in str(e):
                raise ImportError(f"gpusort: libnccl.so.2 cannot be loaded{where}: {e}. {HOW_TO_GET}") from e
            raise ImportError(f"gpusort: this build has no multi-GPU module ({e}). {HOW_TO_GET}") from e
        _module = _gpusort_dist
    return _module


def available():
    """Whether the multi-GPU module loads here."""
    try:
        module()
        return True
    except ImportError:
        return False
