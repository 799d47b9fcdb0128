// Top-k of each row or segment of 128-bit integer keys (topk.hpp's
// topk_rows and segmented_topk with unsigned __int128 or __int128):
//
//   1. sort    wide_segmented.cu's segmented sort of the keys, best first
//              (descending for the largest), with their positions as
//              values. Stable, so equal keys keep the lowest position first
//              (topk.hpp's rule for ties)
//   2. first   gidx[s * k + j] = the j-th sorted position of segment s for
//              j < min(k, its size), else ~0 (slots past a short segment)
//   3. order   unsorted output: each segment's k slots sorted by position
//              (a segmented sort of the gidx lists; ~0 sorts last), so every
//              segment comes back in input order
//   4. finish  top-k's finish (src/topk/finish.hpp): the keys gathered by
//              gidx into keys_out (slots of ~0 keep their keys), the indices
//              made local to the segment, -1 past a short segment
//
// A whole segmented sort, not a selection: about the bytes of sorting all
// n keys with 8-byte values, whatever k. Segments must not overlap (as the
// segmented sort's). No host synchronisation: the segment sizes stay on the
// device.
#include "core/gather.hpp"
#include "core/rows.hpp"
#include "core/two_phase.hpp"
#include "segmented/bins.cuh"
#include "topk/finish.hpp"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/gpusort.hpp>
#include <gpusort/runtime.hpp>
#include <gpusort/topk.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

namespace gpusort::detail {

namespace {

// 2. A block a segment at a time: its first k slots.
__global__ void first_k_kernel(segmented::offsets off, std::size_t segments, std::size_t k,
                               const std::uint64_t* sorted_pos, std::uint64_t* gidx) {
  for (std::size_t s = blockIdx.x; s < segments; s += gridDim.x) {
    std::size_t first = 0, last = 0;
    off.span(s, first, last);
    const std::size_t m = last - first < k ? last - first : k;
    for (std::size_t j = threadIdx.x; j < k; j += blockDim.x)
      gidx[s * k + j] = j < m ? sorted_pos[first + j] : ~std::uint64_t(0);
  }
}

void check_call(const call_context& ctx, const std::size_t* temp_bytes, const void* keys_in, const void* keys_out,
                int index_bytes, std::size_t n, std::size_t num_segments, const void* begin, const void* end,
                int offset_bytes, std::size_t row_len, std::size_t k) {
  if (!temp_bytes) ctx.fail(errc::invalid_argument, "temp_bytes is null");
  if (n > 0 && !keys_in) ctx.fail(errc::invalid_argument, "null key pointer with n > 0");
  if (k * num_segments > 0 && !keys_out) ctx.fail(errc::invalid_argument, "null output pointer with k > 0");
  if (index_bytes != 0 && index_bytes != 4 && index_bytes != 8)
    ctx.fail(errc::invalid_argument, "indices must be 32- or 64-bit integers");
  const auto misaligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 != 0; };
  if (misaligned(keys_in) || misaligned(keys_out))
    ctx.fail(errc::invalid_argument, "128-bit keys must be 16-byte aligned");
  const bool rows = row_len > 0;
  if (rows && k > row_len) ctx.fail(errc::invalid_argument, "k = " + std::to_string(k) + " is larger than a row");
  if (!rows && num_segments > 0 && (!begin || !end)) ctx.fail(errc::invalid_argument, "null offsets with segments");
  if (offset_bytes != 4 && offset_bytes != -4 && offset_bytes != 8 && offset_bytes != -8)
    ctx.fail(errc::invalid_argument, "offsets must be 32- or 64-bit integers");
  if (num_segments > 0xFFFFFFFFull)
    ctx.fail(errc::invalid_argument, std::to_string(num_segments) + " segments (at most 2^32 - 1)");
}

}  // namespace

