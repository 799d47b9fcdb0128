// NumPy's .npy format (numpy.lib.format, versions 1.0, 2.0 and 3.0) for
// one-dimensional arrays of gpusort's key types: the header names the dtype
// ('<u4', '|i1', '<f8', ...), the memory order and the shape; the data
// follows in C order. gpusort reads little-endian (or byte-order-free)
// dtypes of the 11 key types NumPy has (bf16 has no NumPy dtype), and
// writes version 1.0 headers padded to 64 bytes, as NumPy does.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpusort::cli {

inline constexpr char npy_magic[] = "\x93NUMPY";  // 6 bytes, then major and minor version
inline constexpr std::size_t npy_magic_size = 6;

struct npy_array {
  std::string key;          // gpusort's key name: u8 .. f64
  std::size_t count = 0;    // elements
  std::size_t offset = 0;   // where the data starts
};

// Whether the bytes begin with the .npy magic string.
bool is_npy(const unsigned char* bytes, std::size_t size);

// The size of a stream that has not ended: its header is parsed, and its
// data checked as it is read.
inline constexpr std::size_t npy_unknown_size = ~std::size_t(0);

// How many bytes the header of a .npy file of `size` bytes takes (magic to
// the first data byte), from its first min(size, npy_prefix_size) bytes in
// `bytes`: what parse_npy needs to see. Throws usage_error naming the file
// (`file`: its path quoted, or "standard input") for an unsupported
// version or a file too short for its header length.
inline constexpr std::size_t npy_prefix_size = 12;
std::size_t npy_header_size(const unsigned char* bytes, std::size_t size, const std::string& file);

// Parses the header of a .npy file of `size` bytes (`bytes` holds at least
// its npy_header_size bytes, or all of a shorter file) and, unless the size
// is npy_unknown_size, checks that the data that follows is exactly count
// keys. Throws usage_error naming `file` and what is wrong: a
// malformed header, an unsupported version or dtype, big-endian data,
// Fortran order, more than one dimension, or a truncated (or overlong) file.
npy_array parse_npy(const unsigned char* bytes, std::size_t size, const std::string& file);

// A structured (record) .npy array: one-dimensional, C order, each element a
// record of `record_bytes` bytes whose named fields lie at their offsets, as
// NumPy lays out a dtype written as a list ([('a', '<i4'), ('b', '<f8')],
// packed; padding as unnamed void fields, ('', '|V4')).
struct npy_field {
  std::string name;
  std::string key;          // gpusort's key name, "" for a field that is not one ('|b1' is "bool")
  std::size_t offset = 0;
  std::size_t bytes = 0;
};
struct npy_records {
  std::vector<npy_field> fields;
  std::size_t record_bytes = 0;
  std::size_t count = 0;
  std::size_t offset = 0;   // where the data starts
};

// Parses a record .npy file of `size` bytes held whole in `bytes`. Throws
// usage_error naming `file`: not a record array, a malformed or unsupported
// descr (big-endian fields among them), more than one dimension, Fortran
// order, or data that is not exactly count records.
npy_records parse_npy_records(const unsigned char* bytes, std::size_t size, const std::string& file);

// A version 1.0 header for `count` keys of gpusort key type `key`, padded
// so that the data starts at a multiple of 64 bytes. Throws usage_error for
// a key type NumPy has no dtype for (bf16).
std::string npy_header(const std::string& key, std::size_t count);

}  // namespace gpusort::cli
