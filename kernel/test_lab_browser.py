"""JupyterLab browser test: the notebooks as a reader runs them.

Starts the project's JupyterLab (kernel/lab.sh, build/venv) on a free
localhost port with a random token, opens notebooks in headless Chromium
(Debian's /usr/bin/chromium via Playwright), runs all cells in quick mode,
and asserts per notebook:

- every code cell ran (an execution count) with no error output and no
  panic / failed-shell line on stderr;
- every figure (image/svg+xml output) rendered: a loaded image whose
  screenshot is not blank;
- the live explorer (notebook.Explorer): its controls appeared, moving a
  slider (or clicking a button) redrew the view with a different figure, and
  Stop ended the cell;
- no console error, and no request outside the JupyterLab server (GoNB's
  handshake timeout is tolerated, and printed, where the widgets answered:
  see GONB_HANDSHAKE).

The notebooks on disk are not modified (autosave is off, nothing is saved;
checked by hash). Screenshots go to --shots (default build/lab-screenshots).
Needs the gonb-lwgcn kernel in $JUPYTER_DATA_DIR (make lab-test installs it).

    build/venv/bin/python kernel/test_lab_browser.py [--shots DIR] [notebooks ...]
"""

import argparse
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

KERNEL_DIR = Path(__file__).resolve().parent
REPO = KERNEL_DIR.parent
sys.path.insert(0, str(KERNEL_DIR))
import check_report  # noqa: E402  (Chromium launch, ink measure)

DEFAULT_NOTEBOOKS = ["notebooks/02-theorem1.ipynb", "notebooks/08-synthetic-explorer.ipynb"]
# The control the test moves in each notebook's explorer (one that changes the
# figures); other notebooks: the first slider.
MOVE = {"02-theorem1": "tilt", "03-theorem2": "context", "08-synthetic-explorer": "homophily",
        "zz-scratch": "tilt"}
CELL_TIMEOUT = 300  # seconds for one cell in quick mode (the first compiles ~30 s cold)
PANIC = re.compile(r"^panic: |^exit status [1-9]|^signal: ", re.M)

# Lab settings for the test: no autosave (the repository's notebooks stay as
# they are), every cell attached to the DOM (no windowing).
SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}

