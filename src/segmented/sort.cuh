// gpusort::segmented_sort_keys / _pairs: many independent stable sorts in
// one call, with no host synchronisation (the call can be captured in a
// CUDA graph). The phases and their files:
//   bin     every segment to its size class, on the device (bins.cuh)
//   small   one kernel per class up to tuning::block_max keys (small.cuh):
//           copy, thread, group and block classes
//   large   onesweep passes over the segments' tiles, up to 2^28 keys a
//           segment (large.cuh)
//   huge    runs, merge-path passes and a gather beyond (huge.cuh)
// Every grid is sized from what the host knows (n, the number of
// segments); the kernels read their work from the class list.
//
// Scratch (one temp block): the class list; a copy of the input for
// in-place calls (the outputs read the input); when a segment can be large
// (n and the longest segment the caller allows > block_max), the large
// class's lists, counters and buffers, and when one can be huge (> 2^28),
// the huge class's, both in one region (the two run one after the other).
#pragma once

#include "segmented/block.cuh"
#include "segmented/call.hpp"
#include "segmented/grid.cuh"
#include "segmented/group.cuh"
#include "segmented/huge.cuh"
#include "segmented/large.cuh"
#include "segmented/plan.hpp"
#include "segmented/small.cuh"

#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/launch.cuh>
#include <gpusort/detail/core/temp_layout.hpp>
#include <gpusort/detail/merge/merge_passes.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gpusort::detail::segmented {

template <class K> struct launch_args {
  class_args<K> args;
  cudaStream_t stream;
  const call_context* ctx_ptr;
};

// Keys alone in an order of every bit: the ranks are the keys, no index
// and no gather.
template <class K> bool bare(const launch_args<K>& a) { return !a.args.vals.in && a.args.ord.full_range(); }

// f(std::bool_constant<STAGED>): whether the comparison classes stage the
// values in shared memory (values.cuh: 4 or 8 bytes, aligned).
template <class K, class F> void with_staged(const launch_args<K>& a, F f) {
  if (staged_values(a.args.vals)) f(std::true_type{});
  else f(std::false_type{});
}

// The copy and thread classes: one launch, its grid sized for the most
// segments any of them can hold (the copy class's: every segment).
template <class K> void launch_threads(const launch_args<K>& a, std::size_t segments) {
  auto launch = [&](auto kernel, int threads) {
    const unsigned grid = class_grid(*a.ctx_ptr, kernel, threads, (segments + threads - 1) / threads);
    kernel<<<grid, threads, 0, a.stream>>>(a.args);
    a.ctx_ptr->check_launch("segmented thread sort");
  };
  if (bare(a)) return launch(thread_kernel<K, true>, tuning::group_threads);
  with_staged(a, [&](auto staged) {
    launch(thread_kernel<K, false, staged.value>, tuning::thread_threads<staged.value>);
  });
}

// The group classes of up to 64 keys (32 for 8-byte keys) as thread
// classes (bare): 32 segments a warp.
template <class K> void launch_wide(const launch_args<K>& a, std::size_t segments, std::size_t n) {
  constexpr int threads = tuning::wide_threads<typename key_traits<K>::bits>;
  auto kernel = wide_thread_kernel<K>;
  const std::size_t min_size = tuning::thread_max + 1;
  const unsigned grid =
      class_grid(*a.ctx_ptr, kernel, threads, (at_most(segments, n, min_size) + threads - 1) / threads);
  kernel<<<grid, threads, 0, a.stream>>>(a.args);
  a.ctx_ptr->check_launch("segmented thread sort");
}

// The group classes from tuning::pair_first to 64 keys by lane pairs
// (pair_kernel, tuning::pair_lanes): 16 segments a warp at 33 to 64 keys.
template <bool BARE, class K> void launch_pairs(const launch_args<K>& a, std::size_t segments, std::size_t n) {
  using U = typename key_traits<K>::bits;
  constexpr int C0 = tuning::pair_first<U, BARE>, threads = tuning::pair_threads;
  constexpr int per_block = threads / 2;
  const std::size_t min_size = (std::size_t(tuning::thread_max) << C0) + 1;  // capacity 2^(C0+5)
  auto launch = [&](auto kernel) {
    const unsigned grid =
        class_grid(*a.ctx_ptr, kernel, threads, (at_most(segments, n, min_size) + per_block - 1) / per_block);
    kernel<<<grid, threads, 0, a.stream>>>(a.args);
    a.ctx_ptr->check_launch("segmented pair sort");
  };
  if constexpr (BARE) launch(pair_kernel<K, true, false>);
  else with_staged(a, [&](auto staged) { launch(pair_kernel<K, false, staged.value>); });
}

