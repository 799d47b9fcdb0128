#!/usr/bin/env python3
"""docs/performance.md's Python table from a bench CSV's python rows (python -m gpusort.bench).
Usage: bench/py_table.py CSV   (prints Markdown)"""
import sys

CASES = [  # (label, ours (algo, key, value, dist), peer (algo, key, value, dist), peer label)
    ("`gpusort.sort`, f32, 2^28", ("py_sort", "f32", "-", "uniform"), ("cupy_sort", "f32", "-", "uniform"), "`cupy.sort`"),
    ("`gpusort.sort`, f32, 2^28", ("py_sort", "f32", "-", "uniform"), ("torch_sort", "f32", "i64", "uniform"), "`torch.sort`"),
    ("`gpusort.argsort`, f32, 2^28, int64", ("py_argsort", "f32", "i64", "uniform"), ("torch_argsort", "f32", "i64", "uniform"), "`torch.argsort`"),
    ("`gpusort.argsort`, f32, 2^28, int64", ("py_argsort", "f32", "i64", "uniform"), ("cupy_argsort", "f32", "i64", "uniform"), "`cupy.argsort`"),
    ("`gpusort.sort`, i32, 2^28", ("py_sort", "i32", "-", "uniform"), ("cupy_sort", "i32", "-", "uniform"), "`cupy.sort`"),
    ("`gpusort.sort`, i64, 2^28", ("py_sort", "i64", "-", "uniform"), ("torch_sort", "i64", "i64", "uniform"), "`torch.sort`"),
    ("`gpusort.sort`, i64, 2^28", ("py_sort", "i64", "-", "uniform"), ("cupy_sort", "i64", "-", "uniform"), "`cupy.sort`"),
    ("rows of 16 f32 (2^26 keys), `axis=-1`", ("py_sort", "f32", "-", "rows16"), ("torch_sort", "f32", "i64", "rows16"), "`torch.sort(dim=-1)`"),
    ("rows of 256 f32 (2^26 keys), `axis=-1`", ("py_sort", "f32", "-", "rows256"), ("torch_sort", "f32", "i64", "rows256"), "`torch.sort(dim=-1)`"),
    ("rows of 4096 f32 (2^26 keys), `axis=-1`", ("py_sort", "f32", "-", "rows4096"), ("torch_sort", "f32", "i64", "rows4096"), "`torch.sort(dim=-1)`"),
    ("rows of 65536 f32 (2^26 keys), `axis=-1`", ("py_sort", "f32", "-", "rows65536"), ("torch_sort", "f32", "i64", "rows65536"), "`torch.sort(dim=-1)`"),
    ("NumPy u64, 1e8, host path", ("py_sort", "u64", "-", "uniform"), ("numpy_sort", "u64", "-", "uniform"), "`numpy.sort`"),
]


def main(path):
    rows, notes, device = {}, [], "GPU"
    for line in open(path):
        line = line.strip()
        if line.startswith("# device:") and device == "GPU":
            device = line.split(":", 1)[1].strip()
        if line.startswith("# python overhead:"):
            notes.append(line[len("# python overhead:"):].strip())
        if not line or line.startswith("#") or line.startswith("algorithm,"):
            continue
        a, k, v, n, d, ms, g, ok = line.split(",")
        rows[(a, k, v, d)] = (float(ms), float(g), ok == "1")
    out = [f"| case ({device}, same process) | gpusort | peer | ratio |", "|---|---|---|---|"]
    for label, ours, peer, peer_label in CASES:
        if ours not in rows or peer not in rows:
            continue
        (oms, og, ook), (pms, pg, pok) = rows[ours], rows[peer]
        host = ours[1] == "u64" and peer[0] == "numpy_sort"
        fmt = (lambda ms, g: f"{ms:.1f} ms") if host else (lambda ms, g: f"{g:.1f} Gkeys/s")
        verified = "" if ook and pok else " (NOT verified)"
        out.append(f"| {label} | {fmt(oms, og)} | {peer_label} {fmt(pms, pg)} | {pms / oms:.2f}×{verified} |")
    for note in notes:
        out.append("")
        out.append(f"Python overhead ({note}).")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
