#!/usr/bin/env bash
# xla/gpu-bundle.sh: build, on the CPU machine, what xla/gpu-check.sh runs on a
# lent GPU machine (which has no Go toolchain and no network): into build/gpu/
#   lwgcn.gz        the CLI (stripped, gzipped: the device tool carries at
#                   most 64 MiB; xla/gpu-check.sh unpacks it)
#   parity.test.gz  lwgcn/parity's tests as a binary (the XLA-vs-Go parity
#                   suite, the sparse forms and the compile-count test)
#   datasets/    the four datasets' files (texas, chameleon, squirrel, cora)
#                in the mirror's layout, with MANIFEST.tsv
#   pyg_bench.py    the PyTorch Geometric anchor (../shared/anchors/pyg, beside
#                   the mirror), which xla/pyg_gpu.py runs on the GPU (step 5)
# Carry build/gpu to the GPU machine (about 30 MB), then run
# xla/gpu-check.sh there (see xla/README.md, "GPU").
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=${GOTOOLCHAIN:-go1.27.4} GOEXPERIMENT=simd
mirror=${LWGCN_MIRROR:?set LWGCN_MIRROR to the datasets mirror (e.g. /work/shared/datasets)}
out=build/gpu
rm -rf "$out.tmp"
mkdir -p "$out.tmp/datasets"
# The commit stamped at link time, as the Makefile's build does: on the GPU
# machine the binary runs in a copy of the tree whose git (if any) is not
# this one's, so it could not tell its commit otherwise.
bi=github.com/lwgcn/toolkit/lwgcn/buildinfo
dirty=false
[ -z "$(git status --porcelain --untracked-files=no)" ] || dirty=true
go build -buildvcs=false -ldflags="-s -w -X $bi.commitStamp=$(git rev-parse HEAD) -X $bi.dirtyStamp=$dirty" \
	-o "$out.tmp/lwgcn" ./cmd/lwgcn
go test -c -ldflags='-s -w' -o "$out.tmp/parity.test" ./lwgcn/parity
gzip -9 "$out.tmp/lwgcn" "$out.tmp/parity.test"
cp "$mirror/MANIFEST.tsv" "$out.tmp/datasets/"
# Every file the manifest lists for the four datasets.
awk -F'\t' '$1=="texas"||$1=="chameleon"||$1=="squirrel"||$1=="cora"{print $2}' "$mirror/MANIFEST.tsv" |
	while read -r f; do
		mkdir -p "$out.tmp/datasets/$(dirname "$f")"
		cp "$mirror/$f" "$out.tmp/datasets/$f"
	done
anchor=$(dirname "$mirror")/anchors/pyg/pyg_bench.py
if [ -f "$anchor" ]; then cp "$anchor" "$out.tmp/"; else echo "gpu-bundle: no $anchor: step 5 will not run" >&2; fi
rm -rf "$out"
mv "$out.tmp" "$out"
du -sh "$out"
