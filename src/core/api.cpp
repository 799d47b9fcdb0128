// Names of algorithms and backends, shared by the library, the CLI and the
// benchmark CSV.
#include <gpusort/gpusort.hpp>

#include <array>
#include <utility>

namespace gpusort {
namespace {
struct algo_info {
  algorithm algo;
  std::string_view name;
  bool stable;
};
// std::to_array sizes the table: adding a family is one line.
constexpr auto algos = std::to_array<algo_info>({
    {algorithm::automatic, "auto", true},  // resolves to radix_onesweep or radix_msd (device_api.cu)
    {algorithm::odd_even, "odd_even", true},
    {algorithm::bitonic, "bitonic", false},
    {algorithm::radix_split, "radix_split", true},
    {algorithm::radix_tile, "radix_tile", true},
    {algorithm::radix_onesweep, "radix_onesweep", true},
    {algorithm::radix_msd, "radix_msd", true},
    {algorithm::merge_recursive, "merge_recursive", true},
    {algorithm::merge_bottom_up, "merge_bottom_up", true},
    {algorithm::merge_path, "merge_path", true},
    {algorithm::sample, "sample", true},
    {algorithm::quick, "quick", false},
});
}  // namespace

std::string_view to_string(algorithm a) {
  for (const auto& i : algos)
    if (i.algo == a) return i.name;
  return {};
}

bool parse_algorithm(std::string_view name, algorithm& out) {
  for (const auto& i : algos)
    if (i.name == name) {
      out = i.algo;
      return true;
    }
  return false;
}

bool is_stable(algorithm a) {
  for (const auto& i : algos)
    if (i.algo == a) return i.stable;
  return false;
}

std::string_view to_string(backend b) {
  switch (b) {
    case backend::gpu: return "gpu";
    case backend::cpu_parallel: return "cpu_parallel";
  }
  return "?";
}

std::string_view to_string(host_path p) {
  switch (p) {
    case host_path::device_resident: return "device_resident";
    case host_path::device_in_core: return "device_in_core";
    case host_path::device_out_of_core: return "device_out_of_core";
    case host_path::cpu: return "cpu";
  }
  return "?";
}

}  // namespace gpusort
