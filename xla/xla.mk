# XLA CPU backend (included by the main Makefile). See xla/README.md.
#
#   make xla                    install the pinned XLA CPU PJRT plugin from PyPI into build/xla
#   make report BACKEND=xla     any target on XLA CPU (GOMLX_BACKEND=xla:<that plugin>)
#   make report BACKEND=go      ... on the pure-Go backend (the default)
#
# Every make run exports LWGCN_XLA_PLUGIN (the plugin `make xla` installs),
# which "xla:cpu" loads and the XLA-vs-Go parity suite (lwgcn/parity) needs;
# the unit tests therefore install it first.

XLA_PLUGIN := $(CURDIR)/build/xla/pjrt_c_api_cpu_plugin.so
export LWGCN_XLA_PLUGIN ?= $(XLA_PLUGIN)

ifeq ($(BACKEND),xla)
export GOMLX_BACKEND := xla:$(XLA_PLUGIN)
report notebooks notebooks-test kernel kernel-test: xla
else ifneq ($(BACKEND),)
export GOMLX_BACKEND := $(BACKEND)
endif

.PHONY: xla
xla:
	@bash xla/install.sh

unit: xla
