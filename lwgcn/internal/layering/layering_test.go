package layering

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/lwgcn/toolkit"

// rule forbids package pkg (and, with under, every package below it) from
// depending, directly or not, on any import path with one of the prefixes,
// but those of allow.
type rule struct {
	pkg    string
	under  bool
	forbid []string
	why    string
	allow  []string
}

var rules = []rule{
	{"lwgcn/graph", true, []string{"github.com/gomlx/", module + "/lwgcn/"}, "the graph core is plain Go at the bottom", nil},
	{"lwgcn/homophily", false, []string{"github.com/gomlx/"}, "homophily measures run on the host", nil},
	{"lwgcn/userdata", false, []string{"github.com/gomlx/", module + "/lwgcn/datasets"}, "users' files are read on the host, apart from the registered datasets", nil},
	{"lwgcn/analysis", false, []string{"github.com/gomlx/"}, "analysis runs on the host", nil},
	{"lwgcn/gokernels", false, []string{module + "/lwgcn/", "github.com/gomlx/gomlx"}, "the backend's kernels see only compute", nil},
	{"lwgcn/nn/sparse", false, []string{module + "/lwgcn/"}, "the sparse engine sits below the layers (on the backend's kernels and the build's switches)", []string{module + "/lwgcn/gokernels", module + "/lwgcn/buildinfo"}},
	{"lwgcn/nn", false, []string{module + "/lwgcn/models", module + "/lwgcn/train", module + "/lwgcn/labelwise", module + "/lwgcn/zoo"}, "layers know no models or trainer", nil},
	{"lwgcn/models", false, []string{module + "/lwgcn/train", module + "/lwgcn/labelwise", module + "/lwgcn/zoo"}, "models know no trainer", nil},
	{"lwgcn/train", false, []string{module + "/lwgcn/models", module + "/lwgcn/labelwise", module + "/lwgcn/zoo", module + "/lwgcn/experiments"}, "the trainer takes any nn.Model", nil},
	{"lwgcn/figures", false, []string{module + "/lwgcn/train", module + "/lwgcn/experiments", module + "/lwgcn/nn"}, "figures draw results, they do not train", nil},
	{"lwgcn/experiments", false, []string{module + "/lwgcn/report"}, "the runner records results; lwgcn/report renders them", nil},
	{"lwgcn/internal/runstest", false, []string{module + "/lwgcn/models", module + "/lwgcn/labelwise", module + "/lwgcn/zoo", module + "/lwgcn/experiments"}, "the runs harness trains any trainer's model", nil},
	{"lwgcn/limits", false, []string{module + "/"}, "the memory bounds sit at the bottom: every loader and command uses them", nil},
	{"lwgcn", true, []string{module + "/kernel", module + "/cmd"}, "the library never imports the kernel or the CLI", nil},
}

// deps lists every package of the module with its transitive dependencies.
func deps(t *testing.T) map[string][]string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list in %s: %v\n%s", root, err, msg)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		m[f[0]] = f[1:]
	}
	return m
}

func TestImportsFlowOneWay(t *testing.T) {
	all := deps(t)
	for _, r := range rules {
		full := module + "/" + r.pkg
		matched := 0
		for pkg, ds := range all {
			if pkg != full && !(r.under && strings.HasPrefix(pkg, full+"/")) {
				continue
			}
			matched++
			for _, d := range ds {
				for _, f := range r.forbid {
					if strings.HasPrefix(d, f) && !strings.HasPrefix(d, full+"/") && d != full && !slices.Contains(r.allow, d) {
						t.Errorf("%s imports %s (directly or not): %s", pkg, d, r.why)
					}
				}
			}
		}
		if matched == 0 {
			t.Errorf("rule for %s matches no package (moved? update the rule and README.md's layout)", r.pkg)
		}
	}
}
