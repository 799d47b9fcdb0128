#include "npy.hpp"

#include "args.hpp"

#include <cctype>
#include <cstring>
#include <string_view>
#include <utility>

namespace gpusort::cli {

namespace {

// gpusort key name and NumPy type code (without the byte-order character).
constexpr std::pair<const char*, const char*> dtypes[] = {
    {"u8", "u1"},  {"i8", "i1"},  {"u16", "u2"}, {"i16", "i2"}, {"u32", "u4"}, {"i32", "i4"},
    {"u64", "u8"}, {"i64", "i8"}, {"f16", "f2"}, {"f32", "f4"}, {"f64", "f8"},
};

[[noreturn]] void bad(const std::string& file, const std::string& what) {
  throw usage_error(file + ": " + what);
}

// The text after `'name':` in the header dict, spaces skipped.
std::string_view field(std::string_view dict, std::string_view name, const std::string& file) {
  for (const char q : {'\'', '"'}) {
    std::string key(1, q);  // built by appends: GCC 12 warns (-Wrestrict) on the + chain
    key.append(name);
    key.push_back(q);
    const std::size_t at = dict.find(key);
    if (at == std::string_view::npos) continue;
    std::size_t p = at + key.size();
    while (p < dict.size() && dict[p] == ' ') ++p;
    if (p >= dict.size() || dict[p] != ':') bad(file, "malformed .npy header: no ':' after '" + std::string(name) + "'");
    ++p;
    while (p < dict.size() && dict[p] == ' ') ++p;
    return dict.substr(p);
  }
  bad(file, "malformed .npy header: no '" + std::string(name) + "' field");
}

}  // namespace

bool is_npy(const unsigned char* bytes, std::size_t size) {
  return size >= npy_magic_size && std::memcmp(bytes, npy_magic, npy_magic_size) == 0;
}

std::size_t npy_header_size(const unsigned char* bytes, std::size_t size, const std::string& file) {
  if (!is_npy(bytes, size)) bad(file, "not a .npy file (no \\x93NUMPY magic)");
  if (size < 10) bad(file, "truncated .npy header (" + std::to_string(size) + " bytes)");
  const unsigned major = bytes[6];
  std::size_t header_len = 0, start = 0;
  if (major == 1) {
    header_len = std::size_t(bytes[8]) | std::size_t(bytes[9]) << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) bad(file, "truncated .npy header (" + std::to_string(size) + " bytes)");
    header_len = std::size_t(bytes[8]) | std::size_t(bytes[9]) << 8 | std::size_t(bytes[10]) << 16 |
                 std::size_t(bytes[11]) << 24;
    start = 12;
  } else {
    bad(file, "unsupported .npy version " + std::to_string(major) + "." + std::to_string(bytes[7]));
  }
  if (start + header_len > size)
    bad(file, "truncated .npy header (it says " + std::to_string(header_len) + " bytes, the file has " +
                  std::to_string(size - start) + ")");
  return start + header_len;
}

npy_array parse_npy(const unsigned char* bytes, std::size_t size, const std::string& file) {
  const std::size_t header_end = npy_header_size(bytes, size, file);
  const std::size_t start = bytes[6] == 1 ? 10 : 12;  // version 1.0: a 2-byte length, else 4
  const std::string_view dict(reinterpret_cast<const char*>(bytes + start), header_end - start);
  if (dict.find('{') == std::string_view::npos || dict.find('}') == std::string_view::npos)
    bad(file, "malformed .npy header: no {...} dict");

  // descr: a byte order ('<' little, '|' none, '=' native, '>' big) and a type code
  const std::string_view d = field(dict, "descr", file);
  if (d.empty() || (d[0] != '\'' && d[0] != '"')) bad(file, "unsupported .npy dtype (not a simple type string)");
  const std::size_t close = d.find(d[0], 1);
  if (close == std::string_view::npos) bad(file, "malformed .npy header: unterminated 'descr'");
  const std::string descr(d.substr(1, close - 1));
  if (descr.size() < 2) bad(file, "unsupported .npy dtype '" + descr + "'");
  if (descr[0] == '>') bad(file, "big-endian .npy data (dtype '" + descr + "') is not supported: convert it with a.astype(a.dtype.newbyteorder('<'))");
  if (descr[0] != '<' && descr[0] != '|' && descr[0] != '=')
    bad(file, "unsupported .npy dtype '" + descr + "'");
  npy_array a;
  for (const auto& [key, code] : dtypes)
    if (descr.substr(1) == code) a.key = key;
  if (a.key.empty())
    bad(file, "unsupported .npy dtype '" + descr + "' (gpusort sorts u1 i1 u2 i2 u4 i4 u8 i8 f2 f4 f8)");

  // fortran_order: True or False
  const std::string_view f = field(dict, "fortran_order", file);
  if (f.substr(0, 4) == "True") bad(file, "Fortran-ordered .npy arrays are not supported (write it with np.ascontiguousarray)");
  if (f.substr(0, 5) != "False") bad(file, "malformed .npy header: 'fortran_order' is neither True nor False");

  // shape: () or (n,) (one dimension)
  const std::string_view s = field(dict, "shape", file);
  if (s.empty() || s[0] != '(') bad(file, "malformed .npy header: 'shape' is not a tuple");
  const std::size_t end = s.find(')');
  if (end == std::string_view::npos) bad(file, "malformed .npy header: unterminated 'shape'");
  std::size_t dims = 0, count = 1;
  std::size_t p = 1;
  while (p < end) {
    while (p < end && (s[p] == ' ' || s[p] == ',')) ++p;
    if (p >= end) break;
    if (!std::isdigit(static_cast<unsigned char>(s[p]))) bad(file, "malformed .npy header: bad 'shape'");
    std::size_t v = 0;
    while (p < end && std::isdigit(static_cast<unsigned char>(s[p]))) {
      if (v > (std::size_t(-1) - 9) / 10) bad(file, "malformed .npy header: 'shape' overflows");
      v = v * 10 + std::size_t(s[p++] - '0');
    }
    ++dims;
    count *= v;
  }
  if (dims > 1)
    bad(file, "a .npy array of " + std::to_string(dims) + " dimensions: gpusort sorts one-dimensional arrays");

  const std::size_t elem = std::size_t(descr[2] - '0');
  a.count = count;
  a.offset = header_end;
  if (size == npy_unknown_size) return a;  // a stream: its data is checked as it is read
  const std::size_t data = size - a.offset;
  if (elem == 0 || count > data / elem || count * elem != data)
    bad(file, "the .npy header says " + std::to_string(count) + " elements (" +
                  std::to_string(count * elem) + " bytes) but " + std::to_string(data) +
                  " bytes of data follow: truncated or corrupt");
  return a;
}

std::string npy_header(const std::string& key, std::size_t count) {
  const char* code = nullptr;
  for (const auto& [k, c] : dtypes)
    if (key == k) code = c;
  if (!code) throw usage_error("key type " + key + " has no NumPy dtype: write raw output instead of .npy");
  const char order = key == "u8" || key == "i8" ? '|' : '<';
  std::string dict = std::string("{'descr': '") + order + code + "', 'fortran_order': False, 'shape': (" +
                     std::to_string(count) + ",), }";
  // magic (6) + version (2) + length (2) + dict + padding + '\n': a multiple of 64
  std::size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict.push_back('\n');
  std::string h(npy_magic, npy_magic_size);
  h.push_back('\x01');
  h.push_back('\x00');
  h.push_back(char(dict.size() & 0xFF));
  h.push_back(char(dict.size() >> 8));
  return h + dict;
}

}  // namespace gpusort::cli