// The group classes C0 .. C1 - 1 in one launch: those of four items a lane,
// and the one of eight in another (it runs at half their occupancy); when
// the wide kernel takes the first two (keys of up to 4 bytes), the last two
// in one (a launch that finds no work costs about 3 us).
template <int C0, int C1, class K> void launch_groups(const launch_args<K>& a, std::size_t segments, std::size_t n) {
  constexpr int per_block = tuning::group_threads / tuning::group_lanes[C0];
  const std::size_t min_size = (std::size_t(tuning::thread_max) << C0) + 1;  // capacity 2^(C0+5)
  with_staged(a, [&](auto staged) {
    auto kernel = group_kernel<C0, C1, K, staged.value>;
    const unsigned grid = class_grid(*a.ctx_ptr, kernel, tuning::group_threads,
                                     (at_most(segments, n, min_size) + per_block - 1) / per_block);
    kernel<<<grid, tuning::group_threads, 0, a.stream>>>(a.args);
    a.ctx_ptr->check_launch("segmented group sort");
  });
}

template <int C, class K> void launch_blocks(const launch_args<K>& a, std::size_t segments, std::size_t n) {
  if constexpr (C < tuning::block_classes) {
    using U = typename key_traits<K>::bits;
    constexpr bool radix = tuning::block_radix<U>;
    constexpr int T = radix ? tuning::block_radix_threads[C] : tuning::block_merge_threads[C];
    constexpr int ITEMS = radix ? tuning::block_radix_items[C] : tuning::block_merge_items[C];
    const std::size_t min_size = (std::size_t(256) << C) + 1;
    auto launch = [&](auto kernel) {
      const unsigned grid = class_grid(*a.ctx_ptr, kernel, T, at_most(segments, n, min_size));
      kernel<<<grid, T, 0, a.stream>>>(a.args, tuning::first_block + C);
      a.ctx_ptr->check_launch("segmented block sort");
    };
    if constexpr (radix) {
      if (a.args.vals.in) launch(block_radix_kernel<T, ITEMS, K, std::uint16_t>);
      else launch(block_radix_kernel<T, ITEMS, K, no_value>);
    } else {
      launch(block_merge_kernel<T, ITEMS, K>);
    }
    launch_blocks<C + 1>(a, segments, n);
  }
}

template <class K> struct layout {
  bins b;
  K* key_copy = nullptr;
  void* val_copy = nullptr;
  std::size_t large_bound = 0, huge_bound = 0;

  layout(temp_layout& t, const call<K>& c) {
    b = take_bins(t, c.segments);
    if (c.keys_in == c.keys_out) key_copy = t.take<K>(c.n);
    if (c.val_size && c.vals_in == c.vals_out) val_copy = t.take<std::uint8_t>(c.n * c.val_size);
    const std::size_t longest = c.longest < c.n ? c.longest : c.n;
    const std::size_t block_max = tuning::block_max;
    large_bound = longest > block_max ? at_most(c.segments, c.n, block_max + 1) : 0;
    huge_bound = longest > tuning::large_max ? at_most(c.segments, c.n, tuning::large_max + 1) : 0;
  }
};

// The large class, keys alone or with values (their positions ride the
// passes), carved at `t` from the same code that sizes it.
template <class K> void large_class(temp_layout& t, const call<K>& c, std::size_t bound, const K* kin,
                                    const offsets* off, const bins* b, const value_mover* vals) {
  auto go = [&](auto path) {
    if (off) path.sort(*c.ctx, kin, c.keys_out, c.ord, *off, *b, *vals, c.stream);
  };
  if (c.val_size) go(large_path<K, std::uint32_t>(t, bound, c.n, c.segments, c.ord));
  else go(large_path<K, no_value>(t, bound, c.n, c.segments, c.ord));
}

