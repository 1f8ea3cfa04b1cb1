#!/usr/bin/env bash
# xla/gpu-check.sh PLUGIN: issue 33's checks on a lent GPU machine, in one
# short run, with what xla/gpu-bundle.sh built and carried in build/gpu/.
# PLUGIN is the CUDA PJRT plugin (xla_cuda_plugin.so; see xla/README.md).
# Each step has its own time limit, so that one slow XLA CUDA compile does
# not take the others' time; logs go to build/gpu/logs/ (and, tarred, to
# RESULTS_DIR/gpu-logs.tgz when RESULTS_DIR is set), results to
# results/bench-gpu.json (merged row by row) and results/table2-gpu.json.
#
#   1. parity (lwgcn/parity on the GPU against pure Go): the sparse
#      products in every form, the compile-count test, every model's output
#      and gradients; then the dense/segment benchmark (BenchmarkSparseForms)
#      that sets sparse.XLADenseMaxNodes for the GPU;
#   2. the full LW-GCN epoch of the four datasets on the GPU (XLA CUDA) and
#      on the host (pure Go, two CPUs), with compile time, graphs compiled
#      and op count apart from ms/epoch;
#   3. Table 2's LW-GCN row (10 splits of each dataset) on the GPU, with its
#      time-to-table, the 10 splits trained together (BATCH, default 10: one
#      executable per dataset; BATCH=1 trains each split alone);
#   2b. Cora's full epoch on the GPU with GCNII's 64 layers unrolled
#      (LWGCN_GCN2_LOOP=off) into bench-gpu-loop-off.json, to set against
#      step 2's Cora row (the loop): the compile the loop saves on the GPU;
#   4. Squirrel's LW-GCN epoch one run alone against ten batched
#      (bench-batched, into bench-batched-gpu.json: the GPU chunk of the
#      segment products, sparse.SegmentGPUChunkBytes, decides both), then one bench epoch
#      with XLA's optimised HLO dumped as text into build/gpu/logs/hlo.tgz
#      (which ops the GPU runs, fused how; HLO=0 skips the dump);
#   5. (not in the default STEPS) GCN, GAT and GCNII epochs against PyTorch
#      Geometric on the same GPU: the anchor's cases by xla/pyg_gpu.py (the
#      image's torch and PyG, every tensor on CUDA) into pyg-gpu.jsonl, and
#      lwgcn's `bench-batched -model M -runs 1` on XLA CUDA into
#      bench-batched-gpu-M.json, all three as lwgcn-gpu.jsonl.
#
# lwgcn turns XLA's GPU autotuning off itself (backend.GPUAutotuneLevel);
# XLA_FLAGS=--xla_gpu_autotune_level=4 measures it on.
#
# Environment: STEPS (default "1 1b 2 3 2b 4"), LIMIT1/LIMIT1B/LIMIT2/LIMIT3/
# LIMIT2B/LIMIT4/LIMIT5 (seconds per step, default 150/90/240/300/150/150/300),
# DATASETS (steps 2 and 3, default texas,chameleon,squirrel,cora),
# RESULTS_DIR (default results).
set -uo pipefail
cd "$(dirname "$0")/.."
plugin=${1:?usage: xla/gpu-check.sh /abs/path/xla_cuda_plugin.so}
[ -f "$plugin" ] || { echo "gpu-check: plugin $plugin: no such file" >&2; exit 1; }
bin=build/gpu
for f in lwgcn parity.test; do # gzipped by xla/gpu-bundle.sh
	if [ -f "$bin/$f.gz" ] && [ ! -x "$bin/$f" ]; then
		gunzip -c "$bin/$f.gz" >"$bin/$f.tmp" && chmod +x "$bin/$f.tmp" && mv "$bin/$f.tmp" "$bin/$f"
	fi
done
for f in "$bin/lwgcn" "$bin/parity.test" "$bin/datasets/MANIFEST.tsv"; do
	[ -e "$f" ] || { echo "gpu-check: $f missing: run xla/gpu-bundle.sh on the CPU machine and carry build/gpu" >&2; exit 1; }
