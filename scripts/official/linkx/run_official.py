"""Runs the official LINKX main.py (CUAI/Non-Homophily-Large-Scale) unchanged,
with three additions from outside:

  * shims (shim/) for torch_sparse, torch_scatter, gdown and ogb, which have no
    wheels for torch 2.15 or no use offline; they go on sys.path only after
    torch_geometric is imported, so PyG itself runs without them;
  * seeds: main.py seeds only numpy (np.random.seed(0)) and never torch. Run r
    of --runs R (r = 0..R-1) calls torch.manual_seed(seeds[r]) right before
    main.py's model.reset_parameters(), so seed s is the same run whether it is
    run alone or after others;
  * one JSON line per run: main.py's Logger keeps (train, valid, test) per
    epoch; the selected epoch is logger.py's, the first argmax of validation
    accuracy, and its test accuracy is what main.py reports.

Usage:
  run_official.py --official DIR --seeds 10,11,12 --out runs.jsonl \
      [--grid GRIDSPEC] -- <main.py arguments>

--grid runs main.py once per point of a product grid, in this process, e.g.
  --grid 'hidden_channels=16,32,64,128,256;lr=0.01,0.002;num_layers=1,2,3'
(each point's values appended to the main.py arguments).
"""
import argparse
import itertools
import json
import os
import runpy
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import torch

torch.set_num_threads(1)

# PyG first, so that its optional-extension probes (torch_geometric.typing)
# see no torch_sparse / torch_scatter and it uses its own code paths.
import torch_geometric
import torch_geometric.typing
import torch_geometric.data
import torch_geometric.datasets
import torch_geometric.nn
import torch_geometric.transforms
import torch_geometric.utils

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--official", required=True, help="official code directory")
    ap.add_argument("--seeds", default="10,11,12")
    ap.add_argument("--out", required=True, help="JSON lines, appended")
    ap.add_argument("--grid", default="")
    ap.add_argument("--tag", default="")
    ap.add_argument("main_args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    margs = a.main_args[1:] if a.main_args[:1] == ["--"] else a.main_args
    seeds = [int(s) for s in a.seeds.split(",")]
    official = os.path.abspath(a.official)
    out = os.path.abspath(a.out)

    assert not torch_geometric.typing.WITH_TORCH_SPARSE
    sys.path.insert(0, official)
    sys.path.insert(0, os.path.join(HERE, "shim"))
    import parse  # the official parse.py

    state = {"run": 0}
    orig_parse_method = parse.parse_method

    def seeded_parse_method(*args, **kwargs):
        model = orig_parse_method(*args, **kwargs)
        orig_reset = model.reset_parameters

        def reset_parameters():
            if state["run"] >= 0:
                torch.manual_seed(seeds[state["run"]])
                state["run"] += 1
            orig_reset()

        model.reset_parameters = reset_parameters
        return model

    parse.parse_method = seeded_parse_method

    points = [[]]
    if a.grid:
        axes = []
        for part in a.grid.split(";"):
            k, vs = part.split("=")
            axes.append([("--" + k, v) for v in vs.split(",")])
        points = [list(p) for p in itertools.product(*axes)]

    # main.py writes results/<dataset>.csv relative to the working directory.
    work = os.path.join(os.path.dirname(out), "official-cwd")
    os.makedirs(os.path.join(work, "results"), exist_ok=True)
    os.chdir(work)
    for point in points:
        extra = [x for kv in point for x in kv]
        argv = ["main.py"] + margs + extra + ["--runs", str(len(seeds))]
        sys.argv = argv
        state["run"] = 0
        t0 = time.time()
        g = runpy.run_path(os.path.join(official, "main.py"), run_name="__main__")
        secs = time.time() - t0
        args = vars(g["args"])
        with open(out, "a") as f:
            for r, res in enumerate(g["logger"].results):
                res = np.asarray(res)
                best = int(np.argmax(res[:, 1]))  # first max, as logger.py's torch argmax
                f.write(json.dumps({
                    "tag": a.tag, "dataset": args["dataset"], "seed": seeds[r],
                    "argv": argv[1:], "args": args,
                    "best_epoch": best, "val_acc": float(res[best, 1]),
                    "test_acc": float(res[best, 2]), "train_acc": float(res[best, 0]),
                    "epochs": len(res), "secs_all_runs": secs,
                    "torch": torch.__version__, "pyg": torch_geometric.__version__,
                }) + "\n")
        print(f"done {argv[1:]} in {secs:.1f}s", flush=True)


if __name__ == "__main__":
    main()
