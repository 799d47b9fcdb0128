// The device entries behind gpusort::topk_* (include/gpusort/topk.hpp):
// check the arguments, carve the one scratch block, run the selection of
// the key's carrier (src/topk/, in the generated topk_<kind>.cu units),
// then order the winners with the library's own sorts and gather what the
// caller asked for. Holds no kernel.
//
// One array:
//   select    k winner indices, in no order (topk/select.cuh)
//   order     sort the indices (onesweep over their bits): input order;
//             gather the keys; sorted output: a stable sort of (key, index)
//             by key, so equal keys stay in index order
//   finish    indices narrowed to the caller's width, values gathered
// Rows and segments:
//   select    one block a segment of up to block_tile keys (topk/block_select.cuh)
//   long      longer segments: a segmented sort of just those (the others
//             get empty ranges), their first k taken
//   finish    indices local to their segment, in the caller's width
#include "core/validate.hpp"
#include "core/gather.hpp"
#include "core/rows.hpp"
#include "topk/call.hpp"
#include "topk/finish.hpp"
#include "topk/plan.hpp"
#include "topk/tuning.cuh"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/gpusort.hpp>
#include <gpusort/topk.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace gpusort::detail {
namespace {

template <class K> constexpr bool topk_built() {
#define GPUSORT_TOPK_BUILT(KT) \
  if (std::is_same_v<carrier_t<K>, KT>) return true;
#include "gpusort_topk_built.inc"
#undef GPUSORT_TOPK_BUILT
  return false;
}


options inner_options(const topk_options& opt, bool descending, int end_bit) {
  options o;
  o.algo = algorithm::radix_onesweep;
  o.direction = descending ? order::descending : order::ascending;
  o.end_bit = end_bit;
  o.stream = opt.stream;
  o.nans = opt.nans;
  return o;
}

// The selection's order: largest first or smallest first, NaNs as asked.
template <class K> key_order<carrier_t<K>> select_order(const topk_options& opt) {
  return carried_order(key_order<K>(opt.largest, 0, int(sizeof(K)) * 8, opt.nans == nan_order::largest));
}

template <class K> void run_select(const topk::select_call<carrier_t<K>>& c) {
  if constexpr (topk_built<K>()) topk::select<carrier_t<K>>(c);
  else c.ctx->fail(errc::unsupported, "not in this build (see the CMake option GPUSORT_KEYS)");
}

template <class K> void run_segments(const topk::segments_call<carrier_t<K>>& c) {
  if constexpr (topk_built<K>()) topk::select_segments<carrier_t<K>>(c);
  else c.ctx->fail(errc::unsupported, "not in this build (see the CMake option GPUSORT_KEYS)");
}

template <class K> void run_take_first(const topk::segments_call<carrier_t<K>>& c, const K* keys, const std::uint64_t* idx) {
  if constexpr (topk_built<K>()) topk::take_first<carrier_t<K>>(c, reinterpret_cast<const carrier_t<K>*>(keys), idx);
}

void check_common(const call_context& ctx, std::size_t* temp_bytes, const void* keys_in, const void* keys_out,
                  int index_bytes, std::size_t n, std::size_t k) {
  if (!temp_bytes) ctx.fail(errc::invalid_argument, "temp_bytes is null");
  if (n > 0 && !keys_in) ctx.fail(errc::invalid_argument, "null key pointer with n > 0");
  if (k > 0 && !keys_out) ctx.fail(errc::invalid_argument, "null output pointer with k > 0");
  if (index_bytes != 0 && index_bytes != 4 && index_bytes != 8)
    ctx.fail(errc::invalid_argument, "indices must be 32- or 64-bit integers");
}

}  // namespace

