// The bench-only keys (struct_key.hpp): our sorters (for u32f32 the
// comparator API's merge sort and the decomposer's radix sort, for u128 and
// i128 sort_keys and sort_pairs; CUB's are peers/cub_struct.cuh and
// peers/cub_wide.cuh) and the inputs; the check is struct_check.cpp.
#include "struct_key.hpp"

#include "args.hpp"

#include <gpusort/merge_sort.cuh>
#include <gpusort/structs.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace gpusort::cli::bench {

namespace {

using index32 = std::uint32_t;  // the (unused) value type of keys-only sorters

class ours_struct final : public device_sorter<u32f32, index32> {
 public:
  std::size_t scratch_bytes(u32f32* keys_in, u32f32* keys_out, index32*, index32*,
                            std::size_t n) override {
    std::size_t bytes = 0;
    gpusort::merge_sort_keys(nullptr, bytes, keys_in, keys_out, n, by_major_minor{});
    return bytes;
  }
  void sort(void* temp, std::size_t temp_bytes, u32f32* keys_in, u32f32* keys_out, index32*,
            index32*, std::size_t n, cudaStream_t stream) override {
    gpusort::merge_sort_keys(temp, temp_bytes, keys_in, keys_out, n, by_major_minor{}, stream);
  }
};

// The decomposer's radix sort (sort_structs_device), keys or pairs, the
// members in the directions of the key (nullptr: all ascending).
template <class K> const order* member_directions() { return nullptr; }
template <> const order* member_directions<i64f64>() {
  static constexpr order dirs[] = {order::ascending, order::descending};
  return dirs;
}

// One of the library's two-phase calls as a sorter, keys or pairs: Call's
// static run(temp, bytes, keys_in, keys_out, vals_in, vals_out, n, opt),
// vals_in null for keys alone.
template <class K, class Call> class ours_call final : public device_sorter<K, index32> {
 public:
  std::size_t scratch_bytes(K* keys_in, K* keys_out, index32* vals_in, index32* vals_out, std::size_t n) override {
    std::size_t bytes = 0;
    Call::run(nullptr, bytes, keys_in, keys_out, vals_in, vals_out, n, options{});
    return bytes;
  }
  void sort(void* temp, std::size_t temp_bytes, K* keys_in, K* keys_out, index32* vals_in, index32* vals_out,
            std::size_t n, cudaStream_t stream) override {
    options opt;
    opt.stream = stream;
    Call::run(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, n, opt);
  }
};

// The decomposer's radix sort (sort_structs_device), the members in the
// directions of the key.
template <class K, class Decomposer> struct by_structs {
  static void run(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, index32* vals_in, index32* vals_out,
                  std::size_t n, const options& opt) {
    if (vals_in)
      sort_structs_pairs_device(temp, bytes, keys_in, keys_out, vals_in, vals_out, n, Decomposer{}, opt,
                                member_directions<K>());
    else
      sort_structs_device(temp, bytes, keys_in, keys_out, n, Decomposer{}, opt, member_directions<K>());
  }
};

// 128-bit integers: sort_keys and sort_pairs (the record sort of their halves).
template <class K> struct by_wide_keys {
  static void run(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, index32* vals_in, index32* vals_out,
                  std::size_t n, const options& opt) {
    if (vals_in)
      gpusort::sort_pairs(temp, bytes, keys_in, keys_out, vals_in, vals_out, n, opt);
    else
      gpusort::sort_keys(temp, bytes, keys_in, keys_out, n, opt);
  }
};

bool by_comparator(const method& m) {
  return m.which == peer::cub_merge || (m.kind == method_kind::ours && m.algo == algorithm::merge_path);
}
bool by_decomposer(const method& m) {
  return (m.kind == method_kind::gpu_peer && m.which == peer::cub_radix) ||
         (m.kind == method_kind::ours && m.algo == algorithm::automatic && !m.segmented);
}

}  // namespace

template <class K> suite_config struct_key_suite(const suite_config& cfg) {
  constexpr bool wide = is_wide_key<K>;
  constexpr bool radix_only = wide || std::is_same_v<K, i64f64>;  // no comparator rows
  suite_config out = cfg;
  out.methods.clear();
  out.dists.clear();
  std::string skipped;
  {
    std::string methods;
    for (const method* m : cfg.methods)
      if (by_decomposer(*m) || (!radix_only && !cfg.pairs && by_comparator(*m)))
        out.methods.push_back(m);
      else
        append_item(methods, m->name, ',');
    if (!methods.empty())
      skipped = methods + (wide        ? " (128-bit keys: automatic and the cub_radix peers)"
                           : radix_only ? " (only automatic and the cub_radix peers, by the decomposer)"
                           : cfg.pairs ? " (pairs: only automatic and the cub_radix peers, by the decomposer)"
                                       : " (only merge_path and cub_merge take the comparator, automatic and "
                                         "cub_radix the decomposer)");
    bool special = false;
    for (const bench_dist& d : cfg.dists)
      if (!wide && !d.segmented() && d.keys == harness::dist::float_special)
        special = true;
      else
        out.dists.push_back(d);  // segmented ones: no method here sorts them
    if (special)
      skipped += std::string(skipped.empty() ? "" : "; ") +
                 "float_special inputs (NaN minors are unordered by <)";
  }
  if (out.methods.empty()) out.dists.clear();
  if (!skipped.empty())
    std::printf("\n%s keys: skipping %s\n", bench_key_name<K>().c_str(), skipped.c_str());
  return out;
}

