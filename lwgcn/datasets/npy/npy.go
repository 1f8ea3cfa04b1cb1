package npy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/limits"
)

// Limits on untrusted input.
const (
	// MaxHeaderBytes bounds the .npy header (NumPy itself refuses headers over
	// 10,000 bytes unless told otherwise).
	MaxHeaderBytes = 1 << 20
	// MaxDataBytes bounds the data section an array header may announce.
	MaxDataBytes = 1 << 40
	// MaxPickleBytes bounds the pickled payload of an object array.
	MaxPickleBytes = 1 << 30
	// maxDims bounds the number of dimensions (NumPy's own limit is 64).
	maxDims = 64
)

// ErrTruncated is wrapped by errors for input that ends too early.
var ErrTruncated = errors.New("truncated")

// Magic is the first six bytes of every .npy file.
const Magic = "\x93NUMPY"

// Array is one array read from a .npy file (or an .npz member).
type Array struct {
	// Shape lists the dimensions; an empty Shape is a scalar (one element).
	Shape []int
	// DType is the element type.
	DType DType
	// Data holds the elements' bytes in C (row-major) order and the file's
	// byte order; nil for object arrays.
	Data []byte
	// Pickle holds the pickled payload of an object array (DType.Kind 'O');
	// decode it with package pypickle.
	Pickle []byte
}

// Len returns the number of elements (the product of Shape).
func (a *Array) Len() int {
	n := 1
	for _, d := range a.Shape {
		n *= d
	}
	return n
}

// ReadFile reads a .npy file; errors name the path.
func ReadFile(path string) (*Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := Read(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// Read reads one .npy array from r. It reads exactly the header and the data
// section, so several arrays can be read back to back; for object arrays it
// reads r to the end (the pickle's length is not recorded in the header).
func Read(r io.Reader) (*Array, error) {
	h, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	a := &Array{Shape: h.shape, DType: h.dtype}
	if h.dtype.Kind == 'O' {
		p, err := io.ReadAll(io.LimitReader(r, MaxPickleBytes+1))
		if err != nil {
			return nil, fmt.Errorf("npy: reading object-array pickle: %w", err)
		}
		if len(p) > MaxPickleBytes {
			return nil, fmt.Errorf("npy: object-array pickle exceeds %d bytes", MaxPickleBytes)
		}
		if len(p) == 0 {
			return nil, fmt.Errorf("npy: object array has no pickled payload: %w", ErrTruncated)
		}
		a.Pickle = p
		return a, nil
	}
	n := int64(h.count) * int64(h.dtype.Size)
	data, err := readExactly(r, n)
	if err != nil {
		return nil, fmt.Errorf("npy: data of shape %v dtype %s: %w", h.shape, h.dtype, err)
	}
	if h.fortran && len(h.shape) > 1 {
		data = FortranToC(data, h.shape, h.dtype.Size)
	}
	a.Data = data
	return a, nil
}

type header struct {
	dtype   DType
	fortran bool
	shape   []int
	count   int
}

func readHeader(r io.Reader) (header, error) {
	var pre [8]byte
	if n, err := io.ReadFull(r, pre[:]); err != nil {
		if n == 0 && err == io.EOF {
			return header{}, fmt.Errorf("npy: empty input: %w", ErrTruncated)
		}
		return header{}, fmt.Errorf("npy: reading magic: %w", ErrTruncated)
	}
	if string(pre[:6]) != Magic {
		return header{}, fmt.Errorf("npy: bad magic %q (not a .npy file)", pre[:6])
	}
	major, minor := pre[6], pre[7]
	var hlen int
	switch major {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return header{}, fmt.Errorf("npy: reading header length: %w", ErrTruncated)
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return header{}, fmt.Errorf("npy: reading header length: %w", ErrTruncated)
		}
		l := binary.LittleEndian.Uint32(b[:])
		if l > MaxHeaderBytes {
			return header{}, fmt.Errorf("npy: header length %d exceeds %d", l, MaxHeaderBytes)
		}
		hlen = int(l)
	default:
		return header{}, fmt.Errorf("npy: unsupported format version %d.%d", major, minor)
	}
	hb := make([]byte, hlen)
	if _, err := io.ReadFull(r, hb); err != nil {
		return header{}, fmt.Errorf("npy: header of %d bytes: %w", hlen, ErrTruncated)
	}
	return parseHeader(string(hb))
}

// parseHeader interprets the header dict, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (2277, 2325), }.
func parseHeader(s string) (header, error) {
	s = strings.TrimRight(s, " \n\x00")
	p := &litParser{s: s}
	v, err := p.parse()
	if err != nil {
		return header{}, fmt.Errorf("npy: header %q: %w", clip(s), err)
	}
	d, ok := v.(litDict)
	if !ok {
		return header{}, fmt.Errorf("npy: header %q is not a dict", clip(s))
	}
	var h header
	descr, ok := d["descr"]
	if !ok {
		return header{}, fmt.Errorf("npy: header %q lacks 'descr'", clip(s))
	}
	ds, ok := descr.(string)
	if !ok {
		return header{}, fmt.Errorf("npy: structured dtype %q not supported", clip(s))
	}
	if h.dtype, err = ParseDType(ds); err != nil {
		return header{}, fmt.Errorf("npy: %w", err)
	}
	fo, ok := d["fortran_order"].(bool)
	if !ok {
		return header{}, fmt.Errorf("npy: header %q lacks a boolean 'fortran_order'", clip(s))
	}
	h.fortran = fo
	shape, ok := d["shape"].(litTuple)
	if !ok {
		return header{}, fmt.Errorf("npy: header %q lacks a tuple 'shape'", clip(s))
	}
	if len(shape) > maxDims {
		return header{}, fmt.Errorf("npy: %d dimensions exceed %d", len(shape), maxDims)
	}
	h.count = 1
	limit := int64(MaxDataBytes / h.dtype.Size)
	for i, e := range shape {
		n, ok := e.(int64)
		if !ok || n < 0 {
			return header{}, fmt.Errorf("npy: shape %q: dimension %d is not a non-negative integer", clip(s), i)
		}
		if n > 0 && int64(h.count) > limit/n {
			return header{}, fmt.Errorf("npy: shape %q exceeds %d bytes", clip(s), int64(MaxDataBytes))
		}
		h.count *= int(n)
		h.shape = append(h.shape, int(n))
	}
	if h.shape == nil {
		h.shape = []int{}
	}
	// The data and its widest conversion (Int64s, Float64s) must fit the
	// memory budget: a deflated .npz member can announce gigabytes in a few
	// kilobytes.
	if err := limits.CheckCount(fmt.Sprintf("npy: array of shape %s %s", shapeText(h.shape), h.dtype), int64(h.count),
		int64(h.dtype.Size)+8); err != nil {
		return header{}, err
	}
	return h, nil
}

// shapeText writes a shape as NumPy does: (3,), (32768, 1024).
func shapeText(shape []int) string {
	parts := make([]string, len(shape))
	for i, n := range shape {
		parts[i] = strconv.Itoa(n)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:120] + "..."
	}
	return s
}

