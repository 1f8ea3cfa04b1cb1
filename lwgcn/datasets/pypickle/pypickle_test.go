package pypickle_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	fx "github.com/lwgcn/toolkit/lwgcn/datasets/internal/fixtures"
	"github.com/lwgcn/toolkit/lwgcn/datasets/npy"
	"github.com/lwgcn/toolkit/lwgcn/datasets/pypickle"
	"github.com/nlpodyssey/gopickle/types"
)

func TestCSRMatrix(t *testing.T) {
	// [[0 1.5 0] [2 0 3]] (the fixture writer's output loads in SciPy as this).
	ip, ix, d := fx.DenseCSR(2, 3, []float32{0, 1.5, 0, 2, 0, 3})
	v, err := pypickle.Loads(fx.CSRMatrix(2, 3, ip, ix, d))
	if err != nil {
		t.Fatal(err)
	}
	m, ok := v.(*pypickle.CSRMatrix)
	if !ok {
		t.Fatalf("got %T", v)
	}
	rows, cols, ptr, idx, vals, err := m.ToCSR()
	if err != nil {
		t.Fatal(err)
	}
	if rows != 2 || cols != 3 || !eq(ptr, []int32{0, 1, 3}) || !eq(idx, []int32{1, 0, 2}) || !eq(vals, []float32{1.5, 2, 3}) {
		t.Errorf("got %d x %d %v %v %v", rows, cols, ptr, idx, vals)
	}
}

func TestCSRDuplicatesSummedAndSorted(t *testing.T) {
	// Row 0 stores columns 2, 0, 2: scipy's todense gives [v1, 0, v0+v2].
	v, err := pypickle.Loads(fx.CSRMatrix(1, 3, []int32{0, 3}, []int32{2, 0, 2}, []float32{1, 4, 0.5}))
	if err != nil {
		t.Fatal(err)
	}
	_, _, ptr, idx, vals, err := v.(*pypickle.CSRMatrix).ToCSR()
	if err != nil || !eq(ptr, []int32{0, 2}) || !eq(idx, []int32{0, 2}) || !eq(vals, []float32{4, 1.5}) {
		t.Errorf("got %v %v %v %v", ptr, idx, vals, err)
	}
}

