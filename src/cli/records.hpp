// gpusort sort --by: a record .npy array (a structured dtype) sorted by
// named fields, stable, every record moved whole.
#pragma once

#include <gpusort/gpusort.hpp>

#include <string>

namespace gpusort::cli {

// Sorts the records of the .npy file `in` by the fields `by` ("a,-b": a
// ascending, then b descending; opt.nans for float fields) into `out`
// (written as a sort's output is: atomically, or as one stream). Returns the
// exit status; throws usage_error for what the user can fix.
int sort_records_npy(const std::string& in, const std::string& out, const std::string& by, const options& opt,
                     bool quiet);

}  // namespace gpusort::cli
