#!/usr/bin/python3
"""Headless runner for the lwgcn notebooks (GoNB kernel).

Executes notebooks one after the other with nbclient, checks every code cell
for failures GoNB does not always report as errors, and writes, per notebook,
the executed .ipynb, an offline HTML rendering and the kernel's log, plus an
index.html and summary.json, into the output folder (default <repo>/report).

A cell fails on: an error output (compile errors, Go panics, special-command
errors), a line starting with "panic: " in any output, a stderr line
"exit status N" with N != 0 or "signal: NAME" (a `!shell` command that failed
or was killed; GoNB only prints these), a cell timeout, or the kernel dying.

Every code cell's time is recorded, and whether the Go program GoNB built for
it links GoMLX (read from the binary with `go version -m`): a cell that only
shows a table should not pay for linking GoMLX (seconds per cell), which it
does when a declaration it inherits from an earlier cell (a var's
initialiser, a helper) uses a package that does. Such a cell is reported
("links GoMLX but uses none of its packages"); with --check-links it fails
the notebook.
Execution of a notebook stops at its first failing cell; the remaining
notebooks still run (unless --fail-fast). Exit status: 0 all passed, 1 some
notebook failed, 2 bad usage or setup.

Run with Debian's Python (/usr/bin/python3): it needs python3-nbclient,
python3-nbconvert and python3-nbformat. See kernel/README.md.
"""

import argparse
import asyncio
import base64
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from jinja2 import DictLoader
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
from nbconvert import HTMLExporter

try:
    from jinja2 import pass_context
except ImportError:  # jinja2 < 3
    from jinja2 import contextfilter as pass_context

KERNEL_DIR = Path(__file__).resolve().parent
REPO = KERNEL_DIR.parent
DEFAULT_KERNEL = os.environ.get("LWGCN_KERNEL_NAME", "gonb-lwgcn")
DEFAULT_TIMEOUT = 1800  # seconds per cell: full-size training sweeps are slow on the Go backend
DEFAULT_STARTUP_TIMEOUT = 180  # seconds for the kernel to answer kernel_info
ERROR_LINES = 15  # lines of error text quoted in failure messages

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PANIC = re.compile(r"^panic: ", re.M)
EXIT_STATUS = re.compile(r"^exit status (\d+)\s*$", re.M)
SIGNAL = re.compile(r"^signal: \w[\w ]*$", re.M)
EXTERNAL_SCRIPT = re.compile(
    r"<script\b[^>]*\bsrc\s*=\s*[\"']?\s*(?:https?:)?//[^\"'\s>]*", re.I)
EXTERNAL_LINK = re.compile(
    r"<link\b[^>]*\bhref\s*=\s*[\"']?\s*(?:https?:)?//[^\"'\s>]*", re.I)

# The lab template minus everything it would fetch at view time: require.js,
# MathJax (math is converted to MathML when the report is written, see
# MathMLMarkdown) and the widget manager. CSS is inlined by the lab template.
OFFLINE_TEMPLATE = r"""
{%- extends 'index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block html_head_js_mathjax -%}
<style type="text/css">
math[display="block"] { display: block; margin: 0.6em 0; text-align: center; }
.jp-RenderedHTMLCommon math { font-size: 1.1em; }
/* A figure wider than the output area scales down to it (aspect kept) instead of being cut. */
.lwgcn-figure img { max-width: 100%; height: auto; }
</style>
{%- endblock html_head_js_mathjax -%}
{% block jupyter_widgets %}{% endblock jupyter_widgets %}
{#- SVG outputs as images with the exact SVG document as a data: URI. nbconvert's
    default passes them through its HTML sanitiser, which keeps the <svg> tag
    and its <title> but strips every drawn element (a blank figure). An <img>
    also keeps each figure's ids and styles apart from the page's. -#}
{% block data_svg scoped -%}
<div class="jp-RenderedSVG jp-OutputArea-output lwgcn-figure {{ extra_class }}" data-mime-type="image/svg+xml">
<img src="{{ output.data['image/svg+xml'] | svg_data_uri }}" alt="{{ output.data['image/svg+xml'] | svg_title | escape_html }}"{{ output.data['image/svg+xml'] | svg_size_attrs }}>
</div>
{%- endblock data_svg %}
"""


SVG_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
SVG_ROOT = re.compile(r"<svg\b[^>]*>", re.S)
SVG_DIM = re.compile(r"""\b(width|height)\s*=\s*["']\s*([0-9.]+)(?:px)?\s*["']""")


