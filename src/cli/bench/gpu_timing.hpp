// Timing one GPU sort at one size.
//
// The input lives in a pristine device copy. Before every run it is copied
// into the sort's input buffers (cudaMemcpyAsync on the bench stream,
// before the start event, so not timed); the events bracket the sort call
// alone. Scratch is allocated once, outside the runs. 2 warm-up runs, then
// `reps` timed runs; the median is reported. The last run's output is
// copied back for verification.
#pragma once

#include "cuda_check.hpp"
#include "device_env.hpp"
#include "device_sorter.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace gpusort::cli::bench {

// The bench's stream and timing events, created once.
class gpu_timer {
 public:
  gpu_timer() {
    cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    cuda_check(cudaEventCreate(&start), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  ~gpu_timer() {
    cuda_warn(cudaEventDestroy(start), "cudaEventDestroy");
    cuda_warn(cudaEventDestroy(stop), "cudaEventDestroy");
    cuda_warn(cudaStreamDestroy(stream), "cudaStreamDestroy");
  }
  gpu_timer(const gpu_timer&) = delete;
  gpu_timer& operator=(const gpu_timer&) = delete;

  cudaStream_t stream{};
  cudaEvent_t start{}, stop{};
};

// Device memory for one benchmark point: the pristine input and the
// buffers a sort reads and writes (values only for pairs).
template <class K, class V> struct device_data {
  static std::size_t bytes_needed(std::size_t n, bool pairs) {
    return 3 * n * (sizeof(K) + (pairs ? sizeof(V) : 0));
  }

  device_data(const std::vector<K>& keys, const std::vector<V>* vals, gpu_timer& s)
      : n(keys.size()), pairs(vals != nullptr) {
    const std::size_t kb = n * sizeof(K), vb = pairs ? n * sizeof(V) : 0;
    pristine_keys = device_buffer(kb, "pristine keys");
    keys_in = device_buffer(kb, "input keys");
    keys_out = device_buffer(kb, "output keys");
    cuda_check(cudaMemcpyAsync(pristine_keys.get(), keys.data(), kb, cudaMemcpyHostToDevice, s.stream),
               "cudaMemcpyAsync(keys to device)");
    if (pairs) {
      pristine_vals = device_buffer(vb, "pristine values");
      vals_in = device_buffer(vb, "input values");
      vals_out = device_buffer(vb, "output values");
      cuda_check(cudaMemcpyAsync(pristine_vals.get(), vals->data(), vb, cudaMemcpyHostToDevice,
                                 s.stream),
                 "cudaMemcpyAsync(values to device)");
    }
    cuda_check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize(upload)");
  }

  // Copies the pristine input into the input buffers, on the stream.
  void restore(gpu_timer& s) {
    cuda_check(cudaMemcpyAsync(keys_in.get(), pristine_keys.get(), n * sizeof(K),
                               cudaMemcpyDeviceToDevice, s.stream),
               "cudaMemcpyAsync(restore keys)");
    if (pairs)
      cuda_check(cudaMemcpyAsync(vals_in.get(), pristine_vals.get(), n * sizeof(V),
                                 cudaMemcpyDeviceToDevice, s.stream),
                 "cudaMemcpyAsync(restore values)");
  }

  // Poisons the output buffers, on the stream: they are shared by the
  // methods of one point, so a sort that wrote nothing must not inherit the
  // previous method's (sorted) output.
  void poison_outputs(gpu_timer& s) {
    cuda_check(cudaMemsetAsync(keys_out.get(), 0xA5, n * sizeof(K), s.stream),
               "cudaMemsetAsync(output keys)");
    if (pairs)
      cuda_check(cudaMemsetAsync(vals_out.get(), 0xA5, n * sizeof(V), s.stream),
                 "cudaMemsetAsync(output values)");
  }

  std::size_t n;
  bool pairs;
  device_buffer pristine_keys, keys_in, keys_out, pristine_vals, vals_in, vals_out;
};

// Runs the sort warmup + reps times and returns the median of the timed
// runs in ms; the sorted output ends up in out_keys/out_vals. `scratch`
// must hold s.scratch_bytes() bytes. Throws gpusort::error on failure.
template <class K, class V>
double time_device_sort(device_sorter<K, V>& sorter, device_data<K, V>& d, device_buffer& scratch,
                        std::size_t scratch_bytes, gpu_timer& s, int warmup, int reps,
                        std::vector<K>& out_keys, std::vector<V>& out_vals) {
  K* kin = d.keys_in.template as<K>();
  K* kout = d.keys_out.template as<K>();
  V* vin = d.pairs ? d.vals_in.template as<V>() : nullptr;
  V* vout = d.pairs ? d.vals_out.template as<V>() : nullptr;
  std::vector<float> times;
  d.poison_outputs(s);
  for (int r = 0; r < warmup + reps; ++r) {
    d.restore(s);
    cuda_check(cudaEventRecord(s.start, s.stream), "cudaEventRecord(start)");
    sorter.sort(scratch.get(), scratch_bytes, kin, kout, vin, vout, d.n, s.stream);
    cuda_check(cudaEventRecord(s.stop, s.stream), "cudaEventRecord(stop)");
    cuda_check(cudaEventSynchronize(s.stop), "the sort (cudaEventSynchronize)");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, s.start, s.stop), "cudaEventElapsedTime");
    if (r >= warmup) times.push_back(ms);
  }
  // Fetch what the last run produced.
  const bool in_place = sorter.in_place(d.pairs);
  out_keys.resize(d.n);
  cuda_check(cudaMemcpyAsync(out_keys.data(), in_place ? kin : kout, d.n * sizeof(K),
                             cudaMemcpyDeviceToHost, s.stream),
             "cudaMemcpyAsync(sorted keys to host)");
  if (d.pairs) {
    out_vals.resize(d.n);
    cuda_check(cudaMemcpyAsync(out_vals.data(), in_place ? vin : vout, d.n * sizeof(V),
                               cudaMemcpyDeviceToHost, s.stream),
               "cudaMemcpyAsync(sorted values to host)");
  }
  cuda_check(cudaStreamSynchronize(s.stream), "cudaStreamSynchronize(download)");
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace gpusort::cli::bench
