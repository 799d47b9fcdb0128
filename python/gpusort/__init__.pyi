# Type stubs for gpusort (the functions in __init__.py, _partition.py and _columns.py; docstrings there).
from typing import Any, Literal, Optional, Sequence, Tuple, TypeVar, Union

ArrayT = TypeVar("ArrayT")
ValuesT = TypeVar("ValuesT")
Algorithm = Literal["auto", "odd_even", "bitonic", "radix_split", "radix_tile", "radix_onesweep", "radix_msd",
                    "merge_recursive", "merge_bottom_up", "merge_path", "sample", "quick"]
NanOrder = Literal["largest", "bits"]
IndexDtype = Literal["int64", "int32"]
Kind = Optional[Literal["quicksort", "mergesort", "heapsort", "stable"]]

__version__: str

class DeviceArray:
    shape: Tuple[int, ...]
    dtype: Any
    @property
    def __cuda_array_interface__(self) -> dict: ...
    def __dlpack__(self, *, stream: Optional[int] = ..., max_version: Any = ..., dl_device: Any = ...,
                   copy: Optional[bool] = ...) -> Any: ...
    def __dlpack_device__(self) -> Tuple[int, int]: ...

def gpu_available() -> bool: ...
def release_memory() -> None: ...
def algorithms() -> dict[str, bool]: ...
Devices = Optional[Union[int, Sequence[int]]]

def sort(x: ArrayT, *, axis: Optional[int] = -1, descending: bool = False, stable: bool = True,
         algorithm: Algorithm = "auto", begin_bit: Optional[int] = None, end_bit: Optional[int] = None,
         nan: NanOrder = "largest", kind: Kind = None, order: None = None, out: Optional[ArrayT] = None,
         devices: Devices = None) -> ArrayT: ...
def sort_(x: ArrayT, *, axis: Optional[int] = -1, descending: bool = False, stable: bool = True,
          algorithm: Algorithm = "auto", begin_bit: Optional[int] = None, end_bit: Optional[int] = None,
          nan: NanOrder = "largest", kind: Kind = None, order: None = None, devices: Devices = None) -> ArrayT: ...
def topk(x: ArrayT, k: int, dim: Optional[int] = -1, largest: bool = True, sorted: bool = True, *,
         nan: NanOrder = "largest") -> Tuple[ArrayT, ArrayT]: ...
def argsort(x: ArrayT, *, axis: Optional[int] = -1, descending: bool = False, stable: bool = True,
            algorithm: Algorithm = "auto", begin_bit: Optional[int] = None, end_bit: Optional[int] = None,
            index_dtype: Literal["int64", "int32"] = "int64", nan: NanOrder = "largest", kind: Kind = None,
            order: None = None, out: Any = None) -> ArrayT: ...
def sort_pairs(keys: ArrayT, values: ValuesT, *, axis: Optional[int] = -1, descending: bool = False,
               stable: bool = True, algorithm: Algorithm = "auto", begin_bit: Optional[int] = None,
               end_bit: Optional[int] = None, nan: NanOrder = "largest", kind: Kind = None, order: None = None,
               out: Optional[Tuple[ArrayT, ValuesT]] = None) -> Tuple[ArrayT, ValuesT]: ...
def sort_pairs_(keys: ArrayT, values: ValuesT, *, axis: Optional[int] = -1, descending: bool = False,
                stable: bool = True, algorithm: Algorithm = "auto", begin_bit: Optional[int] = None,
                end_bit: Optional[int] = None, nan: NanOrder = "largest", kind: Kind = None,
                order: None = None) -> Tuple[ArrayT, ValuesT]: ...
def segmented_sort(x: ArrayT, offsets: Any, *, values: Any = None, descending: bool = False,
                   begin_bit: Optional[int] = None, end_bit: Optional[int] = None,
                   nan: NanOrder = "largest") -> Any: ...
def partition(a: ArrayT, kth: Union[int, Sequence[int]], axis: Optional[int] = -1,
              kind: Literal["introselect"] = "introselect", order: None = None, *,
              nan: NanOrder = "largest") -> ArrayT: ...
def argpartition(a: ArrayT, kth: Union[int, Sequence[int]], axis: Optional[int] = -1,
                 kind: Literal["introselect"] = "introselect", order: None = None, *,
                 nan: NanOrder = "largest") -> ArrayT: ...
def sort_by(columns: Union[Sequence[Any], Any], descending: Union[bool, Sequence[bool]] = False, *,
            nan: NanOrder = "largest", index_dtype: IndexDtype = "int64") -> Any: ...
def lexsort(keys: Union[Sequence[Any], Any], axis: int = -1, *, nan: NanOrder = "largest") -> Any: ...
