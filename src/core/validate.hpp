// Argument checks shared by the device entry and the host API: they run
// before any CUDA call, so a bad call fails the same way with or without a GPU.
#pragma once

#include <gpusort/detail/core/context.hpp>

#include <gpusort/gpusort.hpp>

#include <string>

namespace gpusort::detail {

// The order opt asks for, or a clear error for a bad direction or bit range.
template <class K> key_order<K> checked_order(const options& opt, const call_context& ctx) {
  if (opt.direction != order::ascending && opt.direction != order::descending)
    ctx.fail(errc::invalid_argument, "unknown order " + std::to_string(int(opt.direction)));
  const int width = key_traits<K>::width;
  const int end_bit = opt.end_bit < 0 ? width : opt.end_bit;
  if (opt.begin_bit < 0 || end_bit > width || opt.begin_bit >= end_bit)
    ctx.fail(errc::invalid_argument, "bad bit range [" + std::to_string(opt.begin_bit) + ", " +
                                         std::to_string(opt.end_bit) + ") for a " + std::to_string(width) + "-bit key");
  if (opt.nans != nan_order::bits && opt.nans != nan_order::largest)
    ctx.fail(errc::invalid_argument, "unknown NaN order " + std::to_string(int(opt.nans)));
  // NaNs largest is an order of whole keys: a bit range sorts by bits.
  const bool whole = opt.begin_bit == 0 && end_bit == width;
  return key_order<K>(opt.direction == order::descending, opt.begin_bit, end_bit,
                      whole && opt.nans == nan_order::largest);
}

}  // namespace gpusort::detail
