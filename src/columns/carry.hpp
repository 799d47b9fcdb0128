// Records carried in their packed keys. When a record sort's fields tile
// the record (plan.hpp's fields_tile_record: every byte is key, at most 64
// bits), the packed key of its one pass holds the whole record, so the
// radix sort carries the records in its keys and one kernel writes them back
// from the sorted keys: no permutation, no gather of scattered records.
// Beside each key the sort carries a payload: the record's value, so the
// values need no gather either.
//
// The packed key loses bits where key_order's folds change a key (a -0.0
// taking +0.0's place, a NaN folded under nans largest). The bounds kernel
// notes that on the device (launch_column_bounds's `folded`); then the payload
// is the row instead, and the records and values move by row, as in the
// general path. Both ways are launched; the flag picks inside the kernels,
// so the call needs no host synchronisation.
#pragma once

#include "columns/pack.hpp"

#include <gpusort/detail/core/context.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::columns {

struct carried_record {
  unsigned offset[max_packed] = {};  // the byte offset of each of the group's columns in the record
  unsigned record_bytes = 0;         // 1 to 8
  unsigned store_bytes = 1;          // the widest store the record size and the output's address allow
};

// keys[i] = the packed bits of record i (launch_pack's layout, in input order);
// payload[i] = vals[i], or i when *folded or vals is null (payload_bytes 4
// or 8, the values' width); no payload when it is null.
void launch_pack_carried(const call_context& ctx, const packed_group& g, const std::uint64_t* bounds,
                         const unsigned* folded, const void* vals, void* keys, void* payload, int payload_bytes,
                         std::size_t n, cudaStream_t s);
// dst = src (bytes) when *folded, else nothing: the in-place calls keep what
// the moves by row will read.
void launch_stage_if_folded(const call_context& ctx, const unsigned* folded, const void* src, void* dst,
                            std::size_t bytes, cudaStream_t s);
// records_out[i] = the record packed in keys[i]; the values are already in
// vals_out (the sort's payload output). When *folded instead, with row =
// payload[i]: records_out[i] = records_src[row] and, with vals_out,
// vals_out[i] = vals_src[row]. payload may be vals_out.
void launch_unpack_carried(const call_context& ctx, const packed_group& g, const carried_record& r,
                           const std::uint64_t* bounds, const unsigned* folded, const void* keys, const void* payload,
                           int payload_bytes, const void* records_src, void* records_out, const void* vals_src,
                           void* vals_out, std::size_t n, cudaStream_t s);

}  // namespace gpusort::detail::columns
