# Type stubs for gpusort.jax (the functions in jax.py; docstrings there).
from typing import Any, Literal, Optional, Tuple

import jax

NanOrder = Literal["largest", "bits"]

def sort(x: Any, axis: Optional[int] = -1, descending: bool = False, stable: bool = True,
         nan: NanOrder = "largest") -> jax.Array: ...
def argsort(x: Any, axis: Optional[int] = -1, descending: bool = False, stable: bool = True,
            nan: NanOrder = "largest", dtype: Any = None) -> jax.Array: ...
def top_k(operand: Any, k: int, *, axis: int = -1, largest: bool = True, sorted: bool = True,
          nan: NanOrder = "largest", index_dtype: Any = ...) -> Tuple[jax.Array, jax.Array]: ...