template <class K>
void topk_device(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, void* idx_out, int index_bytes,
                 const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n, std::size_t k,
                 const topk_options& opt, const char* op) {
  using C = carrier_t<K>;
  using T = topk::tuning<typename key_traits<K>::bits>;
  const call_context ctx = make_context(op, key_info<K>::name, "topk", n, temp_bytes ? *temp_bytes : 0);
  check_common(ctx, temp_bytes, keys_in, keys_out, index_bytes, n, k);
  if (k > n) ctx.fail(errc::invalid_argument, "k = " + std::to_string(k) + " is larger than n");
  if (val_size > 16) ctx.fail(errc::invalid_argument, "values wider than 16 bytes");
  if (val_size > 0 && k > 0 && (!vals_in || !vals_out)) ctx.fail(errc::invalid_argument, "null value pointer");
  if (index_bytes == 4 && n > (std::size_t(1) << 32))
    ctx.fail(errc::invalid_argument, "32-bit indices for more than 2^32 keys");
  // Keys that one block holds (and no values): the rows path, one row. It
  // selects in one block with three launches, where the radix select below
  // makes about 25, which bound a small call's time (a 4096-key top-16 took
  // 127 us of launches against torch.topk's 22 us on an H100). Both order
  // ties by index and give the same result.
  if (val_size == 0 && n > 0 && n <= std::size_t(T::block_tile)) {
    segmented_topk_device<K>(temp, temp_bytes, keys_in, keys_out, idx_out, index_bytes, n, 1, nullptr, nullptr, 8, n,
                             k, opt, op);
    return;
  }
  const topk::digit_plan digits = topk::make_digits(int(sizeof(K)) * 8, n);
  const options by_index = inner_options(opt, false, digits.index_bits);
  const options by_key = inner_options(opt, opt.largest, -1);
  // the inner sorts' scratch (k keys)
  std::size_t sort_bytes = 0, b = 0;
  if (k > 0) {
    sort_device<std::uint64_t>(nullptr, &b, stand_in<std::uint64_t>(0), stand_in<std::uint64_t>(1), nullptr, nullptr,
                               0, k, by_index, op);
    sort_bytes = b;
    if (opt.sorted) {
      sort_device<K>(nullptr, &b, stand_in<K>(0), stand_in<K>(1), stand_in<std::uint64_t>(2),
                     stand_in<std::uint64_t>(3), 8, k, by_key, op);
      sort_bytes = b > sort_bytes ? b : sort_bytes;
    }
  }
  const std::size_t cap = T::list_capacity(n);
  temp_layout t(temp);
  auto* state = t.take<topk::select_state>(1);
  auto* hists = t.take<unsigned long long>(2 * std::size_t(topk::max_digits) * topk::bins);
  std::uint64_t* lists[2] = {t.take<std::uint64_t>(cap), t.take<std::uint64_t>(cap)};
  auto* winners = t.take<std::uint64_t>(k);
  auto* by_input = t.take<std::uint64_t>(k);   // winners in input order
  auto* gathered = t.take<K>(opt.sorted ? k : 0);
  auto* final_idx = t.take<std::uint64_t>(opt.sorted ? k : 0);
  void* sort_temp = t.take<std::uint8_t>(sort_bytes);
  if (!temp) {
    *temp_bytes = t.bytes();
    return;
  }
  if (*temp_bytes < t.bytes()) ctx.fail(errc::invalid_argument, "temp_bytes is smaller than the query gave");
  if (k == 0) return;
  const cudaStream_t st = opt.stream;
  static_assert(sizeof(topk::select_call<C>) > 0);
  const topk::select_call<C> sc{reinterpret_cast<const C*>(keys_in), n, k,
                                select_order<K>(opt),
                                state, hists, {lists[0], lists[1]}, cap, winners, st, &ctx};
  run_select<K>(sc);
  // input order
  b = sort_bytes;
  sort_device<std::uint64_t>(sort_temp, &b, winners, by_input, nullptr, nullptr, 0, k, by_index, op);
  const std::uint64_t* order_idx = by_input;
  if (opt.sorted) {
    launch_gather(ctx, keys_in, gathered, by_input, true, k, sizeof(K), st);
    b = sort_bytes;
    sort_device<K>(sort_temp, &b, gathered, keys_out, by_input, final_idx, 8, k, by_key, op);
    order_idx = final_idx;
  } else {
    launch_gather(ctx, keys_in, keys_out, by_input, true, k, sizeof(K), st);
  }
  topk::launch_finish(ctx, order_idx, k, k, nullptr, idx_out, index_bytes, vals_in, vals_out, val_size, st);
}

template <class K>
void topk_device_alloc(const K* keys_in, K* keys_out, void* idx_out, int index_bytes, const void* vals_in,
                       void* vals_out, std::size_t val_size, std::size_t n, std::size_t k, const topk_options& opt,
                       const char* op) {
  allocating_call(make_context(op, key_info<K>::name, "topk", n), opt.stream, [&](void* temp, std::size_t& bytes) {
    topk_device<K>(temp, &bytes, keys_in, keys_out, idx_out, index_bytes, vals_in, vals_out, val_size, n, k, opt, op);
  });
}

