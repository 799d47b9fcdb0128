// Sorting rows of a table by several key columns: the stable permutation
// that orders the rows by the first column, ties by the second, and so on,
// each column ascending or descending, remaining ties by row index (as
// numpy.lexsort, whose last key is primary, or a data frame's sort by
// several columns).
//
//   gpusort::key_column cols[] = {
//       {gpusort::key_type::i32, d_country},
//       {gpusort::key_type::f64, d_score, gpusort::order::descending}};
//   gpusort::sort_by_columns_device(cols, 2, n, d_perm, 8, opt);   // int64 rows
//
// Each column is ordered as a sort of that key type orders it (options.hpp:
// -0.0 equal to +0.0; NaNs by opt.nans, every NaN equal under
// nan_order::largest). The columns' order-preserving bits are packed into
// one normalized key, first column highest, and sorted with the radix sort:
// columns of up to 64 bits in all take one stable sort of (key, row) pairs;
// wider tables take one such sort per 64-bit group of columns, least
// significant first (src/columns/plan.hpp).
//
// Device calls are two-phase (temp == nullptr sizes the scratch) and
// stream-ordered on opt.stream with no host synchronisation, so they can be
// captured in a CUDA graph; opt.direction, the bit range and opt.algo do
// not apply (each column has its own direction; the sort is the stable
// radix sort). The host call takes host columns: the GPU sorts them when
// one is present, else the CPU.
#pragma once

#include <gpusort/runtime.hpp>

#include <cstddef>

namespace gpusort {

struct key_column {
  key_type key = key_type::u32;
  const void* data = nullptr;  // n keys of type `key`
  order direction = order::ascending;
  // Bytes from one key to the next (a field of an array of structs); 0: the
  // keys lie packed (size_of(key)). A multiple of the key's alignment.
  std::size_t stride = 0;
};

// indices_out[i] = the row that comes i-th, as int32 (index_bytes 4, fewer
// than 2^31 rows) or int64 (8). Columns and indices in device memory.
void sort_by_columns_device(void* temp, std::size_t& temp_bytes, const key_column* columns, std::size_t num_columns,
                            std::size_t n, void* indices_out, int index_bytes, const options& opt = {});
// The same with scratch from cudaMallocAsync on opt.stream.
void sort_by_columns_device(const key_column* columns, std::size_t num_columns, std::size_t n, void* indices_out,
                            int index_bytes, const options& opt = {});
// Records (an array of n structs of record_bytes each), sorted by their
// fields: fields[f].data points at field f of the first record of
// records_in (its stride is record_bytes), first field primary, each in its
// own direction; records_out receives the records in that order, stable,
// and vals_out the values (val_size bytes each, 0 for none) with them.
// records_out may equal records_in (and vals_out vals_in). This is what
// CUB's decomposer sorts (structs.hpp gives that interface).
void sort_records_device(void* temp, std::size_t& temp_bytes, const void* records_in, void* records_out,
                         std::size_t record_bytes, const key_column* fields, std::size_t num_fields, std::size_t n,
                         const void* vals_in, void* vals_out, std::size_t val_size, const options& opt = {});
// Host columns and indices: copied to the GPU and sorted there when one is
// present (strided columns are packed on the way), else sorted on the CPU
// (the same packed keys, each pass a parallel stable sort); returns when
// done.
void sort_by_columns_host(const key_column* columns, std::size_t num_columns, std::size_t n, void* indices_out,
                          int index_bytes, const options& opt = {});

}  // namespace gpusort
