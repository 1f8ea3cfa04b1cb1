"""Browser check of the notebook report: every page and figure as Chromium shows it.

Loads each HTML page of a report folder (or the pages given) from disk in
headless Chromium (Debian's /usr/bin/chromium, driven by Playwright from the
project venv, see kernel/requirements.txt) and fails when

- a figure is blank: an SVG output whose image does not load, whose SVG has
  fewer than MIN_SHAPES drawn elements (path, line, polyline, polygon, rect,
  circle, ellipse; nbconvert's sanitiser leaves an empty <svg> with only its
  <title>), or whose screenshot is (nearly) one colour;
- a figure's text sticks out of its SVG box: every <text> of the SVG, laid
  out at the figure's own size (in a shadow root, apart from the page's
  styles), must lie within the <svg>'s width and height (TEXT_SLACK);
- a code cell is not highlighted as Go: a line that starts with `//` must be
  all comment tokens (nbconvert falls back to the IPython lexer when the
  kernel names none; an apostrophe in a comment then opens a string);
- any image on the page is broken (loaded with no pixels) or failed to load;
- the page logs a console error or throws;
- the page makes any request that is not file: or data: (the report must be
  offline); such requests are blocked and reported.

Screenshots go to SHOTS (default REPORT/screenshots): PAGE.png (the first
screen of the page) and PAGE-fig-K.png (each figure). Exit status 0 when all
pages pass, 1 otherwise, 2 on bad usage.

    build/venv/bin/python kernel/check_report.py report/
    build/venv/bin/python kernel/check_report.py --shots /tmp/s report/02-theorem1.html
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

CHROMIUM = os.environ.get("LWGCN_CHROMIUM", "/usr/bin/chromium")
# Flags for a quiet, offline headless run: nothing phones home.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-default-apps", "--mute-audio"]
MIN_SHAPES = 3         # drawn SVG elements a real figure has at least (axes, marks)
MIN_INK = 0.002        # fraction of a figure's pixels that differ from its background
INK_TOLERANCE = 24     # per-channel difference from the background that counts as ink
VIEWPORT = {"width": 1280, "height": 900}
TEXT_SLACK = 0.5       # pixels a text's box may pass the SVG's edge (rounding)
# Pygments' comment token classes (Comment, Comment.Single, .Multiline, .Hashbang, .Special).
COMMENT_CLASSES = ("c", "c1", "cm", "ch", "cs")

# Collects, per page, the figures (SVG outputs) and all images.
COLLECT_JS = r"""
() => {
  const shapes = "path,line,polyline,polygon,rect,circle,ellipse";
  const count = (root) => ({
    shapes: root.querySelectorAll(shapes).length,
    texts: root.querySelectorAll("text").length,
  });
  const decode = (src) => {
    const comma = src.indexOf(",");
    const meta = src.slice(0, comma), data = src.slice(comma + 1);
    const bytes = meta.endsWith(";base64")
      ? Uint8Array.from(atob(data), (c) => c.charCodeAt(0)) : null;
    return bytes ? new TextDecoder().decode(bytes) : decodeURIComponent(data);
  };
  // Text boxes of an SVG document laid out at its own size, in a shadow root
  // (the page's styles do not reach it, its styles do not leak out).
  const host = document.createElement("div");
  host.style.cssText = "position:absolute;left:0;top:0;visibility:hidden";
  document.body.appendChild(host);
  const shadow = host.attachShadow({mode: "open"});
  const overflow = (doc) => {
    const svg = document.importNode(doc.documentElement, true);
    shadow.replaceChildren(svg);
    const box = svg.getBoundingClientRect();
    const out = [];
    svg.querySelectorAll("text").forEach((t) => {
      const r = t.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      const by = {left: box.left - r.left, right: r.right - box.right,
                  top: box.top - r.top, bottom: r.bottom - box.bottom};
      const sides = Object.keys(by).filter((k) => by[k] > SLACK);
      if (sides.length) out.push({text: t.textContent.slice(0, 80),
                                  sides: sides.map((k) => `${k} by ${by[k].toFixed(1)} px`)});
    });
    return out;
  };
  const figures = [];
  document.querySelectorAll('[data-mime-type="image/svg+xml"], .jp-RenderedSVG').forEach((el, i) => {
    el.setAttribute("data-lwgcn-figure", String(i));
    const img = el.querySelector("img");
    const svg = el.querySelector("svg");
    const f = {index: i, kind: img ? "img" : (svg ? "inline-svg" : "none"), title: "",
               loaded: false, width: 0, height: 0, shapes: 0, texts: 0, parseError: "", overflow: []};
    if (img) {
      f.title = img.getAttribute("alt") || "";
      f.loaded = img.complete && img.naturalWidth > 0;
      f.width = img.naturalWidth; f.height = img.naturalHeight;
      const src = img.getAttribute("src") || "";
      if (src.startsWith("data:image/svg+xml")) {
        const doc = new DOMParser().parseFromString(decode(src), "image/svg+xml");
        const err = doc.querySelector("parsererror");
        if (err) f.parseError = err.textContent.slice(0, 200);
        else Object.assign(f, count(doc), {overflow: overflow(doc)});
      } else {
        f.shapes = -1;  // not an SVG document: judged by its pixels only
      }
    } else if (svg) {
      const t = svg.querySelector("title");
      f.title = t ? t.textContent : "";
      const r = svg.getBoundingClientRect();
      f.loaded = true; f.width = r.width; f.height = r.height;
      Object.assign(f, count(svg));
    }
    figures.push(f);
  });
  host.remove();
  // Lines of code cells that start with "//" and are not all comment tokens.
  const badComments = [];
  document.querySelectorAll(".jp-CodeCell .jp-InputArea .highlight pre").forEach((pre, cell) => {
    const lines = [[]];
    const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const span = n.parentElement.closest("span");
      const cls = span && pre.contains(span) ? span.className : "";
      n.data.split("\n").forEach((part, k) => {
        if (k > 0) lines.push([]);
        if (part) lines[lines.length - 1].push([part, cls]);
      });
    }
    lines.forEach((segs, ln) => {
      const text = segs.map((s) => s[0]).join("");
      if (!text.trim().startsWith("//")) return;
      const ok = segs.every(([t, c]) => !t.trim() || COMMENT.includes(c));
      if (!ok) badComments.push({cell, line: ln + 1, text: text.trim().slice(0, 60),
                                 classes: Array.from(new Set(segs.map((s) => s[1]))).join(" ")});
    });
  });
  const images = Array.from(document.images).map((img) => ({
    src: (img.getAttribute("src") || "").slice(0, 80),
    ok: img.complete && img.naturalWidth > 0,
  }));
  return {figures, images, badComments};
}
""".replace("SLACK", str(TEXT_SLACK)).replace("COMMENT", repr(list(COMMENT_CLASSES)))


def ink_fraction(png_path):
    """Fraction of pixels that differ from the most common colour (the background)."""
    from PIL import Image

    with Image.open(png_path) as im:
        im = im.convert("RGB")
        w, h = im.size
        if w == 0 or h == 0:
            return 0.0
        colours = im.getcolors(maxcolors=w * h)
        bg = max(colours)[1]
        ink = sum(n for n, c in colours
                  if max(abs(c[0] - bg[0]), abs(c[1] - bg[1]), abs(c[2] - bg[2])) > INK_TOLERANCE)
        return ink / (w * h)


def launch(playwright, user_data_dir):
    """A persistent Chromium context in a fresh profile dir, with Debian's binary."""
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"check_report: {CHROMIUM} not found (apt-get install chromium, "
                         "see kernel/apt-packages.txt; or set LWGCN_CHROMIUM)")
    return playwright.chromium.launch_persistent_context(
        user_data_dir, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        viewport=VIEWPORT, device_scale_factor=1, offline=False)


