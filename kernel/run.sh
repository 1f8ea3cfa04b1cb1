#!/usr/bin/env bash
# Runs notebooks headlessly with the lwgcn GoNB kernel; arguments go to
# kernel/run_notebooks.py (see --help). Examples:
#   kernel/run.sh                          # all notebooks/*.ipynb -> report/
#   kernel/run.sh --quick notebooks/01_intro.ipynb
#   kernel/run.sh --timeout 600 --out /tmp/report notebooks/
set -euo pipefail

export GOTOOLCHAIN=go1.27.4
export GOEXPERIMENT=simd
export GOMLX_BACKEND=${GOMLX_BACKEND:-go}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ -x /usr/bin/python3 ] || { echo "kernel/run.sh: /usr/bin/python3 not found (apt-get install the packages in kernel/apt-packages.txt)" >&2; exit 2; }
echo "kernel/run.sh: /usr/bin/python3 kernel/run_notebooks.py $*"
exec /usr/bin/python3 "$here/run_notebooks.py" "$@"
