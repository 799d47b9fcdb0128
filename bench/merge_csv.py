#!/usr/bin/env python3
"""Joins bench CSVs from several `gpusort bench` runs of one session into one.

The first file's `#` lines (device, CUDA versions, commit, copy rate) head
the result; every file's data rows follow, each file's header row dropped
after the first. Usage: bench/merge_csv.py OUT.csv IN.csv [IN.csv ...]
"""
import sys


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    out_path, inputs = argv[1], argv[2:]
    comments, header, rows = [], None, []
    for i, path in enumerate(inputs):
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if not line:
                    continue
                if line.startswith("#"):
                    if i == 0:
                        comments.append(line)
                elif header is None:
                    header = line
                elif line == header:
                    continue
                else:
                    rows.append(line)
    with open(out_path, "w") as f:
        for line in comments + [header] + rows:
            f.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
