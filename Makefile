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
FUZZTIME ?= 10s
BIN := bin

.PHONY: all build test unit fuzz-smoke vet datasets-doc clean

all: build

build:
	$(GO) build -o $(BIN)/lwgcn ./cmd/lwgcn

# The README's test command: vet, unit tests, a short run of every fuzz target, and
# the Jupyter side (kernel install, notebook runner, kernel protocol).
test: vet unit fuzz-smoke kernel-test

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 -timeout 30m ./...

# Each fuzz target runs for FUZZTIME (go test -fuzz takes one target at a time).
fuzz-smoke:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
	  for t in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | sed 's/^func //'); do \
	    echo "fuzz $$pkg $$t ($(FUZZTIME))"; \
	    $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; \
	done

clean:
	rm -rf $(BIN)

# Jupyter side (kernel install, headless notebook runner): see kernel/README.md.
-include kernel/kernel.mk
