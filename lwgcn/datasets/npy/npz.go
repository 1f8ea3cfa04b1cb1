package npy

import (
	"archive/zip"
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/lwgcn/toolkit/lwgcn/limits"
)

// NPZ is an open .npz archive (a zip of .npy members, possibly deflated).
type NPZ struct {
	name   string
	zr     *zip.Reader
	closer io.Closer
	files  map[string]*zip.File
	keys   []string
	// unpacked counts the decompressed bytes of the members read so far
	// (MaxUnpackedBytes bounds them).
	unpacked uint64
}

// MaxUnpackedBytes bounds the decompressed bytes read from one archive: no
// dataset's arrays come near it (the largest, questions' features, are 59
// MB), and a deflated member of zeros can claim gigabytes in kilobytes.
const MaxUnpackedBytes = 4 << 30

// OpenNPZ opens an .npz file. Close it when done.
func OpenNPZ(path string) (*NPZ, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	z, err := NewNPZ(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	z.closer = f
	return z, nil
}

// NewNPZ reads an .npz archive from r (size bytes); name is used in errors.
func NewNPZ(r io.ReaderAt, size int64, name string) (*NPZ, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: not a valid .npz (zip) archive: %w", name, err)
	}
	z := &NPZ{name: name, zr: zr, files: map[string]*zip.File{}}
	for _, f := range zr.File {
		key := strings.TrimSuffix(f.Name, ".npy")
		if _, dup := z.files[key]; dup {
			return nil, fmt.Errorf("%s: key %q appears twice", name, key)
		}
		z.files[key] = f
		z.keys = append(z.keys, key)
	}
	slices.Sort(z.keys)
	return z, nil
}

// Name returns the name used in errors (the path for OpenNPZ).
func (z *NPZ) Name() string { return z.name }

// Keys returns the member names without the .npy suffix, sorted.
func (z *NPZ) Keys() []string { return slices.Clone(z.keys) }

// Has reports whether the archive holds key.
func (z *NPZ) Has(key string) bool { _, ok := z.files[key]; return ok }

// Array reads one member. A missing key is an error that lists the keys present.
func (z *NPZ) Array(key string) (*Array, error) {
	f, ok := z.files[key]
	if !ok {
		return nil, fmt.Errorf("%s: missing key %q (keys: %s)", z.name, key, strings.Join(z.keys, ", "))
	}
	// archive/zip fails a member that decompresses to more than its
	// announced size, so the announced sizes bound what is read.
	if z.unpacked += f.UncompressedSize64; z.unpacked > MaxUnpackedBytes {
		return nil, limits.Errorf("%s: key %q: the members read decompress to %d bytes, more than the %d (%s) an archive may hold",
			z.name, key, z.unpacked, int64(MaxUnpackedBytes), limits.FormatBytes(MaxUnpackedBytes))
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: key %q: %w", z.name, key, err)
	}
	defer rc.Close()
	a, err := Read(bufio.NewReaderSize(rc, 1<<16))
	if err != nil {
		return nil, fmt.Errorf("%s: key %q: %w", z.name, key, err)
	}
	return a, nil
}

// Close releases the file opened by OpenNPZ (a no-op for NewNPZ).
func (z *NPZ) Close() error {
	if z.closer != nil {
		return z.closer.Close()
	}
	return nil
}
