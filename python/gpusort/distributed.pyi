# Type stubs for gpusort.distributed (the functions in distributed.py; docstrings there).
from typing import Any, Literal, Optional, Tuple, TypeVar, overload

ArrayT = TypeVar("ArrayT")
ValuesT = TypeVar("ValuesT")
NanOrder = Literal["largest", "bits"]

__all__ = ["sort", "sort_pairs", "release"]

@overload
def sort(x: ArrayT, group: Any = None, *, descending: bool = False, return_indices: Literal[False] = False,
         nan: NanOrder = "largest") -> ArrayT: ...
@overload
def sort(x: ArrayT, group: Any = None, *, descending: bool = False, return_indices: Literal[True],
         nan: NanOrder = "largest") -> Tuple[ArrayT, Any, Any]: ...
def sort_pairs(keys: ArrayT, values: ValuesT, group: Any = None, *, descending: bool = False,
               nan: NanOrder = "largest") -> Tuple[ArrayT, ValuesT]: ...
def release(group: Any = None) -> None: ...
def release_host_cache() -> None: ...
