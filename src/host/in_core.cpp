// The in-core host pipeline (plan.hpp): chunks copied in and sorted as they
// land, merged pair by pair with merge path (Green, McColl & Bader 2012) as
// soon as both halves exist, and the last merge streamed out window by window
// while the next window merges.
//   buffers   level l of the merge tree lives in buffer l % 2: the chunks'
//             sorts (level 0) in place in buffer 0, each merge from one
//             buffer into the other
//   phase 1   per chunk: copy in (up stream), sort (work stream), then every
//             merge that the chunk completes, except the last level's
//   phase 2   the last level, window by window: merge (work), copy out (down)
#include "host/merge_window.hpp"
#include "host/pipeline.hpp"

#include "core/validate.hpp"

#include <gpusort/detail/core/temp_layout.hpp>

#include <stdexcept>
#include <type_traits>

namespace gpusort::detail::host {
namespace {

// Whether this build compiled K's carrier (and so its merge windows).
template <class C> constexpr bool built() {
  bool b = false;
#define GPUSORT_BUILT(A, KT) \
  if constexpr (std::is_same_v<C, KT>) b = true;
#include "gpusort_built.inc"
#undef GPUSORT_BUILT
  return b;
}

}  // namespace

template <class K> std::size_t merge_tile_for(const host_call<K>& c) {
  using C = carrier_t<K>;
  if constexpr (!built<C>()) {
    return 0;
  } else {
    return checked_order<K>(c.opt, *c.ctx).full_range() ? merge_tile<C>(c.val_size) : 0;
  }
}

template <class K> void sort_in_core(const host_call<K>& c, const in_core_plan& p, void* device, links& l, mover& m) {
  using C = carrier_t<K>;
  const std::size_t n = c.n, vs = c.val_size;
  const call_context& ctx = *c.ctx;
  temp_layout lay(device);
  C* keys[2] = {lay.take<C>(n), nullptr};
  unsigned char* vals[2] = {lay.take<unsigned char>(n * vs), nullptr};
  if (p.levels > 0) {
    keys[1] = lay.take<C>(n);
    vals[1] = lay.take<unsigned char>(n * vs);
  }
  const std::size_t temp_bytes = sort_temp(c, p.chunk);
  void* temp = lay.take<unsigned char>(temp_bytes);
  std::size_t* splits = p.levels > 0 ? lay.take<std::size_t>(ceil_div(n, p.tile) + 2) : nullptr;
  if (lay.bytes() > p.device_bytes) throw std::logic_error("host pipeline: scratch larger than planned");

  const key_order<C> ord = carried_order(checked_order<K>(c.opt, ctx));
  auto vals_at = [&](int b, std::size_t at) { return vs ? vals[b] + at * vs : nullptr; };
  // Level l's run r: the merge of level l - 1's runs 2r and 2r + 1, over the
  // output tiles [first, last) of the run (all of them unless streamed).
  auto merge = [&](int level, std::size_t first, std::size_t last) {
    const int from = (level - 1) % 2, to = level % 2;
    merge_window<C>(ctx, keys[from], keys[to], vals[from], vals[to], vs, n, p.chunk << (level - 1), first, last,
                    splits, ord, l.work);
  };
  auto run_tiles = [&](int level, std::size_t r, std::size_t& first, std::size_t& last) {
    const std::size_t span = p.chunk << level;
    first = r * span / p.tile;
    last = ceil_div(std::min((r + 1) * span, n), p.tile);
  };

  // phase 1: chunks in, sorted, merged while the next ones arrive
  for (std::size_t i = 0; i < p.chunks; ++i) {
    const std::size_t at = i * p.chunk, len = std::min(p.chunk, n - at);
    m.up(keys[0] + at, c.keys + at, len * sizeof(K), c.keys_pinned);
    if (vs) m.up(vals_at(0, at), static_cast<unsigned char*>(c.vals) + at * vs, len * vs, c.vals_pinned);
    l.after(l.work, l.up);
    sort_on_device<K>(c, temp, temp_bytes, reinterpret_cast<K*>(keys[0] + at), vals_at(0, at), len, l.work);
    for (int level = 1; level < p.levels; ++level) {
      if ((i + 1) % (std::size_t(1) << level) != 0 && i + 1 != p.chunks) break;
      std::size_t first, last;
      run_tiles(level, i >> level, first, last);
      merge(level, first, last);
    }
  }

  // phase 2: the last level's merge, streamed out
  const int top = p.levels % 2;
  const std::size_t step = p.levels > 0 ? p.window : n;
  for (std::size_t at = 0; at < n; at += step) {
    const std::size_t len = std::min(step, n - at);
    if (p.levels > 0) merge(p.levels, at / p.tile, ceil_div(at + len, p.tile));
    l.after(l.down, l.work);
    m.down(c.keys + at, keys[top] + at, len * sizeof(K), c.keys_pinned);
    if (vs) m.down(static_cast<unsigned char*>(c.vals) + at * vs, vals_at(top, at), len * vs, c.vals_pinned);
  }
  m.drain();
  l.finish();
}

#define GPUSORT_INSTANTIATE_IN_CORE(K)                                                                   \
  template std::size_t merge_tile_for<K>(const host_call<K>&);                                        \
  template void sort_in_core<K>(const host_call<K>&, const in_core_plan&, void*, links&, mover&);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_IN_CORE)

}  // namespace gpusort::detail::host
