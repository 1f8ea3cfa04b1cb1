"""JupyterLab browser test: the notebooks as a reader lives in them.

Starts the project's JupyterLab (kernel/lab.sh, build/venv) on a free
localhost port with a random token, autosave on (every AUTOSAVE_S seconds),
opens notebooks in headless Chromium (Debian's /usr/bin/chromium via
Playwright), runs all cells in quick mode (--full: full mode) and asserts
per notebook:

- code cells are highlighted as Go: every editor's language is Go, and a
  line that starts with // (apostrophes included) is one comment token;
- every code cell ran (an execution count) with no error output and no
  panic / failed-shell line on stderr; every figure (image/svg+xml output)
  rendered: a loaded image whose screenshot is not blank;
- the live explorer (notebook.Explorer): dragging a slider with the mouse
  changes the value beside it while the button is still down, then redraws
  the view with different figures;
- 08's Train button (the explorer's action): its output, one progress bar
  naming the model training now, then the three accuracies, sits within one
  screen of the button, and a second press replaces it in place; Stop during
  a training run answers, keeps the models already trained and says where it
  stopped; the ended explorer says so and its controls are disabled;
- no console error, and no request outside the JupyterLab server (GoNB's
  handshake timeout is tolerated, and printed, where the widgets answered:
  see GONB_HANDSHAKE).

After the session the notebooks are saved (as autosave would) and git must
show no notebook changed: lab.sh's contents manager saves them without
outputs (kernel/lab_contents.py). Latencies are printed beside the goals of
issue 36 (reported, not asserted: the machine is shared). Screenshots of
every step go to --shots (default build/lab-screenshots). Needs the
gonb-lwgcn kernel in $JUPYTER_DATA_DIR (make lab-test installs it).

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
import statistics
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
# The slider the test drags in each notebook's explorer (one that changes the
# figures); other notebooks: the first slider.
MOVE = {"02-theorem1": "tilt", "03-theorem2": "context", "08-synthetic-explorer": "homophily",
        "zz-scratch": "tilt"}
CELL_TIMEOUT = 300  # seconds for one cell in quick mode (the first compiles ~30 s cold)
PANIC = re.compile(r"^panic: |^exit status [1-9]|^signal: ", re.M)
AUTOSAVE_S = 5     # JupyterLab's autosave interval in the test (its default is 120 s)
REDRAWS = 5        # slider moves timed per explorer
STOP_ANSWER_S = 15  # Stop must show the stopped task within this many seconds

# Issue 36's goals (2-core machine, idle), printed beside what was measured.
GOALS = {
    "08 Run All -> controls live": 10.0,
    "08 Train -> all three accuracies shown": 3.0,
    "08 slider -> redrawn view (median)": 0.05,
    "02 Run All -> sliders live": 20.0,
}

# Lab settings for the test: autosave on and frequent (the tracked notebooks
# must stay clean anyway), every cell attached to the DOM (no windowing).
SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": True,
                                                                    "autosaveInterval": AUTOSAVE_S},
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


def git_changed(paths):
    """The paths git reports as changed (porcelain), or None without git."""
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--"] + list(paths), cwd=REPO,
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [l for l in out.splitlines() if l.strip()]


class Lab:
    """kernel/lab.sh on a free port with a token, settings in a temp dir."""

    def __init__(self, tmp, quick=True):
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.base = f"http://127.0.0.1:{self.port}"
        settings = Path(tmp) / "settings"
        for rel, value in SETTINGS.items():
            p = settings / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(json.dumps(value))
        env = dict(os.environ, LAB_PORT=str(self.port), LWGCN_LAB_DIR=str(Path(tmp) / "lab"),
                   JUPYTERLAB_SETTINGS_DIR=str(settings), LWGCN_QUICK="1" if quick else "")
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


def wait_for(page, predicate_js, arg=None, timeout_s=60, what="condition", polling=100):
    try:
        page.wait_for_function(predicate_js, arg=arg, timeout=timeout_s * 1000, polling=polling)
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
    handles = page.query_selector_all(".jp-Notebook .jp-Cell")
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


# Go highlighting of the code cells' editors: the language CodeMirror uses,
# and the lines that start with // that are not one comment token (the
# IPython mode makes // an operator and an apostrophe open a string).
HIGHLIGHT_JS = r"""
() => {
  const langs = [], bad = [];
  document.querySelectorAll(".jp-Notebook .jp-CodeCell .cm-content").forEach((ed, ci) => {
    langs.push(ed.getAttribute("data-language"));
    ed.querySelectorAll(".cm-line").forEach((line) => {
      const text = line.textContent;
      if (!text.trim().startsWith("//")) return;
      const spans = Array.from(line.querySelectorAll("span")).filter((s) => s.textContent.trim());
      const whole = spans.length === 1 && spans[0].textContent.trim() === text.trim();
      if (!whole) bad.push({cell: ci, text: text.trim().slice(0, 60), tokens: spans.length});
    });
  });
  return {langs, bad};
}
"""

# The explorer of cell ci: its draw counter and caption, figures, controls
# (each slider with its value beside it), buttons, and the action's output.
VIEW_JS = r"""
(ci) => {
  const cell = document.querySelectorAll(".jp-Notebook .jp-Cell")[ci];
  if (!cell) return null;
  const head = cell.querySelector("[data-lwgcn-draw]");
  const controls = cell.querySelector(".lwgcn-controls");
  const act = cell.querySelector(".lwgcn-action");
  const rows = controls ? Array.from(controls.querySelectorAll("tr")).map((tr) => ({
    name: tr.querySelector(".lwgcn-name") ? tr.querySelector(".lwgcn-name").textContent : "",
    value: tr.querySelector(".lwgcn-value") ? tr.querySelector(".lwgcn-value").textContent : "",
    slider: !!tr.querySelector('input[type="range"]'),
    disabled: !!tr.querySelector("input:disabled, select:disabled"),
  })) : [];
  return {
    draw: head ? Number(head.getAttribute("data-lwgcn-draw")) : 0,
    values: head ? head.textContent : "",
    imgs: Array.from(cell.querySelectorAll(".lwgcn-view img")).map((i) => i.getAttribute("src")),
    rows,
    sliders: rows.filter((r) => r.slider).length,
    selects: controls ? controls.querySelectorAll("select").length : 0,
    buttons: controls ? Array.from(controls.querySelectorAll("button")).map((b) => b.textContent) : [],
    disabledButtons: controls ? controls.querySelectorAll("button:disabled").length : 0,
    ended: controls ? controls.classList.contains("lwgcn-ended") : false,
    endedNote: cell.querySelector(".lwgcn-ended-note") ? cell.querySelector(".lwgcn-ended-note").textContent : "",
    action: act ? {
      state: act.getAttribute("data-lwgcn-state"), task: Number(act.getAttribute("data-lwgcn-task")),
      status: act.querySelector(".lwgcn-status") ? act.querySelector(".lwgcn-status").textContent : "",
      bars: cell.querySelectorAll(".lwgcn-progress").length,
      barLabel: act.querySelector(".lwgcn-progress span") ? act.querySelector(".lwgcn-progress span").textContent : "",
      rows: Array.from(act.querySelectorAll("table tbody tr")).map((r) => r.textContent.trim()),
      actions: cell.querySelectorAll(".lwgcn-action").length,
    } : null,
  };
}
"""

# Moves the slider named name (in cell ci) to position pos as a drag does
# (input, then change) and resolves with the milliseconds until the view's
# draw counter grows (-1 after 30 s).
TIMED_MOVE_JS = r"""
async ({ci, name, pos}) => {
  const cell = document.querySelectorAll(".jp-Notebook .jp-Cell")[ci];
  const row = Array.from(cell.querySelectorAll(".lwgcn-controls tr")).find(
    (tr) => tr.querySelector(".lwgcn-name") && tr.querySelector(".lwgcn-name").textContent === name);
  const input = row.querySelector('input[type="range"]');
  const draw = () => { const h = cell.querySelector("[data-lwgcn-draw]"); return h ? Number(h.getAttribute("data-lwgcn-draw")) : 0; };
  const d0 = draw();
  const t0 = performance.now();
  input.value = String(pos);
  input.dispatchEvent(new Event("input", {bubbles: true}));
  input.dispatchEvent(new Event("change", {bubbles: true}));
  return await new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (draw() > d0) { obs.disconnect(); resolve(performance.now() - t0); }
    });
    obs.observe(cell, {subtree: true, childList: true, attributes: true});
    setTimeout(() => { obs.disconnect(); resolve(-1); }, 30000);
  });
}
"""


class Metrics:
    """Latencies measured in the session, printed at the end."""

    def __init__(self):
        self.values = {}

    def add(self, name, seconds):
        self.values[name] = seconds

    def report(self, log):
        log("test_lab: latencies (seconds; goals of issue 36 on an idle 2-core machine, reported, not asserted):")
        for name, v in self.values.items():
            goal = GOALS.get(name)
            g = f" (goal <= {goal:g})" if goal is not None else ""
            log(f"test_lab:   {name}: {v:.3f}{g}")


def run_notebook(page, lab, rel, shots, log, metrics):
    """Opens rel, runs all cells, drives its explorer; returns the problems
    and whether the explorer's widgets answered (every check passed)."""
    stem = Path(rel).stem
    short = stem[:2]
    problems = []
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
             arg=rel, timeout_s=120, what=f"{rel} open with a connected kernel", polling=500)
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
             what=f"{rel}: cells before the explorer to finish", polling=250)
    state = page.evaluate(STATE_JS)
    for c in state["cells"]:
        problems += cell_problems(c)
    if problems:
        return problems, False
    log(f"test_lab: {rel}: {len(before)} cells ran in {time.monotonic() - start:.1f} s")

    if ex is not None:
        wait_for(page, "(ci) => { const v = (" + VIEW_JS + ")(ci); return v && v.draw >= 1 && v.buttons.includes('Stop'); }",
                 arg=ex, timeout_s=CELL_TIMEOUT, what=f"{rel}: explorer controls and first view")
        live = time.monotonic() - start
        metrics.add(f"{short} Run All -> {'controls' if short == '08' else 'sliders'} live", live)
        log(f"test_lab: {rel}: explorer live {live:.1f} s after Run All")
        problems += drive_explorer(page, rel, ex, shots, log, metrics)
        wait_for(page, "(ci) => { const s = (" + STATE_JS + ")(); const c = s && s.cells.find((c) => c.index === ci);"
                       " return c && c.count !== null; }", arg=ex, timeout_s=60,
                 what=f"{rel}: explorer cell to end after Stop", polling=250)
        after = [c["index"] for c in state["cells"]]
        wait_for(page, "(args) => { const s = (" + STATE_JS + ")();"
                       " return s.cells.filter((c) => args.includes(c.index)).every((c) => c.count !== null); }",
                 arg=after, timeout_s=CELL_TIMEOUT, what=f"{rel}: remaining cells", polling=250)
    answered = not problems
    state = page.evaluate(STATE_JS)
    for c in state["cells"]:
        problems += cell_problems(c)
        if c["count"] is None:
            problems.append(f"{rel}: cell {c['index']} ({c['source']!r}) did not run")
    # Highlighting, once the kernel's language_info has reached the notebook.
    hl = page.evaluate(HIGHLIGHT_JS)
    if not hl["langs"] or any(l != "go" for l in hl["langs"]):
        problems.append(f"{rel}: code cell editors' languages {hl['langs']}, want all 'go'")
    for b in hl["bad"]:
        problems.append(f"{rel}: code cell {b['cell']}: {b['text']!r} is not one comment token ({b['tokens']} tokens)")
    log(f"test_lab: {rel}: {len(hl['langs'])} code editors in {sorted(set(hl['langs']))}, "
        f"{len(hl['bad'])} comment line(s) not highlighted as Go")
    want = sum(c["svgs"] for c in state["cells"])
    page.screenshot(path=str(shots / f"{stem}.png"))
    n, fig_problems = figure_problems(page, shots, stem)
    problems += fig_problems
    if n < want:
        problems.append(f"{rel}: {want} SVG outputs in the model, {n} figures rendered")
    # Save, as a reader (or autosave) would: lab.sh's contents manager keeps
    # the file as committed.
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_timeout((AUTOSAVE_S + 1) * 1000)
    log(f"test_lab: {rel}: done in {time.monotonic() - start:.0f} s: {n} figures rendered "
        f"({want} SVG outputs), saved, {len(problems)} problem(s)")
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


