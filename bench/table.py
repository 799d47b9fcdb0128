#!/usr/bin/env python3
"""Prints docs/performance.md's algorithm table (Markdown) from a bench CSV.

For each algorithm: Gkeys/s for u32 keys (uniform) at 2^24 and 2^28 and the
ratio to cub_radix from the same run; rows the CSV lacks print as '-'.
Usage: bench/table.py bench/results/nvidia-h200.csv
"""
import csv
import sys

NOTES = {
    "odd_even": "odd-even transposition (registers, block, global merge-split); O(n^2): capped",
    "bitonic": "bitonic for any n, virtual padding, fused multi-stride passes; not stable",
    "merge_recursive": "host-recursive merge sort, one launch per merge: launch-bound, capped",
    "merge_bottom_up": "bottom-up merge sort, one thread per merge: serial tail, capped",
    "merge_path": "three-stage merge sort with merge path; stable; custom comparators",
    "radix_split": "1-bit split radix sort (scan + scatter), one pass per bit",
    "radix_tile": "block radix sort of tiles + merge-path tile merges",
    "radix_onesweep": "onesweep LSD radix sort (Adinets & Merrill 2022)",
    "radix_msd": "MSD-hybrid radix sort (Stehle & Jacobsen 2017): MSD passes, then one block sorts each small bucket; LSD mode for skewed keys",
    "sample": "sample sort (Sintorn-Assarsson): 511 buckets incl. equality buckets, oversized buckets refined",
    "quick": "GPU quicksort (Cederman-Tsigas), multi-pivot: up to 32-way splits around sampled pivots with equality classes, device work lists; not stable",
    "cub_radix": "peer: cub::DeviceRadixSort",
    "cub_merge": "peer: cub::DeviceMergeSort",
    "thrust": "peer: thrust::sort",
    "std_sort": "peer: std::sort, one CPU thread",
    "cpu_merge_recursive": "recursive CPU merge sort (\"Merge sort on CUDA\"), one thread",
    "cpu_merge_iterative": "bottom-up CPU merge sort (\"Merge sort on CUDA\"), one thread",
    "cpu_parallel": "gpusort's CPU backend: MSD-hybrid radix, LSD radix or IPS4o (all cores)",
    "gnu_parallel": "peer: libstdc++ parallel mode, all cores",
    "ips4o": "peer: IPS4o's own parallel sort, same order",
}
ORDER = list(NOTES)
# Added to the CUB peers' notes when the CSV states the offset policy (a
# '# cub_offsets:' line: both widths timed, the faster reported).
CUB_OFFSETS_NOTE = " (faster of 32- and 64-bit offsets)"


def main():
    lines = open(sys.argv[1]).readlines()
    rows = [r for r in csv.DictReader(l for l in lines if not l.startswith("#"))]
    notes = dict(NOTES)
    if any(l.startswith("# cub_offsets:") for l in lines):
        for a in ("cub_radix", "cub_merge"):
            notes[a] += CUB_OFFSETS_NOTE
    pick = {}
    for r in rows:
        if r["key"] == "u32" and r["value"] == "-" and r["distribution"] == "uniform":
            pick[(r["algorithm"], int(r["n"]))] = float(r["gkeys_per_s"])
    print("| algorithm | what | stable | Gkeys/s 2^24 | vs CUB | Gkeys/s 2^28 | vs CUB |")
    print("|---|---|---|---|---|---|---|")
    stable = {"odd_even", "merge_recursive", "merge_bottom_up", "merge_path", "radix_split", "radix_tile",
              "radix_onesweep", "radix_msd", "sample", "cub_radix", "cub_merge", "cpu_parallel", "gnu_parallel",
              "cpu_merge_recursive", "cpu_merge_iterative"}
    for a in ORDER:
        cells = []
        for n in (1 << 24, 1 << 28):
            g = pick.get((a, n))
            c = pick.get(("cub_radix", n))
            if g is None:
                # the largest n measured, for capped algorithms
                ns = sorted(k[1] for k in pick if k[0] == a)
                last = ns[-1] if ns else 0
                size = f"2^{last.bit_length() - 1}" if last & (last - 1) == 0 else f"{last:.3g}"
                cells += ["-", "-"] if not ns or n == 1 << 28 else [f"{pick[(a, last)]:.3g} (n={size})", "-"]
            else:
                cells += [f"{g:.3g}", f"{g / c:.2f}x" if c else "-"]
        print(f"| `{a}` | {notes[a]} | {'yes' if a in stable else 'no'} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
