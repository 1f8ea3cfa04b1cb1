#!/usr/bin/env bash
# Starts the project's pinned JupyterLab (build/venv, see kernel/requirements.txt)
# on localhost with the gonb-lwgcn kernel and the repository's notebooks
# (make lab). Offline: no news feed, no update check, no extension manager
# (nothing is fetched from PyPI or the web); JupyterLab's own settings,
# workspaces and config live in build/lab, not in ~/.jupyter. Notebooks are
# saved without their outputs, and not at all when nothing else changed
# (kernel/lab_contents.py): the tracked notebooks stay clean.
#
#   kernel/lab.sh                      # http://127.0.0.1:8888/lab/tree/notebooks/
#   LWGCN_QUICK=1 kernel/lab.sh        # quick mode (make lab QUICK=1): fewer epochs, splits, points
#   LAB_PORT=9999 kernel/lab.sh        # another port
#   kernel/lab.sh --no-browser ...     # more JupyterLab options
set -euo pipefail

export GOTOOLCHAIN=go1.27.4
export GOEXPERIMENT=simd
export GOMLX_BACKEND=${GOMLX_BACKEND:-go}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
venv=${LWGCN_VENV:-$repo/build/venv}
lab_dir=${LWGCN_LAB_DIR:-$repo/build/lab}
[ -x "$venv/bin/jupyter-lab" ] || { echo "kernel/lab.sh: $venv/bin/jupyter-lab missing (run make venv)" >&2; exit 2; }
mkdir -p "$lab_dir/config/labconfig" "$lab_dir/settings" "$lab_dir/workspaces"
# The announcements plugin asks whether to fetch Jupyter's news feed: off.
echo '{"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": true}}' \
  > "$lab_dir/config/labconfig/page_config.json"

export JUPYTER_CONFIG_DIR="$lab_dir/config"
export JUPYTERLAB_SETTINGS_DIR="${JUPYTERLAB_SETTINGS_DIR:-$lab_dir/settings}"
export JUPYTERLAB_WORKSPACES_DIR="$lab_dir/workspaces"
# Kernels: this clone's (kernel/install.sh writes them to build/jupyter)
# first, or $JUPYTER_DATA_DIR's when that is set (make lab-test).
if [ -z "${JUPYTER_DATA_DIR:-}" ]; then
  export JUPYTER_PATH="$repo/build/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
fi

# Quick mode reaches the kernels through the server's environment; without it
# notebooks run in full mode even if the variable is set to something else.
case "${LWGCN_QUICK:-}" in
  1|true|yes|on) export LWGCN_QUICK=1
    echo "kernel/lab.sh: quick mode (LWGCN_QUICK=1): notebooks shrink epochs, splits and sweeps" ;;
  *) unset LWGCN_QUICK
    echo "kernel/lab.sh: full mode (each notebook's first cell says how long it takes; make lab QUICK=1 for quick mode)" ;;
esac
# The contents manager that saves notebooks without outputs is kernel/lab_contents.py.
export PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1

extra=()
# Containers and CI often run as root, which JupyterLab refuses without this.
[ "$(id -u)" = 0 ] && extra+=(--allow-root)

exec "$venv/bin/jupyter-lab" "${extra[@]}" \
  --ServerApp.ip=127.0.0.1 \
  --ServerApp.port="${LAB_PORT:-8888}" \
  --ServerApp.root_dir="$repo" \
  --LabApp.default_url=/lab/tree/notebooks \
  --LabApp.news_url=None \
  --LabApp.check_for_updates_class=jupyterlab.handlers.announcements.NeverCheckForUpdate \
  --LabApp.extension_manager=readonly \
  --MappingKernelManager.default_kernel_name=gonb-lwgcn \
  --ServerApp.contents_manager_class=lab_contents.CleanNotebookManager \
  "$@"
