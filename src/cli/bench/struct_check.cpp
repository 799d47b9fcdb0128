// The check of the bench-only keys (struct_key.hpp): the reference
// permutation by libstdc++'s parallel stable sort (host code, built with
// OpenMP), computed once per point, and each output against it.
#include "struct_key.hpp"

#include <parallel/algorithm>

#include <cstring>
#include <string>

namespace gpusort::cli::bench {

template <class K> std::vector<std::uint32_t> struct_key_order(const std::vector<K>& in, bool peer) {
  struct_key_less<K> less{};
  if constexpr (std::is_same_v<K, i64f64>) less.peer = peer;
  std::vector<std::uint32_t> order(in.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = std::uint32_t(i);
  __gnu_parallel::stable_sort(order.begin(), order.end(),
                              [&](std::uint32_t a, std::uint32_t b) { return less(in[a], in[b]); });
  return order;
}

template <class K>
harness::check verify_struct_keys(const std::vector<K>& in, const std::vector<std::uint32_t>& order,
                                  const std::vector<K>& out, const std::vector<std::uint32_t>* out_vals) {
  if (order.size() != out.size()) return {false, "output has the wrong length"};
  for (std::size_t i = 0; i < out.size(); ++i)
    if (std::memcmp(&in[order[i]], &out[i], sizeof(K)) != 0)
      return {false, "key " + std::to_string(i) +
                         " differs from the stable sort's: not the stable permutation of the input"};
  if (out_vals) {
    if (out_vals->size() != out.size()) return {false, "value output has the wrong length"};
    for (std::size_t i = 0; i < out.size(); ++i)
      if ((*out_vals)[i] != order[i])
        return {false, "value " + std::to_string(i) + " is not the stable permutation's"};
  }
  return {};
}

#define GPUSORT_CLI_STRUCT_CHECK(K)                                                                      \
  template std::vector<std::uint32_t> struct_key_order<K>(const std::vector<K>&, bool);                  \
  template harness::check verify_struct_keys<K>(const std::vector<K>&, const std::vector<std::uint32_t>&, \
                                                const std::vector<K>&, const std::vector<std::uint32_t>*);
GPUSORT_CLI_STRUCT_CHECK(u32f32)
GPUSORT_CLI_STRUCT_CHECK(i64f64)
GPUSORT_CLI_STRUCT_CHECK(u128)
GPUSORT_CLI_STRUCT_CHECK(i128)
#undef GPUSORT_CLI_STRUCT_CHECK

}  // namespace gpusort::cli::bench
