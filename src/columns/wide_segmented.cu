// The segmented sort of 128-bit integer keys (gpusort.hpp's
// segmented_sort_keys and segmented_sort_pairs with unsigned __int128 or
// __int128): the record sort of wide.cpp with the segment as the first key.
//
//   1. tag    every key with its segment's begin offset (clamped to [0, n]);
//             keys outside every segment with n, which no segment with keys
//             begins at, so that they sort after every segment's and the
//             tags vary in log2(n) bits at most
//   2. sort   the stable permutation by (tag, high half, low half): the
//             tag ascending, the halves in opt.direction (columns.hpp's
//             sort by columns: the tag's bits less its minimum, so few
//             segments take few digits)
//   3. place  the j-th key of that order, of tag t, goes to j + gaps(t),
//             gaps(t) the positions before t outside every segment (an
//             exclusive scan of the outside flags). The segments being
//             disjoint, the keys before it in the order are those of the
//             segments before t, which fill [0, t) but for the gaps, and
//             the ones before it in its own segment. Keys and values
//             outside every segment are not written.
//
// Segments must not overlap (as CUB's). No host synchronisation: the
// segment count and the offsets stay on the device.
#include "core/gather.hpp"
#include "core/two_phase.hpp"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/payload.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/detail/wide_key.hpp>

#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <string>

namespace gpusort::detail {

namespace {

// Offset o of a segment, clamped to [0, n].
template <class O> __device__ unsigned long long clamp_offset(O o, std::size_t n) {
  if constexpr (std::is_signed_v<O>)
    if (o < 0) return 0;
  return static_cast<unsigned long long>(o) < n ? static_cast<unsigned long long>(o) : n;
}

// tag[p] = n: outside every segment, until tag_kernel says otherwise.
__global__ void outside_tag_kernel(unsigned long long* tag, std::size_t n) {
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += std::size_t(gridDim.x) * blockDim.x)
    tag[p] = n;
}

// 1. tag[p] = begin of p's segment; a block a segment at a time.
template <class O>
__global__ void tag_kernel(const O* begin, const O* end, std::size_t num_segments, std::size_t n,
                           unsigned long long* tag) {
  for (std::size_t s = blockIdx.x; s < num_segments; s += gridDim.x) {
    const unsigned long long b = clamp_offset(begin[s], n), e = clamp_offset(end[s], n);
    for (unsigned long long p = b + threadIdx.x; p < e; p += blockDim.x) tag[p] = b;
  }
}

// flag[p] = 1 where p is outside every segment.
__global__ void outside_kernel(const unsigned long long* tag, std::size_t n, unsigned long long* flag) {
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += std::size_t(gridDim.x) * blockDim.x)
    flag[p] = tag[p] == n ? 1ull : 0ull;
}

// 3. out[j + gaps[t]] = in[perm[j]] for the keys and the values (V: a word
// type, or bytes of val_size when V is unsigned char).
template <class I, class V>
__global__ void place_kernel(const I* perm, const unsigned long long* tag, const unsigned long long* gaps, std::size_t n,
                             const payload16* keys_in, payload16* keys_out, const V* vals_in, V* vals_out,
                             std::size_t val_size) {
  for (std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; j < n; j += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t from = std::size_t(perm[j]);
    const unsigned long long t = tag[from];
    if (t == n) continue;  // outside every segment: not written
    const std::size_t to = j + std::size_t(gaps[t]);
    keys_out[to] = keys_in[from];
    if (vals_out) {
      if constexpr (sizeof(V) == 1)
        for (std::size_t b = 0; b < val_size; ++b) vals_out[to * val_size + b] = vals_in[from * val_size + b];
      else
        vals_out[to] = vals_in[from];
    }
  }
}

