// gpusort::sort_records_device (columns.hpp): records sorted by their
// fields, two ways.
//
//   * Carried in the keys (carry.hpp), when the fields tile the record in at
//     most 64 bits (a {u32, f32} struct, say): the bounds, one pack of each
//     record into its normalized key with its value beside it, one stable
//     radix sort of (key, value) pairs, and one kernel that rebuilds the
//     records from the sorted keys. About 8 + 24 + the sort + 16 bytes a
//     record with 4-byte values, against the permutation's extra row
//     buffers and its two gathers of scattered records and values.
//   * Otherwise the permutation of the fields (sort_by_columns_device, as
//     strided columns), then one gather of the records (and of the values)
//     through it. In place, the records (values) are first copied to
//     scratch, which the gather reads.
#include "columns/carry.hpp"
#include "columns/group.hpp"
#include "core/gather.hpp"
#include "core/two_phase.hpp"

#include <gpusort/columns.hpp>
#include <gpusort/detail/core/context.hpp>
#include <gpusort/detail/core/temp_layout.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gpusort {

namespace {

using detail::call_context;
using detail::temp_layout;
namespace cols = detail::columns;

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

bool is_float(key_type k) {
  return k == key_type::f16 || k == key_type::bf16 || k == key_type::f32 || k == key_type::f64;
}

// The carried way, when it applies: the fields' layout in the record, else
// nothing (then the permutation's way).
struct carried_plan {
  bool applies = false;
  cols::pass pass;
  cols::carried_record record;
  bool payload = false;  // the sort carries a payload: the values, or rows where folds may lose bits
  int payload_bytes = 4;
};

carried_plan plan_carried(const std::vector<key_column>& fields, const void* records_in, std::size_t record_bytes,
                          std::size_t n, std::size_t val_size) {
  carried_plan c;
  if (val_size != 0 && val_size != 4 && val_size != 8) return c;
  const std::vector<cols::pass> plan = cols::make_plan(cols::widths_of(fields.data(), fields.size()));
  if (plan.size() != 1) return c;
  std::vector<std::size_t> offsets, widths;
  bool floats = false;
  for (const key_column& f : fields) {
    if (address(f.data) < address(records_in)) return c;
    offsets.push_back(address(f.data) - address(records_in));
    widths.push_back(size_of(f.key));
    floats |= is_float(f.key);
  }
  if (!cols::fields_tile_record(offsets, widths, record_bytes)) return c;
  c.payload = val_size > 0 || floats;  // integer fields never fold: keys alone then
  c.payload_bytes = val_size > 0 ? int(val_size) : (n > 0xFFFFFFFFull ? 8 : 4);
  if (c.payload && c.payload_bytes == 4 && n > 0xFFFFFFFFull) return c;  // rows would not fit the values' width
  c.applies = true;
  c.pass = plan.front();
  for (std::size_t i = 0; i < c.pass.columns.size(); ++i) c.record.offset[i] = unsigned(offsets[c.pass.columns[i].column]);
  c.record.record_bytes = unsigned(record_bytes);
  return c;
}

// The widest store (8, 4, 2 or 1 bytes) that the record size and the
// output's address both allow.
unsigned store_bytes(std::size_t record_bytes, const void* out) {
  for (unsigned u : {8u, 4u, 2u})
    if (record_bytes % u == 0 && address(out) % u == 0) return u;
  return 1;
}

}  // namespace

