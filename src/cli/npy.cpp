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

// The element count of a one-dimensional (or 0-d) array from the header's
// 'shape', after checking 'fortran_order' is False.
std::size_t one_dimension(std::string_view dict, const std::string& file) {
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

  return count;
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
  if (!d.empty() && d[0] == '[')
    bad(file, "a record .npy array (a structured dtype): sort it by its fields with --by FIELD,FIELD...");
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

  const std::size_t count = one_dimension(dict, file);
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

namespace {

// A quoted string at the front of t (after spaces); t moves past it.
std::string quoted(std::string_view& t, const std::string& file) {
  while (!t.empty() && t[0] == ' ') t.remove_prefix(1);
  if (t.empty() || (t[0] != '\'' && t[0] != '"')) bad(file, "malformed record .npy descr: expected a quoted string");
  const std::size_t close = t.find(t[0], 1);
  if (close == std::string_view::npos) bad(file, "malformed record .npy descr: unterminated string");
  std::string out(t.substr(1, close - 1));
  t.remove_prefix(close + 1);
  return out;
}

void expect(std::string_view& t, char c, const std::string& file) {
  while (!t.empty() && t[0] == ' ') t.remove_prefix(1);
  if (t.empty() || t[0] != c) bad(file, std::string("malformed record .npy descr: expected '") + c + "'");
  t.remove_prefix(1);
}

// A field's type string ('<i4', '|b1', '<M8[ns]', '|V4', '<U10'): its
// size in bytes and, for the key types, gpusort's key name. Datetimes and
// timedeltas are int64 counts; booleans are "bool" (one byte, 0 or 1).
void field_type(const std::string& t, npy_field& f, const std::string& file) {
  if (t.size() < 3 || std::string("<>|=").find(t[0]) == std::string::npos)
    bad(file, "unsupported record .npy field type '" + t + "'");
  const char kind = t[1];
  std::size_t p = 2, n = 0;
  while (p < t.size() && std::isdigit(static_cast<unsigned char>(t[p]))) n = n * 10 + std::size_t(t[p++] - '0');
  if (n == 0) bad(file, "unsupported record .npy field type '" + t + "'");
  f.bytes = kind == 'U' ? 4 * n : n;
  const bool little = t[0] != '>';
  if (!little || (p < t.size() && t[p] != '[')) return;  // big-endian, or not a plain number: bytes only
  if (kind == 'b' && n == 1) f.key = "bool";
  else if ((kind == 'M' || kind == 'm') && n == 8) f.key = "i64";
  for (const auto& [key, code] : dtypes)
    if (kind == code[0] && n == std::size_t(code[1] - '0') && p == t.size()) f.key = key;
}

}  // namespace

npy_records parse_npy_records(const unsigned char* bytes, std::size_t size, const std::string& file) {
  const std::size_t header_end = npy_header_size(bytes, size, file);
  const std::size_t start = bytes[6] == 1 ? 10 : 12;
  const std::string_view dict(reinterpret_cast<const char*>(bytes + start), header_end - start);
  std::string_view t = field(dict, "descr", file);
  if (t.empty() || t[0] != '[') bad(file, "not a record .npy array (its dtype is not a list of fields): --by needs one");
  t.remove_prefix(1);
  npy_records r;
  for (;;) {
    while (!t.empty() && (t[0] == ' ' || t[0] == ',')) t.remove_prefix(1);
    if (t.empty()) bad(file, "malformed record .npy descr: unterminated list");
    if (t[0] == ']') break;
    expect(t, '(', file);
    npy_field f;
    f.name = quoted(t, file);
    expect(t, ',', file);
    while (!t.empty() && t[0] == ' ') t.remove_prefix(1);
    if (!t.empty() && t[0] == '[') bad(file, "nested record fields ('" + f.name + "') are not supported");
    field_type(quoted(t, file), f, file);
    while (!t.empty() && t[0] == ' ') t.remove_prefix(1);
    if (!t.empty() && t[0] == ',') {  // a sub-array field: ('v', '<f4', (3,)), moved as bytes
      t.remove_prefix(1);
      while (!t.empty() && t[0] == ' ') t.remove_prefix(1);
      if (!t.empty() && t[0] == '(') {
        const std::size_t close = t.find(')');
        if (close == std::string_view::npos) bad(file, "malformed record .npy descr: unterminated sub-array shape");
        std::size_t items = 1, v = 0;
        bool digits = false;
        for (char c : t.substr(1, close - 1)) {
          if (std::isdigit(static_cast<unsigned char>(c))) v = v * 10 + std::size_t(c - '0'), digits = true;
          else if (c == ',' && digits) items *= v, v = 0, digits = false;
        }
        if (digits) items *= v;
        f.bytes *= items;
        f.key.clear();
        t.remove_prefix(close + 1);
      }
    }
    expect(t, ')', file);
    f.offset = r.record_bytes;
    r.record_bytes += f.bytes;
    r.fields.push_back(f);
  }
  if (r.fields.empty() || r.record_bytes == 0) bad(file, "a record .npy array with no fields");
  r.count = one_dimension(dict, file);
  r.offset = header_end;
  const std::size_t data = size - r.offset;
  if (r.count > data / r.record_bytes || r.count * r.record_bytes != data)
    bad(file, "the .npy header says " + std::to_string(r.count) + " records of " + std::to_string(r.record_bytes) +
                  " bytes but " + std::to_string(data) + " bytes of data follow: truncated or corrupt");
  return r;
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