def watch(context, page, problems, allow_origin=None):
    """Records console errors, page errors, failed and non-local requests.
    Requests to anything but file:, data: (and allow_origin) are aborted."""

    def route(r):
        url = r.request.url
        if url.startswith(("file:", "data:", "blob:")) or (allow_origin and url.startswith(allow_origin)):
            r.continue_()
        else:
            problems.append(f"network request: {url[:160]}")
            r.abort()

    context.route("**/*", route)
    page.on("console", lambda m: m.type == "error" and problems.append(
        f"console error: {m.text[:300]}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {str(e)[:300]}"))
    page.on("requestfailed", lambda r: (r.url.startswith(("file:", "data:")) and problems.append(
        f"failed to load {r.url[:160]}: {r.failure}")))
    ws_origin = allow_origin.replace("http", "ws", 1) if allow_origin else None
    page.on("websocket", lambda ws: (not ws_origin or not ws.url.startswith(ws_origin)) and problems.append(
        f"websocket: {ws.url[:160]}"))


def check_page(context, path, shots):
    """Problems (strings) of one page; writes its screenshots into shots."""
    problems = []
    page = context.new_page()
    try:
        watch(context, page, problems)
        page.goto(path.resolve().as_uri(), wait_until="load", timeout=60_000)
        page.wait_for_timeout(200)  # let late console errors arrive
        found = page.evaluate(COLLECT_JS)
        page.screenshot(path=str(shots / f"{path.stem}.png"))
        for img in found["images"]:
            if not img["ok"]:
                problems.append(f"broken image: {img['src']}")
        for b in found["badComments"]:
            problems.append(f"code cell {b['cell'] + 1}, line {b['line']}: {b['text']!r} is not highlighted as a "
                            f"Go comment (token classes {b['classes']!r}; is the kernel's pygments_lexer 'go'?)")
        for f in found["figures"]:
            label = f"figure {f['index'] + 1} ({f['title'][:70]!r})"
            if f["kind"] == "none":
                problems.append(f"blank {label}: no image or svg in the output")
                continue
            if not f["loaded"] or f["width"] == 0 or f["height"] == 0:
                problems.append(f"blank {label}: image did not load")
                continue
            if f["parseError"]:
                problems.append(f"blank {label}: SVG does not parse: {f['parseError']}")
                continue
            if 0 <= f["shapes"] < MIN_SHAPES:
                problems.append(f"blank {label}: {f['shapes']} drawn SVG elements "
                                f"(fewer than {MIN_SHAPES}), {f['texts']} texts")
                continue
            for o in f["overflow"]:
                problems.append(f"text outside {label}: {o['text']!r} passes the SVG's "
                                f"{', '.join(o['sides'])}")
            shot = shots / f"{path.stem}-fig-{f['index'] + 1}.png"
            el = page.locator(f'[data-lwgcn-figure="{f["index"]}"]')
            el.scroll_into_view_if_needed()
            el.screenshot(path=str(shot))
            ink = ink_fraction(shot)
            if ink < MIN_INK:
                problems.append(f"blank {label}: screenshot {shot.name} is {ink:.2%} ink "
                                f"(at least {MIN_INK:.1%} expected)")
        return problems, found
    finally:
        page.close()
        context.unroute("**/*")


