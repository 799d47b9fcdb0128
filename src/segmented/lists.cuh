// Segmented sort: the lists of the segments that many blocks sort (the
// large and huge classes), made on the device by plan.cu from the class
// list: each segment's place, and the list of its runs and of its tiles,
// so that a grid of blocks sized from a host-known bound finds its work.
#pragma once

#include <cstddef>

namespace gpusort::detail::segmented {

// The segments of one class, listed by plan.cu (arrays of the host-known
// bound of such segments; entries past the device-side count are empty).
struct segment_list {
  std::size_t* begin;             // [bound] first key of each segment
  std::size_t* size;              // [bound] its keys
  unsigned long long* first_run;  // [bound + 1] exclusive scan of runs; [bound]: all runs
  unsigned long long* first_tile; // [bound + 1] exclusive scan of tiles; [bound]: all tiles
  unsigned* run_seg;              // [runs] list entry (segment) of each run
  unsigned* tile_seg;             // [tiles] list entry (segment) of each tile
  unsigned long long* max_size;   // the largest segment's keys
  std::size_t bound;
};

}  // namespace gpusort::detail::segmented
