#!/usr/bin/env bash
# Installs the lwgcn Jupyter kernel: GoNB (built from this module's `tool`
# directive, so its version is the one pinned in go.mod, with one patch: its
# kernel_info reply names Go's Pygments lexer and CodeMirror mode), goimports
# and gopls at pinned versions, and a kernelspec of our own name whose argv/env
# make notebooks use the pinned Go toolchain and GoMLX's SIMD build.
#
# Usage: kernel/install.sh [--uninstall]
#
# Environment (all optional):
#   JUPYTER_DATA_DIR    where the kernelspec goes (default: this clone's
#                       <repo>/build/jupyter, which make lab, make report and
#                       the runner put first on JUPYTER_PATH).
#   LWGCN_KERNEL_NAME   kernelspec name (default gonb-lwgcn).
#   LWGCN_KERNEL_BIN    where gonb, goimports, gopls go (default <repo>/bin/kernel).
#   GOMLX_BACKEND       recorded in the kernelspec (default go).
#
# Idempotent: binaries that are already at the pinned versions are kept, and the
# kernelspec is rewritten only when its content changes. It never touches a
# kernelspec it did not write (e.g. the user's own `gonb`), nor one written by
# another clone of the repository (its argv runs that clone's GoNB): those are
# refused.
set -euo pipefail

export GOTOOLCHAIN=go1.27.4
export GOEXPERIMENT=simd

GOIMPORTS_PKG=golang.org/x/tools/cmd/goimports
GOIMPORTS_MOD=golang.org/x/tools
GOIMPORTS_VERSION=v0.52.0
GOPLS_PKG=golang.org/x/tools/gopls
GOPLS_MOD=golang.org/x/tools/gopls
GOPLS_VERSION=v0.24.0
GONB_MOD=github.com/janpfeifer/gonb
PY=/usr/bin/python3

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KERNEL_NAME=${LWGCN_KERNEL_NAME:-gonb-lwgcn}
BIN_DIR=${LWGCN_KERNEL_BIN:-$REPO/bin/kernel}
BACKEND=${GOMLX_BACKEND:-go}
MARKER=lwgcn-kernel-install

log() { echo "kernel/install.sh: $*"; }
die() { echo "kernel/install.sh: error: $*" >&2; exit 1; }

case "$KERNEL_NAME" in
  gonb) die "refusing kernel name 'gonb' (that name belongs to a plain GoNB install); pick another LWGCN_KERNEL_NAME" ;;
  *[!a-zA-Z0-9._-]*|"") die "invalid kernel name '$KERNEL_NAME' (letters, digits, '.', '_', '-')" ;;
esac

# The kernelspec lives in this clone (build/jupyter) unless JUPYTER_DATA_DIR
# says otherwise: two clones never share, so never overwrite, a kernelspec.
DATA_DIR=${JUPYTER_DATA_DIR:-$REPO/build/jupyter}
SPEC_DIR=$DATA_DIR/kernels/$KERNEL_NAME

# owned_by_us DIR: the kernelspec in DIR was written by this script.
owned_by_us() {
  [ -f "$1/kernel.json" ] && grep -q "\"$MARKER\"" "$1/kernel.json"
}

# spec_repo DIR: the clone whose install.sh wrote the kernelspec in DIR:
# metadata.lwgcn-kernel-install.repo, or for specs written before that was
# recorded, the clone of argv[0] when it is <clone>/bin/kernel/gonb; empty
# when neither says.
spec_repo() {
  "$PY" - "$1/kernel.json" "$MARKER" <<'EOF' 2>/dev/null || true
import json, sys
spec = json.load(open(sys.argv[1]))
repo = spec.get("metadata", {}).get(sys.argv[2], {}).get("repo", "")
argv0 = (spec.get("argv") or [""])[0]
if not repo and argv0.endswith("/bin/kernel/gonb"):
    repo = argv0[: -len("/bin/kernel/gonb")]
print(repo)
EOF
}

if [ "${1:-}" = "--uninstall" ]; then
  if [ ! -e "$SPEC_DIR" ]; then
    log "no kernelspec at $SPEC_DIR: nothing to do"
  elif ! owned_by_us "$SPEC_DIR"; then
    die "$SPEC_DIR was not written by kernel/install.sh; leaving it alone"
  elif other=$(spec_repo "$SPEC_DIR") && [ -n "$other" ] && [ "$other" != "$REPO" ]; then
    die "$SPEC_DIR belongs to the clone $other; leaving it alone"
  else
    log "removing kernelspec $SPEC_DIR"
    rm -rf "$SPEC_DIR"
  fi
  exit 0
