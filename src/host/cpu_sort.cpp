// The CPU backend: a parallel stable sort from GNU libstdc++'s parallel
// mode (multiway mergesort over OpenMP), under the same order as the GPU
// sorts (key_order: CUB's order, descending, bit ranges).
//
// Keys: __gnu_parallel::stable_sort on the keys themselves.
// Pairs: sort (rank, original index) records - a total order, so any
// parallel sort gives the stable result - then gather keys and values.
// Compiled for the carrier key types only (signed keys as unsigned, bf16
// as f16: key_traits.hpp).
#include "host/cpu_sort.hpp"

#include "core/validate.hpp"

#include <parallel/algorithm>

#include <cstdint>
#include <cstring>
#include <vector>

namespace gpusort::detail {

namespace {

// Sorts keys of the carrier type K (key_traits.hpp): signed keys and bf16
// arrive reinterpreted, with the order carried_order made for them.
template <class K>
void cpu_sort_carried(K* keys, void* vals, std::size_t val_size, std::size_t n, const key_order<K>& ord) {
  using U = typename key_traits<K>::bits;
  if (!vals) {
    __gnu_parallel::stable_sort(keys, keys + n, [&](const K& a, const K& b) { return ord.key_rank(a) < ord.key_rank(b); });
    return;
  }
  struct record {
    U rank;
    std::uint64_t index;
  };
  std::vector<record> recs(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < std::int64_t(n); ++i) recs[i] = {ord.key_rank(keys[i]), std::uint64_t(i)};
  __gnu_parallel::sort(recs.begin(), recs.end(), [](const record& a, const record& b) {
    return a.rank < b.rank || (a.rank == b.rank && a.index < b.index);
  });
  std::vector<K> k2(n);
  std::vector<unsigned char> v2(n * val_size);
  auto* vb = static_cast<unsigned char*>(vals);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < std::int64_t(n); ++i) {
    k2[i] = keys[recs[i].index];
    std::memcpy(&v2[i * val_size], vb + recs[i].index * val_size, val_size);
  }
  std::memcpy(keys, k2.data(), n * sizeof(K));
  std::memcpy(vals, v2.data(), n * val_size);
}

}  // namespace

template <class K>
void cpu_sort(K* keys, void* vals, std::size_t val_size, std::size_t n, const options& opt,
              const call_context& ctx) {
  const key_order<K> ord = checked_order<K>(opt, ctx);
  if (n < 2) return;
  using C = carrier_t<K>;
  cpu_sort_carried<C>(reinterpret_cast<C*>(keys), vals, val_size, n, carried_order(ord));
}

#define GPUSORT_INSTANTIATE_CPU(K) \
  template void cpu_sort<K>(K*, void*, std::size_t, std::size_t, const options&, const call_context&);
GPUSORT_FOR_EACH_KEY(GPUSORT_INSTANTIATE_CPU)

}  // namespace gpusort::detail
