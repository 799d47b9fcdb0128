// Facts fixed when the tool was built: the commit it was built from
// (generated every build by commit.cmake; "unknown" outside git, "-dirty"
// with uncommitted changes) and where its source tree was.
#pragma once

#include <string>

namespace gpusort::cli {

const char* commit_hash();
const char* source_dir();
// Directory holding the running executable ("" if unknown).
std::string executable_dir();

}  // namespace gpusort::cli
