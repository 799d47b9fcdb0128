// What the sorts by columns (columns_api.cpp) and of records (records.cpp)
// share: the columns' widths for the plan, one pass's columns as the pack
// kernels read them, the packed key's type and the inner sort's options.
#pragma once

#include "columns/pack.hpp"
#include "columns/plan.hpp"

#include <gpusort/columns.hpp>
#include <gpusort/detail/key_traits.hpp>
#include <gpusort/detail/with_key.hpp>

#include <cstddef>
#include <vector>

namespace gpusort::detail::columns {

inline std::vector<unsigned> widths_of(const key_column* columns, std::size_t num_columns) {
  std::vector<unsigned> w(num_columns);
  for (std::size_t c = 0; c < num_columns; ++c) w[c] = unsigned(size_of(columns[c].key) * 8);
  return w;
}

// One pass's columns as the pack kernel reads them: each with its shift,
// direction and NaN test (key_order's, for opt.nans).
inline packed_group group_of(const pass& p, const key_column* columns, const options& opt) {
  packed_group g;
  g.count = int(p.columns.size());
  g.key_bytes = int(p.key_bytes);
  for (std::size_t i = 0; i < p.columns.size(); ++i) {
    const key_column& c = columns[p.columns[i].column];
    packed_column& pc = g.columns[i];
    pc.data = c.data;
    pc.stride = c.stride ? c.stride : size_of(c.key);
    pc.key = int(c.key);
    pc.shift = p.columns[i].shift;
    pc.descending = c.direction == order::descending;
    with_key(c.key, [&]<class K>() {
      using T = key_traits<K>;
      pc.bytes = unsigned(sizeof(K));
      pc.kind = T::is_float ? packed_column::floating
                : T::kind == key_kind::signed_int ? packed_column::signed_int
                                                   : packed_column::unsigned_int;
      const key_order<K> o(false, 0, T::width, opt.nans == nan_order::largest);
      pc.nan_lo = o.nan_lo;
      pc.nan_span = o.nan_span;
    });
  }
  return g;
}

inline key_type packed_key(const pass& p) { return p.key_bytes == 4 ? key_type::u32 : key_type::u64; }

inline options inner_options(const options& opt) {
  options o;
  o.stream = opt.stream;  // ascending, every bit, the automatic (stable) radix sort
  return o;
}

}  // namespace gpusort::detail::columns
