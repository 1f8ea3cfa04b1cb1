package npy_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fx "github.com/lwgcn/toolkit/lwgcn/datasets/internal/fixtures"
	"github.com/lwgcn/toolkit/lwgcn/datasets/npy"
	"github.com/lwgcn/toolkit/lwgcn/limits"
)

func TestReadFloat32AndFortranOrder(t *testing.T) {
	// Column-major [1,2,3,4] of shape (2,2) is the matrix [[1,3],[2,4]]
	// (checked with numpy.load); in C order that is 1,3,2,4.
	a, err := npy.Read(bytes.NewReader(fx.NPY("<f4", []int{2, 2}, true, fx.Float32s([]float32{1, 2, 3, 4}))))
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.Float32s()
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{1, 3, 2, 4}; !equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if a.Len() != 4 || a.DType.String() != "<f4" {
		t.Errorf("len %d dtype %s", a.Len(), a.DType)
	}
}

func TestFortranOrder3D(t *testing.T) {
	// Element (i,j,k) of shape (2,3,2) sits at i + 2j + 6k in Fortran order.
	// Store value 100i+10j+k there; C order must then list them by (i,j,k).
	f := make([]int64, 12)
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 2; k++ {
				f[i+2*j+6*k] = int64(100*i + 10*j + k)
			}
		}
	}
	a, err := npy.Read(bytes.NewReader(fx.NPY("<i8", []int{2, 3, 2}, true, fx.Int64s(f))))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := a.Int64s()
	n := 0
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 2; k++ {
				if got[n] != int64(100*i+10*j+k) {
					t.Fatalf("C index %d = %d, want %d", n, got[n], 100*i+10*j+k)
				}
				n++
			}
		}
	}
}

func TestBigEndianAndVersion2Header(t *testing.T) {
	data := make([]byte, 8)
	neg := int32(-7)
	binary.BigEndian.PutUint32(data, uint32(neg))
	binary.BigEndian.PutUint32(data[4:], 300)
	h := "{'descr': '>i4', 'fortran_order': False, 'shape': (2L,), }\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x02\x00")
	binary.Write(&b, binary.LittleEndian, uint32(len(h)))
	b.WriteString(h)
	b.Write(data)
	a, err := npy.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.Int64s()
	if err != nil || got[0] != -7 || got[1] != 300 {
		t.Errorf("got %v, %v; want [-7 300]", got, err)
	}
	f, _ := a.Float64s()
	if f[0] != -7 || f[1] != 300 {
		t.Errorf("Float64s = %v", f)
	}
}

func TestBoolsFromUint8AndBool(t *testing.T) {
	for _, descr := range []string{"|u1", "|b1"} {
		a, err := npy.Read(bytes.NewReader(fx.NPY(descr, []int{3}, false, []byte{1, 0, 1})))
		if err != nil {
			t.Fatal(err)
		}
		m, err := a.Bools()
		if err != nil || !m[0] || m[1] || !m[2] {
			t.Errorf("%s: %v %v", descr, m, err)
		}
	}
	a, _ := npy.Read(bytes.NewReader(fx.NPY("|u1", []int{3}, false, []byte{1, 2, 0})))
	if _, err := a.Bools(); err == nil || !strings.Contains(err.Error(), "element 1 = 2 is not a boolean") {
		t.Errorf("mask value 2: err = %v", err)
	}
}

func TestTypedAccessorsRefuseWrongDtype(t *testing.T) {
	a, _ := npy.Read(bytes.NewReader(fx.NPY("<f4", []int{1}, false, fx.Float32s([]float32{1.5}))))
	if _, err := a.Int64s(); err == nil || !strings.Contains(err.Error(), "not an integer type") {
		t.Errorf("Int64s of float: %v", err)
	}
	if _, err := a.Bools(); err == nil {
		t.Errorf("Bools of float: no error")
	}
	s, _ := npy.Read(bytes.NewReader(fx.NPY("<U3", []int{1}, false, make([]byte, 12))))
	if _, err := s.Float32s(); err == nil || !strings.Contains(err.Error(), "not numeric") {
		t.Errorf("Float32s of unicode: %v", err)
	}
}

func TestHalfFloat(t *testing.T) {
	// 0x3c00 = 1.0, 0xc000 = -2.0, 0x0001 = 2^-24 (smallest subnormal).
	a, err := npy.Read(bytes.NewReader(fx.NPY("<f2", []int{3}, false, []byte{0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00})))
	if err != nil {
		t.Fatal(err)
	}
	v, _ := a.Float64s()
	if v[0] != 1 || v[1] != -2 || v[2] != 1.0/(1<<24) {
		t.Errorf("got %v", v)
	}
}

