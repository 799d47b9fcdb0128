// gpusort's own device sorts, timed through the two-phase API: scratch is
// queried and allocated once outside the timing, as a caller would. Plain
// sorts (sort_keys / sort_pairs) and the segmented sort.
#include "device_sorter.hpp"

namespace gpusort::cli::bench {

namespace {

template <class K, class V> class ours final : public device_sorter<K, V> {
 public:
  ours(algorithm algo, pivot_rule pivots) {
    opt_.algo = algo;
    opt_.pivots = pivots;
  }

  std::size_t scratch_bytes(K* keys_in, K* keys_out, V* vals_in, V* vals_out,
                            std::size_t n) override {
    std::size_t bytes = 0;
    if (vals_in)
      sort_pairs<K, V>(nullptr, bytes, keys_in, keys_out, vals_in, vals_out, n, opt_);
    else
      sort_keys<K>(nullptr, bytes, keys_in, keys_out, n, opt_);
    return bytes;
  }

  void sort(void* temp, std::size_t temp_bytes, K* keys_in, K* keys_out, V* vals_in,
            V* vals_out, std::size_t n, cudaStream_t stream) override {
    options opt = opt_;
    opt.stream = stream;
    if (vals_in)
      sort_pairs<K, V>(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, n, opt);
    else
      sort_keys<K>(temp, temp_bytes, keys_in, keys_out, n, opt);
  }

 private:
  options opt_;
};

// gpusort::segmented_sort_keys / _pairs over the point's segments, with the
// one-array offsets as int32 where n allows (as a caller would pass them),
// else int64.
template <class K, class V> class ours_segmented final : public device_sorter<K, V> {
 public:
  void set_segments(const device_segments& segments, bool) override { segments_ = segments; }

  std::size_t scratch_bytes(K* keys_in, K* keys_out, V* vals_in, V* vals_out,
                            std::size_t n) override {
    std::size_t bytes = 0;
    run(nullptr, bytes, keys_in, keys_out, vals_in, vals_out, n, options{});
    return bytes;
  }

  void sort(void* temp, std::size_t temp_bytes, K* keys_in, K* keys_out, V* vals_in,
            V* vals_out, std::size_t n, cudaStream_t stream) override {
    options opt;
    opt.stream = stream;
    run(temp, temp_bytes, keys_in, keys_out, vals_in, vals_out, n, opt);
  }

 private:
  void run(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, V* vals_in,
           V* vals_out, std::size_t n, const options& opt) const {
    if (segments_.offsets32)
      call(temp, bytes, keys_in, keys_out, vals_in, vals_out, n, segments_.offsets32, opt);
    else
      call(temp, bytes, keys_in, keys_out, vals_in, vals_out, n, segments_.offsets64, opt);
  }
  template <class O>
  void call(void* temp, std::size_t& bytes, K* keys_in, K* keys_out, V* vals_in,
            V* vals_out, std::size_t n, const O* offsets, const options& opt) const {
    if (vals_in)
      segmented_sort_pairs<K, V, O>(temp, bytes, keys_in, keys_out, vals_in, vals_out, n,
                                          segments_.num_segments, offsets, opt);
    else
      segmented_sort_keys<K, O>(temp, bytes, keys_in, keys_out, n, segments_.num_segments, offsets,
                                opt);
  }

  device_segments segments_;
};

}  // namespace

template <class K, class V>
std::unique_ptr<device_sorter<K, V>> make_ours(algorithm algo, pivot_rule pivots) {
  return std::make_unique<ours<K, V>>(algo, pivots);
}

template <class K, class V> std::unique_ptr<device_sorter<K, V>> make_ours_segmented() {
  return std::make_unique<ours_segmented<K, V>>();
}

// Every key with both value widths: the library takes any value width at
// run time, so these cost no kernels.
#define GPUSORT_CLI_OURS_V(K, V)                                                                  \
  template std::unique_ptr<device_sorter<K, V>> make_ours<K, V>(algorithm, pivot_rule);           \
  template std::unique_ptr<device_sorter<K, V>> make_ours_segmented<K, V>();
#define GPUSORT_CLI_OURS(K)                                                                       \
  GPUSORT_CLI_OURS_V(K, std::uint32_t)                                                            \
  GPUSORT_CLI_OURS_V(K, std::uint64_t)
GPUSORT_FOR_EACH_KEY(GPUSORT_CLI_OURS)
#undef GPUSORT_CLI_OURS
#undef GPUSORT_CLI_OURS_V

}  // namespace gpusort::cli::bench