// readExactly reads n bytes, growing the buffer as data arrives so that a
// header announcing more data than the input holds costs no more memory than
// the input itself.
func readExactly(r io.Reader, n int64) ([]byte, error) {
	const chunk = 1 << 22
	buf := make([]byte, 0, min(n, chunk))
	zeroReads := 0
	for int64(len(buf)) < n {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(n-int64(len(buf)), int64(cap(buf)))))
		}
		want := min(int64(cap(buf)), n)
		m, err := r.Read(buf[len(buf):want])
		buf = buf[:len(buf)+m]
		if m == 0 && err == nil {
			if zeroReads++; zeroReads > 100 {
				return nil, io.ErrNoProgress
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(buf)) < n {
		return nil, fmt.Errorf("got %d of %d bytes: %w", len(buf), n, ErrTruncated)
	}
	return buf, nil
}

// FortranToC reorders the bytes of a column-major (Fortran-order) array of
// the given shape and item size into row-major (C) order.
func FortranToC(data []byte, shape []int, size int) []byte {
	out := make([]byte, len(data))
	nd := len(shape)
	idx := make([]int, nd)
	// Fortran strides: stride[0] = 1, stride[k] = stride[k-1]*shape[k-1].
	fstride := make([]int, nd)
	s := 1
	for k := 0; k < nd; k++ {
		fstride[k] = s
		s *= shape[k]
	}
	total := s
	for c := 0; c < total; c++ { // c walks C order: last index fastest
		f := 0
		for k := 0; k < nd; k++ {
			f += idx[k] * fstride[k]
		}
		copy(out[c*size:(c+1)*size], data[f*size:(f+1)*size])
		for k := nd - 1; k >= 0; k-- {
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return out
}

func (a *Array) numericCheck() error {
	if a.DType.Kind == 'O' {
		return fmt.Errorf("object array (dtype |O) needs pickle decoding, not a numeric read")
	}
	if !a.DType.IsNumeric() {
		return fmt.Errorf("dtype %s is not numeric", a.DType)
	}
	if len(a.Data) != a.Len()*a.DType.Size {
		return fmt.Errorf("array data has %d bytes, want %d", len(a.Data), a.Len()*a.DType.Size)
	}
	return nil
}

// float64At decodes element i of a numeric array.
func (a *Array) float64At(i int) float64 {
	d := a.DType
	b := a.Data[i*d.Size : (i+1)*d.Size]
	o := d.order()
	switch d.Kind {
	case 'b':
		if b[0] != 0 {
			return 1
		}
		return 0
	case 'i':
		return float64(a.int64At(i))
	case 'u':
		return float64(a.uint64At(i))
	}
	switch d.Size {
	case 2:
		return float64(halfToFloat32(o.Uint16(b)))
	case 4:
		return float64(math.Float32frombits(o.Uint32(b)))
	default:
		return math.Float64frombits(o.Uint64(b))
	}
}

func (a *Array) int64At(i int) int64 {
	d := a.DType
	b := a.Data[i*d.Size : (i+1)*d.Size]
	o := d.order()
	switch d.Size {
	case 1:
		return int64(int8(b[0]))
	case 2:
		return int64(int16(o.Uint16(b)))
	case 4:
		return int64(int32(o.Uint32(b)))
	default:
		return int64(o.Uint64(b))
	}
}

func (a *Array) uint64At(i int) uint64 {
	d := a.DType
	b := a.Data[i*d.Size : (i+1)*d.Size]
	o := d.order()
	switch d.Size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(o.Uint16(b))
	case 4:
		return uint64(o.Uint32(b))
	default:
		return o.Uint64(b)
	}
}

// Float64s returns the elements as float64 (bool, integer or float dtypes).
func (a *Array) Float64s() ([]float64, error) {
	if err := a.numericCheck(); err != nil {
		return nil, err
	}
	out := make([]float64, a.Len())
	for i := range out {
		out[i] = a.float64At(i)
	}
	return out, nil
}

// Float32s returns the elements as float32 (bool, integer or float dtypes).
func (a *Array) Float32s() ([]float32, error) {
	if err := a.numericCheck(); err != nil {
		return nil, err
	}
	out := make([]float32, a.Len())
	if a.DType.Kind == 'f' && a.DType.Size == 4 && !a.DType.BigEndian {
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(a.Data[4*i:]))
		}
		return out, nil
	}
	for i := range out {
		out[i] = float32(a.float64At(i))
	}
	return out, nil
}

