package npy

import (
	"encoding/binary"
	"fmt"
	"strconv"
)

// DType is a NumPy scalar type: a kind character and an item size in bytes.
type DType struct {
	// Kind is NumPy's kind character: 'b' bool, 'i' signed int, 'u' unsigned
	// int, 'f' float, 'c' complex, 'O' Python object, 'S' bytes, 'U' unicode,
	// 'V' void, 'M'/'m' datetime/timedelta.
	Kind byte
	// Size is the item size in bytes (8 for object pointers).
	Size int
	// BigEndian is true for '>' descriptors with Size > 1.
	BigEndian bool
}

// ParseDType parses a NumPy type descriptor such as "<f4", "|b1", "|O" or
// ">i8". A missing byte-order character means little-endian ('=' and '<' are
// treated alike: .npy files written on big-endian machines use '>').
func ParseDType(descr string) (DType, error) {
	s := descr
	var d DType
	if s != "" {
		switch s[0] {
		case '<', '=', '|':
			s = s[1:]
		case '>':
			d.BigEndian = true
			s = s[1:]
		}
	}
	if s == "" {
		return DType{}, fmt.Errorf("empty dtype descriptor %q", descr)
	}
	d.Kind = s[0]
	switch d.Kind {
	case 'b', 'i', 'u', 'f', 'c', 'O', 'S', 'U', 'V', 'M', 'm':
	case '?':
		d.Kind = 'b'
	default:
		return DType{}, fmt.Errorf("unknown dtype kind %q in %q", s[0], descr)
	}
	rest := s[1:]
	if i := indexByte(rest, '['); i >= 0 { // datetime unit, e.g. "M8[ns]"
		rest = rest[:i]
	}
	switch {
	case rest == "" && d.Kind == 'O':
		d.Size = 8
	case rest == "" && d.Kind == 'b':
		d.Size = 1
	default:
		n, err := strconv.Atoi(rest)
		if err != nil || n <= 0 || n > 1<<20 {
			return DType{}, fmt.Errorf("bad item size %q in dtype %q", rest, descr)
		}
		d.Size = n
	}
	if d.Size == 1 {
		d.BigEndian = false
	}
	switch d.Kind {
	case 'b':
		if d.Size != 1 {
			return DType{}, fmt.Errorf("bool dtype %q with item size %d", descr, d.Size)
		}
	case 'i', 'u':
		if d.Size != 1 && d.Size != 2 && d.Size != 4 && d.Size != 8 {
			return DType{}, fmt.Errorf("integer dtype %q with item size %d", descr, d.Size)
		}
	case 'f':
		if d.Size != 2 && d.Size != 4 && d.Size != 8 {
			return DType{}, fmt.Errorf("float dtype %q with item size %d", descr, d.Size)
		}
	}
	return d, nil
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// String returns the descriptor, e.g. "<f4", "|b1", "|O".
func (d DType) String() string {
	if d.Kind == 'O' {
		return "|O"
	}
	order := "<"
	switch {
	case d.Size == 1 || d.Kind == 'S' || d.Kind == 'V':
		order = "|"
	case d.BigEndian:
		order = ">"
	}
	return order + string(d.Kind) + strconv.Itoa(d.Size)
}

// IsNumeric reports whether the dtype is bool, integer or float.
func (d DType) IsNumeric() bool {
	return d.Kind == 'b' || d.Kind == 'i' || d.Kind == 'u' || d.Kind == 'f'
}

func (d DType) order() binary.ByteOrder {
	if d.BigEndian {
		return binary.BigEndian
	}
	return binary.LittleEndian
}
