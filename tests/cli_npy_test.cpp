// Host suite: the CLI's .npy reader and writer (src/cli/npy.cpp). Headers
// written by npy_header parse back to the same key type and count for every
// key type NumPy has; headers as NumPy itself writes them (versions 1.0 and
// 2.0, byte-order-free one-byte dtypes) parse; and every bad header or size
// is refused with a message naming the file and the fault. A stream's
// header parses alone, its size unknown.
#include "cli/args.hpp"
#include "cli/npy.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using gpusort::cli::npy_array;
using gpusort::cli::npy_header;
using gpusort::cli::parse_npy;
using gpusort::cli::usage_error;

std::vector<unsigned char> file(const std::string& header, std::size_t data_bytes) {
  std::vector<unsigned char> f(header.begin(), header.end());
  f.resize(f.size() + data_bytes, 0xAB);
  return f;
}

// A header with dict `dict`, version `major`, padded as NumPy pads it.
std::string raw_header(const std::string& dict, int major = 1) {
  const std::size_t prefix = major == 1 ? 10 : 12;
  std::string d = dict;
  const std::size_t total = prefix + d.size() + 1;
  d.append((64 - total % 64) % 64, ' ');
  d.push_back('\n');
  std::string h("\x93NUMPY", 6);
  h.push_back(char(major));
  h.push_back('\0');
  h.push_back(char(d.size() & 0xFF));
  h.push_back(char((d.size() >> 8) & 0xFF));
  if (major != 1) h.append(2, '\0');
  return h + d;
}

// The message of the usage_error that parsing throws ("" if none).
std::string refusal(const std::vector<unsigned char>& f) {
  try {
    parse_npy(f.data(), f.size(), "in.npy");
  } catch (const usage_error& e) {
    return e.what();
  }
  return "";
}

TEST(CliNpy, RoundTripsEveryKeyType) {
  const std::pair<const char*, std::size_t> keys[] = {{"u8", 1},  {"i8", 1},  {"u16", 2}, {"i16", 2},
                                                      {"u32", 4}, {"i32", 4}, {"u64", 8}, {"i64", 8},
                                                      {"f16", 2}, {"f32", 4}, {"f64", 8}};
  for (const auto& [key, size] : keys)
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000003)}) {
      const std::string h = npy_header(key, n);
      EXPECT_EQ(h.size() % 64, 0u) << key;
      const auto f = file(h, n * size);
      const npy_array a = parse_npy(f.data(), f.size(), "x.npy");
      EXPECT_EQ(a.key, key);
      EXPECT_EQ(a.count, n) << key;
      EXPECT_EQ(a.offset, h.size()) << key;
    }
  EXPECT_THROW(npy_header("bf16", 3), usage_error);  // NumPy has no bfloat16
}

TEST(CliNpy, ParsesNumpysOwnHeaders) {
  // as numpy.save writes them: version 1.0 and 2.0, '|' for one-byte types,
  // "shape": () for a scalar
  auto f = file(raw_header("{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }"), 20);
  EXPECT_EQ(parse_npy(f.data(), f.size(), "a").key, "f32");
  f = file(raw_header("{'descr': '|u1', 'fortran_order': False, 'shape': (7,), }", 2), 7);
  EXPECT_EQ(parse_npy(f.data(), f.size(), "a").count, 7u);
  f = file(raw_header("{'descr': '<i8', 'fortran_order': False, 'shape': (), }"), 8);
  EXPECT_EQ(parse_npy(f.data(), f.size(), "a").count, 1u);
  f = file(raw_header("{\"descr\": \"<u2\", \"fortran_order\": False, \"shape\": (3,)}"), 6);
  EXPECT_EQ(parse_npy(f.data(), f.size(), "a").key, "u16");
}

TEST(CliNpy, ParsesAStreamsHeaderAlone) {
  // a stream's size is unknown: the header parses, its data is checked as read
  const std::string h = npy_header("u16", 1000);
  const std::vector<unsigned char> head(h.begin(), h.end());
  const npy_array a = parse_npy(head.data(), gpusort::cli::npy_unknown_size, "standard input");
  EXPECT_EQ(a.key, "u16");
  EXPECT_EQ(a.count, 1000u);
  EXPECT_EQ(a.offset, h.size());
  EXPECT_EQ(gpusort::cli::npy_header_size(head.data(), gpusort::cli::npy_unknown_size, "standard input"), h.size());
  EXPECT_TRUE(refusal(file(h, 1000 * 2 - 1)).find("truncated") != std::string::npos);  // a file's size still counts
}

