#!/usr/bin/env python3
"""xla/bench_lines.py FILE...: `lwgcn bench-batched` outputs as the PyG
anchor's lwgcn JSON lines (the fields of ../shared/anchors/pyg/go_bench.sh:
the runs-alone column, one line per model, dataset and GOMAXPROCS), for
`lwgcn pyg-anchor -lwgcn`. xla/gpu-check.sh step 5 writes them beside
pyg_gpu.py's lines."""
import json
import sys

for path in sys.argv[1:]:
    with open(path) as f:
        rows = json.load(f)["rows"]
    for r in rows:
        p = r.get("provenance", {})
        print(json.dumps(dict(
            tool="lwgcn", graphs="real", dataset=r["dataset"], model=r["model"], threads=r["gomaxprocs"],
            ms=round(r["alone_ms_per_split_epoch"], 3), cpu_ms_per_epoch=round(r["alone_cpu_ms_per_split_epoch"], 3),
            batched1_ms=round(r["batched_ms_per_split_epoch"], 3), blocks=r["blocks"],
            measure="mean per block, median of blocks", commit=p.get("commit"), backend=p.get("backend"),
            machine=p.get("machine"), vector=p.get("vector"))))