def view(page, ci):
    return page.evaluate(VIEW_JS, ci)


def slider_of(cell, name):
    row = cell.query_selector(f'.lwgcn-controls tr:has(td.lwgcn-name:text-is("{name}"))')
    return row and row.query_selector('input[type="range"]')


def drag(page, rel, ci, cell, name, shots, stem, log):
    """Drags the slider named name with the mouse from its position towards
    its far end; returns (problems, values seen beside it while the button
    was down)."""
    slider = slider_of(cell, name)
    if slider is None:
        return [f"{rel}: explorer has no slider named {name!r}"], []
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    pos = int(slider.evaluate("(s) => s.value"))
    top = int(slider.evaluate("(s) => s.max"))
    value_of = ("(a) => { const cell = document.querySelectorAll('.jp-Notebook .jp-Cell')[a.ci];"
                " const row = Array.from(cell.querySelectorAll('.lwgcn-controls tr')).find((tr) =>"
                " tr.querySelector('.lwgcn-name') && tr.querySelector('.lwgcn-name').textContent === a.name);"
                " return row.querySelector('.lwgcn-value').textContent; }")
    before = page.evaluate(value_of, {"ci": ci, "name": name})
    thumb = 16  # Chromium's range thumb is about 16 px wide
    x_of = lambda p: box["x"] + thumb / 2 + (box["width"] - thumb) * p / max(top, 1)  # noqa: E731
    y = box["y"] + box["height"] / 2
    target = top if pos < top / 2 else 0
    page.mouse.move(x_of(pos), y)
    page.mouse.down()
    seen = []
    steps = 6
    for k in range(1, steps + 1):
        p = pos + (target - pos) * k / steps
        page.mouse.move(x_of(p), y, steps=3)
        page.wait_for_timeout(60)
        seen.append(page.evaluate(value_of, {"ci": ci, "name": name}))
        if k == steps // 2:
            cell.query_selector(".lwgcn-controls").screenshot(path=str(shots / f"{stem}-drag.png"))
    page.mouse.up()
    log(f"test_lab: {rel}: dragged {name}: value beside it {before!r} -> {seen} while the button was down")
    problems = []
    if len(set(seen) - {before}) < 2:
        problems.append(f"{rel}: dragging {name!r}: the value beside it did not follow the drag "
                        f"({before!r}, then {seen} while dragging)")
    return problems, seen


