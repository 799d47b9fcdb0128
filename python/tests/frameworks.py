"""The GPU array frameworks the suites run on: those of torch, cupy and jax
that import here, with JAX's 64-bit types on (64-bit keys stay 64-bit)."""


def installed():
    names = []
    for name in ("torch", "cupy", "jax"):
        try:
            __import__(name)
            names.append(name)
        except ImportError:
            pass
    if "jax" in names:
        import jax
        jax.config.update("jax_enable_x64", True)
    return names