void segmented_topk_wide_device(void* temp, std::size_t* temp_bytes, bool is_signed, const void* keys_in,
                                void* keys_out, void* idx_out, int index_bytes, std::size_t n,
                                std::size_t num_segments, const void* begin, const void* end, int offset_bytes,
                                std::size_t row_len, std::size_t k, const topk_options& topt, const char* op) {
  const call_context ctx =
      make_context(op, is_signed ? "i128" : "u128", "radix", n, temp && temp_bytes ? *temp_bytes : 0);
  check_call(ctx, temp_bytes, keys_in, keys_out, index_bytes, n, num_segments, begin, end, offset_bytes, row_len, k);
  const bool rows = row_len > 0;
  options by_key;  // best first: the largest descending
  by_key.stream = topt.stream;
  by_key.direction = topt.largest ? order::descending : order::ascending;
  options by_position;
  by_position.stream = topt.stream;
  const std::size_t slots = num_segments * k;
  const auto phases = [&](void* base) {
    const bool sizing = base == nullptr;
    temp_layout L(base);
    auto* row_offsets = L.take<std::uint64_t>(rows ? num_segments + 1 : 0);
    auto* pos = L.take<std::uint64_t>(n);
    auto* sorted_pos = L.take<std::uint64_t>(n);
    void* sorted_keys = L.take<std::uint8_t>(n * 16);
    auto* gidx = L.take<std::uint64_t>(slots);
    auto* list_offsets = L.take<std::uint64_t>(topt.sorted ? 0 : num_segments + 1);
    const void* b = rows ? static_cast<const void*>(row_offsets) : begin;
    const void* e = rows ? static_cast<const void*>(row_offsets + 1) : end;
    const int ob = rows ? 8 : offset_bytes;
    std::size_t sort_bytes = 0, order_bytes = 0;
    if (n > 0 && num_segments > 0)
      segmented_sort_wide_device(nullptr, &sort_bytes, is_signed, stand_in<void>(0), stand_in<void>(1),
                                 stand_in<void>(2), stand_in<void>(3), 8, n, num_segments, stand_in<void>(4),
                                 stand_in<void>(5), ob, by_key, op);
    if (!topt.sorted && slots > 0)
      segmented_sort_device(nullptr, order_bytes, key_type::u64, slots, num_segments, stand_in<void>(6), nullptr, 0,
                            stand_in<void>(7), 8, by_position);
    void* inner = L.take<std::uint8_t>(std::max(sort_bytes, order_bytes));
    if (sizing || slots == 0) return L.bytes();
    const cudaStream_t st = topt.stream;
    if (rows) launch_row_offsets(ctx, row_offsets, 8, num_segments, row_len, st);
    if (n > 0) {
      launch_iota(ctx, pos, true, n, st);
      segmented_sort_wide_device(inner, &sort_bytes, is_signed, keys_in, sorted_keys, pos, sorted_pos, 8, n,
                                 num_segments, b, e, ob, by_key, op);
    }
    const segmented::offsets off{b, e, ob, n};
    first_k_kernel<<<grid_for(num_segments, 1, std::size_t(1) << 16), 256, 0, st>>>(off, num_segments, k, sorted_pos,
                                                                                  gidx);
    ctx.check_launch("top-k 128-bit first k");
    if (!topt.sorted) {
      launch_row_offsets(ctx, list_offsets, 8, num_segments, k, st);
      segmented_sort_device(inner, order_bytes, key_type::u64, slots, num_segments, gidx, nullptr, 0, list_offsets, 8,
                            by_position);
    }
    topk::launch_finish(ctx, gidx, slots, k, &off, idx_out, index_bytes, keys_in, keys_out, 16, st);
    return L.bytes();
  };
  two_phase(ctx, temp, *temp_bytes, phases);
}

void segmented_topk_wide_device_alloc(bool is_signed, const void* keys_in, void* keys_out, void* idx_out,
                                      int index_bytes, std::size_t n, std::size_t num_segments, const void* begin,
                                      const void* end, int offset_bytes, std::size_t row_len, std::size_t k,
                                      const topk_options& opt, const char* op) {
  allocating_call(make_context(op, is_signed ? "i128" : "u128", "radix", n), opt.stream,
                  [&](void* temp, std::size_t& bytes) {
                    segmented_topk_wide_device(temp, &bytes, is_signed, keys_in, keys_out, idx_out, index_bytes, n,
                                               num_segments, begin, end, offset_bytes, row_len, k, opt, op);
                  });
}

}  // namespace gpusort::detail