def drive_explorer(page, rel, ci, shots, log, metrics):
    """Drives the explorer of cell ci: its action (if any), a mouse drag,
    timed slider moves, its select, and Stop (during a training run when
    there is an action). Returns the problems."""
    stem = Path(rel).stem
    short = stem[:2]
    problems = []
    cell = page.query_selector_all(".jp-Notebook .jp-Cell")[ci]
    v0 = view(page, ci)
    log(f"test_lab: {rel}: explorer shows {v0['sliders']} sliders, {v0['selects']} selects, "
        f"buttons {v0['buttons']}; values beside the sliders "
        f"{[(r['name'], r['value']) for r in v0['rows'] if r['slider']]}")
    if any(r["slider"] and not r["value"] for r in v0["rows"]):
        problems.append(f"{rel}: a slider shows no value beside it: {v0['rows']}")
    cell.query_selector(".lwgcn-controls").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{stem}-live.png"))
    actions = [b for b in v0["buttons"] if b != "Stop"]
    if actions:
        problems += train(page, rel, ci, cell, actions[0], shots, log, metrics)

    # A reader's drag: the value beside the slider follows the mouse.
    name = MOVE.get(stem) or next((r["name"] for r in v0["rows"] if r["slider"]), None)
    if name is None:
        return problems + [f"{rel}: explorer has no slider"]
    before = view(page, ci)
    pr, seen = drag(page, rel, ci, cell, name, shots, stem, log)
    problems += pr
    # The view follows to the value shown beside the slider (or, when that
    # did not follow the drag, to any new value).
    wait_for(page, "(a) => { const v = (" + VIEW_JS + ")(a.ci); return v && v.draw > a.draw && (!a.value || v.values.includes(a.name + ' = ' + a.value)); }",
             arg={"ci": ci, "draw": before["draw"], "name": name, "value": "" if pr or not seen else seen[-1]}, timeout_s=60,
             what=f"{rel}: the view redrawn at the dragged value")
    v1 = view(page, ci)
    log(f"test_lab: {rel}: after the drag: view {v1['values']!r} (draw {v1['draw']})")
    if v1["values"] == before["values"]:
        problems.append(f"{rel}: slider dragged but the view's values did not change ({v1['values']!r})")
    if not v1["imgs"] or v1["imgs"] == before["imgs"]:
        problems.append(f"{rel}: slider dragged but the figures did not change")
    cell.screenshot(path=str(shots / f"{stem}-moved.png"))
    _, fp = figure_problems(page, shots, f"{stem}-explorer", cell_index=ci)
    problems += fp

    # Slider -> redrawn view, timed in the page.
    top = int(slider_of(cell, name).evaluate("(s) => s.max"))
    times = []
    for k in range(REDRAWS):
        ms = page.evaluate(TIMED_MOVE_JS, {"ci": ci, "name": name, "pos": (k * 3 + 1) % (top + 1)})
        if ms < 0:
            problems.append(f"{rel}: no redraw within 30 s of moving {name!r}")
            break
        times.append(ms / 1000)
    if times:
        metrics.add(f"{short} slider -> redrawn view (median)", statistics.median(times))
        metrics.add(f"{short} slider -> redrawn view (max of {len(times)})", max(times))

    sel = cell.query_selector(".lwgcn-controls select")
    if sel is not None:
        v1 = view(page, ci)
        n = sel.evaluate("(s) => s.options.length")
        sel.select_option(index=n - 1)
        wait_for(page, "(a) => { const v = (" + VIEW_JS + ")(a.ci); return v && v.draw > a.draw; }",
                 arg={"ci": ci, "draw": v1["draw"]}, timeout_s=120, what=f"{rel}: redraw after switching the select")
        v2 = view(page, ci)
        log(f"test_lab: {rel}: select -> option {n - 1}: view {v2['values']!r} (draw {v2['draw']})")
        if v2["imgs"] == v1["imgs"]:
            problems.append(f"{rel}: select switched but the figures did not change")
        cell.screenshot(path=str(shots / f"{stem}-select.png"))
        sel.select_option(index=0)
        wait_for(page, "(a) => { const v = (" + VIEW_JS + ")(a.ci); return v && v.draw > a.draw; }",
                 arg={"ci": ci, "draw": v2["draw"]}, timeout_s=120, what=f"{rel}: redraw after switching the select back")

    if actions:
        problems += stop_during_training(page, rel, ci, cell, actions[0], shots, log, metrics)
    else:
        click(cell, "Stop")
        problems += check_ended(page, rel, ci, cell, shots, log)
    return problems


