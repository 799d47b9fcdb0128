// How one merge level of radix_tile is cut into chunks (tile_merge.cuh):
// runs of `run` items are merged pairwise; each pair's 2 * run outputs are
// cut into chunks of `chunk` outputs, one block each, so no chunk straddles
// two pairs. Plain C++ so that host tests can check it.
#pragma once

#include <gpusort/detail/key_traits.hpp>  // GPUSORT_HD

#include <cstddef>

namespace gpusort::detail::radix {

// Where chunk `c` of a merge level lies: its pair of runs and its outputs.
struct merge_chunk {
  std::size_t a0, na;    // left run: [a0, a0 + na)
  std::size_t b0, nb;    // right run: [b0, b0 + nb)
  std::size_t diag;      // first output, counted from a0
  std::size_t diag_end;  // one past the last output, counted from a0
  bool last_of_pair;

  GPUSORT_HD static merge_chunk at(std::size_t c, std::size_t n, std::size_t run, std::size_t chunk) {
    const std::size_t per_pair = (2 * run + chunk - 1) / chunk;
    merge_chunk m;
    m.a0 = (c / per_pair) * 2 * run;
    m.na = n - m.a0 < run ? n - m.a0 : run;
    m.b0 = m.a0 + m.na;
    m.nb = n - m.b0 < run ? n - m.b0 : run;
    m.diag = (c % per_pair) * chunk;
    const std::size_t total = m.na + m.nb;
    m.diag_end = m.diag + chunk < total ? m.diag + chunk : total;
    m.last_of_pair = m.diag_end == total;
    return m;
  }
};

// Number of chunks of one merge level (some past n's last pair are empty).
inline std::size_t merge_chunks(std::size_t n, std::size_t run, std::size_t chunk) {
  const std::size_t pairs = (n + 2 * run - 1) / (2 * run);
  return pairs * ((2 * run + chunk - 1) / chunk);
}

// Splits the merge levels need (one per chunk of the largest level), for
// runs of first_run doubling until they cover n.
inline std::size_t merge_parts(std::size_t n, std::size_t first_run, std::size_t chunk) {
  std::size_t most = 0;
  for (std::size_t run = first_run; run < n; run *= 2) {
    const std::size_t c = merge_chunks(n, run, chunk);
    most = c > most ? c : most;
  }
  return most;
}

}  // namespace gpusort::detail::radix