// The huge class, with 32-bit indices while n < 2^32.
template <class K> void huge_class(temp_layout& t, const call<K>& c, std::size_t bound, const K* kin,
                                   const offsets* off, const bins* b, const value_mover* vals) {
  auto go = [&](auto path) {
    if (off) path.sort(c, kin, *off, *b, *vals);
  };
  if (c.n > 0xFFFFFFFFull) go(huge_path<K, std::uint64_t>(t, bound, c.n));
  else go(huge_path<K, std::uint32_t>(t, bound, c.n));
}

template <class K> void run(const call<K>& c) {
  const call_context& ctx = *c.ctx;
  temp_layout t(c.temp);
  const layout<K> lay(t, c);
  // The large and the huge class run one after the other on the stream:
  // their scratch is one region, as large as the larger of the two.
  const std::size_t tail_at = t.bytes();
  temp_layout large_t, huge_t;
  if (lay.large_bound) large_class(large_t, c, lay.large_bound, c.keys_in, nullptr, nullptr, nullptr);
  if (lay.huge_bound) huge_class(huge_t, c, lay.huge_bound, c.keys_in, nullptr, nullptr, nullptr);
  t.take<std::uint8_t>(large_t.bytes() > huge_t.bytes() ? large_t.bytes() : huge_t.bytes());
  if (!c.temp) {
    *c.temp_bytes = t.bytes() ? t.bytes() : 1;
    return;
  }
  if (*c.temp_bytes < t.bytes())
    ctx.fail(errc::invalid_argument, "temp_bytes smaller than the query returned (" + std::to_string(t.bytes()) + ")");
  if (c.n == 0 || c.segments == 0) return;

  // in place: the outputs gather from a copy of the input
  const K* kin = c.keys_in;
  const void* vin = c.vals_in;
  if (lay.key_copy) {
    ctx.check(cudaMemcpyAsync(lay.key_copy, kin, c.n * sizeof(K), cudaMemcpyDeviceToDevice, c.stream),
              "cudaMemcpyAsync(keys)");
    kin = lay.key_copy;
  }
  if (lay.val_copy) {
    ctx.check(cudaMemcpyAsync(lay.val_copy, vin, c.n * c.val_size, cudaMemcpyDeviceToDevice, c.stream),
              "cudaMemcpyAsync(values)");
    vin = lay.val_copy;
  }
  const offsets off{c.begin_offsets, c.end_offsets, c.offset_bytes, c.n};
  const value_mover vals = value_mover::of(c.val_size ? vin : nullptr, c.vals_out, c.val_size);

  // bin
  bin_segments(ctx, off, c.segments, lay.b, c.stream);

  // small
  const launch_args<K> a{{kin, c.keys_out, vals, off, lay.b, c.ord}, c.stream, &ctx};
  using U = typename key_traits<K>::bits;
  launch_threads(a, c.segments);
  if (bare(a)) {
    launch_wide(a, c.segments, c.n);
    if constexpr (tuning::wide_classes<U> == 2) {
      launch_groups<2, 4>(a, c.segments, c.n);  // the two left in one launch
    } else {
      launch_pairs<true>(a, c.segments, c.n);  // 33 to 64 keys
      launch_groups<2, 3>(a, c.segments, c.n);
      launch_groups<3, 4>(a, c.segments, c.n);
    }
  } else {
    launch_pairs<false>(a, c.segments, c.n);  // 17 to 64 keys
    launch_groups<2, 3>(a, c.segments, c.n);
    launch_groups<3, 4>(a, c.segments, c.n);
  }
  launch_blocks<0>(a, c.segments, c.n);

  // large, huge
  if (lay.large_bound) {
    temp_layout lt(static_cast<std::uint8_t*>(c.temp) + tail_at);
    large_class(lt, c, lay.large_bound, kin, &off, &lay.b, &vals);
  }
  if (lay.huge_bound) {
    temp_layout ht(static_cast<std::uint8_t*>(c.temp) + tail_at);
    huge_class(ht, c, lay.huge_bound, kin, &off, &lay.b, &vals);
  }
}

}  // namespace gpusort::detail::segmented
