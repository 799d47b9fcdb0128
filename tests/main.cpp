// The test runner: GoogleTest's usual main, plus one line at the start that
// says whether a CUDA device is present (and so whether the GPU suites run).
#include "test_env.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  // Test discovery (--gtest_list_tests) parses stdout: print nothing extra.
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--gtest_list_tests", 18) == 0) listing = true;
  ::testing::InitGoogleTest(&argc, argv);
  if (!listing) {
    std::printf("[gpusort] %s\n", gpusort_test::describe_env().c_str());
    std::fflush(stdout);
  }
  return RUN_ALL_TESTS();
}