// Int64s returns the elements of a bool or integer array as int64. Float
// arrays are refused, since silently truncating them hides format errors.
func (a *Array) Int64s() ([]int64, error) {
	if err := a.numericCheck(); err != nil {
		return nil, err
	}
	out := make([]int64, a.Len())
	switch a.DType.Kind {
	case 'b':
		for i := range out {
			if a.Data[i] != 0 {
				out[i] = 1
			}
		}
	case 'i':
		for i := range out {
			out[i] = a.int64At(i)
		}
	case 'u':
		for i := range out {
			u := a.uint64At(i)
			if u > math.MaxInt64 {
				return nil, fmt.Errorf("element %d = %d overflows int64", i, u)
			}
			out[i] = int64(u)
		}
	default:
		return nil, fmt.Errorf("dtype %s is not an integer type", a.DType)
	}
	return out, nil
}

// Bools returns the elements of a bool array, or of an integer array whose
// values are all 0 or 1 (masks saved as uint8).
func (a *Array) Bools() ([]bool, error) {
	if err := a.numericCheck(); err != nil {
		return nil, err
	}
	out := make([]bool, a.Len())
	switch a.DType.Kind {
	case 'b':
		for i := range out {
			out[i] = a.Data[i] != 0
		}
	case 'i', 'u':
		for i := range out {
			var v uint64
			if a.DType.Kind == 'u' {
				v = a.uint64At(i)
			} else if s := a.int64At(i); s >= 0 {
				v = uint64(s)
			} else {
				return nil, fmt.Errorf("element %d = %d is not a boolean (0 or 1)", i, s)
			}
			if v > 1 {
				return nil, fmt.Errorf("element %d = %d is not a boolean (0 or 1)", i, v)
			}
			out[i] = v == 1
		}
	default:
		return nil, fmt.Errorf("dtype %s is not a boolean or integer type", a.DType)
	}
	return out, nil
}

// halfToFloat32 converts an IEEE 754 binary16 value.
func halfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := int32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal
		for frac&0x400 == 0 {
			frac <<= 1
			exp--
		}
		exp++
		frac &= 0x3ff
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	}
	return math.Float32frombits(sign | uint32(exp+127-15)<<23 | frac<<13)
}