# State of the current notebook from JupyterLab's model (window.jupyterapp).
STATE_JS = r"""
() => {
  const w = window.jupyterapp.shell.currentWidget;
  if (!w || !w.content || !w.content.model) return null;
  const cells = [];
  const m = w.content.model.cells;
  for (let i = 0; i < m.length; i++) {
    const c = m.get(i);
    if (c.type !== "code") continue;
    const outs = c.outputs.toJSON();
    cells.push({
      index: i, source: c.sharedModel.getSource().slice(0, 80), count: c.executionCount,
      explorer: /\bexplore\.\w+\(|\.Run\(\)/.test(c.sharedModel.getSource()),
      errors: outs.filter((o) => o.output_type === "error").map((o) => (o.ename + ": " + o.evalue).slice(0, 300)),
      stderr: outs.filter((o) => o.output_type === "stream" && o.name === "stderr")
                  .map((o) => Array.isArray(o.text) ? o.text.join("") : o.text).join(""),
      svgs: outs.filter((o) => o.data && o.data["image/svg+xml"]).length,
    });
  }
  const kernel = w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return {path: w.context.path, kernel: kernel ? kernel.status : "none", cells};
}
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def sha(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class Lab:
    """kernel/lab.sh on a free port with a token, settings in a temp dir."""

    def __init__(self, tmp):
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.base = f"http://127.0.0.1:{self.port}"
        settings = Path(tmp) / "settings"
        for rel, value in SETTINGS.items():
            p = settings / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(json.dumps(value))
        env = dict(os.environ, LAB_PORT=str(self.port), LWGCN_LAB_DIR=str(Path(tmp) / "lab"),
                   JUPYTERLAB_SETTINGS_DIR=str(settings), LWGCN_QUICK="1")
        env.pop("LWGCN_HEADLESS", None)
        self.log_path = Path(tmp) / "lab.log"
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            ["bash", str(KERNEL_DIR / "lab.sh"), "--no-browser", f"--IdentityProvider.token={self.token}",
             "--LabApp.expose_app_in_browser=True"],
            env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/api/status?token={self.token}", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"JupyterLab did not start on {self.base}; log:\n{self.log_path.read_text()[-3000:]}")
            time.sleep(0.5)

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def wait_for(page, predicate_js, arg=None, timeout_s=60, what="condition"):
    try:
        page.wait_for_function(predicate_js, arg=arg, timeout=timeout_s * 1000, polling=500)
    except Exception as e:
        raise AssertionError(f"timed out after {timeout_s} s waiting for {what}") from e


def cell_problems(cell):
    out = []
    if cell["errors"]:
        out.append(f"cell {cell['index']} ({cell['source']!r}): error output {cell['errors']}")
    m = PANIC.search(cell["stderr"])
    if m:
        out.append(f"cell {cell['index']} ({cell['source']!r}): stderr {cell['stderr'][m.start():][:300]!r}")
    return out


def figure_problems(page, shots, stem, cell_index=None):
    """Loads, screenshots and measures every SVG figure rendered in the
    notebook (or in one cell); returns (count, problems)."""
    sel = ".jp-Notebook .jp-Cell"
    handles = page.query_selector_all(sel)
    problems, n = [], 0
    for ci, cell in enumerate(handles):
        if cell_index is not None and ci != cell_index:
            continue
        for img in cell.query_selector_all('.jp-RenderedSVG img, .lwgcn-figure img, img[src^="data:image/svg+xml"]'):
            n += 1
            ok = img.evaluate("(i) => i.complete && i.naturalWidth > 0")
            alt = (img.get_attribute("alt") or "")[:60]
            if not ok:
                problems.append(f"{stem}: cell {ci}: figure {alt!r} did not load")
                continue
            img.scroll_into_view_if_needed()
            shot = shots / f"{stem}-cell{ci}-fig{n}.png"
            img.screenshot(path=str(shot))
            ink = check_report.ink_fraction(shot)
            if ink < check_report.MIN_INK:
                problems.append(f"{stem}: cell {ci}: figure {alt!r} is blank ({ink:.2%} ink, {shot.name})")
    return n, problems


def explorer_cell(state):
    for c in state["cells"]:
        if c["explorer"]:
            return c["index"]
    return None


VIEW_JS = r"""
(ci) => {
  const cell = document.querySelectorAll(".jp-Notebook .jp-Cell")[ci];
  if (!cell) return null;
  const head = cell.querySelector("[data-lwgcn-draw]");
  const imgs = Array.from(cell.querySelectorAll(".lwgcn-view img")).map((i) => i.getAttribute("src"));
  const acts = Array.from(cell.querySelectorAll(".lwgcn-values, .lwgcn-note")).map((e) => e.textContent);
  return {draw: head ? Number(head.getAttribute("data-lwgcn-draw")) : 0,
          values: head ? head.textContent : "", imgs,
          sliders: cell.querySelectorAll('.lwgcn-controls input[type="range"]').length,
          selects: cell.querySelectorAll(".lwgcn-controls select").length,
          buttons: Array.from(cell.querySelectorAll(".lwgcn-controls button")).map((b) => b.textContent),
          texts: acts};
}
"""


def run_notebook(page, lab, rel, shots, log):
    """Opens rel, runs all cells, drives its explorer; returns the problems
    and whether the explorer's widgets answered (every move, selection and
    action checked without a problem)."""
    stem = Path(rel).stem
    problems = []
    answered = False
    # A workspace of its own per notebook, reset: JupyterLab would otherwise
    # reopen the previous notebooks (and start their kernels) in this page.
    page.goto(f"{lab.base}/lab/workspaces/test-{stem}/tree/{rel}?reset&token={lab.token}",
              wait_until="domcontentloaded")
    wait_for(page, "(p) => window.jupyterapp && window.jupyterapp.shell.currentWidget && "
                   "window.jupyterapp.shell.currentWidget.context && "
                   "window.jupyterapp.shell.currentWidget.context.path === p && "
                   "window.jupyterapp.shell.currentWidget.sessionContext.session && "
                   "window.jupyterapp.shell.currentWidget.sessionContext.session.kernel && "
                   "window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.connectionStatus === 'connected'",
             arg=rel, timeout_s=120, what=f"{rel} open with a connected kernel")
    state = page.evaluate(STATE_JS)
    total = len(state["cells"])
    ex = explorer_cell(state)
    log(f"test_lab: {rel}: {total} code cells, explorer in cell {ex}; running all")
    start = time.monotonic()
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")

    # Cells before the explorer (all of them when there is none) finish.
    before = [c["index"] for c in state["cells"] if ex is None or c["index"] < ex]
    wait_for(page, "(args) => { const s = (" + STATE_JS + ")(); if (!s) return false;"
                   " return s.cells.filter((c) => args.includes(c.index)).every((c) => c.count !== null)"
                   " || s.cells.some((c) => c.errors.length > 0); }",
             arg=before, timeout_s=CELL_TIMEOUT * max(1, len(before)) // 2,
             what=f"{rel}: cells before the explorer to finish")
    state = page.evaluate(STATE_JS)
    for c in state["cells"]:
        problems += cell_problems(c)
    if problems:
        return problems, False
    log(f"test_lab: {rel}: {len(before)} cells ran in {time.monotonic() - start:.0f} s")

    if ex is not None:
        problems += drive_explorer(page, rel, ex, shots, log)
        answered = not problems
        wait_for(page, "(ci) => { const s = (" + STATE_JS + ")(); const c = s && s.cells.find((c) => c.index === ci);"
                       " return c && c.count !== null; }", arg=ex, timeout_s=60,
                 what=f"{rel}: explorer cell to end after Stop")
        after = [c["index"] for c in state["cells"]]
        wait_for(page, "(args) => { const s = (" + STATE_JS + ")();"
                       " return s.cells.filter((c) => args.includes(c.index)).every((c) => c.count !== null); }",
                 arg=after, timeout_s=CELL_TIMEOUT, what=f"{rel}: remaining cells")
    state = page.evaluate(STATE_JS)
    for c in state["cells"]:
        problems += cell_problems(c)
        if c["count"] is None:
            problems.append(f"{rel}: cell {c['index']} ({c['source']!r}) did not run")
    want = sum(c["svgs"] for c in state["cells"])
    page.screenshot(path=str(shots / f"{stem}.png"))
    n, fig_problems = figure_problems(page, shots, stem)
    problems += fig_problems
    if n < want:
        problems.append(f"{rel}: {want} SVG outputs in the model, {n} figures rendered")
    log(f"test_lab: {rel}: done in {time.monotonic() - start:.0f} s: {n} figures rendered "
        f"({want} SVG outputs), {len(problems)} problem(s)")
    return problems, answered


# GoNB v0.11.5's websocket.js gives the kernel 500 ms to acknowledge the
# browser's comm_open, then logs these two errors and drops that attempt. On
# two busy cores an attempt can miss it while a later one connects: the
# widgets then work. The two errors are tolerated (and printed) only in a
# notebook whose explorer's widgets answered every check; anywhere else they
# fail the test like any console error.
GONB_HANDSHAKE = (
    "console error: gonb_comm: failed to connect to kernel, communication (and widgets) will not work: "
    "comm_open_ack not received in time",
    "page error: comm_open_ack not received in time",
)


def tolerated_handshake(problems, widgets_answered):
    """Splits a page's problems into (kept, tolerated): GONB_HANDSHAKE's
    errors are tolerated when the widgets answered."""
    if not widgets_answered:
        return list(problems), []
    return [p for p in problems if p not in GONB_HANDSHAKE], [p for p in problems if p in GONB_HANDSHAKE]


def drive_explorer(page, rel, ci, shots, log):
    """Waits for the explorer's controls, moves its first slider (clicks its
    first action button, if any), checks the redraws, then clicks Stop."""
    stem = Path(rel).stem
    problems = []
    wait_for(page, "(ci) => { const v = (" + VIEW_JS + ")(ci); return v && v.draw >= 1 && v.buttons.includes('Stop'); }",
             arg=ci, timeout_s=CELL_TIMEOUT, what=f"{rel}: explorer controls and first view")
    v0 = page.evaluate(VIEW_JS, ci)
    log(f"test_lab: {rel}: explorer shows {v0['sliders']} sliders, {v0['selects']} selects, "
        f"buttons {v0['buttons']}; view {v0['values']!r}")
    cell = page.query_selector_all(".jp-Notebook .jp-Cell")[ci]
    if v0["sliders"] == 0:
        return drive_select(page, rel, ci, cell, v0, shots, log)
    name = MOVE.get(stem)
    slider = None
    if name:
        row = cell.query_selector(f'.lwgcn-controls tr:has(td:text-is("{name}"))')
        slider = row and row.query_selector('input[type="range"]')
        if slider is None:
            return [f"{rel}: explorer has no slider named {name!r}"]
    else:
        slider = cell.query_selector('.lwgcn-controls input[type="range"]')
    old = int(slider.get_attribute("value") or slider.evaluate("(s) => s.value"))
    new = int(slider.evaluate("(s) => s.max"))
    if new == old:
        new = int(slider.evaluate("(s) => s.min"))
    slider.scroll_into_view_if_needed()
    # As a reader's drag ends: the value changes, then input and change fire.
    slider.evaluate("(s, v) => { s.value = String(v); s.dispatchEvent(new Event('input', {bubbles: true}));"
                    " s.dispatchEvent(new Event('change', {bubbles: true})); }", new)
    wait_for(page, "(a) => { const v = (" + VIEW_JS + ")(a.ci); return v && v.draw > a.draw; }",
             arg={"ci": ci, "draw": v0["draw"]}, timeout_s=60, what=f"{rel}: redraw after moving the slider")
    v1 = page.evaluate(VIEW_JS, ci)
    log(f"test_lab: {rel}: slider {name or 'first'} {old} -> {new}: view {v1['values']!r} (draw {v1['draw']})")
    if v1["values"] == v0["values"]:
        problems.append(f"{rel}: slider moved but the view's values did not change ({v1['values']!r})")
    if not v1["imgs"] or v1["imgs"] == v0["imgs"]:
        problems.append(f"{rel}: slider moved but the figures did not change")
    cell.screenshot(path=str(shots / f"{stem}-explorer-moved.png"))
    _, fp = figure_problems(page, shots, f"{stem}-explorer", cell_index=ci)
    problems += fp

    sel = cell.query_selector(".lwgcn-controls select")
    if sel is not None:
        # A select too (e.g. the generator): its last option, then a redraw.
        n = sel.evaluate("(s) => s.options.length")
        sel.evaluate("(s, i) => { s.selectedIndex = i; s.dispatchEvent(new Event('input', {bubbles: true}));"
                     " s.dispatchEvent(new Event('change', {bubbles: true})); }", n - 1)
        wait_for(page, "(a) => { const v = (" + VIEW_JS + ")(a.ci); return v && v.draw > a.draw; }",
                 arg={"ci": ci, "draw": v1["draw"]}, timeout_s=120, what=f"{rel}: redraw after switching the select")
        v1b = page.evaluate(VIEW_JS, ci)
        log(f"test_lab: {rel}: select -> option {n - 1}: view {v1b['values']!r} (draw {v1b['draw']})")
        if v1b["imgs"] == v1["imgs"]:
            problems.append(f"{rel}: select switched but the figures did not change")
        cell.screenshot(path=str(shots / f"{stem}-explorer-select.png"))
        v1 = v1b
    actions = [b for b in v1["buttons"] if b != "Stop"]
    if actions:
        n_texts = len(v1["texts"])
        buttons = cell.query_selector_all(".lwgcn-controls button")
        next(b for b in buttons if b.text_content() == actions[0]).click()
        wait_for(page, "(a) => { const v = (" + VIEW_JS + ")(a.ci);"
                       " return v && v.texts.some((t) => t.startsWith(a.label + ' at ')); }",
                 arg={"ci": ci, "label": actions[0]}, timeout_s=CELL_TIMEOUT,
                 what=f"{rel}: result of the {actions[0]!r} button")
        out = cell.evaluate_handle(
            "(c, label) => Array.from(c.querySelectorAll('.lwgcn-values'))"
            ".find((e) => e.textContent.startsWith(label + ' at ')).closest('.jp-OutputArea-output')",
            actions[0]).as_element()
        result = out.evaluate("(o) => ({error: o.querySelector('.lwgcn-error') ? o.querySelector('.lwgcn-error').textContent : '',"
                              " rows: Array.from(o.querySelectorAll('tbody tr')).map((r) => r.textContent.trim())})")
        log(f"test_lab: {rel}: button {actions[0]!r} done: {result}")
        if result["error"]:
            problems.append(f"{rel}: {actions[0]!r} failed: {result['error'][:300]}")
        elif not result["rows"]:
            problems.append(f"{rel}: {actions[0]!r} showed no table rows")
        out.scroll_into_view_if_needed()
        out.screenshot(path=str(shots / f"{stem}-explorer-action.png"))
        _, fp = figure_problems(page, shots, f"{stem}-action", cell_index=ci)
        problems += fp
        del n_texts
    next(b for b in cell.query_selector_all(".lwgcn-controls button") if b.text_content() == "Stop").click()
    return problems


def drive_select(page, rel, ci, cell, v0, shots, log):
    """An explorer with selects only: switch the first to its last option."""
    sel = cell.query_selector(".lwgcn-controls select")
    if sel is None:
        return [f"{rel}: explorer has no slider and no select"]
    n = sel.evaluate("(s) => s.options.length")
    sel.evaluate("(s, i) => { s.selectedIndex = i; s.dispatchEvent(new Event('input', {bubbles: true}));"
                 " s.dispatchEvent(new Event('change', {bubbles: true})); }", n - 1)
    wait_for(page, "(a) => { const v = (" + VIEW_JS + ")(a.ci); return v && v.draw > a.draw; }",
             arg={"ci": ci, "draw": v0["draw"]}, timeout_s=60, what=f"{rel}: redraw after switching the select")
    v1 = page.evaluate(VIEW_JS, ci)
    log(f"test_lab: {rel}: select -> option {n - 1}: view {v1['values']!r} (draw {v1['draw']})")
    problems = []
    if v1["values"] == v0["values"]:
        problems.append(f"{rel}: select switched but the view's values did not change")
    next(b for b in cell.query_selector_all(".lwgcn-controls button") if b.text_content() == "Stop").click()
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("notebooks", nargs="*", default=DEFAULT_NOTEBOOKS)
    ap.add_argument("--shots", default=str(REPO / "build" / "lab-screenshots"))
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    shots = Path(args.shots)
    shots.mkdir(parents=True, exist_ok=True)
    hashes = {nb: sha(REPO / nb) for nb in args.notebooks}
    problems = []
    tmp = tempfile.mkdtemp(prefix="lwgcn-lab-test-")
    lab = Lab(tmp)
    try:
        with sync_playwright() as p:
            context = check_report.launch(p, str(Path(tmp) / "chromium"))
            try:
                for nb in args.notebooks:
                    page = context.new_page()
                    page_problems = []
                    check_report.watch(context, page, page_problems, allow_origin=lab.base)
                    answered = False
                    try:
                        found, answered = run_notebook(page, lab, nb, shots, print)
                        page_problems += found
                    except Exception as e:  # a timeout, or the page not as expected
                        page.screenshot(path=str(shots / f"{Path(nb).stem}-failed.png"))
                        page_problems.append(f"{type(e).__name__}: {e}")
                    kept, tolerated = tolerated_handshake(page_problems, answered)
                    for pr in tolerated:
                        print(f"test_lab: {nb}: tolerated (its widgets answered): {pr}")
                    problems += [f"{nb}: {pr}" for pr in kept]
                    # Shut the kernel down so the next notebook starts clean.
                    page.evaluate("() => window.jupyterapp.commands.execute('kernelmenu:shutdown')")
                    page.close()
                    context.unroute("**/*")
            finally:
                context.close()
    finally:
        lab.stop()
        for nb, h in hashes.items():
            if sha(REPO / nb) != h:
                problems.append(f"{nb} was modified on disk by the test")
        if problems:
            print(f"test_lab: JupyterLab log: {lab.log_path}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    for pr in problems:
        print(f"test_lab: FAIL {pr}")
    print(f"test_lab: {len(args.notebooks)} notebook(s), {len(problems)} problem(s); screenshots in {shots}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
