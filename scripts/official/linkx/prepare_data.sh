#!/bin/sh
# Copies our Planetoid files into the layout PyG's Planetoid reads offline
# (<root>/<Name>/raw/ind.<name>.*), with <root> the official code's
# DATAPATH/Planetoid (load_data.py: DATAPATH = <official dir>/data/).
# Usage: prepare_data.sh <official dir> [datasets mirror]
set -eu
OFF=${1:?official code directory}
MIRROR=${2:-${LWGCN_MIRROR:-/work/shared/datasets}}
for pair in Cora:cora CiteSeer:citeseer PubMed:pubmed; do
	name=${pair%%:*}
	low=${pair#*:}
	mkdir -p "$OFF/data/Planetoid/$name/raw"
	for ext in x y tx ty allx ally graph test.index; do
		cp "$MIRROR/planetoid/data/ind.$low.$ext" "$OFF/data/Planetoid/$name/raw/"
	done
done
mkdir -p "$OFF/results"
echo "Planetoid raw files under $OFF/data/Planetoid"