def click(cell, label):
    next(b for b in cell.query_selector_all(".lwgcn-controls button") if b.text_content() == label).click()


def train(page, rel, ci, cell, label, shots, log, metrics):
    """Presses the action button at the default values: its output answers
    under the controls, one bar names the models in turn, the accuracies
    appear within one screen of the button; a second press replaces it."""
    stem = Path(rel).stem
    problems = []
    labels = set()
    # Every label the bar shows, as the page renders it (the models of a
    # small graph train faster than a poll could see).
    cell.evaluate("""(c) => { window.lwgcnBarLabels = [];
      new MutationObserver(() => { const s = c.querySelector('.lwgcn-action .lwgcn-progress span');
        if (s && !window.lwgcnBarLabels.includes(s.textContent)) window.lwgcnBarLabels.push(s.textContent); })
      .observe(c, {subtree: true, childList: true, characterData: true}); }""")
    t0 = time.monotonic()
    click(cell, label)
    wait_for(page, "(ci) => { const v = (" + VIEW_JS + ")(ci); return v && v.action && v.action.task === 1; }",
             arg=ci, timeout_s=30, what=f"{rel}: {label!r} to answer")
    metrics.add(f"{stem[:2]} Train -> its output answers", time.monotonic() - t0)
    while True:
        v = view(page, ci)
        a = v["action"]
        if a["barLabel"]:
            labels.add(a["barLabel"])
        if a["bars"] > 1 or a["actions"] > 1:
            problems.append(f"{rel}: {a['bars']} progress bars and {a['actions']} action outputs while training (want 1)")
            break
        if a["state"] == "running" and len(labels) == 1:
            cell.screenshot(path=str(shots / f"{stem}-train-running.png"))
        if a["state"] != "running":
            break
        if time.monotonic() - t0 > CELL_TIMEOUT:
            problems.append(f"{rel}: {label!r} still running after {CELL_TIMEOUT} s")
            return problems
        page.wait_for_timeout(50)
    took = time.monotonic() - t0
    labels |= set(page.evaluate("() => window.lwgcnBarLabels"))
    a = view(page, ci)["action"]
    log(f"test_lab: {rel}: {label!r} {a['state']} in {took:.1f} s: {a['status']!r}; bar labels seen {sorted(labels)}; "
        f"rows {a['rows']}")
    if a["state"] != "done":
        return problems + [f"{rel}: {label!r} ended {a['state']}: {a['status']}"]
    metrics.add(f"{stem[:2]} Train -> all three accuracies shown", took)
    if len(a["rows"]) != 3:
        problems.append(f"{rel}: {label!r} showed {len(a['rows'])} rows, want 3: {a['rows']}")
    for model in ("MLP", "GCN", "LW-GCN\\G"):
        if not any(l.startswith(model + " (") for l in labels):
            problems.append(f"{rel}: the progress bar never named {model} (labels seen: {sorted(labels)})")
    # Within one screen: from the top of the button to the bottom of the table.
    button = next(b for b in cell.query_selector_all(".lwgcn-controls button") if b.text_content() == label)
    button.scroll_into_view_if_needed()
    top = button.bounding_box()["y"]
    table = cell.query_selector(".lwgcn-action table").bounding_box()
    span = table["y"] + table["height"] - top
    height = page.viewport_size["height"]
    log(f"test_lab: {rel}: button top to the accuracies' bottom: {span:.0f} px (screen {height} px)")
    if span > height:
        problems.append(f"{rel}: the accuracies end {span:.0f} px below the {label!r} button, more than one screen ({height} px)")
    page.mouse.move(0, 0)
    page.screenshot(path=str(shots / f"{stem}-train-done.png"))
    return problems


