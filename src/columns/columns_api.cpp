// gpusort::sort_by_columns_device and _host (columns.hpp): the plan's passes
// (plan.hpp), each a pack (pack.cu) and one stable radix sort of (packed
// key, row) pairs through the run-time API.
//
// Device scratch (both phases carve it with temp_layout): the columns'
// bounds (pack.hpp: only the bits that vary are packed), the packed keys
// and their sorted copy (8 or 4 bytes a row each), two row buffers (4 bytes
// a row while n < 2^32, else 8) and the inner sort's own scratch. The first
// pass packs the rows in input order and sorts them with their indices (made
// by the sort: argsort's form); each later pass packs through the order of
// the pass before. The last pass sorts its rows straight into the output
// when it has the output's width; int64 output of 32-bit rows is widened by
// the last pass's last write.
#include "columns/group.hpp"
#include "columns/ordered.hpp"
#include "columns/pack.hpp"
#include "columns/plan.hpp"
#include "core/rows.hpp"
#include "core/runtime_formed.hpp"
#include "core/two_phase.hpp"

#include <gpusort/columns.hpp>
#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/temp_layout.hpp>

#include <parallel/algorithm>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace gpusort {

namespace {

using detail::call_context;
using detail::temp_layout;
namespace cols = detail::columns;
using cols::group_of;
using cols::inner_options;
using cols::packed_key;
using cols::widths_of;

void check_call(const call_context& ctx, const key_column* columns, std::size_t num_columns, std::size_t n,
                const void* indices_out, int index_bytes) {
  if (index_bytes != 4 && index_bytes != 8)
    ctx.fail(errc::invalid_argument, "index width must be 4 or 8 bytes, not " + std::to_string(index_bytes));
  if (index_bytes == 4 && n > 0x7FFFFFFFull)
    ctx.fail(errc::invalid_argument, "int32 indices for " + std::to_string(n) + " rows");
  if (num_columns > 0 && !columns) ctx.fail(errc::invalid_argument, "null column list");
  if (n == 0) return;
  if (!indices_out) ctx.fail(errc::invalid_argument, "null indices with n > 0");
  for (std::size_t c = 0; c < num_columns; ++c) {
    if (int(columns[c].key) < 0 || int(columns[c].key) >= key_type_count)
      ctx.fail(errc::invalid_argument, "column " + std::to_string(c) + ": unknown key type");
    if (!columns[c].data) ctx.fail(errc::invalid_argument, "column " + std::to_string(c) + ": null data with n > 0");
    const std::size_t w = size_of(columns[c].key);
    if (reinterpret_cast<std::uintptr_t>(columns[c].data) % w != 0)
      ctx.fail(errc::invalid_argument, "column " + std::to_string(c) + ": data not aligned to its " +
                                           std::to_string(w) + "-byte keys");
    if (columns[c].stride != 0 && (columns[c].stride < w || columns[c].stride % w != 0))
      ctx.fail(errc::invalid_argument, "column " + std::to_string(c) + ": stride " +
                                           std::to_string(columns[c].stride) + " is not a multiple of the " +
                                           std::to_string(w) + "-byte key");
  }
}

}  // namespace

void sort_by_columns_device(void* temp, std::size_t& temp_bytes, const key_column* columns, std::size_t num_columns,
                            std::size_t n, void* indices_out, int index_bytes, const options& opt) {
  call_context ctx = detail::make_context("sort_by_columns", "columns", "radix", n, temp ? temp_bytes : 0);
  check_call(ctx, columns, num_columns, n, indices_out, index_bytes);
  const std::vector<cols::pass> plan = cols::make_plan(widths_of(columns, num_columns));
  const bool wide = n > 0xFFFFFFFFull;  // rows carried as u64
  const int row_bytes = wide ? 8 : 4;
  const options inner = inner_options(opt);
  const auto phases = [&](void* base) {
    const bool sizing = base == nullptr;
    temp_layout L(base);
    std::size_t key_bytes = 4;
    for (const cols::pass& p : plan) key_bytes = std::max<std::size_t>(key_bytes, p.key_bytes);
    auto* bounds = L.take<std::uint64_t>(cols::bounds_count);
    void* keys = L.take<std::uint8_t>(n * key_bytes);
    void* sorted_keys = L.take<std::uint8_t>(n * key_bytes);
    void* rows[2] = {L.take<std::uint8_t>(n * std::size_t(row_bytes)), L.take<std::uint8_t>(n * std::size_t(row_bytes))};
    std::size_t inner_bytes = 0;
    for (const cols::pass& p : plan) {
      std::size_t b = 0;
      sort_device(nullptr, b, sort_spec{packed_key(p), n, 1}, detail::stand_in<void>(0), detail::stand_in<void>(1),
                  detail::stand_in<void>(2), detail::stand_in<void>(3), std::size_t(row_bytes), inner);
      inner_bytes = std::max(inner_bytes, b);
    }
    void* inner_temp = L.take<std::uint8_t>(inner_bytes);
    if (sizing || n == 0) return L.bytes();
    if (plan.empty()) {  // no columns: the rows keep their order
      detail::launch_row_iota(ctx, indices_out, index_bytes, n, n, opt.stream);
      return L.bytes();
    }
    // Each pass's sort takes argsort's form (core/device_call.hpp): its
    // sorted keys are dropped, the first pass's rows are the positions (no
    // iota), and the last pass of u32 rows widens them into int64 output.
    int at = 0;  // rows[at]: the order so far
    for (std::size_t i = 0; i < plan.size(); ++i) {
      const bool last = i + 1 == plan.size();
      const cols::packed_group g = group_of(plan[i], columns, opt);
      cols::launch_column_bounds(ctx, g, bounds, n, opt.stream);
      cols::launch_pack(ctx, g, bounds, i == 0 ? nullptr : rows[at], wide, keys, n, opt.stream);
      detail::argsort_form form;
      form.positions = i == 0;
      form.keys_dropped = true;
      if (last && index_bytes == 8 && row_bytes == 4) form.wide_out = static_cast<std::uint64_t*>(indices_out);
      void* into = last && index_bytes == row_bytes ? indices_out : rows[1 - at];
      std::size_t b = inner_bytes;
      detail::sort_device_formed(inner_temp, b, sort_spec{packed_key(plan[i]), n, 1}, keys, sorted_keys, rows[at],
                                 into, std::size_t(row_bytes), inner, form);
      at = 1 - at;
    }
    return L.bytes();
  };
  detail::two_phase(ctx, temp, temp_bytes, phases);
}

