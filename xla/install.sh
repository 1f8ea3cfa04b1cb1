#!/usr/bin/env bash
# Installs the pinned XLA CPU PJRT plugin from a PyPI wheel into build/xla/
# (ignored by git), for machines that reach PyPI but not GitHub (go-xla's own
# installer downloads from GitHub). Idempotent: an installed plugin whose
# size and checksum stamp match is left alone. Prints the plugin's path.
# Why this wheel: xla/README.md.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dest=${XLA_DIR:-$root/build/xla}

pkg=lammps-jax-pjrt-cpu
version=0.11.2
wheel=lammps_jax_pjrt_cpu-0.11.2-py3-none-manylinux_2_27_x86_64.whl
wheel_sha256=1319390d948b39f69f7dade496b7c385149d9ca6097a6b62114da113216d9ad1
member=lammps_jax_pjrt_cpu/pjrt_c_api_cpu_plugin.so
so_sha256=ad1309ac822b1b24d51b7f9947c7c9fa9ef5d67f390584cbc3d1fa2428fed9c2
so_size=201600336
plugin=$dest/pjrt_c_api_cpu_plugin.so
stamp=$dest/INSTALLED

die() { echo "make xla: $*" >&2; exit 1; }

case "$(uname -s)/$(uname -m)" in
  Linux/x86_64) ;;
  *) die "no pinned XLA CPU wheel for $(uname -s)/$(uname -m); with internet, GOMLX_BACKEND=xla:cpu lets go-xla download its own plugin (see xla/README.md)" ;;
esac

want_stamp="$pkg==$version $wheel_sha256 $so_sha256 $so_size"
if [ -f "$plugin" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ] \
   && [ "$(stat -c %s "$plugin")" = "$so_size" ]; then
  echo "XLA CPU plugin already installed: $plugin"
  exit 0
fi

command -v python3 >/dev/null || die "python3 not found (pip downloads the wheel)"
python3 -m pip --version >/dev/null 2>&1 || die "python3 -m pip not available (install python3-pip)"
mkdir -p "$dest"
tmp=$(mktemp -d "$dest/.install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "downloading $pkg==$version from PyPI ..."
python3 -m pip download --quiet --no-deps --only-binary=:all: --disable-pip-version-check \
  "$pkg==$version" -d "$tmp" || die "pip download $pkg==$version failed (PyPI unreachable? see the pip output above)"
[ -f "$tmp/$wheel" ] || die "pip did not fetch $wheel (got: $(ls "$tmp"))"
got=$(sha256sum "$tmp/$wheel" | cut -d' ' -f1)
[ "$got" = "$wheel_sha256" ] || die "$wheel: SHA-256 $got, pinned $wheel_sha256: refusing to install"

# The wheel is a zip; only the plugin and its licences are taken (none of
# the package's Python code).
python3 - "$tmp/$wheel" "$tmp" "$member" <<'PY' || die "unpacking $wheel failed"
import sys, zipfile, os
whl, out, member = sys.argv[1:]
with zipfile.ZipFile(whl) as z:
    for name in z.namelist():
        if name == member or name.endswith("/licenses/LICENSE") or name.endswith("/licenses/THIRD_PARTY_NOTICES"):
            with z.open(name) as src, open(os.path.join(out, os.path.basename(name)), "wb") as dst:
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
PY
so=$tmp/$(basename "$member")
got=$(sha256sum "$so" | cut -d' ' -f1)
[ "$got" = "$so_sha256" ] || die "$member: SHA-256 $got, pinned $so_sha256"
mv -f "$tmp/LICENSE" "$dest/LICENSE"
mv -f "$tmp/THIRD_PARTY_NOTICES" "$dest/THIRD_PARTY_NOTICES"
mv -f "$so" "$plugin"
echo "$want_stamp" > "$tmp/stamp" && mv -f "$tmp/stamp" "$stamp"
echo "XLA CPU plugin installed: $plugin"
echo "use it with: GOMLX_BACKEND=xla:cpu (lwgcn finds build/xla) or GOMLX_BACKEND=xla:$plugin"