def stop_during_training(page, rel, ci, cell, label, shots, log, metrics):
    """A larger graph, Train, then Stop once a model has finished: Stop
    answers, the finished models stay, the explorer ends greyed."""
    stem = Path(rel).stem
    problems = []
    # The largest SBM trains longest: room to press Stop mid-run.
    nodes = slider_of(cell, "nodes")
    if nodes is not None:
        d = view(page, ci)["draw"]
        page.evaluate(TIMED_MOVE_JS, {"ci": ci, "name": "nodes", "pos": int(nodes.evaluate("(s) => s.max"))})
        wait_for(page, "(a) => { const v = (" + VIEW_JS + ")(a.ci); return v && v.draw > a.draw; }",
                 arg={"ci": ci, "draw": d}, timeout_s=120, what=f"{rel}: redraw at the largest graph")
    task = view(page, ci)["action"]["task"]
    click(cell, label)
    wait_for(page, "(a) => { const v = (" + VIEW_JS + ")(a.ci); return v && v.action && v.action.task === a.task + 1; }",
             arg={"ci": ci, "task": task}, timeout_s=30, what=f"{rel}: second press to replace the output")
    v = view(page, ci)
    if v["action"]["actions"] != 1 or v["action"]["bars"] > 1:
        problems.append(f"{rel}: after a second press {v['action']['actions']} action outputs, {v['action']['bars']} bars (want 1 and 1)")
    # Wait for a finished model while the run goes on, then Stop.
    wait_for(page, "(ci) => { const v = (" + VIEW_JS + ")(ci); return v.action.state !== 'running' || v.action.rows.length >= 1; }",
             arg=ci, timeout_s=CELL_TIMEOUT, what=f"{rel}: a first model trained")
    v = view(page, ci)
    if v["action"]["state"] != "running":
        return problems + [f"{rel}: training ended ({v['action']['state']}) before Stop could be pressed; "
                           f"rows {v['action']['rows']}"]
    cell.screenshot(path=str(shots / f"{stem}-stop-before.png"))
    t0 = time.monotonic()
    click(cell, "Stop")
    wait_for(page, "(ci) => { const v = (" + VIEW_JS + ")(ci); return v.action.state === 'stopped'; }",
             arg=ci, timeout_s=STOP_ANSWER_S, what=f"{rel}: Stop to answer during training")
    took = time.monotonic() - t0
    metrics.add(f"{stem[:2]} Stop during training -> stopped shown", took)
    a = view(page, ci)["action"]
    log(f"test_lab: {rel}: Stop answered in {took:.2f} s: {a['status']!r}; kept rows {a['rows']}")
    if not a["rows"]:
        problems.append(f"{rel}: Stop kept no result (status {a['status']!r})")
    if "stopped by Stop" not in a["status"] or ", during " not in a["status"]:
        problems.append(f"{rel}: the stopped output does not say where it stopped: {a['status']!r}")
    problems += check_ended(page, rel, ci, cell, shots, log)
    return problems


