#!/usr/bin/env python3
"""Joins the CSVs of several `gpusort bench` runs on one machine into one.

The first file's `#` lines above its header row (device, CUDA versions,
commit, copy rate, the CUB offset policy) head the result; every file's
data rows follow, each file's header row dropped after the first. `#` lines
among a file's rows (`# peer ...`: which configuration a CUB peer's row
used) stay with the rows, in order.
Usage: bench/merge_csv.py OUT.csv IN.csv [IN.csv ...]
"""
import sys


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    out_path, inputs = argv[1], argv[2:]
    comments, header, rows = [], None, []
    for i, path in enumerate(inputs):
        in_rows = False  # past this file's header row
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if not line:
                    continue
                if line.startswith("#"):
                    if in_rows:
                        rows.append(line)
                    elif i == 0:
                        comments.append(line)
                    continue
                in_rows = True
                if header is None:
                    header = line
                elif line != header:
                    rows.append(line)
    with open(out_path, "w") as f:
        for line in comments + [header] + rows:
            f.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
