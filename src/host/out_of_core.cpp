// The out-of-core host pipeline (plan.hpp): an external merge sort whose
// runs are sorted on the device and whose merge also runs there.
//   phase 1  runs of at most `slot` items (contiguous or dealt block by block:
//            run_layout.hpp), three in flight in three device slots: run r is
//            copied in while run r - 1 sorts and run r - 2 is copied back into
//            its own blocks
//   phase 2  the output in pieces of `slot` items: a k-way co-rank search on
//            the host (corank.hpp) finds each piece's share of every run; the
//            shares are copied into a slot, sorted there (the sort is stable,
//            and the shares sit in run order, so ties keep the input's order
//            when runs are contiguous), and the piece is copied out block by
//            block into free host blocks (blocks.hpp), again three pieces in
//            flight. A piece is placed once the next piece's shares have been
//            read, so that dealt runs have freed its home blocks
//   phase 3  the blocks written away from home are moved home on the host
// Device memory: three slots and one sort's scratch, whatever n is.
#include "host/blocks.hpp"
#include "host/corank.hpp"
#include "host/pipeline.hpp"
#include "host/run_layout.hpp"

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
  // Copies `len` items at item `from` of slot s to key_to and val_to; `user`: the
  // caller's array (may be pinned) rather than a spare block.
  auto out = [&](K* key_to, unsigned char* val_to, bool user, int s, std::size_t from, std::size_t len) {
    m.down(key_to, keys[s] + from, len * sizeof(K), user && c.keys_pinned);
    if (vs) m.down(val_to, vals[s] + from * vs, len * vs, user && c.vals_pinned);
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
  const run_layout layout(n, S, B, p.dealt);

  // phase 1: sorted runs, each back in its own blocks
  for (std::size_t r = 0; r < p.runs; ++r) {
    const std::size_t len = layout.length(r);
    const int s = take_slot(r);
    layout.stretches(r, 0, len, [&](std::size_t host, std::size_t i, std::size_t k) { in(s, i, host, k); });
    sort_slot(s, len);
    layout.stretches(r, 0, len, [&](std::size_t host, std::size_t i, std::size_t k) {
      out(c.keys + host, host_vals + host * vs, true, s, i, k);
    });
    slot_free[s] = l.mark(l.down);
  }
  m.drain();
  l.finish();

  // phase 2: where every piece starts in every run
  const key_order<K> ord = checked_order<K>(c.opt, *c.ctx);
  std::vector<host_run<K>> runs(p.runs);
  for (std::size_t r = 0; r < p.runs; ++r)
    runs[r] = {c.keys + layout.base(r), layout.length(r), layout.stride_block(), layout.stride()};
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
  // Piece q's shares into a slot, then its sort; the blocks read to their end are released.
  auto gather = [&](std::size_t q) {
    const int s = take_slot(pieces + q);
    std::size_t to = 0;
    for (std::size_t r = 0; r < p.runs; ++r) {
      const std::size_t b = cut[q][r], e = cut[q + 1][r];
      layout.stretches(r, b, e, [&](std::size_t host, std::size_t, std::size_t k) {
        in(s, to, host, k);
        to += k;
      });
      // free once these copies are issued: the copies out wait for the up stream
      for (std::size_t k = b / B; k < e / B; ++k) {
        const std::size_t home = layout.home_block(r, k);
        if (home < full) ledger.release(home);
      }
    }
    sort_slot(s, std::min(S, n - q * S));
    return s;
  };
  // Piece q's blocks out, each to its home when free.
  auto scatter = [&](std::size_t q, int s) {
    const std::size_t at = q * S, len = std::min(S, n - at);
    l.after(l.down, l.up);
    for (std::size_t j = at / B; j < full && j * B < at + len; ++j) {
      const std::size_t place = ledger.place(j);
      out(key_place(place), val_place(place), place < full, s, j * B - at, B);
    }
    if (at + len > full * B)  // the partial last block goes home directly: every item has been read
      out(c.keys + full * B, host_vals + full * B * vs, true, s, full * B - at, n - full * B);
    slot_free[s] = l.mark(l.down);
  };
  int last = -1;
  for (std::size_t q = 0; q < pieces; ++q) {
    const int s = gather(q);
    if (q > 0) scatter(q - 1, last);
    last = s;
  }
  if (pieces > 0) scatter(pieces - 1, last);
  m.drain();
  l.finish();

  // phase 3: every block home (dealt runs: only the few that found their home still unread)
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