def check_ended(page, rel, ci, cell, shots, log):
    """The explorer says it has ended, its controls disabled and greyed."""
    stem = Path(rel).stem
    wait_for(page, "(ci) => { const v = (" + VIEW_JS + ")(ci); return v && v.ended; }", arg=ci, timeout_s=30,
             what=f"{rel}: the explorer to end")
    v = view(page, ci)
    log(f"test_lab: {rel}: ended: {v['endedNote']!r}; {sum(r['disabled'] for r in v['rows'])} of "
        f"{len(v['rows'])} controls and {v['disabledButtons']} of {len(v['buttons'])} buttons disabled")
    problems = []
    if not v["endedNote"].startswith("Explorer ended."):
        problems.append(f"{rel}: the ended explorer's note is {v['endedNote']!r}")
    if not all(r["disabled"] for r in v["rows"]) or v["disabledButtons"] != len(v["buttons"]):
        problems.append(f"{rel}: the ended explorer's controls are not all disabled: {v['rows']}, buttons {v['buttons']}")
    cell.query_selector(".lwgcn-controls").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"{stem}-ended.png"))
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("notebooks", nargs="*", default=DEFAULT_NOTEBOOKS)
    ap.add_argument("--shots", default=str(REPO / "build" / "lab-screenshots"))
    ap.add_argument("--full", action="store_true",
                    help="full mode (no LWGCN_QUICK): the sizes issue 36's latency goals are stated for")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    shots = Path(args.shots)
    shots.mkdir(parents=True, exist_ok=True)
    hashes = {nb: sha(REPO / nb) for nb in args.notebooks}
    changed_before = git_changed(args.notebooks)
    problems = []
    metrics = Metrics()
    tmp = tempfile.mkdtemp(prefix="lwgcn-lab-test-")
    lab = Lab(tmp, quick=not args.full)
    print(f"test_lab: {'full' if args.full else 'quick'} mode, JupyterLab at {lab.base}")
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
                        found, answered = run_notebook(page, lab, nb, shots, print, metrics)
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
                problems.append(f"{nb} was modified on disk by the session")
        changed = git_changed(args.notebooks)
        if changed is not None and changed != changed_before:
            problems.append(f"git status changed by the session: {changed} (before: {changed_before})")
        elif changed is not None:
            print(f"test_lab: git status of the notebooks after the session: {changed or 'clean'}")
        if problems:
            print(f"test_lab: JupyterLab log: {lab.log_path}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    metrics.report(print)
    for pr in problems:
        print(f"test_lab: FAIL {pr}")
    print(f"test_lab: {len(args.notebooks)} notebook(s), {len(problems)} problem(s); screenshots in {shots}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
