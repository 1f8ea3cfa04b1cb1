#!/usr/bin/python3
"""Tests for kernel/: the notebook runner and the installed GoNB kernel.

Run with `make kernel-test` (Debian's /usr/bin/python3). Everything Jupyter
writes goes to JUPYTER_DATA_DIR (default <repo>/build/jupyter), never to the
user's own Jupyter directories.

  FindProblemTests   failure detection on synthetic cell outputs (no kernel)
  InstallTests       install.sh refuses foreign kernelspecs and another clone's;
                     by default it installs into this clone's build/jupyter;
                     the runner installs a missing kernel into the data dir it
                     is given
  RunnerTests        the runner on the smoke notebook (module import, quick
                     mode, offline HTML, index) and on planted failures: panic,
                     `!false`, compile error, cell timeout, a cell linking GoMLX
                     through an inherited declaration (--check-links)
  ProtocolTests      jupyter_kernel_test against a fresh kernel; language_info
                     names Go's Pygments lexer and CodeMirror mode
  ModuleProtocolTests  the same after `!*go mod edit` and an import of this
                     module: its API completes and inspects, display data via
                     gonbui; replies still come after go.mod changes (README,
                     "Known limitation")
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

KERNEL_DIR = Path(__file__).resolve().parent
REPO = KERNEL_DIR.parent
os.environ.setdefault("JUPYTER_DATA_DIR", str(REPO / "build" / "jupyter"))
os.environ.setdefault("GOMLX_BACKEND", "go")
os.environ.setdefault("GOTOOLCHAIN", "go1.27.4")
os.environ.setdefault("GOEXPERIMENT", "simd")
os.environ.pop("LWGCN_QUICK", None)

import nbformat  # noqa: E402
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook  # noqa: E402
import jupyter_kernel_test  # noqa: E402
from jupyter_client.manager import start_new_kernel  # noqa: E402

sys.dont_write_bytecode = True  # no kernel/__pycache__ in the checkout
sys.path.insert(0, str(KERNEL_DIR))
import run_notebooks  # noqa: E402

KERNEL = os.environ.get("LWGCN_KERNEL_NAME", "gonb-lwgcn")
RUNNER = [sys.executable, str(KERNEL_DIR / "run_notebooks.py")]
REQUIRE_MODULE = ("!*go mod edit -require github.com/lwgcn/toolkit@v0.0.0 "
                  "-replace github.com/lwgcn/toolkit=${GONB_DIR}/../.. "
                  "-replace github.com/gomlx/compute=${GONB_DIR}/../../third_party/compute "
                  "-replace github.com/gomlx/go-xla=${GONB_DIR}/../../third_party/go-xla")
EXEC_TIMEOUT = 120  # first compile in a kernel; generous for a loaded 2-core machine


def setUpModule():
    subprocess.run(["bash", str(KERNEL_DIR / "install.sh")], check=True,
                   stdout=subprocess.DEVNULL)


def write_notebook(path, cells):
    nb = new_notebook()
    nb.metadata["kernelspec"] = {"name": KERNEL, "display_name": KERNEL, "language": "go"}
    nb.cells = [c if isinstance(c, dict) else new_code_cell(c) for c in cells]
    nbformat.write(nb, str(path))
    return path


def run_runner(*args, env=None, timeout=600):
    p = subprocess.run(RUNNER + list(args), capture_output=True, text=True, timeout=timeout,
                       env=env)
    return p.returncode, p.stdout + p.stderr


def cell_text(cell):
    return "".join(run_notebooks.output_text(o) for o in cell.get("outputs", []))


class FindProblemTests(unittest.TestCase):
    @staticmethod
    def cell(*outputs):
        return {"outputs": list(outputs)}

    @staticmethod
    def stream(name, text):
        return {"output_type": "stream", "name": name, "text": text}

    def test_clean_outputs_pass(self):
        c = self.cell(self.stream("stdout", "exit status 3\nno panic: here\n"),
                      self.stream("stderr", "go: downloading x v1.0.0\nexit status 0\n"),
                      {"output_type": "display_data", "data": {"text/plain": "ok"}})
        self.assertIsNone(run_notebooks.find_problem(c))

    def test_exit_status_on_stderr(self):
        c = self.cell(self.stream("stderr", "hi\nexit status 127\n"))
        self.assertEqual(run_notebooks.find_problem(c)[0], "exit status 127")

    def test_signal_on_stderr(self):
        c = self.cell(self.stream("stderr", "signal: killed\n"))
        self.assertEqual(run_notebooks.find_problem(c)[0], "signal: killed")

    def test_panic_anywhere(self):
        for out in (self.stream("stdout", "x\npanic: boom\n"),
                    self.stream("stderr", "\x1b[31mpanic: boom\x1b[0m\n"),
                    {"output_type": "execute_result", "data": {"text/plain": "panic: boom"}}):
            reason, excerpt = run_notebooks.find_problem(self.cell(out))
            self.assertEqual(reason, "panic")
            self.assertTrue(excerpt.startswith("panic: boom"), excerpt)

    def test_error_output(self):
        c = self.cell({"output_type": "error", "ename": "ERROR", "evalue": "bad",
                       "traceback": ["line one", "undefined: x"]})
        self.assertEqual(run_notebooks.find_problem(c), ("error", "line one\nundefined: x"))


class InstallTests(unittest.TestCase):
    def test_refuses_foreign_kernelspec_and_reserved_name(self):
        with tempfile.TemporaryDirectory() as d:
            spec = Path(d, "kernels", "mine")
            spec.mkdir(parents=True)
            foreign = '{"argv": ["x"], "display_name": "user kernel", "language": "go"}\n'
            (spec / "kernel.json").write_text(foreign)
            env = dict(os.environ, JUPYTER_DATA_DIR=d, LWGCN_KERNEL_NAME="mine")
            p = subprocess.run(["bash", str(KERNEL_DIR / "install.sh")], env=env,
                               capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("not written by kernel/install.sh", p.stderr)
            self.assertEqual((spec / "kernel.json").read_text(), foreign)
            p = subprocess.run(["bash", str(KERNEL_DIR / "install.sh"), "--uninstall"], env=env,
                               capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0)
            self.assertTrue((spec / "kernel.json").exists())
            env["LWGCN_KERNEL_NAME"] = "gonb"
            p = subprocess.run(["bash", str(KERNEL_DIR / "install.sh")], env=env,
                               capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0)
            self.assertFalse(Path(d, "kernels", "gonb").exists())

    def test_refuses_another_clones_kernelspec(self):
        # Two clones on one machine (the project's worktrees are): a spec the
        # other clone wrote, with its repo recorded or, written by an older
        # install.sh, only its gonb path, is neither overwritten nor removed.
        other = "/elsewhere/lwgcn-clone"
        specs = {
            "recorded": {"argv": [f"{other}/bin/kernel/gonb", "--kernel", "{connection_file}"],
                         "metadata": {"lwgcn-kernel-install": {"installer": "kernel/install.sh", "repo": other}}},
            "older": {"argv": [f"{other}/bin/kernel/gonb", "--kernel", "{connection_file}"],
                      "metadata": {"lwgcn-kernel-install": {"installer": "kernel/install.sh"}}},
        }
        for name, spec in specs.items():
            with self.subTest(name), tempfile.TemporaryDirectory() as d:
                kdir = Path(d, "kernels", "gonb-lwgcn")
                kdir.mkdir(parents=True)
                text = json.dumps(dict(spec, display_name="other clone", language="go"))
                (kdir / "kernel.json").write_text(text)
                env = dict(os.environ, JUPYTER_DATA_DIR=d, LWGCN_KERNEL_NAME="gonb-lwgcn")
                for args in ([], ["--uninstall"]):
                    p = subprocess.run(["bash", str(KERNEL_DIR / "install.sh")] + args, env=env,
                                       capture_output=True, text=True)
                    self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
                    self.assertIn(f"belongs to the clone {other}", p.stderr)
                    self.assertEqual((kdir / "kernel.json").read_text(), text)

    def test_default_install_is_this_clones(self):
        # Without JUPYTER_DATA_DIR the spec goes to <repo>/build/jupyter and
        # records this clone; the user's Jupyter dirs are not touched.
        name = "gonb-lwgcn-clonetest"
        spec_dir = REPO / "build" / "jupyter" / "kernels" / name
        with tempfile.TemporaryDirectory() as home:
            env = {k: v for k, v in os.environ.items() if k not in ("JUPYTER_DATA_DIR", "XDG_DATA_HOME")}
            env.update(HOME=home, LWGCN_KERNEL_NAME=name)
            try:
                p = subprocess.run(["bash", str(KERNEL_DIR / "install.sh")], env=env,
                                   capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                spec = json.loads((spec_dir / "kernel.json").read_text())
                self.assertEqual(spec["metadata"]["lwgcn-kernel-install"]["repo"], str(REPO))
                self.assertEqual(spec["argv"][0], str(REPO / "bin" / "kernel" / "gonb"))
                self.assertEqual(list(Path(home).rglob("kernel.json")), [])
            finally:
                p = subprocess.run(["bash", str(KERNEL_DIR / "install.sh"), "--uninstall"], env=env,
                                   capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertFalse(spec_dir.exists())

    def test_runner_installs_missing_kernel(self):
        with tempfile.TemporaryDirectory() as d:
            data = Path(d, "jupyter")
            nb = write_notebook(Path(d, "echo.ipynb"), ["!echo installed-and-ran"])
            # PYTHONNOUSERSITE: jupyter_core also searches ~/.local/share/jupyter
            # (the user site), where a kernel installed by hand would be found
            # and nothing installed here.
            env = dict(os.environ, JUPYTER_DATA_DIR=str(data), PYTHONNOUSERSITE="1")
            rc, out = run_runner("--out", str(Path(d, "out")), str(nb), env=env)
            self.assertEqual(rc, 0, out)
            spec = json.loads(Path(data, "kernels", KERNEL, "kernel.json").read_text())
            self.assertIn("--raw_error", spec["argv"])
            self.assertEqual(spec["env"]["GOTOOLCHAIN"], "go1.27.4")
            self.assertEqual(spec["env"]["GOEXPERIMENT"], "simd")
            self.assertEqual(spec["env"]["GOMLX_BACKEND"], os.environ["GOMLX_BACKEND"])
            path = spec["env"]["PATH"].split(":")
            for tool in ("go", "gopls", "goimports"):
                self.assertTrue(any(os.access(Path(p, tool), os.X_OK) for p in path), tool)
            executed = nbformat.read(str(Path(d, "out", "echo.ipynb")), as_version=4)
            self.assertIn("installed-and-ran", cell_text(executed.cells[0]))


class RunnerTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = Path(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_bad(self, name, cells, *args):
        nb = write_notebook(self.dir / f"{name}.ipynb", cells)
        out = self.dir / f"out_{name}"
        rc, log = run_runner("--out", str(out), *args, str(nb))
        summary = json.loads((out / "summary.json").read_text())["notebooks"][0]
        executed = nbformat.read(str(out / f"{name}.ipynb"), as_version=4)
        return rc, log, summary, executed

    def test_smoke_notebook(self):
        out = self.dir / "out_smoke"
        rc, log = run_runner("--quick", "--out", str(out), str(KERNEL_DIR / "testdata" / "smoke.ipynb"))
        self.assertEqual(rc, 0, log)
        self.assertIn("[1/1]", log)
        executed = nbformat.read(str(out / "smoke.ipynb"), as_version=4)
        text = "".join(cell_text(c) for c in executed.cells if c.cell_type == "code")
        # Path 0->1->2 plus 1->0: 3 edges; undirected pairs {0,1},{1,2}: 4; + 3 loops: 7.
        self.assertIn("smoke: edges=3 undirected=4 with_loops=7", text)
        self.assertIn('LWGCN_QUICK="1"', text)  # --quick reaches the kernel
        self.assertIn(f'GOMLX_BACKEND="{os.environ["GOMLX_BACKEND"]}"', text)
        summary = json.loads((out / "summary.json").read_text())
        self.assertTrue(summary["quick"])
        self.assertEqual(summary["notebooks"][0]["status"], "ok")
        page = (out / "smoke.html").read_text()
        self.assertIn("smoke: edges=3 undirected=4 with_loops=7", page)
        self.assertIsNone(run_notebooks.EXTERNAL_SCRIPT.search(page))
        self.assertIsNone(run_notebooks.EXTERNAL_LINK.search(page))
        self.assertNotIn("MathJax.Hub", page)
        if run_notebooks.pandoc_markdown(["$x$"]):
            self.assertIn('<math display="block"', page)
        else:
            self.assertIn("|E| = 4 + n = 7.", page)  # LaTeX left readable
        index = (out / "index.html").read_text()
        self.assertIn('href="smoke.html"', index)
        self.assertIn('href="smoke.ipynb"', index)
        self.assertIn("1 of 1 notebooks passed", index)

    def test_panic_fails_and_names_cell(self):
        rc, log, s, nb = self.run_bad("planted_panic", [
            '%%\nfmt.Println("before")',
            '%%\nvar m map[string]int\nif len(m) == 0 {\n\tpanic("planted panic")\n}',
            '%%\nfmt.Println("not reached")'])
        self.assertEqual(rc, 1, log)
        self.assertIn("planted_panic.ipynb: FAILED at cell 1", log)
        self.assertIn("panic: planted panic", log)
        self.assertEqual((s["status"], s["failed_cell"], s["reason"]), ("failed", 1, "panic"))
        self.assertEqual(s["cells_run"], 2)
        self.assertEqual(nb.cells[2].outputs, [])  # execution stopped at the failure

    def test_shell_exit_status_fails(self):
        rc, log, s, nb = self.run_bad("planted_shell", ["!echo shell-ok", "!false", "!echo not-reached"])
        self.assertEqual(rc, 1, log)
        self.assertIn("planted_shell.ipynb: FAILED at cell 1", log)
        self.assertEqual((s["failed_cell"], s["reason"]), (1, "exit status 1"))
        self.assertIn("shell-ok", cell_text(nb.cells[0]))

    def test_compile_error_fails(self):
        rc, log, s, _ = self.run_bad("planted_compile", ['!echo fine', '%%\nx := undefinedThing + 1\nfmt.Println(x)'])
        self.assertEqual(rc, 1, log)
        self.assertIn("planted_compile.ipynb: FAILED at cell 1", log)
        self.assertEqual((s["failed_cell"], s["reason"]), (1, "error"))
        self.assertIn("undefined: undefinedThing", s["message"])
        self.assertIn("undefined: undefinedThing", log)

    def test_needless_gomlx_link(self):
        # A declaration every cell inherits (a var initialised from a package
        # that brings GoMLX in) makes a cell that prints a number link GoMLX:
        # reported, and with --check-links a failure naming that cell. With a
        # plain number the same cell links no GoMLX and the notebook passes.
        require = (f"!*go mod edit -require github.com/lwgcn/toolkit@v0.0.0 -replace github.com/lwgcn/toolkit={REPO} "
                   f"-replace github.com/gomlx/compute={REPO}/third_party/compute "
                   f"-replace github.com/gomlx/go-xla={REPO}/third_party/go-xla")
        heavy = 'import "github.com/lwgcn/toolkit/lwgcn/labelwise"\n\nvar Epochs = labelwise.DefaultEpochs'
        show = '%%\nfmt.Println("epochs:", Epochs)'
        rc, log, s, _ = self.run_bad("needless_link", [require, heavy, show], "--check-links")
        self.assertEqual(rc, 1, log)
        self.assertEqual((s["status"], s["reason"], s["failed_cell"]), ("failed", "needless GoMLX link", 2))
        self.assertIn("cell(s) 2 link GoMLX but use none of its packages", log)
        by_cell = {c["cell"]: c for c in s["cells"]}
        self.assertEqual((by_cell[2]["gomlx"], by_cell[2]["needs_gomlx"]), (True, False))
        rc, log, s, nb = self.run_bad("lean_link", [require, "var Epochs = 400", show], "--check-links")
        self.assertEqual(rc, 0, log)
        self.assertEqual({c["cell"]: c["gomlx"] for c in s["cells"]}[2], False)
        self.assertIn("epochs: 400", cell_text(nb.cells[2]))

    def test_cell_timeout_fails(self):
        start = time.monotonic()
        rc, log, s, _ = self.run_bad("planted_timeout", ['%%\ntime.Sleep(time.Minute)'], "--timeout", "4")
        self.assertEqual(rc, 1, log)
        self.assertEqual((s["failed_cell"], s["reason"]), (0, "timeout"))
        self.assertLess(time.monotonic() - start, 50)  # did not wait for the minute


class GoNBKernelTests(jupyter_kernel_test.KernelTests):
    """KernelTests with a kernel started in kernel/testdata, its log kept, and
    execution timeouts that allow a first compile."""

    kernel_name = KERNEL
    setup_cells = []

    @classmethod
    def setUpClass(cls):
        cls.log = open(Path(os.environ["JUPYTER_DATA_DIR"]) / f"{cls.__name__}.kernel.log", "w")
        cls.km, cls.kc = start_new_kernel(kernel_name=cls.kernel_name, startup_timeout=120,
                                          cwd=str(KERNEL_DIR / "testdata"),
                                          stdout=cls.log, stderr=cls.log)
        for code in cls.setup_cells:
            reply = cls.kc.execute_interactive(code, timeout=EXEC_TIMEOUT, output_hook=lambda m: None)
            assert reply["content"]["status"] == "ok", (code, reply["content"])

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.log.close()

    def execute_helper(self, code, timeout=EXEC_TIMEOUT, **kw):
        return super().execute_helper(code, timeout=timeout, **kw)

    def complete(self, code):
        self.flush_channels()
        self.kc.complete(code)
        return self.get_non_kernel_info_reply(timeout=60)["content"]

    def inspect(self, code, cursor_pos):
        self.flush_channels()
        self.kc.inspect(code, cursor_pos=cursor_pos)
        return self.get_non_kernel_info_reply(timeout=60)["content"]


class ProtocolTests(GoNBKernelTests):
    language_name = "go"
    file_extension = ".go"
    setup_cells = ['%%\nfmt.Println("warm up")']
    code_hello_world = '%%\nfmt.Println("hello, world")'
    code_stderr = '%%\nfmt.Fprintln(os.Stderr, "to stderr")'
    code_generate_error = "%%\nundefinedThing()"  # compile error: one `error` message (--raw_error)
    completion_samples = [{"text": "%%\nfmt.Prin"}]
    code_inspect_sample = "%%\nfmt.Println"
    code_display_data = [{"code": "%version", "mime": "text/markdown"}]
    # No is_complete or history samples: GoNB never answers those requests.

    def test_language_info_names_go(self):
        # nbconvert highlights with language_info.pygments_lexer (an empty one
        # falls back to IPython's lexer) and Lab picks its editor mode from
        # codemirror_mode: GoNB is built with both set (kernel/install.sh).
        self.flush_channels()
        lang = self.kc.kernel_info(reply=True, timeout=30)["content"]["language_info"]
        self.assertEqual((lang["name"], lang["pygments_lexer"], lang["codemirror_mode"], lang["mimetype"]),
                         ("go", "go", "go", "text/x-go"))

    def test_completion_content(self):
        reply = self.complete("%%\nfmt.Prin")
        self.assertEqual(reply["status"], "ok")
        self.assertIn("Println", reply["matches"])
        self.assertEqual(reply["cursor_end"], len("%%\nfmt.Prin"))

    def test_inspect_content(self):
        code = "%%\nfmt.Println(1)"
        reply = self.inspect(code, code.index("Println") + 3)
        self.assertEqual(reply["status"], "ok")
        self.assertIn("func fmt.Println", reply["data"].get("text/markdown", ""))


class ModuleProtocolTests(GoNBKernelTests):
    setup_cells = [REQUIRE_MODULE,
                   'import "github.com/lwgcn/toolkit/lwgcn/graph"\n%%\nfmt.Println(graph.Unlabeled)']
    code_hello_world = '%%\nfmt.Println("hello, world", graph.Unlabeled)'
    completion_samples = [{"text": "%%\ngraph.MustN"}, {"text": "%%\nfmt.Prin"}]
    code_inspect_sample = "%%\ngraph.MustNew"
    # gonbui.Sync, as GoNB documents, makes sure the display data has left
    # the pipe before the program exits; without it the kernel may report
    # idle before forwarding it (seen once in CI).
    code_display_data = [{"code": 'import "github.com/janpfeifer/gonb/gonbui"\n%%\n'
                                  'gonbui.DisplayHTML("<b>lwgcn</b>")\ngonbui.Sync()', "mime": "text/html"}]

    def test_completion_module(self):
        # gopls loads go.mod at the first completion/inspection request; the
        # module was required (setup_cells) before it, so its API is known.
        # (Named to sort before test_display_data, whose gonbui import makes
        # GoNB rewrite go.mod, which gopls then no longer follows.)
        reply = self.complete("%%\ngraph.MustN")
        self.assertEqual(reply["status"], "ok")
        self.assertIn("MustNew", reply["matches"])
        code = "%%\ng := graph.MustNew(graph.Spec{})"
        reply = self.inspect(code, code.index("MustNew") + 2)
        self.assertIn("func graph.MustNew", reply["data"].get("text/markdown", ""))

    def test_module_output(self):
        self.flush_channels()
        reply, outs = self.execute_helper(
            "%%\ng := graph.MustNew(graph.Spec{NumNodes: 2, Src: []int32{0}, Dst: []int32{1}})\n"
            'fmt.Println("reversed:", g.ToUndirected().NumEdges())')
        self.assertEqual(reply["content"]["status"], "ok")
        text = "".join(m["content"].get("text", "") for m in outs if m["msg_type"] == "stream")
        self.assertIn("reversed: 2", text)  # 0->1 plus its reverse


del GoNBKernelTests  # a base class, not a test case of its own


if __name__ == "__main__":
    unittest.main()
