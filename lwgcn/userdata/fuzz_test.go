package userdata

import (
	"strings"
	"testing"
)

// FuzzReadUserGraph feeds arbitrary text as the four files of a user graph:
// the reader must return a consistent graph or an error, never panic.
func FuzzReadUserGraph(f *testing.F) {
	f.Add("source,target\n0,1\n1,2\n", "node,a,b\n0,1,2\n1,3,4\n2,5,6\n", "0,x\n1,y\n", "0,train\n1,test\n")
	f.Add("a b\nb c\n", "a 0:1\nb 1:2.5\nc\n", "a\t1\nc\t0\n", "")
	f.Add("\"a,b\",c\n# c\n% d\n", "", "\"a,b\",\"l\"\"1\"\n", "c,val,train\n")
	f.Add("0 0\n", "0,\n", "", "")
	f.Add("", "", "", "")
	f.Fuzz(func(t *testing.T, edges, feats, labels, splits string) {
		in := UserInputs{Edges: &NamedReader{Name: "e", R: strings.NewReader(edges)}}
		if feats != "" {
			in.Features = &NamedReader{Name: "f", R: strings.NewReader(feats)}
		}
		if labels != "" {
			in.Labels = &NamedReader{Name: "l", R: strings.NewReader(labels)}
		}
		if splits != "" {
			in.Splits = &NamedReader{Name: "s", R: strings.NewReader(splits)}
		}
		ug, err := ReadUserGraph(in, UserOptions{MaxNodes: 1 << 16})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "e") && !strings.HasPrefix(err.Error(), "f") &&
				!strings.HasPrefix(err.Error(), "l") && !strings.HasPrefix(err.Error(), "s") &&
				!strings.HasPrefix(err.Error(), "datasets:") {
				t.Fatalf("error does not name its input: %v", err)
			}
			return
		}
		g := ug.Graph
		n := g.NumNodes()
		if len(ug.NodeIDs) != n || g.Features().NumRows() != n {
			t.Fatalf("%d nodes, %d ids, %d feature rows", n, len(ug.NodeIDs), g.Features().NumRows())
		}
		if g.Labels() != nil && len(ug.ClassNames) < g.NumClasses() {
			t.Fatalf("%d class names for %d classes", len(ug.ClassNames), g.NumClasses())
		}
	})
}

// FuzzSplitFields checks the field splitter: no panic, and lines without
// quotes split exactly like strings.Split on the detected separator.
func FuzzSplitFields(f *testing.F) {
	for _, s := range []string{"a,b", "a\tb", "a b", `"a,b" c`, `""""`, ",,", "\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		fields, err := splitFields(line)
		if err != nil || strings.ContainsAny(line, "\"\n") { // the line reader never yields '\n'
			return
		}
		var want []string
		switch {
		case strings.Contains(line, "\t"):
			want = strings.Split(line, "\t")
		case strings.Contains(line, ","):
			want = strings.Split(line, ",")
		default:
			want = strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(" \t\v\f\r", r) })
		}
		if len(fields) != len(want) {
			t.Fatalf("%q: %d fields %q, want %d %q", line, len(fields), fields, len(want), want)
		}
		for i := range want {
			if w := strings.Trim(want[i], " \t\v\f\r"); fields[i] != w && len(want) > 0 {
				t.Fatalf("%q: field %d = %q, want %q", line, i, fields[i], w)
			}
		}
	})
}
