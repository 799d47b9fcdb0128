// The device entry behind gpusort::segmented_sort_keys / _pairs: check the
// arguments, map the key to its carrier (key_traits.hpp) and hand the call
// to the segmented sort unit built for it (src/segmented/). Holds no
// kernel.
#include "core/segmented_rows.hpp"
#include "core/validate.hpp"
#include "segmented/call.hpp"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/gpusort.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace gpusort::detail {
namespace {

template <class K> void dispatch(const segmented::call<K>& c) {
  using C = carrier_t<K>;
  if constexpr (!std::is_same_v<C, K>) {
    const segmented::call<C> as_carrier{c.temp,          c.temp_bytes,    reinterpret_cast<const C*>(c.keys_in),
                                        reinterpret_cast<C*>(c.keys_out), c.vals_in, c.vals_out,
                                        c.val_size,      c.n,             c.segments,
                                        c.begin_offsets, c.end_offsets,   c.offset_bytes,
                                        carried_order(c.ord), c.stream,   c.ctx,
                                        c.longest};
    dispatch(as_carrier);
  } else {
#define GPUSORT_SEGMENTED_BUILT(KT) \
  if constexpr (std::is_same_v<K, KT>) return segmented::run<K>(c);
#include "gpusort_segmented_built.inc"
#undef GPUSORT_SEGMENTED_BUILT
    c.ctx->fail(errc::unsupported, "not in this build (see the CMake option GPUSORT_KEYS)");
  }
}

}  // namespace

template <class K>
void segmented_sort_device(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, const void* vals_in,
                           void* vals_out, std::size_t val_size, std::size_t n, std::size_t num_segments,
                           const void* begin_offsets, const void* end_offsets, int offset_bytes, const options& opt,
                           const char* op) {
  segmented_sort_device<K>(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, val_size, n, num_segments,
                           begin_offsets, end_offsets, offset_bytes, opt, op, n);
}

template <class K>
void segmented_sort_device(void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out, const void* vals_in,
                           void* vals_out, std::size_t val_size, std::size_t n, std::size_t num_segments,
                           const void* begin_offsets, const void* end_offsets, int offset_bytes, const options& opt,
                           const char* op, std::size_t longest) {
  const call_context ctx = make_context(op, key_info<K>::name, "segmented", n, temp_bytes ? *temp_bytes : 0);
  if (!temp_bytes) ctx.fail(errc::invalid_argument, "temp_bytes is null");
  if (n > 0 && (!keys_in || !keys_out)) ctx.fail(errc::invalid_argument, "null key pointer with n > 0");
  if (val_size > 0 && n > 0 && (!vals_in || !vals_out)) ctx.fail(errc::invalid_argument, "null value pointer with n > 0");
  if (val_size > 16) ctx.fail(errc::invalid_argument, "values wider than 16 bytes");
  if (num_segments > 0 && (!begin_offsets || !end_offsets)) ctx.fail(errc::invalid_argument, "null offsets with segments");
  if (offset_bytes != 4 && offset_bytes != -4 && offset_bytes != 8 && offset_bytes != -8)
    ctx.fail(errc::invalid_argument, "offsets must be 32- or 64-bit integers");
  if (num_segments > 0xFFFFFFFFull)
    ctx.fail(errc::unsupported, "more than 2^32 - 1 segments (" + std::to_string(num_segments) + ")");
  const segmented::call<K> c{temp,         temp_bytes,  keys_in, keys_out,     vals_in,
                             vals_out,     val_size,    n,       num_segments, begin_offsets,
                             end_offsets,  offset_bytes, checked_order<K>(opt, ctx), opt.stream, &ctx,
                             longest};
  dispatch(c);
}

template <class K>
void segmented_sort_device_alloc(const K* keys_in, K* keys_out, const void* vals_in, void* vals_out,
                                 std::size_t val_size, std::size_t n, std::size_t num_segments,
                                 const void* begin_offsets, const void* end_offsets, int offset_bytes,
                                 const options& opt, const char* op) {
  allocating_call(make_context(op, key_info<K>::name, "segmented", n), opt.stream,
                  [&](void* temp, std::size_t& bytes) {
                    segmented_sort_device<K>(temp, &bytes, keys_in, keys_out, vals_in, vals_out, val_size, n,
                                             num_segments, begin_offsets, end_offsets, offset_bytes, opt, op);
                  });
}

#define GPUSORT_INSTANTIATE_SEGMENTED(K)                                                                        \
  template void segmented_sort_device<K>(void*, std::size_t*, const K*, K*, const void*, void*, std::size_t,   \
                                         std::size_t, std::size_t, const void*, const void*, int, const options&, \
                                         const char*);                                                          \
  template void segmented_sort_device<K>(void*, std::size_t*, const K*, K*, const void*, void*, std::size_t,   \
                                         std::size_t, std::size_t, const void*, const void*, int, const options&, \
                                         const char*, std::size_t);                                             \
  template void segmented_sort_device_alloc<K>(const K*, K*, const void*, void*, std::size_t, std::size_t,      \
                                               std::size_t, const void*, const void*, int, const options&,      \
                                               const char*);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_SEGMENTED)

}  // namespace gpusort::detail