done
export LWGCN_MIRROR=$PWD/$bin/datasets GOMLX_NO_AUTO_INSTALL=1
xla="xla:$plugin,tf32=false"
datasets=${DATASETS:-texas,chameleon,squirrel,cora}
out=${RESULTS_DIR:-results}
mkdir -p "$bin/logs" "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$bin/logs/gpu.txt" || true
status=0
step() { # step N LIMIT CMD...: run CMD with a time limit, log it, keep going
	local n=$1 limit=$2
	shift 2
	echo "== step $n (limit ${limit}s): $*"
	local t0=$SECONDS
	timeout "$limit" "$@" >"$bin/logs/step$n.log" 2>&1
	local rc=$?
	echo "== step $n: exit $rc after $((SECONDS - t0))s (log $bin/logs/step$n.log)"
	tail -n 25 "$bin/logs/step$n.log"
	[ $rc -eq 0 ] || status=1
}
for s in ${STEPS:-1 1b 2 3 2b 4}; do
	case $s in
	1) step 1 "${LIMIT1:-150}" env LWGCN_PARITY_XLA="$xla" "$bin/parity.test" -test.count=1 -test.v \
		-test.run 'SparseForm|SegmentGPUChunks|CellCompilesOnce|ModelsForwardAndGradients' ;;
	# The dense/segment crossover on this device (sparse.XLADenseMaxNodes).
	1b) step 1b "${LIMIT1B:-90}" env LWGCN_PARITY_XLA="$xla" "$bin/parity.test" -test.run '^$' -test.bench SparseForms \
		-test.benchtime 20x ;;
	2) step 2 "${LIMIT2:-240}" taskset -c 0,1 env GOMAXPROCS=2 "$bin/lwgcn" bench -backends "$xla,go" \
		-lwgcn "$datasets" -lwgcn-only -benchtime 1s -out "$out/bench-gpu.json" ;;
	2b) step 2b "${LIMIT2B:-150}" taskset -c 0,1 env GOMAXPROCS=2 LWGCN_GCN2_LOOP=off "$bin/lwgcn" bench -backends "$xla" \
		-lwgcn cora -lwgcn-only -benchtime 1s -out "$out/bench-gpu-loop-off.json" ;;
	3) step 3 "${LIMIT3:-300}" env GOMLX_BACKEND="$xla" "$bin/lwgcn" reproduce table2 -methods lwgcn \
		-datasets "$datasets" -batch "${BATCH:-10}" -quiet -results "$out/table2-gpu.json" ;;
	4) step 4 "${LIMIT4:-150}" env GOMLX_BACKEND="$xla" "$bin/lwgcn" bench-batched -datasets squirrel -runs 10 \
		-procs 2 -blocks 1 -benchtime 1s -out "$out/bench-batched-gpu.json"
		[ "${HLO:-1}" = 0 ] && continue
		rm -rf "$bin/logs/hlo"
		step 4-hlo "${LIMIT4:-150}" env XLA_FLAGS="${XLA_FLAGS:-} --xla_dump_to=$bin/logs/hlo --xla_dump_hlo_as_text" \
			taskset -c 0,1 env GOMAXPROCS=2 "$bin/lwgcn" bench -backends "$xla" -lwgcn squirrel -lwgcn-only \
			-benchtime 100ms -out "$bin/logs/bench-hlo.json"
		tar czf "$bin/logs/hlo.tgz" -C "$bin/logs" hlo && rm -rf "$bin/logs/hlo" ;;
	5) step 5-pyg "${LIMIT5:-300}" python3 xla/pyg_gpu.py --anchor "$bin/pyg_bench.py" --data "$bin/datasets" \
			--datasets "$datasets" --out "$out/pyg-gpu.jsonl"
		for m in gcn gat gcnii; do
			step "5-$m" "${LIMIT5:-300}" env GOMLX_BACKEND="$xla" "$bin/lwgcn" bench-batched -model $m -runs 1 \
				-datasets "$datasets" -procs 2 -blocks 1 -benchtime 1s -out "$out/bench-batched-gpu-$m.json"
		done
		# lwgcn's side as the anchor's lines: on the CPU machine,
		# `lwgcn pyg-anchor -pyg pyg-gpu.jsonl -lwgcn lwgcn-gpu.jsonl -out results/bench-pyg-gpu.json`.
		python3 xla/bench_lines.py "$out"/bench-batched-gpu-{gcn,gat,gcnii}.json >"$out/lwgcn-gpu.jsonl" ;;
	*) echo "gpu-check: unknown step $s" >&2; exit 2 ;;
	esac
done
# With RESULTS_DIR set (under the device's $OUT), the logs in one file
# beside the results: a device call brings back at most 8 files.
if [ -n "${RESULTS_DIR:-}" ]; then tar czf "$out/gpu-logs.tgz" -C "$bin" logs; fi
exit $status
