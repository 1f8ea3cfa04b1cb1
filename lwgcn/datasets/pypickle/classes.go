package pypickle

import (
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/lwgcn/toolkit/lwgcn/datasets/npy"
	"github.com/nlpodyssey/gopickle/types"
)

// maxElements bounds the element count a pickled array header may claim.
const maxElements = 1 << 40

// findClass resolves the Python globals these pickles reference. Anything
// else is an error, so unexpected content is reported instead of silently
// becoming an opaque object.
func findClass(module, name string) (any, error) {
	switch module + "." + name {
	case "numpy.core.multiarray._reconstruct", "numpy._core.multiarray._reconstruct":
		return reconstructFunc{}, nil
	case "numpy.ndarray", "numpy.matrix", "numpy.matrixlib.defmatrix.matrix":
		return ndarrayClass{}, nil
	case "numpy.dtype":
		return dtypeClass{}, nil
	case "numpy.core.multiarray.scalar", "numpy._core.multiarray.scalar":
		return scalarFunc{}, nil
	case "scipy.sparse.csr.csr_matrix", "scipy.sparse._csr.csr_matrix", "scipy.sparse._csr.csr_array",
		"scipy.sparse._arrays.csr_array":
		return csrClass{}, nil
	case "collections.defaultdict":
		return defaultDictClass{}, nil
	case "_codecs.encode":
		return codecsEncode{}, nil
	case "__builtin__.list":
		return &types.List{}, nil
	case "__builtin__.dict":
		return &types.Dict{}, nil
	}
	return nil, fmt.Errorf("unsupported Python class %s.%s (known: numpy arrays and dtypes, scipy CSR matrices, "+
		"defaultdict, list, dict)", module, name)
}

// NDArray is a numpy.ndarray rebuilt from a pickle. Numeric arrays carry their
// bytes in the embedded npy.Array (C order); object arrays carry their
// elements in Objects.
type NDArray struct {
	npy.Array
	// Objects holds the elements of an object array (DType.Kind 'O'), C order.
	Objects []any
	filled  bool
}

type ndarrayClass struct{}

func (ndarrayClass) PyNew(args ...any) (any, error) { return &NDArray{}, nil }

// reconstructFunc is numpy.core.multiarray._reconstruct(subtype, shape, dtype):
// an empty array that the following BUILD fills through __setstate__.
type reconstructFunc struct{}

func (reconstructFunc) Call(args ...any) (any, error) {
	if len(args) != 3 {
		return nil, fmt.Errorf("numpy _reconstruct: %d arguments, want 3", len(args))
	}
	if _, ok := args[0].(ndarrayClass); !ok {
		return nil, fmt.Errorf("numpy _reconstruct of %T, want numpy.ndarray", args[0])
	}
	return &NDArray{}, nil
}