template <class K>
void segmented_topk_device(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, void* idx_out,
                           int index_bytes, std::size_t n, std::size_t num_segments, const void* begin,
                           const void* end, int offset_bytes, std::size_t row_len, std::size_t k,
                           const topk_options& opt, const char* op) {
  using C = carrier_t<K>;
  using T = topk::tuning<typename key_traits<K>::bits>;
  const call_context ctx = make_context(op, key_info<K>::name, "topk", n, temp_bytes ? *temp_bytes : 0);
  check_common(ctx, temp_bytes, keys_in, keys_out, index_bytes, n, k * num_segments);
  const bool rows = row_len > 0;
  if (rows && k > row_len) ctx.fail(errc::invalid_argument, "k = " + std::to_string(k) + " is larger than a row");
  if (!rows && num_segments > 0 && (!begin || !end)) ctx.fail(errc::invalid_argument, "null offsets with segments");
  if (offset_bytes != 4 && offset_bytes != -4 && offset_bytes != 8 && offset_bytes != -8)
    ctx.fail(errc::invalid_argument, "offsets must be 32- or 64-bit integers");
  // long segments: rows longer than a block's tile, or any segment (their
  // sizes are on the device)
  const bool may_be_long = rows ? row_len > std::size_t(T::block_tile) : true;
  const options by_key = inner_options(opt, opt.largest, -1);
  std::size_t seg_bytes = 0;
  if (may_be_long && n > 0) {
    segmented_sort_device<K>(nullptr, &seg_bytes, stand_in<K>(0), stand_in<K>(1), stand_in<std::uint64_t>(2),
                             stand_in<std::uint64_t>(3), 8, n, num_segments, stand_in<std::uint64_t>(4),
                             stand_in<std::uint64_t>(5), 8, by_key, op);
  }
  temp_layout t(temp);
  auto* row_offsets = t.take<std::uint64_t>(rows ? num_segments + 1 : 0);
  auto* gidx = t.take<std::uint64_t>(num_segments * k);
  const std::size_t long_n = may_be_long ? n : 0, long_s = may_be_long ? num_segments : 0;
  auto* long_begin = t.take<std::uint64_t>(long_s);
  auto* long_end = t.take<std::uint64_t>(long_s);
  auto* iota = t.take<std::uint64_t>(long_n);
  auto* sorted_idx = t.take<std::uint64_t>(long_n);
  auto* sorted_keys = t.take<K>(long_n);
  void* seg_temp = t.take<std::uint8_t>(seg_bytes);
  if (!temp) {
    *temp_bytes = t.bytes();
    return;
  }
  if (*temp_bytes < t.bytes()) ctx.fail(errc::invalid_argument, "temp_bytes is smaller than the query gave");
  if (k == 0 || num_segments == 0) return;
  const cudaStream_t st = opt.stream;
  segmented::offsets off{begin, end, offset_bytes, n};
  if (rows) {
    launch_row_offsets(ctx, row_offsets, 8, num_segments, row_len, st);
    off = segmented::offsets{row_offsets, row_offsets + 1, 8, n};
  }
  const topk::segments_call<C> sc{reinterpret_cast<const C*>(keys_in), reinterpret_cast<C*>(keys_out), gidx, off,
                                  num_segments, k, select_order<K>(opt),
                                  opt.sorted, st, &ctx};
  run_segments<K>(sc);
  if (may_be_long) {
    topk::launch_long_ranges(ctx, off, num_segments, T::block_tile, long_begin, long_end, st);
    launch_iota(ctx, iota, true, n, st);
    std::size_t b = seg_bytes;
    segmented_sort_device<K>(seg_temp, &b, keys_in, sorted_keys, iota, sorted_idx, 8, n, num_segments, long_begin,
                             long_end, 8, by_key, op);
    run_take_first<K>(sc, sorted_keys, sorted_idx);
  }
  topk::launch_finish(ctx, gidx, num_segments * k, k, &off, idx_out, index_bytes, nullptr, nullptr, 0, st);
}

template <class K>
void segmented_topk_device_alloc(const K* keys_in, K* keys_out, void* idx_out, int index_bytes, std::size_t n,
                                 std::size_t num_segments, const void* begin, const void* end, int offset_bytes,
                                 std::size_t row_len, std::size_t k, const topk_options& opt, const char* op) {
  allocating_call(make_context(op, key_info<K>::name, "topk", n), opt.stream, [&](void* temp, std::size_t& bytes) {
    segmented_topk_device<K>(temp, &bytes, keys_in, keys_out, idx_out, index_bytes, n, num_segments, begin, end,
                             offset_bytes, row_len, k, opt, op);
  });
}

#define GPUSORT_INSTANTIATE_TOPK(K)                                                                                \
  template void topk_device<K>(void*, std::size_t*, const K*, K*, void*, int, const void*, void*, std::size_t,    \
                               std::size_t, std::size_t, const topk_options&, const char*);                       \
  template void topk_device_alloc<K>(const K*, K*, void*, int, const void*, void*, std::size_t, std::size_t,      \
                                     std::size_t, const topk_options&, const char*);                              \
  template void segmented_topk_device<K>(void*, std::size_t*, const K*, K*, void*, int, std::size_t, std::size_t, \
                                         const void*, const void*, int, std::size_t, std::size_t,                 \
                                         const topk_options&, const char*);                                       \
  template void segmented_topk_device_alloc<K>(const K*, K*, void*, int, std::size_t, std::size_t, const void*,   \
                                               const void*, int, std::size_t, std::size_t, const topk_options&,   \
                                               const char*);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_TOPK)

}  // namespace gpusort::detail
