// Host suite: the decomposer interface of structs.hpp without a GPU. The
// members a decomposer names (std::tuple and cuda::std::tuple) become key
// columns at the right offsets, with the struct's stride, their key types
// and the directions asked for; sorting by those strided columns on the
// host (sort_by_columns_host's CPU path here) orders the structs as
// std::stable_sort by the same members does.
#include "oracle.hpp"

#include <gpusort/structs.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

namespace {

struct rec {
  std::int64_t id;
  double score;
  std::uint8_t flag;
  bool on;
};

struct by_flag_id_score {
  std::tuple<std::uint8_t&, std::int64_t&, double&> operator()(rec& r) const { return {r.flag, r.id, r.score}; }
};
struct by_on_score {
  cuda::std::tuple<bool&, double&> operator()(rec& r) const { return {r.on, r.score}; }
};

TEST(StructsHost, DecomposerMembersAreStridedColumns) {
  std::vector<rec> v(3);
  const gpusort::order dirs[] = {gpusort::order::descending, gpusort::order::ascending, gpusort::order::descending};
  const auto f = gpusort::detail::struct_fields(v.data(), by_flag_id_score{}, gpusort::options{}, dirs);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].key, gpusort::key_type::u8);
  EXPECT_EQ(f[0].data, static_cast<const void*>(&v[0].flag));
  EXPECT_EQ(f[0].direction, gpusort::order::descending);
  EXPECT_EQ(f[1].key, gpusort::key_type::i64);
  EXPECT_EQ(f[1].data, static_cast<const void*>(&v[0].id));
  EXPECT_EQ(f[2].key, gpusort::key_type::f64);
  EXPECT_EQ(f[2].data, static_cast<const void*>(&v[0].score));
  for (const auto& c : f) EXPECT_EQ(c.stride, sizeof(rec));
  gpusort::options desc;
  desc.direction = gpusort::order::descending;
  const auto g = gpusort::detail::struct_fields(v.data(), by_on_score{}, desc, nullptr);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].key, gpusort::key_type::u8);  // bool: one byte, false first
  EXPECT_EQ(g[0].data, static_cast<const void*>(&v[0].on));
  EXPECT_EQ(g[1].direction, gpusort::order::descending);
}

TEST(StructsHost, StridedMembersSortAsStableSortDoes) {
  std::mt19937_64 rng(7);
  const std::size_t n = 20000;
  std::vector<rec> v(n);
  for (auto& r : v) {
    r.id = std::int64_t(rng() % 50) - 25;
    r.score = double(std::int64_t(rng() % 200) - 100) / 8;
    r.flag = std::uint8_t(rng() % 3);
    r.on = rng() % 2;
  }
  v[5].score = -0.0;
  v[6].score = 0.0;
  const gpusort::order dirs[] = {gpusort::order::descending, gpusort::order::ascending, gpusort::order::descending};
  const auto f = gpusort::detail::struct_fields(v.data(), by_flag_id_score{}, gpusort::options{}, dirs);
  std::vector<std::int64_t> got(n);
  gpusort::sort_by_columns_host(f.data(), f.size(), n, got.data(), 8);
  std::vector<std::int64_t> want(n);
  std::iota(want.begin(), want.end(), std::int64_t(0));
  std::stable_sort(want.begin(), want.end(), [&](std::int64_t a, std::int64_t b) {
    const rec &x = v[std::size_t(a)], &y = v[std::size_t(b)];
    if (x.flag != y.flag) return x.flag > y.flag;
    if (x.id != y.id) return x.id < y.id;
    return x.score > y.score;  // -0.0 == 0.0: ties keep their order
  });
  EXPECT_EQ(got, want);
}

}  // namespace
