#!/usr/bin/env python3
"""Plot a `gpusort bench` CSV: throughput (Gkeys/s) against n, log-log.

One panel per (key, value, distribution) in the CSV, one line per
algorithm, one legend for all panels below them; points whose output failed
verification are marked with a red cross. The title names the device,
commit and copy bandwidth from the CSV's '#' comment lines. The headline
figure (one bar per task: the speed-up over the best peer) is
bench/headline.py's.

usage: plot.py CSV [-o PNG]      (default PNG: the CSV's name with .png)
"""

import argparse
import csv
import math
import os
import re
import sys

# Lines in a stable order: peers first (dashed), then gpusort's algorithms.
PEERS = ["cub_radix", "cub_merge", "cub_segmented", "thrust", "std_sort", "cpu_parallel"]
# python -m gpusort.bench's rows: one bar panel of their own, grouped by case
# (key, distribution, n) whatever a call returns besides the keys.
PYTHON = ["py_sort", "py_argsort", "torch_sort", "torch_argsort", "cupy_sort", "cupy_argsort", "numpy_sort"]


def read_bench_csv(path):
    """Returns (meta, rows): the '# key: value' comments above the header row
    and the data rows ('#' lines among the rows, such as '# peer ...', are
    skipped)."""
    meta, lines = {}, []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("#"):
                key, sep, value = line[1:].partition(":")
                if sep and not lines:
                    meta[key.strip()] = value.strip()
            elif line.strip():
                lines.append(line)
    rows = []
    for r in csv.DictReader(lines):
        try:
            rows.append({
                "algorithm": r["algorithm"],
                "key": r["key"],
                "value": r["value"],
                "n": int(r["n"]),
                "dist": r["distribution"],
                "ms": float(r["median_ms"]),
                "gkeys": float(r["gkeys_per_s"]),
                "verified": r["verified"].strip() == "1",
            })
        except (KeyError, ValueError) as e:
            sys.exit(f"plot.py: {path}: malformed row {r}: {e}")
    return meta, rows


def panel_title(key, value, dist):
    pairs = "keys only" if value == "-" else f"{value} values"
    return f"{key} keys, {pairs}, {dist}"


def algorithm_order(names):
    ours = sorted(n for n in names if n not in PEERS)
    return [p for p in PEERS if p in names] + ours


