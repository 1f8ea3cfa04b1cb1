# Jupyter side of lwgcn (included by the main Makefile). See kernel/README.md.
#
#   make kernel                  build gonb/goimports/gopls into bin/kernel, install kernelspec gonb-lwgcn
#   make kernel-uninstall        remove that kernelspec (only if kernel/install.sh wrote it)
#   make notebooks               run notebooks/*.ipynb headlessly, report in report/
#   make notebooks QUICK=1       ... with LWGCN_QUICK=1 (small epochs/splits/sweeps)
#   make notebooks NOTEBOOKS="notebooks/a.ipynb" NB_TIMEOUT=600 REPORT=/tmp/r
#   make kernel-test             runner + protocol tests, in the isolated Jupyter dir build/jupyter
#   make notebooks-test          every notebook in quick mode in build/jupyter (part of make test)
#   make venv                    project venv build/venv: pinned JupyterLab, Playwright, Pillow
#   make report-check            browser check (headless chromium) of the pages in $(REPORT)
#   make browser-test            checker tests on planted faults + browser check of build/report-quick + lab-test
#   make lab                     pinned JupyterLab on 127.0.0.1:8888 (LAB_PORT) with the kernel and notebooks/
#   make lab QUICK=1             ... in quick mode (LWGCN_QUICK=1 for its kernels)
#   make lab-test                JupyterLab in headless chromium: two notebooks end to end, a slider, a button
#
# The kernelspec goes to this clone's build/jupyter (never shared with another
# clone) unless JUPYTER_DATA_DIR is set; the runner and lab.sh look there first.

KERNEL_PY := /usr/bin/python3
NOTEBOOKS ?=
NB_TIMEOUT ?= 1800
REPORT ?= report
QUICK ?=
KERNEL_TEST_JUPYTER_DIR ?= $(CURDIR)/build/jupyter
KERNEL_TEST_TIMEOUT ?= 900

.PHONY: kernel kernel-uninstall notebooks notebooks-quick notebooks-test kernel-test venv report-check browser-test lab lab-test

kernel:
	bash kernel/install.sh

kernel-uninstall:
	bash kernel/install.sh --uninstall

notebooks: kernel
	bash kernel/run.sh --timeout $(NB_TIMEOUT) --out $(REPORT) $(if $(QUICK),--quick) $(NOTEBOOKS)

notebooks-quick:
	$(MAKE) notebooks QUICK=1

kernel-test:
	mkdir -p $(KERNEL_TEST_JUPYTER_DIR)
	JUPYTER_DATA_DIR=$(KERNEL_TEST_JUPYTER_DIR) bash kernel/install.sh
	JUPYTER_DATA_DIR=$(KERNEL_TEST_JUPYTER_DIR) timeout --kill-after=30 $(KERNEL_TEST_TIMEOUT) \
	  $(KERNEL_PY) kernel/test_kernel.py -v

# Part of `make test`: every notebook in quick mode, in the isolated Jupyter
# dir, report in build/report-quick; fails if any cell errs.
notebooks-test:
	mkdir -p $(KERNEL_TEST_JUPYTER_DIR)
	JUPYTER_DATA_DIR=$(KERNEL_TEST_JUPYTER_DIR) bash kernel/install.sh
	JUPYTER_DATA_DIR=$(KERNEL_TEST_JUPYTER_DIR) bash kernel/run.sh --timeout $(NB_TIMEOUT) --out build/report-quick --quick --check-links $(NOTEBOOKS)

# The project venv (ignored by git): JupyterLab, Playwright and Pillow from
# PyPI, every version pinned (kernel/requirements.lock as constraints).
# Playwright drives Debian's /usr/bin/chromium; it never downloads a browser.
VENV ?= $(CURDIR)/build/venv
VENV_PY := $(VENV)/bin/python

venv: $(VENV)/.installed

$(VENV)/.installed: kernel/requirements.txt kernel/requirements.lock
	rm -rf $(VENV)
	/usr/bin/python3 -m venv $(VENV)
	$(VENV_PY) -m pip install -q --disable-pip-version-check -r kernel/requirements.txt -c kernel/requirements.lock
	touch $@

# Every page of $(REPORT) in headless chromium: figures drawn, no broken image,
# console error or network request; screenshots into $(REPORT)/screenshots.
report-check: venv
	$(VENV_PY) kernel/check_report.py $(REPORT)

# Part of `make test` (after notebooks-test): the checker rejects each planted
# fault, then checks the quick report's pages, then the JupyterLab test.
browser-test: venv
	timeout --kill-after=30 600 $(VENV_PY) kernel/test_report_browser.py -v
	timeout --kill-after=30 600 $(VENV_PY) kernel/check_report.py build/report-quick
	$(MAKE) lab-test

# JupyterLab (kernel/lab.sh): offline, localhost, kernel gonb-lwgcn from this
# clone's build/jupyter (make kernel), notebooks/ open, saved without outputs.
# LAB_PORT picks the port, QUICK=1 quick mode.
lab: kernel venv
	LWGCN_QUICK=$(if $(QUICK),1,) bash kernel/lab.sh

# Starts JupyterLab on a free port with a token in the isolated Jupyter dir and
# drives it in headless chromium (kernel/test_lab_browser.py, quick mode);
# screenshots into build/report-quick/lab-screenshots.
lab-test: venv
	mkdir -p $(KERNEL_TEST_JUPYTER_DIR)
	JUPYTER_DATA_DIR=$(KERNEL_TEST_JUPYTER_DIR) bash kernel/install.sh
	rm -rf build/report-quick/lab-screenshots
	JUPYTER_DATA_DIR=$(KERNEL_TEST_JUPYTER_DIR) timeout --kill-after=30 900 \
	  $(VENV_PY) kernel/test_lab_browser.py --shots build/report-quick/lab-screenshots
