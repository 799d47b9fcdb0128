// One `gpusort sort` or `argsort` call as the sort paths see it: the keys,
// what moves with them (a values file, or argsort's positions), where the
// result goes, and the memory budget that picks the path: in memory when
// the keys, the values and the sort's scratch fit, else the external sort
// (external_sort.hpp).
#pragma once

#include "args.hpp"
#include "key_file.hpp"
#include "keys.hpp"
#include "output_file.hpp"
#include "progress.hpp"

#include <gpusort/gpusort.hpp>

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace gpusort::cli {

struct sort_job {
  // An output: its file (none: not written) and, for .npy, its dtype.
  struct output {
    output_file* file = nullptr;
    bool npy = false;
    std::string dtype;
  };
  array_file* keys = nullptr;          // read as the job runs
  array_file* values = nullptr;        // sort --values; else null
  std::size_t value_width = 0;         // bytes a value or an index; 0 for keys alone
  output keys_out;                     // no file for argsort
  output values_out;                   // the values, or argsort's indices
  std::string folder;                  // where run files go (output_file::scratch_folder)
  options opt;
  std::size_t budget = 0;              // bytes of host memory for the data
};

struct sort_outcome {
  backend used = backend::cpu_parallel;
  double sort_ms = 0;        // in memory: the sort call; external: everything
  std::size_t runs = 0;      // external: the sorted runs (0: sorted in memory)
  std::size_t passes = 0;    // external: merge passes
};

// The budget: --max-memory's value (bytes with an optional K, M, G or T
// suffix, at least 64K), else half the available memory.
std::size_t memory_budget(const std::optional<std::string>& max_memory);

// Host bytes per element that sorting n elements in memory takes, the
// elements included: the CPU backend's worst case (keys alone sort in
// place, float zeros set aside; pairs sort (rank, index) records, 16 bytes
// for keys over 4 bytes, then gather through a copy).
std::size_t sort_bytes_per_element(std::size_t key_width, std::size_t value_width);

// Sorts in memory when the job fits its budget, else externally; the
// outputs are written but not committed. A raw stream is read into memory
// as far as the budget goes: if it ends there, it sorts in memory, else the
// external sort goes on from what was read.
sort_outcome run_sort_job(const sort_job& job, progress& p);

// f.template operator()<K, V>() for the job's key type and value width
// (V = no_value for keys alone).
template <class F> void with_job_types(const sort_job& job, F&& f) {
  with_key(job.keys->key, [&]<class K>() {
    with_value_width(job.value_width, [&]<class V>() { f.template operator()<K, V>(); });
  });
}

template <class V> inline constexpr std::size_t width_of = std::is_same_v<V, no_value> ? 0 : sizeof(V);

// The next elements of `f`, up to n, into dst; how many (fewer only where
// the input ends).
template <class T> std::size_t load(array_file& f, std::size_t n, T* dst, progress& p) {
  return in_pieces(p, n * sizeof(T), [&](std::size_t at, std::size_t size) {
           return f.read_some(reinterpret_cast<unsigned char*>(dst) + at, size);
         }) / sizeof(T);
}

// What moves with keys [first, first + n): the values file's next ones,
// or (argsort) the keys' positions, which a raw stream, of a length not
// known in advance, may carry past what its index type holds.
template <class V> void load_values(const sort_job& job, std::size_t first, std::size_t n, V* dst, progress& p) {
  if constexpr (!std::is_same_v<V, no_value>) {
    if (job.values) {
      load(*job.values, n, dst, p);
      return;
    }
    if constexpr (std::is_integral_v<V>) {
      if (n > 0 && first + (n - 1) > std::numeric_limits<V>::max())
        throw usage_error(job.keys->file.name() + " holds more keys than " + std::to_string(8 * sizeof(V)) +
                          "-bit indices can number: use --index u64");
      for (std::size_t i = 0; i < n; ++i) dst[i] = V(first + i);
      p.add(n * sizeof(V));
    }
  }
}

// Writes the .npy header of an output of n elements (when it is written, and .npy).
void start_output(const sort_job::output& out, std::size_t n);

}  // namespace gpusort::cli