void sort_by_columns_device(const key_column* columns, std::size_t num_columns, std::size_t n, void* indices_out,
                            int index_bytes, const options& opt) {
  detail::allocating_call(detail::make_context("sort_by_columns", "columns", "radix", n), opt.stream,
                          [&](void* temp, std::size_t& bytes) {
                            sort_by_columns_device(temp, bytes, columns, num_columns, n, indices_out, index_bytes,
                                                   opt);
                          });
}

// The host: with a GPU, the columns are copied to it and sorted there (the
// device call above), the permutation copied back; otherwise the same
// passes on the CPU, packed by every core and each sorted by libstdc++'s
// parallel stable sort of (packed key, row) on the key.
namespace {

void sort_by_columns_gpu(const call_context& ctx, const key_column* columns, std::size_t num_columns, std::size_t n,
                         void* indices_out, int index_bytes, const options& opt) {
  struct device_block {
    void* p = nullptr;
    ~device_block() { cudaFree(p); }
  };
  const auto alloc = [&](device_block& b, std::size_t bytes, const char* what) {
    ctx.check(cudaMalloc(&b.p, std::max<std::size_t>(bytes, 1)), what);
  };
  std::vector<device_block> blocks(num_columns + 1);
  std::vector<key_column> d_cols(columns, columns + num_columns);
  for (std::size_t c = 0; c < num_columns; ++c) {
    const std::size_t w = size_of(columns[c].key), stride = columns[c].stride ? columns[c].stride : w;
    alloc(blocks[c], n * w, "cudaMalloc(column)");
    // a strided column is packed on the way (cudaMemcpy2D: one key per row)
    ctx.check(cudaMemcpy2D(blocks[c].p, w, columns[c].data, stride, w, n, cudaMemcpyHostToDevice),
              "cudaMemcpy2D(column)");
    d_cols[c].data = blocks[c].p;
    d_cols[c].stride = 0;
  }
  device_block& perm = blocks[num_columns];
  alloc(perm, n * std::size_t(index_bytes), "cudaMalloc(indices)");
  options d_opt = opt;
  d_opt.stream = nullptr;
  sort_by_columns_device(d_cols.data(), d_cols.size(), n, perm.p, index_bytes, d_opt);
  ctx.check(cudaMemcpy(indices_out, perm.p, n * std::size_t(index_bytes), cudaMemcpyDeviceToHost),
            "cudaMemcpy(indices)");
}

}  // namespace

void sort_by_columns_host(const key_column* columns, std::size_t num_columns, std::size_t n, void* indices_out,
                          int index_bytes, const options& opt) {
  const call_context ctx = detail::make_context("sort_by_columns_host", "columns", "merge", n);
  check_call(ctx, columns, num_columns, n, indices_out, index_bytes);
  if (n > 0 && gpu_available()) {
    sort_by_columns_gpu(ctx, columns, num_columns, n, indices_out, index_bytes, opt);
    return;
  }
  const std::vector<cols::pass> plan = cols::make_plan(widths_of(columns, num_columns));
  std::vector<std::pair<std::uint64_t, std::uint64_t>> rows(n);  // (packed key, row)
  for (std::size_t i = 0; i < n; ++i) rows[i].second = i;
  for (const cols::pass& p : plan) {
    const cols::packed_group g = group_of(p, columns, opt);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(n); ++i) {
      std::uint64_t k = 0;
      for (int c = 0; c < g.count; ++c)
        k |= cols::ordered_any(g.columns[c], std::size_t(rows[i].second)) << g.columns[c].shift;
      rows[i].first = k;
    }
    __gnu_parallel::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (index_bytes == 8) static_cast<std::int64_t*>(indices_out)[i] = std::int64_t(rows[i].second);
    else static_cast<std::int32_t*>(indices_out)[i] = std::int32_t(rows[i].second);
  }
}

}  // namespace gpusort