def svg_text(svg):
    return "".join(svg) if isinstance(svg, list) else svg


def svg_data_uri(svg):
    """The SVG document, byte for byte, as a base64 data: URI."""
    data = base64.b64encode(svg_text(svg).encode("utf-8")).decode("ascii")
    return f"data:image/svg+xml;base64,{data}"


def svg_title(svg):
    """The SVG's <title> (unescaped), or "figure": the image's alt text."""
    m = SVG_TITLE.search(svg_text(svg))
    return html.unescape(m.group(1).strip()) if m and m.group(1).strip() else "figure"


def svg_size_attrs(svg):
    """ width="W" height="H" from the root <svg>, so the page lays out before
    the image decodes; empty if the root has no plain sizes."""
    m = SVG_ROOT.search(svg_text(svg))
    if not m:
        return ""
    dims = dict(SVG_DIM.findall(m.group(0)))
    return "".join(f' {k}="{dims[k]}"' for k in ("width", "height") if k in dims)


def log(msg):
    print(msg, flush=True)


def strip_ansi(text):
    return ANSI.sub("", text)


def output_text(out):
    """Plain text of one output, for failure checks and messages."""
    kind = out.get("output_type")
    if kind == "stream":
        return out.get("text", "")
    if kind == "error":
        tb = out.get("traceback") or []
        return "\n".join(tb) if tb else f"{out.get('ename', '')}: {out.get('evalue', '')}"
    data = out.get("data", {})
    text = data.get("text/plain", "")
    return "".join(text) if isinstance(text, list) else text


def first_lines(text, n=ERROR_LINES):
    lines = [l.rstrip() for l in strip_ansi(text).strip("\n").splitlines()]
    if len(lines) > n:
        lines = lines[:n] + [f"... ({len(lines) - n} more lines)"]
    return "\n".join(lines)


def coalesce_streams(outputs):
    """Outputs with consecutive stream chunks of the same stream merged (GoNB
    sends a program's output in many small messages)."""
    merged = []
    for out in outputs:
        if (out.get("output_type") == "stream" and merged
                and merged[-1].get("output_type") == "stream"
                and merged[-1].get("name") == out.get("name")):
            merged[-1]["text"] = merged[-1].get("text", "") + out.get("text", "")
        else:
            merged.append(nbformat.from_dict(dict(out)) if isinstance(out, dict) else out)
    return merged


def find_problem(cell):
    """(reason, excerpt) for the first failure sign in an executed cell, or None."""
    outs = coalesce_streams(cell.get("outputs", []))
    for out in outs:
        text = strip_ansi(output_text(out))
        m = PANIC.search(text)
        if m:
            return "panic", text[m.start():]
    errors = [o for o in outs if o.get("output_type") == "error"]
    if errors:
        return "error", "\n".join(strip_ansi(output_text(o)) for o in errors)
    stderr = "".join(o.get("text", "") for o in outs
                     if o.get("output_type") == "stream" and o.get("name") == "stderr")
    stderr = strip_ansi(stderr)
    for m in EXIT_STATUS.finditer(stderr):
        if int(m.group(1)) != 0:
            return f"exit status {m.group(1)}", stderr
    m = SIGNAL.search(stderr)
    if m:
        return m.group(0), stderr
    return None


class CellFailure(Exception):
    def __init__(self, cell_index, execution_count, reason, excerpt, source):
        super().__init__(reason)
        self.cell_index = cell_index
        self.execution_count = execution_count
        self.reason = reason
        self.excerpt = excerpt
        self.source = source


