// The CLI's count and byte-size parsing (src/cli/args.cpp), on the host.
#include "../src/cli/args.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

using gpusort::cli::parse_bytes;
using gpusort::cli::parse_count;
using gpusort::cli::usage_error;

TEST(CliArgs, CountForms) {
  EXPECT_EQ(parse_count("0", "--n"), 0u);
  EXPECT_EQ(parse_count("1048576", "--n"), 1048576u);
  EXPECT_EQ(parse_count("2^20", "--n"), 1u << 20);
  EXPECT_EQ(parse_count("3<<4", "--n"), 48u);
  EXPECT_EQ(parse_count("2^62", "--n"), std::uint64_t(1) << 62);
}

TEST(CliArgs, CountDecimalPowers) {
  EXPECT_EQ(parse_count("1e9", "--n"), 1000000000u);
  EXPECT_EQ(parse_count("16e9", "--n"), 16000000000u);
  EXPECT_EQ(parse_count("2.5e8", "--n"), 250000000u);
  EXPECT_EQ(parse_count("2.50e1", "--n"), 25u);
  EXPECT_EQ(parse_count("1E3", "--n"), 1000u);
  EXPECT_EQ(parse_count("7e0", "--n"), 7u);
  EXPECT_EQ(parse_count("1e19", "--n"), 10000000000000000000u);
  for (const char* bad : {"1.5e0", "2.25e1", "e9", "1e", "1e-3", "1e20", "2e19", "1.e", "x1e9", "1e9x", "1.2.3e4"})
    EXPECT_THROW(parse_count(bad, "--n"), usage_error) << bad;
}

TEST(CliArgs, CountRejectsOther) {
  for (const char* bad : {"", "-1", "3^4", "2^63", "1<<63", "abc", "1 000"})
    EXPECT_THROW(parse_count(bad, "--n"), usage_error) << bad;
}

TEST(CliArgs, Bytes) {
  EXPECT_EQ(parse_bytes("1048576", "--max-memory"), 1048576u);
  EXPECT_EQ(parse_bytes("64M", "--max-memory"), std::uint64_t(64) << 20);
  EXPECT_EQ(parse_bytes("2GiB", "--max-memory"), std::uint64_t(2) << 30);
}

}  // namespace
