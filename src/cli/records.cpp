// gpusort sort --by (records.hpp). The file is read whole; the --by fields
// are copied out of the records into packed columns (NumPy packs its
// records, so a field need not be aligned), the stable permutation comes
// from gpusort::sort_by_columns_host (on the GPU when there is one, else the
// CPU), and the records are written in that order behind the input's own
// header.
#include "records.hpp"

#include "args.hpp"
#include "file_io.hpp"
#include "npy.hpp"
#include "output_file.hpp"
#include "progress.hpp"

#include <gpusort/columns.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace gpusort::cli {

namespace {

struct by_field {
  const npy_field* field;
  order direction;
};

std::vector<by_field> parse_by(const std::string& by, const npy_records& r, const std::string& file) {
  std::vector<by_field> out;
  std::size_t at = 0;
  while (at <= by.size()) {
    const std::size_t comma = std::min(by.find(',', at), by.size());
    std::string name = by.substr(at, comma - at);
    at = comma + 1;
    order dir = order::ascending;
    if (!name.empty() && (name[0] == '-' || name[0] == '+')) {
      dir = name[0] == '-' ? order::descending : order::ascending;
      name.erase(0, 1);
    }
    if (name.empty()) throw usage_error("--by: an empty field name in '" + by + "'");
    const auto f = std::find_if(r.fields.begin(), r.fields.end(), [&](const npy_field& x) { return x.name == name; });
    if (f == r.fields.end()) {
      std::string names;
      for (const npy_field& x : r.fields)
        if (!x.name.empty()) names += (names.empty() ? "" : ", ") + x.name;
      throw usage_error("--by: " + file + " has no field '" + name + "' (its fields: " + names + ")");
    }
    if (f->key.empty())
      throw usage_error("--by: field '" + name + "' of " + file + " is not a key type gpusort sorts by (little-endian "
                        "integers, floats, bool, datetime64 and timedelta64 are)");
    out.push_back({&*f, dir});
  }
  return out;
}

key_type key_of(const npy_field& f) {
  key_type t = key_type::u8;  // bool: 0 or 1 in one byte
  if (f.key != "bool" && !parse_key_type(f.key, t)) throw usage_error("unknown key type " + f.key);
  return t;
}

}  // namespace

int sort_records_npy(const std::string& in, const std::string& out, const std::string& by, const options& opt,
                     bool quiet) {
  const auto t0 = std::chrono::steady_clock::now();
  input_file file(in);
  const std::size_t size = file.stream() ? file.look_ahead(~std::size_t(0)) : file.size();
  std::vector<unsigned char> bytes(size);
  file.read(bytes.data(), size);
  const npy_records r = parse_npy_records(bytes.data(), size, file.name());
  const std::vector<by_field> fields = parse_by(by, r, file.name());
  output_file output(out, {&file});  // before the work: an unwritable OUT fails now
  const std::size_t n = r.count;
  const unsigned char* records = bytes.data() + r.offset;

  // the --by fields as packed columns
  std::vector<std::vector<unsigned char>> cols(fields.size());
  std::vector<key_column> keys;
  for (std::size_t c = 0; c < fields.size(); ++c) {
    const npy_field& f = *fields[c].field;
    cols[c].resize(n * f.bytes);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(n); ++i)
      std::memcpy(cols[c].data() + std::size_t(i) * f.bytes, records + std::size_t(i) * r.record_bytes + f.offset,
                  f.bytes);
    keys.push_back({key_of(f), cols[c].data(), fields[c].direction});
  }

  std::vector<std::int64_t> perm(n);
  const bool gpu = gpu_available();  // sort_by_columns_host sorts on the GPU when there is one
  sort_by_columns_host(keys.data(), keys.size(), n, perm.data(), 8, opt);

  // the header as it was, then the records in order, a block at a time
  output.write(bytes.data(), r.offset);
  const std::size_t block = std::max<std::size_t>(1, (std::size_t(64) << 20) / r.record_bytes);
  std::vector<unsigned char> buf(std::min(n, block) * r.record_bytes);
  for (std::size_t at = 0; at < n; at += block) {
    const std::size_t m = std::min(block, n - at);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(m); ++i)
      std::memcpy(buf.data() + std::size_t(i) * r.record_bytes,
                  records + std::size_t(perm[at + std::size_t(i)]) * r.record_bytes, r.record_bytes);
    output.write(buf.data(), m * r.record_bytes);
  }
  output.commit();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const info_lines info(quiet, output.to_stdout());
  info.print("gpusort sort: %zu records of %zu bytes by %s, backend %s, %.3f s; wrote %s (.npy)\n", n, r.record_bytes,
             by.c_str(), gpu ? "gpu" : "cpu", seconds, out.c_str());
  return exit_ok;
}

}  // namespace gpusort::cli