// PySetState implements ndarray.__setstate__((version, shape, dtype,
// is_fortran, data)); the version is absent in very old pickles.
func (a *NDArray) PySetState(state any) error {
	t, ok := state.(*types.Tuple)
	if !ok {
		return fmt.Errorf("ndarray state is %T, want tuple", state)
	}
	items := []any(*t)
	switch len(items) {
	case 5:
		if v, ok := items[0].(int); !ok || v != 1 {
			return fmt.Errorf("ndarray state version %#v, want 1", items[0])
		}
		items = items[1:]
	case 4:
	default:
		return fmt.Errorf("ndarray state has %d items, want 4 or 5", len(items))
	}
	if a.filled {
		return fmt.Errorf("ndarray state set twice")
	}
	shapeT, ok := items[0].(*types.Tuple)
	if !ok {
		return fmt.Errorf("ndarray shape is %T, want tuple", items[0])
	}
	shape := make([]int, 0, len(*shapeT))
	count := int64(1)
	for i, d := range *shapeT {
		n, ok := d.(int)
		if !ok || n < 0 {
			return fmt.Errorf("ndarray shape dimension %d is not a non-negative int", i)
		}
		if n > 0 && count > maxElements/int64(n) {
			return fmt.Errorf("ndarray shape has more than %d elements", int64(maxElements))
		}
		count *= int64(n)
		shape = append(shape, n)
	}
	dt, ok := items[1].(*DTypeValue)
	if !ok {
		return fmt.Errorf("ndarray dtype is %T, want numpy.dtype", items[1])
	}
	fortran, ok := items[2].(bool)
	if !ok {
		return fmt.Errorf("ndarray is_fortran flag is %T, want bool", items[2])
	}
	a.Shape, a.DType = shape, dt.DType
	if dt.Kind == 'O' {
		list, ok := items[3].(*types.List)
		if !ok {
			return fmt.Errorf("object ndarray data is %T, want list", items[3])
		}
		if int64(len(*list)) != count {
			return fmt.Errorf("object ndarray of shape %v has %d elements, want %d", shape, len(*list), count)
		}
		if fortran && len(shape) > 1 {
			return fmt.Errorf("Fortran-ordered object arrays are not supported")
		}
		a.Objects = []any(*list)
		a.filled = true
		return nil
	}
	raw, ok := Bytes(items[3])
	if !ok {
		return fmt.Errorf("ndarray data is %T, want bytes", items[3])
	}
	if want := count * int64(dt.Size); int64(len(raw)) != want {
		return fmt.Errorf("ndarray of shape %v dtype %s has %d data bytes, want %d", shape, dt.DType, len(raw), want)
	}
	if fortran && len(shape) > 1 {
		raw = npy.FortranToC(raw, shape, dt.Size)
	}
	a.Data = raw
	a.filled = true
	return nil
}

// check reports an array whose state was never set (a truncated pickle).
func (a *NDArray) check() error {
	if a == nil || !a.filled {
		return fmt.Errorf("ndarray without data (no __setstate__)")
	}
	return nil
}

// DTypeValue is a numpy.dtype rebuilt from a pickle.
type DTypeValue struct {
	npy.DType
}

type dtypeClass struct{}

// Call implements numpy.dtype(code, align, copy), e.g. dtype('i4', 0, 1).
func (dtypeClass) Call(args ...any) (any, error) {
	if len(args) < 1 {
		return nil, fmt.Errorf("numpy.dtype() without a type code")
	}
	code, ok := Bytes(args[0])
	if !ok {
		return nil, fmt.Errorf("numpy.dtype code is %T, want str", args[0])
	}
	d, err := npy.ParseDType(string(code))
	if err != nil {
		return nil, fmt.Errorf("numpy.dtype: %w", err)
	}
	return &DTypeValue{d}, nil
}

// PySetState implements dtype.__setstate__((version, byteorder, ...)); only
// the byte order matters for the scalar types read here.
func (d *DTypeValue) PySetState(state any) error {
	t, ok := state.(*types.Tuple)
	if !ok || len(*t) < 2 {
		return fmt.Errorf("numpy.dtype state is %T, want a tuple of at least 2 items", state)
	}
	order, ok := Bytes((*t)[1])
	if !ok || len(order) != 1 {
		return fmt.Errorf("numpy.dtype byte order is %T, want a one-character str", (*t)[1])
	}
	switch order[0] {
	case '>':
		d.BigEndian = d.Size > 1
	case '<', '=', '|':
		d.BigEndian = false
	default:
		return fmt.Errorf("numpy.dtype byte order %q", order)
	}
	return nil
}

// scalarFunc is numpy.core.multiarray.scalar(dtype, bytes): a numpy scalar.
// It yields int, float64 or bool like the pickle's own numbers.
type scalarFunc struct{}

func (scalarFunc) Call(args ...any) (any, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("numpy scalar: %d arguments, want 2", len(args))
	}
	dt, ok := args[0].(*DTypeValue)
	if !ok {
		return nil, fmt.Errorf("numpy scalar dtype is %T", args[0])
	}
	raw, ok := Bytes(args[1])
	if !ok || len(raw) != dt.Size || !dt.IsNumeric() {
		return nil, fmt.Errorf("numpy scalar of dtype %s with %d bytes", dt.DType, len(raw))
	}
	a := npy.Array{Shape: []int{}, DType: dt.DType, Data: raw}
	switch dt.Kind {
	case 'f':
		v, err := a.Float64s()
		if err != nil {
			return nil, err
		}
		return v[0], nil
	case 'b':
		return raw[0] != 0, nil
	}
	v, err := a.Int64s()
	if err != nil {
		return nil, err
	}
	return int(v[0]), nil
}

