// GPU quicksort: one level's multi-pivot partition, in two launches.
// After seed 004's qsort_warp (NVIDIA's cdpAdvancedQuicksort) and
// Cederman & Tsigas 2008 phase 1 (warp ballots rank the keys, one atomicAdd
// per block and class reserves their output), generalised from one pivot
// to 31 (Aumüller & Dietzfelbinger 2016, "How to Generalize Quicksort"):
// each level splits a segment up to 32 ways, so about log32 levels instead
// of log2 move the keys (3 instead of 13 at 2^26). With several pivots the
// classes' places are not known from the two ends of the segment, so each
// level counts first:
//
//   count      count_kernel: every key's class, summed per block in shared
//              memory, then one atomicAdd per class and chunk into its
//              segment's counts (read 1x)
//   offsets    schedule.cuh: each segment's classes laid out in key order
//   partition  partition_kernel: rank, reserve, exchange, store (read 1x,
//              write 1x)
//
// Classes (tuning.cuh): 2j for keys between pivots j - 1 and j (a child
// segment, partitioned again or block-sorted), 2j + 1 for keys equal to
// pivot j (finished: three-way partitioning generalised, so all-equal and
// few-unique inputs take one level). A key's class is a descent of the
// pivots' search tree in shared memory (sample/search_tree.cuh) under the
// call's order: "equal" means neither is less (bit ranges, -0.0 == +0.0).
//
// Both kernels run a grid of resident blocks over the level's work items
// (queues.cuh): block b takes items b, b + grid, ... Each item is at most
// `chunk` keys of one segment; the block reloads the search tree only when
// the segment changes.
//
// partition_kernel, per chunk:
//   load       keys (and values) into registers, warp-striped (coalesced),
//              all in flight, then each key's class
//   rank       radix::block_rank::rank_unstable on the class: each key's
//              rank in its warp's class is the old value of one shared
//              atomicAdd (seed 004 ranks by ballot + popc, which for 63
//              classes takes 6 ballots a key and measured slower), and a
//              block scan of the warps' counts gives each class's first
//              slot in the chunk
//   reserve    thread c does one atomicAdd on class c's cursor of the
//              segment, as soon as the counts are known (it overlaps the
//              scan and the ranking)
//   exchange   keys (then values) to shared memory in class order
//   store      consecutive threads store consecutive slots: each class
//              leaves as one contiguous run, coalesced
// Not stable: chunks reserve in whatever order their atomics land.
#pragma once

#include "core/payload.cuh"
#include "quick/queues.cuh"
#include "radix/block_rank.cuh"
#include "sample/search_tree.cuh"

#include <cstddef>
#include <cstdint>

