"""Tests of kernel/check_report.py, the browser check of the notebook report.

Fixtures (kernel/testdata/report): executed notebooks exported by the runner
(--render-only, Debian's Python): figure.ipynb with a real SVG figure and
math, dropped-figure.ipynb whose figure lost its drawing (only the <svg> and
its <title>, as nbconvert's sanitiser left every figure), go-comment.ipynb
(Go code with apostrophes in comments, language_info naming Go's lexer) and
no-lexer.ipynb (the same with the empty pygments_lexer of an unpatched GoNB),
plus static pages: the old sanitised export, an all-white figure, a title
wider than its figure, a broken image, a CDN stylesheet, a failing script, and
GoNB's handshake timeout (the one error the JupyterLab test tolerates where
the widgets answered). The checker must pass the good pages and reject each
planted fault with its own message.

Run with the project venv (make report-browser-test):
    build/venv/bin/python kernel/test_report_browser.py -v
"""

import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

KERNEL_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(KERNEL_DIR))
import check_report  # noqa: E402

FIXTURES = KERNEL_DIR / "testdata" / "report"
RUNNER_PY = "/usr/bin/python3"  # the runner uses Debian's nbconvert (kernel/README.md)


class ReportCheckTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="lwgcn-report-test-"))
        cls.out = cls.tmp / "report"
        subprocess.run(
            [RUNNER_PY, str(KERNEL_DIR / "run_notebooks.py"), "--render-only", "--out", str(cls.out),
             str(FIXTURES / "figure.ipynb"), str(FIXTURES / "dropped-figure.ipynb"),
             str(FIXTURES / "go-comment.ipynb"), str(FIXTURES / "no-lexer.ipynb")],
            check=True, capture_output=True, text=True)
        for page in FIXTURES.glob("*.html"):
            shutil.copy(page, cls.out / page.name)
        cls.lines = []
        cls.results = check_report.check([cls.out], log=cls.lines.append)
        cls.problems = {Path(p).name: pr for p, pr in cls.results.items()}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_real_figure_passes_with_screenshots(self):
        self.assertEqual(self.problems["figure.html"], [])
        self.assertEqual(self.problems["index.html"], [], "index thumbnails must load")
        shot = self.out / "screenshots" / "figure-fig-1.png"
        self.assertTrue(shot.is_file(), "figure screenshot not written")
        # The fixture draws a blue polyline, a red dot and black axes on white.
        self.assertGreater(check_report.ink_fraction(shot), check_report.MIN_INK)

    def test_export_keeps_svg_exact(self):
        import base64
        import re
        import nbformat
        page = (self.out / "figure.html").read_text()
        srcs = re.findall(r'<img src="data:image/svg\+xml;base64,([^"]+)"', page)
        self.assertEqual(len(srcs), 1)
        nb = nbformat.read(str(FIXTURES / "figure.ipynb"), as_version=4)
        svg = nb.cells[1].outputs[0]["data"]["image/svg+xml"]
        self.assertEqual(base64.b64decode(srcs[0]).decode("utf-8"), svg)
        self.assertIn("<math", page, "markdown math was not converted to MathML")
        self.assertEqual((self.out / "figures" / "figure-1.svg").read_text(), svg)

    def test_dropped_figure_rejected(self):
        self.assertEqual(len(self.problems["dropped-figure.html"]), 1)
        self.assertRegex(self.problems["dropped-figure.html"][0],
                         r"^blank figure 1 \('fixture: a line over axes'\): 0 drawn SVG elements")

    def test_sanitized_inline_svg_rejected(self):
        self.assertEqual(len(self.problems["sanitized-svg.html"]), 1)
        self.assertRegex(self.problems["sanitized-svg.html"][0], r"^blank figure 1 .*0 drawn SVG elements")

    def test_invisible_figure_rejected_by_pixels(self):
        pr = self.problems["invisible-figure.html"]
        self.assertEqual(len(pr), 1)
        self.assertRegex(pr[0], r"^blank figure 1 .*screenshot invisible-figure-fig-1\.png is 0\.00% ink")

    def test_text_outside_figure_rejected(self):
        pr = self.problems["clipped-title.html"]
        self.assertEqual(len(pr), 1, pr)
        self.assertRegex(pr[0], r"^text outside figure 1 \('fixture: a title too long for its figure'\): "
                                r"'fixture: a title too long for its figure' passes the SVG's "
                                r"left by [0-9.]+ px, right by [0-9.]+ px$")

    def test_go_code_highlighted_as_go(self):
        self.assertEqual(self.problems["go-comment.html"], [])
        page = (self.out / "go-comment.html").read_text()
        self.assertTrue('<span class="c1">// and here: don\'t</span>' in page, "no Go comment span in the page")

    def test_code_lexed_as_python_rejected(self):
        pr = self.problems["no-lexer.html"]
        self.assertEqual(len(pr), 2, pr)  # the two comment lines that start a line
        self.assertRegex(pr[0], r"^code cell 1, line 1: \"// The comment has an apostrophe: it's where the "
                                r"IPython lex\" is not highlighted as a Go comment")
        self.assertRegex(pr[1], r"^code cell 1, line 5: '// Everything below the apostrophes is still Go\.' "
                                r"is not highlighted as a Go comment")

    def test_broken_image_rejected(self):
        self.assertEqual(self.problems["broken-image.html"],
                         ["broken image: data:image/png;base64,AAAAAAAA"])

    def test_network_request_rejected(self):
        pr = self.problems["network.html"]
        self.assertIn("network request: https://cdn.jsdelivr.net/npm/example@1/style.css", pr)

    def test_console_error_rejected(self):
        pr = self.problems["console-error.html"]
        self.assertEqual(len(pr), 1)
        self.assertRegex(pr[0], r"^page error: undefinedFunctionOfTheReport is not defined")

    def test_gonb_handshake_tolerated_only_where_widgets_answered(self):
        # The lab test's exception: the page logs exactly GoNB's two errors,
        # which it tolerates where the widgets answered, and keeps elsewhere.
        import test_lab_browser
        pr = self.problems["gonb-handshake.html"]
        self.assertEqual(sorted(pr), sorted(test_lab_browser.GONB_HANDSHAKE))
        other = "console error: something else"
        kept, tolerated = test_lab_browser.tolerated_handshake(pr + [other], True)
        self.assertEqual(kept, [other])
        self.assertEqual(sorted(tolerated), sorted(pr))
        kept, tolerated = test_lab_browser.tolerated_handshake(pr + [other], False)
        self.assertEqual(kept, pr + [other])
        self.assertEqual(tolerated, [])

    def test_every_page_checked(self):
        names = sorted(self.problems)
        self.assertEqual(names, sorted(["index.html", "figure.html", "dropped-figure.html",
                                        "go-comment.html", "no-lexer.html"] +
                                       [p.name for p in FIXTURES.glob("*.html")]))


if __name__ == "__main__":
    unittest.main()