class GuardedClient(NotebookClient):
    """NotebookClient that prints per-cell progress and raises CellFailure on
    any failure sign (not only execute_reply errors)."""

    def __init__(self, nb, progress_prefix="", work_dir=None, heavy=None, **kw):
        super().__init__(nb, **kw)
        self.progress_prefix = progress_prefix
        self.code_total = sum(1 for c in nb.cells if c.cell_type == "code" and c.source.strip())
        self.code_done = 0
        self.work_dir = work_dir  # GoNB's temp dir lives here (the kernel's TMPDIR)
        self.heavy = heavy        # names that bring GoMLX in (gomlx_names), or None
        self.cells = []           # per code cell: index, seconds, gomlx (bool or None), needs_gomlx

    async def async_execute_cell(self, cell, cell_index, execution_count=None, store_history=True):
        if cell.cell_type != "code" or not cell.source.strip():
            return await super().async_execute_cell(cell, cell_index, execution_count, store_history)
        start = time.monotonic()
        start_wall = time.time()
        problem = None
        try:
            cell = await super().async_execute_cell(cell, cell_index, execution_count, store_history)
        except CellTimeoutError:
            problem = ("timeout", f"cell did not finish within {self.timeout} s "
                                  "(raise it with --timeout)")
        except DeadKernelError:
            problem = ("kernel died", "the kernel process exited during the cell; see the kernel log")
        except CellExecutionError as e:
            problem = find_problem(cell) or ("error", str(e))
        else:
            problem = find_problem(cell)
        self.code_done += 1
        took = time.monotonic() - start
        status = "ok" if problem is None else f"FAILED ({problem[0]})"
        links = cell_binary_links_gomlx(self.work_dir, start_wall) if self.work_dir else None
        needs = uses_names(cell.source, self.heavy) if self.heavy is not None else None
        self.cells.append({"cell": cell_index, "seconds": round(took, 1), "gomlx": links,
                           "needs_gomlx": needs})
        linked = {None: "", True: ", links GoMLX", False: ", no GoMLX"}[links]
        log(f"{self.progress_prefix}  cell {cell_index} (code {self.code_done}/{self.code_total}) "
            f"{status} in {took:.1f} s{linked}")
        if problem is not None:
            raise CellFailure(cell_index, cell.get("execution_count") or self.code_cells_executed,
                              problem[0], problem[1],
                              cell.source)
        return cell


