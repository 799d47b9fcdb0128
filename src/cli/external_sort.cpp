// External merge sort (Knuth, TAOCP vol. 3, 5.4): a file larger than the
// memory budget is sorted in two phases.
//
//   runs   The input is read in runs of as many elements as the budget holds
//          together with the sort's scratch (sort_bytes_per_element). Each
//          run is sorted by gpusort::sort, its values (or argsort's
//          positions) moving with its keys, and appended to a scratch file in
//          the output's folder: the run's keys, then its values.
//   merge  A k-way merge streams the runs' heads through a loser tree into
//          the output: per element, one comparison per tree level. Ties go
//          to the earlier run; the runs are consecutive slices of the input,
//          each sorted stably, so the result is the input's stable sort,
//          bit for bit the in-memory path's.
//
// A merge gives each run a read buffer (keys and values); when the budget
// cannot give every run one of at least min_buffer bytes (or there are
// more than max_fan_in runs), earlier passes merge consecutive groups of
// runs into a new scratch file first, which keeps the runs in input order
// and so the ties stable.
#include "external_sort.hpp"

#include <gpusort/detail/key_traits.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpusort::cli {

namespace {

constexpr std::size_t max_fan_in = 256;                    // runs one merge reads at once
constexpr std::size_t min_buffer = std::size_t(64) << 10;  // bytes for a run's buffers in a merge
constexpr std::size_t max_buffer = std::size_t(4) << 20;   // bytes a buffer: more reads no faster
constexpr std::size_t min_run = 1024;                      // elements a run, whatever the budget
constexpr const char* scratch_purpose = "a temporary run file";

// A sorted run in a scratch file: `count` keys at `offset`, then their values.
struct run {
  std::uint64_t offset = 0;
  std::size_t count = 0;
};

// Where a merge's buffers go: an output file, or a scratch file from an offset on.
using sink = std::function<void(const void*, std::size_t)>;

sink to_output(const sort_job::output& out) {
  if (!out.file) return {};
  return [f = out.file](const void* bytes, std::size_t size) { f->write(bytes, size); };
}

sink to_scratch(scratch_file& f, std::uint64_t at) {
  return [&f, at](const void* bytes, std::size_t size) mutable {
    f.write(at, bytes, size);
    at += size;
  };
}

// The `count` elements of type T at `offset` of a scratch file, read a
// buffer at a time.
template <class T> class run_reader {
 public:
  run_reader(const scratch_file& f, std::uint64_t offset, std::size_t count, std::size_t buffer)
      : file_(&f), next_(offset), left_(count), buf_(std::min(count, buffer)) {
    refill();
  }
  const T& head() const { return buf_[at_]; }
  void pop() {
    if (++at_ == filled_) refill();
  }

 private:
  void refill() {
    at_ = 0;
    filled_ = std::min(left_, buf_.size());
    if (filled_ == 0) return;
    file_->read(next_, buf_.data(), filled_ * sizeof(T));
    next_ += filled_ * sizeof(T);
    left_ -= filled_;
  }
  const scratch_file* file_;
  std::uint64_t next_;
  std::size_t left_;
  std::vector<T> buf_;
  std::size_t at_ = 0, filled_ = 0;
};

// Elements of type T handed to a sink a buffer at a time.
template <class T> class element_writer {
 public:
  element_writer(sink to, std::size_t buffer) : to_(std::move(to)), buf_(std::max<std::size_t>(buffer, 1)) {}
  void put(const T& x) {
    buf_[used_++] = x;
    if (used_ == buf_.size()) flush();
  }
  void flush() {
    if (used_) to_(buf_.data(), used_ * sizeof(T));
    used_ = 0;
  }

 private:
  sink to_;
  std::vector<T> buf_;
  std::size_t used_ = 0;
};

// A head's place in the merge order: its rank, then its run, so that equal
// ranks go to the earlier run. Ranks of up to 32 bits pack with the run into
// one integer (one compare a match); wider ones pair with it. The place of
// an exhausted run is all ones: after every head.
template <class R> struct wide_place {
  R rank;
  std::uint32_t run;
  bool operator<(const wide_place& o) const { return rank < o.rank || (rank == o.rank && run < o.run); }
};
template <class R> using place = std::conditional_t<sizeof(R) <= 4, std::uint64_t, wide_place<R>>;

template <class R> place<R> place_of(R rank, std::uint32_t run) {
  if constexpr (sizeof(R) <= 4) return std::uint64_t(rank) << 32 | run;
  else return {rank, run};
}
template <class R> place<R> exhausted() {
  if constexpr (sizeof(R) <= 4) return ~std::uint64_t(0);
  else return {R(~R(0)), ~std::uint32_t(0)};
}
template <class P> std::uint32_t run_of(const P& p) {
  if constexpr (std::is_integral_v<P>) return std::uint32_t(p);
  else return p.run;
}

// A loser tree (Knuth 5.4.1) over k runs' heads. The runs are the leaves,
// k..2k-1 of an implicit binary tree (node j's children are 2j and 2j + 1,
// so every inner node 1..k-1 has two, for any k); each inner node holds the
// place that lost the match there, node 0 the overall winner's. When the
// winner's head changes, only its path to the root is replayed: one
// compare a level, no branch on the data.
template <class P> class loser_tree {
 public:
  // The runs' first places (no run is empty).
  explicit loser_tree(const std::vector<P>& heads) : k_(heads.size()), node_(std::max<std::size_t>(k_, 1)) {
    std::vector<P> winner(2 * k_);
    std::copy(heads.begin(), heads.end(), winner.begin() + std::ptrdiff_t(k_));
    for (std::size_t j = k_ - 1; j >= 1; --j) {
      const P& a = winner[2 * j];
      const P& b = winner[2 * j + 1];
      const bool a_wins = a < b;
      node_[j] = a_wins ? b : a;
      winner[j] = a_wins ? a : b;
    }
    node_[0] = k_ > 1 ? winner[1] : heads[0];
  }
  // The run whose head comes first.
  std::uint32_t winner() const { return run_of(node_[0]); }
  // That run's next head takes its place: `next`, or exhausted().
  void replace(P next) {
    for (std::size_t j = (winner() + k_) / 2; j >= 1; j /= 2) {
      const P loser = node_[j];
      const bool swap = loser < next;
      node_[j] = swap ? next : loser;
      next = swap ? loser : next;
    }
    node_[0] = next;
  }

 private:
  std::size_t k_;
  std::vector<P> node_;
};

// Reads the input a run at a time, sorts each run and appends it to `to`.
// A raw stream's runs are known only at its end: it is read until then.
template <class K, class V>
std::vector<run> make_runs(const sort_job& job, std::size_t run_size, scratch_file& to, progress& p, backend& used) {
  constexpr bool pairs = width_of<V> != 0;
  array_file& in = *job.keys;
  const std::string of = in.counted ? "/" + std::to_string((in.count + run_size - 1) / run_size) : "";
  std::vector<K> keys(in.counted ? std::min(in.count, run_size) : run_size);
  std::vector<V> vals(pairs ? keys.size() : 0);
  std::vector<run> out;
  std::uint64_t at = 0;
  for (std::size_t first = 0; !in.counted || first < in.count;) {
    p.relabel("run " + std::to_string(out.size() + 1) + of);
    const std::size_t m = load(in, keys.size(), keys.data(), p);
    if (m == 0) break;
    load_values(job, first, m, vals.data(), p);
    if constexpr (pairs) used = sort<K, V>(std::span<K>(keys.data(), m), std::span<V>(vals.data(), m), job.opt);
    else used = sort<K>(std::span<K>(keys.data(), m), job.opt);
    to.write(at, keys.data(), m * sizeof(K));
    if constexpr (pairs) to.write(at + m * sizeof(K), vals.data(), m * sizeof(V));
    out.push_back({at, m});
    at += m * (sizeof(K) + width_of<V>);
    first += m;
  }
  return out;
}

// Merges `group` (runs of `from`, in input order) into keys_to (none: the
// keys are not written) and vals_to, with buffers of `buffer` elements.
template <class K, class V>
void merge(std::span<const run> group, const scratch_file& from, const detail::key_order<K>& ord,
           std::size_t buffer, const sink& keys_to, const sink& vals_to, progress& p) {
  using R = typename detail::key_order<K>::bits;
  constexpr bool pairs = width_of<V> != 0;
  constexpr std::size_t step = std::size_t(1) << 16;  // elements between progress reports
  std::vector<run_reader<K>> keys;
  std::vector<run_reader<V>> vals;
  std::vector<std::size_t> left;
  std::vector<place<R>> heads;
  std::size_t total = 0;
  for (const run& r : group) {
    keys.emplace_back(from, r.offset, r.count, buffer);
    if constexpr (pairs) vals.emplace_back(from, r.offset + r.count * sizeof(K), r.count, buffer);
    left.push_back(r.count);
    heads.push_back(place_of(ord.key_rank(keys.back().head()), std::uint32_t(heads.size())));
    total += r.count;
  }
  loser_tree<place<R>> tree(heads);
  std::optional<element_writer<K>> keys_out;
  if (keys_to) keys_out.emplace(keys_to, buffer);
  std::optional<element_writer<V>> vals_out;
  if constexpr (pairs) vals_out.emplace(vals_to, buffer);

  for (std::size_t done = 1; done <= total; ++done) {
    const std::uint32_t w = tree.winner();
    if (keys_out) keys_out->put(keys[w].head());
    if constexpr (pairs) {
      vals_out->put(vals[w].head());
      vals[w].pop();
    }
    keys[w].pop();
    tree.replace(--left[w] == 0 ? exhausted<R>() : place_of(ord.key_rank(keys[w].head()), w));
    if (done % step == 0) p.add(step * (sizeof(K) + width_of<V>));
  }
  p.add(total % step * (sizeof(K) + width_of<V>));
  if (keys_out) keys_out->flush();
  if (vals_out) vals_out->flush();
}

// Merge passes until at most `fan_in` runs are left (the final merge among them).
std::size_t merge_passes(std::size_t runs, std::size_t fan_in) {
  std::size_t passes = 1;
  for (; runs > fan_in; ++passes) runs = (runs + fan_in - 1) / fan_in;
  return passes;
}

template <class K, class V> sort_outcome sort_external(const sort_job& job, progress& p) {
  const auto t0 = std::chrono::steady_clock::now();
  constexpr std::size_t elem = sizeof(K) + width_of<V>;
  const detail::key_order<K> ord(job.opt.direction == order::descending, job.opt.begin_bit,
                                 job.opt.end_bit < 0 ? int(8 * sizeof(K)) : job.opt.end_bit,
                                 job.opt.begin_bit == 0 && job.opt.end_bit < 0 && job.opt.nans == nan_order::largest);
  sort_outcome o;

  p.phase("run", job.keys->counted ? job.keys->bytes() + job.keys->count * width_of<V> : 0);
  const std::size_t run_size = std::max(job.budget / sort_bytes_per_element(sizeof(K), width_of<V>), min_run);
  auto runs_file = std::make_unique<scratch_file>(job.folder, scratch_purpose);
  std::vector<run> runs = make_runs<K, V>(job, run_size, *runs_file, p, o.used);
  o.runs = runs.size();
  const std::size_t n = job.keys->count;  // counted by now

  // Each run in a merge has a buffer of keys and one of values, the output as many.
  const std::size_t fan_in = std::clamp<std::size_t>(job.budget / min_buffer - 1, 2, max_fan_in);
  const std::size_t elem_max = std::max(sizeof(K), width_of<V>);
  auto buffer_for = [&](std::size_t k) {
    return std::clamp(job.budget / ((k + 1) * elem), std::max<std::size_t>(1, min_buffer / (2 * elem_max)),
                      max_buffer / elem_max);
  };
  o.passes = merge_passes(runs.size(), fan_in);
  p.phase("merge", n * elem * o.passes);
  for (std::size_t pass = 1; pass < o.passes; ++pass) {
    p.relabel("merge " + std::to_string(pass) + "/" + std::to_string(o.passes));
    auto merged_file = std::make_unique<scratch_file>(job.folder, scratch_purpose);
    std::vector<run> merged;
    std::uint64_t at = 0;
    for (std::size_t g = 0; g < runs.size(); g += fan_in) {
      const std::span<const run> group(runs.data() + g, std::min(fan_in, runs.size() - g));
      run out{at, 0};
      for (const run& r : group) out.count += r.count;
      merge<K, V>(group, *runs_file, ord, buffer_for(group.size()), to_scratch(*merged_file, at),
                  to_scratch(*merged_file, at + out.count * sizeof(K)), p);
      merged.push_back(out);
      at += out.count * elem;
    }
    runs = std::move(merged);
    runs_file = std::move(merged_file);  // the pass's input file is closed, and its space freed
  }

  p.relabel(o.passes > 1 ? "merge " + std::to_string(o.passes) + "/" + std::to_string(o.passes) : "merge");
  start_output(job.keys_out, n);
  if constexpr (width_of<V> != 0) start_output(job.values_out, n);
  merge<K, V>(runs, *runs_file, ord, buffer_for(runs.size()), to_output(job.keys_out), to_output(job.values_out), p);
  o.sort_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

}  // namespace

sort_outcome external_sort(const sort_job& job, progress& p) {
  sort_outcome o;
  with_job_types(job, [&]<class K, class V>() { o = sort_external<K, V>(job, p); });
  return o;
}

}  // namespace gpusort::cli
