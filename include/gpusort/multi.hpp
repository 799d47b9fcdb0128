// gpusort multi-GPU: one sort across the ranks of an NCCL communicator, a
// distributed sample sort (partition, one all-to-all exchange, local sort
// and merge). Include it beside gpusort.hpp; link gpusort::multi (built
// when CMake finds NCCL).
//
// Every rank calls the same function on its own device buffers, with the
// communicator and its own stream:
//   size_t bytes = 0;
//   gpusort::multi::sort_keys(nullptr, bytes, in, out, n, capacity, comm, opt);  // 1. query scratch
//   auto res = gpusort::multi::sort_keys(temp, bytes, in, out, n, capacity, comm, opt);
//   // rank r now holds out[0, res.count): the r-th contiguous range of the
//   // sorted keys of every rank; res.counts lists every rank's count
// or, allocating the scratch: gpusort::multi::sort_keys(in, out, n, capacity, comm, opt).
// Any launcher works: one process driving several GPUs (ncclCommInitAll and
// a thread per GPU, or the convenience call gpusort::multi::sort below), or
// one process per GPU (MPI, torchrun, Slurm: ncclCommInitRank with a shared
// ncclUniqueId), on one node or several.
//
// Order and stability: as gpusort::sort_keys (CUB's order, both
// directions, bit ranges), stable across ranks: equal keys keep the order of
// (rank, position) in the input. Values: any trivially copyable type of 1
// to 16 bytes.
// Balance: every rank receives n / p keys within about 5% (tagged splitters
// break ties by (key, rank, position), so skewed keys balance too), and at
// most `capacity`: size it with output_capacity(). If any rank would
// receive more than its capacity, every rank throws the same
// gpusort::error before anything is exchanged.
// The call synchronises its stream to read the exchange's sizes (NCCL takes
// them on the host): once; twice when automatic tries radix first (its
// samples' estimate is read first); three times when radix first's cut then
// falls back to sort first. So it cannot be captured in a CUDA graph. An
// error on one rank leaves the others waiting in NCCL, as any collective
// does: abort the communicator (ncclCommAbort).
#pragma once

#include <gpusort/gpusort.hpp>

#include <nccl.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace gpusort::multi {

// How each rank starts (docs/perf/multi_gpu.md compares them):
//   partition_first  partition the unsorted shard by destination rank,
//                    exchange, sort what arrived (the own bucket while the
//                    exchange runs), merge; with options::rounds = k > 1
//                    the shard is partitioned into k pieces a rank, each
//                    an equal share of its key range, and each piece is
//                    sorted as it lands while the next travels (no merge)
//   sort_first       sort the whole shard, exchange its contiguous ranges
//                    (no partition pass), merge the p sorted runs (log2 p
//                    rounds of two-way merges); with options::rounds > 1
//                    the exchange goes in rounds, each an equal share of
//                    every rank's key range, each merged while the next
//                    travels (on two H100s that measured slower: NCCL's
//                    transfers lose most of their rate beside the merges,
//                    docs/perf/multi_gpu.md)
//   radix_first      partition first whose partition is one stable radix
//                    pass by the keys' top 8 bits (an MSD radix sort's first
//                    level), the ranks cut between digits; each rank's own
//                    digits are sorted by their lower bits while the
//                    exchange runs, then what arrived, then the p runs are
//                    merged. Where a cut between digits cannot hold every
//                    rank within 5% of n / p (skewed keys), sort_first runs
//                    instead. Scratch: about five capacities
//   automatic        in one round, radix_first where the samples say the
//                    top digit balances the ranks within 2%; else
//                    sort_first (docs/perf/multi_gpu.md)
// Partial bit ranges and values that move by index take partition_first's
// rounds form (one sort a round) whatever is asked.
enum class strategy { automatic, partition_first, sort_first, radix_first };

struct options : gpusort::options {
  // Fill result's phase times (one more synchronisation of the stream).
  bool timed = false;
  strategy how = strategy::automatic;
  // The exchange's rounds (1 to max_rounds; 0 picks default_rounds; for
  // partition_first at most 255 / ranks). Every rank must pass the same, as
  // the same `how`.
  int rounds = 0;
};
constexpr int default_rounds = 1, max_rounds = 64;

struct result {
  std::size_t count = 0;            // keys this rank holds: out[0, count)
  std::vector<std::size_t> counts;  // every rank's count, by rank
  // With options::timed, in milliseconds of this rank's streams: the
  // partition (sample, splitters, scatter or split search, counts), the
  // exchange, the local sorts (partition_first: the own bucket's overlaps
  // the exchange; sort_first: the shard's, before the partition) and the
  // merges.
  float partition_ms = 0, exchange_ms = 0, sort_ms = 0, merge_ms = 0;
  // The form that ran (never automatic; sort_first for one rank).
  strategy used = strategy::automatic;
};

// An output capacity no rank exceeds when n_total keys are sorted over
// `ranks` ranks: n / p with 6.25% to spare (the balance is within 5%), and
// never below the smaller of n_total and 65536.
std::size_t output_capacity(std::size_t n_total, int ranks);

namespace detail {
template <class K>
result sort_device(ncclComm_t comm, void* temp, std::size_t* temp_bytes, const K* keys_in, K* keys_out,
                   const void* vals_in, void* vals_out, std::size_t val_size, std::size_t n, std::size_t capacity,
                   const options& opt, const char* op);
template <class K>
result sort_device_alloc(ncclComm_t comm, const K* keys_in, K* keys_out, const void* vals_in, void* vals_out,
                         std::size_t val_size, std::size_t n, std::size_t capacity, const options& opt,
                         const char* op);
template <class K> void sort_host(const K* in, K* out, std::size_t n, int gpus, const options& opt);
}  // namespace detail