TEST(CliNpy, RefusesBadFiles) {
  const auto has = [](const std::string& message, const std::string& part) {
    return message.find("in.npy") != std::string::npos && message.find(part) != std::string::npos;
  };
  const std::string ok = "{'descr': '<u4', 'fortran_order': False, 'shape': (4,), }";
  EXPECT_TRUE(has(refusal(file(raw_header(ok), 12)), "truncated"));
  EXPECT_TRUE(has(refusal(file(raw_header(ok), 20)), "16 bytes"));  // overlong
  EXPECT_TRUE(has(refusal(file(raw_header("{'descr': '>u4', 'fortran_order': False, 'shape': (4,), }"), 16)),
                  "big-endian"));
  EXPECT_TRUE(has(refusal(file(raw_header("{'descr': '<u4', 'fortran_order': True, 'shape': (4,), }"), 16)),
                  "Fortran"));
  EXPECT_TRUE(has(refusal(file(raw_header("{'descr': '<c8', 'fortran_order': False, 'shape': (4,), }"), 32)),
                  "unsupported .npy dtype"));
  EXPECT_TRUE(has(refusal(file(raw_header("{'descr': [('a', '<u4')], 'fortran_order': False, 'shape': (4,)}"), 16)),
                  "dtype"));
  EXPECT_TRUE(has(refusal(file(raw_header("{'descr': '<u4', 'fortran_order': False, 'shape': (2, 2), }"), 16)),
                  "2 dimensions"));
  EXPECT_TRUE(has(refusal(file(raw_header("{'descr': '<u4', 'shape': (4,), }"), 16)), "fortran_order"));
  EXPECT_TRUE(has(refusal(file(raw_header("{'descr': '<u4', 'fortran_order': False, 'shape': 4 }"), 16)), "shape"));
  EXPECT_TRUE(has(refusal(file(raw_header("'descr': '<u4'"), 16)), "malformed"));
  EXPECT_TRUE(has(refusal(file(raw_header(ok, 9), 16)), "unsupported .npy version"));
  const std::string whole = raw_header(ok);
  const std::vector<unsigned char> cut(whole.begin(), whole.begin() + 30);
  EXPECT_TRUE(has(refusal(cut), "truncated .npy header"));
  EXPECT_TRUE(has(refusal({'P', 'K', 3, 4}), "not a .npy file"));
}

}  // namespace

namespace {

// Record arrays (gpusort sort --by): fields at NumPy's packed offsets,
// datetimes and bools as keys, sub-arrays and strings as bytes only, and
// the faults named.
TEST(CliNpy, ParsesRecordArrays) {
  using gpusort::cli::parse_npy_records;
  const std::string h = raw_header(
      "{'descr': [('a', '<i4'), ('b', '<f8'), ('s', '|S5'), ('t', '<M8[ns]'), ('v', '<f4', (3,)), ('', '|V3'), "
      "('ok', '|b1'), ('big', '>u2')], 'fortran_order': False, 'shape': (7,), }");
  const std::size_t rec = 4 + 8 + 5 + 8 + 12 + 3 + 1 + 2;
  const auto f = file(h, 7 * rec);
  const auto r = parse_npy_records(f.data(), f.size(), "r.npy");
  EXPECT_EQ(r.record_bytes, rec);
  EXPECT_EQ(r.count, 7u);
  EXPECT_EQ(r.offset, h.size());
  ASSERT_EQ(r.fields.size(), 8u);
  EXPECT_EQ(r.fields[0].key, "i32");
  EXPECT_EQ(r.fields[1].key, "f64");
  EXPECT_EQ(r.fields[1].offset, 4u);
  EXPECT_EQ(r.fields[2].key, "");
  EXPECT_EQ(r.fields[3].key, "i64");
  EXPECT_EQ(r.fields[3].offset, 17u);
  EXPECT_EQ(r.fields[4].bytes, 12u);
  EXPECT_EQ(r.fields[4].key, "");
  EXPECT_EQ(r.fields[6].key, "bool");
  EXPECT_EQ(r.fields[7].key, "");  // big-endian: moved, not a key
  const auto short_file = file(h, 7 * rec - 1);
  EXPECT_THROW(parse_npy_records(short_file.data(), short_file.size(), "r.npy"), usage_error);
  const auto plain = file(raw_header("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }"), 8);
  EXPECT_THROW(parse_npy_records(plain.data(), plain.size(), "p.npy"), usage_error);
  const auto nested = file(raw_header("{'descr': [('a', [('x', '<i4')])], 'fortran_order': False, 'shape': (1,), }"), 4);
  EXPECT_THROW(parse_npy_records(nested.data(), nested.size(), "n.npy"), usage_error);
  // a record array given to the plain parser says how to sort it
  try {
    parse_npy(f.data(), f.size(), "r.npy");
    ADD_FAILURE() << "no error";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("--by"), std::string::npos) << e.what();
  }
}

}  // namespace
