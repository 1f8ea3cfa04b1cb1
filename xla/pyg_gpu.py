#!/usr/bin/env python3
"""PyTorch Geometric's GCN, GAT and GCNII epochs on a GPU (xla/gpu-check.sh step 5).

The same cases as ../shared/anchors/pyg/pyg_bench.py (which xla/gpu-bundle.sh
copies into build/gpu/, since ../shared does not travel to the GPU machine),
run by its own code with every tensor and the model on --device: torch's
from_numpy hands its tensors to the device, and each model is moved there
after it is built. Nothing else of the anchor changes: the epoch, the
settings, the data, the timing (its one host read of the statistics per
epoch waits for the device). A case that cannot run on the device is
recorded with its error, as the anchor does. JSON lines on stdout and
appended to --out, each with "device" set.

  python3 xla/pyg_gpu.py --anchor build/gpu/pyg_bench.py --data build/gpu/datasets --out OUT.jsonl
"""
import argparse
import importlib.util
import json
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--anchor", required=True, help="pyg_bench.py of ../shared/anchors/pyg")
    p.add_argument("--data", required=True, help="datasets directory in the mirror's layout")
    p.add_argument("--device", default="cuda")
    p.add_argument("--datasets", default="texas,chameleon,squirrel,cora")
    p.add_argument("--models", default="gcn,gat,gcnii")
    p.add_argument("--adj", default="edge_index,csr")
    p.add_argument("--x", default="dense,sparse")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--min-time", type=float, default=1.0)
    p.add_argument("--out", default="")
    args = p.parse_args()

    spec = importlib.util.spec_from_file_location("pyg_bench", args.anchor)
    anchor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(anchor)
    import torch

    device = torch.device(args.device)
    torch.set_default_device(device)  # the anchor's torch.ones and friends
    from_numpy = torch.from_numpy
    torch.from_numpy = lambda a: from_numpy(a).to(device)
    build_model = anchor.build_model

    def build_on_device(*a, **k):
        m, groups = build_model(*a, **k)
        return m.to(device), groups  # in place: the groups' parameters are the same objects

    anchor.build_model = build_on_device
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else device.type
    out = open(args.out, "a") if args.out else None
    run = argparse.Namespace(graphs="real", warmup=max(args.warmup, 1), epochs=args.epochs, min_time=args.min_time)
    for ds in args.datasets.split(","):
        g = anchor.load_real(args.data, ds)
        for model in args.models.split(","):
            for adj in args.adj.split(","):
                for x in args.x.split(","):
                    try:
                        rec = anchor.run_case(g, model, adj, x, run, torch.get_num_threads())
                    except Exception as ex:  # report and go on, as the anchor does
                        rec = dict(tool="pyg", graphs="real", dataset=ds, model=model, adj=adj, x=x,
                                   error=f"{type(ex).__name__}: {ex}"[:500])
                    rec["device"] = name
                    line = json.dumps(rec)
                    print(line, flush=True)
                    if out:
                        out.write(line + "\n")
                        out.flush()


if __name__ == "__main__":
    sys.exit(main())