def pages_of(targets):
    pages = []
    for t in targets:
        t = Path(t)
        if t.is_dir():
            pages.extend(sorted(t.glob("*.html")))
        elif t.is_file():
            pages.append(t)
        else:
            raise SystemExit(f"check_report: no such page or folder: {t}")
    return pages


def check(targets, shots=None, log=print):
    """{page path: [problems]} for the pages; screenshots into shots (default:
    the first target's folder + /screenshots)."""
    from playwright.sync_api import sync_playwright

    pages = pages_of(targets)
    if not pages:
        raise SystemExit(f"check_report: no HTML pages in {', '.join(map(str, targets))}")
    if shots is None:
        first = Path(targets[0])
        shots = (first if first.is_dir() else first.parent) / "screenshots"
    shots = Path(shots)
    shots.mkdir(parents=True, exist_ok=True)
    results = {}
    with tempfile.TemporaryDirectory(prefix="lwgcn-chromium-") as profile, sync_playwright() as p:
        context = launch(p, profile)
        try:
            for path in pages:
                problems, found = check_page(context, path, shots)
                results[str(path)] = problems
                status = "ok" if not problems else f"{len(problems)} problem(s)"
                log(f"check_report: {path.name}: {len(found['figures'])} figure(s), "
                    f"{len(found['images'])} image(s): {status}")
                for pr in problems:
                    log(f"    {pr}")
        finally:
            context.close()
    return results


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("targets", nargs="+", help="report folders or HTML pages")
    ap.add_argument("--shots", help="screenshot folder (default: REPORT/screenshots)")
    args = ap.parse_args(argv)
    results = check(args.targets, args.shots)
    bad = [p for p, pr in results.items() if pr]
    print(f"check_report: {len(results) - len(bad)}/{len(results)} pages passed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