func TestObjectArrayKeepsPickle(t *testing.T) {
	a, err := npy.Read(bytes.NewReader(fx.NPY("|O", []int{2}, false, []byte("pickle-bytes"))))
	if err != nil {
		t.Fatal(err)
	}
	if string(a.Pickle) != "pickle-bytes" || a.Data != nil {
		t.Errorf("pickle %q data %v", a.Pickle, a.Data)
	}
	if _, err := a.Float32s(); err == nil || !strings.Contains(err.Error(), "object array") {
		t.Errorf("numeric read of object array: %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	good := fx.NPY("<i8", []int{2}, false, fx.Int64s([]int64{1, 2}))
	cases := []struct {
		name, want string
		in         []byte
	}{
		{"empty", "empty input", nil},
		{"bad magic", "bad magic", append([]byte("NUMPY!"), good[6:]...)},
		{"version", "unsupported format version 9.0", append([]byte("\x93NUMPY\x09\x00"), good[8:]...)},
		{"truncated header", "header of", good[:20]},
		{"truncated data", "got 8 of 16 bytes: truncated", good[:len(good)-8]},
		{"structured", "structured dtype", fx.NPY("<f4", nil, false, nil)[:0]},
	}
	// A structured dtype header, written by hand.
	h := "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\n"
	st := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)), 0)
	cases[5].in = append(st, h...)
	for _, c := range cases {
		_, err := npy.Read(bytes.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	_, err := npy.Read(bytes.NewReader(good[:len(good)-8]))
	if !errors.Is(err, npy.ErrTruncated) {
		t.Errorf("truncated data error does not wrap ErrTruncated: %v", err)
	}
}

func TestHeaderClaimingHugeShapeDoesNotAllocate(t *testing.T) {
	// A budget above the claimed 8 GiB, whatever this host has free: the
	// reader must then fail on the short data, not allocate the array.
	t.Setenv(limits.EnvMaxMemory, "1TiB")
	in := fx.NPY("<f8", []int{1 << 20, 1 << 10}, false, []byte{1, 2, 3})
	_, err := npy.Read(bytes.NewReader(in))
	if err == nil || !strings.Contains(err.Error(), "got 3 of 8589934592 bytes") {
		t.Errorf("err = %v", err)
	}
	in = fx.NPY("<f8", []int{1 << 40, 1 << 20}, false, nil)
	if _, err = npy.Read(bytes.NewReader(in)); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Errorf("overflowing shape: err = %v", err)
	}
}

func TestNPZKeysAndErrors(t *testing.T) {
	for _, compress := range []bool{false, true} {
		z := fx.NPZ(compress,
			fx.Member{Name: "train_mask", Data: fx.NPY("|b1", []int{3}, false, []byte{1, 0, 0})},
			fx.Member{Name: "val_mask", Data: fx.NPY("|u1", []int{3}, false, []byte{0, 1, 0})})
		path := filepath.Join(t.TempDir(), "s.npz")
		os.WriteFile(path, z, 0o644)
		npz, err := npy.OpenNPZ(path)
		if err != nil {
			t.Fatal(err)
		}
		if k := npz.Keys(); len(k) != 2 || k[0] != "train_mask" || k[1] != "val_mask" {
			t.Errorf("keys %v", k)
		}
		a, err := npz.Array("val_mask")
		if err != nil {
			t.Fatal(err)
		}
		if m, _ := a.Bools(); m[0] || !m[1] || m[2] {
			t.Errorf("val_mask %v", m)
		}
		_, err = npz.Array("test_mask")
		if err == nil || !strings.Contains(err.Error(), `s.npz: missing key "test_mask" (keys: train_mask, val_mask)`) {
			t.Errorf("missing key: %v", err)
		}
		npz.Close()
		os.WriteFile(path, z[:len(z)/2], 0o644)
		if _, err := npy.OpenNPZ(path); err == nil || !strings.Contains(err.Error(), "not a valid .npz") {
			t.Errorf("truncated npz: %v", err)
		}
	}
	// A member whose data is cut short names the key.
	z := fx.NPZ(false, fx.Member{Name: "x", Data: fx.NPY("<i8", []int{4}, false, fx.Int64s([]int64{1, 2}))})
	npz, err := npy.NewNPZ(bytes.NewReader(z), int64(len(z)), "m.npz")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := npz.Array("x"); err == nil || !strings.Contains(err.Error(), `m.npz: key "x": npy: data of shape [4] dtype <i8: got 16 of 32 bytes: truncated`) {
		t.Errorf("truncated member: %v", err)
	}
}

func TestRealSplitFileIfPresent(t *testing.T) {
	p := filepath.Join(sharedDir(t), "geom-gcn/splits/texas_split_0.6_0.2_0.npz")
	z, err := npy.OpenNPZ(p)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	a, err := z.Array("train_mask")
	if err != nil {
		t.Fatal(err)
	}
	m, err := a.Bools()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range m {
		if b {
			n++
		}
	}
	if len(m) != 183 || n != 87 || a.DType.String() != "|u1" {
		t.Errorf("texas split 0: %d nodes, %d train, dtype %s; want 183, 87, |u1", len(m), n, a.DType)
	}
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

func equal[T comparable](a, b []T) bool {
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
