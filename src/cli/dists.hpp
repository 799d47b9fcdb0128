// Distribution names for messages and help, from the harness's list.
#pragma once

#include "args.hpp"

#include "harness/harness.hpp"

#include <string>

namespace gpusort::cli {

inline std::string dist_name_list() {
  std::string s;
  for (auto d : harness::all_dists()) append_item(s, harness::to_string(d));
  return s;
}

}  // namespace gpusort::cli