template <class K> std::vector<K> generate_struct_keys(harness::dist d, std::size_t n, std::uint64_t seed) {
  std::vector<K> keys(n);
  if constexpr (std::is_same_v<K, i64f64>) {
    const auto id = harness::generate<std::int64_t>(d, n, seed);
    const auto score = harness::generate<double>(d, n, seed ^ 0x9e3779b97f4a7c15ull);
    for (std::size_t i = 0; i < n; ++i) keys[i] = {id[i], score[i]};
  } else if constexpr (std::is_same_v<K, u32f32>) {
    const auto major = harness::generate<std::uint32_t>(d, n, seed);
    const auto minor = harness::generate<float>(d, n, seed ^ 0x9e3779b97f4a7c15ull);
    for (std::size_t i = 0; i < n; ++i) keys[i] = {major[i], minor[i]};
  } else {
    using high = std::conditional_t<std::is_same_v<K, i128>, std::int64_t, std::uint64_t>;
    const auto hi = harness::generate<high>(d, n, seed);
    const auto lo = harness::generate<std::uint64_t>(d, n, seed ^ 0x9e3779b97f4a7c15ull);
    for (std::size_t i = 0; i < n; ++i) keys[i] = K(u128(std::uint64_t(hi[i])) << 64 | lo[i]);
  }
  return keys;
}

template <class K> std::unique_ptr<device_sorter<K, index32>> make_struct_sorter(const method& m) {
  if constexpr (is_wide_key<K>) {
    if (m.kind == method_kind::gpu_peer && m.which == peer::cub_radix) {
      if (m.cub == cub_build::cuda) return make_cub_wide_radix<K, cub_build::cuda>();
      if constexpr (has_cub_latest) return make_cub_wide_radix<K, cub_build::latest>();
      return nullptr;
    }
    if (by_decomposer(m)) return std::make_unique<ours_call<K, by_wide_keys<K>>>();
    return nullptr;
  } else if constexpr (std::is_same_v<K, i64f64>) {
    if (m.kind == method_kind::gpu_peer && m.which == peer::cub_radix) {
      if (m.cub == cub_build::cuda) return make_cub_i64f64_radix<cub_build::cuda>();
      if constexpr (has_cub_latest) return make_cub_i64f64_radix<cub_build::latest>();
      return nullptr;
    }
    if (by_decomposer(m)) return std::make_unique<ours_call<i64f64, by_structs<i64f64, id_score_decomposer>>>();
    return nullptr;
  } else {
    if (m.kind == method_kind::gpu_peer && m.which == peer::cub_merge) {
      if (m.cub == cub_build::cuda) return make_cub_struct<cub_build::cuda>();
      if constexpr (has_cub_latest) return make_cub_struct<cub_build::latest>();
      return nullptr;
    }
    if (m.kind == method_kind::gpu_peer && m.which == peer::cub_radix) {
      if (m.cub == cub_build::cuda) return make_cub_struct_radix<cub_build::cuda>();
      if constexpr (has_cub_latest) return make_cub_struct_radix<cub_build::latest>();
      return nullptr;
    }
    if (by_decomposer(m)) return std::make_unique<ours_call<u32f32, by_structs<u32f32, major_minor_decomposer>>>();
    if (by_comparator(m)) return std::make_unique<ours_struct>();
    return nullptr;
  }
}

#define GPUSORT_CLI_STRUCT_KEY(K)                                                                      \
  template suite_config struct_key_suite<K>(const suite_config&);                                      \
  template std::vector<K> generate_struct_keys<K>(harness::dist, std::size_t, std::uint64_t);          \
  template std::unique_ptr<device_sorter<K, index32>> make_struct_sorter<K>(const method&);
GPUSORT_CLI_STRUCT_KEY(u32f32)
GPUSORT_CLI_STRUCT_KEY(i64f64)
GPUSORT_CLI_STRUCT_KEY(u128)
GPUSORT_CLI_STRUCT_KEY(i128)
#undef GPUSORT_CLI_STRUCT_KEY

}  // namespace gpusort::cli::bench
