#include "sort_job.hpp"

#include "args.hpp"
#include "external_sort.hpp"
#include "npy.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include <unistd.h>

namespace gpusort::cli {

namespace {

constexpr std::size_t min_budget = std::size_t(64) << 10;

// MemAvailable from /proc/meminfo (memory the kernel can give without
// swapping); the free pages where there is none.
std::size_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string name;
  std::size_t kib = 0;
  std::string unit;
  while (meminfo >> name >> kib >> unit)
    if (name == "MemAvailable:") return kib << 10;
  const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : 0;
}

// Writes n elements of `width` bytes to an output (header first).
void write_output(const sort_job::output& out, const void* data, std::size_t n, std::size_t width, progress& p) {
  if (!out.file) return;
  start_output(out, n);
  in_pieces(p, n * width, [&](std::size_t at, std::size_t size) {
    out.file->write(static_cast<const unsigned char*>(data) + at, size);
    return size;
  });
}

// Reads a raw stream ahead into memory, until `limit` bytes or its end
// (then it is counted).
void read_ahead(array_file& f, std::size_t limit, progress& p) {
  std::size_t have = 0;
  in_pieces(p, limit, [&](std::size_t at, std::size_t size) {
    const std::size_t before = have;
    have = f.look_ahead(at + size);
    return have - before;
  });
}

// The whole job in memory: read, one gpusort::sort call, write.
template <class K, class V> sort_outcome sort_in_memory(const sort_job& job, progress& p) {
  constexpr bool pairs = width_of<V> != 0;
  const std::size_t n = job.keys->count;
  const std::size_t bytes = n * (sizeof(K) + width_of<V>);
  p.phase("read", bytes);
  std::vector<K> keys(n);
  load(*job.keys, n, keys.data(), p);
  std::vector<V> vals(pairs ? n : 0);
  load_values(job, 0, vals.size(), vals.data(), p);

  p.phase("sort", bytes);
  sort_outcome o;
  const auto t0 = std::chrono::steady_clock::now();
  if constexpr (pairs) o.used = sort<K, V>(std::span<K>(keys), std::span<V>(vals), job.opt);
  else o.used = sort<K>(std::span<K>(keys), job.opt);
  o.sort_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  p.add(bytes);

  p.phase("write", (job.keys_out.file ? n * sizeof(K) : 0) + vals.size() * width_of<V>);
  write_output(job.keys_out, keys.data(), n, sizeof(K), p);
  if constexpr (pairs) write_output(job.values_out, vals.data(), n, sizeof(V), p);
  return o;
}

}  // namespace

std::size_t memory_budget(const std::optional<std::string>& max_memory) {
  if (max_memory) {
    const std::uint64_t b = parse_bytes(*max_memory, "--max-memory");
    if (b < min_budget) throw usage_error("--max-memory " + *max_memory + " is below the least budget, 64K");
    return std::size_t(b);
  }
  return std::max(available_memory() / 2, min_budget);
}

std::size_t sort_bytes_per_element(std::size_t key_width, std::size_t value_width) {
  if (value_width == 0) return 2 * key_width;
  return key_width + value_width + 8 + (key_width > 4 ? 16 : 0) + std::max(key_width, value_width);
}

sort_outcome run_sort_job(const sort_job& job, progress& p) {
  array_file& keys = *job.keys;
  std::size_t per = sort_bytes_per_element(keys.width, job.value_width);
  if (!keys.counted) {
    // As many keys as sort in memory, and a byte more to see whether the
    // stream goes on.
    p.phase("read", 0);
    read_ahead(keys, job.budget / per * keys.width + 1, p);
  }
  const std::size_t n = keys.count;
  if (job.value_width && n > 0xFFFFFFFFull) per += 16;  // records too wide to pack a key's rank with its index
  if (!keys.counted || n > job.budget / per) return external_sort(job, p);
  sort_outcome o;
  with_job_types(job, [&]<class K, class V>() { o = sort_in_memory<K, V>(job, p); });
  return o;
}

void start_output(const sort_job::output& out, std::size_t n) {
  if (!out.file || !out.npy) return;
  const std::string header = npy_header(out.dtype, n);
  out.file->write(header.data(), header.size());
}

}  // namespace gpusort::cli
