# lwgcn build entry points. Every target runs with the pinned toolchain and the
# SIMD build of GoMLX's pure-Go backend (GOEXPERIMENT=simd is ~35x faster at
# matrix products); see README.md.

export GOTOOLCHAIN := go1.27.4
export GOEXPERIMENT := simd
export GOFLAGS := -buildvcs=false
# Tests and benchmarks run on GoMLX's pure-Go backend (XLA's plugin cannot be
# downloaded here); users with XLA can override GOMLX_BACKEND.
export GOMLX_BACKEND ?= go

GO ?= go

# Where the project's offline dataset snapshot sits beside the repository
# (../shared/datasets, laid out like the canonical hosts), use it as the
# download mirror; files are still checksum-verified. Users elsewhere download
# from the canonical URLs.
SHARED_DATASETS := $(abspath $(CURDIR)/../shared/datasets)
ifneq ($(wildcard $(SHARED_DATASETS)/MANIFEST.tsv),)
export LWGCN_MIRROR ?= $(SHARED_DATASETS)
endif
FUZZTIME ?= 10s
BIN := bin

.PHONY: all build report test unit unit-kernels-off fuzz-smoke vet tidy-check datasets-doc clean

all: build

# The README's main command: install the Go Jupyter kernel if needed and run
# every notebook headless into report/index.html (kernel/kernel.mk).
report: notebooks

# Builds use -buildvcs=false, so the CLI's commit (buildinfo, recorded with
# every result) is stamped at link time; without git it falls back as
# buildinfo says.
BUILDINFO := github.com/lwgcn/toolkit/lwgcn/buildinfo
GIT_COMMIT = $(shell git rev-parse HEAD 2>/dev/null)
GIT_DIRTY = $(shell git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo true || echo false)
STAMP = $(if $(GIT_COMMIT),-ldflags "-X $(BUILDINFO).commitStamp=$(GIT_COMMIT) -X $(BUILDINFO).dirtyStamp=$(GIT_DIRTY)")

build:
	$(GO) build $(STAMP) -o $(BIN)/lwgcn ./cmd/lwgcn

# The README's test command: vet, go.mod tidiness, unit tests, a short run of every
# fuzz target, the Jupyter side (kernel install, notebook runner, kernel protocol),
# every notebook in quick mode and the browser tests (headless chromium).
test: vet tidy-check unit unit-kernels-off fuzz-smoke kernel-test notebooks-test browser-test

# vet also fails on a file gofmt would change (the toolchain's own gofmt), but
# for third_party/ (compute's source as published; see third_party/README.md).
vet:
	$(GO) vet ./...
	@out=$$($$($(GO) env GOROOT)/bin/gofmt -l $$(git ls-files '*.go' ':!third_party' 2>/dev/null || find . -name '*.go' -not -path './build/*' -not -path './third_party/*')); \
	  if [ -n "$$out" ]; then echo "gofmt would change (run gofmt -w):"; echo "$$out"; exit 1; fi

# go.mod and go.sum must be what `go mod tidy` makes them: -diff prints the
# change it would make and fails, touching nothing (needs the module proxy,
# not GitHub).
tidy-check:
	$(GO) mod tidy -diff

unit:
	$(GO) test -count=1 -timeout 30m ./...

# The suite again with every lwgcn kernel off (compute's own ops), as the
# patched engine must pass it both ways (third_party/README.md); the
# kernels' own tests switch them on where they need them.
unit-kernels-off:
	LWGCN_KERNELS=off $(GO) test -count=1 -timeout 30m ./...

# Each fuzz target runs for FUZZTIME (go test -fuzz takes one target at a time).
fuzz-smoke:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
	  for t in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | sed 's/^func //'); do \
	    echo "fuzz $$pkg $$t ($(FUZZTIME))"; \
	    $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; \
	done

# docs/DATASETS.md: statistics and homophily of every locally available dataset.
datasets-doc:
	$(GO) run ./cmd/lwgcn datasets -doc docs/DATASETS.md

clean:
	rm -rf $(BIN)

# Jupyter side (kernel install, headless notebook runner): see kernel/README.md.
-include kernel/kernel.mk

# XLA CPU plugin from PyPI (make xla), BACKEND=xla switch: see xla/README.md.
-include xla/xla.mk
