// Top-k of 128-bit integer keys (topk.hpp's topk_keys, topk_indices and
// topk_pairs with unsigned __int128 or __int128): the stable permutation of
// the record sort of their halves (wide.cpp), best first (descending for
// the largest), whose first k entries are the winners best first, equal
// keys by their lowest index (topk.hpp's rule, since the sort is stable).
// Unsorted output takes those k indices in ascending order (a radix sort of
// k indices). Then one gather each moves the keys and the values, and the
// indices are written at the width asked for.
//
// A whole sort, not a selection: about the bytes of wide.cpp's sort of all
// n keys, whatever k (the radix selection of the other keys, RadiK, reads
// the keys about twice). Stream-ordered, no host synchronisation.
#include "core/gather.hpp"
#include "core/rows.hpp"
#include "core/two_phase.hpp"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/detail/wide_key.hpp>
#include <gpusort/runtime.hpp>
#include <gpusort/topk.hpp>

#include <cstdint>
#include <string>

namespace gpusort::detail {

namespace {

// out[i] = in[i] as 32-bit indices (every index below 2^32).
__global__ void narrow_kernel(const std::uint64_t* in, std::uint32_t* out, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = std::uint32_t(in[i]);
}

}  // namespace

void topk_wide_device(void* temp, std::size_t* temp_bytes, bool is_signed, const void* keys_in, void* keys_out,
                      void* idx_out, int index_bytes, const void* vals_in, void* vals_out, std::size_t val_size,
                      std::size_t n, std::size_t k, const topk_options& topt, const char* op) {
  const call_context ctx =
      make_context(op, is_signed ? "i128" : "u128", "radix", n, temp && temp_bytes ? *temp_bytes : 0);
  if (!temp_bytes) ctx.fail(errc::invalid_argument, "temp_bytes is null");
  if (k > n) ctx.fail(errc::invalid_argument, "k = " + std::to_string(k) + " is more than n = " + std::to_string(n));
  if (index_bytes == 4 && n > 0x100000000ull)
    ctx.fail(errc::invalid_argument, "32-bit indices for " + std::to_string(n) + " keys");
  options opt;
  opt.stream = topt.stream;
  check_wide_call(ctx, keys_in, keys_out, vals_in, vals_out, val_size, k, opt);
  if (k > 0 && idx_out == nullptr && index_bytes != 0) ctx.fail(errc::invalid_argument, "null indices with k > 0");
  const bool wide = n > 0x7FFFFFFFull;  // the permutation's width: the columns' int32 rows hold fewer than 2^31
  const int ib = wide ? 8 : 4;
  const key_type index_key = wide ? key_type::u64 : key_type::u32;
  const order dir = topt.largest ? order::descending : order::ascending;
  const auto phases = [&](void* base) {
    const bool sizing = base == nullptr;
    temp_layout L(base);
    void* perm = L.take<std::uint8_t>(n * std::size_t(ib));
    void* winners = L.take<std::uint8_t>(k * std::size_t(ib));  // unsorted output: the k indices ascending
    // keys (values) out over keys (values) in: gathered here first
    void* staged = keys_out == keys_in ? L.take<std::uint8_t>(k * 16) : nullptr;
    void* staged_vals = val_size && vals_out == vals_in ? L.take<std::uint8_t>(k * val_size) : nullptr;
    key_column fields[2];
    wide_fields(is_signed, sizing ? stand_in<void>(0) : keys_in, dir, fields);
    std::size_t sort_bytes = 0;
    sort_by_columns_device(nullptr, sort_bytes, fields, 2, n, sizing ? stand_in<void>(1) : perm, ib, opt);
    std::size_t index_sort_bytes = 0;
    if (!topt.sorted)
      gpusort::sort_device(nullptr, index_sort_bytes, sort_spec{index_key, k, 1}, stand_in<void>(2), stand_in<void>(3),
                           nullptr, nullptr, 0, opt);
    void* inner = L.take<std::uint8_t>(sort_bytes > index_sort_bytes ? sort_bytes : index_sort_bytes);
    if (sizing || k == 0) return L.bytes();
    sort_by_columns_device(inner, sort_bytes, fields, 2, n, perm, ib, opt);
    const void* order_of = perm;  // the k winners' indices, in output order
    if (!topt.sorted) {
      gpusort::sort_device(inner, index_sort_bytes, sort_spec{index_key, k, 1}, perm, winners, nullptr, nullptr, 0,
                           opt);
      order_of = winners;
    }
    const auto move = [&](const void* in, void* out, void* stage_at, std::size_t width, const char* what) {
      launch_gather(ctx, in, stage_at ? stage_at : out, order_of, wide, k, width, opt.stream);
      if (stage_at) ctx.check(cudaMemcpyAsync(out, stage_at, k * width, cudaMemcpyDeviceToDevice, opt.stream), what);
    };
    move(keys_in, keys_out, staged, 16, "cudaMemcpyAsync(keys)");
    if (val_size) move(vals_in, vals_out, staged_vals, val_size, "cudaMemcpyAsync(values)");
    if (idx_out) {
      if (index_bytes == ib) {
        ctx.check(cudaMemcpyAsync(idx_out, order_of, k * std::size_t(ib), cudaMemcpyDeviceToDevice, opt.stream),
                  "cudaMemcpyAsync(indices)");
      } else if (index_bytes == 8) {  // 32-bit permutation, 64-bit indices
        launch_widen(ctx, order_of, idx_out, k, opt.stream);
      } else {  // 64-bit permutation of fewer than 2^32 keys, 32-bit indices
        narrow_kernel<<<grid_for(k, 256), 256, 0, opt.stream>>>(static_cast<const std::uint64_t*>(order_of),
                                                                static_cast<std::uint32_t*>(idx_out), k);
        ctx.check_launch("top-k 128-bit indices");
      }
    }
    return L.bytes();
  };
  two_phase(ctx, temp, *temp_bytes, phases);
}

void topk_wide_device_alloc(bool is_signed, const void* keys_in, void* keys_out, void* idx_out, int index_bytes,
                            const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n, std::size_t k,
                            const topk_options& opt, const char* op) {
  allocating_call(make_context(op, is_signed ? "i128" : "u128", "radix", n), opt.stream,
                  [&](void* temp, std::size_t& bytes) {
                    topk_wide_device(temp, &bytes, is_signed, keys_in, keys_out, idx_out, index_bytes, vals_in,
                                     vals_out, val_size, n, k, opt, op);
                  });
}

}  // namespace gpusort::detail
