// The segmented sort's device entry (segmented_api.cu) for callers that know
// the longest segment there can be: the run-time API's equal rows. The
// segmented sort sizes its scratch for every size class a segment of n keys
// could reach; told that none is longer than `longest`, it sizes none for the
// classes above (rows of up to 4096 keys: no large-class buffers, which are
// K + 12 bytes a key with values).
#pragma once

#include <gpusort/gpusort.hpp>

#include <cstddef>

namespace gpusort::detail {

template <class K>
void segmented_sort_device(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, const void* vals_in,
                           void* vals_out, std::size_t val_size, std::size_t n, std::size_t num_segments,
                           const void* begin_offsets, const void* end_offsets, int offset_bytes, const options& opt,
                           const char* op, std::size_t longest);

}  // namespace gpusort::detail