elif [ $# -gt 0 ]; then
  die "unknown argument '$1' (usage: kernel/install.sh [--uninstall])"
fi

if [ -e "$SPEC_DIR" ] && ! owned_by_us "$SPEC_DIR"; then
  die "$SPEC_DIR exists and was not written by kernel/install.sh; not overwriting it (set LWGCN_KERNEL_NAME to use another name)"
fi
if [ -e "$SPEC_DIR" ] && other=$(spec_repo "$SPEC_DIR") && [ -n "$other" ] && [ "$other" != "$REPO" ]; then
  die "$SPEC_DIR belongs to the clone $other; not overwriting it (unset JUPYTER_DATA_DIR to install into this clone's build/jupyter, or set LWGCN_KERNEL_NAME)"
fi
command -v go >/dev/null || die "go not found in PATH"
cd "$REPO"
GOROOT_BIN=$(go env GOROOT)/bin
[ -x "$GOROOT_BIN/go" ] || die "toolchain $GOTOOLCHAIN has no go binary at $GOROOT_BIN"
GONB_VERSION=$(go list -m -f '{{.Version}}' "$GONB_MOD") || die "go.mod does not require $GONB_MOD (tool directive missing?)"
# {{.Dir}} is empty until the module is in the module cache (a fresh machine):
# download it first, the logo is copied from there.
go mod download "$GONB_MOD" || die "cannot download $GONB_MOD $GONB_VERSION"
GONB_DIR=$(go list -m -f '{{.Dir}}' "$GONB_MOD")
[ -n "$GONB_DIR" ] && [ -d "$GONB_DIR" ] || die "$GONB_MOD $GONB_VERSION not in the module cache after download"
GO_VERSION=$("$GOROOT_BIN/go" env GOVERSION)
mkdir -p "$BIN_DIR"

# has_build BINARY MODULE VERSION: BINARY exists, was built by this toolchain
# and links MODULE at VERSION (as main module or dependency).
has_build() {
  [ -x "$1" ] || return 1
  local info
  info=$(go version -m "$1" 2>/dev/null) || return 1
  echo "$info" | head -1 | grep -q ": $GO_VERSION" || return 1
  echo "$info" | grep -Eq "^[[:space:]]+(mod|dep)[[:space:]]+$2[[:space:]]+$3([[:space:]]|$)"
}

# GoNB: `go build` of the tool directive's package (the proxy refuses
# `go install gonb@version` here), from a copy of its module with one patch:
# GoNB v0.11.5's kernel_info reply leaves language_info's pygments_lexer and
# codemirror_mode empty, so nbconvert highlighted the report's Go as Python
# (an apostrophe in a comment opened a string). The copy (bin/kernel/gonb-src,
# without GoNB's docs and examples) is built through a go.mod of our own
# (bin/kernel/gonb-build.mod: this module's go.mod plus a replace), so every
# other dependency is the one go.mod pins.
GONB_SRC=$BIN_DIR/gonb-src
GONB_PATCHED=internal/kernel/messages.go
patch_gonb() { # src dst: messages.go with the lexer and mode filled in
  "$PY" - "$1" "$2" <<'EOF' || die "cannot patch GoNB's $GONB_PATCHED (has GoNB's kernel_info reply changed?)"
import sys
src = open(sys.argv[1]).read()
old = 'MIMEType:      "text/x-go",\n'
if src.count(old) != 1:
    sys.exit("kernel/install.sh: GoNB's kernel_info reply not found in " + sys.argv[1])
new = old + '\t\t\t\tPygmentsLexer:  "go",\n\t\t\t\tCodeMirrorMode: "go",\n'
open(sys.argv[2], "w").write(src.replace(old, new))
EOF
}
patched=$(mktemp)
patch_gonb "$GONB_DIR/$GONB_PATCHED" "$patched"
if has_build "$BIN_DIR/gonb" "$GONB_MOD" "$GONB_VERSION" \
   && [[ $(go version -m "$BIN_DIR/gonb") == *"=>"?"$GONB_SRC"?* ]] \
   && cmp -s "$patched" "$GONB_SRC/$GONB_PATCHED"; then
  log "gonb $GONB_VERSION (language_info patched) up to date in $BIN_DIR"
else
  log "building gonb $GONB_VERSION (from go.mod's tool directive, language_info patched) into $BIN_DIR"
  rm -rf "$GONB_SRC"
  mkdir -p "$GONB_SRC"
  (cd "$GONB_DIR" && tar --exclude=./docs --exclude=./examples -cf - .) | (cd "$GONB_SRC" && tar -xf -)
  chmod -R u+w "$GONB_SRC"
  cp "$patched" "$GONB_SRC/$GONB_PATCHED"
  cp go.mod "$BIN_DIR/gonb-build.mod"
  cp go.sum "$BIN_DIR/gonb-build.sum"
  echo "replace $GONB_MOD => $GONB_SRC" >> "$BIN_DIR/gonb-build.mod"
  go build -mod=mod -modfile="$BIN_DIR/gonb-build.mod" -o "$BIN_DIR/gonb" "$GONB_MOD"
fi
rm -f "$patched"

install_tool() { # name pkg module version
  if has_build "$BIN_DIR/$1" "$3" "$4"; then
    log "$1 $4 up to date in $BIN_DIR"
  else
    log "installing $2@$4 into $BIN_DIR"
    (cd / && GOBIN="$BIN_DIR" GOFLAGS= go install "$2@$4")
  fi
}
install_tool goimports "$GOIMPORTS_PKG" "$GOIMPORTS_MOD" "$GOIMPORTS_VERSION"
install_tool gopls "$GOPLS_PKG" "$GOPLS_MOD" "$GOPLS_VERSION"

# Kernelspec. The kernel's PATH starts with the pinned toolchain (so GoNB's
# `go` calls need no toolchain switch) and our tool dir, then the installer's
# PATH. The Go build and module caches are left at their defaults, so all
# kernels and `go test` share them (first cell ~30 s cold, ~3 s warm).
KERNEL_PATH=$GOROOT_BIN:$BIN_DIR
IFS=: read -r -a path_parts <<<"${PATH}"
for p in "${path_parts[@]}"; do
  case ":$KERNEL_PATH:" in *":$p:"*) ;; *) [ -n "$p" ] && KERNEL_PATH=$KERNEL_PATH:$p ;; esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