// CSRMatrix is a scipy.sparse.csr_matrix rebuilt from a pickle.
type CSRMatrix struct {
	// Shape is (rows, cols).
	Shape                 [2]int
	Data, Indices, Indptr *NDArray
	hasShape              bool
}

type csrClass struct{}

func (csrClass) PyNew(args ...any) (any, error) { return &CSRMatrix{}, nil }

// PySetState takes the instance __dict__ that scipy pickles: format, _shape
// (or shape in old scipy), data, indices, indptr and bookkeeping attributes.
func (m *CSRMatrix) PySetState(state any) error {
	if t, ok := state.(*types.Tuple); ok && len(*t) == 2 {
		state = (*t)[0]
	}
	d, ok := state.(*types.Dict)
	if !ok {
		return fmt.Errorf("csr_matrix state is %T, want dict", state)
	}
	for _, e := range *d {
		k, ok := Bytes(e.Key)
		if !ok {
			continue
		}
		switch string(k) {
		case "format":
			if f, ok := Bytes(e.Value); !ok || string(f) != "csr" {
				return fmt.Errorf("csr_matrix format is not 'csr'")
			}
		case "_shape", "shape":
			t, ok := e.Value.(*types.Tuple)
			if !ok || len(*t) != 2 {
				return fmt.Errorf("csr_matrix shape is %T, want a 2-tuple", e.Value)
			}
			r, ok1 := (*t)[0].(int)
			c, ok2 := (*t)[1].(int)
			if !ok1 || !ok2 || r < 0 || c < 0 || r > math.MaxInt32 || c > math.MaxInt32 {
				return fmt.Errorf("csr_matrix shape is not two non-negative int32 values")
			}
			m.Shape, m.hasShape = [2]int{r, c}, true
		case "data", "indices", "indptr":
			a, ok := e.Value.(*NDArray)
			if !ok {
				return fmt.Errorf("csr_matrix %s is %T, want ndarray", k, e.Value)
			}
			switch string(k) {
			case "data":
				m.Data = a
			case "indices":
				m.Indices = a
			default:
				m.Indptr = a
			}
		}
	}
	return nil
}

// ToCSR validates the matrix and returns CSR parts with int32 indices and
// float32 values. Rows are sorted by column and duplicate entries summed, as
// scipy's todense does.
func (m *CSRMatrix) ToCSR() (rows, cols int, rowPtr, colIdx []int32, vals []float32, err error) {
	fail := func(format string, args ...any) (int, int, []int32, []int32, []float32, error) {
		return 0, 0, nil, nil, nil, fmt.Errorf("csr_matrix: "+format, args...)
	}
	if !m.hasShape || m.Data == nil || m.Indices == nil || m.Indptr == nil {
		return fail("state lacks shape, data, indices or indptr")
	}
	for _, a := range []*NDArray{m.Data, m.Indices, m.Indptr} {
		if err := a.check(); err != nil {
			return fail("%v", err)
		}
		if len(a.Shape) != 1 {
			return fail("component of shape %v, want 1-D", a.Shape)
		}
	}
	rows, cols = m.Shape[0], m.Shape[1]
	ptr, err := m.Indptr.Int64s()
	if err != nil {
		return fail("indptr: %v", err)
	}
	idx, err := m.Indices.Int64s()
	if err != nil {
		return fail("indices: %v", err)
	}
	data, err := m.Data.Float32s()
	if err != nil {
		return fail("data: %v", err)
	}
	if len(ptr) != rows+1 {
		return fail("indptr has %d entries for %d rows", len(ptr), rows)
	}
	if ptr[0] != 0 || ptr[rows] != int64(len(idx)) || len(idx) != len(data) {
		return fail("indptr ends at %d but there are %d indices and %d values", ptr[rows], len(idx), len(data))
	}
	if len(idx) > math.MaxInt32 {
		return fail("%d non-zeros exceed int32", len(idx))
	}
	rowPtr = make([]int32, rows+1)
	colIdx = make([]int32, 0, len(idx))
	vals = make([]float32, 0, len(idx))
	for r := 0; r < rows; r++ {
		lo, hi := ptr[r], ptr[r+1]
		if lo > hi || hi > int64(len(idx)) {
			return fail("indptr is not non-decreasing at row %d", r)
		}
		start := len(colIdx)
		for k := lo; k < hi; k++ {
			c := idx[k]
			if c < 0 || c >= int64(cols) {
				return fail("row %d has column %d outside [0,%d)", r, c, cols)
			}
			colIdx = append(colIdx, int32(c))
			vals = append(vals, data[k])
		}
		sortMerge(&colIdx, &vals, start)
		rowPtr[r+1] = int32(len(colIdx))
	}
	return rows, cols, rowPtr, colIdx, vals, nil
}

