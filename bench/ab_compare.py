#!/usr/bin/env python3
"""Prints the before/after comparison of `scripts/bench.sh ab`'s runs.

Reads DIR/rows.txt and DIR/r<i>_<binary>_<k>.csv (gpusort bench CSVs); for
every row and every (algorithm, key, value, n, distribution) case in it, the
median over the runs of each binary's median_ms, the after/before time ratio,
and the spread of each binary's runs (max / min), so that a change smaller
than the spread reads as noise. Unverified outputs are flagged.
Usage: bench/ab_compare.py DIR
"""
import csv
import glob
import os
import re
import statistics
import sys


def read_runs(directory):
    """{(row, case): {binary: [ms, ...]}} and the unverified cases."""
    runs, unverified = {}, set()
    for path in sorted(glob.glob(os.path.join(directory, "r*_*.csv"))):
        m = re.match(r"r(\d+)_(gpusort(?:_before)?)_(\d+)\.csv$", os.path.basename(path))
        if not m:
            continue
        row, binary = int(m.group(1)), m.group(2)
        with open(path) as f:
            lines = [line for line in f if line.strip() and not line.startswith("#")]
        for rec in csv.DictReader(lines):
            case = (rec["algorithm"], rec["key"], rec["value"], rec["n"], rec["distribution"])
            runs.setdefault((row, case), {}).setdefault(binary, []).append(float(rec["median_ms"]))
            if rec.get("verified") != "1":
                unverified.add((row, case))
    return runs, unverified


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    directory = argv[1]
    names = {}
    rows_txt = os.path.join(directory, "rows.txt")
    if os.path.exists(rows_txt):
        with open(rows_txt) as f:
            for line in f:
                m = re.match(r"row (\d+): (.*)", line.rstrip("\n"))
                if m:
                    names[int(m.group(1))] = m.group(2)
    runs, unverified = read_runs(directory)
    print("| row | case | before ms | after ms | after / before | spread before / after | runs |")
    print("|---|---|---|---|---|---|---|")
    for (row, case), by in sorted(runs.items()):
        before, after = by.get("gpusort_before", []), by.get("gpusort", [])
        if not before or not after:
            continue
        b, a = statistics.median(before), statistics.median(after)
        spread = "%.1f%% / %.1f%%" % ((max(before) / min(before) - 1) * 100, (max(after) / min(after) - 1) * 100)
        flag = " (UNVERIFIED)" if (row, case) in unverified else ""
        print("| %d | %s%s | %.3f | %.3f | %.3f | %s | %d + %d |" %
              (row, " ".join(case), flag, b, a, a / b, spread, len(before), len(after)))
    for row, text in sorted(names.items()):
        print("row %d: %s" % (row, text))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
