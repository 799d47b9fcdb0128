// The external sort: `gpusort sort` and `argsort` of files larger than the
// memory budget (an external merge sort: sorted runs, then a k-way merge;
// the algorithm is described in external_sort.cpp).
#pragma once

#include "progress.hpp"
#include "sort_job.hpp"

namespace gpusort::cli {

// Sorts the job in runs that fit job.budget, kept in a nameless scratch file
// in job.folder, and merges them into the job's outputs (written, not
// committed). Errors throw usage_error; the scratch file goes either way.
sort_outcome external_sort(const sort_job& job, progress& p);

}  // namespace gpusort::cli
