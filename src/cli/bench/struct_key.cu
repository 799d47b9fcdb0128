// The struct key u32f32 (struct_key.hpp): our sorter (the comparator API's
// two-phase call; CUB's stable merge sort is peers/cub_struct.cuh), the
// input and the check.
#include "struct_key.hpp"

#include "args.hpp"

#include <gpusort/merge_sort.cuh>

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

bool sorts_struct_keys(const method& m) {
  return m.which == peer::cub_merge ||
         (m.kind == method_kind::ours && m.algo == algorithm::merge_path);
}

}  // namespace

suite_config struct_key_suite(const suite_config& cfg) {
  suite_config out = cfg;
  out.methods.clear();
  out.dists.clear();
  std::string skipped;
  if (cfg.pairs) {
    skipped = "every method (keys only, and --pairs or --value was given)";
  } else {
    std::string methods;
    for (const method* m : cfg.methods)
      if (sorts_struct_keys(*m))
        out.methods.push_back(m);
      else
        append_item(methods, m->name, ',');
    if (!methods.empty()) skipped = methods + " (only merge_path and the cub_merge peers take a comparator)";
    bool special = false;
    for (const bench_dist& d : cfg.dists)
      if (!d.segmented() && d.keys == harness::dist::float_special)
        special = true;
      else
        out.dists.push_back(d);  // segmented ones: no method here sorts them
    if (special)
      skipped += std::string(skipped.empty() ? "" : "; ") +
                 "float_special inputs (NaN minors are unordered by <)";
  }
  if (out.methods.empty()) out.dists.clear();
  if (!skipped.empty())
    std::printf("\n%s keys: skipping %s\n", std::string(struct_key_name).c_str(), skipped.c_str());
  return out;
}

std::vector<u32f32> generate_struct_keys(harness::dist d, std::size_t n, std::uint64_t seed) {
  const auto major = harness::generate<std::uint32_t>(d, n, seed);
  const auto minor = harness::generate<float>(d, n, seed ^ 0x9e3779b97f4a7c15ull);
  std::vector<u32f32> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = {major[i], minor[i]};
  return keys;
}

harness::check verify_struct_keys(const std::vector<u32f32>& in, const std::vector<u32f32>& out) {
  const by_major_minor less{};
  for (std::size_t i = 0; i + 1 < out.size(); ++i)
    if (less(out[i + 1], out[i]))
      return {false, "keys " + std::to_string(i) + " and " + std::to_string(i + 1) +
                         " are out of order"};
  std::vector<u32f32> ref(in);
  std::stable_sort(ref.begin(), ref.end(), less);
  for (std::size_t i = 0; i < out.size(); ++i)
    if (std::memcmp(&ref[i], &out[i], sizeof(u32f32)) != 0)
      return {false, "key " + std::to_string(i) +
                         " differs from std::stable_sort's: not a stable permutation of the input"};
  return {};
}

std::unique_ptr<device_sorter<u32f32, index32>> make_struct_sorter(const method& m) {
  if (m.which == peer::cub_merge) {
    if (m.cub == cub_build::cuda) return make_cub_struct<cub_build::cuda>();
    if constexpr (has_cub_latest) return make_cub_struct<cub_build::latest>();
    return nullptr;
  }
  if (sorts_struct_keys(m)) return std::make_unique<ours_struct>();
  return nullptr;
}

}  // namespace gpusort::cli::bench