namespace gpusort::detail::quick {

template <class Tune, class Ord> using class_tree = sample::splitter_tree<Ord, Tune::tree_levels>;

// The class of lanes past a chunk's end: above every class.
template <class Tune> inline constexpr unsigned pad_class = (1u << Tune::class_bits) - 1;

// Loads segment `seg`'s pivots as the block's search tree unless already
// there. Block-uniform; the caller syncs before the first descent, and had
// synced since the last one.
template <class Tune, class Ord, class Seg>
__device__ __forceinline__ void use_segment(class_tree<Tune, Ord>& tree, const Ord& ord, const Seg* segs,
                                            unsigned seg, unsigned& loaded) {
  if (seg == loaded) return;
  tree.load(ord, segs[seg].pivot);
  loaded = seg;
}

// count
template <class Tune, class K, class Ord, class Seg>
__global__ void __launch_bounds__(Tune::threads, Tune::count_blocks)
count_kernel(const K* keys, Ord ord, Seg* segs, const work* map, const counter* packed) {
  using U = typename Ord::carried;
  constexpr int TH = Tune::threads, IT = Tune::items;
  __shared__ class_tree<Tune, Ord> tree;
  __shared__ unsigned hist[Tune::warps][1 << Tune::class_bits];
  const counter items = *packed & Tune::chunk_mask;
  const unsigned lane = threadIdx.x % 32;
  unsigned* mine = hist[threadIdx.x / 32];
  unsigned loaded = ~0u;
  for (counter w = blockIdx.x; w < items; w += gridDim.x) {
    const work it = map[w];
    U k[IT];
#pragma unroll
    for (int i = 0; i < IT; ++i) {
      const int j = int(threadIdx.x) + i * TH;
      k[i] = j < it.size ? ord.encode(keys[it.at + j]) : U(0);
    }
    use_segment<Tune>(tree, ord, segs, it.seg, loaded);
    for (int c = int(lane); c < (1 << Tune::class_bits); c += 32) mine[c] = 0;
    __syncthreads();
    unsigned c[IT];
#pragma unroll
    for (int i = 0; i < IT; ++i) {
      const int j = int(threadIdx.x) + i * TH;
      c[i] = j < it.size ? tree.bucket(ord, k[i]) : pad_class<Tune>;
    }
    // a warp whose keys all share a class adds them once
    unsigned first;
    if (radix::warp_one_digit(c, ~0u, first)) {
      if (lane == 0) atomicAdd(&mine[first], 32u * IT);
    } else {
#pragma unroll
      for (int i = 0; i < IT; ++i) atomicAdd(&mine[c[i]], 1u);
    }
    __syncthreads();
    if (threadIdx.x < unsigned(Tune::classes)) {
      unsigned sum = 0;
#pragma unroll
      for (int x = 0; x < Tune::warps; ++x) sum += hist[x][threadIdx.x];
      if (sum) atomicAdd(&segs[it.seg].count[threadIdx.x], counter(sum));
    }
    __syncthreads();
  }
}

template <class Tune, class Ord, class P> struct partition_shared {
  using U = typename Ord::carried;
  using ranker = radix::block_rank<Tune::threads, Tune::items, Tune::class_bits>;
  static_assert(ranker::bins_per_thread == 1 && Tune::chunk <= (1 << 16), "one class a thread; ranks fit 16 bits");

  class_tree<Tune, Ord> tree;
  std::size_t global[ranker::bins];  // output index of chunk slot 0 of each class's run
  union {
    typename ranker::storage rank;
    struct {
      union {
        U keys[Tune::chunk];
        P vals[Tune::chunk];
      };
      std::uint8_t classes[Tune::chunk];
    } x;
  };
};

// partition: every class of work item w's chunk of `kin` (and `vin`) goes
// to its place in `kdst` (and `vdst`)
template <class Tune, class K, class P, class Ord, class Seg>
__global__ void __launch_bounds__(Tune::threads, Tune::partition_blocks)
partition_kernel(const K* kin, const P* vin, K* kdst, P* vdst, Ord ord, Seg* segs, const work* map,
                 const counter* packed) {
  using U = typename Ord::carried;
  using shared = partition_shared<Tune, Ord, P>;
  using ranker = typename shared::ranker;
  constexpr int TH = Tune::threads, IT = Tune::items;
  constexpr bool pairs = !is_no_value<P>;
  __shared__ shared s;
  const counter items = *packed & Tune::chunk_mask;
  unsigned loaded = ~0u;
  for (counter w = blockIdx.x; w < items; w += gridDim.x) {
    const work it = map[w];
    const bool full = it.size == Tune::chunk;
    // load
    U key[IT];
    P val[IT];
    unsigned cr[IT];  // class | rank << 16
#pragma unroll
    for (int i = 0; i < IT; ++i) {
      const int slot = int(ranker::slot(i));
      const bool live = full || slot < it.size;
      key[i] = live ? ord.encode(kin[it.at + slot]) : U(0);
      if constexpr (pairs)
        if (live) val[i] = vin[it.at + slot];
    }
    use_segment<Tune>(s.tree, ord, segs, it.seg, loaded);
    __syncthreads();  // the tree is there; the last chunk's exchange has been read
#pragma unroll
    for (int i = 0; i < IT; ++i) {
      const bool live = full || int(ranker::slot(i)) < it.size;
      cr[i] = live ? s.tree.bucket(ord, key[i]) : pad_class<Tune>;
    }
    // rank, and reserve as soon as the counts are known
    counter at = 0;
    unsigned counts[1], starts[1];
    counter* cursor = segs[it.seg].cursor;
    ranker::rank_unstable(s.rank, cr, counts, starts, [&](const unsigned(&c)[1]) {
      if (threadIdx.x < unsigned(Tune::classes) && c[0]) at = atomicAdd(cursor + threadIdx.x, counter(c[0]));
      return false;
    });
    if (threadIdx.x < unsigned(ranker::bins)) s.global[threadIdx.x] = std::size_t(at) - starts[0];  // wraps; + slot is exact
    __syncthreads();  // every rank is known: the exchange may overwrite the histograms
    // exchange
#pragma unroll
    for (int i = 0; i < IT; ++i) {
      s.x.keys[cr[i] >> 16] = key[i];
      s.x.classes[cr[i] >> 16] = std::uint8_t(cr[i]);
    }
    __syncthreads();
    // store
#pragma unroll
    for (int u = 0; u < IT; ++u) {
      const int slot = int(threadIdx.x) + u * TH;
      if (full || slot < it.size) kdst[s.global[s.x.classes[slot]] + slot] = ord.decode(s.x.keys[slot]);
    }
    if constexpr (pairs) {
      __syncthreads();  // the keys are out: the values reuse the exchange
#pragma unroll
      for (int i = 0; i < IT; ++i) s.x.vals[cr[i] >> 16] = val[i];
      __syncthreads();
#pragma unroll
      for (int u = 0; u < IT; ++u) {
        const int slot = int(threadIdx.x) + u * TH;
        if (full || slot < it.size) vdst[s.global[s.x.classes[slot]] + slot] = s.x.vals[slot];
      }
    }
    __syncthreads();  // the next chunk ranks over the exchange and may reload the tree
  }
}

}  // namespace gpusort::detail::quick