template <class I, class V>
void place(const call_context& ctx, const void* perm, const unsigned long long* tag, const unsigned long long* gaps,
           std::size_t n, const void* keys_in, void* keys_out, const void* vals_in, void* vals_out, std::size_t val_size,
           cudaStream_t s) {
  place_kernel<I, V><<<grid_for(n, 256), 256, 0, s>>>(
      static_cast<const I*>(perm), tag, gaps, n, static_cast<const payload16*>(keys_in), static_cast<payload16*>(keys_out),
      static_cast<const V*>(vals_in), static_cast<V*>(vals_out), val_size);
  ctx.check_launch("segmented 128-bit place");
}

// The values as payload_of<val_size> where they travel as a payload (a
// payload width, both arrays aligned to it), else byte by byte (one byte
// values too: the same thing).
template <class I>
void place_any(const call_context& ctx, const void* perm, const unsigned long long* tag, const unsigned long long* gaps,
               std::size_t n, const void* keys_in, void* keys_out, const void* vals_in, void* vals_out,
               std::size_t val_size, cudaStream_t s) {
  const auto as = [&](auto word) {
    place<I, decltype(word)>(ctx, perm, tag, gaps, n, keys_in, keys_out, vals_in, vals_out, val_size, s);
  };
  if (val_size <= 1 || !travels_as_payload(val_size, vals_in, vals_out))  // none, bytes, or unaligned
    place<I, unsigned char>(ctx, perm, tag, gaps, n, keys_in, keys_out, vals_in, val_size ? vals_out : nullptr,
                            val_size, s);
  else if (val_size == 2) as(payload_of<2>::type{});
  else if (val_size == 4) as(payload_of<4>::type{});
  else if (val_size == 8) as(payload_of<8>::type{});
  else as(payload_of<16>::type{});
}

template <class O>
void launch_tags(const call_context& ctx, const void* begin, const void* end, std::size_t num_segments, std::size_t n,
                 unsigned long long* tag, cudaStream_t s) {
  tag_kernel<O><<<grid_for(num_segments, 1, std::size_t(1) << 16), 256, 0, s>>>(
      static_cast<const O*>(begin), static_cast<const O*>(end), num_segments, n, tag);
  ctx.check_launch("segmented 128-bit tags");
}

}  // namespace

