// EXPECT_GPUSORT_ERROR(stmt, code): runs `stmt` and expects a gpusort::error
// with that errc and a message; any other outcome fails the test.
#pragma once

#include <gpusort/error.hpp>

#include <gtest/gtest.h>

#include <exception>
#include <string>

#define EXPECT_GPUSORT_ERROR(stmt, want)                                                     \
  do {                                                                                       \
    try {                                                                                    \
      stmt;                                                                                  \
      ADD_FAILURE() << #stmt << ": no exception";                                            \
    } catch (const gpusort::error& e) {                                                      \
      EXPECT_EQ(int(e.code()), int(want)) << #stmt << ": " << e.what();                      \
      EXPECT_NE(std::string(e.what()), "") << #stmt;                                         \
    } catch (const std::exception& e) {                                                      \
      ADD_FAILURE() << #stmt << ": not a gpusort::error: " << e.what();                      \
    }                                                                                        \
  } while (0)