void sort_records_device(void* temp, std::size_t& temp_bytes, const void* records_in, void* records_out,
                         std::size_t record_bytes, const key_column* fields, std::size_t num_fields, std::size_t n,
                         const void* vals_in, void* vals_out, std::size_t val_size, const options& opt) {
  call_context ctx = detail::make_context("sort_records", "record", "radix", n, temp ? temp_bytes : 0);
  if (record_bytes == 0) ctx.fail(errc::invalid_argument, "records of 0 bytes");
  if (n > 0 && (!records_in || !records_out)) ctx.fail(errc::invalid_argument, "null records with n > 0");
  if (n > 0 && val_size > 0 && (!vals_in || !vals_out)) ctx.fail(errc::invalid_argument, "null values with n > 0");
  if (num_fields > 0 && !fields) ctx.fail(errc::invalid_argument, "null field list");
  std::vector<key_column> cols(fields, fields + num_fields);
  for (std::size_t f = 0; f < num_fields; ++f) {
    if (n > 0 && (address(cols[f].data) < address(records_in) ||
                  address(cols[f].data) + size_of(cols[f].key) > address(records_in) + record_bytes))
      ctx.fail(errc::invalid_argument, "field " + std::to_string(f) + " does not lie in the first record");
    cols[f].stride = record_bytes;
  }
  const bool stage = records_in == records_out, stage_vals = val_size > 0 && vals_in == vals_out;
  const carried_plan carried = plan_carried(cols, records_in, record_bytes, n, val_size);
  if (carried.applies) {
    const cols::packed_group g = cols::group_of(carried.pass, cols.data(), opt);
    cols::carried_record rec = carried.record;
    rec.store_bytes = store_bytes(record_bytes, records_out);
    const std::size_t kb = carried.pass.key_bytes, pb = std::size_t(carried.payload_bytes);
    // a payload of rows (keys alone, float fields) is sorted into scratch;
    // values straight into vals_out
    const bool rows_only = carried.payload && val_size == 0;
    const options inner = cols::inner_options(opt);
    const auto phases = [&](void* base) {
      const bool sizing = base == nullptr;
      temp_layout L(base);
      auto* bounds = L.take<std::uint64_t>(cols::bounds_count);
      auto* folded = L.take<unsigned>(1);
      void* keys = L.take<std::uint8_t>(n * kb);
      void* sorted_keys = L.take<std::uint8_t>(n * kb);
      void* payload = carried.payload ? L.take<std::uint8_t>(n * pb) : nullptr;
      void* sorted_rows = rows_only ? L.take<std::uint8_t>(n * pb) : nullptr;
      // what the moves by row read in place, copied only when the folds lost bits
      void* staged = stage && carried.payload ? L.take<std::uint8_t>(n * record_bytes) : nullptr;
      void* staged_vals = stage_vals ? L.take<std::uint8_t>(n * val_size) : nullptr;
      void* pay_out = rows_only ? sorted_rows : vals_out;
      std::size_t inner_bytes = 0;
      sort_device(nullptr, inner_bytes, sort_spec{cols::packed_key(carried.pass), n, 1}, detail::stand_in<void>(0),
                  detail::stand_in<void>(1), carried.payload ? detail::stand_in<void>(2) : nullptr,
                  carried.payload ? detail::stand_in<void>(3) : nullptr, carried.payload ? pb : 0, inner);
      void* inner_temp = L.take<std::uint8_t>(inner_bytes);
      if (sizing || n == 0) return L.bytes();
      cols::launch_column_bounds(ctx, g, bounds, n, opt.stream, folded);
      if (staged) cols::launch_stage_if_folded(ctx, folded, records_in, staged, n * record_bytes, opt.stream);
      if (staged_vals) cols::launch_stage_if_folded(ctx, folded, vals_in, staged_vals, n * val_size, opt.stream);
      cols::launch_pack_carried(ctx, g, bounds, folded, val_size ? vals_in : nullptr, keys, payload,
                                carried.payload_bytes, n, opt.stream);
      sort_device(inner_temp, inner_bytes, sort_spec{cols::packed_key(carried.pass), n, 1}, keys, sorted_keys,
                  payload, carried.payload ? pay_out : nullptr, carried.payload ? pb : 0, inner);
      cols::launch_unpack_carried(ctx, g, rec, bounds, folded, sorted_keys, carried.payload ? pay_out : nullptr,
                                  carried.payload_bytes, staged ? staged : records_in, records_out,
                                  staged_vals ? staged_vals : vals_in, val_size ? vals_out : nullptr, n, opt.stream);
      return L.bytes();
    };
    detail::two_phase(ctx, temp, temp_bytes, phases);
    return;
  }
  const bool wide = n > 0x7FFFFFFFull;
  const int ib = wide ? 8 : 4;
  const auto phases = [&](void* base) {
    const bool sizing = base == nullptr;
    temp_layout L(base);
    void* perm = L.take<std::uint8_t>(n * std::size_t(ib));
    void* staged = stage ? L.take<std::uint8_t>(n * record_bytes) : nullptr;
    void* staged_vals = stage_vals ? L.take<std::uint8_t>(n * val_size) : nullptr;
    std::size_t inner = 0;
    sort_by_columns_device(nullptr, inner, cols.data(), cols.size(), n, sizing ? detail::stand_in<void>(0) : perm, ib,
                           opt);
    void* inner_temp = L.take<std::uint8_t>(inner);
    if (sizing || n == 0) return L.bytes();
    sort_by_columns_device(inner_temp, inner, cols.data(), cols.size(), n, perm, ib, opt);
    const auto move = [&](const void* in, void* out, void* stage_at, std::size_t width, const char* what) {
      if (stage_at)
        ctx.check(cudaMemcpyAsync(stage_at, in, n * width, cudaMemcpyDeviceToDevice, opt.stream), what);
      detail::launch_gather(ctx, stage_at ? stage_at : in, out, perm, wide, n, width, opt.stream);
    };
    move(records_in, records_out, staged, record_bytes, "cudaMemcpyAsync(records)");
    if (val_size) move(vals_in, vals_out, staged_vals, val_size, "cudaMemcpyAsync(values)");
    return L.bytes();
  };
  detail::two_phase(ctx, temp, temp_bytes, phases);
}

}  // namespace gpusort
