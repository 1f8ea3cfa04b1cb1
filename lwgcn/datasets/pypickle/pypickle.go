package pypickle

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/big"

	"github.com/lwgcn/toolkit/lwgcn/datasets/npy"
	"github.com/nlpodyssey/gopickle/pickle"
	"github.com/nlpodyssey/gopickle/types"
)

// MaxBytes bounds the size of a pickle read by Load.
const MaxBytes = 1 << 30

// Loads decodes one pickle. The result is built from: nil, bool, int,
// *big.Int, float64, string (Python 2 str and Python 3 str), []byte,
// *types.Tuple, *types.List, *types.Dict, *NDArray, *DTypeValue, *CSRMatrix and
// *DefaultDict.
func Loads(data []byte) (any, error) {
	data, err := check(data)
	if err != nil {
		return nil, err
	}
	u := pickle.NewUnpickler(bytes.NewReader(data))
	u.FindClass = findClass
	v, err := u.Load()
	if err != nil {
		return nil, fmt.Errorf("pickle: %w", err)
	}
	return v, nil
}

// Load reads r to the end (at most MaxBytes) and decodes it with Loads.
func Load(r io.Reader) (any, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("pickle: input exceeds %d bytes", MaxBytes)
	}
	return Loads(data)
}

// ObjectArray decodes the pickled payload of an object array read by package
// npy (a .npy saved with allow_pickle=True) and checks that it matches the
// .npy header's shape.
func ObjectArray(a *npy.Array) ([]any, error) {
	if a.DType.Kind != 'O' {
		return nil, fmt.Errorf("dtype %s is not an object array", a.DType)
	}
	v, err := Loads(a.Pickle)
	if err != nil {
		return nil, err
	}
	nd, ok := v.(*NDArray)
	if !ok {
		return nil, fmt.Errorf("object-array pickle holds %T, want numpy.ndarray", v)
	}
	if err := nd.check(); err != nil {
		return nil, err
	}
	if nd.DType.Kind != 'O' {
		return nil, fmt.Errorf("object-array pickle holds an array of dtype %s", nd.DType)
	}
	if !equalInts(nd.Shape, a.Shape) {
		return nil, fmt.Errorf("object-array pickle has shape %v, header says %v", nd.Shape, a.Shape)
	}
	return nd.Objects, nil
}

func equalInts(a, b []int) bool {
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

// Array returns v as a filled *NDArray.
func Array(v any) (*NDArray, error) {
	a, ok := v.(*NDArray)
	if !ok {
		return nil, fmt.Errorf("got %T, want numpy.ndarray", v)
	}
	if err := a.check(); err != nil {
		return nil, err
	}
	return a, nil
}

// Bytes returns the bytes of a Python 2 str / Python 3 str or bytes value.
func Bytes(v any) ([]byte, bool) {
	switch s := v.(type) {
	case string:
		return []byte(s), true
	case []byte:
		return s, true
	case *types.ByteArray:
		return []byte(*s), true
	}
	return nil, false
}

// Int returns a Python int (or a big int that fits in int64) as int64.
func Int(v any) (int64, error) {
	switch n := v.(type) {
	case int:
		return int64(n), nil
	case *big.Int:
		if n.IsInt64() {
			return n.Int64(), nil
		}
		return 0, fmt.Errorf("integer %s overflows int64", n)
	}
	return 0, fmt.Errorf("got %T, want int", v)
}

// Ints returns a list or tuple of ints, or a 1-D integer ndarray, as int64s.
func Ints(v any) ([]int64, error) {
	var items []any
	switch s := v.(type) {
	case *types.List:
		items = *s
	case *types.Tuple:
		items = *s
	case *NDArray:
		if err := s.check(); err != nil {
			return nil, err
		}
		if s.DType.Kind == 'O' {
			items = s.Objects
			break
		}
		if len(s.Shape) != 1 {
			return nil, fmt.Errorf("integer array of shape %v, want 1-D", s.Shape)
		}
		return s.Int64s()
	default:
		return nil, fmt.Errorf("got %T, want a list of ints", v)
	}
	out := make([]int64, len(items))
	for i, it := range items {
		n, err := Int(it)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		out[i] = n
	}
	return out, nil
}

// Len returns the number of items of a list, tuple or 1-D array without
// converting them (ok false for other values). Memo references let a small
// pickle repeat one long list many times: callers add the lengths up and
// check them against the memory budget before converting.
func Len(v any) (n int, ok bool) {
	switch s := v.(type) {
	case *types.List:
		return len(*s), true
	case *types.Tuple:
		return len(*s), true
	case *NDArray:
		if s.DType.Kind == 'O' {
			return len(s.Objects), true
		}
		if len(s.Shape) == 1 {
			return s.Shape[0], true
		}
	}
	return 0, false
}

// Items returns the key/value pairs of a dict or defaultdict in order.
func Items(v any) ([]types.DictEntry, error) {
	switch d := v.(type) {
	case *types.Dict:
		dd := &DefaultDict{}
		for _, e := range *d {
			dd.Set(e.Key, e.Value)
		}
		return dd.Entries, nil
	case *DefaultDict:
		return d.Entries, nil
	}
	return nil, fmt.Errorf("got %T, want dict", v)
}

// Float returns a Python float or int as float64.
func Float(v any) (float64, error) {
	switch n := v.(type) {
	case float64:
		return n, nil
	case int:
		return float64(n), nil
	case *big.Int:
		f, _ := new(big.Float).SetInt(n).Float64()
		if math.IsInf(f, 0) {
			return 0, fmt.Errorf("integer %s overflows float64", n)
		}
		return f, nil
	}
	return 0, fmt.Errorf("got %T, want float", v)
}
