#!/usr/bin/env bash
# Issue 13 part B on the GPU machine's CPU cores, in one call: the host CPU
# suites (every key type, pairs, value widths) on all its threads, then the
# CPU backend (cpu_parallel) against libstdc++'s parallel mode (gnu_parallel)
# and IPS4o's own sort (ips4o) at 1e8 keys: u32, f32, u64 keys, u32 + u32
# pairs. CSVs and logs to $OUT (cpu.csv, joined by bench/merge_csv.py).
set -u
out=/tmp/o; mkdir -p /tmp/bin $out
for f in gpusort gpusort_tests; do xz -dc .carry/$f.xz > /tmp/bin/$f; chmod +x /tmp/bin/$f; done
nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|NUMA node\(s\)" | head -5
timeout 150 /tmp/bin/gpusort_tests --gtest_filter='HostCpuSort*' > $out/t_cpu.log 2>&1; echo "cpu tests rc=$?"; tail -2 $out/t_cpu.log
cpu=cpu_parallel,gnu_parallel,ips4o
i=0
for args in "--key u32" "--key f32" "--key u64" "--key u32 --pairs"; do
  i=$((i+1))
  timeout 200 /tmp/bin/gpusort bench --algo $cpu $args --n 100000000 --csv $out/c$i.csv > $out/c$i.log 2>&1; echo "bench $args rc=$?"
  grep -E "^ +(cpu|gnu|ips)" $out/c$i.log | awk '{print $1, $2, $3, $6, $7}'
done
python3 bench/merge_csv.py $out/cpu.csv $out/c1.csv $out/c2.csv $out/c3.csv $out/c4.csv
cp $out/*.log $out/cpu.csv $OUT/ 2>/dev/null
