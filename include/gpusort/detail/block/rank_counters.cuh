// Block-wide radix ranking with thread-private digit counters (Merrill &
// Grimshaw 2011, "High Performance and Scalable Radix Sorting", section 5:
// per-thread counters in shared memory, packed two 16-bit counters to a
// word, and a raking scan over them). Used by the single-block sort
// (radix/small_sort.cuh), where the tile is small and one pass is a chain of
// dependent steps on one SM: this ranker spends no ballot, atomic or shuffle
// per key (rank.cuh spends 8 ballots, an atomic and a shuffle).
//
// A tile of THREADS * ITEMS keys is held *blocked*: item i of thread t is
// tile slot t * ITEMS + i. rank() gives every key its slot in the tile
// stably sorted by one digit of at most MAX_BITS bits:
//   count  each thread counts its digits in its own counters (a column of
//          the counter array): the count before an item is that item's
//          place among the thread's keys of its digit
//   scan   the counter array, read in the order (digit, thread), is one
//          exclusive scan: raking threads each sum a segment of it, a block
//          scan of the sums, then each segment is rescanned in place
//   rank   an item's slot = its counter (now the scanned start of its digit
//          and thread) + its place among the thread's keys of its digit
// Equal digits keep slot order (threads in order, items in order): stable.
//
// Packing: digit d lives in word row d mod ROWS, half d / ROWS (ROWS =
// 2^(MAX_BITS - 1)), so one 32-bit scan carries both halves; the upper
// halves then add the count of every lower-half digit. Counts stay below
// 2^16: the tile is at most 65535 keys.
#pragma once

#include <gpusort/detail/block/rank.cuh>

#include <cstdint>

namespace gpusort::detail::block {

template <int THREADS, int ITEMS, int MAX_BITS, bool BY_COMPARE = false> struct block_rank_counters {
  static_assert(THREADS % 32 == 0 && THREADS <= 1024, "whole warps, at most 32");
  static_assert(MAX_BITS >= 3 && MAX_BITS <= 7, "rows of 4 to 64 words");
  static constexpr int rows = 1 << (MAX_BITS - 1);  // counter words per thread
  static constexpr int warps = THREADS / 32;
  static constexpr int tile = THREADS * ITEMS;
  static_assert(tile < 65536, "16-bit counters");
  static_assert(THREADS % rows == 0, "a raking segment stays inside one row");

  // counters[row][column]: thread t's counters are column t. Inside each
  // 32-column group the 16-byte chunks are rotated by the group index, so a
  // thread's column accesses (one per warp lane) and the raking threads'
  // 16-byte segment reads are both free of bank conflicts.
  struct storage {
    alignas(16) std::uint32_t words[rows * THREADS];
  };

  __device__ __forceinline__ static unsigned physical_column(unsigned c) {
    return (c & ~31u) | ((((c >> 2) + (c >> 5)) & 7u) << 2) | (c & 3u);
  }

  // Zeroes this thread's counters (each thread only ever counts in its own
  // column, so no barrier is needed before its next count).
  __device__ __forceinline__ static void clear(storage& s) {
    const unsigned col = physical_column(threadIdx.x);
#pragma unroll
    for (int r = 0; r < rows; ++r) s.words[r * THREADS + col] = 0;
  }

  // Ranks the tile by digit[i] (< 2^MAX_BITS) into ranks[i]. The counters
  // must be clear (clear() once before the first rank); rank() leaves them
  // clear again. `warp_sums` (warps words) may alias memory the caller does
  // not touch between rank()'s first and last barrier. Three barriers.
  __device__ __forceinline__ static void rank(storage& s, std::uint32_t* warp_sums, const unsigned (&digit)[ITEMS],
                                              unsigned (&ranks)[ITEMS]) {
    auto* half = reinterpret_cast<std::uint16_t*>(s.words);
    const unsigned col = physical_column(threadIdx.x);
    unsigned at[ITEMS];     // 16-bit counter of each item
    unsigned place[ITEMS];  // keys of the item's digit before it in this thread
    // count
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      const unsigned d = digit[i];
      at[i] = ((d & (rows - 1)) * THREADS + col) * 2 + (d >> (MAX_BITS - 1));
      if constexpr (BY_COMPARE) {
        // the counters start clear: an item's place is the number of earlier
        // items with its digit; stores in item order leave each count
        place[i] = 0;
#pragma unroll
        for (int j = 0; j < i; ++j) place[i] += digit[j] == d ? 1u : 0u;
      } else {
        place[i] = half[at[i]];
      }
      half[at[i]] = std::uint16_t(place[i] + 1);
    }
    __syncthreads();
    // scan: thread j rakes words [j * rows, (j + 1) * rows) of the
    // (row, column) order, all in one row
    const unsigned first = threadIdx.x * rows;
    const unsigned row = first / THREADS, col0 = first % THREADS;
    uint4* chunk[rows / 4];
    uint4 seg[rows / 4];
#pragma unroll
    for (int m = 0; m < rows / 4; ++m) {
      chunk[m] = reinterpret_cast<uint4*>(&s.words[row * THREADS + physical_column(col0 + 4 * m)]);
      seg[m] = *chunk[m];
    }
    unsigned sum = 0;
#pragma unroll
    for (int m = 0; m < rows / 4; ++m) sum += (seg[m].x + seg[m].y) + (seg[m].z + seg[m].w);
    unsigned total;
    const unsigned exclusive = block_exclusive_sum<THREADS>(sum, warp_sums, total);
    // the upper halves start after every lower-half digit
    unsigned run = exclusive + ((total & 0xffffu) << 16);
#pragma unroll
    for (int m = 0; m < rows / 4; ++m) {
      uint4 v = seg[m];
      v.x = run;
      run += seg[m].x;
      v.y = run;
      run += seg[m].y;
      v.z = run;
      run += seg[m].z;
      v.w = run;
      run += seg[m].w;
      *chunk[m] = v;
    }
    __syncthreads();
    // rank
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) ranks[i] = half[at[i]] + place[i];
    clear(s);
  }
};

}  // namespace gpusort::detail::block
