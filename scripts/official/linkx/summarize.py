"""Summarises run_official.py's JSON lines: per (tag, dataset, setting) the
seeds' test accuracy (mean ± sample std, as logger.py), validation accuracy
and selected epochs. Usage: summarize.py runs.jsonl [more.jsonl ...]"""
import collections
import json
import statistics
import sys

groups = collections.OrderedDict()
for path in sys.argv[1:]:
    for line in open(path):
        r = json.loads(line)
        a = r["args"]
        key = (r["tag"], r["dataset"], a["hidden_channels"], a["lr"], a["num_layers"],
               a["dropout"], a["weight_decay"], a["epochs"])
        groups.setdefault(key, []).append(r)

print("tag dataset hidden lr layers dropout wd epochs | seeds | test mean ± std | val mean | best epochs | tests")
for key, rs in groups.items():
    t = [100 * r["test_acc"] for r in rs]
    v = [100 * r["val_acc"] for r in rs]
    sd = statistics.stdev(t) if len(t) > 1 else float("nan")
    print(" ".join(str(k) for k in key),
          f"| {','.join(str(r['seed']) for r in rs)} | {statistics.mean(t):.1f} ± {sd:.1f}"
          f" | {statistics.mean(v):.1f} | {','.join(str(r['best_epoch']) for r in rs)}"
          f" | {', '.join(f'{x:.1f}' for x in t)}")