// sortMerge sorts the entries from start on by column and sums duplicates.
func sortMerge(cols *[]int32, vals *[]float32, start int) {
	c, v := (*cols)[start:], (*vals)[start:]
	sorted := true
	for i := 1; i < len(c); i++ {
		if c[i-1] >= c[i] {
			sorted = false
			break
		}
	}
	if sorted {
		return
	}
	for i := 1; i < len(c); i++ { // insertion sort: rows are short
		ci, vi := c[i], v[i]
		j := i - 1
		for ; j >= 0 && c[j] > ci; j-- {
			c[j+1], v[j+1] = c[j], v[j]
		}
		c[j+1], v[j+1] = ci, vi
	}
	w := 0
	for i := range c {
		if w > 0 && c[w-1] == c[i] {
			v[w-1] += v[i]
			continue
		}
		c[w], v[w] = c[i], v[i]
		w++
	}
	*cols, *vals = (*cols)[:start+w], (*vals)[:start+w]
}

// DefaultDict is a collections.defaultdict rebuilt from a pickle: its items in
// insertion order (a repeated key keeps its first position and last value, as
// in Python).
type DefaultDict struct {
	Factory any
	Entries []types.DictEntry
	index   map[any]int
}

type defaultDictClass struct{}

func (defaultDictClass) Call(args ...any) (any, error) {
	if len(args) > 1 {
		return nil, fmt.Errorf("defaultdict: %d arguments, want at most 1", len(args))
	}
	d := &DefaultDict{index: map[any]int{}}
	if len(args) == 1 {
		d.Factory = args[0]
	}
	return d, nil
}

// Set implements the pickle SETITEM(S) opcodes.
func (d *DefaultDict) Set(key, value any) {
	if d.index == nil {
		d.index = map[any]int{}
	}
	if k, ok := hashable(key); ok {
		if i, seen := d.index[k]; seen {
			d.Entries[i].Value = value
			return
		}
		d.index[k] = len(d.Entries)
	}
	d.Entries = append(d.Entries, types.DictEntry{Key: key, Value: value})
}

// hashable returns a map key for the comparable scalar types a pickle yields.
func hashable(v any) (any, bool) {
	switch k := v.(type) {
	case int, string, bool, float64, nil:
		return k, true
	case *big.Int:
		return "bigint:" + k.String(), true
	}
	return nil, false
}

// codecsEncode is _codecs.encode(str, 'latin1'), which Python 3 uses to pickle
// bytes at protocol 2.
type codecsEncode struct{}

func (codecsEncode) Call(args ...any) (any, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("_codecs.encode: %d arguments, want 2", len(args))
	}
	s, ok1 := args[0].(string)
	enc, ok2 := args[1].(string)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("_codecs.encode of %T, %T", args[0], args[1])
	}
	switch enc {
	case "latin1", "latin-1", "iso-8859-1", "iso8859-1":
	default:
		return nil, fmt.Errorf("_codecs.encode: encoding %q not supported", enc)
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || r > 0xff {
			return nil, fmt.Errorf("_codecs.encode: character at byte %d is not latin-1", i)
		}
		out = append(out, byte(r))
		i += size
	}
	return out, nil
}