func TestCSRInvalid(t *testing.T) {
	cases := []struct {
		name, want    string
		ptr, idx      []int32
		vals          []float32
		rows, columns int
	}{
		{"column out of range", "row 0 has column 5 outside [0,3)", []int32{0, 1}, []int32{5}, []float32{1}, 1, 3},
		{"indptr length", "indptr has 2 entries for 2 rows", []int32{0, 1}, []int32{0}, []float32{1}, 2, 3},
		{"indptr end", "indptr ends at 2 but there are 1 indices", []int32{0, 2}, []int32{0}, []float32{1}, 1, 3},
	}
	for _, c := range cases {
		v, err := pypickle.Loads(fx.CSRMatrix(c.rows, c.columns, c.ptr, c.idx, c.vals))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, _, _, _, _, err = v.(*pypickle.CSRMatrix).ToCSR()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}

func TestNDArrayAndDefaultDictWithPython2Long(t *testing.T) {
	v, err := pypickle.Loads(fx.OneHot([]int{2, 0, -1}, 3))
	if err != nil {
		t.Fatal(err)
	}
	a, err := pypickle.Array(v)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := a.Int64s()
	if a.DType.String() != "<i4" || len(a.Shape) != 2 || a.Shape[0] != 3 || a.Shape[1] != 3 ||
		!eq(got, []int64{0, 0, 1, 1, 0, 0, 0, 0, 0}) {
		t.Errorf("one-hot: %v %v %v", a.Shape, a.DType, got)
	}
	// Python 2 pickles the key 0L as LONG1 with no bytes, which gopickle
	// cannot decode by itself; the checker rewrites it to the int 0.
	v, err = pypickle.Loads(fx.AdjacencyDict(map[int][]int{0: {1, 2}, 1: {0}, 300: {}}, true))
	if err != nil {
		t.Fatal(err)
	}
	items, err := pypickle.Items(v)
	if err != nil || len(items) != 3 {
		t.Fatalf("items %v %v", items, err)
	}
	for i, want := range []struct {
		key int64
		nb  []int64
	}{{0, []int64{1, 2}}, {1, []int64{0}}, {300, []int64{}}} {
		k, err1 := pypickle.Int(items[i].Key)
		nb, err2 := pypickle.Ints(items[i].Value)
		if err1 != nil || err2 != nil || k != want.key || !eq(nb, want.nb) {
			t.Errorf("item %d: %v %v (%v %v)", i, k, nb, err1, err2)
		}
	}
	if _, ok := v.(*pypickle.DefaultDict).Factory.(*types.List); !ok {
		t.Errorf("factory %T, want the list class", v.(*pypickle.DefaultDict).Factory)
	}
}

func TestObjectArrayOfDicts(t *testing.T) {
	in := fx.NPY("|O", []int{2}, false, fx.SplitDicts([][3][]int{{{0, 1}, {2}, {3}}, {{3}, {1}, {0, 2}}}))
	a, err := npyRead(in)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := pypickle.ObjectArray(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 2 {
		t.Fatalf("%d objects", len(objs))
	}
	items, _ := pypickle.Items(objs[1])
	want := map[string][]int64{"train": {3}, "valid": {1}, "test": {0, 2}}
	for _, e := range items {
		k, _ := pypickle.Bytes(e.Key)
		ids, _ := pypickle.Ints(e.Value)
		if !eq(ids, want[string(k)]) {
			t.Errorf("%s = %v, want %v", k, ids, want[string(k)])
		}
	}
	a.Shape = []int{3}
	if _, err := pypickle.ObjectArray(a); err == nil || !strings.Contains(err.Error(), "header says [3]") {
		t.Errorf("shape mismatch: %v", err)
	}
}

func TestRejectsInputsThatWouldCrashTheInterpreter(t *testing.T) {
	p := func() *fx.Pickle { return fx.NewPickle() }
	cases := []struct {
		name, want string
		in         []byte
	}{
		{"empty", "empty input", nil},
		{"no stop", "without STOP", p().Int(1).Bytes()[:4]},
		{"huge BINBYTES", "needs 4294967295 bytes", p().Raw('B', 0xff, 0xff, 0xff, 0xff).Bytes()},
		{"huge BINUNICODE8", "needs", p().Raw(0x8d, 0, 0, 0, 0, 0, 0, 0, 0x80).Bytes()},
		{"huge frame", "frame of", p().Raw(0x95, 0xff, 0xff, 0, 0, 0, 0, 0, 0).Bytes()},
		{"odd dict", "odd in number", p().Op("MARK").Int(1).Op("DICT").Bytes()},
		{"odd setitems", "odd in number", p().Op("EMPTY_DICT", "MARK").Int(1).Int(2).Int(3).Op("SETITEMS").Bytes()},
		{"empty LONG4", "LONG4 with byte count 0", p().Raw(0x8b, 0, 0, 0, 0).Bytes()},
		{"opcode 0xff", "unknown opcode", p().Raw(0xff).Bytes()},
		{"set", "sets are not supported", p().Raw(0x8f).Bytes()},
		{"array module", "array._array_reconstructor is not supported", p().Global("array", "_array_reconstructor").Bytes()},
		{"ordered dict", "collections.OrderedDict is not supported", p().Global("collections", "OrderedDict").Bytes()},
		{"computed STACK_GLOBAL", "literal module and name", p().Int(1).Int(2).Raw(0x93).Bytes()},
		{"underflow", "stack underflow", p().Op("REDUCE").Bytes()},
		{"unknown class", "unsupported Python class os.system", p().Global("os", "system").Bytes()},
	}
	for _, c := range cases {
		_, err := pypickle.Loads(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	// STACK_GLOBAL naming a known class through literal strings is fine.
	in := fx.NewPickle().Unicode("collections").Unicode("defaultdict").Raw(0x93).Op("EMPTY_TUPLE", "REDUCE").Bytes()
	if v, err := pypickle.Loads(in); err != nil {
		t.Errorf("STACK_GLOBAL defaultdict: %v", err)
	} else if _, ok := v.(*pypickle.DefaultDict); !ok {
		t.Errorf("got %T", v)
	}
}

func TestNDArrayStateErrors(t *testing.T) {
	// Data length does not match shape x itemsize.
	in := fx.NewPickle().NDArray("i4", '<', []int{3}, fx.Int32s([]int32{1, 2})).Bytes()
	if _, err := pypickle.Loads(in); err == nil || !strings.Contains(err.Error(), "has 8 data bytes, want 12") {
		t.Errorf("short data: %v", err)
	}
	in = fx.NewPickle().NDArray("x9", '<', []int{1}, []byte{0}).Bytes()
	if _, err := pypickle.Loads(in); err == nil || !strings.Contains(err.Error(), "unknown dtype kind") {
		t.Errorf("bad dtype: %v", err)
	}
}

func TestRealPlanetoidPickles(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "planetoid/data")
	// Shapes and non-zero counts checked with pickle.load(encoding='latin1').
	for _, c := range []struct {
		file            string
		rows, cols, nnz int
	}{{"ind.cora.x", 140, 1433, 2647}, {"ind.citeseer.tx", 1000, 3703, -1}} {
		b, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		v, err := pypickle.Loads(b)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		r, cols, _, idx, _, err := v.(*pypickle.CSRMatrix).ToCSR()
		if err != nil || r != c.rows || cols != c.cols || (c.nnz >= 0 && len(idx) != c.nnz) {
			t.Errorf("%s: %dx%d nnz %d err %v", c.file, r, cols, len(idx), err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "ind.cora.y"))
	v, err := pypickle.Loads(b)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := pypickle.Array(v)
	if a.DType.String() != "<i4" || a.Shape[0] != 140 || a.Shape[1] != 7 {
		t.Errorf("cora y: %v %v", a.Shape, a.DType)
	}
}

func npyRead(b []byte) (*npy.Array, error) {
	return npy.Read(strings.NewReader(string(b)))
}

func sharedDir(t *testing.T) string {
	d := os.Getenv("LWGCN_SHARED")
	if d == "" {
		d = "../../../../shared"
	}
	d = filepath.Join(d, "datasets")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("shared datasets not found at %s (set LWGCN_SHARED): %v", d, err)
	}
	return d
}

func eq[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
