// carry.hpp's kernels: grid-stride loops over the records (layout.cuh's for_rows,
// and for_row_batches where a batch's keys are loaded together).
#include "columns/carry.hpp"
#include "columns/layout.cuh"
#include "columns/ordered.hpp"

#include <gpusort/detail/core/launch.cuh>

namespace gpusort::detail::columns {
namespace {

template <int C, class Key, class Pay>
__global__ void pack_carried_kernel(packed_group g, const std::uint64_t* bounds, const unsigned* folded,
                                    const Pay* vals, Key* keys, Pay* payload, std::size_t n) {
  const packed_layout layout(g, bounds);
  const bool rows = vals == nullptr || *folded != 0;
  for_row_batches(n, [&](const std::size_t(&row)[rows_a_thread], const bool(&live)[rows_a_thread]) {
    std::uint64_t k[rows_a_thread];
    pack_batch<C>(g, layout, row, live, k);
#pragma unroll
    for (int u = 0; u < rows_a_thread; ++u) {
      if (!live[u]) continue;
      keys[row[u]] = Key(k[u]);
      if (payload) payload[row[u]] = rows ? Pay(row[u]) : vals[row[u]];
    }
  });
}

__global__ void stage_if_folded_kernel(const unsigned* folded, const unsigned char* src, unsigned char* dst,
                                       std::size_t bytes) {
  if (*folded == 0) return;
  const std::size_t step = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  std::size_t quads = 0;  // 16-byte moves where both sides allow them
  if ((reinterpret_cast<std::uintptr_t>(src) | reinterpret_cast<std::uintptr_t>(dst)) % 16 == 0) {
    quads = bytes / 16;
    for (std::size_t i = first; i < quads; i += step)
      reinterpret_cast<uint4*>(dst)[i] = reinterpret_cast<const uint4*>(src)[i];
  }
  for (std::size_t i = quads * 16 + first; i < bytes; i += step) dst[i] = src[i];
}

// One record's bytes, little-endian in r, stored in pieces of `unit` bytes.
__device__ __forceinline__ void store_record(unsigned char* at, std::uint64_t r, unsigned bytes, unsigned unit) {
  for (unsigned b = 0; b < bytes; b += unit, r >>= 8 * unit) {
    switch (unit) {
      case 8: *reinterpret_cast<std::uint64_t*>(at + b) = r; break;
      case 4: *reinterpret_cast<std::uint32_t*>(at + b) = std::uint32_t(r); break;
      case 2: *reinterpret_cast<std::uint16_t*>(at + b) = std::uint16_t(r); break;
      default: at[b] = static_cast<unsigned char>(r);
    }
  }
}

// 4 blocks an SM (at most 64 registers): the layout's per-column constants
// took 96, which left 2.
template <class Key, class Pay>
__global__ __launch_bounds__(256, 4) void unpack_carried_kernel(packed_group g, carried_record rec, const std::uint64_t* bounds,
                                      const unsigned* folded, const Key* keys, const Pay* payload,
                                      const unsigned char* records_src, unsigned char* records_out,
                                      const Pay* vals_src, Pay* vals_out, std::size_t n) {
  if (payload && *folded != 0) {  // the keys lost bits: move the records (and values) by row
    for_rows(n, [&](std::size_t i) {
      const std::size_t row = std::size_t(payload[i]);
      for (unsigned b = 0; b < rec.record_bytes; ++b)
        records_out[i * rec.record_bytes + b] = records_src[row * rec.record_bytes + b];
      if (vals_out) vals_out[i] = vals_src[row];
    });
    return;
  }
  const packed_layout layout(g, bounds);
  for_rows(n, [&](std::size_t i) {
    const std::uint64_t k = keys[i];
    std::uint64_t r = 0;
    for_each_column(g, [&](int c, const packed_column& col) {
      r |= raw_any(col, layout.ordered(c, k)) << (8 * rec.offset[c]);
    });
    store_record(records_out + i * rec.record_bytes, r, rec.record_bytes, rec.store_bytes);
  });
}

template <class F> void with_widths(const packed_group& g, int payload_bytes, F&& f) {
  const auto pay = [&]<class Key>() {
    if (payload_bytes == 8) f.template operator()<Key, std::uint64_t>();
    else f.template operator()<Key, std::uint32_t>();
  };
  if (g.key_bytes == 4) pay.template operator()<std::uint32_t>();
  else pay.template operator()<std::uint64_t>();
}

}  // namespace

void launch_pack_carried(const call_context& ctx, const packed_group& g, const std::uint64_t* bounds,
                         const unsigned* folded, const void* vals, void* keys, void* payload, int payload_bytes,
                         std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  with_widths(g, payload_bytes, [&]<class Key, class Pay>() {
    with_columns(g.count, [&]<int C>() {
      pack_carried_kernel<C><<<grid_for(n, 256 * rows_a_thread), 256, 0, s>>>(
          g, bounds, folded, static_cast<const Pay*>(vals), static_cast<Key*>(keys), static_cast<Pay*>(payload), n);
    });
  });
  ctx.check_launch("pack_carried");
}

void launch_stage_if_folded(const call_context& ctx, const unsigned* folded, const void* src, void* dst,
                            std::size_t bytes, cudaStream_t s) {
  if (bytes == 0) return;
  stage_if_folded_kernel<<<grid_for(bytes, 256 * 16), 256, 0, s>>>(
      folded, static_cast<const unsigned char*>(src), static_cast<unsigned char*>(dst), bytes);
  ctx.check_launch("stage_if_folded");
}

void launch_unpack_carried(const call_context& ctx, const packed_group& g, const carried_record& r,
                           const std::uint64_t* bounds, const unsigned* folded, const void* keys, const void* payload,
                           int payload_bytes, const void* records_src, void* records_out, const void* vals_src,
                           void* vals_out, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  with_widths(g, payload_bytes, [&]<class Key, class Pay>() {
    unpack_carried_kernel<<<grid_for(n, 256 * rows_a_thread), 256, 0, s>>>(
        g, r, bounds, folded, static_cast<const Key*>(keys), static_cast<const Pay*>(payload),
        static_cast<const unsigned char*>(records_src), static_cast<unsigned char*>(records_out),
        static_cast<const Pay*>(vals_src), static_cast<Pay*>(vals_out), n);
  });
  ctx.check_launch("unpack_carried");
}

}  // namespace gpusort::detail::columns
