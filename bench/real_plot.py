#!/usr/bin/env python3
"""The real-data figure: gpusort's automatic sort against CUB's radix sort
(the `cub_radix` rows: the newest CUB, its faster offset width), as a grid
of speed-ups, one row per (key, values) and one column per distribution,
from a `scripts/bench.sh real` CSV (or any bench CSV with both, the struct
and 128-bit keys included). Green where gpusort is faster. From a
`python -m gpusort.bench --real` CSV, the same grid for the Python calls:
gpusort.sort against cupy.sort and gpusort.argsort against torch.argsort
(cupy.argsort for the unsigned keys torch lacks), one row each per key.
From a CSV of `segmented` and `cub_segmented` rows (scripts/bench.sh
segmented), the segmented sort against CUB's, one column per segment size
(and key distribution, for names such as seg64:normal).
Usage: bench/real_plot.py CSV [PNG]   (PNG default: CSV with -speedup.png)
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402

DISTS = ["uniform", "small_signed", "ids", "timestamps", "normal", "unit", "grid",
         "sorted", "nearly_sorted", "reverse", "zipf", "few_unique", "equal"]
KEYS = ["u32", "i32", "f32", "u64", "i64", "f64", "u32f32", "i64f64", "u128", "i128"]


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    path = argv[1]
    out = argv[2] if len(argv) > 2 else path.rsplit(".", 1)[0] + "-speedup.png"
    meta, ms = {}, defaultdict(dict)
    with open(path) as f:
        lines = []
        for line in f:
            if line.startswith("# ") and ":" in line and not line.startswith("# peer"):
                k, v = line[2:].split(":", 1)
                meta.setdefault(k.strip(), v.strip())
            elif not line.startswith("#"):
                lines.append(line)
    rows_in = list(csv.DictReader(lines))
    segmented = any(r["algorithm"] == "segmented" for r in rows_in)
    if segmented:  # the segment sizes, in the order measured
        seen = []
        for r in rows_in:
            if r["distribution"].startswith("seg") and r["distribution"] not in seen:
                seen.append(r["distribution"])
        dist_order = seen
    else:
        dist_order = DISTS
    for r in rows_in:
        if r["distribution"] in dist_order and r["verified"] == "1":
            ms[(r["key"], r["value"], r["n"], r["distribution"])][r["algorithm"]] = float(r["median_ms"])
    sizes = sorted({k[2] for k in ms}, key=int)
    n = sizes[0]  # one figure for the smallest size measured
    python = any(a.startswith("py_") for m in ms.values() for a in m)
    if python:
        # (label, key, value of gpusort's row, gpusort's algorithm, the peers in order of preference)
        rows = [(f"sort {k} / cupy.sort", k, "-", "py_sort", ("cupy_sort",)) for k in KEYS] + \
               [(f"argsort {k} / {'torch' if k[0] != 'u' else 'cupy'}.argsort", k, "i32", "py_argsort",
                 ("torch_argsort", "cupy_argsort")) for k in KEYS]
        # the peers' rows carry their own index type: look them up by key and distribution
        by = defaultdict(dict)
        for (k, v, size, d), m in ms.items():
            if size == n:
                by[(k, d)].update(m)
        def ratio(row, d):
            m = by.get((row[1], d), {})
            peer = next((p for p in row[4] if p in m), None)
            return m[peer] / m[row[3]] if peer and row[3] in m else float("nan")
        rows = [r for r in rows if any(ratio(r, d) == ratio(r, d) for d in DISTS)]
        dists = [d for d in DISTS if any(ratio(r, d) == ratio(r, d) for r in rows)]
        grid = [[ratio(r, d) for d in dists] for r in rows]
        labels = [r[0] for r in rows]
        device = meta.get("python", "?").split("device ")[-1].split(",")[0]
        title = "gpusort's Python calls against CuPy's and PyTorch's, n = 2^%d, %s" % (int(n).bit_length() - 1, device)
        bar = "speed-up over the framework (x)"
    else:
        ours, peer = ("segmented", "cub_segmented") if segmented else ("auto", "cub_radix")
        values = ("-", "u32", "u64") if segmented else ("-", "u32")
        rows = [(k, v) for k in KEYS for v in values if any((k, v, n, d) in ms for d in dist_order)]
        dists = [d for d in dist_order if any((k, v, n, d) in ms for k, v in rows)]
        grid = [[float("nan")] * len(dists) for _ in rows]
        for i, (k, v) in enumerate(rows):
            for j, d in enumerate(dists):
                m = ms.get((k, v, n, d), {})
                if ours in m and peer in m:
                    grid[i][j] = m[peer] / m[ours]
        keep = [i for i, g in enumerate(grid) if any(x == x for x in g)]  # rows with a peer
        rows, grid = [rows[i] for i in keep], [grid[i] for i in keep]
        if segmented:
            labels = ["%s keys" % k if v == "-" else "%s + %s values" % (k, v) for k, v in rows]
            # seg64, segpow256, seg64:normal (segments over keys of that distribution)
            dists_shown = [d.replace("segpow", "power-law, mean ").replace("seg", "").replace(":", ", ")
                           .replace("_", " ") for d in dists]
            title = "gpusort's segmented sort against CUB's (stable), n = 2^%d, %s, CUDA %s" % (
                int(n).bit_length() - 1, meta.get("device", "?"), meta.get("cuda_runtime", "?"))
        else:
            labels = ["%s keys" % k if v == "-" else "%s + %s index" % (k, v) for k, v in rows]
            title = "gpusort (automatic) against CUB's radix sort, n = 2^%d, %s, CUDA %s" % (
                int(n).bit_length() - 1, meta.get("device", "?"), meta.get("cuda_runtime", "?"))
        bar = "speed-up over CUB (x)"
    fig, ax = plt.subplots(figsize=(1.0 * len(dists) + 2.5, 0.5 * len(rows) + 1.8))
    im = ax.imshow(grid, cmap="RdYlGn", norm=TwoSlopeNorm(vcenter=1.0, vmin=0.5, vmax=3.0), aspect="auto")
    for i in range(len(rows)):
        for j in range(len(dists)):
            if grid[i][j] == grid[i][j]:
                ax.text(j, i, "%.2f" % grid[i][j], ha="center", va="center", fontsize=8)
    shown = dists_shown if not python and segmented else [d.replace("_", " ") for d in dists]
    ax.set_xticks(range(len(dists)), shown, rotation=30, ha="right")
    ax.set_yticks(range(len(rows)), labels)
    fig.colorbar(im, ax=ax, label=bar)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
