// Package textio reads the line-oriented text files of the datasets and of
// users' own graphs: lines with their numbers, bounded in length, errors
// naming the file and the line.
package textio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxLineBytes bounds one line of a text file (a Chameleon feature row is
// about 4.7 KB).
const MaxLineBytes = 64 << 20

// LineReader yields lines with their 1-based numbers; a final line without a
// newline is returned too. It strips a trailing '\r'.
type LineReader struct {
	sc *bufio.Scanner
	// Name is the file's name in errors; N the number of the last line read.
	Name string
	N    int
	// terminated makes Err report a last line without a newline: the
	// canonical files end with one, so a file cut mid-line (whose last line
	// may still parse, e.g. an edge to node 7 cut from 78) is an error.
	terminated   bool
	unterminated bool // the last line read had no newline
}

// NewLineReader reads the lines of r, a file called name in errors.
func NewLineReader(r io.Reader, name string) *LineReader {
	l := &LineReader{Name: name}
	l.sc = bufio.NewScanner(r)
	l.sc.Buffer(make([]byte, 0, 1<<16), MaxLineBytes)
	l.sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if atEOF && len(data) > 0 && bytes.IndexByte(data, '\n') < 0 {
			l.unterminated = true
		}
		return bufio.ScanLines(data, atEOF)
	})
	return l
}

// NewTerminatedLineReader is a LineReader for files that end with a newline.
func NewTerminatedLineReader(r io.Reader, name string) *LineReader {
	l := NewLineReader(r, name)
	l.terminated = true
	return l
}

// Next returns the next line (without its newline), false at the end.
func (l *LineReader) Next() ([]byte, bool) {
	if !l.sc.Scan() {
		return nil, false
	}
	l.N++
	return bytes.TrimSuffix(l.sc.Bytes(), []byte{'\r'}), true
}

// Err is the error that ended the lines (nil at a clean end), naming the
// file and the line.
func (l *LineReader) Err() error {
	if err := l.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%s:%d: line longer than %d bytes", l.Name, l.N+1, MaxLineBytes)
		}
		return fmt.Errorf("%s:%d: %w", l.Name, l.N+1, err)
	}
	if l.terminated && l.unterminated {
		return fmt.Errorf("%s:%d: the last line has no newline: the file looks cut (truncated download or copy)", l.Name, l.N)
	}
	return nil
}

// Errorf is an error about the last line read, naming the file and line.
func (l *LineReader) Errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", l.Name, l.N, fmt.Sprintf(format, args...))
}
