// The multi-GPU sort's typed entry over any transport: the public calls
// (include/gpusort/multi.hpp) pass NCCL's, the GPU tests a fabric of
// threads on one device (tests/multi_fabric.hpp). Defined in api.cpp.
#pragma once

#include "multi/transport.hpp"

#include <gpusort/multi.hpp>

#include <cstddef>

namespace gpusort::detail::multi {

template <class K>
gpusort::multi::result sort_with(transport& tx, void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out,
                                 const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n,
                                 std::size_t capacity, const gpusort::multi::options& opt, const char* op);

}  // namespace gpusort::detail::multi