def plot(meta, rows, out_path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # The default suite's combination (u32 keys only, uniform) first. A
    # combination measured at a single n is drawn as bars in one panel per n
    # (Gkeys/s by algorithm and combination) instead of a one-point line.
    # Segmented sorts (distributions segN, every segment of N keys): one
    # panel per (key, value, n), Gkeys/s against the segment size.
    py_rows = [r for r in rows if r["algorithm"] in PYTHON]
    rows = [r for r in rows if r["algorithm"] not in PYTHON]
    seg_re = re.compile(r"^seg(\d+)$")
    seg_rows = [r for r in rows if seg_re.match(r["dist"])]
    seg_panels = sorted({(r["key"], r["value"], r["n"]) for r in seg_rows},
                        key=lambda c: (c[0] != "u32" or c[1] != "-", c))
    seg_panels = [c for c in seg_panels
                  if len({r["dist"] for r in seg_rows if (r["key"], r["value"], r["n"]) == c}) > 1]
    seg_keys = set(seg_panels)
    all_rows = rows
    rows = [r for r in rows if not (seg_re.match(r["dist"]) and (r["key"], r["value"], r["n"]) in seg_keys)]
    all_combos = sorted({(r["key"], r["value"], r["dist"]) for r in rows},
                        key=lambda c: (c != ("u32", "-", "uniform"), c))
    if not all_combos and not seg_panels:
        sys.exit("plot.py: the CSV has no results to plot")
    sizes = {c: {r["n"] for r in rows if (r["key"], r["value"], r["dist"]) == c} for c in all_combos}
    combos = [c for c in all_combos if len(sizes[c]) > 1]
    single = [c for c in all_combos if len(sizes[c]) == 1]
    bar_ns = sorted({next(iter(sizes[c])) for c in single})
    py_panels = 1 if py_rows else 0
    panels = len(combos) + len(bar_ns) + len(seg_panels) + py_panels
    cols = min(panels, 2)
    nrows = math.ceil(panels / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(7 * cols, 4.8 * nrows), squeeze=False)

    algos = algorithm_order({r["algorithm"] for r in all_rows})
    markers = "osD^vP*Xh<>p"
    # One colour per name across every panel (the legend is shared).
    palette = list(plt.cm.tab20.colors) + list(plt.cm.tab20b.colors)
    names = algos + [a for a in PYTHON if any(r["algorithm"] == a for r in py_rows)]
    colors = {a: palette[i % len(palette)] for i, a in enumerate(names)}
    style = {a: markers[i % len(markers)] for i, a in enumerate(algos)}
    for ax, n in zip(list(axes.flat)[len(combos):], bar_ns):
        groups = [c for c in single if next(iter(sizes[c])) == n]
        present = [a for a in algos if any(r["algorithm"] == a and r["n"] == n and
                                           (r["key"], r["value"], r["dist"]) in groups for r in rows)]
        width = 0.8 / max(1, len(present))
        for j, algo in enumerate(present):
            xs, ys = [], []
            for i, c in enumerate(groups):
                hit = [r["gkeys"] for r in rows if r["algorithm"] == algo and r["n"] == n and
                       (r["key"], r["value"], r["dist"]) == c]
                if hit:
                    xs.append(i + j * width)
                    ys.append(hit[0])
            ax.bar(xs, ys, width, label=algo, color=colors[algo])
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(groups))])
        ax.set_xticklabels([panel_title(*c).replace(", ", "\n") for c in groups], fontsize=7)
        ax.set_ylabel("Gkeys/s")
        ax.set_yscale("log")
        ax.set_title(f"n = {n:,}")
        ax.grid(True, axis="y", which="both", alpha=0.3)
    for ax, (key, value, dist) in zip(axes.flat, combos):
        sel = [r for r in rows if (r["key"], r["value"], r["dist"]) == (key, value, dist)]
        for algo in algos:
            pts = sorted((r["n"], r["gkeys"], r["verified"]) for r in sel if r["algorithm"] == algo)
            if not pts:
                continue
            ns = [p[0] for p in pts]
            gk = [p[1] for p in pts]
            ax.plot(ns, gk, marker=style[algo], markersize=4, label=algo, color=colors[algo],
                    linestyle="--" if algo in PEERS else "-")
            bad = [(n, g) for n, g, ok in pts if not ok]
            if bad:
                ax.scatter([b[0] for b in bad], [b[1] for b in bad], marker="x", s=80,
                           color="red", zorder=5,
                           label=f"{algo}: verification FAILED")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("n (keys)")
        ax.set_ylabel("Gkeys/s")
        ax.set_title(panel_title(key, value, dist))
        ax.grid(True, which="both", alpha=0.3)
    for ax, (key, value, n) in zip(list(axes.flat)[len(combos) + len(bar_ns):], seg_panels):
        sel = [r for r in seg_rows if (r["key"], r["value"], r["n"]) == (key, value, n)]
        for algo in algorithm_order({r["algorithm"] for r in sel}):
            pts = sorted((int(seg_re.match(r["dist"]).group(1)), r["gkeys"]) for r in sel
                         if r["algorithm"] == algo)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=style.get(algo, "o"), markersize=4,
                    label=algo, color=colors.get(algo), linestyle="--" if algo in PEERS else "-")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("segment size (keys)")
        ax.set_ylabel("Gkeys/s")
        ax.set_title(f"segmented: {panel_title(key, value, 'all segments equal')}, n = {n:,}")
        ax.grid(True, which="both", alpha=0.3)
    if py_rows:
        ax = list(axes.flat)[panels - 1]
        cases = []
        for r in py_rows:
            case = (r["key"], r["dist"], r["n"])
            if case not in cases:
                cases.append(case)
        present = [a for a in PYTHON if any(r["algorithm"] == a for r in py_rows)]
        width = 0.8 / max(1, len(present))
        for j, algo in enumerate(present):
            xs, ys = [], []
            for i, case in enumerate(cases):
                hit = [r["gkeys"] for r in py_rows if r["algorithm"] == algo and (r["key"], r["dist"], r["n"]) == case]
                if hit:
                    xs.append(i + j * width)
                    ys.append(hit[0])
            ax.bar(xs, ys, width, label=algo, color=colors[algo])
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(cases))])
        ax.set_xticklabels([f"{k}\n{d}\nn=2^{n.bit_length() - 1}" if n & (n - 1) == 0 else f"{k}\n{d}\nn={n:.0e}"
                            for k, d, n in cases], fontsize=7)
        ax.set_ylabel("Gkeys/s")
        ax.set_yscale("log")
        ax.set_title("Python, one process (python -m gpusort.bench)")
        ax.grid(True, axis="y", which="both", alpha=0.3)
    for ax in list(axes.flat)[panels:]:
        ax.set_visible(False)

    title = f"gpusort bench: {meta.get('device', '?')}, commit {meta.get('commit', '?').split()[0]}"
    bw = meta.get("copy_bandwidth_gbps")
    if bw and float(bw) > 0:
        title += f", copy {float(bw):.0f} GB/s"
    if meta.get("date"):
        title += f" ({meta['date']})"
    fig.suptitle(title, fontsize=12 if cols > 1 else 9)
    # One legend for every panel, below them, so that no panel's data hides
    # behind it (the same name has the same colour and marker everywhere).
    handles = {}
    for ax in list(axes.flat)[:panels]:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    # two columns of names a panel's width (one panel: two, not six, so
    # that the names stay inside the figure)
    ncol = max(1, min(3 * cols if cols > 1 else 2, len(handles)))
    legend_rows = math.ceil(len(handles) / ncol)
    bottom = (0.3 + 0.22 * legend_rows) / fig.get_figheight()
    if handles:
        fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=ncol,
                   fontsize=9, frameon=False)
    # Leave room at the top for the title and at the bottom for the legend.
    fig.tight_layout(rect=(0, bottom, 1, 1 - 0.35 / fig.get_figheight()))
    fig.savefig(out_path, dpi=120)
    print(f"wrote {out_path}")


def main():
    ap = argparse.ArgumentParser(description="Plot a gpusort bench CSV (Gkeys/s against n).")
    ap.add_argument("csv", help="CSV written by 'gpusort bench'")
    ap.add_argument("-o", "--out", help="PNG to write (default: CSV name with .png)")
    args = ap.parse_args()
    if not os.path.isfile(args.csv):
        sys.exit(f"plot.py: cannot read {args.csv}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sys.exit("plot.py: matplotlib is missing (pip install matplotlib)")
    meta, rows = read_bench_csv(args.csv)
    plot(meta, rows, args.out or os.path.splitext(args.csv)[0] + ".png")


if __name__ == "__main__":
    main()
