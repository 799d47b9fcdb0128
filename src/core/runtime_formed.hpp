// runtime.hpp's sort_device with argsort's form (device_call.hpp), for the
// library's own index-making callers (columns_api.cpp's sorts of packed keys
// and row indices); runtime_api.cpp defines it.
#pragma once

#include "core/device_call.hpp"

#include <gpusort/runtime.hpp>

#include <cstddef>

namespace gpusort::detail {

void sort_device_formed(void* temp, std::size_t& temp_bytes, const sort_spec& s, const void* keys_in, void* keys_out,
                        const void* vals_in, void* vals_out, std::size_t val_size, const options& opt,
                        const argsort_form& form);

}  // namespace gpusort::detail
