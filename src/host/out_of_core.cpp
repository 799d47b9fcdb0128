// The out-of-core host pipeline (plan.hpp): an external merge sort whose
// runs are sorted on the device and whose merge also runs there.
//   phase 1  runs of `slot` items, three in flight in three device slots:
//            run r is copied in while run r - 1 sorts and run r - 2 is copied
//            back to its own place
//   phase 2  the output in pieces of `slot` items: a k-way co-rank search on
//            the host (corank.hpp) finds each piece's share of every run; the
//            shares are copied into a slot, sorted there (the sort is stable,
//            and the shares sit in run order, so ties keep the input's order),
//            and the piece is copied out block by block into free host blocks
//            (blocks.hpp), again three pieces in flight
//   phase 3  the blocks are permuted home on the host
// Device memory: three slots and one sort's scratch, whatever n is.
#include "host/blocks.hpp"
#include "host/corank.hpp"
#include "host/pipeline.hpp"

#include "core/validate.hpp"

#include <gpusort/detail/core/temp_layout.hpp>

#include <memory>
#include <stdexcept>

namespace gpusort::detail::host {

template <class K>
void sort_out_of_core(const host_call<K>& c, const out_of_core_plan& p, void* device, links& l, mover& m) {
  const std::size_t n = c.n, vs = c.val_size, S = p.slot, B = p.block;
  auto* host_vals = static_cast<unsigned char*>(c.vals);
  temp_layout lay(device);
  K* keys[3];
  unsigned char* vals[3];
  for (int s = 0; s < 3; ++s) {
    keys[s] = lay.take<K>(S);
    vals[s] = lay.take<unsigned char>(S * vs);
  }
  const std::size_t temp_bytes = sort_temp(c, S);
  void* temp = lay.take<unsigned char>(temp_bytes);
  if (lay.bytes() > p.device_bytes) throw std::logic_error("host pipeline: scratch larger than planned");
  cudaEvent_t slot_free[3] = {};  // the last copy out of each slot

  // Copies `len` items at host position `from` into slot s at item `to`.
  auto in = [&](int s, std::size_t to, std::size_t from, std::size_t len) {
    m.up(keys[s] + to, c.keys + from, len * sizeof(K), c.keys_pinned);
    if (vs) m.up(vals[s] + to * vs, host_vals + from * vs, len * vs, c.vals_pinned);
  };
  auto take_slot = [&](std::size_t i) {
    const int s = int(i % 3);
    if (slot_free[s]) l.wait(l.up, slot_free[s]);
    return s;
  };
  auto sort_slot = [&](int s, std::size_t len) {
    l.after(l.work, l.up);
    sort_on_device<K>(c, temp, temp_bytes, keys[s], vs ? vals[s] : nullptr, len, l.work);
    l.after(l.down, l.work);
  };

  // phase 1: sorted runs, each back in its own place
  for (std::size_t r = 0; r < p.runs; ++r) {
    const std::size_t at = r * S, len = std::min(S, n - at);
    const int s = take_slot(r);
    in(s, 0, at, len);
    sort_slot(s, len);
    m.down(c.keys + at, keys[s], len * sizeof(K), c.keys_pinned);
    if (vs) m.down(host_vals + at * vs, vals[s], len * vs, c.vals_pinned);
    slot_free[s] = l.mark(l.down);
  }
  m.drain();
  l.finish();

  // phase 2: where every piece starts in every run
  const key_order<K> ord = checked_order<K>(c.opt, *c.ctx);
  std::vector<host_run<K>> runs(p.runs);
  for (std::size_t r = 0; r < p.runs; ++r) runs[r] = {c.keys + r * S, std::min(S, n - r * S)};
  const std::size_t pieces = p.runs;
  std::vector<std::vector<std::size_t>> cut(pieces + 1);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t q = 0; q <= std::ptrdiff_t(pieces); ++q)
    cut[q] = corank(runs, std::min(std::size_t(q) * S, n), ord);

  const std::size_t full = n / B;
  block_ledger ledger(full, p.extra_blocks);
  const auto spare_keys = std::make_unique_for_overwrite<K[]>(p.extra_blocks * B);
  const auto spare_vals = std::make_unique_for_overwrite<unsigned char[]>(vs ? p.extra_blocks * B * vs : 0);
  auto key_place = [&](std::size_t s) { return s < full ? c.keys + s * B : spare_keys.get() + (s - full) * B; };
  auto val_place = [&](std::size_t s) {
    return s < full ? host_vals + s * B * vs : spare_vals.get() + (s - full) * B * vs;
  };
  for (std::size_t q = 0; q < pieces; ++q) {
    const std::size_t at = q * S, len = std::min(S, n - at);
    const int s = take_slot(pieces + q);
    std::size_t to = 0;
    for (std::size_t r = 0; r < p.runs; ++r) {
      const std::size_t b = cut[q][r], e = cut[q + 1][r];
      in(s, to, r * S + b, e - b);
      to += e - b;
      // the run's blocks read to the end are free once these copies are issued
      for (std::size_t k = (r * S + b) / B; k < std::min((r * S + e) / B, full); ++k) ledger.release(k);
    }
    sort_slot(s, len);
    for (std::size_t j = at / B; j < full && j * B < at + len; ++j) {
      const std::size_t place = ledger.place(j), from = j * B - at;
      const bool user = place < full;
      m.down(key_place(place), keys[s] + from, B * sizeof(K), user && c.keys_pinned);
      if (vs) m.down(val_place(place), vals[s] + from * vs, B * vs, user && c.vals_pinned);
    }
    if (at + len > full * B) {  // the partial last block goes home directly: every item has been read
      const std::size_t from = full * B - at, tail = n - full * B;
      m.down(c.keys + full * B, keys[s] + from, tail * sizeof(K), c.keys_pinned);
      if (vs) m.down(host_vals + full * B * vs, vals[s] + from * vs, tail * vs, c.vals_pinned);
    }
    slot_free[s] = l.mark(l.down);
  }
  m.drain();
  l.finish();

  // phase 3: every block home
  const auto moves = ledger.moves();
  std::unique_ptr<K[]> buffer_keys;
  std::unique_ptr<unsigned char[]> buffer_vals;
  for (const auto& mv : moves) {
    if (mv.to == ledger.buffer() && !buffer_keys) {
      buffer_keys = std::make_unique_for_overwrite<K[]>(B);
      if (vs) buffer_vals = std::make_unique_for_overwrite<unsigned char[]>(B * vs);
    }
    auto k_at = [&](std::size_t s) { return s == ledger.buffer() ? buffer_keys.get() : key_place(s); };
    auto v_at = [&](std::size_t s) { return s == ledger.buffer() ? buffer_vals.get() : val_place(s); };
    parallel_copy(k_at(mv.to), k_at(mv.from), B * sizeof(K));
    if (vs) parallel_copy(v_at(mv.to), v_at(mv.from), B * vs);
  }
}

#define GPUSORT_INSTANTIATE_OUT_OF_CORE(K) \
  template void sort_out_of_core<K>(const host_call<K>&, const out_of_core_plan&, void*, links&, mover&);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_OUT_OF_CORE)

}  // namespace gpusort::detail::host