// ---- keys ------------------------------------------------------------------
// Two-phase form: with temp == nullptr, sets temp_bytes and returns {}.
template <class K>
result sort_keys(void* temp, std::size_t& temp_bytes, const K* in, K* out, std::size_t n, std::size_t capacity,
                 ncclComm_t comm, const options& opt = {}) {
  gpusort::detail::check_key<K>();
  return detail::sort_device<K>(comm, temp, &temp_bytes, in, out, nullptr, nullptr, 0, n, capacity, opt,
                                "multi::sort_keys");
}
template <class K>
result sort_keys(const K* in, K* out, std::size_t n, std::size_t capacity, ncclComm_t comm, const options& opt = {}) {
  gpusort::detail::check_key<K>();
  return detail::sort_device_alloc<K>(comm, in, out, nullptr, nullptr, 0, n, capacity, opt, "multi::sort_keys");
}

// ---- pairs -----------------------------------------------------------------
template <class K, class V>
result sort_pairs(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out, const V* vals_in, V* vals_out,
                  std::size_t n, std::size_t capacity, ncclComm_t comm, const options& opt = {}) {
  gpusort::detail::check_key<K>();
  gpusort::detail::check_value<V>();
  return detail::sort_device<K>(comm, temp, &temp_bytes, keys_in, keys_out, vals_in, vals_out, sizeof(V), n,
                                capacity, opt, "multi::sort_pairs");
}
template <class K, class V>
result sort_pairs(const K* keys_in, K* keys_out, const V* vals_in, V* vals_out, std::size_t n, std::size_t capacity,
                  ncclComm_t comm, const options& opt = {}) {
  gpusort::detail::check_key<K>();
  gpusort::detail::check_value<V>();
  return detail::sort_device_alloc<K>(comm, keys_in, keys_out, vals_in, vals_out, sizeof(V), n, capacity, opt,
                                      "multi::sort_pairs");
}

// ---- the convenience call --------------------------------------------------
// Sorts one array in host memory across `gpus` GPUs of this process (0:
// every visible GPU): shard q (the q-th of equal parts) is copied to GPU q
// (pageable memory staged through pinned slots, as gpusort::sort does),
// the GPUs sort together over NCCL (ncclCommInitAll, one thread a GPU),
// and each copies its range back. opt.stream is not used (each GPU has its own).
// Its communicators and device memory (a pool per GPU) are kept for the next
// call: creating the one and mapping the other cost more than the sort.
template <class K> void sort(std::span<K> data, int gpus = 0, const options& opt = {}) {
  gpusort::detail::check_key<K>();
  detail::sort_host<K>(data.data(), data.data(), data.size(), gpus, opt);
}
// The same, out of place: the sorted keys of `in` into `out` (in is not
// written; host or device memory, each side its own). in and out have one
// length, and do not overlap unless they are the same array. Into
// page-locked or device memory the GPUs write `out` directly; a pageable
// `out` is first filled from a host `in` with every core (faster than the
// GPUs' staging threads faulting in its pages), then sorted in place.
template <class K> void sort(std::span<const K> in, std::span<K> out, int gpus = 0, const options& opt = {}) {
  gpusort::detail::check_key<K>();
  if (in.size() != out.size())
    throw gpusort::error(gpusort::errc::invalid_argument,
                         "gpusort: multi::sort: in has " + std::to_string(in.size()) + " keys, out " +
                             std::to_string(out.size()));
  detail::sort_host<K>(in.data(), out.data(), in.size(), gpus, opt);
}

// Gives back what the convenience call keeps between calls: its pools'
// device memory and its idle communicators. Not while a call runs.
void release_cache();

// The NCCL configuration of the communicators gpusort makes over `ranks`
// GPUs (the convenience call's, the CLI's, the bench's and Python's): the
// exchange's kernels capped at comm_ctas_for(ranks) CTAs.
// - Two GPUs: 16, so that the sort beside radix first's exchange keeps most
//   of the SMs. On two H200s, 2^31 u32 keys took 24.72 ms against 25.33 with
//   NCCL's default of 32, and 2^30 u64 + u64 pairs 46.44 against 47.03 (sort
//   first, whose exchange runs alone, loses about 1.4 ms at 2^31 u32).
// - Three or more: 32. Each GPU's exchange then reaches several peers over
//   the same CTAs. On four H100s, 2^32 u32 keys by radix first took 40.07 ms
//   against 48.73 with 16 (the exchange 15.95 against 24.52 ms); 64 gave
//   40.00.
// (docs/perf/multi_gpu.md.) A caller that makes its own communicators may
// pass it to ncclCommInitRankConfig.
constexpr int comm_ctas = 16;
constexpr int comm_ctas_wide = 32;
constexpr int comm_ctas_for(int ranks) { return ranks <= 2 ? comm_ctas : comm_ctas_wide; }
ncclConfig_t comm_config(int ranks);
// Communicators over GPUs 0 .. g - 1 of this process, one a GPU, with
// `config` (ncclCommInitAll's shape, one group of ncclCommInitRankConfig),
// comm_config(g) by default. Throws gpusort::error naming NCCL's error.
std::vector<ncclComm_t> init_comms(int g, const ncclConfig_t& config);
std::vector<ncclComm_t> init_comms(int g);

}  // namespace gpusort::multi