def cell_binary_links_gomlx(work_dir, since):
    """Whether the program GoNB built for a cell (its binary, under the
    kernel's TMPDIR, written after since) links GoMLX; None when the cell
    built no program (a shell command, a declarations-only cell)."""
    newest = None
    for d in Path(work_dir).glob("gonb_*"):
        b = d / d.name
        try:
            m = b.stat().st_mtime
        except OSError:
            continue
        if m >= since - 1 and (newest is None or m > newest[0]):
            newest = (m, b)
    if newest is None:
        return None
    try:
        info = subprocess.run(["go", "version", "-m", str(newest[1])], capture_output=True, text=True,
                              timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return bool(re.search(r"^\s+dep\s+github\.com/gomlx/gomlx\s", info, re.M))


IMPORT_LINE = re.compile(r'^\s*(?:import\s+)?(?:([A-Za-z_][A-Za-z0-9_]*)\s+)?"([^"]+)"\s*$', re.M)


def gomlx_names(nb, linking):
    """The package names (import aliases, and the last path element of every
    package in linking) a cell of nb can use that bring GoMLX in; linking is
    the set of import paths that do (module_gomlx_packages)."""
    names = {p.rsplit("/", 1)[-1] for p in linking}
    for c in nb.cells:
        if c.cell_type != "code":
            continue
        for alias, path in IMPORT_LINE.findall(c.source):
            if path in linking or path.startswith("github.com/gomlx/"):
                names.add(alias or path.rsplit("/", 1)[-1])
    return names


def uses_names(source, names):
    """Whether Go source refers to name.Something for one of names."""
    return any(re.search(rf"\b{re.escape(n)}\.[A-Za-z_]", source) for n in names)


def module_gomlx_packages():
    """Import paths of this module's packages that link GoMLX (`go list`),
    or None when go cannot say."""
    try:
        out = subprocess.run(["go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "./lwgcn/..."],
                             cwd=REPO, capture_output=True, text=True, timeout=300, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = set()
    for line in out.splitlines():
        pkg, _, deps = line.partition(" ")
        if pkg.startswith("github.com/gomlx/") or any(d.startswith("github.com/gomlx/gomlx") for d in deps.split()):
            found.add(pkg)
    return found


class OfflineHTMLExporter(HTMLExporter):
    """HTMLExporter whose output loads nothing from the network. Markdown cells
    are rendered by pandoc (GFM + $-math) with math as MathML, which browsers
    display natively; without pandoc, math stays as readable LaTeX source."""

    rendered_markdown = {}

    @pass_context
    def markdown2html(self, context, source):
        rendered = self.rendered_markdown.get(source)
        if rendered is not None:
            return rendered
        return super().markdown2html(context, source)


PANDOC_SEP = "<!-- lwgcn-runner-cell-separator -->"


def pandoc_markdown(sources):
    """{source: html} for markdown sources pandoc can render with MathML; one
    pandoc process for all of them, per-cell fallback if the split fails."""
    sources = list(dict.fromkeys(s for s in sources if s.strip()))
    if not sources:
        return {}

    def run(text):
        return subprocess.run(
            ["pandoc", "-f", "gfm+tex_math_dollars", "-t", "html", "--mathml"],
            input=text, capture_output=True, text=True, check=True, timeout=120).stdout

    try:
        parts = run(f"\n\n{PANDOC_SEP}\n\n".join(sources)).split(PANDOC_SEP)
        if len(parts) == len(sources):
            return dict(zip(sources, parts))
        return {s: run(s) for s in sources}
    except (OSError, subprocess.SubprocessError):
        return {}


def markdown_sources(nb):
    """Markdown of the notebook: its markdown cells (without attachments) and
    text/markdown outputs (e.g. notebook.Markdown), for pandoc."""
    for c in nb.cells:
        if c.cell_type == "markdown" and not c.get("attachments"):
            yield c.source
        elif c.cell_type == "code":
            for out in c.get("outputs", []):
                md = out.get("data", {}).get("text/markdown")
                if md:
                    yield svg_text(md)


def write_atomic(path, data):
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def render_html(nb, name, nb_dir):
    exporter = OfflineHTMLExporter(
        template_name="lab",
        extra_loaders=[DictLoader({"lwgcn_offline.html.j2": OFFLINE_TEMPLATE})],
        template_file="lwgcn_offline.html.j2",
        filters={"svg_data_uri": svg_data_uri, "svg_title": svg_title,
                 "svg_size_attrs": svg_size_attrs},
    )
    exporter.rendered_markdown = pandoc_markdown(markdown_sources(nb))
    body, _ = exporter.from_notebook_node(
        nb, resources={"metadata": {"name": name, "path": str(nb_dir)}})
    warnings = sorted(set(m.group(0) for m in EXTERNAL_SCRIPT.finditer(body)) |
                      set(m.group(0) for m in EXTERNAL_LINK.finditer(body)))
    return body, warnings


CLONE_JUPYTER = REPO / "build" / "jupyter"


def use_clone_kernels():
    """Puts this clone's kernelspecs (kernel/install.sh writes them to
    build/jupyter) first on JUPYTER_PATH, so that a kernel of the same name
    elsewhere (another clone's, a user-wide one) is not used. Left alone when
    JUPYTER_DATA_DIR is set: install.sh then installs there."""
    if os.environ.get("JUPYTER_DATA_DIR"):
        return
    paths = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    if str(CLONE_JUPYTER) not in paths:
        os.environ["JUPYTER_PATH"] = os.pathsep.join([str(CLONE_JUPYTER)] + paths)


def ensure_kernel(name):
    """Installs the kernel with kernel/install.sh if its kernelspec or binary is missing."""
    try:
        spec = KernelSpecManager().get_kernel_spec(name)
        if spec.argv and os.access(spec.argv[0], os.X_OK):
            return
        log(f"kernel '{name}': {spec.argv[0] if spec.argv else 'argv'} missing; reinstalling")
    except NoSuchKernel:
        log(f"kernel '{name}' not installed; running kernel/install.sh")
    env = dict(os.environ, LWGCN_KERNEL_NAME=name)
    subprocess.run(["bash", str(KERNEL_DIR / "install.sh")], check=True, env=env)
    KernelSpecManager().get_kernel_spec(name)  # raises if still missing


def run_one(path, out_dir, args, prefix):
    """Executes one notebook; returns its summary dict."""
    name = path.stem
    nb = nbformat.read(str(path), as_version=4)
    kernel_log = out_dir / f"{name}.kernel.log"
    # A private TMPDIR holds GoNB's work dir and named pipes (GoNB leaves some
    # pipes behind after failed cells); it is removed with the kernel.
    kernel_tmp = tempfile.mkdtemp(prefix="lwgcn-nb-")
    linking = getattr(args, "gomlx_packages", None)
    client = GuardedClient(
        nb,
        progress_prefix=prefix,
        work_dir=kernel_tmp,
        heavy=gomlx_names(nb, linking) if linking is not None else None,
        timeout=args.timeout,
        startup_timeout=args.startup_timeout,
        kernel_name=args.kernel,
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=True,
    )
    result = {"notebook": str(path), "name": name, "status": "ok", "reason": "",
              "failed_cell": None, "execution_count": None, "message": "",
              "cells_total": client.code_total, "cells_run": 0, "warnings": []}
    start = time.monotonic()
    env = dict(os.environ, TMPDIR=kernel_tmp)
    with open(kernel_log, "w", encoding="utf-8") as klog:
        try:
            client.execute(env=env, stdout=klog, stderr=klog)
        except CellFailure as f:
            src = [l.strip() for l in f.source.splitlines()]
            src = [l for l in src if l and l not in ("%%", "%main")]
            src_line = src[0] if src else ""
            result.update(status="failed", reason=f.reason, failed_cell=f.cell_index,
                          execution_count=f.execution_count, message=first_lines(f.excerpt),
                          source_first_line=src_line)
        except Exception as e:  # kernel did not start, etc.
            result.update(status="failed", reason=type(e).__name__,
                          message=first_lines(f"{e}\n(see {kernel_log})"))
        finally:
            shutil.rmtree(kernel_tmp, ignore_errors=True)
    result["duration_s"] = round(time.monotonic() - start, 1)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = coalesce_streams(cell.outputs)
    result["cells_run"] = client.code_done
    result["cells"] = client.cells
    heavy = [c["cell"] for c in client.cells if c["gomlx"] and c["needs_gomlx"] is False]
    result["needless_gomlx"] = heavy
    if heavy:
        msg = (f"cell(s) {', '.join(map(str, heavy))} link GoMLX but use none of its packages "
               "(a declaration they inherit from an earlier cell does)")
        if getattr(args, "check_links", False) and result["status"] == "ok":
            result.update(status="failed", reason="needless GoMLX link", failed_cell=heavy[0], message=msg)
        else:
            result.setdefault("notes", []).append(msg)

    nb.metadata.setdefault("lwgcn", {})["run"] = {
        "status": result["status"], "quick": args.quick, "duration_s": result["duration_s"],
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    write_atomic(out_dir / f"{name}.ipynb", nbformat.writes(nb))
    result["ipynb"] = f"{name}.ipynb"
    result["kernel_log"] = kernel_log.name
    export(nb, name, path.parent, out_dir, result)
    return result


def notebook_figures(nb):
    """The SVG documents of a notebook's outputs, in order, with their titles."""
    figs = []
    for c in nb.cells:
        if c.cell_type != "code":
            continue
        for out in c.get("outputs", []):
            svg = out.get("data", {}).get("image/svg+xml")
            if svg:
                figs.append((svg_text(svg), svg_title(svg)))
    return figs


def export(nb, name, nb_dir, out_dir, result):
    """Writes NAME.html and the figures (figures/NAME-K.svg, thumbnails for the
    index) of an executed notebook; records them and any warning in result."""
    result["figures"] = []
    fig_dir = out_dir / "figures"
    for old in fig_dir.glob(f"{glob_escape(name)}-*.svg"):
        old.unlink()
    figs = notebook_figures(nb)
    if figs:
        fig_dir.mkdir(exist_ok=True)
    for k, (svg, title) in enumerate(figs, 1):
        rel = f"figures/{name}-{k}.svg"
        write_atomic(out_dir / rel, svg)
        result["figures"].append({"file": rel, "title": title})
    try:
        body, warnings = render_html(nb, name, nb_dir)
        write_atomic(out_dir / f"{name}.html", body)
        result["html"] = f"{name}.html"
        result["warnings"] = [f"HTML loads external resource: {w}" for w in warnings]
    except Exception as e:
        result["html"] = None
        result["warnings"] = [f"HTML rendering failed: {type(e).__name__}: {e}"]


def glob_escape(name):
    return re.sub(r"([*?\[])", r"[\1]", name)


def render_only(path, out_dir, args):
    """Re-exports an already executed notebook (no kernel); its run status
    comes from the metadata the runner wrote, else it counts as ok."""
    name = path.stem
    nb = nbformat.read(str(path), as_version=4)
    run = nb.metadata.get("lwgcn", {}).get("run", {})
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    result = {"notebook": str(path), "name": name, "status": run.get("status", "ok"),
              "reason": "" if run.get("status", "ok") == "ok" else "failed when executed",
              "failed_cell": None, "execution_count": None, "message": "",
              "cells_total": len(code),
              "cells_run": sum(1 for c in code if c.get("execution_count")),
              "duration_s": float(run.get("duration_s", 0.0)), "warnings": []}
    if path.resolve() != (out_dir / f"{name}.ipynb").resolve():
        write_atomic(out_dir / f"{name}.ipynb", nbformat.writes(nb))
    result["ipynb"] = f"{name}.ipynb"
    export(nb, name, path.parent, out_dir, result)
    return result


def write_index(out_dir, results, args, total_s):
    rows = []
    for r in results:
        status = "ok" if r["status"] == "ok" else f"FAILED: {r['reason']}"
        links = " · ".join(
            f'<a href="{html.escape(r[k])}">{label}</a>'
            for k, label in (("html", "html"), ("ipynb", "ipynb"), ("kernel_log", "kernel log"))
            if r.get(k))
        detail = ""
        if r["status"] != "ok":
            where = f"cell {r['failed_cell']}" if r["failed_cell"] is not None else "kernel"
            detail = f"<b>{html.escape(where)}</b><pre>{html.escape(r['message'])}</pre>"
        for w in r["warnings"]:
            detail += f'<div class="warn">{html.escape(w)}</div>'
        page = html.escape(r.get("html") or r.get("ipynb") or "")
        thumbs = "".join(
            f'<a href="{page}" title="{html.escape(f["title"])}"><img class="thumb" '
            f'src="{html.escape(f["file"])}" alt="{html.escape(f["title"])}"></a>'
            for f in r.get("figures", []))
        nfig = len(r.get("figures", []))
        rows.append(
            f'<tr class="{"ok" if r["status"] == "ok" else "bad"}">'
            f"<td><a href=\"{page}\">{html.escape(r['name'])}</a></td><td>{html.escape(status)}</td>"
            f"<td>{r['duration_s']:.1f} s</td><td>{r['cells_run']}/{r['cells_total']}</td>"
            f"<td>{links}</td><td>{nfig}<div class=\"thumbs\">{thumbs}</div>{detail}</td></tr>")
    failed = sum(r["status"] != "ok" for r in results)
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>lwgcn notebook report</title>
<style>
body {{ font-family: sans-serif; margin: 2em; }}
table {{ border-collapse: collapse; }}
td, th {{ border: 1px solid #ccc; padding: 0.3em 0.6em; vertical-align: top; text-align: left; }}
tr.ok td:nth-child(2) {{ color: #1a7f37; }} tr.bad td:nth-child(2) {{ color: #cf222e; font-weight: bold; }}
pre {{ margin: 0.3em 0; font-size: 0.85em; white-space: pre-wrap; max-width: 60em; }}
.warn {{ color: #9a6700; font-size: 0.85em; }}
.thumbs {{ display: flex; flex-wrap: wrap; gap: 4px; max-width: 60em; }}
img.thumb {{ width: 150px; height: 110px; object-fit: contain; border: 1px solid #ddd; background: #fff; }}
</style></head><body>
<h1>lwgcn notebook report</h1>
<p>{len(results) - failed} of {len(results)} notebooks passed in {total_s:.0f} s
({'quick mode, LWGCN_QUICK=1' if args.quick else 'full mode'}; kernel {html.escape(args.kernel)};
finished {html.escape(time.strftime('%Y-%m-%d %H:%M:%S %Z'))}).</p>
<table><tr><th>notebook</th><th>status</th><th>duration</th><th>code cells run</th><th>output</th><th>figures, details</th></tr>
{chr(10).join(rows)}
</table></body></html>
"""
    write_atomic(out_dir / "index.html", page)
    summary = {"quick": args.quick, "kernel": args.kernel, "duration_s": round(total_s, 1),
               "passed": len(results) - failed, "failed": failed, "notebooks": results}
    write_atomic(out_dir / "summary.json", json.dumps(summary, indent=1) + "\n")


def collect(paths):
    found = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found.extend(sorted(p.glob("*.ipynb")))
        elif p.is_file():
            found.append(p)
        else:
            raise SystemExit(f"run_notebooks: no such notebook or folder: {p}")
    found = [p.resolve() for p in found]
    stems = {}
    for p in found:
        if p.stem in stems and stems[p.stem] != p:
            raise SystemExit(f"run_notebooks: two notebooks named {p.stem}: {stems[p.stem]} and {p} "
                             "(outputs would collide; run them separately with --out)")
        stems[p.stem] = p
    return list(dict.fromkeys(found))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("notebooks", nargs="*",
                    help="notebooks or folders (default: <repo>/notebooks/*.ipynb, sorted)")
    ap.add_argument("--out", default=str(REPO / "report"),
                    help="output folder (default: %(default)s)")
    ap.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT,
                    help="seconds per cell before it counts as failed (default: %(default)s)")
    ap.add_argument("--startup-timeout", type=int, default=DEFAULT_STARTUP_TIMEOUT,
                    help="seconds for the kernel to start (default: %(default)s)")
    ap.add_argument("--quick", action="store_true",
                    help="set LWGCN_QUICK=1 for the kernel (fewer epochs, splits and sweep points)")
    ap.add_argument("--kernel", default=DEFAULT_KERNEL, help="kernelspec name (default: %(default)s)")
    ap.add_argument("--fail-fast", action="store_true", help="stop after the first failing notebook")
    ap.add_argument("--check-links", action="store_true",
                    help="fail a notebook whose cell links GoMLX without using any of its packages")
    ap.add_argument("--no-install", action="store_true",
                    help="do not run kernel/install.sh when the kernel is missing")
    ap.add_argument("--render-only", action="store_true",
                    help="only re-export already executed notebooks (HTML, figures, index); "
                         "no kernel is started")
    args = ap.parse_args(argv)
    if args.timeout <= 0 or args.startup_timeout <= 0:
        ap.error("timeouts must be positive")

    notebooks = collect(args.notebooks or [REPO / "notebooks"])
    if not notebooks:
        log(f"run_notebooks: no notebooks found in {', '.join(map(str, args.notebooks or [REPO / 'notebooks']))}")
        return 2
    out_dir = Path(args.out).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)

    # The kernel inherits this process's environment (kernelspec env on top).
    # No front end answers GoNB's widgets here: notebook.Explorer shows its
    # default state and returns instead of waiting (lwgcn/notebook).
    os.environ["LWGCN_HEADLESS"] = "1"
    use_clone_kernels()
    if args.quick:
        os.environ["LWGCN_QUICK"] = "1"
    else:
        os.environ.pop("LWGCN_QUICK", None)
    try:
        if args.render_only:
            pass
        elif args.no_install:
            KernelSpecManager().get_kernel_spec(args.kernel)
        else:
            ensure_kernel(args.kernel)
    except (NoSuchKernel, subprocess.CalledProcessError) as e:
        log(f"run_notebooks: kernel '{args.kernel}' unavailable: {e}")
        return 2

    args.gomlx_packages = None if args.render_only else module_gomlx_packages()
    log(f"run_notebooks: {len(notebooks)} notebook(s), kernel {args.kernel}, "
        f"{'quick' if args.quick else 'full'} mode, cell timeout {args.timeout} s, output {out_dir}")
    results = []
    start = time.monotonic()
    for i, path in enumerate(notebooks, 1):
        prefix = f"[{i}/{len(notebooks)}]"
        rel = os.path.relpath(path) if path.is_relative_to(Path.cwd()) else str(path)
        log(f"{prefix} {rel}: running")
        r = (render_only(path, out_dir, args) if args.render_only
             else run_one(path, out_dir, args, prefix))
        r["notebook"] = rel
        results.append(r)
        if r["status"] == "ok":
            log(f"{prefix} {rel}: ok in {r['duration_s']:.1f} s ({r['cells_run']} code cells)")
        else:
            where = (f"cell {r['failed_cell']} (execution count {r['execution_count']}: "
                     f"{r.get('source_first_line', '')!r})" if r["failed_cell"] is not None
                     else "before any cell finished")
            log(f"{prefix} {rel}: FAILED at {where}: {r['reason']}")
            for line in r["message"].splitlines():
                log(f"    | {line}")
        for w in r["warnings"] + r.get("notes", []):
            log(f"{prefix} {rel}: warning: {w}")
        write_index(out_dir, results, args, time.monotonic() - start)
        if r["status"] != "ok" and args.fail_fast:
            break

    failed = [r for r in results if r["status"] != "ok"]
    log(f"run_notebooks: {len(results) - len(failed)}/{len(results)} passed in "
        f"{time.monotonic() - start:.0f} s; report: {out_dir / 'index.html'}")
    for r in failed:
        where = f"cell {r['failed_cell']}" if r["failed_cell"] is not None else "kernel"
        log(f"run_notebooks: FAILED {r['notebook']} at {where}: {r['reason']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