KJ_GONB="$BIN_DIR/gonb" KJ_DISPLAY="Go (lwgcn, GoNB $GONB_VERSION)" KJ_PATH="$KERNEL_PATH" \
KJ_BACKEND="$BACKEND" KJ_REPO="$REPO" KJ_GONB_VERSION="$GONB_VERSION" KJ_MARKER="$MARKER" KJ_GOTOOLCHAIN="$GOTOOLCHAIN" \
  "$PY" - "$tmp/kernel.json" <<'EOF' || die "$PY could not write kernel.json"
import json, os, sys
e = os.environ
spec = {
    "argv": [e["KJ_GONB"], "--kernel", "{connection_file}", "--raw_error"],
    "display_name": e["KJ_DISPLAY"],
    "language": "go",
    "interrupt_mode": "message",
    "env": {
        "GOTOOLCHAIN": e["KJ_GOTOOLCHAIN"],
        "GOEXPERIMENT": "simd",
        "GOMLX_BACKEND": e["KJ_BACKEND"],
        "PATH": e["KJ_PATH"],
    },
    "metadata": {e["KJ_MARKER"]: {"gonb_version": e["KJ_GONB_VERSION"], "installer": "kernel/install.sh",
                                  "repo": e["KJ_REPO"]}},
}
with open(sys.argv[1], "w") as f:
    json.dump(spec, f, indent=1, sort_keys=True)
    f.write("\n")
EOF
cp "$GONB_DIR/internal/kernel/Go_gopher_favicon.svg" "$tmp/logo-svg.svg"
chmod 644 "$tmp/logo-svg.svg"

if [ -d "$SPEC_DIR" ] && cmp -s "$tmp/kernel.json" "$SPEC_DIR/kernel.json" \
   && cmp -s "$tmp/logo-svg.svg" "$SPEC_DIR/logo-svg.svg"; then
  log "kernelspec '$KERNEL_NAME' up to date in $SPEC_DIR"
else
  log "writing kernelspec '$KERNEL_NAME' to $SPEC_DIR"
  mkdir -p "$SPEC_DIR"
  cp "$tmp/logo-svg.svg" "$SPEC_DIR/.logo-svg.svg.tmp" && mv -f "$SPEC_DIR/.logo-svg.svg.tmp" "$SPEC_DIR/logo-svg.svg"
  cp "$tmp/kernel.json" "$SPEC_DIR/.kernel.json.tmp" && mv -f "$SPEC_DIR/.kernel.json.tmp" "$SPEC_DIR/kernel.json"
fi
log "kernel '$KERNEL_NAME' ready: GoNB $GONB_VERSION, $GO_VERSION, GOMLX_BACKEND=$BACKEND, tools in $BIN_DIR"