void segmented_sort_wide_device(void* temp, std::size_t* temp_bytes, bool is_signed, const void* keys_in,
                                void* keys_out, const void* vals_in, void* vals_out, std::size_t val_size,
                                std::size_t n, std::size_t num_segments, const void* begin_offsets,
                                const void* end_offsets, int offset_bytes, const options& opt, const char* op) {
  const call_context ctx =
      make_context(op, is_signed ? "i128" : "u128", "radix", n, temp && temp_bytes ? *temp_bytes : 0);
  if (!temp_bytes) ctx.fail(errc::invalid_argument, "temp_bytes is null");
  check_wide_call(ctx, keys_in, keys_out, vals_in, vals_out, val_size, n, opt);
  if (num_segments > 0xFFFFFFFFull)
    ctx.fail(errc::invalid_argument, std::to_string(num_segments) + " segments (at most 2^32 - 1)");
  if (num_segments > 0 && (!begin_offsets || !end_offsets))
    ctx.fail(errc::invalid_argument, "null offsets with segments");
  const bool wide = n > 0x7FFFFFFFull;
  const int ib = wide ? 8 : 4;
  const bool stage = keys_in == keys_out, stage_vals = val_size > 0 && vals_in == vals_out;
  const auto phases = [&](void* base) {
    const bool sizing = base == nullptr;
    temp_layout L(base);
    auto* tag = L.take<unsigned long long>(n);
    auto* flag = L.take<unsigned long long>(n);
    auto* gaps = L.take<unsigned long long>(n);
    void* perm = L.take<std::uint8_t>(n * std::size_t(ib));
    void* staged = stage ? L.take<std::uint8_t>(n * 16) : nullptr;
    void* staged_vals = stage_vals ? L.take<std::uint8_t>(n * val_size) : nullptr;
    std::size_t scan_bytes = 0;
    ctx.check(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, flag, gaps, n, opt.stream),
              "cub::DeviceScan::ExclusiveSum(size)");
    void* scan_temp = L.take<std::uint8_t>(scan_bytes);
    key_column halves[2];
    wide_fields(is_signed, sizing ? stand_in<void>(1) : keys_in, opt.direction, halves);
    const key_column cols[3] = {{key_type::u64, sizing ? stand_in<void>(0) : tag, order::ascending, 0}, halves[0],
                                halves[1]};
    std::size_t inner_bytes = 0;
    sort_by_columns_device(nullptr, inner_bytes, cols, 3, n, sizing ? stand_in<void>(2) : perm, ib, opt);
    void* inner_temp = L.take<std::uint8_t>(inner_bytes);
    if (sizing || n == 0) return L.bytes();
    outside_tag_kernel<<<grid_for(n, 256), 256, 0, opt.stream>>>(tag, n);
    ctx.check_launch("segmented 128-bit tags");
    if (num_segments > 0) {
      if (offset_bytes == 4) launch_tags<std::uint32_t>(ctx, begin_offsets, end_offsets, num_segments, n, tag, opt.stream);
      else if (offset_bytes == -4) launch_tags<std::int32_t>(ctx, begin_offsets, end_offsets, num_segments, n, tag, opt.stream);
      else if (offset_bytes == 8) launch_tags<std::uint64_t>(ctx, begin_offsets, end_offsets, num_segments, n, tag, opt.stream);
      else launch_tags<std::int64_t>(ctx, begin_offsets, end_offsets, num_segments, n, tag, opt.stream);
    }
    outside_kernel<<<grid_for(n, 256), 256, 0, opt.stream>>>(tag, n, flag);
    ctx.check_launch("segmented 128-bit outside flags");
    ctx.check(cub::DeviceScan::ExclusiveSum(scan_temp, scan_bytes, flag, gaps, n, opt.stream),
              "cub::DeviceScan::ExclusiveSum(gaps)");
    sort_by_columns_device(inner_temp, inner_bytes, cols, 3, n, perm, ib, opt);
    const void* kin = keys_in;
    const void* vin = vals_in;
    if (stage) {
      ctx.check(cudaMemcpyAsync(staged, keys_in, n * 16, cudaMemcpyDeviceToDevice, opt.stream), "cudaMemcpyAsync(keys)");
      kin = staged;
    }
    if (stage_vals) {
      ctx.check(cudaMemcpyAsync(staged_vals, vals_in, n * val_size, cudaMemcpyDeviceToDevice, opt.stream),
                "cudaMemcpyAsync(values)");
      vin = staged_vals;
    }
    if (wide) place_any<std::uint64_t>(ctx, perm, tag, gaps, n, kin, keys_out, vin, vals_out, val_size, opt.stream);
    else place_any<std::uint32_t>(ctx, perm, tag, gaps, n, kin, keys_out, vin, vals_out, val_size, opt.stream);
    return L.bytes();
  };
  two_phase(ctx, temp, *temp_bytes, phases);
}

void segmented_sort_wide_device_alloc(bool is_signed, const void* keys_in, void* keys_out, const void* vals_in,
                                      void* vals_out, std::size_t val_size, std::size_t n, std::size_t num_segments,
                                      const void* begin_offsets, const void* end_offsets, int offset_bytes,
                                      const options& opt, const char* op) {
  allocating_call(make_context(op, is_signed ? "i128" : "u128", "radix", n), opt.stream,
                  [&](void* temp, std::size_t& bytes) {
                    segmented_sort_wide_device(temp, &bytes, is_signed, keys_in, keys_out, vals_in, vals_out,
                                               val_size, n, num_segments, begin_offsets, end_offsets, offset_bytes,
                                               opt, op);
                  });
}

}  // namespace gpusort::detail
